import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyRestore, planRestore, takeRestoreNotice } from '../../../src/checkpoints/restore';
import { clockPast, harness, S, type Harness } from './harness';

const cpOf = (h: Harness, turn: number) => h.store.session(S).timeline.ofTurn(turn)!.id;

async function restoreTo(h: Harness, cp: number, unsaved: ReadonlySet<string> = new Set()) {
  const plan = await planRestore(h.store, S, cp, unsaved);
  return { plan, result: await applyRestore(h.store, plan) };
}

test('restoring to a prompt brings back every file the agent changed after it, across turns, and can be undone', async () => {
  const h = await harness();
  const a = join(h.ws, 'a.ts');
  const b = join(h.ws, 'src', 'b.ts');
  mkdirSync(join(h.ws, 'src'));
  writeFileSync(a, 'a0\n');
  writeFileSync(b, 'b0\n');
  await clockPast(h.ws);
  await h.store.prepare();
  h.prompt();
  await h.write(a, 'a1\n');
  await h.endTurn();
  h.prompt();
  await h.write(a, 'a2\n');
  await h.write(b, 'b2\n');
  await h.endTurn();

  const { plan, result } = await restoreTo(h, cpOf(h, 1));
  assert.deepEqual(
    plan.files.map((f) => [f.label, f.action]),
    [
      ['a.ts', 'write'],
      ['src/b.ts', 'write'],
    ],
  );
  assert.equal(readFileSync(a, 'utf8'), 'a1\n', 'a goes back to its state before prompt 2');
  assert.equal(readFileSync(b, 'utf8'), 'b0\n');
  assert.equal(result.notice, 'Restored to before prompt 2: a.ts, src/b.ts');
  assert.equal(takeRestoreNotice(h.store, S), 'Restored to before prompt 2: a.ts, src/b.ts');
  assert.equal(takeRestoreNotice(h.store, S), undefined, 'the agent is told once');
  assert.equal(h.tracker.get(S, 1, a)!.state, 'reverted', 'Review Changes follows the restore');

  await restoreTo(h, cpOf(h, 0));
  assert.equal(readFileSync(a, 'utf8'), 'a0\n');

  // Undo: restore to the checkpoint the last restore made.
  const undo = await restoreTo(h, result.checkpoint!.id + 1);
  assert.equal(readFileSync(a, 'utf8'), 'a1\n');
  assert.match(undo.result.notice!, /^Undid the restore to before prompt 1: a\.ts/);
});

test('a command that edits, creates and deletes files during a turn (sed -i, a formatter) is restored exactly', async () => {
  const h = await harness();
  const f = join(h.ws, 'conf.txt');
  const gone = join(h.ws, 'old.txt');
  writeFileSync(f, 'mode=slow\nother=1\n');
  writeFileSync(gone, 'keep me\n');
  await clockPast(h.ws);
  await h.store.prepare();
  h.prompt();
  execFileSync('sed', ['-i', 's/slow/fast/', f]);
  execFileSync('sh', ['-c', 'echo generated > made.txt && rm old.txt'], { cwd: h.ws });
  await h.endTurn();

  const turn = h.tracker.changes(S, 0);
  assert.deepEqual(
    turn.map((c) => [c.path, c.source]).sort(),
    [
      [f, 'scan'],
      [join(h.ws, 'made.txt'), 'scan'],
      [gone, 'scan'],
    ].sort(),
  );
  assert.equal(h.tracker.get(S, 0, join(h.ws, 'made.txt'))!.before, null, 'created by the command');

  const { plan } = await restoreTo(h, cpOf(h, 0));
  assert.deepEqual(
    plan.files.map((x) => [x.label, x.action]),
    [
      ['conf.txt', 'write'],
      ['made.txt', 'delete'],
      ['old.txt', 'write'],
    ],
  );
  assert.equal(readFileSync(f, 'utf8'), 'mode=slow\nother=1\n');
  assert.equal(existsSync(join(h.ws, 'made.txt')), false);
  assert.equal(readFileSync(gone, 'utf8'), 'keep me\n');
});

test('an agent that writes the disk itself and reports a diff only afterwards is restored from the scan, not the diff', async () => {
  const h = await harness();
  const f = join(h.ws, 'big.ts');
  const original = 'line 1\nline 2\nline 3\nline 4\n';
  writeFileSync(f, original);
  await clockPast(h.ws);
  await h.store.prepare();
  h.prompt();
  writeFileSync(f, 'line 1\nline 2 changed\nline 3\nline 4\n');
  h.handlers.observe({
    sessionId: S,
    update: {
      sessionUpdate: 'tool_call',
      toolCallId: 'edit-1',
      title: 'Edit big.ts',
      kind: 'edit',
      status: 'completed',
      content: [{ type: 'diff', path: f, oldText: 'line 2\n', newText: 'line 2 changed\n' }],
    },
  });
  assert.equal(h.tracker.get(S, 0, f)!.exact, false, 'the diff alone holds only a fragment');
  await h.endTurn();
  const c = h.tracker.get(S, 0, f)!;
  assert.equal(c.exact, true);
  assert.equal(Buffer.from(c.before!).toString(), original);
  await restoreTo(h, cpOf(h, 0));
  assert.equal(readFileSync(f, 'utf8'), original);
});

test('a change made while the checkpoint scan is still running belongs to the new turn; the prompt does not wait', async () => {
  const h = await harness();
  for (let i = 0; i < 1500; i++) writeFileSync(join(h.ws, `f${i}.txt`), `file ${i}\n`);
  const target = join(h.ws, 'f700.txt');
  await clockPast(h.ws);
  await h.store.prepare();
  writeFileSync(join(h.ws, 'f3.txt'), 'touched so the next scan has work\n');
  await clockPast(join(h.ws, 'f3.txt'));
  // checkpoint() returns the marker at once; the scan runs in the background (how long a prompt
  // waits for it is bench/checkpoints.ts's prompt_wait).
  const turn = h.prompt();
  assert.equal(h.store.checkpoints(S).at(-1)!.turn, turn, 'the checkpoint is taken');
  execFileSync('sed', ['-i', 's/700/seven hundred/', target]);
  await h.write(join(h.ws, 'f5.txt'), 'through fs/write_text_file\n');
  await h.endTurn();
  const { plan } = await restoreTo(h, cpOf(h, 0));
  assert.deepEqual(plan.files.map((f) => f.label).sort(), ['f5.txt', 'f700.txt']);
  assert.equal(readFileSync(target, 'utf8'), 'file 700\n');
  assert.equal(readFileSync(join(h.ws, 'f5.txt'), 'utf8'), 'file 5\n');
  assert.equal(readFileSync(join(h.ws, 'f3.txt'), 'utf8'), 'touched so the next scan has work\n', 'not the agent’s');
});

test('saved edits between turns are not undone by themselves, and a restore to a later prompt keeps them, even when a command changes the file at once', async () => {
  const h = await harness();
  const f = join(h.ws, 'a.txt');
  const mine = join(h.ws, 'mine.txt');
  writeFileSync(f, 'v0\n');
  writeFileSync(mine, 'm0\n');
  await clockPast(h.ws);
  await h.store.prepare();
  h.prompt();
  await h.write(f, 'v1 agent\n');
  await h.endTurn();
  // The user's edits come after the turn ended by the file system's clock too (on a loaded
  // machine they could share its coarse tick with the turn's end and count as the agent's).
  await clockPast(join(h.store.opts.dir, 'clock'));
  writeFileSync(f, 'v1 agent + user\n'); // the user, between the turns
  writeFileSync(mine, 'm1 user\n');
  await h.store.noteChanged([f, mine]); // the editor's save event
  await clockPast(mine);
  h.prompt();
  execFileSync('sed', ['-i', 's/user/USER/', f]);
  await h.endTurn();

  const toSecond = await restoreTo(h, cpOf(h, 1));
  assert.deepEqual(
    toSecond.plan.files.map((x) => x.label),
    ['a.txt'],
    'mine.txt was never the agent’s',
  );
  assert.equal(readFileSync(f, 'utf8'), 'v1 agent + user\n');
  await restoreTo(h, cpOf(h, 0));
  assert.equal(readFileSync(f, 'utf8'), 'v0\n');
  assert.equal(readFileSync(mine, 'utf8'), 'm1 user\n');
});

test('binary files, CRLF text and non-ASCII names come back byte for byte', async () => {
  const h = await harness();
  const bin = join(h.ws, 'logo.png');
  const crlf = join(h.ws, 'ünïcödé файл.txt');
  const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0xfe, 0x80]);
  writeFileSync(bin, bytes);
  writeFileSync(crlf, 'één\r\ntwee\r\n');
  await clockPast(h.ws);
  await h.store.prepare();
  h.prompt();
  writeFileSync(bin, Buffer.from([1, 2, 3]));
  await h.write(crlf, 'één\r\nDRIE\r\n');
  await h.endTurn();
  await restoreTo(h, cpOf(h, 0));
  assert.deepEqual(readFileSync(bin), bytes);
  assert.deepEqual(readFileSync(crlf), Buffer.from('één\r\ntwee\r\n'));
});

test('a file over the size limit is listed as not restorable, with a message that says why', async () => {
  const h = await harness({ maxFileBytes: 1000 });
  const big = join(h.ws, 'data.bin');
  writeFileSync(big, Buffer.alloc(5000, 1));
  writeFileSync(join(h.ws, 'small.txt'), 'ok\n');
  await clockPast(h.ws);
  await h.store.prepare();
  h.prompt();
  writeFileSync(big, Buffer.alloc(5000, 2));
  writeFileSync(join(h.ws, 'small.txt'), 'changed\n');
  await h.endTurn();
  assert.ok(h.warnings.some((w) => w.includes('data.bin') && /too big to keep/.test(w)));
  const { plan, result } = await restoreTo(h, cpOf(h, 0));
  const entry = plan.files.find((f) => f.label === 'data.bin')!;
  assert.equal(entry.action, 'cannot');
  assert.match(entry.reason!, /too big to keep in a checkpoint \(4\.9 KB; the limit is 1000 B\)/);
  assert.deepEqual(result.restored, [join(h.ws, 'small.txt')]);
  assert.equal(readFileSync(join(h.ws, 'small.txt'), 'utf8'), 'ok\n');
});

test('the storage limit stops new copies with a clear message', async () => {
  const h = await harness({ maxTotalBytes: 2048 });
  // Random bytes: they do not compress, so each copy takes its full size.
  writeFileSync(join(h.ws, 'one.bin'), randomBytes(1500));
  writeFileSync(join(h.ws, 'two.bin'), randomBytes(1500));
  await clockPast(h.ws);
  await h.store.prepare();
  assert.ok(
    h.warnings.some((w) => /Checkpoint storage is full \(1\.5 KB of 2\.0 KB\)/.test(w)),
    h.warnings.join('\n'),
  );
});

test('files with unsaved edits are conflicts: listed, and not overwritten unless the user says so', async () => {
  const h = await harness();
  const f = join(h.ws, 'a.txt');
  writeFileSync(f, 'v0\n');
  await clockPast(h.ws);
  await h.store.prepare();
  h.prompt();
  await h.write(f, 'v1\n');
  await h.endTurn();
  const plan = await planRestore(h.store, S, cpOf(h, 0), new Set([f]));
  assert.deepEqual(plan.conflicts, [f]);
  const kept = await applyRestore(h.store, plan);
  assert.equal(readFileSync(f, 'utf8'), 'v1\n', 'the unsaved file was left alone');
  assert.match(kept.skipped[0].reason, /a\.txt has unsaved changes/);
  await applyRestore(h.store, plan, undefined, { overwriteUnsaved: true });
  assert.equal(readFileSync(f, 'utf8'), 'v0\n');
});

test('checkpoints survive a reload: Review Changes lists them again and a restore still works', async () => {
  const h = await harness();
  const f = join(h.ws, 'a.txt');
  writeFileSync(f, 'v0\r\n');
  await clockPast(h.ws);
  await h.store.prepare();
  h.prompt();
  await h.write(f, 'v1\r\n');
  execFileSync('sh', ['-c', 'printf new > made.txt'], { cwd: h.ws });
  await h.endTurn();
  const r = await h.reopen();
  const listed = r.tracker.changes(S, 0);
  assert.deepEqual(listed.map((c) => c.path).sort(), [f, join(h.ws, 'made.txt')].sort());
  assert.equal(Buffer.from(r.tracker.get(S, 0, f)!.before!).toString(), 'v0\r\n');
  r.prompt();
  await r.write(f, 'v2\r\n');
  await r.endTurn();
  await restoreTo(r, cpOf(r, 0));
  assert.equal(readFileSync(f, 'utf8'), 'v0\r\n');
  assert.equal(existsSync(join(h.ws, 'made.txt')), false);
});

test('removing a session deletes its log and the copies no other session needs', async () => {
  const h = await harness();
  writeFileSync(join(h.ws, 'a.txt'), 'v0\n');
  await clockPast(h.ws);
  await h.store.prepare();
  h.prompt();
  await h.write(join(h.ws, 'a.txt'), 'v1\n');
  await h.endTurn();
  await h.store.whenIdle();
  assert.ok(readdirSync(join(h.dir, 'blobs')).length > 0);
  await h.store.removeSession(S);
  assert.deepEqual(readdirSync(join(h.dir, 'sessions')), []);
  assert.deepEqual(readdirSync(join(h.dir, 'blobs')), [], 'no session left: nothing kept');
  assert.equal(existsSync(join(h.dir, 'manifest.json')), false);
  assert.equal(h.tracker.allTurns(S).length, 0);
  const again = await h.reopen();
  assert.deepEqual(again.store.checkpoints(S), []);
  rmSync(h.root, { recursive: true, force: true });
});

test('a buffer the editor saves during a turn, that the agent did not write, stays the user’s', async () => {
  const h = await harness();
  const mine = join(h.ws, 'notes.txt');
  const agents = join(h.ws, 'code.ts');
  writeFileSync(mine, 'draft\n');
  writeFileSync(agents, 'v0\n');
  await clockPast(h.ws);
  await h.store.prepare();
  h.prompt();
  await h.write(agents, 'v1\n');
  await h.store.noteSaved(agents); // the agent's write is saved by the editor too
  writeFileSync(mine, 'draft, saved while the agent worked\n'); // VS Code saving a dirty buffer
  await h.store.noteSaved(mine);
  await h.endTurn();
  assert.deepEqual(
    h.tracker.changes(S, 0).map((c) => c.path),
    [agents],
  );
  const { plan } = await restoreTo(h, cpOf(h, 0));
  assert.deepEqual(
    plan.files.map((f) => f.label),
    ['code.ts'],
  );
  assert.equal(readFileSync(mine, 'utf8'), 'draft, saved while the agent worked\n');
});
