// Edit and resend puts an earlier prompt back in the composer: its text without the restore notice
// Tandem put before it, and the attachments the composer can hold again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import { editDraftOf } from '../../../src/vscode/rewind/editDraft';

const file = pathToFileURL('/ws/src/a b.ts').toString();

test('a prompt comes back as its text with its files, ranges and images', () => {
  assert.deepEqual(
    editDraftOf([
      { type: 'text', text: 'fix this' },
      { type: 'resource_link', uri: file, name: 'a b.ts' },
      { type: 'resource', resource: { uri: `${file}#L3-9`, text: 'code', mimeType: 'text/plain' } },
      { type: 'resource_link', uri: `${file}#L1-2`, name: 'a b.ts:1-2' },
      { type: 'image', mimeType: 'image/png', data: 'AAAA' },
      { type: 'resource_link', uri: 'https://example.com/x', name: 'x' },
    ]),
    {
      text: 'fix this',
      attachments: [
        { kind: 'file', path: '/ws/src/a b.ts' },
        { kind: 'selection', path: '/ws/src/a b.ts', startLine: 3, endLine: 9 },
        { kind: 'selection', path: '/ws/src/a b.ts', startLine: 1, endLine: 2 },
        { kind: 'image', mimeType: 'image/png', data: 'AAAA' },
      ],
    },
  );
});

test('the restore notice before a prompt is not the user’s text', () => {
  const notice = { type: 'text' as const, text: '[Restored to before prompt 1: a.txt, b.txt]' };
  assert.deepEqual(editDraftOf([notice, { type: 'text', text: 'go on' }]), { text: 'go on', attachments: [] });
  assert.deepEqual(
    editDraftOf([
      { type: 'text', text: '[Undid the restore to before prompt 2: a.txt]' },
      { type: 'text', text: 'x' },
    ]).text,
    'x',
  );
  assert.equal(editDraftOf([notice]).text, notice.text, 'a prompt that is only brackets is the user’s');
  assert.equal(
    editDraftOf([
      { type: 'text', text: '[a note of mine]' },
      { type: 'text', text: 'go' },
    ]).text,
    '[a note of mine]\ngo',
  );
});
