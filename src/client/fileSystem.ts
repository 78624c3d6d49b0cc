// fs/read_text_file and fs/write_text_file through the editor (ports), plus the snapshots the
// "Review changes" list is made of. No vscode here: see ports.ts.
//
// Behaviour (README "Agent file access"):
// - Reads answer from the open buffer (unsaved edits included), else the disk. `line` is
//   1-based; a start past the end gives ''. A missing file is error -32002 "Resource not found:
//   <path> (No such file or directory)" — the SDK's wording, which gemini-cli's check looks for.
//   Quirk: gemini-cli 0.61 cannot see any JSON-RPC error text (its SDK rejects with a plain
//   object, its check reads "[object Object]"), so its edit/write tools fail on any error for a
//   new file; for agents matched by `missingFileAsEmpty` a missing file reads as ''. Binary
//   files and files over 10 MB (without line/limit) get a clear error.
// - Writes go through a WorkspaceEdit (undoable; an open editor shows them at once) and are
//   saved, so the disk and the editor agree for the agent's next command. New files get their
//   parent folders. A buffer with unsaved user edits is written only when the agent has read
//   that exact buffer version (it built on the user's edits, so nothing is lost); otherwise the
//   write is refused with an error telling the agent to read the file again. Nothing is ever
//   silently overwritten.
// - Symlinks are resolved; a real path outside every workspace folder needs the user's
//   permission (PermissionPort), for reads and writes alike.
import * as nodePath from 'node:path';
import type {
  ClientCapabilities,
  PermissionOption,
  ReadTextFileRequest,
  ReadTextFileResponse,
  SessionNotification,
  ToolCallContent,
  WriteTextFileRequest,
  WriteTextFileResponse,
} from '@agentclientprotocol/sdk';
import { AcpError } from '../acp/connection';
import { CLIENT_METHODS } from '../acp/methods';
import { ErrorCodes } from '../acp/validation';
import { DisposableStore, type IDisposable } from '../common/disposable';
import type { Logger } from '../common/logger';
import type { ClientFeature, FeatureContext } from './feature';
import type { ChangeTracker } from './changeTracker';
import type { PermissionPort } from './permissionPort';
import type { DocumentsPort, EditPort, FsPort, WorkspacePort } from './ports';
import { decodeText, formatBytes, sliceLines } from './textSlice';

export const MAX_READ_BYTES = 10 * 1024 * 1024;
/** With line/limit a larger file may be paged through, up to this size. */
export const MAX_PAGED_READ_BYTES = 256 * 1024 * 1024;

export interface FileSystemDeps {
  documents: DocumentsPort;
  fs: FsPort;
  edits: EditPort;
  workspace: WorkspacePort;
  permission: PermissionPort;
  tracker: ChangeTracker;
  /** Told after each successful agent write (e.g. to warn that a dirty buffer was edited). */
  onDidWrite?: (e: { sessionId: string; path: string; created: boolean; wasDirty: boolean }) => void;
  /** The agent's own name from `initialize` (agentInfo.name), read when a quirk applies. */
  agentInfoName?: () => string | undefined;
}

/** Agents that need a missing file to read as '' (see the header). */
export function missingFileAsEmpty(agentInfoName: string | undefined): boolean {
  return !!agentInfoName && /gemini/i.test(agentInfoName);
}

export class FileSystemFeature implements ClientFeature {
  constructor(private readonly deps: FileSystemDeps) {}

  capabilities(caps: ClientCapabilities): void {
    caps.fs = { ...caps.fs, readTextFile: true, writeTextFile: true };
  }

  attach(ctx: FeatureContext): IDisposable {
    const handlers = new FileSystemHandlers(this.deps, ctx);
    const store = new DisposableStore();
    store.add(ctx.connection.onRequest(CLIENT_METHODS.fs_read_text_file, (p) => handlers.read(p)));
    store.add(ctx.connection.onRequest(CLIENT_METHODS.fs_write_text_file, (p) => handlers.write(p)));
    store.add(ctx.connection.onNotification(CLIENT_METHODS.session_update, (n) => handlers.observe(n)));
    return store;
  }
}

type Access = 'read' | 'write';

/** One connection's handlers: the versions the agent has read, paths allowed for the session. */
export class FileSystemHandlers {
  /** Buffer version the agent last read (or wrote), per real path. */
  private readonly seenVersion = new Map<string, number>();
  /** Real paths outside the workspace the user allowed for the rest of the connection. */
  private readonly allowed = new Set<string>();
  private readonly pendingSnapshots = new Map<string, Promise<void>>();
  private readonly logger: Logger;
  private permissionSeq = 0;

  constructor(
    private readonly deps: FileSystemDeps,
    private readonly ctx: Pick<FeatureContext, 'cwd' | 'logger' | 'session'>,
  ) {
    this.logger = ctx.logger;
  }

  async read(p: ReadTextFileRequest): Promise<ReadTextFileResponse> {
    const path = this.absolute(p.path);
    const real = await this.realPath(path);
    await this.checkAccess(p.sessionId, path, real, 'read');
    const doc = this.deps.documents.get(real) ?? (real !== path ? this.deps.documents.get(path) : undefined);
    let text: string;
    if (doc) {
      text = doc.text;
      this.seenVersion.set(real, doc.version);
    } else {
      const stat = await this.deps.fs.stat(real);
      if (!stat) {
        if (missingFileAsEmpty(this.deps.agentInfoName?.())) return { content: '' };
        throw notFound(path);
      }
      if (stat.type === 'directory')
        throw new AcpError(
          `${path} is a directory, not a file. List it with a command instead.`,
          ErrorCodes.InvalidParams,
        );
      const paged = p.line != null || p.limit != null;
      const max = paged ? MAX_PAGED_READ_BYTES : MAX_READ_BYTES;
      if (stat.size > max) {
        throw new AcpError(
          `${path} is too large to read (${formatBytes(stat.size)}; the limit is ${formatBytes(max)}${paged ? '' : ' without line/limit'}).` +
            (paged ? '' : ' Read it in parts with line and limit.'),
          ErrorCodes.InvalidParams,
        );
      }
      let bytes: Uint8Array;
      try {
        bytes = await this.deps.fs.readFile(real);
      } catch (err) {
        throw fsError(err, path);
      }
      const decoded = decodeText(bytes);
      if (!decoded.ok)
        throw new AcpError(
          `${path} is a binary file (${formatBytes(bytes.length)}), not text: it cannot be read as text.`,
          ErrorCodes.InvalidParams,
        );
      text = decoded.text;
    }
    const content = sliceLines(text, p.line, p.limit);
    if (content.length > MAX_READ_BYTES) {
      throw new AcpError(
        `The requested part of ${path} is too large (${formatBytes(content.length)}); read fewer lines with line and limit.`,
        ErrorCodes.InvalidParams,
      );
    }
    return { content };
  }

  async write(p: WriteTextFileRequest): Promise<WriteTextFileResponse> {
    const path = this.absolute(p.path);
    const real = await this.realPath(path);
    await this.checkAccess(p.sessionId, path, real, 'write');
    const { documents, fs, edits, tracker } = this.deps;
    const doc = documents.get(real) ?? (real !== path ? documents.get(path) : undefined);
    if (doc?.isDirty && this.seenVersion.get(real) !== doc.version) {
      throw new AcpError(
        `${path} has unsaved changes in the user's editor that you have not read. Nothing was written. ` +
          'Read the file again (it includes those changes) and apply your change on top of them.',
        ErrorCodes.InvalidRequest,
      );
    }
    const stat = await fs.stat(real);
    if (stat?.type === 'directory')
      throw new AcpError(`${path} is a directory; cannot write text to it.`, ErrorCodes.InvalidParams);
    const turn = this.turnOf(p.sessionId);
    await this.pendingSnapshots.get(snapshotKey(p.sessionId, turn, real));
    let onDisk: Uint8Array | null | undefined;
    if (tracker.needsSnapshot(p.sessionId, turn, real)) {
      let before: Uint8Array | null = null;
      if (stat) {
        try {
          onDisk = before = await fs.readFile(real);
        } catch (err) {
          throw fsError(err, path);
        }
      } else onDisk = null;
      if (doc?.isDirty) before = new TextEncoder().encode(doc.text);
      tracker.snapshot(p.sessionId, turn, real, before, { source: 'write', exact: true });
    }
    try {
      if (stat) await edits.replaceText(real, p.content);
      else await edits.createFile(real, new TextEncoder().encode(p.content));
    } catch (err) {
      // A write that failed half-way (disk full) may have changed the file: then keep the
      // snapshot so Review Changes can restore it; otherwise nothing happened, drop it.
      const damaged = onDisk !== undefined && (await this.changedOnDisk(real, onDisk));
      if (damaged) tracker.markApplied(p.sessionId, turn, real);
      else tracker.forget(p.sessionId, turn, real);
      const message =
        `Could not write ${path}: ${err instanceof Error ? err.message : String(err)}` +
        (damaged ? '. The file may be partly written: its previous content can be restored from Review Changes.' : '');
      this.logger.error(message);
      throw new AcpError(message, ErrorCodes.InternalError);
    }
    tracker.markApplied(p.sessionId, turn, real);
    const after = documents.get(real);
    if (after) this.seenVersion.set(real, after.version);
    this.deps.onDidWrite?.({ sessionId: p.sessionId, path: real, created: !stat, wasDirty: !!doc?.isDirty });
    return {};
  }

  /**
   * Tool calls with `diff` content (agents that write the disk themselves, e.g. claude-agent-acp):
   * snapshot the file while the call is pending, mark it changed when the call completes.
   */
  observe(n: SessionNotification): void {
    const u = n.update;
    if (u.sessionUpdate !== 'tool_call' && u.sessionUpdate !== 'tool_call_update') return;
    const store = this.ctx.session(n.sessionId);
    const view = store?.state.toolCalls.get(u.toolCallId);
    const content: ToolCallContent[] = view?.content ?? u.content ?? [];
    const status = view?.status ?? u.status ?? 'pending';
    const diffs = content.filter((c): c is Extract<ToolCallContent, { type: 'diff' }> => c.type === 'diff');
    const turn = view?.turn ?? this.turnOf(n.sessionId);
    const { tracker } = this.deps;
    const original = originalFileOf(u._meta);
    if (original) {
      // claude-agent-acp reports the whole file as it was before its edit. It writes the disk
      // without waiting for us, so our own read may have come too late: the agent's copy wins.
      const path = this.absolute(original.path);
      const fix = () => tracker.correctBefore(n.sessionId, turn, path, u.toolCallId, original.before);
      const pending = this.pendingSnapshots.get(snapshotKey(n.sessionId, turn, path));
      if (pending) void pending.then(fix);
      else fix();
    }
    if (!diffs.length) return;
    for (const d of diffs) {
      const path = this.absolute(d.path);
      const k = snapshotKey(n.sessionId, turn, path);
      const after = () => {
        if (status === 'completed') tracker.markApplied(n.sessionId, turn, path);
        else if (status === 'failed') tracker.forget(n.sessionId, turn, path);
      };
      if (!tracker.needsSnapshot(n.sessionId, turn, path)) {
        tracker.snapshot(n.sessionId, turn, path, null, { source: 'diff', toolCallId: u.toolCallId });
        after();
        continue;
      }
      const pending = this.pendingSnapshots.get(k);
      if (pending) {
        void pending.then(after);
        continue;
      }
      if (status === 'completed' || status === 'failed') {
        // Seen only after the fact: the disk already changed, rebuild from the diff (inexact).
        if (status === 'completed') {
          const before = d.oldText == null ? null : new TextEncoder().encode(d.oldText);
          tracker.snapshot(n.sessionId, turn, path, before, {
            source: 'diff',
            exact: false,
            toolCallId: u.toolCallId,
            applied: true,
          });
        }
        continue;
      }
      const job = this.readSnapshot(path)
        .then(
          (before) => {
            tracker.snapshot(n.sessionId, turn, path, before, {
              source: 'diff',
              exact: true,
              toolCallId: u.toolCallId,
            });
          },
          (err) => this.logger.warn(`Could not snapshot ${path}: ${err instanceof Error ? err.message : err}`),
        )
        .finally(() => this.pendingSnapshots.delete(k));
      this.pendingSnapshots.set(k, job);
      void job.then(after);
    }
  }

  private async readSnapshot(path: string): Promise<Uint8Array | null> {
    const stat = await this.deps.fs.stat(path);
    if (!stat || stat.type !== 'file') return null;
    return this.deps.fs.readFile(path);
  }

  private turnOf(sessionId: string): number {
    const turns = this.ctx.session(sessionId)?.state.turns.length ?? 0;
    return Math.max(0, turns - 1);
  }

  private absolute(p: string): string {
    if (typeof p !== 'string' || !p) throw new AcpError('path is required', ErrorCodes.InvalidParams);
    return nodePath.resolve(this.ctx.cwd, p);
  }

  /** Symlinks resolved; for a path that does not exist yet, its deepest existing ancestor. */
  private async realPath(path: string): Promise<string> {
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

  /** True when the file on disk no longer has these bytes (null: it did not exist). */
  private async changedOnDisk(real: string, before: Uint8Array | null): Promise<boolean> {
    try {
      const stat = await this.deps.fs.stat(real);
      if (!stat) return before !== null;
      if (before === null) return true;
      if (stat.size !== before.length) return true;
      return !Buffer.from(await this.deps.fs.readFile(real)).equals(Buffer.from(before));
    } catch {
      return true;
    }
  }

  async isInsideWorkspace(real: string): Promise<boolean> {
    return (await this.workspaceRoots()).some((root) => isWithin(root, real));
  }

  private async checkAccess(sessionId: string, path: string, real: string, access: Access): Promise<void> {
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

function snapshotKey(sessionId: string, turn: number, path: string): string {
  return `${sessionId}\u0000${turn}\u0000${path}`;
}

function notFound(path: string): AcpError {
  return new AcpError(`Resource not found: ${path} (No such file or directory)`, ErrorCodes.ResourceNotFound, { path });
}

function fsError(err: unknown, path: string): AcpError {
  const code = (err as { code?: string }).code;
  if (code === 'ENOENT' || code === 'FileNotFound' || code === 'EntryNotFound') return notFound(path);
  return new AcpError(
    `Could not read ${path}: ${err instanceof Error ? err.message : String(err)}`,
    ErrorCodes.InternalError,
  );
}

/** `_meta.claudeCode.toolResponse` of an Edit/Write result: the file before the change (null: new). */
function originalFileOf(meta: unknown): { path: string; before: string | null } | undefined {
  const r = (meta as { claudeCode?: { toolResponse?: unknown } } | undefined)?.claudeCode?.toolResponse as
    { filePath?: unknown; originalFile?: unknown } | undefined;
  if (!r || typeof r !== 'object' || typeof r.filePath !== 'string' || !r.filePath || !('originalFile' in r))
    return undefined;
  if (r.originalFile !== null && typeof r.originalFile !== 'string') return undefined;
  return { path: r.filePath, before: r.originalFile };
}
