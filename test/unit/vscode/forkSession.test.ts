// "Tandem: Fork Session" and the view's "Fork from here", on the host: the palette offers it (the
// `tandem.canFork` context key) only for an agent with session/fork and a session with an ended
// turn and none running; the fork opens as the shown session. Real Controller and scripted agent,
// fake `vscode`.
import { state as vs, fakeContext } from '../security/fakeVscode';
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryLogger } from '../../../src/common/logger';
import type { AgentScript } from '../../../src/demo/scriptTypes';
import { Controller } from '../../../src/vscode/agent/controller';
import { StatusIndicators } from '../../../src/vscode/agent/statusBar';
import { viewIntents } from '../security/viewIntents';
import { until } from '../../support/until';

const REPO = join(__dirname, '../../../..');
const AGENT = join(__dirname, '../../fixtures/agents/scripted-agent.js');

async function withAgent(
  script: AgentScript,
  body: (t: { ctl: Controller; intents: ReturnType<typeof viewIntents> }) => Promise<void>,
): Promise<void> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'tandem-fork-')));
  const ws = join(root, 'ws');
  mkdirSync(ws);
  const scriptFile = join(root, 'script.json');
  writeFileSync(scriptFile, JSON.stringify(script));
  Object.assign(vs, { folders: [ws], isTrusted: true, shown: [], commands: [], context: {} });
  vs.config = {
    'tandem.agents': [{ name: 'Scripted', command: process.execPath, args: [AGENT, scriptFile] }],
    'tandem.defaultAgent': 'Scripted',
  };
  const logger = new MemoryLogger();
  const context = fakeContext(REPO, join(root, 'storage'));
  const ctl = new Controller({ context: context as never, logger, traffic: () => undefined });
  const indicators = new StatusIndicators(ctl);
  const intents = viewIntents(ctl, context, logger);
  try {
    await ctl.start();
    assert.equal(ctl.agent.state, 'ready', ctl.agent.message);
    await body({ ctl, intents });
  } finally {
    await ctl.stop();
    intents.dispose();
    indicators.dispose();
    ctl.dispose();
  }
}

const prompts: AgentScript['prompts'] = [
  { match: 'first', steps: [{ stream: 'one' }] },
  { match: 'hang', steps: [{ stream: 'working' }, { hang: true }] },
];

test('the palette offers Fork Session once a turn has ended; the fork opens as the shown session', async () => {
  await withAgent(
    {
      initialize: { agentCapabilities: { sessionCapabilities: { fork: {} } } as never },
      prompts,
      handlers: { 'session/fork': { steps: [{ sleep: 400 }], result: { sessionId: 'fork-1' } } },
    },
    async ({ ctl, intents }) => {
      assert.equal(ctl.agent.canFork, true, 'the view is told the agent forks');
      assert.equal(vs.context['tandem.canFork'], false, 'nothing to fork before a turn');
      await intents.handle({ type: 'prompt', text: 'first' });
      await until(() => vs.context['tandem.canFork'] === true, 2000, 'the context key');
      const source = ctl.current!.session!.sessionId;

      const forking = intents.handle({ type: 'forkSession' });
      await until(() => ctl.agent.state === 'starting', 2000, 'the forking state');
      assert.equal(ctl.agent.message, 'Forking the session…');
      assert.equal(vs.context['tandem.canFork'], false, 'not while a session opens');
      await forking;
      const shown = ctl.snapshot().session!;
      assert.equal(shown.meta.sessionId, 'fork-1');
      assert.equal(shown.turns.length, 1, 'the earlier turn is shown in the fork');
      assert.deepEqual(
        ctl.sessionTabs().map((t) => t.sessionId),
        [source, 'fork-1'],
      );
      assert.equal(ctl.agent.state, 'ready');
      assert.equal(vs.context['tandem.canFork'], true, 'the fork can be forked in turn');

      // While a turn runs the key is off, and the command, run anyway, says why. (In the source:
      // the scripted agent does not know the fork's id.)
      await intents.handle({ type: 'switchSession', sessionId: source });
      const turn = intents.handle({ type: 'prompt', text: 'hang' });
      await until(() => vs.context['tandem.canFork'] === false, 2000, 'the key goes off mid-turn');
      await intents.handle({ type: 'forkSession' });
      assert.ok(
        vs.shown.some((m) => /turn is still running/.test(m)),
        vs.shown.join(' | '),
      );
      assert.equal(ctl.sessionTabs().length, 2, 'no fork');
      ctl.current!.cancel();
      await turn;
    },
  );
});

test('an agent without session/fork: no context key, and the command says why and sends nothing', async () => {
  await withAgent({ prompts }, async ({ ctl, intents }) => {
    assert.equal(ctl.agent.canFork, undefined);
    await intents.handle({ type: 'prompt', text: 'first' });
    await until(() => ctl.current!.session!.state.meta.status === 'idle', 2000, 'the turn ends');
    assert.equal(vs.context['tandem.canFork'], false);
    await intents.handle({ type: 'forkSession' });
    assert.ok(
      vs.shown.includes('info: Tandem: Scripted cannot fork sessions (it does not offer session/fork).'),
      vs.shown.join(' | '),
    );
    assert.equal(ctl.sessionTabs().length, 1);
  });
});

after(() => {
  vs.config = {};
});
