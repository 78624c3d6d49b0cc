// The view's intents do what the palette does: "Select agent" opens the same picker, and a prompt
// sent while a turn runs is refused with the same message. Real Controller and scripted agent,
// fake `vscode`.
import { state as vs, fakeContext } from '../security/fakeVscode';
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryLogger } from '../../../src/common/logger';
import type { AgentScript } from '../../../src/demo/scriptTypes';
import { Controller } from '../../../src/vscode/controller';
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
  return { ctl, intents: viewIntents(ctl, context, logger) };
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

test('a prompt from the view while a turn runs is not sent, and the user is told why', async () => {
  const { ctl, intents } = setup({ prompts: [{ match: 'hang', steps: [{ stream: 'working…' }, { hang: true }] }] });
  try {
    await ctl.start();
    assert.equal(ctl.agent.state, 'ready', ctl.agent.message);
    const first = intents.handle({ type: 'prompt', text: 'hang please' });
    await until(() => ctl.current!.session!.state.meta.status === 'working', 5000, 'the first turn runs');
    await intents.handle({ type: 'prompt', text: 'and this too' });
    assert.ok(
      vs.shown.includes('info: Tandem: the agent is still working on the last prompt. Cancel it or wait.'),
      vs.shown.join(' | '),
    );
    assert.equal(ctl.snapshot().session!.turns.length, 1, 'no second turn');
    await intents.handle({ type: 'cancel' });
    await first;
  } finally {
    await ctl.stop();
    intents.dispose();
    ctl.dispose();
  }
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
