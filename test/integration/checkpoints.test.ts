/// <reference types="mocha" />
// Checkpoints in the real VS Code, through the extension's own Controller and a scripted agent:
// per-hunk undo in the editor leaves the other hunk (and the session view follows), "Restore to
// here" brings back every file the agent or its command changed since the first prompt, byte for
// byte, the agent is told with the next prompt, and the restore is undone; after a reload (the
// store opened again from its folder) the same restore still gives the original bytes.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { activateTandem, configureScriptedAgent, runAccepting, until } from './helpers';
import { CheckpointStore } from '../../src/checkpoints/checkpointStore';
import { applyRestore, planRestore, type RestoreResult } from '../../src/checkpoints/restore';
import { ChangeTracker } from '../../src/client/changes/changeTracker';
import type { Controller } from '../../src/vscode/agent/controller';
import type { AgentChanges } from '../../src/vscode/changes/agentChanges';
import type { ViewIntents } from '../../src/vscode/view/viewIntents';

const ORIGINAL = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight'].map((l) => `${l}\r\n`).join('');
const TWO_HUNKS = ORIGINAL.replace('two\r\n', 'TWO\r\n').replace('seven\r\n', 'SEVEN\r\nseven and a half\r\n');

suite('checkpoints (restore to a prompt, per-hunk review)', () => {
  let ctl: Controller;
  let hands: AgentChanges;
  let intents: ViewIntents;
  let dir: string;
  const file = (name: string) => join(dir, name);
  const sid = () => ctl.current!.session!.sessionId;

  suiteSetup(async function () {
    this.timeout(60_000);
    const { api, extensionPath } = await activateTandem();
    ({ controller: ctl, changes: hands, intents } = api);
    dir = join(vscode.workspace.workspaceFolders![0].uri.fsPath, 'checkpoints');
    mkdirSync(dir, { recursive: true });
    writeFileSync(file('a.txt'), ORIGINAL);
    writeFileSync(file('b.txt'), 'b0\n');
    assert.ok(await hands.checkpointsReady, 'the workspace has checkpoints');
    const s = '${sessionId}';
    const edit = (id: string, title: string) => ({
      update: { sessionUpdate: 'tool_call', toolCallId: id, title, kind: 'edit', status: 'completed' },
    });
    await configureScriptedAgent(extensionPath, 'Checkpoints', {
      name: 'checkpoints',
      // Its own session ids: the ChangeTracker and the checkpoint store are extension-wide, and
      // other suites' scripted agents also open sess-1 (their changes would show in this one's).
      newSession: { sessionId: 'checkpoints-${n}' },
      prompts: [
        {
          match: 'two hunks',
          steps: [
            edit('e1', 'Edit a.txt'),
            { request: 'fs/write_text_file', params: { sessionId: s, path: file('a.txt'), content: TWO_HUNKS } },
            edit('e2', 'Create c.txt'),
            { request: 'fs/write_text_file', params: { sessionId: s, path: file('c.txt'), content: 'created\n' } },
          ],
        },
        {
          match: 'sed',
          steps: [
            edit('t1', 'sed -i b.txt'),
            {
              request: 'terminal/create',
              params: { sessionId: s, command: `sed -i 's/b0/b1/' '${file('b.txt')}'` },
              as: 't',
            },
            { request: 'terminal/wait_for_exit', params: { sessionId: s, terminalId: '${t.terminalId}' } },
            { request: 'terminal/release', params: { sessionId: s, terminalId: '${t.terminalId}' } },
          ],
        },
      ],
      defaultPrompt: {
        steps: [{ update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'ok' } } }],
      },
    });
    await ctl.start('Checkpoints');
    assert.equal(ctl.agent.state, 'ready', ctl.agent.message);
    // The files' times before the first checkpoint's.
    const written = Math.max(statSync(file('a.txt')).mtimeMs, statSync(file('b.txt')).mtimeMs);
    await until(() => Date.now() > written + 50, 1000, "the clock past the files' times");
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await ctl?.stop();
  });

  test('undoing one of two hunks in the editor leaves the other; keeping the rest marks the file kept', async () => {
    await ctl.current!.prompt('two hunks');
    assert.equal(readFileSync(file('a.txt'), 'utf8'), TWO_HUNKS);
    const uri = vscode.Uri.file(file('a.txt'));
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc, { preview: false });
    const titles = () => hands.hunks.provideCodeLenses(doc).map((l) => l.command?.title);
    assert.deepEqual(titles(), ['Keep All', 'Undo All', 'Keep', 'Undo', 'Keep', 'Undo']);

    await vscode.commands.executeCommand('tandem.undoHunk', uri, 1);
    assert.equal(
      readFileSync(file('a.txt'), 'utf8'),
      ORIGINAL.replace('two\r\n', 'TWO\r\n'),
      'only the second hunk undone',
    );
    assert.deepEqual(titles(), ['Keep', 'Undo'], 'one hunk left');
    const turn = 0;
    assert.equal((await hands.changes.list(turn)).find((f) => f.path === file('a.txt'))?.state, 'pending');

    await vscode.commands.executeCommand('tandem.keepHunk', uri, 0);
    assert.deepEqual(titles(), [], 'nothing left to review');
    const listed = await hands.changes.list(turn);
    assert.deepEqual(
      listed.map((f) => [f.label, f.kind, f.state]),
      [
        ['checkpoints/a.txt', 'modified', 'kept'],
        ['checkpoints/c.txt', 'created', 'pending'],
      ],
      'the session view shows the same state',
    );

    await hands.changes.act(turn, 'review');
    const labels = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs.map((t) => t.label));
    await until(
      () => labels().some((l) => l.includes('changes of turn 1')),
      10_000,
      'the multi-file diff editor',
    ).catch((err: Error) => {
      throw new Error(`${err.message}; tabs: ${JSON.stringify(labels())}`);
    });
  });

  test('restore to the first prompt: every file byte for byte, the agent is told, then undo the restore', async function () {
    this.timeout(40_000);
    await ctl.current!.prompt('sed');
    assert.equal(readFileSync(file('b.txt'), 'utf8'), 'b1\n', 'the command changed b.txt');
    const store = hands.checkpoints!;
    await until(() => !!hands.tracker.get(sid(), 1, file('b.txt')), 10_000, "the command's change recorded");
    const before = { a: readFileSync(file('a.txt')), b: readFileSync(file('b.txt')), c: readFileSync(file('c.txt')) };

    const restore = (await runAccepting('tandem.restoreToPrompt', { turn: 0 })) as RestoreResult;
    assert.deepEqual([restore.skipped, restore.failed], [[], []], 'nothing left alone');
    assert.equal(readFileSync(file('a.txt'), 'utf8'), ORIGINAL, 'a.txt as before prompt 1 (CRLF kept)');
    assert.equal(readFileSync(file('b.txt'), 'utf8'), 'b0\n', "the command's change undone");
    assert.equal(existsSync(file('c.txt')), false, 'the created file deleted');
    assert.ok(
      store.checkpoints(sid()).some((c) => c.kind === 'restore'),
      'the restore is a checkpoint',
    );

    await intents.handle({ type: 'prompt', text: 'hello' });
    const turns = ctl.current!.session!.state.turns;
    const sent = turns.get(turns.length - 1)!.items.get(0)!;
    assert.equal(sent.kind, 'user');
    const first = sent.kind === 'user' ? sent.blocks[0] : undefined;
    assert.match(
      first?.type === 'text' ? first.text : '',
      /^\[Restored to before prompt 1: checkpoints\/a\.txt, checkpoints\/b\.txt, checkpoints\/c\.txt\]$/,
    );

    const dirty = vscode.workspace.textDocuments.filter((d) => d.isDirty).map((d) => d.uri.fsPath);
    const undo = (await runAccepting('tandem.undoRestore')) as RestoreResult;
    assert.deepEqual(
      [undo.skipped, undo.failed],
      [[], []],
      `undo left nothing alone (unsaved: ${JSON.stringify(dirty)})`,
    );
    assert.deepEqual(readFileSync(file('a.txt')), before.a, 'undo: a.txt as before the restore');
    assert.deepEqual(readFileSync(file('b.txt')), before.b);
    assert.deepEqual(readFileSync(file('c.txt')), before.c);
  });

  test('after a reload (the store opened again from its folder) the restore still gives the original bytes', async () => {
    const live = hands.checkpoints!;
    await live.whenIdle();
    const now = { a: readFileSync(file('a.txt')), b: readFileSync(file('b.txt')) };
    const reopened = await CheckpointStore.open({
      dir: live.opts.dir,
      roots: live.opts.roots,
      tracker: new ChangeTracker(),
    });
    try {
      const first = reopened.checkpoints(sid()).find((c) => c.kind === 'prompt' && c.turn === 0);
      assert.ok(
        first,
        `reopened: sessions ${JSON.stringify(reopened.sessionIds())}, ${sid()}: ${JSON.stringify(reopened.checkpoints(sid()))}; live: ${JSON.stringify(live.checkpoints(sid()))}`,
      );
      const plan = await planRestore(reopened, sid(), first.id, new Set());
      const result = await applyRestore(reopened, plan);
      assert.equal(readFileSync(file('a.txt'), 'utf8'), ORIGINAL);
      assert.equal(readFileSync(file('b.txt'), 'utf8'), 'b0\n');
      assert.equal(existsSync(file('c.txt')), false);
      const undo = await applyRestore(reopened, await planRestore(reopened, sid(), result.checkpoint!.id, new Set()));
      assert.equal(undo.failed.length, 0);
      assert.deepEqual(readFileSync(file('a.txt')), now.a);
      assert.deepEqual(readFileSync(file('b.txt')), now.b);
      assert.equal(readFileSync(file('c.txt'), 'utf8'), 'created\n');
    } finally {
      await reopened.whenIdle(); // its log records on disk before it closes
      reopened.dispose();
    }
  });

  test('deleting the session from the history deletes its checkpoints', async () => {
    const store = hands.checkpoints!;
    const id = sid();
    const log = join(store.opts.dir, 'sessions', `${encodeURIComponent(id)}.jsonl`);
    assert.ok(existsSync(log), 'the session has a log');
    await vscode.commands.executeCommand('tandem.deleteSession', id);
    assert.equal(existsSync(log), false, 'its log is gone');
    assert.deepEqual(store.checkpoints(id), []);
    assert.equal(hands.tracker.allTurns(id).length, 0, 'Review Changes forgets it');
  });
});
