// A window reload mid-turn, with the real Controller and scripted agent and a fake `vscode`: the
// first controller plays the window before the reload (stopped while its turn runs, as
// deactivate does), the second one the window after it, on the same workspace state.
import { state as vs, fakeContext } from '../security/fakeVscode';
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryLogger } from '../../../src/common/logger';
import { INTERRUPTED_ELSEWHERE_ERROR, INTERRUPTED_ERROR } from '../../../src/session/interruptedPrompt';
import { Controller } from '../../../src/vscode/agent/controller';
import { fileSlot, InterruptedPrompts, keptSession } from '../../../src/vscode/prompts/interruptedPrompts';
import { SessionHistory } from '../../../src/vscode/sessions/sessionHistory';
import { until } from '../../support/until';

const REPO = join(__dirname, '../../../..');
const AGENT = join(__dirname, '../../fixtures/agents/scripted-agent.js');

/**
 * Plays a window reload while the turn of "a long job" runs: `before` is the window stopped mid-turn
 * (as deactivate does), the returned controller the window after the reload, on the same state.
 */
async function reloadMidTurn(opts: { loadSession: boolean; loseLastSession?: boolean }) {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'tandem-reload-')));
  const ws = join(root, 'ws');
  mkdirSync(ws);
  const scriptFile = join(root, 'script.json');
  // session/load replays nothing: like claude-code-acp, whose history drops the unanswered prompt.
  const script = (newSessionId: string) =>
    writeFileSync(
      scriptFile,
      JSON.stringify({
        initialize: { agentCapabilities: { loadSession: opts.loadSession } },
        newSession: { sessionId: newSessionId },
        prompts: [{ match: 'long job', steps: [{ stream: 'working…' }, { hang: true }] }],
      }),
    );
  script('before-reload');
  vs.folders = [ws];
  vs.isTrusted = true;
  vs.shown = [];
  vs.config = {
    'tandem.agents': [{ name: 'Scripted', command: process.execPath, args: [AGENT, scriptFile] }],
    'tandem.defaultAgent': 'Scripted',
  };
  const saved = new Map<string, unknown>();
  const workspaceState = {
    get: (k: string) => saved.get(k),
    update: async (k: string, v: unknown) => void (v === undefined ? saved.delete(k) : saved.set(k, v)),
    keys: () => [...saved.keys()],
  };
  const window = () => {
    const slot = fileSlot(join(root, 'storage', 'in-flight-prompt.json'));
    const interrupted = new InterruptedPrompts(slot, async () => undefined);
    const history = new SessionHistory(workspaceState as never, (agentName) => keptSession(slot, agentName));
    const context = { ...(fakeContext(REPO, join(root, 'storage')) as object), workspaceState };
    const ctl = new Controller({
      context: context as never,
      logger: new MemoryLogger(),
      traffic: () => undefined,
      resumeSession: (agentName) => history.lastSession(agentName),
    });
    ctl.registerFeatures(() => [history, interrupted]);
    return ctl;
  };

  const before = window();
  await before.start();
  const sessionId = before.current!.session!.sessionId;
  void before.current!.prompt('a long job');
  await until(() => before.current!.session!.state.meta.status === 'working', 5000, 'the turn runs');
  await before.stop();
  before.dispose();
  // The web workbench can lose a workspace-state update made a moment before the reload.
  if (opts.loseLastSession) saved.delete('tandem.lastSession');
  script('after-reload'); // a new session after the reload has an id of its own

  const afterReload = window();
  await afterReload.start();
  return { sessionId, afterReload, keptFile: join(root, 'storage', 'in-flight-prompt.json') };
}

async function closing(ctl: Controller, check: () => void) {
  try {
    check();
  } finally {
    await ctl.stop();
    ctl.dispose();
  }
}

test('a turn running when the window reloads is shown in the reopened session, marked interrupted, with Resend', async () => {
  const { sessionId, afterReload, keptFile } = await reloadMidTurn({ loadSession: true });
  await closing(afterReload, () => {
    const s = afterReload.snapshot().session!;
    assert.equal(s.meta.sessionId, sessionId, 'the same session is reopened');
    const last = s.turns.at(-1)!;
    assert.deepEqual(last.items[0], { kind: 'user', blocks: [{ type: 'text', text: 'a long job' }] });
    assert.equal(last.error, INTERRUPTED_ERROR);
    assert.ok(
      vs.shown.includes('warning: Tandem: the window reloaded before the answer to "a long job" finished.'),
      vs.shown.join(' | '),
    );
    assert.ok(!existsSync(keptFile), 'shown once, not after every reload');
  });
});

test("the interrupted prompt's session is the one reopened, even when the workspace state lost which session was active", async () => {
  const { sessionId, afterReload } = await reloadMidTurn({ loadSession: true, loseLastSession: true });
  await closing(afterReload, () => {
    const s = afterReload.snapshot().session!;
    assert.equal(s.meta.sessionId, sessionId);
    assert.equal(s.turns.at(-1)!.error, INTERRUPTED_ERROR);
  });
});

test('an agent that cannot reopen the session: the interrupted prompt shows in the new session, saying so', async () => {
  const { sessionId, afterReload } = await reloadMidTurn({ loadSession: false });
  await closing(afterReload, () => {
    const s = afterReload.snapshot().session!;
    assert.notEqual(s.meta.sessionId, sessionId, 'a new session');
    assert.deepEqual(s.turns.at(-1)!.items[0], { kind: 'user', blocks: [{ type: 'text', text: 'a long job' }] });
    assert.equal(s.turns.at(-1)!.error, INTERRUPTED_ELSEWHERE_ERROR);
    assert.ok(vs.shown.some((m) => m.includes('the window reloaded before the answer to "a long job"')));
  });
});

after(() => {
  vs.config = {};
});
