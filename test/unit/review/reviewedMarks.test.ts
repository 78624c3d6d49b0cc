// "Mark as reviewed": a mark holds the file's bytes as the user saw them; the agent's next change
// clears it, the user's own save keeps it, and marks are per session.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ReviewedMarks } from '../../../src/review/reviewedMarks';

test('the agent changing a marked file again clears its mark; an unchanged file keeps it', () => {
  const m = new ReviewedMarks();
  m.mark('s1', '/w/a.ts', 'h-a');
  m.mark('s1', '/w/b.ts', 'h-b');
  const now: Record<string, string> = { '/w/a.ts': 'h-a2', '/w/b.ts': 'h-b' };
  assert.deepEqual(
    m.afterAgentChange('s1', (p) => now[p]),
    ['/w/a.ts'],
  );
  assert.equal(m.isReviewed('s1', '/w/a.ts'), false);
  assert.equal(m.isReviewed('s1', '/w/b.ts'), true);
});

test('a file marked while the agent change was being checked keeps its mark (it was marked as it is now)', () => {
  const m = new ReviewedMarks();
  m.mark('s1', '/w/a.ts', 'h1');
  // The check read a.ts only; b.ts was marked while it read.
  m.mark('s1', '/w/b.ts', 'h-b');
  assert.deepEqual(
    m.afterAgentChange('s1', (p) => (p === '/w/a.ts' ? 'h2' : undefined)),
    ['/w/a.ts'],
  );
  assert.equal(m.isReviewed('s1', '/w/b.ts'), true);
});

test("the user's save moves the mark to the new bytes, so the next agent change is judged from there", () => {
  const m = new ReviewedMarks();
  m.mark('s1', '/w/a.ts', 'h1');
  m.afterUserSave('/w/a.ts', 'h2');
  assert.deepEqual(
    m.afterAgentChange('s1', () => 'h2'),
    [],
  );
  assert.equal(m.isReviewed('s1', '/w/a.ts'), true);
});

test('marks are per session: another session changing the same path leaves this one', () => {
  const m = new ReviewedMarks();
  m.mark('s1', '/w/a.ts', 'h1');
  assert.deepEqual(
    m.afterAgentChange('s2', () => 'other'),
    [],
  );
  assert.equal(m.isReviewed('s1', '/w/a.ts'), true);
  assert.equal(m.isReviewed('s2', '/w/a.ts'), false);
  assert.equal(m.leftToReview('s1', ['/w/a.ts', '/w/b.ts']), 1);
});

test('marks survive a round trip through storage; malformed entries are dropped', () => {
  const m = new ReviewedMarks();
  m.mark('s1', '/w/a.ts', 'h1');
  const back = new ReviewedMarks([...(JSON.parse(JSON.stringify(m)) as []), { sessionId: 3 } as never, null as never]);
  assert.deepEqual(back.toJSON(), [{ sessionId: 's1', path: '/w/a.ts', hash: 'h1' }]);
  back.forget('s1');
  assert.deepEqual(back.toJSON(), []);
});
