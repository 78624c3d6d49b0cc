#!/usr/bin/env node
// Wraps the scripted agent for the flood e2e: passes stdin/stdout through untouched and
// records when the agent last wrote (ms since epoch) into FLOOD_LAST_WRITE_FILE, so the test
// can measure "shown ≤ 2 s after the last write" against the same clock.
//
// FLOOD_GO_FILE (optional; test/e2e/flood-four.e2e.mjs): floods of several agents start at one
// moment. A `session/prompt` whose text contains "flood" (and everything the client sends after
// it) waits until that file holds a number greater than it held when the prompt came (no file: 0);
// the test writes the next number once every agent's prompt is in. The record then also says when
// the prompt went to the agent (`released`) and how many turns have ended (`turnEnds`, saved as
// soon as a turn's answer is written).
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

const [agent, script] = process.argv.slice(2);
const out = process.env.FLOOD_LAST_WRITE_FILE;
const goFile = process.env.FLOOD_GO_FILE;
const child = spawn(process.execPath, [agent, script], { stdio: ['pipe', 'pipe', 'inherit'] });
let last = 0,
  bytes = 0,
  saved = 0,
  released = 0,
  turnEnds = 0,
  tail = '';
child.stdout.on('data', (b) => {
  last = Date.now();
  bytes += b.length;
  process.stdout.write(b);
  if (goFile) countTurnEnds(b.toString('latin1'));
});
const save = (force = false) => {
  if (out && (last !== saved || force)) {
    saved = last;
    writeFileSync(out, JSON.stringify(goFile ? { last, bytes, released, turnEnds } : { last, bytes }));
  }
};
const timer = setInterval(save, 50);
child.on('exit', (code) => {
  clearInterval(timer);
  save();
  process.exit(code ?? 0);
});
if (goFile) gateFloodPrompts();
else {
  process.stdin.pipe(child.stdin);
  process.stdin.on('end', () => child.stdin.end());
}

/** A prompt's answer ends its turn: `{"stopReason": …}` (a marker split across two reads counts once). */
function countTurnEnds(text) {
  const MARK = '"stopReason"';
  const seen = tail + text;
  for (let i = seen.indexOf(MARK); i >= 0; i = seen.indexOf(MARK, i + 1)) turnEnds++;
  tail = seen.slice(-(MARK.length - 1));
  if (seen.includes(MARK)) save(true);
}

/** Holds a flood prompt (and what follows it) until FLOOD_GO_FILE holds a greater number than when it came. */
function gateFloodPrompts() {
  const queue = [];
  const utf8 = new StringDecoder('utf8');
  let partial = '',
    waiting = false,
    ended = false;
  const go = () => {
    try {
      return Number(readFileSync(goFile, 'utf8')) || 0;
    } catch {
      return 0;
    }
  };
  const isFloodPrompt = (line) => {
    if (!line.includes('"session/prompt"')) return false;
    try {
      const msg = JSON.parse(line);
      return (msg.params?.prompt ?? []).some((b) => b.type === 'text' && /flood/i.test(b.text ?? ''));
    } catch {
      return false;
    }
  };
  const pump = () => {
    waiting = false;
    while (queue.length) {
      const { line, need } = queue[0];
      if (need > 0 && go() < need) {
        waiting = true;
        setTimeout(pump, 5);
        return;
      }
      if (need > 0) released = Date.now();
      queue.shift();
      child.stdin.write(line);
    }
    if (ended) child.stdin.end();
  };
  process.stdin.on('data', (b) => {
    const lines = (partial + utf8.write(b)).split('\n');
    partial = lines.pop() ?? '';
    for (const l of lines) queue.push({ line: `${l}\n`, need: isFloodPrompt(l) ? go() + 1 : 0 });
    if (!waiting) pump();
  });
  process.stdin.on('end', () => {
    ended = true;
    if (!waiting) pump();
  });
  child.stdin.on('error', () => {
    /* the agent is gone: its exit ends this process */
  });
}
