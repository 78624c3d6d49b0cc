// Host memory measurements shared by bench/memory.ts (full counts) and
// test/unit/bench/memoryLeak.test.ts (reduced counts in `npm test`):
//  - heapAfterGc(): V8 heapUsed after full collections (works without --expose-gc: the flag is
//    turned on at run time and `gc` fetched from a fresh context);
//  - sessionHeap(): host heap of one session driven by the scripted agent's `flood` step through
//    the real AgentClient (spawn, NDJSON transport, validation, reducer, SessionStore);
//  - leakCheck(): sessions opened and closed on one AgentClient, and whole AgentClient
//    start → prompt → shutdown cycles; the heap after GC must not grow across the cycles.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { AgentClient } from '../../src/client/connection/agentClient';
import { nullLogger } from '../../src/common/logger';
import type { AgentScript } from '../../src/demo/scriptTypes';

const MB = 1024 * 1024;
export const mb = (bytes: number): number => +(bytes / MB).toFixed(2);

let gcFn: (() => void) | undefined = (globalThis as { gc?: () => void }).gc;
function gc(): void {
  if (!gcFn) {
    setFlagsFromString('--expose-gc');
    gcFn = runInNewContext('gc') as () => void;
  }
  gcFn();
}

/** heapUsed after repeated full GCs, with turns of the event loop in between (finalizers, timers). */
export async function heapAfterGc(): Promise<number> {
  let last = Infinity;
  for (let i = 0; i < 6; i++) {
    gc();
    await new Promise((r) => setImmediate(r));
    const h = process.memoryUsage().heapUsed;
    // Stop once a collection frees nothing more worth counting.
    if (i >= 2 && Math.abs(last - h) < 16 * 1024) return h;
    last = h;
  }
  return last;
}

/** The scripted agent built by `node esbuild.mjs --tests-only` (out/), next to this file's out/ copy. */
export const SCRIPTED_AGENT = join(__dirname, '../../test/fixtures/agents/scripted-agent.js');

export interface FloodSize {
  toolCalls: number;
  chunks: number;
}

let scriptDir: string | undefined;
function floodScript(size: FloodSize): string {
  scriptDir ??= mkdtempSync(join(tmpdir(), 'tandem-bench-mem-'));
  const file = join(scriptDir, `flood-${size.toolCalls}-${size.chunks}.json`);
  const script: AgentScript = {
    name: 'memory-bench',
    initialize: { agentCapabilities: { sessionCapabilities: { close: {} } } },
    defaultPrompt: { steps: [{ flood: { toolCalls: size.toolCalls, chunks: size.chunks, lag: 4, kind: 'execute' } }] },
  };
  writeFileSync(file, JSON.stringify(script));
  return file;
}

export function cleanupScripts(): void {
  if (scriptDir) rmSync(scriptDir, { recursive: true, force: true });
  scriptDir = undefined;
}

export function newClient(size: FloodSize): AgentClient {
  return new AgentClient({
    agent: { name: 'Memory bench', command: process.execPath, args: [SCRIPTED_AGENT, floodScript(size)] },
    cwd: tmpdir(),
    logger: nullLogger,
    clientInfo: { name: 'tandem-bench', version: '0' },
  });
}

async function startedClient(size: FloodSize): Promise<AgentClient> {
  const c = newClient(size);
  await c.start();
  if (c.agent.state !== 'ready') throw new Error(`agent did not start: ${c.agent.state} ${c.agent.message ?? ''}`);
  return c;
}

function checkFlood(c: AgentClient, size: FloodSize, sessionId?: string): void {
  const st = (sessionId ? c.getSession(sessionId) : c.session)?.state;
  if (!st) throw new Error('no session');
  if (st.toolCalls.size !== size.toolCalls)
    throw new Error(`session holds ${st.toolCalls.size} tool calls, expected ${size.toolCalls}`);
  let open = 0;
  st.toolCalls.forEach((call) => {
    if (call.status !== 'completed') open++;
  });
  if (open) throw new Error(`${open} tool calls not completed`);
}

export interface SessionHeapResult {
  toolCalls: number;
  chunks: number;
  /** heapUsed with nothing of Tandem loaded beyond the modules (MB). */
  idleMB: number;
  /** Baseline: a started AgentClient with an empty session. */
  emptySessionMB: number;
  /** The same client after the flood turn, everything completed. */
  fullSessionMB: number;
  /** fullSessionMB − emptySessionMB: what the 10,000-call session costs the host. */
  sessionMB: number;
  bytesPerToolCall: number;
  snapshotJsonMB: number;
  turnMs: number;
  rssMB: number;
}

/** Host heap of one AgentClient session after a flood turn of `size`. */
export async function sessionHeap(size: FloodSize): Promise<SessionHeapResult> {
  const idle = await heapAfterGc();
  const c = await startedClient(size);
  const empty = await heapAfterGc();
  const t0 = performance.now();
  await c.prompt('flood');
  const turnMs = performance.now() - t0;
  checkFlood(c, size);
  const full = await heapAfterGc();
  const snapshotJson = JSON.stringify(c.session!.snapshot()).length;
  const rss = process.memoryUsage().rss;
  await c.shutdown();
  return {
    toolCalls: size.toolCalls,
    chunks: size.chunks,
    idleMB: mb(idle),
    emptySessionMB: mb(empty),
    fullSessionMB: mb(full),
    sessionMB: mb(full - empty),
    bytesPerToolCall: Math.round((full - empty) / size.toolCalls),
    snapshotJsonMB: mb(snapshotJson),
    turnMs: Math.round(turnMs),
    rssMB: mb(rss),
  };
}

export interface LeakResult {
  what: string;
  cycles: number;
  warmup: number;
  toolCallsPerSession: number;
  /** Heap one session holds while open (measured in the first cycle): what a leak of one would add. */
  oneSessionMB: number;
  /** Heap after GC after the warm-up cycles, and after every measured cycle. */
  baselineMB: number;
  afterEachMB: number[];
  growthMB: number;
  /** Least-squares slope of afterEachMB over the second half of the cycles (KB per cycle): ~0 when flat. */
  lateSlopeKBPerCycle: number;
  toleranceMB: number;
  ok: boolean;
}

/**
 * Opens and closes `cycles` sessions on one started AgentClient (newSession → flood prompt →
 * closeSession), after `warmup` unmeasured ones. The heap after the last cycle may exceed the
 * heap after the warm-up by at most `toleranceMB`.
 */
export async function sessionLeakCheck(o: {
  cycles: number;
  warmup: number;
  size: FloodSize;
  toleranceMB: number;
}): Promise<LeakResult> {
  const c = await startedClient(o.size);
  const after: number[] = [];
  let baseline = 0;
  let oneSession = 0;
  try {
    // The first session start() opened: closed before the cycles, so every cycle is alike.
    await c.closeSession(c.session!.sessionId);
    for (let i = 0; i < o.warmup + o.cycles; i++) {
      const before = i === 0 ? await heapAfterGc() : 0;
      const store = await c.newSession();
      await c.prompt('flood', store.sessionId);
      checkFlood(c, o.size, store.sessionId);
      if (i === 0) oneSession = (await heapAfterGc()) - before;
      await c.closeSession(store.sessionId);
      if (c.sessions().length !== 0) throw new Error(`${c.sessions().length} sessions still open`);
      if (i === o.warmup - 1) baseline = await heapAfterGc();
      else if (i >= o.warmup) after.push(await heapAfterGc());
    }
  } finally {
    await c.shutdown();
  }
  return leakResult('sessions opened and closed on one AgentClient', o, oneSession, baseline, after);
}

/** `cycles` full AgentClient lifetimes: new → start (spawn, initialize, session/new) → flood prompt → shutdown. */
export async function clientLeakCheck(o: {
  cycles: number;
  warmup: number;
  size: FloodSize;
  toleranceMB: number;
}): Promise<LeakResult> {
  const after: number[] = [];
  let baseline = 0;
  let oneSession = 0;
  for (let i = 0; i < o.warmup + o.cycles; i++) {
    const before = i === 0 ? await heapAfterGc() : 0;
    let c: AgentClient | undefined = await startedClient(o.size);
    await c.prompt('flood');
    checkFlood(c, o.size);
    if (i === 0) oneSession = (await heapAfterGc()) - before;
    await c.shutdown();
    c = undefined;
    if (i === o.warmup - 1) baseline = await heapAfterGc();
    else if (i >= o.warmup) after.push(await heapAfterGc());
  }
  return leakResult('AgentClient start → prompt → shutdown cycles', o, oneSession, baseline, after);
}

function leakResult(
  what: string,
  o: { cycles: number; warmup: number; size: FloodSize; toleranceMB: number },
  oneSession: number,
  baseline: number,
  after: number[],
): LeakResult {
  const last = after[after.length - 1] ?? baseline;
  const growth = last - baseline;
  const late = after.slice(Math.floor(after.length / 2));
  const xm = (late.length - 1) / 2;
  const ym = late.reduce((a, b) => a + b, 0) / (late.length || 1);
  let num = 0,
    den = 0;
  late.forEach((y, x) => {
    num += (x - xm) * (y - ym);
    den += (x - xm) ** 2;
  });
  return {
    what,
    cycles: o.cycles,
    warmup: o.warmup,
    toolCallsPerSession: o.size.toolCalls,
    oneSessionMB: mb(oneSession),
    baselineMB: mb(baseline),
    afterEachMB: after.map(mb),
    growthMB: mb(growth),
    lateSlopeKBPerCycle: den ? +(num / den / 1024).toFixed(1) : 0,
    toleranceMB: o.toleranceMB,
    ok: growth <= o.toleranceMB * MB,
  };
}
