// Fault injection at the agent's hands: fs/write_text_file outside the workspace (directly and
// through a symlink), over a buffer with unsaved user edits, and disk errors (ENOSPC, EROFS, a
// write that fails half-way). Over the wire from the scripted agent, with the real broker: the
// user sees the prompt, the agent gets a clear error, and the user's data is untouched or
// restorable from Review Changes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EditPort } from '../../../src/client/ports';
import type { Step } from '../../../src/demo/scriptTypes';
import { FakeDocs, FakeEdits } from '../client/fakePorts';
import { Fault, until } from './harness';

const write = (path: string, content: string, as: string): Step =>
  ({ request: 'fs/write_text_file', params: { sessionId: '${sessionId}', path, content }, as }) as Step;
const read = (path: string, as: string): Step =>
  ({ request: 'fs/read_text_file', params: { sessionId: '${sessionId}', path }, as }) as Step;
/** The agent tells what it got back, so the test can see it in the transcript. */
const report = (as: string): Step => ({ stream: `${as}: \${${as}.error.message}\n` });

function errorOf(f: Fault, n = 0): { code: number; message: string } | undefined {
  return f.responseTo('fs/write_text_file', n)?.error;
}

function diskError(code: string, opts: { partial?: boolean } = {}) {
  return (docs: FakeDocs): EditPort => {
    const real = new FakeEdits(docs);
    const fail = (path: string, text: string) => {
      // A full disk may leave the file truncated: the first bytes written, then the error.
      if (opts.partial) writeFileSync(path, text.slice(0, 3));
      throw Object.assign(new Error(`${code}: simulated, write '${path}'`), { code });
    };
    return {
      replaceText: async (path, text) => fail(path, text),
      createFile: async (path, contents) => fail(path, Buffer.from(contents).toString()),
      deleteFile: (p) => real.deleteFile(p),
      restoreBytes: (p, b) => real.restoreBytes(p, b),
    };
  };
}

test('write outside the workspace: the user is asked; refused → file untouched, the agent told why', async () => {
  const f = new Fault(
    ({ outside }) => ({ prompts: [{ steps: [write(join(outside, 'notes.txt'), 'pwned\n', 'w'), report('w')] }] }),
    { answer: 'reject_once' },
  );
  const target = join(f.outside, 'notes.txt');
  writeFileSync(target, 'mine\n');
  await f.client.start();
  await f.client.prompt('go');
  assert.equal(readFileSync(target, 'utf8'), 'mine\n', 'file untouched');
  assert.equal(f.shown.length, 1, 'the user was asked once');
  assert.match(f.shown[0].title ?? '', /outside the workspace/);
  const err = errorOf(f);
  assert.equal(err?.code, -32600);
  assert.match(err?.message ?? '', /did not allow writing .*outside the workspace/);
  assert.ok(
    f.logger.messages().some((m) => /Permission .*→ Deny .*by the user/.test(m)),
    'the decision is in the log',
  );
  assert.equal(f.tracker.allTurns().length, 0, 'nothing to review: nothing changed');
  await f.check();
});

test('write through a symlink that leaves the workspace: asked with both paths; refused → target untouched, nothing created', async () => {
  const f = new Fault(
    {
      prompts: [{ steps: [write('link/secret.txt', 'pwned', 'w1'), write('link/new/x.txt', 'x', 'w2'), report('w1')] }],
    },
    { answer: 'reject_once' },
  );
  writeFileSync(join(f.outside, 'secret.txt'), 'secret\n');
  symlinkSync(f.outside, join(f.ws, 'link'));
  await f.client.start();
  await f.client.prompt('go');
  assert.equal(readFileSync(join(f.outside, 'secret.txt'), 'utf8'), 'secret\n');
  assert.equal(existsSync(join(f.outside, 'new')), false);
  assert.equal(f.shown.length, 2);
  assert.match(f.shown[0].title ?? '', new RegExp(`link/secret.txt → ${f.outside}/secret.txt`));
  assert.match(errorOf(f, 0)?.message ?? '', /did not allow writing/);
  assert.match(errorOf(f, 1)?.message ?? '', /did not allow writing/);
  await f.check();
});

test('write outside the workspace, cancelled turn: the pending question resolves cancelled, nothing written', async () => {
  const f = new Fault({ prompts: [{ steps: [write('link/secret.txt', 'pwned', 'w'), { hang: true }] }] });
  writeFileSync(join(f.outside, 'secret.txt'), 'secret\n');
  symlinkSync(f.outside, join(f.ws, 'link'));
  await f.client.start();
  const turn = f.client.prompt('go');
  await until(() => f.broker.pending().length === 1);
  assert.equal(f.snapshot.permissions.length, 1, 'the view shows the question');
  f.client.cancel();
  await turn;
  assert.equal(f.snapshot.turns[0].stopReason, 'cancelled');
  assert.equal(readFileSync(join(f.outside, 'secret.txt'), 'utf8'), 'secret\n');
  assert.match(errorOf(f)?.message ?? '', /did not allow writing/);
  await f.check();
});

test('write over a buffer with unsaved user edits: refused until the agent has read them; then the edits survive', async () => {
  const f = new Fault({
    prompts: [
      {
        steps: [
          write('doc.md', 'agent rewrite\n', 'blind'),
          read('doc.md', 'seen'),
          write('doc.md', '${seen.content}agent line\n', 'informed'),
        ],
      },
    ],
  });
  const file = join(f.ws, 'doc.md');
  writeFileSync(file, 'saved\n');
  f.docs.open(file, 'saved\n');
  f.docs.type(file, 'saved\nuser typed this\n');
  await f.client.start();
  await f.client.prompt('go');
  const blind = errorOf(f, 0);
  assert.equal(blind?.code, -32600);
  assert.match(blind?.message ?? '', /unsaved changes .*Nothing was written.*Read the file again/);
  assert.equal(errorOf(f, 1), undefined, 'the informed write went through');
  assert.equal(readFileSync(file, 'utf8'), 'saved\nuser typed this\nagent line\n', "the user's edits are kept");
  const [change] = f.tracker.changes(f.client.session!.sessionId, 0);
  assert.equal(
    Buffer.from(change.before!).toString(),
    'saved\nuser typed this\n',
    'Review Changes can restore the buffer as the user left it',
  );
  await f.check();
});

test('disk full (ENOSPC) before anything is written: the agent and the log say so; the file is untouched, nothing to review', async () => {
  const f = new Fault(
    { prompts: [{ steps: [write('a.txt', 'new content\n', 'w'), report('w')] }] },
    { edits: diskError('ENOSPC') },
  );
  const file = join(f.ws, 'a.txt');
  writeFileSync(file, 'original\n');
  await f.client.start();
  await f.client.prompt('go');
  const err = errorOf(f);
  assert.equal(err?.code, -32603);
  assert.match(err?.message ?? '', /Could not write .*a\.txt: ENOSPC/);
  assert.ok(
    f.problems().some((m) => /Could not write .*ENOSPC/.test(m)),
    'the user can see it in the log',
  );
  assert.equal(readFileSync(file, 'utf8'), 'original\n');
  assert.equal(f.tracker.allTurns().length, 0);
  assert.equal(f.snapshot.turns[0].stopReason, 'end_turn', 'the session goes on');
  await f.check();
});

test('read-only location (EROFS) when creating a file: clear error, no file appears', async () => {
  const f = new Fault({ prompts: [{ steps: [write('sub/new.txt', 'x', 'w')] }] }, { edits: diskError('EROFS') });
  await f.client.start();
  await f.client.prompt('go');
  assert.match(errorOf(f)?.message ?? '', /Could not write .*new\.txt: EROFS/);
  assert.equal(existsSync(join(f.ws, 'sub', 'new.txt')), false);
  await f.check();
});

test('a write that fails half-way (file truncated, then ENOSPC): the original stays restorable from Review Changes', async () => {
  const f = new Fault(
    { prompts: [{ steps: [write('data.csv', 'a,b,c\n1,2,3\n', 'w')] }] },
    { edits: diskError('ENOSPC', { partial: true }) },
  );
  const file = join(f.ws, 'data.csv');
  writeFileSync(file, 'precious,user,data\n');
  await f.client.start();
  await f.client.prompt('go');
  assert.notEqual(readFileSync(file, 'utf8'), 'precious,user,data\n', 'the fake disk did damage the file');
  const err = errorOf(f);
  assert.match(err?.message ?? '', /ENOSPC/);
  assert.match(err?.message ?? '', /partly written/);
  const changes = f.tracker.changes(f.client.session!.sessionId, 0);
  assert.equal(changes.length, 1, 'the damaged file is listed for review');
  assert.equal(Buffer.from(changes[0].before!).toString(), 'precious,user,data\n');
  // Revert (what Review Changes does) brings the data back.
  await f.edits.restoreBytes(file, changes[0].before!);
  assert.equal(readFileSync(file, 'utf8'), 'precious,user,data\n');
  await f.check();
});
