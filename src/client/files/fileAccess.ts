// Which files the agent may touch: paths resolve against the session's cwd and through symlinks;
// a real path inside a workspace folder is fine (for a session with a place, a worktree: inside
// that folder only), one outside needs the user's permission (PermissionPort) for reads and
// writes alike; "Allow for this session" is remembered for that
// session only (its words), never for the connection's other sessions.
import * as nodePath from 'node:path';
import type { PermissionOption } from '@agentclientprotocol/sdk';
import { AcpError } from '../../acp/errors';
import { ErrorCodes } from '../../acp/validation';
import type { PermissionPort } from '../permissions/permissionPort';
import type { SessionPlace } from '../connection/sessionPlace';
import type { FsPort, WorkspacePort } from '../ports';
import { ancestorSteps, isWithin } from './realPath';

export type Access = 'read' | 'write';

export class FileAccess {
  /** Outside-the-workspace paths the user allowed for the rest of a session: session id, NUL, access:real path. */
  private readonly allowed = new Set<string>();
  private permissionSeq = 0;

  constructor(
    private readonly deps: { fs: Pick<FsPort, 'realpath'>; workspace: WorkspacePort; permission: PermissionPort },
    private readonly cwd: string,
    /** The folder a session works in when it is not the workspace (sessionPlace.ts). */
    private readonly placeOf: (sessionId: string) => SessionPlace | undefined = () => undefined,
  ) {}

  /** The agent's path, absolute (relative ones are in the session's cwd). */
  absolute(p: string, sessionId?: string): string {
    if (typeof p !== 'string' || !p) throw new AcpError('path is required', ErrorCodes.InvalidParams);
    const place = sessionId === undefined ? undefined : this.placeOf(sessionId);
    return nodePath.resolve(place?.cwd ?? this.cwd, p);
  }

  /** Symlinks resolved; for a path that does not exist yet, its deepest existing ancestor. */
  async realPath(path: string): Promise<string> {
    // The same walk as the permission rules' (realPath.ts), through the FsPort.
    for (const { dir, rest } of ancestorSteps(path)) {
      try {
        const real = await this.deps.fs.realpath(dir);
        return rest.length ? nodePath.join(real, ...rest) : real;
      } catch {
        /* not there (yet): one level up */
      }
    }
    return path;
  }

  /** The folders counted as inside, each also as its real path: the session's place, else the workspace's. */
  private async workspaceRoots(sessionId: string | undefined): Promise<string[]> {
    const place = sessionId === undefined ? undefined : this.placeOf(sessionId);
    const out: string[] = [];
    for (const f of place ? [place.cwd] : this.deps.workspace.folders()) {
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

  /** Whether `real` is inside the workspace, or, for a session with a place, inside its folder. */
  async isInsideWorkspace(real: string, sessionId?: string): Promise<boolean> {
    return (await this.workspaceRoots(sessionId)).some((root) => isWithin(root, real));
  }

  /**
   * Resolves when the agent may have `access` to `real` (asking the user if needed); throws when not.
   * `ask`: the prompt of this one request (a client tool call's, withdrawn when the call ends).
   */
  async check(
    sessionId: string,
    path: string,
    real: string,
    access: Access,
    ask: PermissionPort = this.deps.permission,
  ): Promise<void> {
    if (await this.isInsideWorkspace(real, sessionId)) return;
    const place = this.placeOf(sessionId);
    const where = place ? `the session's worktree (${place.cwd})` : 'the workspace';
    const key = `${sessionId}\u0000${access}:${real}`;
    if (this.allowed.has(key)) return;
    const verb = access === 'read' ? 'Read' : 'Write';
    const via = real !== path ? ` (${path} → ${real})` : '';
    const options: PermissionOption[] = [
      { optionId: 'allow_once', name: 'Allow once', kind: 'allow_once' },
      { optionId: 'allow_always', name: 'Allow for this session', kind: 'allow_always' },
      { optionId: 'reject_once', name: 'Deny', kind: 'reject_once' },
    ];
    const outcome = await ask.request(
      sessionId,
      {
        toolCallId: `tandem-fs-${++this.permissionSeq}`,
        title: `${verb} ${real} — outside ${where}${via}`,
        kind: access === 'read' ? 'read' : 'edit',
        status: 'pending',
        locations: [{ path: real }],
        // `outside`: which inside the card names ("outside the workspace", "outside this session's worktree").
        rawInput: { path, resolvedPath: real, access, outside: place ? 'worktree' : 'workspace' },
      },
      options,
    );
    const chosen = outcome.outcome === 'selected' ? options.find((o) => o.optionId === outcome.optionId) : undefined;
    if (chosen?.kind === 'allow_always') this.allowed.add(key);
    if (chosen?.kind === 'allow_once' || chosen?.kind === 'allow_always') return;
    throw new AcpError(
      `The user did not allow ${access === 'read' ? 'reading' : 'writing'} ${path}: it is outside ${place ? where : 'the workspace folders'}${via}.`,
      ErrorCodes.InvalidRequest,
    );
  }
}

/** Re-exported for the callers that always took it from here (followAgent.ts). */
export { isWithin };
