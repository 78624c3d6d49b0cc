// The prompt that runs when the window reloads: kept in the workspace state from the moment its
// turn starts (the extension host may go away without warning) until the turn ends, and shown
// again, marked interrupted with a Resend action, when the agent reopens its session.
import * as vscode from 'vscode';
import type { AgentClient } from '../client/agentClient';
import { DisposableStore, type IDisposable } from '../common/disposable';
import { inFlightPrompt, markInterrupted, parseInFlight, type InFlightPrompt } from '../session/interruptedPrompt';
import type { Attachment } from '../shared/protocol';

const KEY = 'tandem.inFlightPrompt';

export class InterruptedPrompts {
  constructor(
    private readonly state: vscode.Memento,
    /** Sends a prompt to the shown session (sendPrompt). */
    private readonly resend: (text: string, attachments: Attachment[]) => Promise<void>,
  ) {}

  /** Keeps the running prompt of `client`'s sessions, and shows the one a reload interrupted once it is ready. */
  track(client: AgentClient, agentName: string): IDisposable {
    const scope = new DisposableStore();
    const working = new Set<string>();
    scope.add(
      client.onDidChangeSession(({ sessionId }) => {
        const store = client.getSession(sessionId);
        const now = store?.state.meta.status === 'working';
        if (now === working.has(sessionId)) return;
        if (now) {
          working.add(sessionId);
          void this.state.update(KEY, inFlightPrompt(store!, agentName));
        } else {
          working.delete(sessionId);
          if (parseInFlight(this.state.get(KEY))?.sessionId === sessionId) void this.state.update(KEY, undefined);
        }
      }),
    );
    let restored = false;
    scope.add(
      client.onDidChangeAgent((a) => {
        if (a.state !== 'ready' || restored) return;
        restored = true;
        const kept = parseInFlight(this.state.get(KEY));
        if (kept?.agentName === agentName && !working.has(kept.sessionId)) this.restore(client, kept);
      }),
    );
    return scope;
  }

  private restore(client: AgentClient, kept: InFlightPrompt): void {
    void this.state.update(KEY, undefined);
    const store = client.getSession(kept.sessionId);
    if (store) markInterrupted(store, kept, Date.now());
    const short = kept.text.length > 60 ? `${kept.text.slice(0, 57)}…` : kept.text;
    void vscode.window
      .showWarningMessage(`Tandem: the window reloaded before the answer to "${short}" finished.`, 'Resend')
      .then((pick) => {
        if (pick !== 'Resend') return;
        if (client.getSession(kept.sessionId)) client.switchTo(kept.sessionId);
        const files = kept.files.map((uri): Attachment => ({ kind: 'file', path: vscode.Uri.parse(uri).fsPath }));
        return this.resend(kept.text, files);
      });
  }
}
