/// <reference types="mocha" />
// Compatibility of the agents that talk to an OpenAI-compatible Chat Completions API — opencode
// 1.18.33, Qwen Code 0.24.4 and Kilo Code CLI 7.7.7, installed by test/compat/run.mjs — through the
// REAL extension in a real VS Code, each against the fake server of test/compat/fakeChat.ts: the
// same checks as the other compat agents (start, a streamed answer, read, an edit asked with its
// diff, a command and its output, the pickers, cancel, session/list and session/load after a
// restart). How each is started and configured: test/compat/chatAgents.ts; their quirks:
// docs/ACP-NOTES.md. Registered only with TANDEM_COMPAT=1 (the compat layer).
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ToolCallView } from '../../src/shared/sessionModel';
import { showsLiterally } from '../../src/webview/toolOutput';
import { titleText } from '../../src/webview/toolTitle';
import { CACHE } from '../compat/agentPaths';
import {
  KILO,
  OPENCODE,
  QWEN_CODE,
  kiloLaunch,
  opencodeLaunch,
  qwenLaunch,
  type AgentLaunch,
} from '../compat/chatAgents';
import { fakeChat, type ChatServer, type ChatStep } from '../compat/fakeChat';
import { activateTandem, runAccepting, until, type TestedTandem } from './helpers';

/** The command of issue 32: its output has several lines, one that Markdown would make a heading. */
const COMMAND = "echo tandem-$((6*7)); echo second-line; echo '# not-a-heading *not-italic*'";
const OUTPUT = 'tandem-42\nsecond-line\n# not-a-heading *not-italic*';

interface ChatAgent {
  label: string;
  name: string;
  installed: string;
  launch(model: ChatServer, home: string): AgentLaunch;
  read(file: string): ChatStep;
  edit(file: string, from: string, to: string): ChatStep;
  run(command: string): ChatStep;
  /** The mode config option's value that asks before edits and commands, and another one. */
  modes: [asks: string, other: string];
  /** The model config option's value of a fake model id. */
  model(id: string): string;
  /** Config options besides mode and model that the agent offers: [id, a value to set]. */
  more: Array<[string, string]>;
  /** It reads files through the client (fs/read_text_file), so an open editor's unsaved text. */
  readsThroughClient: boolean;
}

const opencodeTools = {
  read: (file: string): ChatStep => ({ tool: 'read', input: { filePath: file } }),
  edit: (file: string, from: string, to: string): ChatStep => ({
    tool: 'edit',
    input: { filePath: file, oldString: from, newString: to },
  }),
  run: (command: string): ChatStep => ({ tool: 'bash', input: { command, description: 'Print three lines' } }),
};

const AGENTS: ChatAgent[] = [
  {
    label: 'opencode 1.18.33',
    name: 'opencode',
    installed: OPENCODE,
    launch: opencodeLaunch,
    ...opencodeTools,
    modes: ['build', 'plan'],
    model: (id) => `fake/${id}`,
    more: [],
    readsThroughClient: false,
  },
  {
    label: 'Qwen Code 0.24.4',
    name: 'Qwen Code',
    installed: QWEN_CODE,
    launch: qwenLaunch,
    read: (file) => ({ tool: 'read_file', input: { file_path: file } }),
    edit: (file, from, to) => ({ tool: 'edit', input: { file_path: file, old_string: from, new_string: to } }),
    run: (command) => ({
      tool: 'run_shell_command',
      input: { command, description: 'Print three lines', is_background: false },
    }),
    modes: ['default', 'plan'],
    model: (id) => `${id}(openai)`,
    more: [['reasoning_effort', 'high']],
    readsThroughClient: true,
  },
  {
    label: 'Kilo Code CLI 7.7.7',
    name: 'Kilo',
    installed: KILO,
    launch: kiloLaunch,
    ...opencodeTools,
    modes: ['code', 'plan'],
    model: (id) => `fake/${id}`,
    more: [],
    readsThroughClient: false,
  },
];

if (process.env.TANDEM_COMPAT === '1') {
  suite('compat: opencode, Qwen Code and Kilo through the real extension', function () {
    this.timeout(240_000);
    let tandem: TestedTandem;
    let ws: string;
    let asked: Array<{ kind?: string; title: string; kinds: string[]; diff: boolean }> = [];
    let unsub: { dispose(): void } | undefined;
    const models: ChatServer[] = [];
    const homes: string[] = [];

    suiteSetup(async function () {
      this.timeout(60_000);
      tandem = (await activateTandem()).api;
      ws = vscode.workspace.workspaceFolders![0].uri.fsPath;
      // The user: every prompt the extension's broker queues is answered "allow once" a moment
      // after it was shown, through broker.answer (what a click in the view does).
      unsub = tandem.permissions.broker.onDidChange((ch) => {
        if (ch.type !== 'added') return;
        const { view, requestId } = ch.pending;
        asked.push({
          kind: view.toolCall.kind ?? undefined,
          title: view.toolCall.title ?? view.toolCallId,
          kinds: view.options.map((o) => o.kind),
          diff: (view.toolCall.content ?? []).some((c) => c.type === 'diff'),
        });
        const o = view.options.find((x) => x.kind === 'allow_once');
        setTimeout(() => {
          if (o) tandem.permissions.broker.answer(requestId, o.optionId);
        }, 50);
      });
    });

    setup(() => {
      asked = [];
    });

    teardown(async () => {
      await tandem.controller.stop();
      while (models.length) await models.pop()!.close();
    });

    suiteTeardown(async () => {
      unsub?.dispose();
      for (const h of homes) rmSync(h, { recursive: true, force: true });
      await vscode.workspace.getConfiguration('tandem').update('agents', undefined, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    });

    function home(): string {
      const h = realpathSync(mkdtempSync(join(tmpdir(), 'tandem-compat-chat-home-')));
      homes.push(h);
      return h;
    }

    async function model(script: ChatStep[]): Promise<ChatServer> {
      const m = await fakeChat(script);
      models.push(m);
      return m;
    }

    async function startAgent(name: string, launch: AgentLaunch): Promise<void> {
      await vscode.workspace
        .getConfiguration('tandem')
        .update('agents', [{ name, ...launch }], vscode.ConfigurationTarget.Global);
      await tandem.controller.start(name);
      assert.equal(tandem.controller.agent.state, 'ready', `${name} did not start: ${tandem.controller.agent.message}`);
    }

    const session = () => tandem.controller.snapshot().session!;
    const lastTurn = () => session().turns[session().turns.length - 1];
    const calls = (): ToolCallView[] => Object.values(session().toolCalls);
    const texts = (c: ToolCallView) =>
      c.content.flatMap((x) => (x.type === 'content' && x.content.type === 'text' ? [x.content.text] : []));
    const option = (id: string) =>
      session().meta.configOptions.find((o) => o.id === id) as
        { currentValue?: unknown; category?: string } | undefined;

    const autoSave = (value: string | undefined) =>
      vscode.workspace.getConfiguration('files').update('autoSave', value, vscode.ConfigurationTarget.Global);

    function assertTurnEnded(m: ChatServer, stopReason = 'end_turn'): void {
      const t = lastTurn();
      assert.equal(t.error, undefined, `turn failed: ${t.error}; unknown model paths: ${m.unknown.join(', ')}`);
      assert.equal(t.stopReason, stopReason);
    }

    for (const a of AGENTS) {
      test(`${a.label}: streams its answer, reads, edits after asking with the diff (the open editor and Review Changes have it), runs a command whose output keeps its lines`, async function () {
        assert.ok(existsSync(a.installed), `${a.label} is not installed in ${CACHE}: run node test/compat/run.mjs`);
        const dir = join(ws, 'compat', a.name.replace(/\W+/g, '-').toLowerCase());
        mkdirSync(dir, { recursive: true });
        const file = join(dir, 'edit-me.txt');
        writeFileSync(file, 'hello world\nsecond line\n');
        // A file open with unsaved text: what the agent reads of it says where it reads from. (The
        // web workbench saves after a second by default: not while this test runs.)
        await autoSave('off');
        const readMe = join(dir, 'read-me.txt');
        writeFileSync(readMe, 'on disk\n');
        const dirty = await vscode.window.showTextDocument(vscode.Uri.file(readMe), { preview: false });
        await dirty.edit((e) => e.replace(new vscode.Range(0, 0, 0, 7), 'unsaved buffer'));
        const answer = 'All done: I read the file, edited it and ran the command for you.';
        // (Qwen Code edits only a file it has read in the session.)
        const m = await model([
          a.read(readMe),
          a.read(file),
          a.edit(file, 'hello world', 'hello ACP'),
          a.run(COMMAND),
          { text: answer },
        ]);
        const editor = await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: false });
        await startAgent(a.name, a.launch(m, home()));

        let appended = 0;
        const sub = tandem.controller.onDidChangeSession((c) => {
          appended += c.patches.filter((p) => p.op === 'append').length;
        });
        assert.equal(readFileSync(readMe, 'utf8'), 'on disk\n', 'the unsaved text is not on disk');
        try {
          await tandem.controller.current!.prompt('Read, edit and run');
        } finally {
          sub.dispose();
          // Leave no dirty editor behind (closing it would ask to save).
          await vscode.window.showTextDocument(dirty.document, { preview: false });
          await vscode.commands.executeCommand('workbench.action.files.revert');
          await autoSave(undefined);
        }
        assertTurnEnded(m);
        const rows = calls();
        console.log(`[compat] ${a.label} prompts: ${JSON.stringify(asked)}`);
        console.log(`[compat] ${a.label} rows: ${JSON.stringify(rows.map((r) => [r.kind, r.status, r.title]))}`);

        // Streamed: the answer came in several chunks, appended to one message.
        const said = JSON.stringify(lastTurn().items.filter((i) => i.kind === 'agent'));
        assert.ok(said.includes(answer), `the answer: ${said}`);
        assert.ok(appended >= 2, `the answer arrived in pieces (${appended} appends)`);
        // Read: its result went back to the model, from the editor where it reads through the client.
        const read = JSON.stringify((m.requests[1] as { messages?: unknown[] }).messages?.slice(-1));
        if (a.readsThroughClient) assert.match(read, /unsaved buffer/, 'it read the unsaved editor text');
        else
          assert.ok(
            read.includes('on disk') && !read.includes('unsaved buffer'),
            `${a.label} reads files itself (no fs/read_text_file): it gets the file on disk, not the unsaved editor text; the model got ${read}`,
          );
        assert.match(JSON.stringify(m.requests[2]), /hello world/);
        // Edit: asked first, with the diff; then on disk, in the open editor and in Review Changes.
        const editAsk = asked.find((x) => x.kind === 'edit');
        assert.ok(editAsk, `the edit was asked through the broker: ${JSON.stringify(asked)}`);
        assert.ok(editAsk.diff, 'the permission request carried the diff');
        assert.equal(readFileSync(file, 'utf8'), 'hello ACP\nsecond line\n');
        await until(() => editor.document.getText() === 'hello ACP\nsecond line\n', 10_000, 'the editor to show it');
        const changes = tandem.changes.tracker.changes(session().meta.sessionId, 0);
        assert.deepEqual(
          changes.map((c) => c.path),
          [file],
          'Review Changes has the file',
        );
        const edit = rows.find((r) => r.kind === 'edit');
        assert.ok(edit && edit.status === 'completed', `the edit row: ${JSON.stringify(edit)}`);
        assert.ok(
          edit.content.some((c) => c.type === 'diff' && c.path === file),
          `the edit row shows a diff: ${JSON.stringify(edit.content)}`,
        );
        // Its row is titled with the file it edits (Qwen Code names it only in the permission request).
        assert.match(titleText(edit, [ws]), /edit-me\.txt/, `the edit row's title: ${titleText(edit, [ws])}`);
        // Command: asked, ran, and its output is shown as the lines it printed (not as Markdown).
        assert.ok(
          asked.some((x) => x.kind === 'execute'),
          `the command was asked through the broker: ${JSON.stringify(asked)}`,
        );
        const run = rows.find((r) => r.kind === 'execute');
        assert.ok(run && run.status === 'completed', `the command row: ${JSON.stringify(run)}`);
        const out = texts(run).find((t) => t.includes(OUTPUT));
        assert.ok(out, `the command's output, lines kept: ${JSON.stringify(run.content)}`);
        assert.ok(showsLiterally(run.kind, out), 'the view shows the output literally');
        assert.match(titleText(run, [ws]), /tandem-\$\(\(6\*7\)\)|Print three lines/);
        // A title from session_info_update or, after the turn, session/list.
        await until(() => !!session().meta.title, 15_000, 'the session to get a title');
        await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      });

      test(`${a.label}: its mode, model and other pickers take effect; a streaming turn cancels; after a restart session/list and session/load reopen it with its tool calls`, async function () {
        assert.ok(existsSync(a.installed), `${a.label} is not installed in ${CACHE}: run node test/compat/run.mjs`);
        const file = join(ws, 'compat', `history-${a.name.replace(/\W+/g, '-').toLowerCase()}.txt`);
        writeFileSync(file, 'remember this line\n');
        const m = await model([
          a.read(file),
          { text: 'It says: remember this line.' },
          { text: 'A long answer that never ends', hold: true },
        ]);
        // Its own agent name: the local history of the other cases does not mix into the picker.
        const name = `${a.name} (history)`;
        await startAgent(name, a.launch(m, home()));
        const first = session().meta.sessionId;
        await tandem.controller.current!.prompt(`compat history: read ${file}`);
        assertTurnEnded(m);
        const before = calls().map((c) => ({ id: c.toolCallId, kind: c.kind }));
        assert.equal(before.length, 1, `one tool call: ${JSON.stringify(before)}`);

        // Pickers, as the view's selects send them (config options: all three cover the mode there).
        assert.equal(option('mode')?.category, 'mode');
        assert.equal(option('model')?.category, 'model');
        assert.equal(option('mode')?.currentValue, a.modes[0], 'it starts in the mode that asks');
        const pick = async (configId: string, value: string) => {
          await tandem.intents.handle({ type: 'setConfigOption', configId, value });
          await until(() => option(configId)?.currentValue === value, 10_000, `${configId} to be ${value}`);
        };
        await pick('mode', a.modes[1]);
        await pick('mode', a.modes[0]);
        await pick('model', a.model(m.models[1]));
        for (const [id, value] of a.more) await pick(id, value);

        // Cancel while the answer streams: the turn ends cancelled, on the model picked above.
        const turn = tandem.controller.current!.prompt('Tell me a long story');
        await until(() => JSON.stringify(lastTurn().items).includes('never ends'), 30_000, 'the answer to stream');
        await tandem.intents.handle({ type: 'cancel' });
        await turn;
        assertTurnEnded(m, 'cancelled');
        assert.equal(session().meta.status, 'idle');
        assert.equal((m.requests[m.requests.length - 1] as { model?: string }).model, m.models[1]);

        // A new connection (as after a window reload): the past session is listed and reopens.
        await tandem.controller.restart();
        const client = tandem.controller.current!;
        assert.equal(tandem.controller.agent.state, 'ready', tandem.controller.agent.message);
        assert.notEqual(session().meta.sessionId, first, 'a fresh session on the new connection');
        assert.ok(client.canReopen(), 'it advertises session/load');
        const listed = await client.listSessions();
        const entry = listed.find((s) => s.sessionId === first);
        assert.ok(entry, `session/list has the past session: ${JSON.stringify(listed)}`);
        assert.equal(entry.cwd, ws);
        assert.ok(entry.title, `it has a title: ${JSON.stringify(entry)}`);
        await runAccepting('tandem.openSession');
        await until(() => session().meta.sessionId === first, 30_000, 'the past session reopened');
        const after = calls();
        console.log(
          `[compat] ${a.label} replayed: ${JSON.stringify(after.map((c) => [c.toolCallId, c.kind, c.title]))}`,
        );
        for (const t of before) {
          const r = after.find((x) => x.toolCallId === t.id);
          assert.ok(r, `tool call ${t.id} replayed: ${JSON.stringify(after)}`);
          assert.equal(r.kind, t.kind);
        }
        const replayed = JSON.stringify(session().turns);
        assert.ok(replayed.includes(`compat history: read ${file}`), 'the user message replayed');
        assert.ok(replayed.includes('It says: remember this line.'), 'the agent reply replayed');
      });
    }
  });
}
