// Edit and resend of an earlier prompt, and its Redo. The view's "Edit and resend" puts the
// prompt in the composer (the `editing` message says how a resend will go back); the resend then
// restores the files to before that prompt (the existing restore, its list and choices), goes back
// in the conversation where the agent can (`_session/rewind` in place, or a fork at its message
// before the prompt: session/rewind.ts, client/connection/rewind.ts), and sends the edited prompt.
// Where the agent can do neither, the user is asked first (editQuestions.ts). Redo undoes the
// restore and shows the rewound turns again; an agent's rewound context cannot be brought back.
// A client feature: `_session/rewind` goes over the connection of the session's agent.
import type { ClientCapabilities } from '@agentclientprotocol/sdk';
import * as vscode from 'vscode';
import type { AgentClient } from '../../client/connection/agentClient';
import type { ClientFeature, FeatureContext } from '../../client/connection/feature';
import { rewindCaps, rewindParams, sendRewind } from '../../client/connection/rewind';
import { Disposable, type IDisposable } from '../../common/disposable';
import { Emitter } from '../../common/event';
import type { Logger } from '../../common/logger';
import { carriedPrompt } from '../../session/carryOver';
import { editWay, turnsFrom, type EditWay } from '../../session/rewind';
import type { SessionStore } from '../../session/store';
import type { EditWayView, ToWebview } from '../../shared/protocol';
import type { Controller } from '../agent/controller';
import type { RestoreCheckpoints } from '../changes/restoreCheckpoint';
import type { PromptDraft, PromptNotices, PromptSender } from '../prompts/promptSender';
import { editDraftOf, type EditDraft } from './editDraft';
import { askFallback, FALLBACK_CHOICES, offerRedo, redoneMessage, sentMessage, type Sent } from './editQuestions';

export interface EditPromptsDeps {
  ctl: Pick<Controller, 'current' | 'agent' | 'switchTo'>;
  sender: Pick<PromptSender, 'sendTo'>;
  restore: Pick<RestoreCheckpoints, 'restoreForEdit' | 'undoRestore'>;
  /** The restore notice: dropped when the conversation went back as far as the files did. */
  notices: PromptNotices;
  view: { show(): void; postMessage(msg: ToWebview): void };
  logger: Logger;
}

/** An edit that went out, for its Redo. */
interface EditRecord {
  client: AgentClient;
  sent: Sent;
  /** The session of the edited prompt, and the one the edited prompt went to. */
  sourceId: string;
  landedIn: string;
  /** The turns of `landedIn` the edit folded as rewound. */
  turns: number[];
  restored: boolean;
}

/** The fallback question was put (the agent can neither rewind nor fork at a message). */
export interface EditQuestion {
  sessionId: string;
  turn: number;
  choices: string[];
}

export class EditPrompts extends Disposable implements ClientFeature {
  private readonly contexts = new WeakMap<AgentClient, FeatureContext>();
  /** The last edit that landed in each session. */
  private readonly edits = new Map<string, EditRecord>();
  private readonly asked = this._register(new Emitter<EditQuestion>());
  /** The user is asked where an edited prompt goes (the integration tests watch for it). */
  readonly onDidAsk = this.asked.event;

  constructor(private readonly d: EditPromptsDeps) {
    super();
  }

  capabilities(_caps: ClientCapabilities): void {
    /* nothing to advertise: it sends extension requests the agent advertised */
  }

  attach(ctx: FeatureContext): IDisposable {
    this.contexts.set(ctx.client, ctx);
    return { dispose: () => this.contexts.delete(ctx.client) };
  }

  /** "Edit and resend" on turn `turn` of the shown session: its prompt goes to the composer. */
  start(turn: number): void {
    const client = this.d.ctl.current;
    const store = client?.session;
    const prompt = store?.state.turns.get(turn)?.items.get(0);
    if (!client || !store || prompt?.kind !== 'user') return;
    this.toComposer(client, store, turn, editDraftOf(prompt.blocks));
  }

  /** The edited prompt of turn `turn`: restore, go back, send. Resolves when its turn has ended (or nothing was sent). */
  async resend(sessionId: string, turn: number, draft: EditDraft): Promise<void> {
    const client = this.d.ctl.current;
    const store = client?.session;
    if (!client || !store || store.sessionId !== sessionId) {
      void vscode.window.showInformationMessage('Tandem: the session of that prompt is not the one shown any more.');
      return;
    }
    const back = () => this.toComposer(client, store, turn, draft);
    if (store.state.meta.status === 'working') {
      void vscode.window.showInformationMessage(
        'Tandem: the agent is still working: edit the prompt when the turn has ended, or cancel the turn first.',
      );
      return back();
    }
    const way = editWay(rewindCaps(client.initializeResult), store.state, turn);
    let fallback = way.kind === 'ask' ? await this.ask(store, turn) : undefined;
    if (way.kind === 'ask' && !fallback) return back();
    const restore = await this.d.restore.restoreForEdit(sessionId, turn);
    if (restore === 'cancelled') return back();
    if (restore === 'noCheckpoint')
      void vscode.window.showWarningMessage(
        `Tandem: prompt ${turn + 1} has no checkpoint in this session (copied from another, or reopened): files were not restored.`,
      );
    const turns = turnsFrom(store.state, turn);
    let landed: { sent: Sent; store: SessionStore; draft: PromptDraft } | undefined;
    if (way.kind !== 'ask') {
      landed = await this.goBack(client, store, turn, way, draft).catch((err: unknown) => {
        this.d.logger.warn(`Edit and resend: going back failed: ${err instanceof Error ? err.message : err}`);
        return undefined;
      });
      if (!landed) {
        fallback = await this.ask(store, turn, `Tandem: ${this.agentName()} could not go back in its conversation`);
        if (!fallback) return back();
      }
    }
    if (fallback === 'here') landed = { sent: 'here', store, draft };
    else if (fallback === 'newSession') {
      const fresh = await client.newSession(undefined, this.contexts.get(client)?.placeOf?.(sessionId));
      landed = {
        sent: 'newSession',
        store: fresh,
        draft: { ...draft, text: carriedPrompt(store.state, turn, draft.text) },
      };
    }
    const { sent, store: target, draft: out } = landed!;
    const record: EditRecord = {
      client,
      sent,
      sourceId: sessionId,
      landedIn: target.sessionId,
      turns: sent === 'rewind' || sent === 'fork' ? turns : [],
      restored: restore === 'restored',
    };
    this.edits.set(target.sessionId, record);
    const sending = this.d.sender.sendTo(client, target.sessionId, out);
    offerRedo(sentMessage(sent, turn), () => this.redo(record));
    await sending;
  }

  /** Redo of the shown session's last edit (or `record`): the files as before it, the rewound turns in view. */
  async redo(record?: EditRecord): Promise<void> {
    record ??= this.edits.get(this.d.ctl.current?.session?.sessionId ?? '');
    if (!record || this.edits.get(record.landedIn) !== record) {
      void vscode.window.showInformationMessage('Tandem: there is no Edit and resend to redo in this session.');
      return;
    }
    if (record.restored && !(await this.d.restore.undoRestore(record.sourceId))) return;
    this.edits.delete(record.landedIn);
    const { client, sent } = record;
    if (sent === 'rewind')
      client.getSession(record.landedIn)?.dispatch({ type: 'unrewound', at: Date.now(), turns: record.turns });
    else if ((sent === 'fork' || sent === 'newSession') && client.getSession(record.sourceId))
      this.d.ctl.switchTo(record.sourceId, client.agent.name);
    void vscode.window.showInformationMessage(redoneMessage(sent, record.restored));
  }

  /** Goes back before turn `turn` the agent's way; the session the prompt then goes to. Throws when the agent refused. */
  private async goBack(
    client: AgentClient,
    store: SessionStore,
    turn: number,
    way: Exclude<EditWay, { kind: 'ask' }>,
    draft: PromptDraft,
  ): Promise<{ sent: Sent; store: SessionStore; draft: PromptDraft }> {
    if (way.kind === 'fork') {
      const fork = await client.newSession(store.sessionId, undefined, { turn, messageId: way.messageId });
      return { sent: 'fork', store: fork, draft };
    }
    const params = rewindParams(store.state, turn);
    const conn = this.contexts.get(client)?.connection;
    if (!params || !conn) throw new Error(`turn ${turn + 1} has no prompt to rewind to, or the agent is gone`);
    await sendRewind(conn, params);
    store.dispatch({ type: 'rewound', at: Date.now(), fromTurn: turn });
    // The agent's context and the files are both back before the prompt: nothing to tell it.
    this.d.notices.take(store.sessionId);
    return { sent: 'rewind', store, draft };
  }

  private async ask(store: SessionStore, turn: number, why?: string) {
    this.asked.fire({ sessionId: store.sessionId, turn, choices: FALLBACK_CHOICES.map((c) => c.label) });
    return askFallback(this.agentName(), turn, why);
  }

  private toComposer(client: AgentClient, store: SessionStore, turn: number, draft: EditDraft): void {
    const way = editWay(rewindCaps(client.initializeResult), store.state, turn);
    const view: EditWayView = way.kind === 'fork' ? (way.messageId ? 'fork' : 'new') : way.kind;
    this.d.view.show();
    this.d.view.postMessage({
      type: 'editing',
      sessionId: store.sessionId,
      turn,
      text: draft.text,
      ...(draft.attachments.length ? { attachments: draft.attachments } : {}),
      way: view,
      agent: this.agentName(),
    });
  }

  private agentName(): string {
    const a = this.d.ctl.agent;
    return a.info?.title ?? a.name ?? 'The agent';
  }
}
