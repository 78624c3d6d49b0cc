// The elicitation feature on a real connection to the scripted agent: what travels on the wire.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentClient } from '../../../src/client/connection/agentClient';
import { ElicitationFeature, type UrlPort } from '../../../src/client/elicitation';
import { CLIENT_RESPONSES } from '../../../src/acp/validation';
import { MemoryLogger } from '../../../src/common/logger';
import type { AgentScript, Step } from '../../../src/demo/scriptTypes';
import { until } from '../../support/until';
import { settleMicrotasks } from '../../support/mockTimers';

const AGENT = join(__dirname, '../../fixtures/agents/scripted-agent.js');
const dir = mkdtempSync(join(tmpdir(), 'tandem-elic-'));
let n = 0;

const SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', minLength: 2 },
    age: { type: 'integer', title: 'Age', minimum: 0, maximum: 150 },
    color: { type: 'string', title: 'Color', enum: ['red', 'green'] },
  },
  required: ['name'],
};
const form = (as: string, extra: Record<string, unknown> = {}): Step =>
  ({
    request: 'elicitation/create',
    params: { sessionId: '${sessionId}', mode: 'form', message: 'Who are you?', requestedSchema: SCHEMA, ...extra },
    as,
  }) as Step;
const url = (as: string, elicitationId: string, href = 'https://example.com/login?x=1'): Step =>
  ({
    request: 'elicitation/create',
    params: { sessionId: '${sessionId}', mode: 'url', message: 'Sign in to Example', url: href, elicitationId },
    as,
  }) as Step;
const say = (text: string): Step =>
  ({ update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } }) as Step;

class FakeUrl implements UrlPort {
  asked: Array<{ message: string; url: string }> = [];
  opened: string[] = [];
  answers: boolean[] = [];
  private waiting: Array<(b: boolean) => void> = [];
  hold = false;
  confirmUrl(message: string, url: string): Promise<boolean> {
    this.asked.push({ message, url });
    if (this.hold) return new Promise((r) => this.waiting.push(r));
    return Promise.resolve(this.answers.shift() ?? false);
  }
  release(b: boolean) {
    this.waiting.shift()?.(b);
  }
  openUrl(url: string): Promise<boolean> {
    this.opened.push(url);
    return Promise.resolve(true);
  }
}

function setup(script: AgentScript) {
  const file = join(dir, `script-${n++}.json`);
  writeFileSync(file, JSON.stringify(script));
  const logger = new MemoryLogger();
  const port = new FakeUrl();
  const feature = new ElicitationFeature({ url: port, logger });
  const out: Array<{ id?: unknown; result?: unknown; method?: string; params?: unknown }> = [];
  const inbound: Array<{ method?: string; params?: unknown }> = [];
  const c = new AgentClient({
    agent: { name: 'Scripted', command: process.execPath, args: [AGENT, file] },
    cwd: dir,
    logger,
    clientInfo: { name: 't', version: '0' },
    features: [feature],
    traffic: (d, m) => {
      (d === 'out' ? out : inbound).push(m as never);
    },
  });
  const answers = () =>
    out
      .filter((m) => m.result && typeof m.result === 'object' && 'action' in (m.result as object))
      .map((m) => m.result);
  const text = () =>
    c
      .session!.state.turns.toArray()
      .flatMap((t) => t.items.toArray())
      .filter((i) => i.kind === 'agent')
      .flatMap((i) => ('blocks' in i ? i.blocks : []))
      .map((b) => (b.type === 'text' ? b.text : ''))
      .join('');
  return { c, feature, port, out, inbound, logger, answers, text };
}

const validResponse = (r: unknown) => {
  const v = CLIENT_RESPONSES.get('elicitation/create')!;
  assert.ok(v(r), `valid CreateElicitationResponse: ${JSON.stringify(r)} ${JSON.stringify(v.errors)}`);
};

test('initialize advertises elicitation {form, url}', async () => {
  const t = setup({ prompts: [] });
  await t.c.start();
  const init = t.out.find((m) => m.method === 'initialize') as {
    params: { clientCapabilities: { elicitation?: unknown } };
  };
  assert.deepEqual(init.params.clientCapabilities.elicitation, { form: {}, url: {} });
  await t.c.shutdown();
});

test('a form shows in the session; invalid content is refused (the form stays), valid content reaches the agent', async () => {
  const t = setup({
    prompts: [
      { steps: [form('a', { toolCallId: 'tc1' }), say('hello ${a.content.name}, ${a.content.age}, ${a.action}')] },
    ],
  });
  const asked: Array<{ agentName: string; message: string }> = [];
  t.feature.onDidAskForm((f) => asked.push(f));
  await t.c.start();
  const turn = t.c.prompt('go');
  await until(() => t.c.session!.state.elicitations.length === 1);
  const view = t.c.session!.state.elicitations[0];
  assert.equal(view.mode, 'form');
  assert.equal(view.message, 'Who are you?');
  assert.equal(view.toolCallId, 'tc1');
  assert.deepEqual(view.requestedSchema, SCHEMA);
  assert.deepEqual(
    asked.map((a) => [a.agentName, a.message]),
    [['Scripted', 'Who are you?']],
    'the host hears of the form (notification when the view is hidden)',
  );
  const id = view.requestId;
  assert.equal(t.feature.answer(id, 'accept', { name: 'x' }), false, 'too short');
  assert.equal(t.feature.answer(id, 'accept', { name: 'Ada', age: 1.5 }), false, 'not an integer');
  assert.equal(t.feature.answer(id, 'accept', { name: 'Ada', extra: 'forged' }), false, 'unknown field');
  assert.equal(t.feature.answer(id, 'accept', { age: 3 }), false, 'required missing');
  assert.equal(t.feature.answer('elic-999', 'accept', { name: 'Ada' }), false, 'unknown request');
  assert.equal(t.feature.answer(id, 'decline', { name: 'Ada' }), false, 'content only with accept');
  assert.equal(t.c.session!.state.elicitations.length, 1, 'the form stays');
  assert.ok(
    t.logger.messages('warn').some((m) => /refused, the form stays: "Name" must be at least 2 characters/.test(m)),
  );
  assert.equal(t.answers().length, 0);
  assert.equal(t.feature.answer(id, 'accept', { name: 'Ada', age: 36 }), true);
  assert.equal(t.feature.answer(id, 'accept', { name: 'Ada', age: 36 }), false, 'answered once');
  await turn;
  assert.deepEqual(t.answers(), [{ action: 'accept', content: { name: 'Ada', age: 36 } }]);
  validResponse(t.answers()[0]);
  assert.equal(t.text(), 'hello Ada, 36, accept');
  assert.equal(t.c.session!.state.elicitations.length, 0);
  await t.c.shutdown();
});

test('decline and cancel from the user travel as {action}', async () => {
  const t = setup({
    prompts: [{ steps: [form('a'), say('first: ${a.action}. '), form('b'), say('second: ${b.action}')] }],
  });
  await t.c.start();
  const turn = t.c.prompt('go');
  await until(() => t.c.session!.state.elicitations.length === 1);
  assert.equal(t.feature.answer(t.c.session!.state.elicitations[0].requestId, 'decline'), true);
  await until(() => t.c.session!.state.elicitations.length === 1 && t.answers().length === 1);
  assert.equal(t.feature.answer(t.c.session!.state.elicitations[0].requestId, 'cancel'), true);
  await turn;
  assert.deepEqual(t.answers(), [{ action: 'decline' }, { action: 'cancel' }]);
  for (const a of t.answers()) validResponse(a);
  assert.equal(t.text(), 'first: decline. second: cancel');
  await t.c.shutdown();
});

test('session/cancel answers a pending form {action: cancel}; agent exit cancels what is left', async () => {
  const t = setup({
    prompts: [
      { match: 'one', steps: [{ ...form('a'), wait: false } as Step, { hang: true }] },
      { match: 'two', steps: [{ ...form('b'), wait: false } as Step, { sleep: 300 }, { crash: 1 }] },
    ],
  });
  await t.c.start();
  const turn = t.c.prompt('one');
  await until(() => t.c.session!.state.elicitations.length === 1);
  t.c.cancel();
  await turn;
  await until(() => t.answers().length === 1);
  assert.deepEqual(t.answers(), [{ action: 'cancel' }]);
  assert.equal(t.c.session!.state.elicitations.length, 0);
  assert.equal(t.feature.pending().length, 0);
  const turn2 = t.c.prompt('two');
  await until(() => t.feature.pending().length === 1);
  await turn2;
  await until(() => t.feature.pending().length === 0);
  assert.equal(t.c.session!.state.elicitations.length, 0);
  await t.c.shutdown();
});

test('closing the session cancels its form', async () => {
  const t = setup({ prompts: [{ steps: [{ ...form('a'), wait: false } as Step, { hang: true }] }] });
  await t.c.start();
  const first = t.c.session!.sessionId;
  void t.c.prompt('go');
  await until(() => t.feature.pending().length === 1);
  await t.c.newSession();
  assert.equal(t.feature.pending().length, 1, 'another session leaves it alone');
  await t.c.closeSession(first);
  assert.equal(t.feature.pending().length, 0);
  await until(() => t.answers().length === 1);
  assert.deepEqual(t.answers(), [{ action: 'cancel' }]);
  await t.c.shutdown();
});

test('a request-scoped form shows in the active session; with no session open it is declined', async () => {
  const reqForm = {
    request: 'elicitation/create',
    params: {
      requestId: 77,
      mode: 'form',
      message: 'Configure',
      requestedSchema: { type: 'object', properties: { ok: { type: 'boolean', title: 'OK' } } },
    },
    as: 'r',
  } as Step;
  const t = setup({
    newSession: { steps: [{ ...reqForm, as: 'early' } as Step] },
    prompts: [{ steps: [reqForm, say('r: ${r.action} ${r.content.ok}')] }],
  });
  await t.c.start();
  assert.deepEqual(t.answers(), [{ action: 'decline' }], 'during session/new there is no session to show it in');
  const turn = t.c.prompt('go');
  await until(() => t.c.session!.state.elicitations.length === 1);
  assert.equal(t.feature.answer(t.c.session!.state.elicitations[0].requestId, 'accept', { ok: true }), true);
  await turn;
  assert.equal(t.text(), 'r: accept true');
  await t.c.shutdown();
});

test('url mode: confirmed → opened and accept, a card until elicitation/complete; declined → decline, nothing opened', async () => {
  const t = setup({
    prompts: [
      {
        match: 'yes',
        steps: [
          url('u', 'e-1'),
          say('u: ${u.action}'),
          { sleep: 200 },
          { notify: 'elicitation/complete', params: { elicitationId: 'e-1' } } as Step,
          say(' done'),
        ],
      },
      { match: 'no', steps: [url('v', 'e-2'), say('v: ${v.action}')] },
      { match: 'ftp', steps: [url('w', 'e-3', 'file:///etc/passwd'), say('w: ${w.action}')] },
    ],
  });
  t.port.answers = [true, false];
  await t.c.start();
  const turn = t.c.prompt('yes');
  await until(() => t.c.session!.state.elicitations.length === 1);
  const card = t.c.session!.state.elicitations[0];
  assert.equal(card.mode, 'url');
  assert.equal(card.host, 'example.com');
  assert.equal(card.elicitationId, 'e-1');
  assert.deepEqual(t.port.opened, ['https://example.com/login?x=1']);
  assert.deepEqual(t.port.asked, [{ message: 'Sign in to Example', url: 'https://example.com/login?x=1' }]);
  await turn;
  await until(() => t.c.session!.state.elicitations.length === 0);
  assert.ok(t.text().startsWith('u: accept'));

  await t.c.prompt('no');
  assert.equal(t.port.asked.length, 2);
  assert.equal(t.port.opened.length, 1, 'a declined URL is not opened');
  assert.ok(t.text().includes('v: decline'));

  await t.c.prompt('ftp');
  assert.equal(t.port.asked.length, 2, 'a non-http URL is not even offered');
  assert.ok(t.text().includes('w: decline'));
  assert.deepEqual(t.answers(), [{ action: 'accept' }, { action: 'decline' }, { action: 'decline' }]);
  for (const a of t.answers()) validResponse(a);
  await t.c.shutdown();
});

test('url mode: cancelled while the dialog is open → cancel, and a late yes opens nothing; a card can be dismissed', async () => {
  const t = setup({
    prompts: [
      { match: 'hold', steps: [{ ...url('u', 'e-1'), wait: false } as Step, { hang: true }] },
      { match: 'card', steps: [url('v', 'e-2'), say('v: ${v.action}')] },
    ],
  });
  t.port.hold = true;
  await t.c.start();
  const turn = t.c.prompt('hold');
  await until(() => t.port.asked.length === 1);
  t.c.cancel();
  await turn;
  await until(() => t.answers().length === 1);
  t.port.release(true);
  await settleMicrotasks(); // the late yes is handled in the promise callbacks it resolves
  assert.deepEqual(t.port.opened, []);
  assert.deepEqual(t.answers(), [{ action: 'cancel' }]);

  t.port.hold = false;
  t.port.answers = [true];
  await t.c.prompt('card');
  assert.equal(t.c.session!.state.elicitations.length, 1, 'the card waits for elicitation/complete');
  assert.equal(t.feature.answer(t.c.session!.state.elicitations[0].requestId, 'cancel'), true);
  assert.equal(t.c.session!.state.elicitations.length, 0);
  await t.c.shutdown();
});
