// "Ask the Agent to Summarize": a short prompt to the shown session asking the agent what it
// changed; the agent's answer becomes the session's summary — shown as the agent's words in the
// Sessions view and offered to commit messages — and is kept in the workspace state. The prompt and
// the answer stay in the conversation like any turn: nothing is hidden from the user.
import * as vscode from 'vscode';
import type { AgentClient } from '../../client/connection/agentClient';
import { Disposable } from '../../common/disposable';
import { Emitter } from '../../common/event';
import type { SessionState } from '../../session/reducer';
import type { Controller } from '../agent/controller';
import type { PromptSender } from '../prompts/promptSender';
import { WORKSPACE_STATE } from '../storageKeys';

export const SUMMARY_PROMPT =
  'Summarize the changes you made to files in this session for the user, in 2 to 4 short sentences: what changed and why. No preamble, no lists of tool calls.';

export interface SessionSummary {
  sessionId: string;
  /** The turn whose answer it is (0-based). */
  turn: number;
  /** The agent's words, as it wrote them. */
  text: string;
  at: number;
}

/** Summaries kept at most (the oldest go first). */
const MAX_KEPT = 200;

export class SessionSummaries extends Disposable {
  private readonly changed = this._register(new Emitter<void>());
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly ctl: Pick<Controller, 'current'>,
    private readonly sender: Pick<PromptSender, 'sendTo'>,
    private readonly state: vscode.Memento,
  ) {
    super();
  }

  get(sessionId: string): SessionSummary | undefined {
    return this.all().find((s) => s.sessionId === sessionId);
  }

  /** Asks the shown session's agent; resolves with the summary, or undefined (said why to the user). */
  async ask(): Promise<SessionSummary | undefined> {
    const client = this.ctl.current;
    const session = client?.session;
    if (!client || !session) {
      void vscode.window.showInformationMessage('Tandem: no session is shown to summarize.');
      return undefined;
    }
    if (session.state.meta.status === 'working') {
      void vscode.window.showInformationMessage('Tandem: the agent is working; ask for a summary when its turn ends.');
      return undefined;
    }
    const sessionId = session.sessionId;
    const turn = session.state.turns.length;
    await this.sender.sendTo(client, sessionId, { text: SUMMARY_PROMPT });
    const text = answerOf(client, sessionId, turn);
    if (!text) {
      void vscode.window.showWarningMessage('Tandem: the agent gave no summary (its turn ended without an answer).');
      return undefined;
    }
    const summary: SessionSummary = { sessionId, turn, text, at: Date.now() };
    const rest = this.all().filter((s) => s.sessionId !== sessionId);
    await this.state.update(WORKSPACE_STATE.sessionSummaries, [summary, ...rest].slice(0, MAX_KEPT));
    this.changed.fire();
    return summary;
  }

  private all(): SessionSummary[] {
    const saved = this.state.get<unknown>(WORKSPACE_STATE.sessionSummaries, []);
    return Array.isArray(saved) ? saved.filter(isSummary) : [];
  }
}

/** The agent's message text in `turn` (the last message, the answer after any tool calls). */
function answerOf(client: AgentClient, sessionId: string, turn: number): string | undefined {
  const state: SessionState | undefined = client.getSession(sessionId)?.state;
  const items = state?.turns.get(turn)?.items.toArray() ?? [];
  const last = items.filter((i) => i.kind === 'agent').at(-1);
  if (!last || last.kind !== 'agent') return undefined;
  const text = last.blocks
    .map((b) => (b.type === 'text' ? b.text : ''))
    .join('')
    .trim();
  return text || undefined;
}

function isSummary(s: unknown): s is SessionSummary {
  const x = s as SessionSummary;
  return !!x && typeof x.sessionId === 'string' && typeof x.text === 'string' && typeof x.turn === 'number';
}
