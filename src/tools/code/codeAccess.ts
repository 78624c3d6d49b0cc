// Which files the Code group may open: the question fs/read_text_file asks (FileAccess). A file
// whose real path (symlinks resolved, through the deepest existing ancestor) is outside every
// workspace folder — an absolute path, `../`, a file:// URI, a symlink that leads out — is
// opened only when the user allows it, in the call's session; the agent could otherwise read
// any file through a language feature without the question fs/read_text_file asks. Other URI
// schemes name no file this can check, so they are refused. Pure: realpath comes through CodePort.
import * as nodePath from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileAccess, type Access } from '../../client/files/fileAccess';
import type { PermissionPort } from '../../client/permissions/permissionPort';
import type { CodePort } from './codePort';
import type { ToolCallContext } from '../types';
import type { SessionPlace } from '../../client/connection/sessionPlace';

const URI = /^([a-zA-Z][\w+.-]+):\/\//;
/** The session id `judge` asks FileAccess about: its placeOf answers the call's place for any id. */
const PLACE_KEY = 'call';
/** FileAccess's own port is never used here: every question goes through the call's (ctx.permission). */
const NOBODY: PermissionPort = { request: () => Promise.resolve({ outcome: 'cancelled' }) };

type GatePort = Pick<CodePort, 'folders' | 'realpath'>;
/** Sessions whose "Allow for this session" answers are kept; an older one's are dropped (it asks again). */
const MAX_SESSIONS = 20;

export class CodeFileGate {
  /** Resolves paths and tells inside from outside; asks nobody. */
  private readonly access: FileAccess;
  /** One FileAccess per session: what "Allow for this session" allowed stays in that session. */
  private readonly sessions = new Map<string, FileAccess>();

  constructor(private readonly port: GatePort) {
    this.access = this.fileAccess();
  }

  /** A session with a place (its worktree) has that folder as its only inside (FileAccess's placeOf). */
  private fileAccess(place?: SessionPlace): FileAccess {
    const port = this.port;
    return new FileAccess(
      {
        fs: { realpath: (p) => port.realpath(p) },
        workspace: { folders: () => port.folders().map((f) => f.path) },
        permission: NOBODY,
      },
      // No cwd: FileAccess.absolute is not used, every path here is absolute already.
      '/',
      () => place,
    );
  }

  private forSession(sessionId: string, place: SessionPlace | undefined): FileAccess {
    let a = this.sessions.get(sessionId);
    if (!a) {
      this.sessions.set(sessionId, (a = this.fileAccess(place)));
      if (this.sessions.size > MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value!);
    }
    return a;
  }

  /**
   * True when `ref` (a path or URI) is a file inside a workspace folder — or inside the call's
   * place, for a session in a worktree — after symlinks; never asks.
   */
  async inside(ref: string, ctx?: Pick<ToolCallContext, 'place'>): Promise<boolean> {
    const path = localPath(ref);
    if (path === undefined) return false;
    try {
      return await this.judge(ctx).isInsideWorkspace(await this.access.realPath(path), PLACE_KEY);
    } catch {
      return false;
    }
  }

  /**
   * Resolves with whether `ref` is inside the workspace; a file outside it needs the user's yes
   * and throws when that is not given (the message names the path, never the file's text).
   * `shown`: the path as the agent wrote it.
   */
  async allow(ref: string, shown: string, ctx: ToolCallContext, access: Access): Promise<boolean> {
    const path = localPath(ref);
    if (path === undefined)
      throw new Error(
        `${shown} is not a file path: the Code tools take a path (relative to the workspace folder or absolute) or a file:// URI.`,
      );
    const real = await this.access.realPath(path);
    if (await this.judge(ctx).isInsideWorkspace(real, PLACE_KEY)) return true;
    const where = ctx.place ? `this session's worktree (${ctx.place.label})` : 'the workspace folders';
    if (ctx.sessionId === undefined || !ctx.permission)
      throw new Error(`${shown} is outside ${where}, and there is no permission prompt to ask the user.`);
    await this.forSession(ctx.sessionId, ctx.place).check(ctx.sessionId, path, real, access, ctx.permission);
    return false;
  }

  /** Who says what is inside: the workspace's FileAccess, or one that knows only the call's place. */
  private judge(ctx: Pick<ToolCallContext, 'place'> | undefined): FileAccess {
    return ctx?.place ? this.fileAccess(ctx.place) : this.access;
  }
}

const gates = new WeakMap<GatePort, CodeFileGate>();

/** The gate of a CodePort (one per port: the code tools share it). */
export function gateOf(port: GatePort): CodeFileGate {
  let g = gates.get(port);
  if (!g) gates.set(port, (g = new CodeFileGate(port)));
  return g;
}

/** The absolute file system path a path or file:// URI names; undefined for other schemes. */
function localPath(ref: string): string | undefined {
  const scheme = URI.exec(ref)?.[1];
  // A relative path would be judged against the extension host's cwd: never "inside".
  if (scheme === undefined) return nodePath.isAbsolute(ref) ? ref : undefined;
  if (scheme.toLowerCase() !== 'file') return undefined;
  try {
    return fileURLToPath(ref);
  } catch {
    return undefined;
  }
}
