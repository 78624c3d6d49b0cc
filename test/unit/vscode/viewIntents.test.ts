// The view's intents do what the palette does: "Select agent" opens the same picker; a prompt
// sent while a turn runs is queued and sent when the turn ends (held after a cancel). Real
// Controller and scripted agent, fake `vscode`.
import { state as vs, fakeContext } from '../security/fakeVscode';
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryLogger } from '../../../src/common/logger';
import type { AgentScript } from '../../../src/demo/scriptTypes';
import { Controller } from '../../../src/vscode/agent/controller';
import { QueuedPrompts } from '../../../src/vscode/prompts/queuedPrompts';
import { TurnEnds } from '../../../src/vscode/prompts/turnEnds';
import { PromptSender } from '../../../src/vscode/prompts/promptSender';
import { viewIntents } from '../security/viewIntents';
import { until } from '../../support/until';

const REPO = join(__dirname, '../../../..');
const AGENT = join(__dirname, '../../fixtures/agents/scripted-agent.js');

function setup(script: AgentScript = {}) {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'tandem-intents-')));
  const ws = join(root, 'ws');
  mkdirSync(ws);
  const scriptFile = join(root, 'script.json');
  writeFileSync(scriptFile, JSON.stringify(script));
  vs.folders = [ws];
  vs.isTrusted = true;
  vs.config = {
    'tandem.agents': [{ name: 'Scripted', command: process.execPath, args: [AGENT, scriptFile] }],
    'tandem.defaultAgent': 'Scripted',
  };
  vs.shown = [];
  vs.commands = [];
  vs.quickPicks = [];
  const logger = new MemoryLogger();
  const context = fakeContext(REPO, join(root, 'storage'));
  const ctl = new Controller({ context: context as never, logger, traffic: () => undefined });
  const turns = new TurnEnds();
  ctl.registerFeatures(() => [turns]);
  const sender = new PromptSender(ctl, { take: () => undefined });
  const queued = new QueuedPrompts(ctl, turns, sender, logger);
  return { ctl, queued, intents: viewIntents(ctl, context, logger, { queue: queued, sender }) };
}

test('"Select agent" in the view opens the palette\'s agent picker, not the settings', async () => {
  const { ctl, intents } = setup();
  try {
    await intents.handle({ type: 'selectAgent' });
    assert.deepEqual(vs.quickPicks, ['Tandem: Select Agent']);
    assert.ok(!vs.commands.includes('workbench.action.openSettings'), vs.commands.join(', '));
  } finally {
    intents.dispose();
    ctl.dispose();
  }
});

/**
 * Starts the scripted agent, sends `firstPrompt` from the view and runs `body` while that turn
 * runs (`first` resolves when it ends); stops everything after.
 */
async function duringATurn(
  script: AgentScript,
  firstPrompt: string,
  body: (t: ReturnType<typeof setup> & { first: Promise<void> }) => Promise<void>,
): Promise<void> {
  const t = setup(script);
  try {
    await t.ctl.start();
    assert.equal(t.ctl.agent.state, 'ready', t.ctl.agent.message);
    const first = t.intents.handle({ type: 'prompt', text: firstPrompt });
    await until(() => t.ctl.current!.session!.state.meta.status === 'working', 5000, 'the first turn runs');
    await body({ ...t, first });
  } finally {
    await t.ctl.stop();
    t.intents.dispose();
    t.queued.dispose();
    t.ctl.dispose();
  }
}

const userText = (ctl: Controller) =>
  ctl.snapshot().session!.turns.map((t) => {
    const first = t.items[0];
    return first?.kind === 'user' && first.blocks[0]?.type === 'text' ? first.blocks[0].text : '?';
  });

test('prompts from the view while a turn runs are queued, reordered, and sent in order when it ends', async () => {
  await duringATurn(
    {
      prompts: [
        { match: 'slow', steps: [{ stream: 'working…' }, { sleep: 1500 }, { stream: 'done' }] },
        { match: 'second', steps: [{ stream: 'two' }] },
        { match: 'third', steps: [{ stream: 'three' }] },
      ],
    },
    'slow please',
    async ({ ctl, intents, queued, first }) => {
      await intents.handle({ type: 'prompt', text: 'second' });
      await intents.handle({ type: 'prompt', text: 'third' });
      assert.equal(ctl.snapshot().session!.turns.length, 1, 'nothing sent while the turn runs');
      const q = queued.queue();
      assert.deepEqual(
        q.items.map((x) => x.text),
        ['second', 'third'],
      );
      await intents.handle({ type: 'queue', op: 'move', id: q.items[1].id, to: 0 });
      await first;
      await until(
        () => userText(ctl).length === 3 && ctl.current!.session!.state.meta.status === 'idle',
        10_000,
        'both sent',
      );
      assert.deepEqual(userText(ctl), ['slow please', 'third', 'second']);
      assert.deepEqual(queued.queue().items, []);
    },
  );
});

test('after a cancel the queue waits, shows held, and goes out on Send', async () => {
  await duringATurn(
    {
      prompts: [
        { match: 'hang', steps: [{ stream: 'working…' }, { hang: true }] },
        { match: 'later', steps: [{ stream: 'ok' }] },
      ],
    },
    'hang please',
    async ({ ctl, intents, queued, first }) => {
      await intents.handle({ type: 'prompt', text: 'later' });
      await intents.handle({ type: 'cancel' });
      await first;
      await until(() => queued.queue().held === true, 5000, 'the queue to be held');
      assert.equal(userText(ctl).length, 1, 'the cancel sent nothing');
      await intents.handle({ type: 'queue', op: 'resume' });
      await until(() => userText(ctl).length === 2, 5000, 'sent on Send');
      assert.deepEqual(userText(ctl), ['hang please', 'later']);
    },
  );
});

test('closing a session drops its queued prompts (they are not sent, and not kept for a session that is gone)', async () => {
  await duringATurn(
    { prompts: [{ match: 'hang', steps: [{ stream: 'working…' }, { hang: true }] }] },
    'hang please',
    async ({ ctl, intents }) => {
      const sessionId = ctl.current!.session!.sessionId;
      await intents.handle({ type: 'prompt', text: 'queued one' });
      assert.equal(ctl.queues.get(sessionId).items.length, 1);
      await intents.handle({ type: 'closeSession', sessionId });
      assert.equal(ctl.queues.get(sessionId).items.length, 0);
    },
  );
});

test('"Send now" without steering cancels the running turn and sends that prompt', async () => {
  await duringATurn(
    {
      prompts: [
        { match: 'hang', steps: [{ stream: 'working…' }, { hang: true }] },
        { match: 'other', steps: [{ stream: 'x' }] },
        { match: 'urgent', steps: [{ stream: 'ok' }] },
      ],
    },
    'hang please',
    async ({ ctl, intents, queued, first }) => {
      await intents.handle({ type: 'prompt', text: 'other' });
      await intents.handle({ type: 'prompt', text: 'urgent' });
      assert.equal(queued.queue().steer, false);
      await intents.handle({ type: 'queue', op: 'sendNow', id: queued.queue().items[1].id });
      await first;
      await until(
        () => userText(ctl).length === 3 && ctl.current!.session!.state.meta.status === 'idle',
        10_000,
        'both sent',
      );
      assert.deepEqual(userText(ctl), ['hang please', 'urgent', 'other']);
      assert.equal(ctl.snapshot().session!.turns[0].stopReason, 'cancelled');
    },
  );
});

test('"Send now" with a steering agent adds the prompt to the running turn over _session/steering', async () => {
  await duringATurn(
    {
      initialize: { _meta: { steering: { supported: true } } },
      handlers: {
        '_session/steering': {
          result: { outcome: 'injected' },
          after: [{ stream: 'steered: ${params.prompt}' }],
        },
      },
      prompts: [{ match: 'slow', steps: [{ stream: 'working…' }, { sleep: 1500 }, { stream: ' done' }] }],
    },
    'slow please',
    async ({ ctl, intents, queued, first }) => {
      await intents.handle({ type: 'prompt', text: 'also look at b.ts' });
      assert.equal(queued.queue().steer, true);
      await intents.handle({ type: 'queue', op: 'sendNow', id: queued.queue().items[0].id });
      assert.deepEqual(queued.queue().items, [], 'it left the queue');
      await first;
      const turns = ctl.snapshot().session!.turns;
      assert.equal(turns.length, 1, 'no second turn: it joined the running one');
      const users = turns[0].items.filter((i) => i.kind === 'user');
      assert.equal(users.length, 2, 'the steered prompt shows in the turn it joined');
      assert.equal(turns[0].stopReason, 'end_turn');
    },
  );
});

/** The agent opens its first session at once and every later one after `ms` (claude-code-acp: 3–5 s). */
const slowNewSession = (ms: number): AgentScript['newSession'] => ({
  steps: [{ branch: 'n', cases: { '1': [] }, else: [{ sleep: ms }] }],
});

function promptTexts(ctl: Controller, sessionId: string): string[] {
  const s = ctl.current!.getSession(sessionId)!.snapshot();
  return s.turns.flatMap((t) =>
    t.items.flatMap((i) => (i.kind === 'user' ? i.blocks : [])).map((b) => (b.type === 'text' ? b.text : b.type)),
  );
}

test('while a new session opens the view says so, and a prompt sent meanwhile goes to the new session', async () => {
  const { ctl, intents } = setup({ newSession: slowNewSession(1500) });
  try {
    await ctl.start();
    const old = ctl.current!.session!.sessionId;
    const opening = intents.handle({ type: 'newSession' });
    await until(() => ctl.agent.state === 'starting', 2000, 'the opening state');
    assert.equal(ctl.agent.message, 'Opening a new session…');
    assert.equal(ctl.snapshot().session!.meta.sessionId, old, 'the old session is still shown meanwhile');
    const sent = intents.handle({ type: 'prompt', text: 'for the new session' });
    await opening;
    await sent;
    const now = ctl.current!.session!.sessionId;
    assert.notEqual(now, old);
    assert.equal(ctl.agent.state, 'ready');
    assert.deepEqual(promptTexts(ctl, old), [], 'nothing went to the old session');
    assert.deepEqual(promptTexts(ctl, now), ['for the new session']);
  } finally {
    await ctl.stop();
    intents.dispose();
    ctl.dispose();
  }
});

test('a new session that opens while the old one works says where that turn went on', async () => {
  const { ctl, intents } = setup({
    newSession: slowNewSession(300),
    prompts: [{ match: 'hang', steps: [{ stream: 'working…' }, { hang: true }] }],
  });
  try {
    await ctl.start();
    const old = ctl.current!.session!.sessionId;
    const turn = intents.handle({ type: 'prompt', text: 'hang please' });
    await until(() => ctl.current!.session!.state.meta.status === 'working', 5000, 'the turn runs');
    await intents.handle({ type: 'newSession' });
    assert.notEqual(ctl.current!.session!.sessionId, old);
    assert.ok(
      vs.shown.includes('info: Tandem: The previous session is still working in its own tab.'),
      vs.shown.join(' | '),
    );
    ctl.current!.cancel(old);
    await turn;
  } finally {
    await ctl.stop();
    intents.dispose();
    ctl.dispose();
  }
});

after(() => {
  vs.config = {};
});
