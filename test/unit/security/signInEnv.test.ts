// Env-var sign-in (codex-acp's "Use OPENAI_API_KEY"): when the variable is not set, Tandem asks
// for it in a password box, keeps it in secret storage (never in settings), restarts the agent
// with it in its environment and authenticates; later starts get it without asking; "Forget Agent
// Secrets" removes it. Real Controller and a real agent process (auth-agent), fake `vscode`.
import { state as vs, fakeContext } from './fakeVscode';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AcpError, errorDetail } from '../../../src/acp/errors';
import { MemoryLogger } from '../../../src/common/logger';
import { forgetSecrets } from '../../../src/vscode/agent/agentSecrets';
import { Controller } from '../../../src/vscode/agent/controller';
import { signIn } from '../../../src/vscode/agent/signIn';

const REPO = join(__dirname, '../../../..');
const AGENT = join(__dirname, '../../fixtures/agents/auth-agent.js');
const SECRET = 'sk-test-value-9876';

test('env-var sign-in: asked once as a password, kept as a secret, passed to the agent after a restart', async () => {
  assert.equal(process.env.AUTH_TEST_KEY, undefined);
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'tandem-sec-signin-')));
  const ws = join(root, 'ws');
  mkdirSync(ws);
  const agents = [
    { name: 'Auth', command: process.execPath, args: [AGENT], env: { AUTH_MARKER: join(root, 'no-marker') } },
  ];
  vs.folders = [ws];
  vs.isTrusted = true;
  vs.config = { 'tandem.agents': agents, 'tandem.defaultAgent': 'Auth' };
  vs.inputs = [];
  vs.inputBoxes = [];
  vs.shown = [];
  const context = fakeContext(REPO, join(root, 'storage')) as {
    secrets: { get(k: string): Promise<string | undefined> };
  };
  const ctl = new Controller({
    context: context as never,
    logger: new MemoryLogger(),
    traffic: () => undefined,
  });
  try {
    await ctl.start();
    assert.equal(ctl.agent.state, 'auth', ctl.agent.message);
    const first = ctl.current;

    // Dismissed: nothing stored, no restart.
    await signIn(ctl, context.secrets as never, 'api-key');
    assert.equal(vs.inputBoxes.length, 1);
    assert.equal(ctl.current, first, 'no restart');
    assert.equal(await context.secrets.get('tandem.agentSecret.Auth.AUTH_TEST_KEY'), undefined);

    vs.inputs = [SECRET];
    await signIn(ctl, context.secrets as never, 'api-key');
    assert.deepEqual(vs.inputBoxes[1], { title: 'Sign in to Auth: AUTH_TEST_KEY', password: true });
    assert.notEqual(ctl.current, first, 'restarted with the variable');
    assert.equal(ctl.agent.state, 'ready', `${ctl.agent.message} ${vs.shown.join(' | ')}`);
    await ctl.current!.prompt('who am I?');
    assert.match(JSON.stringify(ctl.snapshot().session!.turns[0].items), /Signed in \(key …9876\)/);
    assert.equal(await context.secrets.get('tandem.agentSecret.Auth.AUTH_TEST_KEY'), SECRET);
    assert.ok(!JSON.stringify(vs.config).includes(SECRET), 'not in settings');

    // A new process gets it from secret storage: signing in asks nothing.
    await ctl.restart();
    assert.equal(ctl.agent.state, 'auth');
    await signIn(ctl, context.secrets as never, 'api-key');
    assert.equal(vs.inputBoxes.length, 2, 'not asked again');
    assert.equal(ctl.agent.state, 'ready', `${ctl.agent.message} ${vs.shown.join(' | ')}`);

    assert.equal(await forgetSecrets(agents[0], context.secrets as never), 1);
    assert.equal(await context.secrets.get('tandem.agentSecret.Auth.AUTH_TEST_KEY'), undefined);
  } finally {
    await ctl.stop();
    ctl.dispose();
  }
});

test("errorDetail: the agent's data says what failed", () => {
  assert.equal(
    errorDetail(new AcpError('Internal error', -32603, 'OPENAI_API_KEY is not set')),
    'Internal error: OPENAI_API_KEY is not set',
  );
  assert.equal(
    errorDetail(new AcpError('Bad', -32602, { message: 'path must be absolute' })),
    'Bad: path must be absolute',
  );
  assert.equal(
    errorDetail(new AcpError('Authentication required', -32000, 'Authentication required')),
    'Authentication required',
  );
  assert.equal(errorDetail(new AcpError('x', 1, { other: 1 })), 'x');
  assert.equal(errorDetail('plain'), 'plain');
});
