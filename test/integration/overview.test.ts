// The Sessions overview in the real VS Code: sessions of two agents running side by side, one
// waiting on a permission prompt while the other is shown; the overview puts it under "Needs you",
// it counts it among the sessions that need the user, and "Show Session" brings it into the view.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { describeSession, overviewGroups } from '../../src/session/overview';
import { activateTandem, type TestedTandem, until } from './helpers';

suite('sessions overview', () => {
  let api: TestedTandem;

  suiteSetup(async function () {
    this.timeout(60_000);
    const t = await activateTandem();
    api = t.api;
    const dir = mkdtempSync(join(tmpdir(), 'tandem-overview-'));
    const agent = (name: string, prompts: unknown[]) => {
      const file = join(dir, `${name}.json`);
      writeFileSync(file, JSON.stringify({ name, newSession: { sessionId: `${name}-\${n}` }, prompts }));
      const js = join(t.extensionPath, 'out', 'test', 'fixtures', 'agents', 'scripted-agent.js');
      return { name, command: process.execPath, args: [js, file] };
    };
    const ask = {
      request: 'session/request_permission',
      params: {
        sessionId: '${sessionId}',
        toolCall: { toolCallId: 'c1', title: 'Run the tests', kind: 'execute', rawInput: { command: 'npm test' } },
        options: [
          { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
          { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
        ],
      },
      as: 'p',
    };
    await vscode.workspace.getConfiguration('tandem').update(
      'agents',
      [
        agent('OvA', [{ match: '', steps: [ask, { stream: 'A done' }] }]),
        agent('OvB', [
          {
            match: 'write',
            steps: [
              {
                request: 'fs/write_text_file',
                params: { sessionId: '${sessionId}', path: 'ov-lines.txt', content: 'one\ntwo\nthree\n' },
                as: 'w',
              },
              { stream: 'wrote' },
            ],
          },
          { match: '', steps: [{ stream: 'B done' }] },
        ]),
      ],
      vscode.ConfigurationTarget.Global,
    );
  });

  test("a background agent's permission prompt is listed under Needs you and Show Session brings it up", async function () {
    this.timeout(60_000);
    const { controller: ctl, overview, permissions } = api;
    await ctl.start('OvA');
    assert.equal(ctl.agent.state, 'ready', ctl.agent.message);
    const a = ctl.current!;
    const sessionA = a.session!.sessionId;
    const turn = a.prompt('go');
    await until(() => permissions.broker.pending().some((p) => p.sessionId === sessionA), 10_000, 'the prompt');
    await ctl.start('OvB');
    assert.equal(ctl.agent.name, 'OvB');
    await until(
      () => overview.sessions().some((s) => s.sessionId === sessionA && s.waiting === 'a permission prompt'),
      5000,
      "A's session waits for the user",
    );
    const groups = overviewGroups(overview.sessions());
    assert.equal(groups[0].group, 'needsYou');
    assert.deepEqual(
      groups[0].sessions.map((s) => [s.agentName, s.sessionId]),
      [['OvA', sessionA]],
    );
    assert.equal(overview.needsYou(), 1);
    assert.ok(
      overview.sessions().some((s) => s.agentName === 'OvB'),
      'the shown agent is listed too',
    );
    await vscode.commands.executeCommand('tandem.showSession', sessionA);
    assert.equal(ctl.agent.name, 'OvA');
    assert.equal(ctl.current!.session!.sessionId, sessionA);
    const pending = permissions.broker.pending().find((p) => p.sessionId === sessionA)!;
    assert.ok(permissions.answer(pending.requestId, 'allow'));
    await turn;
    await until(() => overview.needsYou() === 0, 5000, 'nothing needs the user any more');
    await ctl.stop();
  });

  test("a session's row counts the lines its agent changed", async function () {
    this.timeout(60_000);
    const { controller: ctl, overview } = api;
    const file = join(vscode.workspace.workspaceFolders![0].uri.fsPath, 'ov-lines.txt');
    try {
      await ctl.start('OvB');
      const b = ctl.current!;
      const id = b.session!.sessionId;
      await b.prompt('write');
      await until(
        () => overview.sessions().find((s) => s.sessionId === id)?.lines?.added === 3,
        10_000,
        'the row counts three added lines',
      );
      const row = overview.sessions().find((s) => s.sessionId === id)!;
      assert.deepEqual([row.files, row.lines], [1, { added: 3, removed: 0 }]);
      assert.match(describeSession(row), /1 file \+3 −0/);
    } finally {
      await ctl.stop();
      rmSync(file, { force: true });
    }
  });
});
