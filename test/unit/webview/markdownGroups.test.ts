// A long agent message: finished blocks in groups of 16, the full groups skipped by layout and
// paint while off screen (content-visibility) once they have been laid out, each group drawn once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { setPurifyWindow } from '../../../src/webview/markdown';
import { until } from '../../support/until';

const dom = new JSDOM('<!DOCTYPE html><body><div id="root"></div></body>');
setPurifyWindow(dom.window);
const g = globalThis as Record<string, unknown>;
for (const k of ['window', 'document', 'navigator', 'HTMLElement', 'Element', 'Node', 'Event'])
  if (!(k in g) || k === 'window' || k === 'document') g[k] = (dom.window as unknown as Record<string, unknown>)[k];

test('a message of 40 finished paragraphs renders two full groups, a partial one and the open tail, in order', async () => {
  const { h, render } = require('preact') as typeof import('preact');
  const { Markdown } =
    require('../../../src/webview/components/Markdown') as typeof import('../../../src/webview/components/Markdown');
  const root = document.getElementById('root')!;
  let text = '';
  for (let i = 1; i <= 40; i++) text += `Paragraph ${i}.\n\n`;
  text += 'Still streaming';
  // Drawn anew (a reload, the view shown again): every group is laid out whole first, so the
  // browser knows its real height before it may skip it.
  render(h(Markdown, { text, cacheKey: 'groups-1' }), root);
  assert.equal(root.querySelectorAll('.md-group-full').length, 0, 'no group skipped before it was laid out');
  // Preact runs effects after the next frame (here, without frames, after its 100 ms fallback).
  await until(() => root.querySelectorAll('.md-group-full').length > 0, 2000, 'the laid-out groups to be marked');
  const groups = [...root.querySelectorAll('.md > .md-group')];
  assert.deepEqual(
    groups.map((el) => [el.classList.contains('md-group-full'), el.querySelectorAll('.md-block').length]),
    [
      [true, 16],
      [true, 16],
      [false, 8],
    ],
  );
  const paragraphs = [...root.querySelectorAll('.md-block')].map((el) => el.textContent?.trim());
  assert.deepEqual(paragraphs.slice(0, 3), ['Paragraph 1.', 'Paragraph 2.', 'Paragraph 3.']);
  assert.equal(paragraphs.at(-2), 'Paragraph 40.');
  assert.equal(paragraphs.at(-1), 'Still streaming');
  // More text: the full groups keep their elements (not drawn again), the partial group grows.
  const first = groups[0];
  text = text.replace('Still streaming', 'Still streaming, then done.\n\nNext');
  render(h(Markdown, { text, cacheKey: 'groups-1' }), root);
  const after = [...root.querySelectorAll('.md > .md-group')];
  assert.equal(after[0], first);
  assert.equal(after[2].querySelectorAll('.md-block').length, 9);
  render(null, root);
});

test('a message whose text is replaced (not appended to) redraws the groups whose blocks changed', () => {
  const { h, render } = require('preact') as typeof import('preact');
  const { Markdown } =
    require('../../../src/webview/components/Markdown') as typeof import('../../../src/webview/components/Markdown');
  const root = document.getElementById('root')!;
  const para = (n: number, word: string) => Array.from({ length: n }, (_, i) => `${word} ${i + 1}.\n\n`).join('');
  render(h(Markdown, { text: `Same start.\n\n${para(20, 'Old')}tail`, cacheKey: 'groups-2' }), root);
  render(h(Markdown, { text: `Same start.\n\n${para(20, 'New')}tail`, cacheKey: 'groups-2' }), root);
  const blocks = [...root.querySelectorAll('.md-block')].map((el) => el.textContent?.trim());
  assert.equal(blocks[0], 'Same start.');
  assert.equal(blocks[1], 'New 1.');
  assert.ok(!blocks.some((b) => b?.startsWith('Old')), JSON.stringify(blocks));
  render(null, root);
});
