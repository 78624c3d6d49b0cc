// Terminal output comes from the agent's commands (and agent-side terminals from the agent
// itself): a cursor moved down or placed far below the screen stops at its last row, as in a
// terminal, instead of building a line for every row it passed (`ESC[99999999B` froze the view).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Screen } from '../../../src/webview/terminal/screen';

const lines = (s: Screen) => s.text().split('\n');

test("a cursor moved down stops at the screen's last row", () => {
  for (const move of ['\x1b[100000B', '\x1b[100000E', '\x1b[100000;1H', '\x1b[100000f']) {
    const s = new Screen();
    s.write(`top\n${move}x`);
    assert.equal(s.lines.length, 24, JSON.stringify(move));
    assert.equal(s.dropped, 0, JSON.stringify(move));
    assert.equal(lines(s)[23].trimStart(), 'x', JSON.stringify(move));
  }
});

test('below a full screen the last row is the last line; moves within the screen still work', () => {
  const s = new Screen();
  s.write(Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n'));
  s.write('\x1b[2A\r\x1b[2Ktwo up\x1b[999B\r\x1b[2Klast');
  assert.equal(s.lines.length, 30);
  assert.deepEqual(lines(s).slice(-3), ['two up', 'line 29', 'last']);
  // A progress bar that goes up to redraw its rows and down again keeps its rows.
  const p = new Screen();
  p.write('a: 1\nb: 1\n\x1b[2Aa: 2\x1b[1E\rb: 2\x1b[1B\rdone');
  assert.deepEqual(lines(p), ['a: 2', 'b: 2', 'done']);
});
