// A write bringing more lines than the screen keeps skips drawing the ones that scroll away: the
// screen must end up exactly as if every line had been drawn.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Screen } from '../../../src/webview/terminal/screen';

const piece = fc.oneof(
  fc.constantFrom(
    '\n',
    '\r',
    '\t',
    '\x1b[32m',
    '\x1b[1;31m',
    '\x1b[0m',
    '\x1b[m',
    '\x1b[38;5;208m',
    'ok ',
    'é',
    '✓',
    '\x1b[A',
    '\x1b[2A',
    '\x1b[B',
    '\x1b[2K',
    '\x1b[5G',
    '\x1b[H',
    '\x1b[J',
    '\b',
  ),
  fc.string({ minLength: 1, maxLength: 12 }).map((x) => x.replace(/[\x00-\x1f\x7f]/g, '')),
);
const styled = (s: Screen) => s.lines.map((l) => s.runs(l).map((r) => [r.text, JSON.stringify(s.styleTable[r.style])]));

test('one big write and the same output in small writes leave the same screen, colors and dropped count', () => {
  fc.assert(
    fc.property(
      fc.array(piece, { minLength: 0, maxLength: 400 }),
      fc.array(piece, { maxLength: 30 }),
      (big, before) => {
        const whole = new Screen(5);
        const pieces = new Screen(5);
        // Some output first, then one write with many lines.
        whole.write(before.join(''));
        for (const p of before) pieces.write(p);
        whole.write(big.join(''));
        for (const p of big) pieces.write(p);
        assert.deepEqual(styled(whole), styled(pieces));
        assert.equal(whole.dropped, pieces.dropped);
        assert.equal(whole.text(), pieces.text());
      },
    ),
    {
      numRuns: 300,
      // A cursor moved up into the old lines, then more new lines than the screen keeps.
      examples: [
        [
          ['\x1b[3A', 'X', ...Array(7).fill('\n')],
          ['a\n', 'b\n', 'c\n', 'd\n', 'e\n'],
        ],
      ],
    },
  );
});

test('a write of 3,000 lines keeps the last 1,000 with the color set before them', () => {
  const s = new Screen(1000);
  let out = '\x1b[32m';
  for (let i = 1; i <= 3000; i++) out += `line ${i}\n`;
  s.write(out);
  assert.equal(s.lines.length, 1000);
  assert.equal(s.lines[998].chars.join(''), 'line 3000');
  assert.equal(s.styleTable[s.lines[998].styles[0]].fg, 'green');
  assert.equal(s.dropped, 2001);
});
