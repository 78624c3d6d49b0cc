// The comparison of "Ask Several Agents": an editor-area webview, one column per agent (status,
// branch, files with +/−, test run, final message) and its buttons. The host owns the state and
// renders it as escaped HTML (shared/comparisonHtml.ts); the page only shows it and posts clicks,
// each checked (shared/comparisonProtocol.ts) before anything runs. The panel follows its sessions
// live, at most every 200 ms; git is asked for the changes when a turn ends and on Refresh.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { Disposable } from '../../common/disposable';
import { Emitter } from '../../common/event';
import type { Logger } from '../../common/logger';
import { comparisonPage, renderComparison } from '../../shared/comparisonHtml';
import {
  type ColumnInput,
  type ComparisonRecord,
  type ComparisonView,
  type FileChange,
  type TestRun,
  columnView,
  comparisonTitle,
} from '../../shared/comparisonModel';
import type { TurnView } from '../../shared/sessionModel';
import { type FromComparison, type ToComparison, parseFromComparison } from '../../shared/comparisonProtocol';
import { changesOf } from '../../worktrees/worktrees';
import type { Controller } from '../agent/controller';
import { type ApplyAnswers, type ApplyOutcome, applyThisOne } from './comparisonActions';
import type { Comparisons } from './comparisonState';
import { runTestTask } from './comparisonTests';
import { watchSessions } from './comparisonWatch';
import { errorText, reportError } from './worktreeTarget';
import type { WorktreeSessions } from './worktreeSessions';

export interface ComparisonPanelDeps {
  ctl: Controller;
  sessions: WorktreeSessions;
  comparisons: Comparisons;
  logger: Logger;
  extensionUri: vscode.Uri;
}

/** How long changes gather before the page is rendered again: a streaming agent changes its session many times a second. */
const RENDER_MS = 200;

export class ComparisonPanel extends Disposable {
  static readonly viewType = 'tandem.comparison';

  private ready = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly files = new Map<string, { files?: FileChange[]; error?: string }>();
  /** The latest read of each session's changes: an older one that finishes later is dropped. */
  private readonly reads = new Map<string, number>();
  private readonly tests = new Map<string, TestRun>();
  private readonly sending = new Set<string>();
  private readonly sendErrors = new Map<string, string>();
  /** Each session's latest turn seen: once its session closes (a discard), the column still shows it. */
  private readonly lastTurns = new Map<string, TurnView>();
  /** Each session's status and latest turn as last rendered: a change there means a turn began or ended. */
  private readonly turnKeys = new Map<string, string>();
  /** What the page was last sent (the integration tests read it). */
  rendered: ComparisonView | undefined;
  private readonly closed = this._register(new Emitter<void>());
  /** The user closed the panel. */
  readonly onDidClose = this.closed.event;

  static create(d: ComparisonPanelDeps, record: ComparisonRecord): ComparisonPanel {
    const panel = vscode.window.createWebviewPanel(ComparisonPanel.viewType, comparisonTitle(record.prompt), {
      viewColumn: vscode.ViewColumn.Active,
    });
    return new ComparisonPanel(d, record, panel);
  }

  constructor(
    private readonly d: ComparisonPanelDeps,
    private record: ComparisonRecord,
    readonly panel: vscode.WebviewPanel,
  ) {
    super();
    const { ctl, sessions } = d;
    panel.title = comparisonTitle(record.prompt);
    panel.webview.options = {
      enableScripts: true,
      localResourceRoots: [vscode.Uri.joinPath(d.extensionUri, 'dist'), vscode.Uri.joinPath(d.extensionUri, 'media')],
    };
    panel.webview.html = this.html();
    this._register(panel.webview.onDidReceiveMessage((raw) => void this.receive(raw)));
    // A hidden panel's page is thrown away; the next one says `ready` and gets a fresh render.
    this._register(panel.onDidChangeViewState(() => (this.ready &&= panel.visible)));
    this._register(
      panel.onDidDispose(() => {
        this.closed.fire();
        this.dispose();
      }),
    );
    this._register(watchSessions(ctl, sessions, this.sessionIds, () => this.schedule()));
    for (const s of record.sessions) void this.readFiles(s.sessionId);
  }

  get id(): string {
    return this.record.id;
  }

  get sessionIds(): string[] {
    return this.record.sessions.map((s) => s.sessionId);
  }

  reveal(): void {
    this.panel.reveal();
  }

  /** The prompt sent to `sessionId` is on its way: the column works until `sent` settles (undefined, or the error). */
  track(sessionId: string, sent: Promise<string | undefined>): void {
    this.sending.add(sessionId);
    void sent.then((error) => {
      this.sending.delete(sessionId);
      if (error) this.sendErrors.set(sessionId, error);
      this.schedule();
    });
  }

  /** What the page shows now, from the sessions, their worktrees and what this panel knows. */
  model(): ComparisonView {
    const columns = this.record.sessions.map(({ sessionId, agentName }) => {
      const store = this.d.ctl.clientOf(sessionId)?.getSession(sessionId);
      const turns = store?.state.turns.length ?? 0;
      const turn = turns ? store?.fullTurn(turns - 1)?.turn : undefined;
      if (turn) this.lastTurns.set(sessionId, turn);
      const read = this.files.get(sessionId);
      const input: ColumnInput = {
        sessionId,
        agentName,
        branch: this.d.sessions.get(sessionId)?.worktree.branch,
        session: store && { status: store.state.meta.status },
        lastTurn: store ? turn : this.lastTurns.get(sessionId),
        sending: this.sending.has(sessionId),
        sendError: this.sendErrors.get(sessionId),
        files: read?.files,
        filesError: read?.error,
        tests: this.tests.get(sessionId),
        applied: this.record.appliedId === sessionId,
      };
      return columnView(input);
    });
    const applied = this.record.sessions.find((s) => s.sessionId === this.record.appliedId);
    return {
      id: this.record.id,
      prompt: this.record.prompt,
      createdAt: this.record.createdAt,
      ...(applied ? { appliedAgent: applied.agentName } : {}),
      columns,
    };
  }

  /**
   * Acts on a message from the page (already checked). `answers` stands in for the questions of
   * "Apply This One" (tests); resolves when the action is done.
   */
  async handle(msg: FromComparison, answers?: ApplyAnswers): Promise<ApplyOutcome | undefined> {
    switch (msg.type) {
      case 'ready':
        this.ready = true;
        this.render();
        return undefined;
      case 'refresh':
        await Promise.all(this.sessionIds.map((id) => this.readFiles(id)));
        return undefined;
      case 'showSession':
        await vscode.commands.executeCommand('tandem.showSession', msg.sessionId);
        return undefined;
      case 'review':
        await vscode.commands.executeCommand('tandem.worktree.review', msg.sessionId);
        return undefined;
      case 'runTests':
        await this.runTests(msg.sessionId);
        return undefined;
      case 'apply':
        return this.apply(msg.sessionId, answers);
    }
  }

  private async receive(raw: unknown): Promise<void> {
    const msg = parseFromComparison(raw, this.sessionIds);
    if (typeof msg === 'string') {
      this.d.logger.warn(`Ignored an invalid message from the comparison panel: ${msg}`);
      return;
    }
    try {
      await this.handle(msg);
    } catch (err) {
      reportError(this.d.logger, `Comparison: ${msg.type}`, err);
    }
  }

  private async apply(sessionId: string, answers?: ApplyAnswers): Promise<ApplyOutcome | undefined> {
    if (this.model().columns.find((c) => c.sessionId === sessionId)?.status === 'working') {
      void vscode.window.showInformationMessage(
        'Tandem: the agent is still working; apply its work when its turn ends.',
      );
      return undefined;
    }
    const outcome = await applyThisOne(this.d, this.record, sessionId, answers);
    if (outcome.result?.applied || outcome.result?.conflicts.length) {
      this.record = { ...this.record, appliedId: sessionId };
      await this.d.comparisons.put(this.record);
    }
    this.schedule();
    return outcome;
  }

  private async runTests(sessionId: string): Promise<void> {
    const rec = this.d.sessions.get(sessionId);
    if (!rec || this.tests.get(sessionId)?.state === 'running') return;
    const run = await runTestTask(rec.worktree, this.d.logger, (task) => {
      this.tests.set(sessionId, { state: 'running', task });
      this.schedule();
    });
    this.tests.set(sessionId, run);
    this.render();
  }

  /** Asks git what the session's worktree changed, then renders. */
  private async readFiles(sessionId: string): Promise<void> {
    const rec = this.d.sessions.get(sessionId);
    if (!rec) return;
    const seq = (this.reads.get(sessionId) ?? 0) + 1;
    this.reads.set(sessionId, seq);
    let read: { files?: FileChange[]; error?: string };
    try {
      read = { files: await changesOf(rec.worktree) };
    } catch (err) {
      read = { error: `Could not read the changes: ${errorText(err)}` };
    }
    if (this.reads.get(sessionId) !== seq || this.isDisposed) return;
    this.files.set(sessionId, read);
    this.schedule();
  }

  private schedule(): void {
    if (this.isDisposed) return;
    this.timer ??= setTimeout(() => this.render(), RENDER_MS);
  }

  private render(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.isDisposed) return;
    const view = this.model();
    // A turn began or ended (or the session came or went): what the worktree holds may have changed.
    for (const c of view.columns) {
      const store = this.d.ctl.clientOf(c.sessionId)?.getSession(c.sessionId);
      const key = `${c.status}:${store?.state.turns.length ?? 0}`;
      if (this.turnKeys.get(c.sessionId) !== key && c.status !== 'working') void this.readFiles(c.sessionId);
      this.turnKeys.set(c.sessionId, key);
    }
    this.rendered = view;
    if (!this.ready) return;
    const msg: ToComparison = { type: 'render', comparisonId: this.record.id, ...renderComparison(view) };
    void this.panel.webview.postMessage(msg).then(undefined, (err) => this.d.logger.warn(`comparison post: ${err}`));
  }

  private html(): string {
    const webview = this.panel.webview;
    const asset = (p: string) => webview.asWebviewUri(vscode.Uri.joinPath(this.d.extensionUri, p)).toString();
    return comparisonPage({
      cspSource: webview.cspSource,
      nonce: randomBytes(18).toString('base64'),
      script: asset('media/comparison.js'),
      styles: [asset('dist/codicon.css'), asset('media/comparison.css')],
      title: comparisonTitle(this.record.prompt),
    });
  }

  override dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    super.dispose();
  }
}
