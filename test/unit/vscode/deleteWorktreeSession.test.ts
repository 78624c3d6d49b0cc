// Deleting a worktree session from the history first offers to bring its work back: apply it,
// discard the worktree (the delete goes on only if that happened), or keep it; dismissing the
// question stops the delete. A session without a worktree is deleted without a question.
import { state as vs } from '../security/fakeVscode';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BRING_BACK, offerBringBack } from '../../../src/vscode/worktrees/deleteWorktreeSession';
import { WorktreeSessions } from '../../../src/vscode/worktrees/worktreeSessions';

function sessions(): WorktreeSessions {
  const data = new Map<string, unknown>();
  const memento = { get: (k: string) => data.get(k), update: async (k: string, v: unknown) => void data.set(k, v) };
  const s = new WorktreeSessions(memento as never);
  void s.add({
    sessionId: 'w1',
    agentName: 'Claude',
    worktree: { path: '/tmp/wt', branch: 'tandem/fix', base: 'abc', repoRoot: '/tmp/repo', name: 'fix', createdAt: 1 },
  });
  return s;
}

test('deleting a worktree session asks first; each answer does what it says', async () => {
  const s = sessions();
  const cases: Array<[string | undefined, boolean, string[]]> = [
    [BRING_BACK.apply, true, ['tandem.worktree.apply']],
    [BRING_BACK.keep, true, []],
    [BRING_BACK.discard, false, ['tandem.worktree.discard']], // the fake discard did not happen: stop
    [undefined, false, []],
  ];
  for (const [answer, goesOn, commands] of cases) {
    vs.shown = [];
    vs.commands = [];
    vs.answers = [answer];
    assert.equal(await offerBringBack(s, 'w1'), goesOn, `answer ${answer}`);
    assert.match(vs.shown[0] ?? '', /works in its own worktree on tandem\/fix/);
    assert.deepEqual(vs.commands, commands, `answer ${answer}`);
  }
});

test('a session without a worktree is deleted without a question', async () => {
  vs.shown = [];
  vs.answers = [];
  assert.equal(await offerBringBack(sessions(), 'other'), true);
  assert.deepEqual(vs.shown, []);
});
