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
//   permission (PermissionPort), for reads and writes alike (fileAccess.ts).
// - Agents that write the disk themselves report diffs: diffSnapshots.ts keeps the "before".
import type {
  ClientCapabilities,
  ReadTextFileRequest,
  ReadTextFileResponse,
  SessionNotification,
  WriteTextFileRequest,
  WriteTextFileResponse,
} from '@agentclientprotocol/sdk';
import { AcpError } from '../../acp/errors';
import { CLIENT_METHODS } from '../../acp/methods';
import { ErrorCodes } from '../../acp/validation';
import { DisposableStore, type IDisposable } from '../../common/disposable';
import type { Logger } from '../../common/logger';
import type { ClientFeature, FeatureContext } from '../connection/feature';
import type { ChangeTracker } from '../changes/changeTracker';
import { ByteBudget } from './byteBudget';
import { DiffSnapshots } from './diffSnapshots';
import { FileAccess } from './fileAccess';
import type { PermissionPort } from '../permissions/permissionPort';
import type { DocumentsPort, EditPort, FsPort, WorkspacePort } from '../ports';
import { decodeText, formatBytes, sliceLines } from './textSlice';

export const MAX_READ_BYTES = 10 * 1024 * 1024;
/** With line/limit a larger file may be paged through, up to this size. */
export const MAX_PAGED_READ_BYTES = 256 * 1024 * 1024;
/** Bytes of files read from disk held at once across all sessions (one extension host). */
const READ_BUDGET = new ByteBudget(MAX_PAGED_READ_BYTES);

/** What a read returns, refused when the requested part is itself too large to send. */
function sized(content: string, path: string): ReadTextFileResponse {
  if (content.length > MAX_READ_BYTES)
    throw new AcpError(
      `The requested part of ${path} is too large (${formatBytes(content.length)}); read fewer lines with line and limit.`,
      ErrorCodes.InvalidParams,
    );
  return { content };
}

export interface FileSystemDeps {
  documents: DocumentsPort;
  fs: FsPort;
  edits: EditPort;
  workspace: WorkspacePort;
  permission: PermissionPort;
  tracker: ChangeTracker;
  /** Told after each successful agent write (e.g. to warn that a dirty buffer was edited). */
  onDidWrite?: (e: { sessionId: string; path: string; created: boolean; wasDirty: boolean }) => void;
  /** The agent's own name from `initialize` (agentInfo.name), read when a quirk applies (default: the connection's). */
  agentInfoName?: () => string | undefined;
  /** Bytes read from disk held at once (default: one budget for the extension host). */
  readBudget?: ByteBudget;
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

/** One connection's handlers: the versions the agent has read, paths allowed for the session. */
export class FileSystemHandlers {
  /** Buffer version the agent last read (or wrote), per real path. */
  private readonly seenVersion = new Map<string, number>();
  private readonly logger: Logger;
  private readonly access: FileAccess;
  private readonly snapshots: DiffSnapshots;
  private readonly agentInfoName: () => string | undefined;

  constructor(
    private readonly deps: FileSystemDeps,
    ctx: Pick<FeatureContext, 'cwd' | 'logger' | 'session'> & Partial<Pick<FeatureContext, 'client' | 'placeOf'>>,
  ) {
    this.logger = ctx.logger;
    this.agentInfoName = () => deps.agentInfoName?.() ?? ctx.client?.initializeResult?.agentInfo?.name;
    this.access = new FileAccess(deps, ctx.cwd, ctx.placeOf);
    this.snapshots = new DiffSnapshots(deps, ctx, (p, sessionId) => this.access.absolute(p, sessionId));
  }

  async read(p: ReadTextFileRequest): Promise<ReadTextFileResponse> {
    const path = this.access.absolute(p.path, p.sessionId);
    const real = await this.access.realPath(path);
    await this.access.check(p.sessionId, path, real, 'read');
    const doc = this.deps.documents.get(real) ?? (real !== path ? this.deps.documents.get(path) : undefined);
    let text: string;
    if (doc) {
      text = doc.text;
      this.seenVersion.set(real, doc.version);
    } else {
      const stat = await this.deps.fs.stat(real);
      if (!stat) {
        if (missingFileAsEmpty(this.agentInfoName())) return { content: '' };
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
      // Reads from disk share one byte budget: a burst of large paged reads waits for room.
      const release = await (this.deps.readBudget ?? READ_BUDGET).acquire(stat.size);
      try {
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
        text = sliceLines(decoded.text, p.line, p.limit);
      } finally {
        release();
      }
      return sized(text, path);
    }
    return sized(sliceLines(text, p.line, p.limit), path);
  }

  async write(p: WriteTextFileRequest): Promise<WriteTextFileResponse> {
    const path = this.access.absolute(p.path, p.sessionId);
    const real = await this.access.realPath(path);
    await this.access.check(p.sessionId, path, real, 'write');
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
    const turn = this.snapshots.turnOf(p.sessionId);
    // A snapshot of the file taken for an agent-side edit must land before this write's own.
    await this.snapshots.pending(p.sessionId, turn, real);
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
    tracker.markApplied(p.sessionId, turn, real, 'write');
    const after = documents.get(real);
    if (after) this.seenVersion.set(real, after.version);
    this.deps.onDidWrite?.({ sessionId: p.sessionId, path: real, created: !stat, wasDirty: !!doc?.isDirty });
    return {};
  }

  /** Agent-side edits (tool calls with `diff` content): snapshots for Review Changes. */
  observe(n: SessionNotification): void {
    this.snapshots.observe(n);
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
