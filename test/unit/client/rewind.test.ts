// Going back in a conversation for Edit and resend: what initialize must say for `_session/rewind`
// and a fork, the rewind request that names the messages, and a fork at a message through the real
// AgentClient against the scripted agent (before the first prompt: a new session instead).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentCapabilities, InitializeResponse } from '@agentclientprotocol/sdk';
import { AgentClient } from '../../../src/client/connection/agentClient';
import {
  forkPointMeta,
  parseRewindResult,
  REWIND_METHOD,
  rewindCaps,
  rewindParams,
} from '../../../src/client/connection/rewind';
import { MemoryLogger } from '../../../src/common/logger';
import type { AgentScript } from '../../../src/demo/scriptTypes';
import { createSessionState, reduceAll, type SessionState } from '../../../src/session/reducer';

const AGENT = join(__dirname, '../../fixtures/agents/scripted-agent.js');
const dir = mkdtempSync(join(tmpdir(), 'tandem-rewind-'));
let n = 0;
const sha = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;

test('_session/rewind counts only where initialize lists the AIR capability sessionRewind', () => {
  const init = (_meta: unknown, sessionCapabilities: unknown = {}) =>
    ({ protocolVersion: 1, agentCapabilities: { sessionCapabilities }, _meta }) as InitializeResponse;
  assert.deepEqual(rewindCaps(init({ jetbrains: { air: { version: 1, capabilities: ['sessionRewind'] } } })), {
    rewind: true,
    fork: false,
  });
  // What claude-agent-acp 0.101.0 answers a client that is not AIR: session/fork, steering, no rewind.
  assert.deepEqual(rewindCaps(init({ steering: { supported: true } }, { fork: {}, list: {}, resume: {} })), {
    rewind: false,
    fork: true,
  });
  assert.deepEqual(rewindCaps(init({ jetbrains: { air: { capabilities: 'sessionRewind' } } })).rewind, false);
  assert.deepEqual(rewindCaps(init({ sessionRewind: true })).rewind, false, 'not a shape anyone advertises');
  assert.deepEqual(rewindCaps(undefined), { rewind: false, fork: false });
  assert.equal(REWIND_METHOD.method, '_session/rewind');
});

test('a fork point is sent as _meta.jetbrains.air.fork; a fork without one sends no _meta', () => {
  assert.deepEqual(forkPointMeta({ turn: 2, messageId: 'msg_9' }), {
    _meta: { jetbrains: { air: { fork: { version: 1, messageId: 'msg_9' } } } },
  });
  assert.deepEqual(forkPointMeta({ turn: 0 }), {});
  assert.deepEqual(forkPointMeta(undefined), {});
});

/** Prompts `texts`, each answered with the same text, as message m<i>. */
function conversation(texts: string[], from = createSessionState('s'), first = 0): SessionState {
  return reduceAll(
    from,
    texts.flatMap((text, i) => [
      { type: 'promptStarted' as const, at: i, prompt: [{ type: 'text' as const, text }] },
      {
        type: 'update' as const,
        at: i,
        update: {
          sessionUpdate: 'agent_message_chunk' as const,
          content: { type: 'text' as const, text: 'same' },
          messageId: `m${first + i}`,
        },
      },
      { type: 'promptEnded' as const, at: i, stopReason: 'end_turn' as const },
    ]),
  ).state;
}

test('the rewind names the first dropped prompt and the last kept reply by id, text hash and occurrence', () => {
  const s = conversation(['go', 'again', 'go']);
  assert.deepEqual(rewindParams(s, 2), {
    sessionId: 's',
    beforeMessage: { messageFingerprint: sha('go'), messageOccurrence: 2 },
    resumeAtMessage: { messageId: 'm1', messageFingerprint: sha('same'), messageOccurrence: 2 },
  });
  assert.deepEqual(rewindParams(s, 1)?.resumeAtMessage, {
    messageId: 'm0',
    messageFingerprint: sha('same'),
    messageOccurrence: 1,
  });
  assert.deepEqual(rewindParams(s, 0), {
    sessionId: 's',
    beforeMessage: { messageFingerprint: sha('go'), messageOccurrence: 1 },
  });
  const afterRewind = reduceAll(s, [{ type: 'rewound', at: 5, fromTurn: 1 }]).state;
  assert.equal(rewindParams(afterRewind, 2), undefined, 'a rewound turn cannot be rewound to');
  // The agent no longer has the rewound turns: they do not count.
  assert.deepEqual(rewindParams(conversation(['go'], afterRewind, 3), 3), {
    sessionId: 's',
    beforeMessage: { messageFingerprint: sha('go'), messageOccurrence: 2 },
    resumeAtMessage: { messageId: 'm0', messageFingerprint: sha('same'), messageOccurrence: 1 },
  });
  assert.equal(rewindParams(s, 7), undefined);
});

test('only {rewound: true} is a rewind', () => {
  parseRewindResult({ rewound: true });
  assert.throws(() => parseRewindResult({ rewound: false }), /answered _session\/rewind with \{"rewound":false\}/);
  assert.throws(() => parseRewindResult(null), /_session\/rewind/);
});

function client(script: AgentScript) {
  const file = join(dir, `script-${n++}.json`);
  writeFileSync(file, JSON.stringify(script));
  const traffic: { dir: 'in' | 'out'; msg: { method?: string; params?: unknown } }[] = [];
  const c = new AgentClient({
    agent: { name: 'Scripted', command: process.execPath, args: [AGENT, file] },
    cwd: dir,
    logger: new MemoryLogger(),
    traffic: (d, msg) => traffic.push({ dir: d, msg: msg as never }),
    clientInfo: { name: 'tandem-test', version: '0' },
  });
  return { c, sent: (method: string) => traffic.filter((t) => t.dir === 'out' && t.msg.method === method) };
}

const reply = (text: string, messageId: string) => ({
  update: { sessionUpdate: 'agent_message_chunk' as const, content: { type: 'text' as const, text }, messageId },
});

const forking: AgentScript = {
  initialize: { agentCapabilities: { sessionCapabilities: { fork: {} } } as AgentCapabilities },
  newSession: { sessionId: 'sess-${n}' },
  prompts: [
    { match: 'first', steps: [reply('one', 'msg_1')] },
    { match: 'second', steps: [reply('two', 'msg_2')] },
    { match: 'third', steps: [reply('three', 'msg_3')] },
  ],
  handlers: { 'session/fork': { result: { sessionId: 'fork-1' } } },
};

test('a fork at a message sends the point, and the fork shows the later turns rewound', async () => {
  const { c, sent } = client(forking);
  try {
    await c.start();
    for (const p of ['first', 'second', 'third']) await c.prompt(p);
    const source = c.session!.sessionId;
    const fork = await c.newSession(source, undefined, { turn: 2, messageId: 'msg_2' });
    assert.equal(fork.sessionId, 'fork-1');
    assert.deepEqual(sent('session/fork')[0].msg.params, {
      sessionId: source,
      cwd: dir,
      mcpServers: [],
      _meta: { jetbrains: { air: { fork: { version: 1, messageId: 'msg_2' } } } },
    });
    assert.deepEqual(
      fork.snapshot().turns.map((t) => !!t.rewound),
      [false, false, true],
    );
    assert.deepEqual(
      c
        .getSession(source)!
        .snapshot()
        .turns.map((t) => !!t.rewound),
      [false, false, false],
      'the source keeps every turn',
    );
  } finally {
    await c.shutdown();
  }
});

test('going back before the first prompt opens a new session in the source’s folder, with every turn rewound', async () => {
  const { c, sent } = client(forking);
  try {
    await c.start();
    await c.prompt('first');
    await c.prompt('second');
    const fresh = await c.newSession(c.session!.sessionId, undefined, { turn: 0 });
    assert.equal(sent('session/fork').length, 0, 'nothing to fork: no session/fork');
    assert.equal(sent('session/new').length, 2);
    assert.equal(fresh.sessionId, 'sess-2');
    assert.equal(c.session, fresh, 'the new session is shown');
    assert.deepEqual(
      fresh.snapshot().turns.map((t) => !!t.rewound),
      [true, true],
    );
  } finally {
    await c.shutdown();
  }
});
