// Which files the agent may touch: paths resolve against the session's cwd and through symlinks;
// a real path inside a workspace folder is fine, one outside needs the user's permission
// (PermissionPort) for reads and writes alike, "for this session" remembered per connection.
import * as nodePath from 'node:path';
import type { PermissionOption } from '@agentclientprotocol/sdk';
import { AcpError } from '../acp/errors';
import { ErrorCodes } from '../acp/validation';
import type { PermissionPort } from './permissionPort';
import type { FsPort, WorkspacePort } from './ports';

export type Access = 'read' | 'write';

export class FileAccess {
  /** Real paths outside the workspace the user allowed for the rest of the connection. */
  private readonly allowed = new Set<string>();
  private permissionSeq = 0;

  constructor(
    private readonly deps: { fs: FsPort; workspace: WorkspacePort; permission: PermissionPort },
    private readonly cwd: string,
  ) {}

  /** The agent's path, absolute (relative ones are in the session's cwd). */
  absolute(p: string): string {
    if (typeof p !== 'string' || !p) throw new AcpError('path is required', ErrorCodes.InvalidParams);
    return nodePath.resolve(this.cwd, p);
  }

  /** Symlinks resolved; for a path that does not exist yet, its deepest existing ancestor. */
  async realPath(path: string): Promise<string> {
    const rest: string[] = [];
    let cur = path;
    for (;;) {
      try {
        const real = await this.deps.fs.realpath(cur);
        return rest.length ? nodePath.join(real, ...rest.reverse()) : real;
      } catch {
        const parent = nodePath.dirname(cur);
        if (parent === cur) return path;
        rest.push(nodePath.basename(cur));
        cur = parent;
      }
    }
  }

  private async workspaceRoots(): Promise<string[]> {
    const out: string[] = [];
    for (const f of this.deps.workspace.folders()) {
      out.push(f);
      try {
        const r = await this.deps.fs.realpath(f);
        if (r !== f) out.push(r);
      } catch {
        /* keep as is */
      }
    }
    return out;
  }

  async isInsideWorkspace(real: string): Promise<boolean> {
    return (await this.workspaceRoots()).some((root) => isWithin(root, real));
  }

  /** Resolves when the agent may have `access` to `real` (asking the user if needed); throws when not. */
  async check(sessionId: string, path: string, real: string, access: Access): Promise<void> {
    if (await this.isInsideWorkspace(real)) return;
    if (this.allowed.has(`${access}:${real}`)) return;
    const verb = access === 'read' ? 'Read' : 'Write';
    const via = real !== path ? ` (${path} → ${real})` : '';
    const options: PermissionOption[] = [
      { optionId: 'allow_once', name: 'Allow once', kind: 'allow_once' },
      { optionId: 'allow_always', name: 'Allow for this session', kind: 'allow_always' },
      { optionId: 'reject_once', name: 'Deny', kind: 'reject_once' },
    ];
    const outcome = await this.deps.permission.request(
      sessionId,
      {
        toolCallId: `tandem-fs-${++this.permissionSeq}`,
        title: `${verb} ${real} — outside the workspace${via}`,
        kind: access === 'read' ? 'read' : 'edit',
        status: 'pending',
        locations: [{ path: real }],
        rawInput: { path, resolvedPath: real, access },
      },
      options,
    );
    const chosen = outcome.outcome === 'selected' ? options.find((o) => o.optionId === outcome.optionId) : undefined;
    if (chosen?.kind === 'allow_always') this.allowed.add(`${access}:${real}`);
    if (chosen?.kind === 'allow_once' || chosen?.kind === 'allow_always') return;
    throw new AcpError(
      `The user did not allow ${access === 'read' ? 'reading' : 'writing'} ${path}: it is outside the workspace folders${via}.`,
      ErrorCodes.InvalidRequest,
    );
  }
}

export function isWithin(root: string, p: string): boolean {
  const rel = nodePath.relative(root, p);
  return rel === '' || (rel !== '..' && !rel.startsWith('..' + nodePath.sep) && !nodePath.isAbsolute(rel));
}
