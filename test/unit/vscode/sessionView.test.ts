// The session view's answers to requests from the page: one reply per request with its seq; the
// result, or an error reply when the handler throws or the request is refused; turn content in
// the patch stream ahead of the reply. Fake `vscode`, a fake webview view.
import { fakeWebviewView, vscodeFake } from '../security/fakeVscode';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { MemoryLogger } from '../../../src/common/logger';
import { getToolCall, toSnapshot, turnWithCalls } from '../../../src/session/snapshot';
import { SessionViewProvider } from '../../../src/vscode/view/sessionView';
import type { RequestHandlers } from '../../../src/vscode/view/webviewRequests';
import { threeFinishedTurns } from '../../support/sessions';
import { until } from '../../support/until';

const REPO = join(__dirname, '../../../..');

function open(requests: RequestHandlers<'searchFiles' | 'attachSelection'>) {
  const logger = new MemoryLogger();
  const s = threeFinishedTurns();
  const provider = new SessionViewProvider(vscodeFake.Uri.file(REPO) as never, logger);
  provider.serve(
    {
      snapshot: () => ({ type: 'snapshot', agent: { state: 'ready' }, session: toSnapshot(s) }),
      turns: (id) =>
        id === 's' ? { fullTurn: (t) => turnWithCalls(s, t), turnOfCall: (c) => getToolCall(s, c)?.turn } : undefined,
    },
    requests,
  );
  const v = fakeWebviewView();
  provider.resolveWebviewView(v.view as never);
  v.send({ type: 'ready' });
  const intents: string[] = [];
  provider.onIntent((i) => intents.push(i.type));
  const replies = () => v.posted.filter((m) => (m as { type: string }).type === 'reply');
  return { provider, v, logger, replies, intents };
}

const noRequests: RequestHandlers<'searchFiles' | 'attachSelection'> = {
  searchFiles: () => [],
  attachSelection: () => ({}),
};

test('a request gets one reply with its seq and the handler result; it never reaches the intent handlers', async () => {
  const { provider, v, replies, intents } = open({
    ...noRequests,
    searchFiles: async ({ query }) => [{ path: `/ws/${query}.ts`, label: `${query}.ts`, description: '' }],
  });
  v.send({ type: 'request', seq: 7, method: 'searchFiles', params: { query: 'main' } });
  await until(() => replies().length === 1, 1000, 'a reply');
  assert.deepEqual(replies(), [
    { type: 'reply', seq: 7, result: [{ path: '/ws/main.ts', label: 'main.ts', description: '' }] },
  ]);
  assert.deepEqual(intents, []);
  provider.dispose();
});

test('a handler that throws becomes an error reply with its message, and a warning in the log', async () => {
  const { provider, v, replies, logger } = open({
    ...noRequests,
    attachSelection: () => {
      throw new Error('no editor');
    },
  });
  v.send({ type: 'request', seq: 3, method: 'attachSelection', params: {} });
  await until(() => replies().length === 1, 1000, 'a reply');
  assert.deepEqual(replies(), [{ type: 'reply', seq: 3, error: 'no editor' }]);
  assert.ok(logger.messages('warn').some((m) => /attachSelection request failed: no editor/.test(m)));
  provider.dispose();
});

test('a refused request is answered with an error reply at once; nothing runs', async () => {
  let searched = 0;
  const { provider, v, replies, logger } = open({
    ...noRequests,
    searchFiles: () => {
      searched++;
      return [];
    },
  });
  v.send({ type: 'request', seq: 4, method: 'searchFiles', params: { query: 'a', glob: '**' } });
  v.send({ type: 'request', seq: 5, method: 'readFile', params: { path: '/etc/passwd' } });
  assert.equal(replies().length, 2);
  const [a, b] = replies() as { seq: number; error: string }[];
  assert.equal(a.seq, 4);
  assert.match(a.error, /refused.*unexpected field "glob"/);
  assert.equal(b.seq, 5);
  assert.match(b.error, /refused.*unknown request method "readFile"/);
  assert.equal(searched, 0);
  assert.equal(logger.messages('warn').filter((m) => /Ignored an invalid message/.test(m)).length, 2);
  provider.dispose();
});

test('loadTurns: the outlined turns go out as fullTurn patches, then the reply lists them', async () => {
  const { provider, v, replies } = open(noRequests);
  const snap = v.posted[0] as { type: string; session: { turns: { outline?: unknown }[] } };
  assert.equal(snap.type, 'snapshot');
  assert.deepEqual(
    snap.session.turns.map((t) => !!t.outline),
    [true, true, false],
    'folded turns are outlines',
  );
  v.send({ type: 'request', seq: 1, method: 'loadTurns', params: { sessionId: 's', turns: [0, 2] } });
  await until(() => replies().length === 1, 1000, 'a reply');
  const after = v.posted.slice(1) as { type: string; patches?: { op: string; turn: { index: number } }[] }[];
  assert.deepEqual(
    after.map((m) => m.type),
    ['patch', 'reply'],
    'the content comes first',
  );
  assert.deepEqual(
    after[0].patches!.map((p) => [p.op, p.turn.index]),
    [['fullTurn', 0]],
  );
  assert.deepEqual(replies(), [{ type: 'reply', seq: 1, result: { loaded: [0] } }], 'turn 2 was whole already');
  // Another session's turns: nothing to send.
  v.send({ type: 'request', seq: 2, method: 'loadTurns', params: { sessionId: 'other', turns: [0] } });
  await until(() => replies().length === 2, 1000, 'a second reply');
  assert.deepEqual(replies()[1], { type: 'reply', seq: 2, result: { loaded: [] } });
  provider.dispose();
});
