// A Code tool call the agent shows in its own row: Tandem adds the result as the user reads it
// (`_meta.tandem.rowText`: `path:line  text`); the details show that, not the JSON the model read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { renderToString } from 'preact-render-to-string';
import { h } from 'preact';
import ToolDetails from '../../../src/webview/components/ToolDetails';
import { toolCall } from './toolCall';

const dom = new JSDOM('<!DOCTYPE html><body></body>');
const JSON_TEXT = '{"references":[{"path":"src/a.ts","line":3}]}';

function details(meta?: Record<string, unknown>) {
  const call = toolCall({
    kind: 'other',
    title: 'mcp__tandem__FindReferences',
    status: 'completed',
    content: [{ type: 'content', content: { type: 'text', text: JSON_TEXT } }],
    ...(meta ? { meta } : {}),
  });
  const el = dom.window.document.createElement('div');
  el.innerHTML = renderToString(h(ToolDetails, { call, terminals: {} }));
  return el;
}

test("the agent's row of a Code call shows Tandem's readable result instead of the model's JSON", () => {
  const el = details({ tandem: { rowText: '1 reference in 1 file\nsrc/a.ts:3  area(1, 2)' } });
  assert.equal(
    el.querySelector('[data-testid="tool-row-text"] pre')?.textContent,
    '1 reference in 1 file\nsrc/a.ts:3  area(1, 2)',
  );
  assert.ok(!el.textContent?.includes('"references"'), 'no JSON');
});

test('a row without that text shows its content as before', () => {
  const el = details();
  assert.equal(el.querySelector('[data-testid="tool-row-text"]'), null);
  assert.ok(el.textContent?.includes('"references"'));
});
