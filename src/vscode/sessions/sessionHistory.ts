// Past sessions per workspace: the local index (workspaceState), merged with the agent's
// session/list in "Tandem: Open Session…", and the session to reopen after a window reload.
import * as vscode from 'vscode';
import { WORKSPACE_STATE } from '../storageKeys';
import type { ClientCapabilities } from '@agentclientprotocol/sdk';
import type { AgentClient } from '../../client/connection/agentClient';
import type { ClientFeature, FeatureContext } from '../../client/connection/feature';
import type { SessionPlace } from '../../client/connection/sessionPlace';
import type { IDisposable } from '../../common/disposable';
import type { Controller } from '../agent/controller';
import {
  mergeWithAgentList,
  parseIndex,
  removeSession,
  upsertSession,
  type SessionIndexEntry,
} from '../../session/sessionIndex';

const INDEX_KEY = WORKSPACE_STATE.sessionIndex;
const LAST_KEY = WORKSPACE_STATE.lastSession;

/** A client feature too: it records each connection's sessions as they change. */
export class SessionHistory implements ClientFeature {
  constructor(
    private readonly state: vscode.Memento,
    /** The session of a prompt a reload interrupted (interruptedPrompts.ts): the one to reopen first. */
    private readonly interrupted?: (agentName: string) => string | undefined,
    /** A past session's own folder (a worktree), where it is reopened. */
    readonly placeOf: (sessionId: string) => SessionPlace | undefined = () => undefined,
  ) {}

  capabilities(_caps: ClientCapabilities): void {
    /* nothing to advertise */
  }

  attach(ctx: FeatureContext): IDisposable {
    return this.track(ctx.client, ctx.agentName, ctx.cwd);
  }

  entries(): SessionIndexEntry[] {
    return parseIndex(this.state.get(INDEX_KEY));
  }

  record(entry: Partial<SessionIndexEntry> & Pick<SessionIndexEntry, 'sessionId'>): void {
    void this.state.update(INDEX_KEY, upsertSession(this.entries(), entry));
  }

  forget(sessionId: string): void {
    void this.state.update(INDEX_KEY, removeSession(this.entries(), sessionId));
  }

  /**
   * The session that was active when the window closed, for this agent. A prompt's session that a
   * reload interrupted comes first: it is kept in a file at once, while a workspace-state update
   * made a moment before a reload can be lost with the web workbench's page.
   */
  lastSession(agentName: string): string | undefined {
    return this.interrupted?.(agentName) ?? this.lastSessions()[agentName];
  }

  /** The agents that had a session open when the window closed (agents run side by side). */
  openAgents(): string[] {
    return Object.keys(this.lastSessions());
  }

  setLastSession(agentName: string, sessionId: string | undefined): void {
    const all = { ...this.lastSessions() };
    if (sessionId) all[agentName] = sessionId;
    else delete all[agentName];
    void this.state.update(LAST_KEY, Object.keys(all).length ? all : undefined);
  }

  /** Agent name → its shown session; older versions kept one `{ agentName, sessionId }`. */
  private lastSessions(): Record<string, string> {
    const v = this.state.get<unknown>(LAST_KEY);
    if (!v || typeof v !== 'object') return {};
    const one = v as { agentName?: unknown; sessionId?: unknown };
    if (typeof one.agentName === 'string' && typeof one.sessionId === 'string')
      return { [one.agentName]: one.sessionId };
    return Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === 'string'));
  }

  /** Records the sessions of one connection as they change (an untouched session is not history). */
  track(client: AgentClient, agentName: string, cwd: string): IDisposable {
    return client.onDidChangeSessions(() => {
      const now = Date.now();
      for (const s of client.sessions()) {
        if (s.turns === 0) continue;
        this.record({
          sessionId: s.sessionId,
          agentName,
          cwd,
          title: s.title,
          turns: s.turns,
          updatedAt: now,
          createdAt: now,
        });
      }
      this.setLastSession(agentName, client.canReopen() ? client.session?.sessionId : undefined);
    });
  }

  /** QuickPick of past sessions; returns the chosen id. */
  async pick(client: AgentClient, agentName: string): Promise<string | undefined> {
    const remote = await client.listSessions().catch((err) => {
      void vscode.window.showWarningMessage(
        `Tandem: ${agentName} could not list its sessions: ${err instanceof Error ? err.message : err}`,
      );
      return [];
    });
    // Open sessions are in the view's switcher already; this lists the ones to reopen.
    const open = new Set(client.sessions().map((s) => s.sessionId));
    const merged = mergeWithAgentList(this.entries(), agentName, remote).filter((e) => !open.has(e.sessionId));
    if (!merged.length) {
      void vscode.window.showInformationMessage(`Tandem: no past sessions of ${agentName} in this workspace yet.`);
      return undefined;
    }
    const canReopen = client.canReopen();
    const items = merged.map((e) => ({
      label: e.title || 'Untitled session',
      description: e.updatedAt ? new Date(e.updatedAt).toLocaleString() : undefined,
      detail: `${e.turns ? `${e.turns} turn${e.turns === 1 ? '' : 's'} · ` : ''}${e.source === 'agent' ? 'from the agent' : 'local history'}${!canReopen ? ' · this agent cannot reopen sessions' : ''}`,
      sessionId: e.sessionId,
    }));
    const choice = await vscode.window.showQuickPick(items, {
      title: `Tandem: Open Session (${agentName})`,
      matchOnDescription: true,
      matchOnDetail: true,
    });
    return choice?.sessionId;
  }
}

/** "Tandem: Open Session…": pick a past session and reopen it (session/load or resume). */
export async function openPastSession(ctl: Controller, history: SessionHistory): Promise<void> {
  await ctl.ensureStarted();
  const client = ctl.current;
  const name = ctl.agent.name;
  if (!client || !name || ctl.agent.state !== 'ready') return;
  const id = await history.pick(client, name);
  if (!id) return;
  if (!client.canReopen() && !client.getSession(id)) {
    void vscode.window.showWarningMessage(
      `Tandem: ${name} cannot reopen past sessions (it supports neither session/load nor session/resume).`,
    );
    return;
  }
  await vscode.window.withProgress(
    { location: { viewId: 'tandem.sessionView' }, title: 'Opening session…' },
    async () => {
      try {
        await client.loadSession(id, history.placeOf(id));
      } catch (err) {
        void vscode.window.showErrorMessage(
          `Tandem: could not reopen that session: ${err instanceof Error ? err.message : err}`,
        );
      }
    },
  );
}

/**
 * "Tandem: Delete Session from History…": a past session leaves the local index, and its
 * checkpoints (the copies of the files it changed) leave the workspace storage. The agent's own
 * record of it, if any, is the agent's.
 */
export async function deletePastSession(
  history: SessionHistory,
  removeCheckpoints: (sessionId: string) => Promise<void>,
  sessionId?: string,
  /** A worktree session offers to bring its work back first; false: the user stopped. */
  beforeDelete: (sessionId: string) => Promise<boolean> = () => Promise.resolve(true),
): Promise<void> {
  let id = sessionId;
  if (!id) {
    const entries = history.entries();
    if (!entries.length) {
      void vscode.window.showInformationMessage('Tandem: no past sessions in this workspace.');
      return;
    }
    const pick = await vscode.window.showQuickPick(
      entries.map((e) => ({
        label: e.title || 'Untitled session',
        description: new Date(e.updatedAt).toLocaleString(),
        detail: `${e.agentName} · ${e.turns} turn${e.turns === 1 ? '' : 's'}`,
        sessionId: e.sessionId,
      })),
      { title: 'Tandem: Delete Session from History', placeHolder: 'Its checkpoints are deleted too' },
    );
    if (!pick) return;
    const sure = await vscode.window.showWarningMessage(
      `Delete "${pick.label}" from the history? Its checkpoints are deleted too: the files it changed can no longer be restored.`,
      { modal: true },
      'Delete',
    );
    if (sure !== 'Delete') return;
    id = pick.sessionId;
  }
  if (!(await beforeDelete(id))) return;
  history.forget(id);
  await removeCheckpoints(id);
}
