import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeChange, folderDescription, workspaceRelative } from '../../../src/client/changes/changeLabels';
import { beforeIfKnown, SnapshotGone, storedEntry } from '../../../src/client/changes/changeEntries';
import { ChangeTracker } from '../../../src/client/changes/changeTracker';

const b = (s: string) => new TextEncoder().encode(s);

test('an edit shown as a diff first and then written through fs/write_text_file is labelled as written through Tandem', () => {
  const t = new ChangeTracker();
  // claude-code-acp: the Edit call's diff arrives while pending (snapshot), then the write comes through Tandem.
  t.snapshot('s', 0, '/ws/a.ts', b('old'), { source: 'diff', exact: true, toolCallId: 'e1' });
  t.markApplied('s', 0, '/ws/a.ts', 'write');
  // The call then completes (its diff says nothing new about how the change came).
  t.markApplied('s', 0, '/ws/a.ts');
  const [c] = t.changes('s', 0);
  assert.equal(c.source, 'write');
  assert.equal(describeChange(c), 'modified · written through Tandem');
});

test('a change the agent wrote to disk itself, or a command made, is labelled so', () => {
  const t = new ChangeTracker();
  t.snapshot('s', 0, '/ws/b.ts', null, { source: 'diff', exact: true, toolCallId: 'e2' });
  t.markApplied('s', 0, '/ws/b.ts');
  assert.equal(describeChange(t.changes('s', 0)[0]), 'created · written by the agent directly');
  assert.equal(
    describeChange({ before: b('x'), source: 'scan', exact: true, state: 'reverted' }),
    'modified · changed on disk (a command or another program) · reverted',
  );
  assert.equal(
    describeChange({ before: b('x'), source: 'diff', exact: false, state: 'pending' }),
    'modified · written by the agent directly (snapshot rebuilt from the diff)',
  );
});

test('paths are workspace-relative, files at the workspace root included', () => {
  assert.equal(workspaceRelative('/ws/notes.txt', ['/ws']), 'notes.txt');
  assert.equal(workspaceRelative('/ws/src/a.ts', ['/ws']), 'src/a.ts');
  assert.equal(workspaceRelative('/ws2/x.md', ['/ws', '/ws2']), 'ws2/x.md');
  assert.equal(workspaceRelative('/elsewhere/y', ['/ws']), '/elsewhere/y');
  // Next to the file's name: its folder, nothing at the root (never the root's absolute path).
  assert.equal(folderDescription('/ws/notes.txt', ['/ws']), '');
  assert.equal(folderDescription('/ws/src/a.ts', ['/ws']), 'src');
  assert.equal(folderDescription('/ws2/x.md', ['/ws', '/ws2']), 'ws2');
  assert.equal(folderDescription('/elsewhere/y', ['/ws']), '/elsewhere');
});

test('a change whose snapshot is gone (dropped past the memory cap, no stored copy) is labelled, not an error', () => {
  const gone = storedEntry(
    {
      sessionId: 's',
      turn: 0,
      path: '/w/a.ts',
      exact: true,
      source: 'write',
      toolCallIds: [],
      state: 'pending',
      applied: true,
      dropped: true,
    },
    () => {
      throw new SnapshotGone('/w/a.ts', 0);
    },
  );
  assert.equal(describeChange(gone), 'modified (snapshot gone) · written through Tandem');
  assert.equal(beforeIfKnown(gone), undefined);
});
