// The prompt that runs when the window reloads: kept from the moment its turn starts (the
// extension host may go away without warning) until the turn ends, and shown again, marked
// interrupted with a Resend action, when the agent reopens its session.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import * as vscode from 'vscode';
import { WORKSPACE_STATE } from '../storageKeys';
import type { ClientCapabilities } from '@agentclientprotocol/sdk';
import type { AgentClient } from '../../client/connection/agentClient';
import type { ClientFeature, FeatureContext } from '../../client/connection/feature';
import { DisposableStore, type IDisposable } from '../../common/disposable';
import { inFlightPrompt, markInterrupted, parseInFlight, type InFlightPrompt } from '../../session/interruptedPrompt';
import type { Attachment } from '../../shared/protocol';

/** Where the running prompt is kept. */
export interface PromptSlot {
  get(): unknown;
  set(value: InFlightPrompt | undefined): void;
}

/**
 * A JSON file in the workspace's extension storage, written at once. Not the workspace state: in
 * the web workbench a Memento update made a second before a reload can be lost with the page.
 */
export function fileSlot(path: string): PromptSlot {
  return {
    get: () => {
      try {
        return JSON.parse(readFileSync(path, 'utf8')) as unknown;
      } catch {
        return undefined;
      }
    },
    set: (value) => {
      try {
        if (value === undefined) rmSync(path, { force: true });
        else {
          mkdirSync(dirname(path), { recursive: true });
          writeFileSync(path, JSON.stringify(value));
        }
      } catch {
        /* not kept: the reload then shows nothing more than before */
      }
    },
  };
}

/** The workspace state, when the window has no folder (no workspace storage). */
export function mementoSlot(m: vscode.Memento): PromptSlot {
  return { get: () => m.get(KEY), set: (v) => void m.update(KEY, v) };
}

const KEY = WORKSPACE_STATE.inFlightPrompt;

/** Where this window keeps its running prompt: the workspace's storage, else its state. */
export function inFlightSlot(context: vscode.ExtensionContext): PromptSlot {
  return context.storageUri
    ? fileSlot(vscode.Uri.joinPath(context.storageUri, 'in-flight-prompt.json').fsPath)
    : mementoSlot(context.workspaceState);
}

/** The session of the prompt a reload interrupted, for this agent (the one to reopen). */
export function keptSession(slot: PromptSlot, agentName: string): string | undefined {
  const kept = parseInFlight(slot.get());
  return kept?.agentName === agentName ? kept.sessionId : undefined;
}

/** A client feature: follows each connection's sessions and keeps the running prompt. */
export class InterruptedPrompts implements ClientFeature {
  constructor(
    private readonly state: PromptSlot,
    /** Shows the view and sends a prompt to the shown session (PromptSender.send). */
    private readonly resend: (text: string, attachments: Attachment[]) => Promise<void>,
  ) {}

  capabilities(_caps: ClientCapabilities): void {
    /* nothing to advertise */
  }

  attach(ctx: FeatureContext): IDisposable {
    return this.track(ctx.client, ctx.agentName);
  }

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
          this.state.set(inFlightPrompt(store!, agentName));
        } else {
          working.delete(sessionId);
          if (parseInFlight(this.state.get())?.sessionId === sessionId) this.state.set(undefined);
        }
      }),
    );
    let restored = false;
    scope.add(
      client.onDidChangeAgent((a) => {
        if (a.state !== 'ready' || restored) return;
        restored = true;
        const kept = parseInFlight(this.state.get());
        if (kept?.agentName === agentName && !working.has(kept.sessionId)) this.restore(client, kept);
      }),
    );
    return scope;
  }

  private restore(client: AgentClient, kept: InFlightPrompt): void {
    this.state.set(undefined);
    // The agent could not reopen that session (claude-code-acp keeps no history of a session whose
    // first prompt never got an answer): the prompt is shown in the session that opened instead.
    const store = client.getSession(kept.sessionId) ?? client.session;
    if (store) markInterrupted(store, kept, Date.now(), store.sessionId === kept.sessionId);
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
