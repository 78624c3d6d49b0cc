// A session before its first prompt names the agent, offers to switch, and sends an example
// prompt with one click.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { h, render } from 'preact';
import { EmptySession, EXAMPLE_PROMPTS } from '../../../src/webview/components/EmptySession';

test('the empty session names the agent, offers Switch agent, and a click on an example sends it', () => {
  const dom = new JSDOM('<!DOCTYPE html><body><div id="root"></div></body>');
  const g = globalThis as Record<string, unknown>;
  const saved = { document: g.document };
  g.document = dom.window.document;
  try {
    const root = dom.window.document.getElementById('root')!;
    const sent: string[] = [];
    let switched = 0;
    render(
      h(EmptySession, {
        agent: { state: 'ready', name: 'Demo', info: { name: 'tandem-demo', title: 'Tandem Demo', version: '0.1.0' } },
        onSend: (t: string) => sent.push(t),
        onSelectAgent: () => switched++,
      }),
      root,
    );
    assert.equal(root.querySelector('[data-testid="empty-session-agent"]')?.textContent, 'Tandem Demo');
    assert.match(root.textContent ?? '', /0\.1\.0/);
    const examples = [...root.querySelectorAll<HTMLButtonElement>('[data-testid="example-prompt"]')];
    assert.deepEqual(
      examples.map((b) => b.textContent),
      EXAMPLE_PROMPTS,
    );
    assert.ok(EXAMPLE_PROMPTS.length >= 2 && EXAMPLE_PROMPTS.length <= 3);
    examples[1].click();
    assert.deepEqual(sent, [EXAMPLE_PROMPTS[1]]);
    root.querySelector<HTMLButtonElement>('[data-testid="switch-agent"]')!.click();
    assert.equal(switched, 1);
    render(null, root);
  } finally {
    g.document = saved.document;
  }
});
