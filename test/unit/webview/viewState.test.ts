// What the webview saves in its VS Code state (kept when VS Code disposes a hidden view): the
// composer's unsent prompt and how the user left the transcript.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { loadDraft as loadDraftFrom, saveDraft as saveDraftTo, type Draft } from '../../../src/webview/draft';
import { viewStateOf } from '../../../src/webview/host';
import {
  loadViewMemory as loadMemoryFrom,
  saveViewMemory as saveMemoryTo,
  type ViewMemory,
} from '../../../src/webview/viewMemory';

let saved: unknown = { scroll: 120 };
// The view's state as VS Code keeps it (getState / setState of the webview API).
const state = viewStateOf({
  getState: () => saved,
  setState: (s: unknown) => {
    saved = s;
  },
});
const loadDraft = () => loadDraftFrom(state);
const saveDraft = (d: Draft) => saveDraftTo(state, d);
const loadViewMemory = (sessionId: string) => loadMemoryFrom(state, sessionId);
const saveViewMemory = (sessionId: string, m: ViewMemory) => saveMemoryTo(state, sessionId, m);

test('a draft is saved next to the rest of the view state and loads back; pasted images are left out', () => {
  assert.deepEqual(loadDraft(), { text: '', chips: [] });
  const file = { id: 3, att: { kind: 'file' as const, path: '/ws/a.ts' }, label: 'a.ts', mention: '@a.ts' };
  const image = {
    id: 4,
    att: { kind: 'image' as const, mimeType: 'image/png', data: 'iVBORw0KGgo=' },
    label: 'image.png',
  };
  saveDraft({ text: 'look at @a.ts', chips: [file, image] });
  assert.equal((saved as { scroll: number }).scroll, 120, 'other state kept');
  assert.deepEqual(loadDraft(), { text: 'look at @a.ts', chips: [file] });
  saveDraft({ text: '', chips: [] });
  assert.deepEqual(loadDraft(), { text: '', chips: [] });
});

test('a malformed saved draft loads as empty, and malformed chips are dropped', () => {
  saved = { draft: { text: 42, chips: [] } };
  assert.deepEqual(loadDraft(), { text: '', chips: [] });
  saved = {
    draft: { text: 'x', chips: [null, { id: 'a' }, { id: 1, att: { kind: 'file', path: '/a' }, label: 'a' }] },
  };
  assert.deepEqual(loadDraft(), { text: 'x', chips: [{ id: 1, att: { kind: 'file', path: '/a' }, label: 'a' }] });
  saved = 'garbage';
  assert.deepEqual(loadDraft(), { text: '', chips: [] });
  saveDraft({ text: 'y', chips: [] });
  assert.deepEqual(saved, { draft: { text: 'y', chips: [] } });
});

test('the transcript memory round-trips for its own session only, next to the draft; malformed parts are dropped', () => {
  saved = { draft: { text: 'd', chips: [] } };
  const m = {
    fold: new Map([
      [0, true],
      [3, false],
    ]),
    foldAll: true,
    expanded: new Map([
      ['c1', true],
      ['c2', false],
    ]),
    filter: { kinds: new Set(['execute']), statuses: new Set(['failed']) },
    anchor: { key: 'tool:c1', offset: 7 },
  };
  saveViewMemory('s1', m);
  assert.deepEqual(loadViewMemory('s1'), m);
  assert.equal(loadViewMemory('s2'), undefined, "another session's memory is not applied");
  assert.deepEqual(loadDraft().text, 'd', 'the draft is kept');
  saved = {
    transcript: {
      sessionId: 's1',
      fold: [
        [1, true],
        ['x', true],
        [2, 'no'],
      ],
      expanded: 'bad',
      kinds: [1, 'read'],
      anchor: { key: 5 },
    },
  };
  assert.deepEqual(loadViewMemory('s1'), {
    fold: new Map([[1, true]]),
    foldAll: undefined,
    expanded: new Map(),
    filter: { kinds: new Set(['read']), statuses: new Set() },
    anchor: undefined,
  });
});
