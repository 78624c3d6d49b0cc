// The folder a shell call runs in (its input's cwd, or the location agents give it) is named
// relative to the workspace, and not at all when it is the workspace folder itself: the row must
// not spend its width on the workspace's absolute path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JSDOM } from 'jsdom';
import { renderToString } from 'preact-render-to-string';
import { h, type ComponentChild } from 'preact';
import { ToolCallRow } from '../../../src/webview/components/ToolCallRow';
import ToolDetails from '../../../src/webview/components/ToolDetails';
import { commandFolder, folderLabel, RootsContext } from '../../../src/webview/toolTitle';
import type { ToolCallView } from '../../../src/shared/sessionModel';
import { toolCall } from './toolCall';

const dom = new JSDOM('<!DOCTYPE html><body></body>');
const ROOT = '/home/user/project';
const roots = [ROOT];

function mount(view: ComponentChild): HTMLElement {
  const el = dom.window.document.createElement('div');
  el.innerHTML = renderToString(h(RootsContext.Provider, { value: roots }, view));
  return el;
}
const row = (call: ToolCallView) =>
  mount(
    h(ToolCallRow, { call, expanded: false, focused: false, terminals: {}, onToggle: () => {}, onFocus: () => {} }),
  );
const shell = (over: Partial<ToolCallView>) =>
  toolCall({ kind: 'execute', title: 'Shell: npm test', status: 'completed', ...over });

test('a folder is named relative to the workspace, and not at all when it is the workspace folder', () => {
  assert.equal(folderLabel(ROOT, roots), '');
  assert.equal(folderLabel(`${ROOT}/`, roots), '');
  assert.equal(folderLabel('.', roots), '');
  assert.equal(folderLabel(`${ROOT}/packages/web/`, roots), 'packages/web');
  assert.equal(folderLabel('/tmp/elsewhere', roots), '/tmp/elsewhere');
  assert.deepEqual(commandFolder(shell({ rawInput: { command: 'ls', cwd: ROOT } }), roots), { path: ROOT, label: '' });
  assert.equal(commandFolder(shell({ rawInput: { command: 'ls', workdir: `${ROOT}/src` } }), roots)?.label, 'src');
  assert.equal(commandFolder(shell({ locations: [{ path: `${ROOT}/app` }] }), roots)?.label, 'app');
  assert.equal(commandFolder(shell({}), roots), undefined);
  assert.equal(commandFolder(toolCall({ kind: 'read', locations: [{ path: ROOT }] }), roots), undefined);
});

test("a shell row run in the workspace folder shows no folder chip and never the workspace's absolute path", () => {
  for (const call of [
    shell({ locations: [{ path: ROOT }] }),
    shell({ rawInput: { command: 'npm test', cwd: ROOT } }),
  ]) {
    const head = row(call);
    assert.equal(head.querySelector('[data-testid="tool-folder"], .tool-loc'), null);
    assert.doesNotMatch(head.querySelector('.tool-head')!.textContent!, /\/home\/user/);
    const open = mount(h(ToolDetails, { call, terminals: {} }));
    assert.equal(open.querySelector('[data-testid="tool-location"]'), null);
  }
});

test('a shell row run in a subfolder names it relative to the workspace', () => {
  const head = row(shell({ rawInput: { command: 'npm test', cwd: `${ROOT}/packages/web` } }));
  const chip = head.querySelector('[data-testid="tool-folder"]')!;
  assert.equal(chip.textContent, 'in packages/web');
  assert.equal(chip.getAttribute('title'), `${ROOT}/packages/web`);
  const open = mount(h(ToolDetails, { call: shell({ locations: [{ path: `${ROOT}/packages/web` }] }), terminals: {} }));
  assert.equal(open.querySelector('[data-testid="tool-location"]')!.textContent!.trim(), 'packages/web');
});
