/// <reference types="mocha" />
// Edit and resend of an earlier prompt in the real VS Code, through the view's intents and the
// extension's own Controller, with scripted agents: one that advertises `_session/rewind` (the
// files go back to before the prompt, the conversation is rewound in place and the view folds the
// later turns, the edited prompt goes out with no restore note, Redo brings files and turns back),
// and one that can neither rewind nor fork (the user is asked first; a new session carries the
// earlier turns' text).
import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { activateTandem, configureScriptedAgent, until } from './helpers';
import type { Controller } from '../../src/vscode/agent/controller';
import type { AgentChanges } from '../../src/vscode/changes/agentChanges';
import type { EditPrompts, EditQuestion } from '../../src/vscode/rewind/editPrompts';
import type { ViewIntents } from '../../src/vscode/view/viewIntents';

/** Runs `run`, accepting the first item of every QuickPick it shows (the restore's safe choice, the fallback's first), until it ends. */
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
    30_000,
    'the edit to finish',
    300,
  );
  return p;
}

const reply = (text: string) => ({ update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } });

suite('edit and resend an earlier prompt (scripted agents)', () => {
  let ctl: Controller;
  let hands: AgentChanges;
  let intents: ViewIntents;
  let edits: EditPrompts;
  let extensionPath: string;
  let dir: string;
  const file = (name: string) => join(dir, name);
  const write = (name: string, content: string) => ({
    request: 'fs/write_text_file',
    params: { sessionId: '${sessionId}', path: file(name), content },
  });
  const store = () => ctl.current!.session!;
  const promptOf = (t: number) => {
    const first = store().state.turns.get(t)!.items.get(0);
    return first?.kind === 'user' ? first.blocks.map((b) => (b.type === 'text' ? b.text : '')).join('|') : '';
  };
  const rewound = () =>
    store()
      .snapshot()
      .turns.map((t) => !!t.rewound);
  const text = (t: number) => JSON.stringify(store().snapshot().turns[t].items);

  suiteSetup(async function () {
    this.timeout(60_000);
    const tandem = await activateTandem();
    ({ controller: ctl, changes: hands, intents, edits } = tandem.api);
    extensionPath = tandem.extensionPath;
    dir = join(vscode.workspace.workspaceFolders![0].uri.fsPath, 'edit-prompt');
    mkdirSync(dir, { recursive: true });
    assert.ok(await hands.checkpointsReady, 'the workspace has checkpoints');
  });

  suiteTeardown(async () => {
    await ctl?.stop();
  });

  /** Starts `name` playing `script`, with `files` written first and the clock past their times. */
  async function start(name: string, script: Record<string, unknown>, files: Record<string, string>) {
    for (const [f, content] of Object.entries(files)) writeFileSync(file(f), content);
    await configureScriptedAgent(extensionPath, name, script);
    await ctl.start(name);
    assert.equal(ctl.agent.state, 'ready', ctl.agent.message);
    const written = Math.max(...Object.keys(files).map((f) => statSync(file(f)).mtimeMs));
    await until(() => Date.now() > written + 50, 1000, "the clock past the files' times");
  }

  test('with _session/rewind: files as before prompt 1, the turns rewound in place, no restore note; Redo brings them back', async function () {
    this.timeout(60_000);
    await start(
      'Rewinder',
      {
        name: 'rewinder',
        initialize: { _meta: { jetbrains: { air: { version: 1, capabilities: ['sessionRewind'] } } } },
        newSession: { sessionId: 'rewinder-${n}' },
        prompts: [
          { match: 'one', steps: [write('a.txt', 'a1\n'), reply('did one')] },
          { match: 'two', steps: [write('a.txt', 'a2\n'), reply('did two')] },
          { match: 'three', steps: [write('b.txt', 'b3\n'), reply('did three')] },
        ],
        defaultPrompt: { steps: [reply('got: ${prompt}')] },
        handlers: {
          '_session/rewind': {
            result: { rewound: true },
            // What the agent was asked, where the test can read it: the last turn before the rewind.
            steps: [
              {
                update: {
                  sessionUpdate: 'agent_message_chunk',
                  content: {
                    type: 'text',
                    text: 'rewind before ${params.beforeMessage.messageFingerprint}#${params.beforeMessage.messageOccurrence} resume ${params.resumeAtMessage}',
                  },
                },
                sessionId: '${params.sessionId}',
              },
            ],
          },
        },
      },
      { 'a.txt': 'a0\n' },
    );
    for (const p of ['one', 'two', 'three']) await ctl.current!.prompt(p);
    const sessionId = store().sessionId;
    await until(() => !!hands.tracker.get(sessionId, 2, file('b.txt')), 10_000, "turn 3's change recorded");

    await accepting(() => intents.handle({ type: 'resendPrompt', sessionId, turn: 0, text: 'one, but smaller' }));
    assert.equal(readFileSync(file('a.txt'), 'utf8'), 'a0\n', 'a.txt as before prompt 1');
    assert.equal(existsSync(file('b.txt')), false, 'the file of turn 3 is gone');
    assert.equal(store().sessionId, sessionId, 'rewound in place: the same session');
    assert.deepEqual(rewound(), [true, true, true, false]);
    const sha = `sha256:${createHash('sha256').update('one').digest('hex')}`;
    assert.match(text(2), new RegExp(`rewind before ${sha}#1 resume \\$\\{params.resumeAtMessage\\}`));
    assert.equal(promptOf(3), 'one, but smaller', 'the edited prompt, with no note about restored files');
    assert.match(text(3), /got: one, but smaller/);

    await accepting(() => edits.redo());
    assert.equal(readFileSync(file('a.txt'), 'utf8'), 'a2\n', 'Redo: the files as before the edit');
    assert.equal(readFileSync(file('b.txt'), 'utf8'), 'b3\n');
    assert.deepEqual(rewound(), [false, false, false, false], 'the turns show again');
  });

  test('without a way back the user is asked first; "Send in a new session" carries the earlier turns as text', async function () {
    this.timeout(60_000);
    await start(
      'NoRewind',
      {
        name: 'no-rewind',
        newSession: { sessionId: 'no-rewind-${n}' },
        prompts: [
          { match: 'alpha', steps: [write('c.txt', 'c1\n'), reply('did alpha')] },
          { match: 'beta', steps: [write('c.txt', 'c2\n'), reply('did beta')] },
          { match: 'gamma', steps: [reply('did gamma')] },
        ],
        defaultPrompt: { steps: [reply('got it')] },
      },
      { 'c.txt': 'c0\n' },
    );
    for (const p of ['alpha', 'beta', 'gamma']) await ctl.current!.prompt(p);
    const source = store();
    const asked: EditQuestion[] = [];
    const sub = edits.onDidAsk((q) => asked.push(q));
    try {
      await accepting(() =>
        intents.handle({ type: 'resendPrompt', sessionId: source.sessionId, turn: 1, text: 'beta, edited' }),
      );
    } finally {
      sub.dispose();
    }
    assert.deepEqual(asked, [
      { sessionId: source.sessionId, turn: 1, choices: ['Send in a new session', 'Send here'] },
    ]);
    assert.equal(readFileSync(file('c.txt'), 'utf8'), 'c1\n', 'c.txt as before prompt 2');
    assert.notEqual(store().sessionId, source.sessionId, 'a new session is shown');
    const sent = promptOf(0);
    assert.match(sent, /^\[Earlier conversation, carried over from another session as text \(1 turn\)/);
    assert.match(sent, /--- Turn 1 ---\nUser: alpha\nAgent: did alpha/);
    assert.match(sent, /\[End of the earlier conversation\. My prompt:\]\n\nbeta, edited$/);
    assert.doesNotMatch(sent, /gamma|did beta/);
    assert.deepEqual(
      source.snapshot().turns.map((t) => !!t.rewound),
      [false, false, false],
      'the old session is as it was',
    );
  });
});
