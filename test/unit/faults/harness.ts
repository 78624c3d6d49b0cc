// Fault-injection harness: a real AgentClient talking to the scripted agent (a child process),
// with the real client features wired (permissions broker, fs behind fake editor ports over a
// real temp workspace, terminals as real process groups). `check()` asserts the properties every
// fault case must keep:
//   - view consistent: a mirror built like the webview's (snapshot, then patches) equals the
//     store; the session is not left "working"; every tool call has a valid status;
//   - no pending request left unanswered: every agent→client request got a response while the
//     connection was up, no permission prompt is pending (broker and view);
//   - no orphan process: the agent's group and every terminal's group are gone after shutdown.
// The clear message and "no user data lost" are case-specific: each test asserts them itself.
import assert from 'node:assert/strict';
import { afterEach } from 'node:test';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { groupAlive, processAlive } from '../../../src/acp/processGroups';
import { AgentClient } from '../../../src/client/connection/agentClient';
import type { ClientFeature } from '../../../src/client/connection/feature';
import { ChangeTracker } from '../../../src/client/changes/changeTracker';
import { FileSystemFeature } from '../../../src/client/files/fileSystem';
import { PermissionBroker } from '../../../src/client/permissions/broker';
import { PermissionsFeature } from '../../../src/client/permissions/feature';
import { memoryMemento, RememberedDecisions } from '../../../src/client/permissions/remembered';
import type { EditPort, ProcessPort } from '../../../src/client/ports';
import { nodeProcessPort } from '../../../src/client/terminals/nodeProcesses';
import { TerminalsFeature } from '../../../src/client/terminals/terminals';
import { MemoryLogger } from '../../../src/common/logger';
import type { AgentScript } from '../../../src/demo/scriptTypes';
import type { AgentView } from '../../../src/shared/protocol';
import { applyPatches } from '../../../src/shared/patches';
import type { SessionSnapshot } from '../../../src/shared/sessionModel';
import { FakeDocs, FakeEdits, fakeWorkspace, nodeFs } from '../client/fakePorts';
import { until } from '../../support/until';
export { until };

export const AGENT = join(__dirname, '../../fixtures/agents/scripted-agent.js');
const root = mkdtempSync(join(tmpdir(), 'tandem-faults-'));
let seq = 0;
const live = new Set<Fault>();
// A failed assertion must not leave an agent (or a terminal) running: shut down what is left.
afterEach(async () => {
  for (const f of [...live]) await f.client.shutdown().catch(() => undefined);
  live.clear();
});

type Msg = {
  id?: number | string | null;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code: number; message: string };
};

export interface FaultOptions {
  /** How the user answers permission prompts: an optionId, or undefined to leave them pending. */
  answer?: string;
  /** Replace the edit port (disk errors). */
  edits?: (docs: FakeDocs) => EditPort;
  killGraceMs?: number;
  maxLineBytes?: number;
  env?: Record<string, string>;
  cancelTimeoutMs?: number;
}

export class Fault {
  readonly ws: string;
  readonly outside: string;
  readonly logger = new MemoryLogger();
  readonly docs = new FakeDocs();
  readonly edits: EditPort;
  readonly tracker = new ChangeTracker();
  readonly broker: PermissionBroker;
  readonly incoming: Msg[] = [];
  readonly outgoing: Msg[] = [];
  readonly states: AgentView[] = [];
  /** Pids of every terminal command spawned. */
  readonly terminalPids: number[] = [];
  /** Prompts the user was shown (requestId, toolCallId). */
  readonly shown: { requestId: string; toolCallId: string; title?: string }[] = [];
  readonly client: AgentClient;
  /** The webview-like mirror of the active session. */
  mirror?: SessionSnapshot;
  private readonly features: ClientFeature[];

  constructor(
    script: AgentScript | ((dirs: { ws: string; outside: string }) => AgentScript),
    readonly opts: FaultOptions = {},
  ) {
    const dir = join(root, `case-${seq++}`);
    mkdirSync(dir);
    this.ws = join(realpathSync(dir), 'ws');
    this.outside = join(realpathSync(dir), 'outside');
    mkdirSync(this.ws);
    mkdirSync(this.outside);
    const file = join(dir, 'script.json');
    writeFileSync(
      file,
      JSON.stringify(typeof script === 'function' ? script({ ws: this.ws, outside: this.outside }) : script),
    );
    this.edits = opts.edits ? opts.edits(this.docs) : new FakeEdits(this.docs);
    this.broker = new PermissionBroker({
      rules: () => ({ user: [], workspace: [] }),
      roots: () => [this.ws],
      remembered: new RememberedDecisions(memoryMemento()),
      logger: this.logger,
    });
    this.broker.onDidChange((c) => {
      if (c.type !== 'added') return;
      this.shown.push({
        requestId: c.pending.requestId,
        toolCallId: c.pending.view.toolCallId,
        title: c.pending.view.toolCall.title ?? undefined,
      });
      const answer = this.opts.answer;
      if (answer !== undefined) setTimeout(() => this.broker.answer(c.pending.requestId, answer), 5);
    });
    const recording: ProcessPort = {
      spawn: (o) => {
        const p = nodeProcessPort.spawn(o);
        if (p.pid !== undefined) this.terminalPids.push(p.pid);
        return p;
      },
    };
    this.features = [
      new PermissionsFeature(this.broker),
      new FileSystemFeature({
        documents: this.docs,
        fs: nodeFs,
        edits: this.edits,
        workspace: fakeWorkspace(this.ws),
        permission: this.broker,
        tracker: this.tracker,
      }),
      new TerminalsFeature({ processes: recording, killGraceMs: opts.killGraceMs ?? 300, flushMs: 10 }),
    ];
    this.client = new AgentClient({
      agent: { name: 'Scripted', command: process.execPath, args: [AGENT, file], env: opts.env },
      cwd: this.ws,
      logger: this.logger,
      clientInfo: { name: 'tandem-faults', version: '0' },
      features: this.features,
      maxLineBytes: opts.maxLineBytes,
      ...(opts.cancelTimeoutMs !== undefined ? { cancelTimeoutMs: opts.cancelTimeoutMs } : {}),
      traffic: (dir, m) => (dir === 'in' ? this.incoming : this.outgoing).push(slim(m as Msg)),
    });
    live.add(this);
    this.client.onDidChangeAgent((a) => this.states.push(a));
    // The webview's view of the session: a snapshot when the session is (re)placed, then patches.
    this.client.onDidReplaceSession((s) => {
      this.mirror = s.snapshot();
    });
    this.client.onDidChangeSession((c) => {
      if (this.mirror && c.sessionId === this.mirror.meta.sessionId) applyPatches(this.mirror, c.patches);
    });
  }

  get agentPid(): number {
    return (this.client as unknown as { proc: { pid: number } }).proc.pid;
  }

  get snapshot(): SessionSnapshot {
    return this.client.session!.snapshot();
  }

  /** Log lines at warn/error level. */
  problems(): string[] {
    return [...this.logger.messages('warn'), ...this.logger.messages('error')];
  }

  /** Agent→client requests that got no response (ids compared as JSON, id 0 included). */
  unanswered(): Msg[] {
    const answered = new Set(
      this.outgoing
        .filter((m) => m.method === undefined && m.id !== undefined && m.id !== null)
        .map((m) => JSON.stringify(m.id)),
    );
    return this.incoming.filter(
      (m) => typeof m.method === 'string' && m.id !== undefined && m.id !== null && !answered.has(JSON.stringify(m.id)),
    );
  }

  /** The response the client sent to the agent's request with this method (the n-th). */
  responseTo(method: string, n = 0): Msg | undefined {
    const req = this.incoming.filter((m) => m.method === method && m.id !== undefined)[n];
    if (!req) return undefined;
    return this.outgoing.find((m) => m.method === undefined && JSON.stringify(m.id) === JSON.stringify(req.id));
  }

  /** The properties every case keeps (see the header); then shuts down and checks for orphans. */
  async check(opts: { connectionUp?: boolean } = {}): Promise<void> {
    const session = this.client.session;
    if (session) {
      const snap = session.snapshot();
      assert.notEqual(snap.meta.status, 'working', 'the session is not left working');
      for (const [id, call] of Object.entries(snap.toolCalls)) {
        assert.ok(
          ['pending', 'in_progress', 'completed', 'failed'].includes(call.status),
          `tool call ${id} has status ${call.status}`,
        );
      }
      const last = snap.turns.at(-1);
      if (last)
        assert.ok(
          last.stopReason !== undefined || last.error !== undefined,
          `the last turn ended: ${JSON.stringify(last).slice(0, 300)}`,
        );
      assert.deepEqual(snap.permissions, [], 'no permission prompt left in the view');
      assert.ok(this.mirror, 'the view got a snapshot');
      assert.deepEqual(this.mirror, snap, 'the view (snapshot + patches) equals the store');
    }
    assert.deepEqual(this.broker.pending(), [], 'no permission prompt left pending');
    if (opts.connectionUp !== false) {
      // Let replies written a moment ago show in the traffic.
      await until(() => this.unanswered().length === 0, 2000).catch(() => undefined);
      assert.deepEqual(
        this.unanswered().map((m) => `${m.method}#${String(m.id)}`),
        [],
        'every agent request was answered',
      );
    }
    await this.shutdown();
  }

  async shutdown(): Promise<void> {
    let pid: number | undefined;
    try {
      pid = this.agentPid;
    } catch {
      pid = undefined;
    }
    await this.client.shutdown();
    live.delete(this);
    if (pid !== undefined) {
      assert.equal(processAlive(pid), false, `agent ${pid} is gone`);
      assert.equal(groupAlive(pid), false, `agent group ${pid} is gone`);
    }
    // Terminals are killed with the connection (SIGTERM, SIGKILL after the grace).
    await until(() => this.terminalPids.every((p) => !groupAlive(p)), 5000).catch(() => undefined);
    for (const p of this.terminalPids) assert.equal(groupAlive(p), false, `terminal group ${p} is gone`);
  }
}

/** Traffic entries without huge payloads (the 50 MB line must not be kept twice). */
function slim(m: Msg): Msg {
  if (!m || typeof m !== 'object') return m;
  const out: Msg = { id: m.id, method: m.method };
  if (m.error) out.error = m.error;
  if (m.method === undefined && m.result !== undefined)
    out.result = JSON.stringify(m.result).length < 10_000 ? m.result : '[large]';
  if (m.method !== undefined && m.method !== 'session/update') out.params = m.params;
  return out;
}

/** Text of the agent items of a turn. */
export function agentText(snap: SessionSnapshot, turn = 0): string {
  return (snap.turns[turn]?.items ?? [])
    .filter((i) => i.kind === 'agent')
    .flatMap((i) => ('blocks' in i ? i.blocks : []))
    .map((b) => (b.type === 'text' ? b.text : ''))
    .join('');
}
