// The "Sessions" overview (sessionsOverview.ts): what it reads — every agent's sessions, the
// permission prompts and forms waiting, turn ends, the agent's file changes — and the command a
// row runs, "Show Session".
import * as vscode from 'vscode';
import type { ChangeTracker } from '../../client/changes/changeTracker';
import type { ElicitationFeature } from '../../client/elicitation';
import type { PermissionBroker } from '../../client/permissions/broker';
import type { IDisposable } from '../../common/disposable';
import type { Controller } from '../agent/controller';
import { IdleAgents } from '../agent/idleAgents';
import type { Ctx } from '../ctx';
import type { TurnEnds } from '../prompts/turnEnds';
import type { WorktreeSessions } from '../worktrees/worktreeSessions';
import { SessionLineCounts } from '../changes/sessionLineCounts';
import type { ReviewedFiles } from '../changes/reviewedFiles';
import type { SessionSummaries } from '../changes/sessionSummaries';
import { SessionsOverview } from './sessionsOverview';

export interface OverviewDeps {
  ctl: Controller;
  view: { readonly isVisible: boolean; readonly onDidChangeVisibility: vscode.Event<boolean>; show(): void };
  broker: PermissionBroker;
  elicitation: ElicitationFeature;
  turns: TurnEnds;
  tracker: ChangeTracker;
  /** Agents' summaries of their sessions: a row's tooltip shows one. */
  summaries?: Pick<SessionSummaries, 'get' | 'onDidChange'>;
  /** Files marked reviewed: a row says how many are left. */
  reviewed?: Pick<ReviewedFiles, 'leftToReview' | 'onDidChange'>;
  /** Worktree sessions: the archived ones are listed too. */
  worktrees?: WorktreeSessions;
}

export function registerOverview(ctx: Ctx, d: OverviewDeps): SessionsOverview {
  const { ctl, view } = d;
  const counts = ctx.own(new SessionLineCounts(d.tracker));
  const overview = ctx.own(
    new SessionsOverview({
      ctl,
      waiting: () => [
        ...d.broker.pending().map((p) => ({ sessionId: p.sessionId, what: 'a permission prompt' })),
        ...d.elicitation
          .pending()
          .map((f) => ({ sessionId: f.sessionId, what: f.mode === 'url' ? 'a page' : 'a form' })),
      ],
      // A form answered in the view changes the shown session: its patches say so.
      onDidChangeWaiting: (listener) =>
        all([d.broker.onDidChange(listener), d.elicitation.onDidAskForm(listener), ctl.onDidChangeSession(listener)]),
      onDidEndTurn: d.turns.onDidEnd,
      summary: (id) => d.summaries?.get(id)?.text,
      changeCounts: (id) => ({ ...counts.counts(id), toReview: d.reviewed?.leftToReview(id) }),
      onDidChangeFiles: (listener) =>
        all([
          d.tracker.onDidChange(listener),
          counts.onDidChange(listener),
          ...(d.reviewed ? [d.reviewed.onDidChange(listener)] : []),
          ...(d.summaries ? [d.summaries.onDidChange(listener)] : []),
        ]),
      inSight: () => view.isVisible && vscode.window.state.focused,
      archived: () =>
        (d.worktrees?.all() ?? [])
          .filter((r) => r.archived)
          .map((r) => ({
            sessionId: r.sessionId,
            agentName: r.agentName,
            place: r.worktree.branch,
            title: r.worktree.name,
            status: 'archived',
            turns: 0,
            unseen: false,
            files: 0,
            archived: true,
          })),
      onDidChangeArchived: d.worktrees?.onDidChange,
    }),
  );
  // No badge of its own: the activity bar sums its views' badges, and the session view's already
  // counts every waiting permission prompt and unseen turn; the group says how many need you.
  ctx.own(vscode.window.createTreeView(SessionsOverview.viewId, { treeDataProvider: overview }));
  ctx.own(view.onDidChangeVisibility(() => overview.seen()));
  ctx.own(vscode.window.onDidChangeWindowState(() => overview.seen()));
  ctx.own(
    vscode.commands.registerCommand('tandem.showSession', (sessionId?: unknown, agentName?: unknown) => {
      if (typeof sessionId !== 'string') return;
      ctl.switchTo(sessionId, typeof agentName === 'string' ? agentName : undefined);
      view.show();
    }),
  );
  ctx.own(new IdleAgents(ctl, overview, ctx.logger));
  return overview;
}

function all(subs: IDisposable[]): IDisposable {
  return { dispose: () => subs.forEach((s) => s.dispose()) };
}
