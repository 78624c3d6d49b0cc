// P3: terminal output relay. A command prints ≥ 200 MB; Tandem's relay (TerminalManager: process
// group spawn, outputByteLimit tail buffer, live coalesced streaming into a SessionStore) is
// compared with a raw pipe read of the same command in the same run (budget: ≥ 70 %). Peak RSS
// is sampled during each run; memory must stay within outputByteLimit plus a constant.
// `node out/bench/terminal.js [--mb 200] [--limit 1048576] [--runs 3]`; prints one JSON line.
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { TerminalManager } from '../src/client/terminals/terminals';
import { nullLogger } from '../src/common/logger';
import { SessionStore } from '../src/session/store';

const { values } = parseArgs({
  options: {
    mb: { type: 'string', default: '200' },
    limit: { type: 'string', default: String(1024 * 1024) },
    runs: { type: 'string', default: '5' },
  },
});
const MB = Number(values.mb);
const BYTES = MB * 1024 * 1024;
const LIMIT = Number(values.limit);
const RUNS = Number(values.runs);
// Printable text, 64 KiB writes: what a chatty build or test log looks like.
const SCRIPT =
  `const b=Buffer.alloc(65536,'abcdefghijklmnopqrstuvwxyz0123456789 é€ log line\\n');let left=${BYTES};` +
  `function w(){while(left>0){const n=Math.min(left,b.length);left-=n;if(!process.stdout.write(n===b.length?b:b.subarray(0,n))){process.stdout.once('drain',w);return;}}}w();`;
const ARGS = ['-e', SCRIPT];

function rssSampler(): { stop(): number } {
  let peak = process.memoryUsage().rss;
  const t = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  return {
    stop: () => {
      clearInterval(t);
      return Math.max(peak, process.memoryUsage().rss);
    },
  };
}

async function raw(): Promise<{ secs: number; bytes: number }> {
  const t0 = process.hrtime.bigint();
  let bytes = 0;
  await new Promise<void>((resolve, reject) => {
    const c = spawn(process.execPath, ARGS, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    c.stdout.on('data', (b: Buffer) => {
      bytes += b.length;
    });
    c.stderr.resume();
    c.on('error', reject);
    c.on('close', () => resolve());
  });
  return { secs: Number(process.hrtime.bigint() - t0) / 1e9, bytes };
}

async function relay(): Promise<{
  secs: number;
  bytes: number;
  held: number;
  outputLen: number;
  truncated: boolean;
  viewChars: number;
}> {
  const store = new SessionStore('bench');
  const m = new TerminalManager({ cwd: process.cwd(), logger: nullLogger, session: () => store });
  const t0 = process.hrtime.bigint();
  const { terminalId } = await m.create({
    sessionId: 'bench',
    command: process.execPath,
    args: ARGS,
    outputByteLimit: LIMIT,
  });
  await m.waitForExit({ sessionId: 'bench', terminalId });
  const out = await m.output({ sessionId: 'bench', terminalId });
  const secs = Number(process.hrtime.bigint() - t0) / 1e9;
  const inner = (
    m as unknown as { terms: Map<string, { buffer: { totalBytes: number; heldBytes: number } }> }
  ).terms.get(terminalId)!.buffer;
  const r = {
    secs,
    bytes: inner.totalBytes,
    held: inner.heldBytes,
    outputLen: Buffer.byteLength(out.output),
    truncated: !!out.truncated,
    viewChars: store.state.terminals.get(terminalId)!.output.length,
  };
  await m.release({ sessionId: 'bench', terminalId });
  m.dispose();
  return r;
}

async function main(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const baseRss = process.memoryUsage().rss;
  // Warm up both paths once (JIT, page cache of node itself).
  await raw();
  await relay();
  const rawRuns: number[] = [];
  const relayRuns: number[] = [];
  let rawPeak = 0,
    relayPeak = 0;
  let last: Awaited<ReturnType<typeof relay>> | undefined;
  for (let i = 0; i < RUNS; i++) {
    gc?.();
    let s = rssSampler();
    const a = await raw();
    rawPeak = Math.max(rawPeak, s.stop());
    if (a.bytes !== BYTES) throw new Error(`raw read ${a.bytes} bytes, expected ${BYTES}`);
    rawRuns.push(a.bytes / 1048576 / a.secs);
    gc?.();
    s = rssSampler();
    const b = (last = await relay());
    relayPeak = Math.max(relayPeak, s.stop());
    if (b.bytes !== BYTES) throw new Error(`relay read ${b.bytes} bytes, expected ${BYTES}`);
    relayRuns.push(b.bytes / 1048576 / b.secs);
  }
  const median = (xs: number[]) => xs.slice().sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  const rawMBs = median(rawRuns);
  const relayMBs = median(relayRuns);
  // Pairwise ratios (raw and relay run back to back) resist the noise of a shared machine.
  const ratio = median(rawRuns.map((r, i) => relayRuns[i] / r));
  const extraPeakMB = (relayPeak - rawPeak) / 1048576;
  console.log(
    JSON.stringify({
      bench: 'terminal',
      mb: MB,
      outputByteLimit: LIMIT,
      runs: RUNS,
      rawMBs: round(rawMBs),
      relayMBs: round(relayMBs),
      ratio: round(ratio, 3),
      bestRawMBs: round(Math.max(...rawRuns)),
      bestRelayMBs: round(Math.max(...relayRuns)),
      bestRatio: round(Math.max(...relayRuns) / Math.max(...rawRuns), 3),
      budget: 0.7,
      pass: ratio >= 0.7,
      baseRssMB: round(baseRss / 1048576),
      rawPeakRssMB: round(rawPeak / 1048576),
      relayPeakRssMB: round(relayPeak / 1048576),
      relayExtraPeakMB: round(extraPeakMB),
      heldBytes: last?.held,
      outputBytes: last?.outputLen,
      truncated: last?.truncated,
      viewChars: last?.viewChars,
    }),
  );
}

function round(n: number, d = 1): number {
  const f = 10 ** d;
  return Math.round(n * f) / f;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
