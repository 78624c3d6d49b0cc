// Every prompt goes out through the PromptSender, so the restore notice ("Restore to here" changed
// these files) reaches the agent whichever way the next prompt is sent: from the composer, from
// the queue when a turn ends, or steered into the running turn with "Send now".
import '../security/fakeVscode';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ContentBlock } from '@agentclientprotocol/sdk';
import { Emitter } from '../../../src/common/event';
import { MemoryLogger } from '../../../src/common/logger';
import { PromptQueues } from '../../../src/session/promptQueue';
import type { AgentClient } from '../../../src/client/connection/agentClient';
import { PromptSender } from '../../../src/vscode/prompts/promptSender';
import { QueuedPrompts } from '../../../src/vscode/prompts/queuedPrompts';
import type { TurnEnd } from '../../../src/vscode/prompts/turnEnds';
import { until } from '../../support/until';

const SID = 'sess-1';
const NOTICE = 'Tandem restored a.txt to how it was before turn 2';

/** An agent connection that records what it is sent; `steering` as claude-agent-acp advertises it. */
function fakeClient(status: 'idle' | 'working', steering = false) {
  const prompts: ContentBlock[][] = [];
  const steered: ContentBlock[][] = [];
  const dispatched: unknown[] = [];
  const store = { sessionId: SID, state: { meta: { status } }, dispatch: (a: unknown) => dispatched.push(a) };
  const client = {
    initializeResult: { protocolVersion: 1, _meta: steering ? { steering: { supported: true } } : undefined },
    session: store,
    getSession: (id: string) => (id === SID ? store : undefined),
    prompt: async (content: ContentBlock[]) => void prompts.push(content),
    steer: async (_id: string, content: ContentBlock[]) => {
      steered.push(content);
      return 'injected' as const;
    },
    cancel: () => undefined,
  };
  return { client: client as unknown as AgentClient, store, prompts, steered, dispatched };
}

/** The notice is waiting for the session once, as after a restore. */
function notices() {
  const waiting = new Map([[SID, NOTICE]]);
  return {
    take: (id: string) => {
      const n = waiting.get(id);
      waiting.delete(id);
      return n;
    },
  };
}

function setup(status: 'idle' | 'working', steering = false) {
  const agent = fakeClient(status, steering);
  let stored: unknown;
  const ctl = {
    current: agent.client,
    clientOf: (id: string) => (id === SID ? agent.client : undefined),
    queues: new PromptQueues({ get: () => stored, set: (v) => void (stored = v) }, () => `q${Math.random()}`),
    agent: { state: 'ready' as const },
    openingSession: undefined,
    ensureStarted: async () => undefined,
  };
  const ends = new Emitter<TurnEnd>();
  const sender = new PromptSender(ctl as never, notices());
  const queued = new QueuedPrompts(ctl, { onDidEnd: ends.event }, sender, new MemoryLogger());
  return { ...agent, ctl, ends, sender, queued };
}

const firstText = (content: ContentBlock[] | undefined) => (content?.[0] as { text?: string } | undefined)?.text;

test('a prompt from the composer carries the restore notice first, once', async () => {
  const t = setup('idle');
  await t.sender.send('go on', []);
  await t.sender.send('and again', []);
  assert.equal(firstText(t.prompts[0]), `[${NOTICE}]`);
  assert.equal(firstText(t.prompts[0]?.slice(1)), 'go on');
  assert.equal(firstText(t.prompts[1]), 'and again', 'the notice is sent once');
  t.queued.dispose();
});

test('a queued prompt sent when the turn ends carries the restore notice', async () => {
  const t = setup('working');
  t.ctl.queues.add(SID, 'after the turn');
  t.store.state.meta.status = 'idle';
  t.ends.fire({ client: t.client, sessionId: SID, outcome: 'ended' });
  await until(() => t.prompts.length === 1, 5000, 'the queued prompt is sent');
  assert.equal(firstText(t.prompts[0]), `[${NOTICE}]`);
  assert.equal(firstText(t.prompts[0]?.slice(1)), 'after the turn');
  t.queued.dispose();
});

test('a queued prompt steered into the running turn ("Send now") carries the restore notice', async () => {
  const t = setup('working', true);
  const item = t.ctl.queues.add(SID, 'steer this');
  await t.queued.handle({ op: 'sendNow', id: item.id });
  assert.equal(t.steered.length, 1, 'steered, not sent as a new turn');
  assert.equal(firstText(t.steered[0]), `[${NOTICE}]`);
  assert.equal(firstText(t.steered[0]?.slice(1)), 'steer this');
  // The agent does not echo a steered prompt: the view shows it in the turn it joined, notice included.
  assert.equal(t.dispatched.length, 2);
  assert.equal(t.prompts.length, 0);
  t.queued.dispose();
});
