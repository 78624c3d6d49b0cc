// The sidebar webview. The host owns state: on `ready` it sends a snapshot, then patches,
// batched per frame (before `ready` it drops them: the snapshot holds them). A hidden or reloaded
// view is rebuilt from a fresh snapshot. Requests from the view get one reply each, by seq.
import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';
import { Disposable } from '../../common/disposable';
import { Emitter } from '../../common/event';
import type { Logger } from '../../common/logger';
import { parseFromWebview, requestSeq } from '../../shared/parseFromWebview';
import type { RequestParams, RequestResult, ToWebview, WebviewRequest } from '../../shared/protocol';
import { coalescePatches } from '../../shared/patches';
import type { Patch } from '../../shared/sessionModel';
import { TurnOutliner, type TurnSource } from '../../shared/turnOutline';
import type { ViewIntent } from './viewIntents';
import type { RequestHandlers } from './webviewRequests';

export interface ViewSource {
  snapshot(): Extract<ToWebview, { type: 'snapshot' }>;
  /** The session's turns, for loading outlined ones (undefined when it is not the shown session). */
  turns(sessionId: string): TurnSource | undefined;
}

/** The requests a view feed answers; loadTurns the provider answers itself. */
export type ServedRequests = RequestHandlers<'searchFiles' | 'attachSelection'> &
  Partial<RequestHandlers<'turnChanges'>>;

const emptySnapshot = (): Extract<ToWebview, { type: 'snapshot' }> => ({
  type: 'snapshot',
  agent: { state: 'none' },
  session: null,
  workspaceRoots: [],
  sessions: [],
});

const notServed = () => {
  throw new Error('Tandem is still starting.');
};
const refusedRequests = { searchFiles: notServed, attachSelection: notServed, turnChanges: notServed };

/** One frame at 60 Hz: how long patches gather before crossing to the webview. */
const FLUSH_MS = 16;

export class SessionViewProvider extends Disposable implements vscode.WebviewViewProvider {
  static readonly viewType = 'tandem.sessionView';

  private view?: vscode.WebviewView;
  private ready = false;
  private pending: { sessionId: string; patches: Patch[] } | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Which folded turns this view holds only as outlines. */
  private readonly outliner = new TurnOutliner();
  private readonly intents = this._register(new Emitter<ViewIntent>());
  /** What the view shows and answers, from the view feed (viewFeed.ts); nothing until it serves. */
  private source: ViewSource = { snapshot: emptySnapshot, turns: () => undefined };
  private requests: RequestHandlers;
  readonly onIntent = this.intents.event;
  private readonly resolved = this._register(new Emitter<void>());
  /** Fires when the view is first shown (or shown again after being disposed). */
  readonly onDidResolve = this.resolved.event;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly logger: Logger,
  ) {
    super();
    this.requests = { ...refusedRequests, loadTurns: (p) => this.loadTurns(p) };
  }

  /** Where the view's snapshots, turns and request answers come from (the view feed), from now on. */
  serve(source: ViewSource, requests: ServedRequests): void {
    this.source = source;
    // Without a changes model (no workspace storage) a turn lists no changes.
    this.requests = { turnChanges: () => [], ...requests, loadTurns: (p) => this.loadTurns(p) };
    this.refresh();
  }

  get isVisible(): boolean {
    return !!this.view?.visible;
  }

  private badge: vscode.ViewBadge | undefined;
  private readonly visibility = this._register(new Emitter<boolean>());
  /** The view was shown or hidden (or disposed: false). */
  readonly onDidChangeVisibility = this.visibility.event;

  private readonly badges = new Map<string, vscode.ViewBadge>();
  /** A count on the view's icon per source (pending permission prompts, turns ended unseen), summed; 0 clears that source's. */
  setBadge(count: number, tooltip: string, source = 'permissions'): void {
    if (count > 0) this.badges.set(source, { value: count, tooltip });
    else this.badges.delete(source);
    const all = [...this.badges.values()];
    this.badge = all.length
      ? { value: all.reduce((n, b) => n + b.value, 0), tooltip: all.map((b) => b.tooltip).join('; ') }
      : undefined;
    if (this.view) this.view.badge = this.badge;
  }

  private description: string | undefined;
  /** The line beside the view's title ("3 comments pending"); undefined clears it. */
  setDescription(text: string | undefined): void {
    this.description = text;
    if (this.view) this.view.description = text;
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    view.description = this.description;
    this.ready = false;
    const dist = vscode.Uri.joinPath(this.extensionUri, 'dist');
    view.webview.options = {
      enableScripts: true,
      localResourceRoots: [dist, vscode.Uri.joinPath(this.extensionUri, 'media')],
    };
    view.webview.html = this.html(view.webview);
    const subs = [
      view.webview.onDidReceiveMessage((raw) => this.receive(raw)),
      view.onDidChangeVisibility(() => this.visibility.fire(view.visible)),
      view.onDidDispose(() => {
        if (this.view === view) {
          this.view = undefined;
          this.ready = false;
          this.visibility.fire(false);
        }
        subs.forEach((s) => s.dispose());
      }),
    ];
    view.badge = this.badge;
    this.resolved.fire();
  }

  /** Queues patches; they go out together on the next flush. Dropped while not ready: the snapshot covers them. */
  pushPatches(sessionId: string, patches: Patch[]): void {
    if (!this.ready) return;
    const turns = this.source.turns(sessionId);
    this.queue(sessionId, turns ? this.outliner.patches(sessionId, patches, turns) : patches);
  }

  private queue(sessionId: string, patches: readonly Patch[]): void {
    if (!patches.length) return;
    if (this.pending && this.pending.sessionId !== sessionId) this.flush();
    if (!this.pending) this.pending = { sessionId, patches: [] };
    for (const p of patches) this.pending.patches.push(p);
    this.timer ??= setTimeout(() => this.flush(), FLUSH_MS);
  }

  /** Sends a full snapshot now (session replaced, agent restarted). */
  refresh(): void {
    this.pending = undefined;
    if (!this.ready) return;
    const msg = this.source.snapshot();
    this.post({ ...msg, session: this.outliner.snapshot(msg.session) });
  }

  postMessage(msg: ToWebview): void {
    if (this.ready) {
      this.flush();
      this.post(msg);
    }
  }

  show(): void {
    void vscode.commands.executeCommand(`${SessionViewProvider.viewType}.focus`);
  }

  private flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    const p = this.pending;
    this.pending = undefined;
    if (p && p.patches.length && this.ready)
      this.post({ type: 'patch', sessionId: p.sessionId, patches: coalescePatches(p.patches) });
  }

  private post(msg: ToWebview): void {
    void this.view?.webview.postMessage(msg).then(undefined, (err) => this.logger.warn(`webview post failed: ${err}`));
  }

  private receive(raw: unknown): void {
    const msg = parseFromWebview(raw);
    if (typeof msg === 'string') {
      this.logger.warn(`Ignored an invalid message from the Tandem view: ${msg}`);
      const seq = requestSeq(raw);
      if (seq !== undefined) this.post({ type: 'reply', seq, error: `Tandem refused the request: ${msg}` });
      return;
    }
    if (msg.type === 'ready') {
      this.ready = true;
      this.refresh();
      return;
    }
    if (msg.type === 'request') {
      void this.answer(msg);
      return;
    }
    this.intents.fire(msg);
  }

  private async answer(req: WebviewRequest): Promise<void> {
    const handler = this.requests[req.method] as (p: typeof req.params) => unknown;
    try {
      this.post({ type: 'reply', seq: req.seq, result: await handler(req.params) });
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      this.logger.warn(`The Tandem view's ${req.method} request failed: ${message}`);
      this.post({ type: 'reply', seq: req.seq, error: message });
    }
  }

  /** The turns' content goes out in the patch stream now, ahead of the reply. */
  private loadTurns({ sessionId, turns }: RequestParams<'loadTurns'>): RequestResult<'loadTurns'> {
    const source = this.source.turns(sessionId);
    if (!source) return { loaded: [] };
    const patches = this.outliner.request(sessionId, turns, source);
    this.queue(sessionId, patches);
    this.flush();
    return { loaded: patches.flatMap((p) => (p.op === 'fullTurn' ? [p.turn.index] : [])) };
  }

  private html(webview: vscode.Webview): string {
    const nonce = randomBytes(18).toString('base64');
    const asset = (p: string) => webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, p)).toString();
    const csp = [
      `default-src 'none'`,
      // The bundle is an ES module; its lazily loaded chunks (the terminal renderer) come from
      // the extension's dist folder, hence cspSource. Never unsafe-inline / unsafe-eval.
      `script-src 'nonce-${nonce}' ${webview.cspSource}`,
      `style-src ${webview.cspSource}`,
      `font-src ${webview.cspSource}`,
      `img-src ${webview.cspSource} data:`,
    ].join('; ');
    return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${asset('dist/codicon.css')}">
<link rel="stylesheet" href="${asset('media/webview.css')}">
<link rel="stylesheet" href="${asset('media/permissions.css')}">
<link rel="stylesheet" href="${asset('media/elicitation.css')}">
<title>Tandem</title>
</head>
<body>
<div id="root"></div>
<script type="module" nonce="${nonce}" src="${asset('dist/webview.js')}"></script>
</body>
</html>`;
  }

  override dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    super.dispose();
  }
}
