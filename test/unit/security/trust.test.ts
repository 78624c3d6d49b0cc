// No agent spawns in an untrusted (restricted) workspace: Controller.start, the view opening
// (ensureStarted) and a prompt from the view all stop at the trust check, with a message; the
// agent starts once the user grants trust. Real Controller, fake `vscode` with isTrusted false.
import { state as vs, fakeContext } from './fakeVscode';
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryLogger } from '../../../src/common/logger';
import { Controller } from '../../../src/vscode/agent/controller';
import { viewIntents } from './viewIntents';
import { until } from '../../support/until';
import { settleMicrotasks } from '../../support/mockTimers';

const REPO = join(__dirname, '../../../..');
const AGENT = join(__dirname, '../../fixtures/agents/scripted-agent.js');

test('untrusted workspace: no agent process is started by start, view open or prompt; trust starts it', async () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'tandem-sec-trust-')));
  const ws = join(root, 'ws');
  mkdirSync(ws);
  const marker = join(root, 'agent-ran');
  const scriptFile = join(root, 'script.json');
  writeFileSync(scriptFile, '{}');
  // Each agent process adds a line to a marker the moment it runs, then plays the (empty) script.
  const boot = `require('fs').appendFileSync(${JSON.stringify(marker)}, process.pid + '\\n'); require(${JSON.stringify(AGENT)})`;
  vs.folders = [ws];
  vs.isTrusted = false;
  vs.config = {
    'tandem.agents': [{ name: 'Marker', command: process.execPath, args: ['-e', boot, 'placeholder', scriptFile] }],
    'tandem.defaultAgent': 'Marker',
  };
  const logger = new MemoryLogger();
  const context = fakeContext(REPO, join(root, 'storage'));
  const ctl = new Controller({ context: context as never, logger, traffic: () => undefined });
  const intents = viewIntents(ctl, context, logger);
  try {
    await ctl.start();
    assert.equal(ctl.agent.state, 'untrusted');
    assert.match(ctl.agent.message ?? '', /restricted workspace.*Trust this workspace/);
    await ctl.ensureStarted();
    await intents.handle({ type: 'prompt', text: 'run rm -rf' });
    await intents.handle({ type: 'restartAgent' });
    await intents.handle({ type: 'newSession' });
    await settleMicrotasks();
    assert.equal(ctl.current, undefined, 'no connection');
    assert.equal(existsSync(marker), false, 'the agent never ran');
    // Granting trust starts it: one agent, this one (none started in the background before).
    vs.isTrusted = true;
    for (const l of vs.trustListeners) l();
    await until(() => ctl.agent.state === 'ready', 10_000);
    assert.equal(readFileSync(marker, 'utf8').trim().split('\n').length, 1, 'one agent ran: the one trust started');
  } finally {
    await ctl.stop();
    ctl.dispose();
  }
});

after(() => {
  vs.config = {};
  vs.isTrusted = true;
});
