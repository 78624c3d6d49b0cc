// The message proposed for a commit of kept changes: the prompts (subject and bullets) and the
// session's summary; and how the commit is recorded on the session and shown in it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Emitter } from '../../../../src/common/event';
import type { SessionAction } from '../../../../src/session/actions';
import { SessionStore } from '../../../../src/session/store';
import { type KeptCommit, KeptCommits } from '../../../../src/vscode/commit/keptCommits';
import { fullMessage, proposeKeptMessage, wrap, wrapParagraphs } from '../../../../src/vscode/commit/keptMessage';

type Ctl = ConstructorParameters<typeof KeptCommits>[1];

function session(...turns: { prompt: string; agent?: string[] }[]): SessionStore {
  const store = new SessionStore('s', () => 0);
  const run = (a: SessionAction) => store.dispatch(a);
  turns.forEach((t, i) => {
    run({ type: 'promptStarted', at: i * 10, prompt: [{ type: 'text', text: t.prompt }] });
    for (const [n, text] of (t.agent ?? []).entries()) {
      run({
        type: 'update',
        at: i * 10 + 1,
        update: { sessionUpdate: 'agent_message_chunk', messageId: `m${i}.${n}`, content: { type: 'text', text } },
      });
      run({
        type: 'update',
        at: i * 10 + 2,
        update: {
          sessionUpdate: 'tool_call',
          toolCallId: `c${i}.${n}`,
          title: 'Edit',
          kind: 'edit',
          status: 'completed',
        },
      });
    }
    run({ type: 'promptEnded', at: i * 10 + 5, stopReason: 'end_turn' });
  });
  return store;
}

const SUMMARY_PROMPT = 'Summarize the changes you made to files in this session.';

test("the subject is the first prompt, later prompts are bullets, and the session's summary closes the body", () => {
  const s = session(
    { prompt: 'Add a retry to the fetch helper', agent: ['Done.'] },
    { prompt: 'also log each attempt\nand keep it short' },
    { prompt: '   ' },
    { prompt: SUMMARY_PROMPT, agent: ['Added retries.'] },
  );
  const summary =
    'Added retries (3 attempts) to `fetchJson` and a log line per attempt,\nso flaky requests recover and show up in the log.\n\nTests pass.';
  const m = proposeKeptMessage(s.state, { summary, notReasons: [SUMMARY_PROMPT], fallback: 'fallback' });
  assert.equal(
    fullMessage(m),
    [
      'Add a retry to the fetch helper',
      '',
      // The summary request is Tandem's prompt, not one of the user's reasons.
      '- also log each attempt',
      '',
      'Added retries (3 attempts) to `fetchJson` and a log line per attempt, so',
      'flaky requests recover and show up in the log.',
      '',
      'Tests pass.',
    ].join('\n'),
  );
});

test('no summary: the prompts alone; no prompt with text either: the fallback subject and no body', () => {
  const s = session({ prompt: 'fix the parser' }, { prompt: 'and its tests' });
  assert.deepEqual(proposeKeptMessage(s.state, { fallback: 'F' }), {
    subject: 'fix the parser',
    body: '- and its tests',
  });
  assert.deepEqual(proposeKeptMessage(undefined, { fallback: 'Changes of session s' }), {
    subject: 'Changes of session s',
    body: '',
  });
  assert.deepEqual(proposeKeptMessage(session({ prompt: ' ' }).state, { summary: '  ', fallback: 'F' }), {
    subject: 'F',
    body: '',
  });
});

test('a summary is wrapped to 72 columns; a list in it keeps one item a line, wrapped under its marker', () => {
  assert.ok(
    wrap('a '.repeat(100), 72)
      .split('\n')
      .every((l) => l.length <= 72),
  );
  const list = `Changed:\n- the parser, ${'so that it reads nested lists '.repeat(2)}\n- its tests`;
  assert.equal(
    wrapParagraphs(list, 40),
    ['Changed:', '- the parser, so that it reads nested', '  lists so that it reads nested lists', '- its tests'].join(
      '\n',
    ),
  );
});

function memento() {
  const data = new Map<string, unknown>();
  return {
    get: <T>(k: string) => data.get(k) as T,
    update: async (k: string, v: unknown) => void data.set(k, v),
    keys: () => [...data.keys()],
  };
}

test('a commit is recorded on its session and shown once as a notice row; a reopened session shows it again', async () => {
  const replaced = new Emitter<void>();
  let store = session({ prompt: 'work' });
  const ctl = {
    clientOf: (id: string) => (id === 's' ? { getSession: () => store } : undefined),
    get current() {
      return { session: store };
    },
    onDidReplace: replaced.event,
  } as unknown as Ctl;
  const state = memento();
  const records = new KeptCommits(state as never, ctl);
  const commit: KeptCommit = {
    sessionId: 's',
    sha: 'abc1234def5678',
    message: 'Add retries\n\n- log attempts',
    files: ['a.ts', 'b.ts (1 of 2 changes)'],
    repoRoot: '/r',
    at: 7,
  };
  await records.add(commit);
  const notices = () => store.state.notices.toArray().map((n) => [n.title, n.description]);
  assert.deepEqual(notices(), [['Committed abc1234 — Add retries', 'a.ts, b.ts (1 of 2 changes)']]);
  assert.deepEqual(records.of('s'), [commit]);
  replaced.fire();
  assert.equal(notices().length, 1, 'not shown twice in the same store');
  // After a reload the session is a new store: the record, read back from storage, is shown in it.
  store = session({ prompt: 'work' });
  const reloaded = new KeptCommits(state as never, ctl);
  assert.deepEqual(notices(), [['Committed abc1234 — Add retries', 'a.ts, b.ts (1 of 2 changes)']]);
  assert.deepEqual(reloaded.of('s'), [commit]);
  assert.deepEqual(reloaded.of('other'), []);
});
