// The composer's unsent prompt in the webview's saved state (kept when VS Code disposes a hidden view).
import { test } from 'node:test';
import assert from 'node:assert/strict';

let saved: unknown = { scroll: 120 };
(globalThis as Record<string, unknown>).acquireVsCodeApi = () => ({ postMessage: () => undefined, getState: () => saved, setState: (s: unknown) => { saved = s; } });
// Loaded after the global: vscodeApi reads acquireVsCodeApi at import.
const { loadDraft, saveDraft } = require('../../../src/webview/draft') as typeof import('../../../src/webview/draft');

test('a draft is saved next to the rest of the view state and loads back; pasted images are left out', () => {
  assert.deepEqual(loadDraft(), { text: '', chips: [] });
  const file = { id: 3, att: { kind: 'file' as const, path: '/ws/a.ts' }, label: 'a.ts', mention: '@a.ts' };
  const image = { id: 4, att: { kind: 'image' as const, mimeType: 'image/png', data: 'iVBORw0KGgo=' }, label: 'image.png' };
  saveDraft({ text: 'look at @a.ts', chips: [file, image] });
  assert.equal((saved as { scroll: number }).scroll, 120, 'other state kept');
  assert.deepEqual(loadDraft(), { text: 'look at @a.ts', chips: [file] });
  saveDraft({ text: '', chips: [] });
  assert.deepEqual(loadDraft(), { text: '', chips: [] });
});

test('a malformed saved draft loads as empty, and malformed chips are dropped', () => {
  saved = { draft: { text: 42, chips: [] } };
  assert.deepEqual(loadDraft(), { text: '', chips: [] });
  saved = { draft: { text: 'x', chips: [null, { id: 'a' }, { id: 1, att: { kind: 'file', path: '/a' }, label: 'a' }] } };
  assert.deepEqual(loadDraft(), { text: 'x', chips: [{ id: 1, att: { kind: 'file', path: '/a' }, label: 'a' }] });
  saved = 'garbage';
  assert.deepEqual(loadDraft(), { text: '', chips: [] });
  saveDraft({ text: 'y', chips: [] });
  assert.deepEqual(saved, { draft: { text: 'y', chips: [] } });
});
