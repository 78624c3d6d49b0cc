import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TerminalTextFilter } from '../../../src/client/terminals/terminalText';

const plain = (...chunks: string[]) => {
  const f = new TerminalTextFilter();
  return chunks.map((c) => f.push(Buffer.from(c)).toString('utf8')).join('');
};

test('a terminal’s colors, cursor moves and titles are dropped from what the agent reads', () => {
  assert.equal(plain('\x1b[1;32mok\x1b[0m done\r\n'), 'ok done\n');
  assert.equal(plain('\x1b]0;title\x07a\x1b]633;C\x1b\\b'), 'ab', 'OSC ended by BEL or by ST');
  assert.equal(plain('\x1b[2K\x1b[1Gline\x1b(Bx\x1b=y\x07'), 'linexy');
  assert.equal(plain('\x1bP1$r0m\x1b\\z'), 'z', 'a DCS string');
});

test('escape sequences and CRLF split across chunks are handled', () => {
  assert.equal(plain('a\x1b', '[3', '1mb\x1b]0;t', 'itle\x1b', '\\c'), 'abc');
  assert.equal(plain('one\r', '\ntwo\r\n'), 'one\ntwo\n');
  assert.equal(plain('50%\r', '100%\n'), '50%\r100%\n', 'a lone CR (progress) stays');
});

test('multi-byte characters pass through untouched', () => {
  const f = new TerminalTextFilter();
  const bytes = Buffer.from('é€😀\x1b[0m');
  const out = Buffer.concat([...bytes].map((b) => f.push(Uint8Array.of(b))));
  assert.equal(out.toString('utf8'), 'é€😀');
});
