// The replay agent, bundled to dist/replay-agent.js: plays a recorded ACP session (JSONL written by
// Tandem's traffic recorder, src/acp/trafficRecorder.ts, or a transcript in
// test/fixtures/acp-transcripts/) back AS the agent, with the recorded paths rebased onto the
// cwd the client sends in session/new (see replay.ts).
//
//   node dist/replay-agent.js <recording.jsonl> [--time-scale N] [--max-gap-ms N]
//
// --time-scale multiplies the recorded gaps between the agent's messages (default 1: as recorded;
// 0: at once); --max-gap-ms caps each gap (default 1500, so a model's long pauses stay short).
// In VS Code run it with the extension host's executable and ELECTRON_RUN_AS_NODE=1.
import { readFileSync } from 'node:fs';
import { runReplay } from './replay';
import { parseRecording } from './transcript';

const USAGE = 'usage: replay-agent <recording.jsonl> [--time-scale N] [--max-gap-ms N]\n';

function option(args: string[], name: string, fallback: number): number {
  const at = args.indexOf(name);
  if (at < 0) return fallback;
  const v = Number(args[at + 1]);
  if (!Number.isFinite(v) || v < 0) {
    process.stderr.write(`replay-agent: ${name} needs a number ≥ 0\n${USAGE}`);
    process.exit(2);
  }
  return v;
}

const args = process.argv.slice(2);
const file = args.find((a, i) => !a.startsWith('--') && (i === 0 || !args[i - 1].startsWith('--')));
if (!file) {
  process.stderr.write(USAGE);
  process.exit(2);
}
let text: string;
try {
  text = readFileSync(file, 'utf8');
} catch (err) {
  process.stderr.write(`replay-agent: cannot read ${file}: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(2);
}
const { records, skipped } = parseRecording(text);
if (skipped.length)
  process.stderr.write(
    `[replay] skipped ${skipped.length} line(s) that are not records: ${skipped.slice(0, 10).join(', ')}\n`,
  );
if (!records.some((r) => r.dir === 'c->a' && r.msg.method === 'initialize')) {
  process.stderr.write(`replay-agent: ${file} has no recorded initialize: not an ACP recording\n`);
  process.exit(2);
}
runReplay(
  records,
  { input: process.stdin, output: process.stdout, stderr: process.stderr },
  {
    timeScale: option(args, '--time-scale', 1),
    maxGapMs: option(args, '--max-gap-ms', 1500),
  },
);
