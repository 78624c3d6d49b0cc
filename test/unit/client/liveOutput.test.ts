// A terminal's live output on its way to the view: small output every flushMs, a command that
// pours out output every HEAVY_FLUSH_MS, and what is kept after a drop starts on a whole line.
import { test, mock } from 'node:test';
import assert from 'node:assert/strict';
import { HEAVY_FLUSH_MS, LiveOutput } from '../../../src/client/terminals/liveOutput';
import { withMockTimers } from '../../support/mockTimers';

function sink() {
  const out: string[] = [];
  let truncated = 0;
  return {
    out,
    truncations: () => truncated,
    sink: { output: (d: string) => out.push(d), truncated: () => truncated++ },
  };
}
const lines = (from: number, to: number) => {
  let s = '';
  for (let i = from; i < to; i++) s += `line ${String(i).padStart(6, '0')} of the build output\n`;
  return Buffer.from(s);
};

test('small output reaches the view every flushMs', () =>
  withMockTimers(() => {
    const s = sink();
    const live = new LiveOutput(50, s.sink);
    live.push(Buffer.from('one\n'));
    mock.timers.tick(49);
    assert.deepEqual(s.out, []);
    mock.timers.tick(1);
    assert.deepEqual(s.out, ['one\n']);
    live.push(Buffer.from('two\n'));
    mock.timers.tick(50);
    assert.deepEqual(s.out, ['one\n', 'two\n']);
  }));

test('after a heavy flush the next waits HEAVY_FLUSH_MS, and light output brings back the short wait', () =>
  withMockTimers(() => {
    const s = sink();
    const live = new LiveOutput(50, s.sink);
    live.push(lines(0, 3000)); // 96 KB
    mock.timers.tick(50);
    assert.equal(s.out.length, 1);
    live.push(lines(3000, 3100));
    mock.timers.tick(HEAVY_FLUSH_MS - 1);
    assert.equal(s.out.length, 1, 'a pouring command is not flushed every 50 ms');
    mock.timers.tick(1);
    assert.equal(s.out.length, 2);
    live.push(Buffer.from('done\n'));
    mock.timers.tick(50);
    assert.deepEqual(s.out.at(-1), 'done\n');
    // The command's end sends what is held at once, whatever the wait.
    live.push(lines(0, 3000));
    live.flush(true);
    assert.equal(s.out.length, 4);
  }));

test('output dropped at the front: the view is told, and what is kept starts with a whole line on a line of its own', () =>
  withMockTimers(() => {
    const s = sink();
    const live = new LiveOutput(50, s.sink);
    live.push(Buffer.from('a partial line with no end'));
    mock.timers.tick(50);
    // 400 KB in 40 KB pieces between two flushes: more than the view keeps.
    for (let i = 0; i < 10; i++) live.push(lines(i * 1000, (i + 1) * 1000));
    mock.timers.tick(50);
    assert.equal(s.truncations(), 1);
    const sent = s.out[1];
    assert.ok(sent.startsWith('\nline '), JSON.stringify(sent.slice(0, 40)));
    assert.match(sent.split('\n')[1], /^line \d{6} of the build output$/);
    assert.ok(sent.endsWith('line 009999 of the build output\n'));
  }));
