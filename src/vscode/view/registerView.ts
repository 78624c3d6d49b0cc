// The session view, in two steps because every other feature reports to it and it shows them
// all: first the webview host (the sidebar; permissions, attention and forms show badges and open
// it), last the feed (what it shows) and the intents (what it asks), once those features exist.
import * as vscode from 'vscode';
import type { Ctx } from '../ctx';
import { SessionViewProvider } from './sessionView';
import { ViewFeed, type ViewFeedSources } from './viewFeed';
import { ViewIntents, type ViewIntentDeps } from './viewIntents';
import { vscodeRequests } from './webviewRequests';

export function registerView(ctx: Ctx): SessionViewProvider {
  const view = ctx.own(new SessionViewProvider(ctx.extension.extensionUri, ctx.logger));
  ctx.own(vscode.window.registerWebviewViewProvider(SessionViewProvider.viewType, view));
  return view;
}

export interface ConnectViewDeps extends Omit<ViewIntentDeps, 'view' | 'logger' | 'queue'> {
  queue: ViewFeedSources['queue'] & ViewIntentDeps['queue'];
  changes: ViewIntentDeps['changes'] & {
    changes: ViewFeedSources['changes'] & {
      list(turn: number): ReturnType<NonNullable<ViewFeedSources['requests']['turnChanges']>>;
    };
  };
}

/** Feeds the view and handles its intents. */
export function connectView(ctx: Ctx, view: SessionViewProvider, d: ConnectViewDeps): ViewIntents {
  const { changes } = d;
  ctx.own(
    new ViewFeed(view, {
      ctl: d.ctl,
      queue: d.queue,
      changes: changes.changes,
      requests: { ...vscodeRequests, turnChanges: ({ turn }) => changes.changes.list(turn) },
    }),
  );
  return ctx.own(new ViewIntents({ ...d, view, logger: ctx.logger }));
}
