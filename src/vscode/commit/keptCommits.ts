// The commits made with "Commit Kept Changes…", recorded per session in workspaceState (they
// outlive the window) and shown in the session's transcript as a notice row ("Committed abc1234 —
// subject", the files below it): the view already draws notices, so nothing of the webview
// changes. A session shown again after a reload gets its notices back; one row per commit and
// session store. The notice's time places it after the turn that ran when the commit was made (in
// a session reloaded from the agent, whose turns carry the reload's time, it comes first).
import type * as vscode from 'vscode';
import { Disposable } from '../../common/disposable';
import type { SessionStore } from '../../session/store';
import type { Controller } from '../agent/controller';
import { WORKSPACE_STATE } from '../storageKeys';

export interface KeptCommit {
  sessionId: string;
  /** The full commit id. */
  sha: string;
  message: string;
  /** Repository-relative paths, "(2 of 3 changes)" after one committed in part. */
  files: string[];
  /** The repository's top folder (a worktree session's: its worktree). */
  repoRoot: string;
  /** The branch it was made on, for a worktree session (tandem/…). */
  branch?: string;
  /** Epoch milliseconds. */
  at: number;
}

/** The records kept: the newest, across sessions. */
const MAX_RECORDS = 500;
const KEY = WORKSPACE_STATE.keptCommits;

export class KeptCommits extends Disposable {
  /** The commits already shown in each open session's store (a reopened session has a new store). */
  private readonly shown = new WeakMap<SessionStore, Set<string>>();

  constructor(
    private readonly state: vscode.Memento,
    private readonly ctl: Pick<Controller, 'clientOf' | 'current' | 'onDidReplace'>,
  ) {
    super();
    this._register(ctl.onDidReplace(() => this.showAll(ctl.current?.session)));
    this.showAll(ctl.current?.session);
  }

  /** The session's commits, oldest first. */
  of(sessionId: string): KeptCommit[] {
    return this.all().filter((c) => c.sessionId === sessionId);
  }

  /** Records `c` and shows it in its session, if that is open. */
  async add(c: KeptCommit): Promise<void> {
    await this.state.update(KEY, [...this.all(), c].slice(-MAX_RECORDS));
    const store = this.ctl.clientOf(c.sessionId)?.getSession(c.sessionId);
    if (store) this.showIn(store, c);
  }

  private all(): KeptCommit[] {
    const v = this.state.get<unknown>(KEY);
    return Array.isArray(v) ? v.filter(isKeptCommit) : [];
  }

  private showAll(store: SessionStore | undefined): void {
    if (store) for (const c of this.of(store.sessionId)) this.showIn(store, c);
  }

  private showIn(store: SessionStore, c: KeptCommit): void {
    const done = this.shown.get(store) ?? new Set<string>();
    this.shown.set(store, done);
    if (done.has(c.sha)) return;
    done.add(c.sha);
    store.dispatch({ type: 'update', at: c.at, update: { sessionUpdate: 'notice', ...commitNotice(c) } });
  }
}

/** The notice row of a commit: "Committed abc1234 — subject", and its files (and branch) below. */
export function commitNotice(c: KeptCommit): { severity: 'info'; title: string; description: string } {
  const subject = c.message.split('\n')[0];
  const where = c.branch ? ` on ${c.branch}` : '';
  return {
    severity: 'info',
    title: `Committed ${c.sha.slice(0, 7)} — ${subject}`,
    description: `${c.files.join(', ')}${where}`,
  };
}

function isKeptCommit(v: unknown): v is KeptCommit {
  const c = v as Partial<KeptCommit> | null;
  return (
    !!c &&
    typeof c.sessionId === 'string' &&
    typeof c.sha === 'string' &&
    typeof c.message === 'string' &&
    Array.isArray(c.files) &&
    typeof c.at === 'number'
  );
}
