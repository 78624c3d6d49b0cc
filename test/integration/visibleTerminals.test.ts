/// <reference types="mocha" />
// The visible-terminal mode in a real VS Code: terminal/create's commands run in a real terminal
// through shell integration (bash), driven by the real TerminalManager as the agent would drive it.
// Checks: exit code and plain output for the agent, one terminal per session reused, a concurrent
// command in a terminal of its own, kill (Ctrl+C) leaving the terminal open, the user closing it, the requested folder
// after the shell moved, a command run as `bash -c` runs it (no `!` history expansion, `exit` ends the
// command and keeps the terminal), and the fallback to the process runner (said once) without shell integration.
import * as assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import * as vscode from 'vscode';
import { TerminalManager } from '../../src/client/terminals/terminals';
import { MemoryLogger } from '../../src/common/logger';
import { SessionStore } from '../../src/session/store';
import { VisibleTerminals } from '../../src/vscode/terminals/visibleTerminals';
import { until } from './helpers';

const S1 = 'visible-s1';
const S2 = 'visible-s2';

suite('visible terminals (tandem.terminal.visible)', () => {
  let ws: string;
  const disposables: vscode.Disposable[] = [];

  function setup(opts: { timeoutMs?: number } = {}) {
    const notices: string[] = [];
    const logger = new MemoryLogger();
    const port = new VisibleTerminals(logger, {
      enabled: () => true,
      notify: (m) => notices.push(m),
      shellIntegrationTimeoutMs: opts.timeoutMs ?? 15_000,
    });
    const stores = new Map([S1, S2].map((s) => [s, new SessionStore(s)]));
    const m = new TerminalManager({
      cwd: ws,
      agentName: 'Test Agent',
      logger,
      session: (id) => stores.get(id),
      processes: port,
      killGraceMs: 3000,
      flushMs: 10,
    });
    disposables.push(port, m);
    return { port, m, stores, notices, logger };
  }

  const ours = () => vscode.window.terminals.filter((t) => t.name.includes('Test Agent (Tandem)'));

  suiteSetup(() => {
    ws = realpathSync(vscode.workspace.workspaceFolders![0].uri.fsPath);
  });

  teardown(async () => {
    for (const d of disposables.splice(0)) d.dispose();
    for (const t of ours()) t.dispose();
    await until(() => ours().length === 0, 10_000, 'test terminals closed');
  });

  test('a command runs in a real terminal with shell integration: exit code, plain output, live ANSI in the view', async function () {
    this.timeout(60_000);
    const { m, stores, notices } = setup();
    const { terminalId } = await m.create({
      sessionId: S1,
      command: `echo first; printf '\\033[1;32mgreen\\033[0m\\n'; sh -c 'exit 3'`,
    });
    const exit = await m.waitForExit({ sessionId: S1, terminalId });
    const out = await m.output({ sessionId: S1, terminalId });
    console.log(`[visible] output for the agent: ${JSON.stringify(out.output)}; exit ${JSON.stringify(exit)}`);
    assert.deepEqual(notices, [], `no fallback: ${notices.join(' ')}`);
    assert.deepEqual(exit, { exitCode: 3, signal: null });
    assert.equal(out.output, 'first\ngreen\n', 'the agent reads plain text');
    const view = stores.get(S1)!.state.terminals.get(terminalId)!;
    assert.match(view.output, /\x1b\[1;32mgreen/, 'the tool call gets the colors');
    const terms = ours();
    assert.equal(terms.length, 1, 'one terminal');
    assert.ok(terms[0].shellIntegration, 'shell integration is active in it');
    assert.equal(terms[0].exitStatus, undefined, 'the terminal stays open after the command');
  });

  test('one terminal per session reused for the next command; a concurrent command gets its own', async function () {
    this.timeout(90_000);
    const { m } = setup();
    const a = await m.create({ sessionId: S1, command: 'echo one' });
    await m.waitForExit({ sessionId: S1, terminalId: a.terminalId });
    await m.release({ sessionId: S1, terminalId: a.terminalId });
    const b = await m.create({ sessionId: S1, command: 'echo two' });
    await m.waitForExit({ sessionId: S1, terminalId: b.terminalId });
    assert.equal((await m.output({ sessionId: S1, terminalId: b.terminalId })).output, 'two\n');
    assert.equal(ours().length, 1, 'the second command reused the session terminal');
    // Two at once in the same session: the second cannot wait for the first.
    const slow = await m.create({ sessionId: S1, command: 'sleep 2; echo slow' });
    const quick = await m.create({ sessionId: S1, command: 'echo quick' });
    assert.equal((await m.waitForExit({ sessionId: S1, terminalId: quick.terminalId })).exitCode, 0);
    assert.equal((await m.output({ sessionId: S1, terminalId: quick.terminalId })).output, 'quick\n');
    assert.equal((await m.waitForExit({ sessionId: S1, terminalId: slow.terminalId })).exitCode, 0);
    assert.equal(ours().length, 2, 'the concurrent command had a terminal of its own');
    // Another session: its own terminal.
    const other = await m.create({ sessionId: S2, command: 'echo other' });
    await m.waitForExit({ sessionId: S2, terminalId: other.terminalId });
    assert.equal(ours().length, 3);
  });

  test('kill sends Ctrl+C: the command ends, the terminal stays for the next one', async function () {
    this.timeout(60_000);
    const { m } = setup();
    const { terminalId } = await m.create({ sessionId: S1, command: 'echo started; sleep 30; echo never' });
    await until(
      async () => (await m.output({ sessionId: S1, terminalId })).output.includes('started'),
      20_000,
      'the command started',
    );
    const t0 = Date.now();
    await m.kill({ sessionId: S1, terminalId });
    const exit = await m.waitForExit({ sessionId: S1, terminalId });
    console.log(`[visible] kill took ${Date.now() - t0} ms; exit ${JSON.stringify(exit)}`);
    assert.deepEqual(exit, { exitCode: null, signal: 'SIGINT' });
    assert.doesNotMatch((await m.output({ sessionId: S1, terminalId })).output, /never/);
    assert.equal(ours().length, 1);
    assert.equal(ours()[0].exitStatus, undefined, 'Ctrl+C was enough: the terminal is still open');
    const next = await m.create({ sessionId: S1, command: 'echo after' });
    assert.equal((await m.waitForExit({ sessionId: S1, terminalId: next.terminalId })).exitCode, 0);
    assert.equal(ours().length, 1, 'reused after the kill');
  });

  test('the user closing the terminal ends its command (SIGHUP); the next command opens a new one', async function () {
    this.timeout(60_000);
    const { m } = setup();
    const { terminalId } = await m.create({ sessionId: S1, command: 'echo waiting; sleep 30' });
    await until(
      async () => (await m.output({ sessionId: S1, terminalId })).output.includes('waiting'),
      20_000,
      'the command started',
    );
    ours()[0].dispose();
    assert.deepEqual(await m.waitForExit({ sessionId: S1, terminalId }), { exitCode: null, signal: 'SIGHUP' });
    await until(() => ours().length === 0, 10_000, 'the terminal closed');
    const next = await m.create({ sessionId: S1, command: 'echo fresh' });
    assert.equal((await m.waitForExit({ sessionId: S1, terminalId: next.terminalId })).exitCode, 0);
    assert.equal((await m.output({ sessionId: S1, terminalId: next.terminalId })).output, 'fresh\n');
    assert.equal(ours().length, 1, 'a new terminal for the session');
  });

  test('a command runs in the folder it asks for even after the user moved the shell', async function () {
    this.timeout(60_000);
    const { m } = setup();
    const a = await m.create({ sessionId: S1, command: 'cd /tmp && pwd' });
    await m.waitForExit({ sessionId: S1, terminalId: a.terminalId });
    assert.equal((await m.output({ sessionId: S1, terminalId: a.terminalId })).output, '/tmp\n');
    // A command's own `cd` stays in its child shell; the user typing one moves the session's shell.
    const [term] = ours();
    assert.equal(term.shellIntegration?.cwd?.fsPath, ws, "the command's cd did not move the terminal's shell");
    term.sendText('cd /tmp');
    await until(() => term.shellIntegration?.cwd?.fsPath === '/tmp', 10_000, 'the user moved the shell to /tmp');
    const b = await m.create({ sessionId: S1, command: 'pwd' });
    await m.waitForExit({ sessionId: S1, terminalId: b.terminalId });
    assert.equal((await m.output({ sessionId: S1, terminalId: b.terminalId })).output, `${ws}\n`);
  });

  test('a command runs as bash -c runs it: `!` is no history reference, `exit` ends the command and keeps the terminal', async function () {
    this.timeout(90_000);
    const { m } = setup();
    const run = async (command: string) => {
      const { terminalId } = await m.create({ sessionId: S1, command });
      const exit = await m.waitForExit({ sessionId: S1, terminalId });
      const { output } = await m.output({ sessionId: S1, terminalId });
      await m.release({ sessionId: S1, terminalId });
      return { exit, output };
    };
    assert.deepEqual(await run('echo "a!b"'), { exit: { exitCode: 0, signal: null }, output: 'a!b\n' });
    const [term] = ours();
    assert.deepEqual(await run('echo before; exit 3'), { exit: { exitCode: 3, signal: null }, output: 'before\n' });
    assert.deepEqual(ours(), [term], 'the same terminal, still open');
    assert.equal(term.exitStatus, undefined, 'the exit did not end the terminal’s shell');
    // What the terminal shows (its scrollback) still holds the command's output.
    term.show();
    await until(
      async () => {
        await vscode.commands.executeCommand('workbench.action.terminal.selectAll');
        await vscode.commands.executeCommand('workbench.action.terminal.copySelection');
        return /^before$/m.test(await vscode.env.clipboard.readText());
      },
      20_000,
      'the terminal still shows "before"',
      200,
    );
    assert.deepEqual(await run('echo after'), { exit: { exitCode: 0, signal: null }, output: 'after\n' });
    assert.deepEqual(ours(), [term], 'the next command ran in the same terminal');
  });

  test('without shell integration commands go to the process runner, and Tandem says so once', async function () {
    this.timeout(60_000);
    const cfg = vscode.workspace.getConfiguration('terminal.integrated');
    await cfg.update('shellIntegration.enabled', false, vscode.ConfigurationTarget.Global);
    try {
      const { m, notices } = setup({ timeoutMs: 4000 });
      const a = await m.create({ sessionId: S1, command: 'echo background-1' });
      assert.equal((await m.waitForExit({ sessionId: S1, terminalId: a.terminalId })).exitCode, 0);
      assert.equal((await m.output({ sessionId: S1, terminalId: a.terminalId })).output, 'background-1\n');
      const b = await m.create({ sessionId: S1, command: 'echo background-2; exit 4' });
      assert.equal((await m.waitForExit({ sessionId: S1, terminalId: b.terminalId })).exitCode, 4);
      assert.equal(notices.length, 1, `said once: ${JSON.stringify(notices)}`);
      assert.match(notices[0], /shell integration/);
      await until(() => ours().length === 0, 10_000, 'the terminal without shell integration closed');
    } finally {
      await cfg.update('shellIntegration.enabled', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
