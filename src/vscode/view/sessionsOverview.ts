// The "Sessions" view beside the session view: every open session of every running agent,
// grouped by what it needs (session/overview.ts). A click shows the session; "Needs you (n)"
// counts the sessions that need the user. It refreshes on the agents' and sessions' changes,
// pending prompts and forms, turn ends and the agent's file changes (at most every 100 ms).
import * as vscode from 'vscode';
import { Disposable } from '../../common/disposable';
import type { Event } from '../../common/event';
import {
  describeSession,
  GROUP_LABEL,
  groupOf,
  overviewGroups,
  type OverviewGroup,
  type OverviewSession,
} from '../../session/overview';
import type { Controller } from '../agent/controller';
import type { TurnEnd } from '../prompts/turnEnds';
import type { SessionState } from '../../session/reducer';

/** A group, a session, or the row under a session with review comments not sent yet. */
export type OverviewNode =
  | { group: OverviewGroup; sessions: OverviewSession[] }
  | OverviewSession
  | { feedback: number; session: OverviewSession };

/** Review comments not sent yet, per session (vscode/review/). */
export interface PendingFeedback {
  pending(sessionId: string): number;
  readonly onDidChange: Event<unknown>;
}

export interface SessionsOverviewDeps {
  ctl: Pick<Controller, 'agents' | 'current' | 'onDidChangeSessions' | 'onDidChangeAgents' | 'onDidReplace'>;
  /** Requests waiting for the user (permission prompts, forms), by session. */
  waiting(): ReadonlyArray<{ sessionId?: string; what: string }>;
  readonly onDidChangeWaiting: Event<unknown>;
  readonly onDidEndTurn: Event<TurnEnd>;
  /** Files the agent changed in a session, and their lines once counted. */
  changeCounts(sessionId: string): { files: number; added?: number; removed?: number; toReview?: number };
  readonly onDidChangeFiles: Event<unknown>;
  /** Whether the user sees the session view now. */
  inSight(): boolean;
  /** The summary the agent gave of the session's changes (Ask the Agent to Summarize), if any. */
  summary?(sessionId: string): string | undefined;
  /** Archived worktree sessions (not open), listed last; `onDidChangeArchived` when they change. */
  archived?(): OverviewSession[];
  readonly onDidChangeArchived?: Event<unknown>;
}

const ICON: Record<OverviewGroup, string> = {
  needsYou: 'bell-dot',
  running: 'loading~spin',
  unseen: 'pass',
  idle: 'circle-outline',
  archived: 'archive',
};

export class SessionsOverview extends Disposable implements vscode.TreeDataProvider<OverviewNode> {
  static readonly viewId = 'tandem.sessionsOverview';
  private readonly changed = this._register(new vscode.EventEmitter<OverviewNode | undefined>());
  readonly onDidChangeTreeData = this.changed.event;
  /** Sessions whose turn ended while the user was not looking at them. */
  private readonly unseen = new Set<string>();
  private timer?: ReturnType<typeof setTimeout>;

  constructor(private readonly d: SessionsOverviewDeps) {
    super();
    const refresh = () => this.schedule();
    this._register(d.ctl.onDidChangeSessions(refresh));
    this._register(d.ctl.onDidChangeAgents(refresh));
    this._register(d.onDidChangeWaiting(refresh));
    this._register(d.onDidChangeFiles(refresh));
    if (d.onDidChangeArchived) this._register(d.onDidChangeArchived(refresh));
    this._register(
      d.onDidEndTurn((e) => {
        if (!(d.inSight() && d.ctl.current?.session?.sessionId === e.sessionId)) this.unseen.add(e.sessionId);
        refresh();
      }),
    );
    this._register(
      d.ctl.onDidReplace(() => {
        this.seen();
        refresh();
      }),
    );
    // "running 3 min" moves on while a turn runs; nothing else would refresh the row then.
    const tick = setInterval(() => {
      if (this.d.ctl.agents().some((a) => a.client.sessions().some((s) => s.status === 'working'))) refresh();
    }, 30_000);
    this._register({ dispose: () => (clearTimeout(this.timer), clearInterval(tick)) });
  }

  private feedback?: PendingFeedback;
  /** Lists "N comments pending" under each session with review comments not sent yet. */
  showFeedback(feedback: PendingFeedback): void {
    this.feedback = feedback;
    this._register(feedback.onDidChange(() => this.schedule()));
    this.schedule();
  }

  /** The shown session is seen (the view became visible, or another session is shown). */
  seen(): void {
    const id = this.d.ctl.current?.session?.sessionId;
    if (id && this.d.inSight() && this.unseen.delete(id)) this.schedule();
  }

  /** Every open session of every agent, and the archived worktree sessions, as the overview lists them. */
  sessions(): OverviewSession[] {
    return [...this.open(), ...(this.d.archived?.() ?? [])];
  }

  private open(): OverviewSession[] {
    const waiting = new Map<string, string>();
    for (const w of this.d.waiting()) if (w.sessionId && !waiting.has(w.sessionId)) waiting.set(w.sessionId, w.what);
    return this.d.ctl.agents().flatMap((a) =>
      a.client.sessions().map((s) => ({
        ...liveFacts(a.client.getSession(s.sessionId)?.state),
        sessionId: s.sessionId,
        agentName: a.name,
        ...(s.place ? { place: s.place } : {}),
        title: s.title,
        status: s.status,
        turns: s.turns,
        waiting: waiting.get(s.sessionId) ?? (a.view.state === 'auth' ? 'a sign-in' : undefined),
        unseen: this.unseen.has(s.sessionId),
        ...changes(this.d.changeCounts(s.sessionId)),
      })),
    );
  }

  /** How many sessions need the user. */
  needsYou(): number {
    return this.sessions().filter((s) => groupOf(s) === 'needsYou').length;
  }

  getChildren(node?: OverviewNode): OverviewNode[] {
    if (!node) return overviewGroups(this.sessions());
    if ('group' in node) return node.sessions;
    if ('feedback' in node) return [];
    const feedback = node.archived ? 0 : (this.feedback?.pending(node.sessionId) ?? 0);
    return feedback ? [{ feedback, session: node }] : [];
  }

  getTreeItem(node: OverviewNode): vscode.TreeItem {
    if ('group' in node) {
      const item = new vscode.TreeItem(
        `${GROUP_LABEL[node.group]} (${node.sessions.length})`,
        vscode.TreeItemCollapsibleState.Expanded,
      );
      item.id = `group:${node.group}`;
      return item;
    }
    if ('feedback' in node) return feedbackItem(node.feedback, node.session);
    const withFeedback = !node.archived && !!this.feedback?.pending(node.sessionId);
    const item = new vscode.TreeItem(
      node.title || 'Untitled session',
      withFeedback ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None,
    );
    // By agent too: ACP session ids are unique per agent only, and a tree view rejects a repeated id.
    item.id = `session:${node.agentName}\u0000${node.sessionId}`;
    item.description = describeSession(node);
    const summary = this.d.summary?.(node.sessionId);
    // The agent's own words, marked as such: it may be wrong about what it did.
    item.tooltip = `${node.title || 'Untitled session'}\n${describeSession(node)}${summary ? `\n\nSummary, in the agent's words:\n${summary}` : ''}`;
    item.iconPath = new vscode.ThemeIcon(ICON[groupOf(node)]);
    // Worktree sessions get the review, apply, commit and discard actions (package.json menus).
    item.contextValue = node.archived ? 'session.archived' : node.place ? 'session.worktree' : 'session';
    if (node.archived) {
      item.command = { command: 'tandem.worktree.restore', title: 'Restore', arguments: [node.sessionId] };
      return item;
    }
    item.command = {
      command: 'tandem.showSession',
      title: 'Show Session',
      arguments: [node.sessionId, node.agentName],
    };
    return item;
  }

  private schedule(): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.changed.fire(undefined);
    }, 100);
  }
}

/** "3 comments pending" under a session: a click (or its inline action) sends them. */
function feedbackItem(count: number, s: OverviewSession): vscode.TreeItem {
  const item = new vscode.TreeItem(`${count} comment${count === 1 ? '' : 's'} pending`);
  item.id = `feedback:${s.agentName}\u0000${s.sessionId}`;
  item.iconPath = new vscode.ThemeIcon('comment-discussion');
  item.tooltip = "Review comments on the agent's changes, not sent yet: click to send them as one prompt";
  item.contextValue = 'feedback';
  item.command = { command: 'tandem.sendFeedback', title: 'Send Feedback', arguments: [s.sessionId] };
  return item;
}

/** What a row adds from the session's state: when its running turn started, its usage. */
function liveFacts(st: SessionState | undefined): Pick<OverviewSession, 'runningSince' | 'usage'> {
  if (!st) return {};
  const since = st.meta.status === 'working' ? st.turns.last()?.header.startedAt : undefined;
  return {
    ...(since !== undefined ? { runningSince: since } : {}),
    ...(st.meta.usage ? { usage: st.meta.usage } : {}),
  };
}

function changes(c: {
  files: number;
  added?: number;
  removed?: number;
  toReview?: number;
}): Pick<OverviewSession, 'files' | 'lines' | 'toReview'> {
  const review = c.toReview ? { toReview: c.toReview } : {};
  return c.added === undefined || c.removed === undefined
    ? { files: c.files, ...review }
    : { files: c.files, lines: { added: c.added, removed: c.removed }, ...review };
}
