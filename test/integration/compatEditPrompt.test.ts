/// <reference types="mocha" />
// Edit and resend with real agents, through the real extension: three prompts, then the first is
// edited and resent from the view. claude-agent-acp 0.101.0 forks at messages (and names them), so
// the conversation goes back before the first prompt: the files are byte for byte as before it,
// and the model's next request holds nothing of the three turns. claude-code-acp 0.16.2 can
// neither rewind nor fork at a message: the user is asked before anything is sent.
//
// Compat layer only (TANDEM_COMPAT=1, `node test/compat/run.mjs`): it needs the installed agents.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { fakeAnthropic, type FakeServer, type Lane, type Step } from '../compat/fakeModels';
import {
  AGENT_NODE,
  CACHE,
  CLAUDE_AGENT_ACP_101,
  CLAUDE_CODE_ACP,
  claudeAgentEnv,
  claudeCodeEnv,
} from '../compat/agentPaths';
import type { EditQuestion } from '../../src/vscode/rewind/editPrompts';
import { activateTandem, type TestedTandem, until } from './helpers';

const home = () => realpathSync(mkdtempSync(join(tmpdir(), 'tandem-compat-home-')));

/** What of the three rewound turns could reach the model: their prompts' and replies' tokens. */
const REWOUND = ['alpha-1', 'beta-2', 'gamma-3', 'REPLY-ONE', 'REPLY-TWO', 'REPLY-THREE'];

/** Runs `run`, accepting the first item of every QuickPick it shows, until it ends. */
async function accepting<T>(run: () => Promise<T>): Promise<T> {
  let done = false;
  const p = run().finally(() => {
    done = true;
  });
  await until(
    async () => {
      if (!done) await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      return done;
    },
    120_000,
    'the edit to finish',
    300,
  );
  return p;
}

if (process.env.TANDEM_COMPAT === '1') {
  suite('compat: Edit and resend an earlier prompt with real agents', function () {
    this.timeout(240_000);
    let api: TestedTandem;
    let dir: string;
    const models: FakeServer[] = [];
    let unsub: { dispose(): void } | undefined;

    suiteSetup(async function () {
      this.timeout(60_000);
      api = (await activateTandem()).api;
      dir = join(vscode.workspace.workspaceFolders![0].uri.fsPath, 'compat', 'edit-prompt');
      mkdirSync(dir, { recursive: true });
      assert.ok(await api.changes.checkpointsReady, 'the workspace has checkpoints');
      // The user allows each tool call the agents ask about, as a click in the view would.
      unsub = api.permissions.broker.onDidChange((ch) => {
        if (ch.type !== 'added') return;
        const { requestId, view } = ch.pending;
        const allow =
          view.options.find((o) => o.kind === 'allow_once') ?? view.options.find((o) => o.kind.startsWith('allow'));
        setTimeout(() => allow && api.permissions.broker.answer(requestId, allow.optionId), 50);
      });
    });

    teardown(async () => {
      await api?.controller.stop();
      while (models.length) await models.pop()!.close();
    });

    suiteTeardown(async () => {
      unsub?.dispose();
      await vscode.workspace.getConfiguration('tandem').update('agents', undefined, vscode.ConfigurationTarget.Global);
    });

    async function startAgent(name: string, command: string, args: string[], env: Record<string, string>) {
      await vscode.workspace
        .getConfiguration('tandem')
        .update('agents', [{ name, command, args, env }], vscode.ConfigurationTarget.Global);
      await api.controller.start(name);
      assert.equal(api.controller.agent.state, 'ready', `${name} did not start: ${api.controller.agent.message}`);
    }

    /** The three prompts; each turn must end well. */
    async function threePrompts(): Promise<string> {
      const ctl = api.controller;
      for (const p of [
        'Prompt alpha-1: edit a.txt',
        'Prompt beta-2: edit a.txt again',
        'Prompt gamma-3: write b.txt',
      ]) {
        await ctl.current!.prompt(p);
        const turns = ctl.snapshot().session!.turns;
        assert.equal(turns[turns.length - 1].error, undefined, `${p} failed`);
      }
      return ctl.current!.session!.sessionId;
    }

    /** A request to the model that holds `token` (the edited prompt), as the model got it. */
    const requestWith = (requests: unknown[], token: string) =>
      requests.map((r) => JSON.stringify(r)).find((r) => r.includes(token));

    test('claude-agent-acp 0.101.0: Edit and resend of the first of three prompts leaves no trace of them; files as before it', async function () {
      if (!existsSync(CLAUDE_AGENT_ACP_101) || !AGENT_NODE) {
        console.log(`[compat] skipped: claude-agent-acp 0.101.0 (with Node ≥ 22) is not installed in ${CACHE}`);
        this.skip();
      }
      const a = join(dir, 'a.txt');
      const b = join(dir, 'b.txt');
      writeFileSync(a, 'a0\r\nkeep me\r\n');
      const before = readFileSync(a);
      const steps: Step[] = [
        { tool: 'Edit', input: { file_path: a, old_string: 'a0', new_string: 'a1' } },
        { text: 'REPLY-ONE' },
        { tool: 'Edit', input: { file_path: a, old_string: 'a1', new_string: 'a2' } },
        { text: 'REPLY-TWO' },
        { tool: 'Write', input: { file_path: b, content: 'b3\n' } },
        { text: 'REPLY-THREE' },
      ];
      // The edited prompt starts a conversation of its own on the model side.
      const edited: Lane = { when: /omega-1/, script: [{ text: 'REPLY-EDITED' }], requests: [] };
      const model = await fakeAnthropic(steps, [edited]);
      models.push(model);
      await startAgent('Claude Agent', AGENT_NODE, [CLAUDE_AGENT_ACP_101], claudeAgentEnv(model, home()));
      const sessionId = await threePrompts();
      assert.equal(readFileSync(a, 'utf8'), 'a2\r\nkeep me\r\n');
      assert.equal(readFileSync(b, 'utf8'), 'b3\n');
      const asked: EditQuestion[] = [];
      const sub = api.edits.onDidAsk((q) => asked.push(q));
      try {
        await accepting(() =>
          api.intents.handle({ type: 'resendPrompt', sessionId, turn: 0, text: 'Prompt omega-1: say hello' }),
        );
      } finally {
        sub.dispose();
      }
      assert.deepEqual(asked, [], 'no question: the agent can go back itself');
      const next = requestWith([...model.requests, ...edited.requests], 'omega-1');
      assert.ok(next, `the model got the edited prompt: ${edited.requests.length} requests`);
      for (const token of REWOUND) assert.ok(!next.includes(token), `no trace of ${token} in ${next.slice(0, 2000)}`);
      assert.deepEqual(readFileSync(a), before, 'a.txt byte for byte as before prompt 1');
      assert.equal(existsSync(b), false, 'b.txt, written by prompt 3, is gone');
      const shown = api.controller.snapshot().session!;
      assert.notEqual(shown.meta.sessionId, sessionId, 'the edited prompt went to the session before prompt 1');
      assert.deepEqual(
        shown.turns.map((t) => !!t.rewound),
        [true, true, true, false],
        'the three turns show folded as rewound',
      );
      assert.match(JSON.stringify(shown.turns[3].items), /REPLY-EDITED/);
    });

    test('claude-code-acp 0.16.2: it cannot rewind, so the fallback is offered before anything is sent', async function () {
      if (!existsSync(CLAUDE_CODE_ACP)) {
        console.log(`[compat] skipped: claude-code-acp 0.16.2 is not installed in ${CACHE}`);
        this.skip();
      }
      const edited: Lane = { when: /omega-1/, script: [{ text: 'REPLY-EDITED' }], requests: [] };
      const model = await fakeAnthropic(
        [{ text: 'REPLY-ONE' }, { text: 'REPLY-TWO' }, { text: 'REPLY-THREE' }],
        [edited],
      );
      models.push(model);
      await startAgent('Claude Code', process.execPath, [CLAUDE_CODE_ACP], claudeCodeEnv(model, home()));
      const sessionId = await threePrompts();
      const asked: EditQuestion[] = [];
      const sub = api.edits.onDidAsk((q) => asked.push(q));
      try {
        // The first choice: a new session that carries the earlier turns (none, before prompt 1).
        await accepting(() =>
          api.intents.handle({ type: 'resendPrompt', sessionId, turn: 0, text: 'Prompt omega-1: say hello' }),
        );
      } finally {
        sub.dispose();
      }
      assert.deepEqual(asked, [{ sessionId, turn: 0, choices: ['Send in a new session', 'Send here'] }]);
      const shown = api.controller.snapshot().session!;
      assert.notEqual(shown.meta.sessionId, sessionId, 'sent in a new session');
      const next = requestWith([...model.requests, ...edited.requests], 'omega-1');
      assert.ok(next, 'the model got the edited prompt');
      for (const token of REWOUND) assert.ok(!next.includes(token), `no trace of ${token}`);
    });
  });
}
