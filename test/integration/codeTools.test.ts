/// <reference types="mocha" />
// The Code and Workspace client tool groups in the real VS Code, called by a real MCP client
// through Tandem's own MCP server for a real agent session: GoToDefinition / FindReferences /
// Rename answered by the built-in TypeScript language features on a small TypeScript fixture
// (test/fixtures/code-intel, copied into the workspace), the rename undoable and listed in
// Review Changes; RunTask running the fixture workspace's .vscode/tasks.json task.
import * as assert from 'node:assert/strict';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { until } from './helpers';
import { openToolsSession, type ToolsSession } from './toolsSession';

suite('client tools: Code and Workspace groups', function () {
  this.timeout(120_000);
  let s: ToolsSession;
  let ws: string;
  const fixture = (f: string) => join(ws, 'code-intel', f);
  const call = async (name: string, args: Record<string, unknown>) => {
    const r = await s.client.callTool({ name, arguments: args });
    return { r, text: s.text(r) };
  };
  const json = async (name: string, args: Record<string, unknown>) => {
    const { r, text } = await call(name, args);
    assert.ok(!r.isError, text);
    return JSON.parse(text) as Record<string, unknown>;
  };
  /** report.ts line 9: `  return \`door ${rectangleArea(door) * scale}, …`. */
  const USE = { path: 'code-intel/report.ts', line: 9, symbol: 'rectangleArea' };

  suiteSetup(async function () {
    this.timeout(60_000);
    ws = vscode.workspace.workspaceFolders![0].uri.fsPath;
    cpSync(join(__dirname, '..', '..', '..', 'test', 'fixtures', 'code-intel'), join(ws, 'code-intel'), {
      recursive: true,
    });
    s = await openToolsSession('Code tools agent');
    // Collapsed: the containers first; calling them expands the groups (list_changed).
    const names = (await s.client.listTools()).tools.map((t) => t.name);
    assert.ok(names.includes('Code') && names.includes('Workspace'), names.join(', '));
    await s.client.callTool({ name: 'Code', arguments: {} });
    await s.client.callTool({ name: 'Workspace', arguments: {} });
  });
  suiteTeardown(async () => {
    await s?.close();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('GoToDefinition finds the declaration in the other file, once TypeScript has loaded the project', async () => {
    // tsserver first answers from its syntax-only server (the import line in report.ts); wait for
    // the project to load: the definition moves to shapes.ts.
    let last = '';
    await until(
      async () => {
        last = (await call('GoToDefinition', USE)).text;
        return last.includes('code-intel/shapes.ts');
      },
      90_000,
      'the definition in shapes.ts',
      500,
    ).catch((e: Error) => {
      throw new Error(`${e.message}; last answer: ${last}`);
    });
    const r = JSON.parse(last) as { definitions: Array<Record<string, unknown>> };
    assert.deepEqual(r.definitions, [
      {
        path: 'code-intel/shapes.ts',
        line: 8,
        column: 17,
        endLine: 8,
        endColumn: 30,
        text: 'export function rectangleArea(r: Rectangle): number {',
      },
    ]);
  });

  test('FindReferences lists every use across files, workspace-relative and 1-based', async () => {
    const r = (await json('FindReferences', USE)) as {
      references: Array<{ path: string; line: number; column: number }>;
    };
    assert.deepEqual(
      r.references.map((x) => `${x.path}:${x.line}:${x.column}`),
      [
        'code-intel/report.ts:2:10',
        'code-intel/report.ts:9:18',
        'code-intel/shapes.ts:8:17',
        'code-intel/shapes.ts:14:34',
      ],
    );
    // The call's row reads as a list with each line's text and links each place; the agent got the JSON.
    const rows = Object.values(s.api.controller.snapshot().session!.toolCalls);
    const row = rows.filter((c) => c.title.startsWith('Code · FindReferences')).at(-1)!;
    const shown = row.content.map((c) => (c.type === 'content' && c.content.type === 'text' ? c.content.text : ''));
    assert.equal(shown.length, 1);
    assert.match(shown[0], /^4 references in 2 files\ncode-intel\/report\.ts:2 +import \{ rectangleArea/);
    assert.ok(!shown[0].includes('"references"'), shown[0]);
    assert.deepEqual(
      row.locations.map((l) => `${l.path}:${l.line}`),
      [fixture('report.ts:2'), fixture('report.ts:9'), fixture('shapes.ts:8'), fixture('shapes.ts:14')],
    );
  });

  test('DocumentSymbols and TypeInfo answer from the TypeScript features', async () => {
    const r = (await json('DocumentSymbols', { path: 'code-intel/shapes.ts' })) as {
      symbols: Array<{ name: string; kind: string; line: number }>;
    };
    const top = r.symbols.filter((x) => ['Rectangle', 'rectangleArea', 'totalArea'].includes(x.name));
    assert.deepEqual(
      top.map((x) => `${x.kind} ${x.name}:${x.line}`),
      ['Interface Rectangle:3', 'Function rectangleArea:8', 'Function totalArea:12'],
    );
    const hover = await call('TypeInfo', { path: 'code-intel/shapes.ts', line: 12, symbol: 'totalArea' });
    assert.match(hover.text, /function totalArea\(shapes: Rectangle\[\]\): number/);
  });

  test('Rename renames across files as one undoable edit, asks first, and shows in Review Changes', async () => {
    const before = {
      report: readFileSync(fixture('report.ts'), 'utf8'),
      shapes: readFileSync(fixture('shapes.ts'), 'utf8'),
    };
    s.asked.length = 0;
    // From the declaration: TypeScript renames every use (from an importing file it would add an alias).
    const r = await json('Rename', {
      path: 'code-intel/shapes.ts',
      line: 8,
      symbol: 'rectangleArea',
      newName: 'areaOf',
    });
    // Once, through the broker, saying what changes (the edit is computed before the question).
    assert.deepEqual(s.asked, ['Rename `rectangleArea` to `areaOf`: 4 edits in 2 files']);
    assert.deepEqual(r.renamed, { from: 'rectangleArea', to: 'areaOf' });
    assert.deepEqual((r.files as Array<{ path: string; edits: number }>).map((f) => f.path).sort(), [
      'code-intel/report.ts',
      'code-intel/shapes.ts',
    ]);
    const after = readFileSync(fixture('shapes.ts'), 'utf8');
    assert.match(after, /export function areaOf\(r: Rectangle\)/, 'saved to disk');
    assert.match(readFileSync(fixture('report.ts'), 'utf8'), /import \{ areaOf, totalArea/);
    // Review Changes: both files, in the session's current turn, with what they were.
    const changes = s.api.changes.tracker.changes(s.sessionId, 0);
    assert.deepEqual(changes.map((c) => c.path).sort(), [fixture('report.ts'), fixture('shapes.ts')]);
    assert.equal(Buffer.from(changes.find((c) => c.path === fixture('shapes.ts'))!.before!).toString(), before.shapes);
    // One undo restores both files (VS Code asks nothing: the edit is one workspace undo step).
    const shapesDoc = await vscode.workspace.openTextDocument(fixture('shapes.ts'));
    const reportDoc = await vscode.workspace.openTextDocument(fixture('report.ts'));
    await vscode.window.showTextDocument(shapesDoc, { preview: false });
    await vscode.commands.executeCommand('undo');
    await until(
      () => shapesDoc.getText() === before.shapes && reportDoc.getText() === before.report,
      10_000,
      'undo of the rename in both files',
    );
    for (const d of [shapesDoc, reportDoc]) if (d.isDirty) await d.save();
  });

  test('bad positions and files without language support get plain answers', async () => {
    const past = await call('GoToDefinition', { path: 'code-intel/report.ts', line: 999, column: 1 });
    assert.equal(past.r.isError, true);
    assert.match(past.text, /Line 999 is past the end of code-intel\/report\.ts \(\d+ lines\)/);
    const plain = await call('FindReferences', { path: 'notes.txt', line: 1, symbol: 'line' });
    assert.equal(plain.r.isError, true);
    assert.match(plain.text, /No language support is installed in VS Code for notes\.txt \(language "plaintext"\)/);
  });

  test("RunTask runs the workspace's task after asking: exit code and output come back", async () => {
    s.asked.length = 0;
    const r = await json('RunTask', { name: 'tandem: count lines' });
    assert.deepEqual(s.asked, ['Workspace · RunTask tandem: count lines']);
    assert.equal(r.exitCode, 3);
    assert.equal(r.source, 'Workspace');
    assert.match(String(r.output), /^\s*3\s*\ntask output line\n/, JSON.stringify(r));
    const unknown = await call('RunTask', { name: 'no such task' });
    assert.match(unknown.text, /^No task named "no such task"\. Tasks: .*tandem: count lines \(Workspace\)/);
  });
});
