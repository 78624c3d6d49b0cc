import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AcpError } from '../../../src/acp/errors';
import { ChangeTracker } from '../../../src/client/changes/changeTracker';
import { FileSystemFeature, FileSystemHandlers, type FileSystemDeps } from '../../../src/client/files/fileSystem';
import { MemoryLogger } from '../../../src/common/logger';
import { SessionStore } from '../../../src/session/store';
import { FakeDocs, FakeEdits, FakePermission, fakeWorkspace, nodeFs } from './fakePorts';
import { decodeText, sliceLines } from '../../../src/client/files/textSlice';
import type { FsPort } from '../../../src/client/ports';
import { until } from '../../support/until';

const S = 'sess-1';

/** nodeFs, counting the calls in flight: `idle()` waits for the disk reads updates started (snapshots). */
function trackedFs() {
  let inFlight = 0;
  const track = <T>(p: Promise<T>): Promise<T> => {
    inFlight++;
    return p.finally(() => inFlight--);
  };
  const fs: FsPort = {
    stat: (p) => track(nodeFs.stat(p)),
    readFile: (p) => track(nodeFs.readFile(p)),
    realpath: (p) => track(nodeFs.realpath(p)),
  };
  return { fs, idle: () => until(() => inFlight === 0, 2000, 'the reads in flight to finish') };
}

function setup(opts: { permission?: string; agentInfoName?: string } = {}) {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'tandem-fs-')));
  const ws = join(root, 'ws');
  mkdirSync(ws);
  const docs = new FakeDocs();
  const edits = new FakeEdits(docs);
  const permission = new FakePermission(opts.permission);
  const tracker = new ChangeTracker();
  const store = new SessionStore(S);
  store.dispatch({ type: 'promptStarted', at: 1, prompt: [{ type: 'text', text: 'go' }] });
  const { fs, idle } = trackedFs();
  const deps: FileSystemDeps = {
    documents: docs,
    fs,
    edits,
    workspace: fakeWorkspace(ws),
    permission,
    tracker,
    agentInfoName: () => opts.agentInfoName,
  };
  const h = new FileSystemHandlers(deps, {
    cwd: ws,
    logger: new MemoryLogger(),
    session: (id) => (id === S ? store : undefined),
  });
  return { root, ws, docs, edits, permission, tracker, store, h, idle };
}

async function rejects(p: Promise<unknown>, code: number, re: RegExp): Promise<AcpError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof AcpError, `not an AcpError: ${err}`);
    assert.equal(err.code, code, err.message);
    assert.match(err.message, re);
    return err;
  }
  assert.fail('expected a rejection');
}

type Update = Parameters<FileSystemHandlers['observe']>[0]['update'];

/** Sends a session/update through the store (as AgentClient does first), then to the handlers. */
const observe =
  (store: { dispatch(a: { type: 'update'; update: Update; at: number }): void }, h: FileSystemHandlers) =>
  (update: Update) => {
    store.dispatch({ type: 'update', update, at: 2 });
    h.observe({ sessionId: S, update });
  };

/** A pending agent-side edit of `path`: a tool call with diff content. */
const pendingEdit = (toolCallId: string, path: string, oldText: string, newText: string): Update => ({
  sessionUpdate: 'tool_call',
  toolCallId,
  title: 'Edit',
  kind: 'edit',
  status: 'pending',
  content: [{ type: 'diff', path, oldText, newText }],
});

test('capabilities advertise fs read and write', () => {
  const caps = { fs: { readTextFile: false, writeTextFile: false }, terminal: false };
  new FileSystemFeature({} as FileSystemDeps).capabilities(caps);
  assert.deepEqual(caps.fs, { readTextFile: true, writeTextFile: true });
});

test('sliceLines: 1-based line and limit, past the end gives empty', () => {
  const t = 'a\nb\nc\n';
  assert.equal(sliceLines(t, 1, 2), 'a\nb\n');
  assert.equal(sliceLines(t, 2, undefined), 'b\nc\n');
  assert.equal(sliceLines(t, 3, 10), 'c\n');
  assert.equal(sliceLines(t, 4, 10), '');
  assert.equal(sliceLines(t, 99, 1), '');
  assert.equal(sliceLines('x\ny', 2, 1), 'y');
  assert.equal(sliceLines(t, 1, 0), '');
  assert.equal(sliceLines('a\r\nb\r\n', 2, 1), 'b\r\n');
});

test('read from disk with line/limit, including past the end', async () => {
  const { ws, h } = setup();
  writeFileSync(join(ws, 'f.txt'), 'one\ntwo\nthree\n');
  assert.equal((await h.read({ sessionId: S, path: join(ws, 'f.txt') })).content, 'one\ntwo\nthree\n');
  assert.equal((await h.read({ sessionId: S, path: join(ws, 'f.txt'), line: 2, limit: 1 })).content, 'two\n');
  assert.equal((await h.read({ sessionId: S, path: join(ws, 'f.txt'), line: 3, limit: 5 })).content, 'three\n');
  assert.equal((await h.read({ sessionId: S, path: join(ws, 'f.txt'), line: 10, limit: 5 })).content, '');
});

test('read answers from the open buffer, unsaved edits included', async () => {
  const { ws, docs, h } = setup();
  const f = join(ws, 'open.txt');
  writeFileSync(f, 'on disk\n');
  docs.open(f, 'on disk\n');
  docs.type(f, 'typed but not saved\nline 2\n');
  assert.equal((await h.read({ sessionId: S, path: f })).content, 'typed but not saved\nline 2\n');
  assert.equal((await h.read({ sessionId: S, path: f, line: 2, limit: 1 })).content, 'line 2\n');
});

test('missing file: -32002 with the SDK wording gemini-cli checks for', async () => {
  const { ws, h } = setup();
  await rejects(
    h.read({ sessionId: S, path: join(ws, 'nope.txt') }),
    -32002,
    /Resource not found: .*nope\.txt.*No such file/,
  );
});

test('missing file reads as empty for gemini-cli (it cannot see error text)', async () => {
  const { ws, h } = setup({ agentInfoName: 'gemini-cli' });
  assert.equal((await h.read({ sessionId: S, path: join(ws, 'nope.txt') })).content, '');
});

test('binary and directory reads get clear errors', async () => {
  const { ws, h } = setup();
  writeFileSync(join(ws, 'b.bin'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]));
  await rejects(h.read({ sessionId: S, path: join(ws, 'b.bin') }), -32602, /binary file/);
  writeFileSync(join(ws, 'bad.txt'), Buffer.from([0x61, 0xff, 0xfe, 0x62]));
  await rejects(h.read({ sessionId: S, path: join(ws, 'bad.txt') }), -32602, /binary file/);
  await rejects(h.read({ sessionId: S, path: ws }), -32602, /is a directory/);
  assert.deepEqual(decodeText(Buffer.from('\ufeffhé', 'utf8')), { ok: true, text: 'hé' });
});

test('huge file without line/limit gets a clear error; a page of it is fine', async () => {
  const { ws, h } = setup();
  const f = join(ws, 'big.log');
  writeFileSync(f, 'x'.repeat(100) + '\n' + 'y'.repeat(11 * 1024 * 1024));
  await rejects(h.read({ sessionId: S, path: f }), -32602, /too large .*line and limit/);
  assert.equal((await h.read({ sessionId: S, path: f, line: 1, limit: 1 })).content, 'x'.repeat(100) + '\n');
});

test('write goes through the edit port and snapshots the file once per turn', async () => {
  const { ws, edits, tracker, h } = setup();
  const f = join(ws, 'a.txt');
  writeFileSync(f, 'v1\r\n');
  await h.write({ sessionId: S, path: f, content: 'v2\n' });
  await h.write({ sessionId: S, path: f, content: 'v3\n' });
  assert.deepEqual(edits.calls, [`replace ${f}`, `replace ${f}`]);
  assert.equal(readFileSync(f, 'utf8'), 'v3\n');
  const changes = tracker.changes(S, 0);
  assert.equal(changes.length, 1);
  assert.equal(
    Buffer.from(changes[0].before!).toString(),
    'v1\r\n',
    'the snapshot is the bytes before the first change',
  );
  assert.equal(changes[0].source, 'write');
});

test('write creating nested folders creates the file; its snapshot is "absent"', async () => {
  const { ws, edits, tracker, h } = setup();
  const f = join(ws, 'deep', 'er', 'new.txt');
  await h.write({ sessionId: S, path: f, content: 'brand new\n' });
  assert.deepEqual(edits.calls, [`create ${f}`]);
  assert.equal(readFileSync(f, 'utf8'), 'brand new\n');
  assert.equal(tracker.changes(S, 0)[0].before, null);
});

test('write to a dirty buffer the agent has not read is refused; after a read it applies', async () => {
  const { ws, docs, edits, h } = setup();
  const f = join(ws, 'dirty.txt');
  writeFileSync(f, 'saved\n');
  docs.open(f, 'saved\n');
  await h.read({ sessionId: S, path: f }); // the agent saw version 1
  docs.type(f, 'saved\nuser typed this\n'); // then the user typed
  await rejects(
    h.write({ sessionId: S, path: f, content: 'agent version\n' }),
    -32600,
    /unsaved changes .*Read the file again/,
  );
  assert.equal(edits.calls.length, 0, 'nothing written');
  assert.equal(docs.get(f)!.text, 'saved\nuser typed this\n');
  const seen = (await h.read({ sessionId: S, path: f })).content;
  await h.write({ sessionId: S, path: f, content: seen + 'agent line\n' });
  assert.equal(readFileSync(f, 'utf8'), 'saved\nuser typed this\nagent line\n', "the user's edits survive");
});

test('a clean open buffer is written without a prior read', async () => {
  const { ws, docs, h } = setup();
  const f = join(ws, 'clean.txt');
  writeFileSync(f, 'x\n');
  docs.open(f, 'x\n');
  await h.write({ sessionId: S, path: f, content: 'y\n' });
  assert.equal(docs.get(f)!.text, 'y\n');
});

test('symlink escaping the workspace needs permission; denied → error, nothing written', async () => {
  const { root, ws, permission, edits, h } = setup({ permission: 'reject_once' });
  const outside = join(root, 'outside');
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.txt'), 'secret\n');
  symlinkSync(outside, join(ws, 'link'));
  await rejects(
    h.write({ sessionId: S, path: join(ws, 'link', 'secret.txt'), content: 'pwned' }),
    -32600,
    /did not allow writing .*outside the workspace/,
  );
  assert.equal(readFileSync(join(outside, 'secret.txt'), 'utf8'), 'secret\n');
  assert.equal(edits.calls.length, 0);
  assert.equal(permission.asked.length, 1);
  assert.equal(permission.asked[0].toolCall.kind, 'edit');
  assert.deepEqual(permission.asked[0].toolCall.locations, [{ path: join(outside, 'secret.txt') }]);
  // A new file through the link is resolved too.
  await rejects(
    h.write({ sessionId: S, path: join(ws, 'link', 'new', 'x.txt'), content: 'x' }),
    -32600,
    /outside the workspace/,
  );
  assert.equal(existsSync(join(outside, 'new')), false);
  // Reads outside too.
  await rejects(h.read({ sessionId: S, path: join(ws, 'link', 'secret.txt') }), -32600, /did not allow reading/);
});

test('outside the workspace: allow once writes the real target; allow always is remembered', async () => {
  const { root, ws, permission, h } = setup({ permission: 'allow_once' });
  const outside = join(root, 'out2');
  mkdirSync(outside);
  symlinkSync(join(outside), join(ws, 'l2'));
  await h.write({ sessionId: S, path: join(ws, 'l2', 'a.txt'), content: 'ok\n' });
  assert.equal(readFileSync(join(outside, 'a.txt'), 'utf8'), 'ok\n');
  permission.answer = 'allow_always';
  await h.read({ sessionId: S, path: join(outside, 'a.txt') });
  await h.read({ sessionId: S, path: join(outside, 'a.txt') });
  assert.equal(permission.asked.length, 2, 'allow_always asked once for the read');
  permission.answer = 'cancelled';
  await rejects(h.write({ sessionId: S, path: join(outside, 'b.txt'), content: 'x' }), -32600, /did not allow/);
});

test('a write that fails leaves no review entry', async () => {
  const { ws, edits, tracker, h } = setup();
  const f = join(ws, 'fail.txt');
  writeFileSync(f, 'x');
  edits.replaceText = async () => {
    throw new Error('disk full');
  };
  await rejects(h.write({ sessionId: S, path: f, content: 'y' }), -32603, /Could not write .*disk full/);
  assert.equal(tracker.changes(S, 0).length, 0);
});

test('diff content of an agent that writes itself: snapshot while pending, applied on completion', async () => {
  const { ws, tracker, store, h, idle } = setup();
  const f = join(ws, 'self.txt');
  writeFileSync(f, 'hello world\nsecond line\n');
  const send = observe(store, h);
  send(pendingEdit('t1', f, 'hello world', 'hello ACP'));
  await idle();
  writeFileSync(f, 'hello ACP\nsecond line\n'); // the agent writes the disk itself
  assert.equal(tracker.changes(S, 0).length, 0, 'not applied yet');
  send({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed' });
  await idle();
  const [c] = tracker.changes(S, 0);
  assert.equal(Buffer.from(c.before!).toString(), 'hello world\nsecond line\n');
  assert.equal(c.exact, true);
  assert.deepEqual(c.toolCallIds, ['t1']);
  // A call seen only once completed falls back to the diff's oldText (inexact); null = created.
  send({
    sessionUpdate: 'tool_call',
    toolCallId: 't2',
    title: 'Write',
    kind: 'edit',
    status: 'completed',
    content: [{ type: 'diff', path: join(ws, 'n.txt'), oldText: null, newText: 'n' }],
  });
  const n = tracker.get(S, 0, join(ws, 'n.txt'))!;
  assert.equal(n.before, null);
  assert.equal(n.exact, false);
  // A rejected call leaves nothing.
  send({
    sessionUpdate: 'tool_call',
    toolCallId: 't3',
    title: 'Edit',
    kind: 'edit',
    status: 'pending',
    content: [{ type: 'diff', path: join(ws, 'r.txt'), oldText: 'a', newText: 'b' }],
  });
  send({ sessionUpdate: 'tool_call_update', toolCallId: 't3', status: 'failed' });
  await idle();
  assert.equal(tracker.get(S, 0, join(ws, 'r.txt')), undefined);
});

test('claude-agent-acp wrote before our read: its originalFile becomes the snapshot (line endings aside)', async () => {
  const { ws, tracker, store, h, idle } = setup();
  const send = observe(store, h);
  const result = (id: string, filePath: string, originalFile: string | null) =>
    send({
      sessionUpdate: 'tool_call_update',
      toolCallId: id,
      _meta: {
        claudeCode: {
          toolName: 'Edit',
          toolResponse: { filePath, oldString: 'x', newString: 'y', originalFile, structuredPatch: [] },
        },
      },
    });
  // The edit is on disk before Tandem's read of the pending call lands.
  const f = join(ws, 'raced.txt');
  writeFileSync(f, 'hello ACP\nsecond line\n');
  send(pendingEdit('e1', f, 'hello world', 'hello ACP'));
  result('e1', f, 'hello world\nsecond line\n');
  send({ sessionUpdate: 'tool_call_update', toolCallId: 'e1', status: 'completed' });
  await idle();
  const c = tracker.get(S, 0, f)!;
  assert.equal(Buffer.from(c.before!).toString(), 'hello world\nsecond line\n', 'the file before the edit, not after');
  assert.equal(c.applied, true);
  // A second edit of the same file in the turn reports the intermediate file: the first snapshot stays.
  send(pendingEdit('e2', f, 'second', 'third'));
  result('e2', f, 'hello ACP\nsecond line\n');
  await idle();
  assert.equal(Buffer.from(tracker.get(S, 0, f)!.before!).toString(), 'hello world\nsecond line\n');
  // A file the agent created before our read: the read found it, the agent says it is new.
  const n = join(ws, 'new.txt');
  writeFileSync(n, 'brand new\n');
  send({
    sessionUpdate: 'tool_call',
    toolCallId: 'w1',
    title: 'Write',
    kind: 'edit',
    status: 'pending',
    content: [{ type: 'diff', path: n, oldText: null, newText: 'brand new\n' }],
  });
  result('w1', n, null);
  await idle();
  assert.equal(tracker.get(S, 0, n)!.before, null, 'created by the call: nothing before it');
  // Our read was in time and the agent's copy differs only in line endings: ours (exact bytes) stays.
  const crlf = join(ws, 'crlf.txt');
  writeFileSync(crlf, 'a\r\nb\r\n');
  send(pendingEdit('c1', crlf, 'a', 'A'));
  await idle();
  result('c1', crlf, 'a\nb\n');
  await idle();
  assert.equal(Buffer.from(tracker.get(S, 0, crlf)!.before!).toString(), 'a\r\nb\r\n');
});
