// Agents nobody uses stop by themselves (tandem.idleAgentMinutes): an agent process holds memory
// and, for some agents, a model connection. An agent is idle when none of its sessions has run a
// turn, waited for the user or been shown for that long; the agent the view shows, one with a
// session whose result the user has not seen yet, and one that works are never stopped. Its
// sessions stay in Open Session… (history); its worktree sessions reopen when it starts again.
import * as vscode from 'vscode';
import type { IDisposable } from '../../common/disposable';
import type { Logger } from '../../common/logger';
import { idleAgentMinutes } from '../config';
import type { Controller } from './controller';
import type { PooledAgent } from './agentPool';

/** What the overview knows: which sessions need the user or wait to be seen. */
export interface SessionAttention {
  sessions(): ReadonlyArray<{ sessionId: string; agentName: string; unseen: boolean; waiting?: string }>;
}

/** How often agents are looked at: minutes are the unit, a minute late is fine. */
const CHECK_MS = 60_000;

export class IdleAgents implements IDisposable {
  /** When each agent last did something or was shown (Date.now()). */
  private readonly active = new WeakMap<PooledAgent, number>();
  private readonly timer: ReturnType<typeof setInterval>;

  constructor(
    private readonly ctl: Pick<Controller, 'agents' | 'current' | 'stopAgent'>,
    private readonly attention: SessionAttention,
    private readonly logger: Logger,
    private readonly minutes: () => number = idleAgentMinutes,
    private readonly now: () => number = Date.now,
  ) {
    this.timer = setInterval(() => void this.check(), CHECK_MS);
  }

  /** Stops the agents idle for the configured time; resolves with their names. */
  async check(): Promise<string[]> {
    const limit = this.minutes() * 60_000;
    const now = this.now();
    const busy = new Set(
      this.attention
        .sessions()
        .filter((s) => s.unseen || s.waiting)
        .map((s) => s.agentName),
    );
    const idle: PooledAgent[] = [];
    for (const a of this.ctl.agents()) {
      const working = a.client.sessions().some((s) => s.status === 'working');
      if (working || busy.has(a.name) || a.client === this.ctl.current) this.active.set(a, now);
      const since = Math.max(this.active.get(a) ?? now, a.lastShown);
      if (!this.active.has(a)) this.active.set(a, now);
      if (limit > 0 && now - since >= limit) idle.push(a);
    }
    for (const a of idle) {
      const why = `Tandem stopped ${a.name}: idle for ${this.minutes()} min (tandem.idleAgentMinutes). Its sessions are in Open Session….`;
      this.logger.info(why);
      vscode.window.setStatusBarMessage(why, 15_000);
      await this.ctl.stopAgent(a.name);
    }
    return idle.map((a) => a.name);
  }

  dispose(): void {
    clearInterval(this.timer);
  }
}
