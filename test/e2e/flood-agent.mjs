#!/usr/bin/env node
// Wraps the scripted agent for the flood e2e: passes stdin/stdout through untouched and
// records when the agent last wrote (ms since epoch) into FLOOD_LAST_WRITE_FILE, so the test
// can measure "shown ≤ 2 s after the last write" against the same clock.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';

const [agent, script] = process.argv.slice(2);
const out = process.env.FLOOD_LAST_WRITE_FILE;
const child = spawn(process.execPath, [agent, script], { stdio: ['pipe', 'pipe', 'inherit'] });
let last = 0,
  bytes = 0,
  saved = 0;
process.stdin.pipe(child.stdin);
child.stdout.on('data', (b) => {
  last = Date.now();
  bytes += b.length;
  process.stdout.write(b);
});
const save = () => {
  if (out && last !== saved) {
    saved = last;
    writeFileSync(out, JSON.stringify({ last, bytes }));
  }
};
const timer = setInterval(save, 50);
child.on('exit', (code) => {
  clearInterval(timer);
  save();
  process.exit(code ?? 0);
});
process.stdin.on('end', () => child.stdin.end());
