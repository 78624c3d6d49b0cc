// A terminal box draws the lines in view, not all it keeps: 20 MB of output replaces every kept
// line on each flush, and drawing them all held the page for 50–130 ms a frame.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { lineWindow, OVERSCAN_LINES } from '../../../src/webview/terminal/lineWindow';

test('following the tail draws the last visible lines and a margin, whatever the scroll says', () => {
  // 1,000 lines of 18 px in a 270 px box: 16 visible.
  assert.deepEqual(lineWindow(1000, 18, 270, 0, true), { first: 1000 - 16 - OVERSCAN_LINES, end: 1000 });
});

test('a box scrolled up draws the lines around its scroll position', () => {
  const w = lineWindow(1000, 18, 270, 18 * 500, false);
  assert.ok(w.first <= 500 && w.first >= 500 - OVERSCAN_LINES, `first ${w.first}`);
  assert.ok(w.end >= 516 && w.end <= 516 + OVERSCAN_LINES, `end ${w.end}`);
});

test('a short output is drawn whole, scrolled or not', () => {
  assert.deepEqual(lineWindow(12, 18, 270, 0, true), { first: 0, end: 12 });
  assert.deepEqual(lineWindow(12, 18, 270, 40, false), { first: 0, end: 12 });
});

test('a scroll position past the end (the output shrank) still draws the tail', () => {
  const w = lineWindow(100, 18, 270, 18 * 5000, false);
  assert.equal(w.end, 100);
  assert.ok(w.first < 100 - 16);
});

test('the terminal renderer keeps 1,000 lines (the empty line after the last newline among them) but puts only the tail in the DOM, the last line included', async () => {
  const dom = new JSDOM('<!DOCTYPE html><body><div id="root"></div></body>', { pretendToBeVisual: true });
  const g = globalThis as Record<string, unknown>;
  for (const k of ['window', 'document', 'navigator', 'HTMLElement', 'Element', 'Node', 'Event'])
    if (!(k in g) || k === 'window' || k === 'document') g[k] = (dom.window as unknown as Record<string, unknown>)[k];
  const { h, render } = require('preact') as typeof import('preact');
  const TerminalScreen = (
    require('../../../src/webview/terminal/TerminalScreen') as typeof import('../../../src/webview/terminal/TerminalScreen')
  ).default;
  let output = '';
  for (let i = 1; i <= 5000; i++) output += `line ${i}\n`;
  const root = document.getElementById('root')!;
  render(h(TerminalScreen, { output, end: output.length }), root);
  const lines = [...root.querySelectorAll('.term-line')].map((l) => l.textContent);
  assert.ok(lines.length < 100, `${lines.length} lines in the DOM`);
  assert.equal(lines.at(-1), 'line 5000');
  assert.equal(lines.at(-2), 'line 4999');
  assert.match(root.textContent ?? '', /4001 earlier lines not shown/);
  render(null, root);
});
