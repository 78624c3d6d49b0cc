// Which sessions run in a git worktree of their own (src/worktrees/): session id → its agent and
// worktree, kept in workspaceState so a reload reopens each session in its folder. The records
// are plain data; what is done with a worktree (create, review, apply, commit, discard) lives
// beside this file.
import type * as vscode from 'vscode';
import { Disposable } from '../../common/disposable';
import { Emitter } from '../../common/event';
import type { SessionPlace } from '../../client/connection/sessionPlace';
import type { ArchivedWorktree, WorktreeSession } from '../../worktrees/worktrees';
import { WORKSPACE_STATE } from '../storageKeys';

export interface WorktreeSessionRecord {
  sessionId: string;
  /** The agent the session runs on (tandem.agents name). */
  agentName: string;
  worktree: WorktreeSession;
  /** The user closed its tab: its worktree stays, but a reload or restart does not reopen it. */
  closed?: boolean;
  /** Archived: its work is committed on its branch and its folder removed, until it is restored. */
  archived?: ArchivedWorktree;
}

const KEY = WORKSPACE_STATE.worktreeSessions;

export class WorktreeSessions extends Disposable {
  private readonly changed = this._register(new Emitter<void>());
  /** A record was added or removed. */
  readonly onDidChange = this.changed.event;

  constructor(private readonly state: vscode.Memento) {
    super();
  }

  /** Read and checked once: the file decorations ask for every file shown. Only add/remove write the key. */
  private cached?: WorktreeSessionRecord[];

  all(): WorktreeSessionRecord[] {
    if (!this.cached) {
      const v = this.state.get<unknown>(KEY);
      this.cached = Array.isArray(v) ? v.filter(isRecord) : [];
    }
    return [...this.cached];
  }

  get(sessionId: string | undefined): WorktreeSessionRecord | undefined {
    return sessionId === undefined ? undefined : this.all().find((r) => r.sessionId === sessionId);
  }

  /** Where the session works, for the agent connection (client/connection/sessionPlace.ts). */
  placeOf(sessionId: string): SessionPlace | undefined {
    const r = this.get(sessionId);
    return r && !r.archived ? { cwd: r.worktree.path, label: r.worktree.branch } : undefined;
  }

  /** The record whose worktree folder holds `path` (an agent's file, a follow-along target). */
  holding(path: string): WorktreeSessionRecord | undefined {
    return this.all().find((r) => !r.archived && (path === r.worktree.path || path.startsWith(r.worktree.path + '/')));
  }

  async add(record: WorktreeSessionRecord): Promise<void> {
    const next = [...this.all().filter((r) => r.sessionId !== record.sessionId), record];
    this.cached = next;
    await this.state.update(KEY, next);
    this.changed.fire();
  }

  /** Marks a session closed (its tab) or open again; no change, no write. */
  async setClosed(sessionId: string, closed: boolean): Promise<void> {
    const r = this.get(sessionId);
    if (!r || !!r.closed === closed) return;
    const { closed: _was, ...rest } = r;
    await this.add(closed ? { ...rest, closed } : rest);
  }

  async remove(sessionId: string): Promise<void> {
    const rest = this.all().filter((r) => r.sessionId !== sessionId);
    this.cached = rest;
    await this.state.update(KEY, rest.length ? rest : undefined);
    this.changed.fire();
  }
}

function isRecord(v: unknown): v is WorktreeSessionRecord {
  if (!v || typeof v !== 'object') return false;
  const r = v as Partial<WorktreeSessionRecord>;
  const w = r.worktree as Partial<WorktreeSession> | undefined;
  return (
    typeof r.sessionId === 'string' &&
    typeof r.agentName === 'string' &&
    !!w &&
    typeof w.path === 'string' &&
    typeof w.branch === 'string' &&
    typeof w.base === 'string' &&
    typeof w.repoRoot === 'string'
  );
}
