import { mock, test } from 'node:test';
import assert from 'node:assert/strict';
import * as nodePath from 'node:path';
import { until } from '../../support/until';
import { withMockTimers } from '../../support/mockTimers';
import { diffUnder, type GitPort, type GitRepository } from '../../../src/tools/workspace/gitChangesTool';
import { invokeTool, type InvokeEnv } from '../../../src/tools/invoke';
import { ToolRegistry } from '../../../src/tools/registry';
import { ToolState } from '../../../src/tools/toolState';
import { DEFAULT_TOOLS_CONFIG, type ToolResult } from '../../../src/tools/types';
import {
  plainTerminalText,
  workspaceToolGroup,
  type DiagnosticsPort,
  type PortDiagnostic,
  type TaskInfo,
  type TaskOutcome,
  type TaskPort,
} from '../../../src/tools/workspace/workspaceTools';

const ROOT = nodePath.resolve('/ws/project');
const abs = (rel: string) => nodePath.join(ROOT, rel);
const folders = () => [{ name: 'project', path: ROOT }];

class FakeTasks implements TaskPort {
  tasks: TaskInfo[] = [
    { name: 'build', source: 'Workspace', group: 'build' },
    { name: 'test', source: 'Workspace', group: 'test' },
    { name: 'test', source: 'npm' },
  ];
  outcome: TaskOutcome = { exitCode: 0, running: false, output: 'ok\n', seconds: 1.2 };
  ran: Array<{ task: TaskInfo; waitMs: number }> = [];
  async list() {
    return this.tasks;
  }
  async run(task: TaskInfo, opts: { waitMs: number }) {
    this.ran.push({ task, waitMs: opts.waitMs });
    return this.outcome;
  }
}

class FakeGit implements GitPort {
  repos: GitRepository[] | { unavailable: string } = [];
  diffs: Record<string, string> = {};
  folders = folders;
  async repositories() {
    return this.repos;
  }
  async diff(root: string, staged: boolean) {
    return this.diffs[`${root}:${staged}`] ?? '';
  }
}

class FakeDiagnostics implements DiagnosticsPort {
  entries: Array<{ path: string; items: PortDiagnostic[] }> = [];
  asked: Array<string | undefined> = [];
  folders = folders;
  diagnostics(file?: string) {
    this.asked.push(file);
    return file ? this.entries.filter((e) => e.path === file) : this.entries;
  }
}

function setup() {
  const tasks = new FakeTasks();
  const git = new FakeGit();
  const diagnostics = new FakeDiagnostics();
  const registry = new ToolRegistry();
  registry.register({ ...workspaceToolGroup({ tasks, git, diagnostics }), startCollapsed: false });
  const asked: string[] = [];
  const env: InvokeEnv = {
    state: new ToolState(registry, () => DEFAULT_TOOLS_CONFIG),
    config: DEFAULT_TOOLS_CONFIG,
    requestPermission: async (c) => {
      asked.push(`${c.tool.name} ${JSON.stringify(c.args)}`);
      return 'allow';
    },
  };
  const call = (name: string, args: Record<string, unknown> = {}) => invokeTool(name, args, env);
  return { tasks, git, diagnostics, call, asked };
}
const text = (r: ToolResult) =>
  r.content.map((c) => (c.type === 'text' ? c.text : c.type === 'json' ? JSON.stringify(c.json) : c.type)).join('\n');
const json = (r: ToolResult) => (r.content[0] as { json: Record<string, unknown> }).json;

test('RunTask asks first, runs the named task and returns its exit code and output', async () => {
  const { tasks, call, asked } = setup();
  tasks.outcome = { exitCode: 3, running: false, output: 'compiling\n2 errors\n', seconds: 4.5 };
  const r = await call('RunTask', { name: 'build' });
  assert.deepEqual(asked, ['RunTask {"name":"build"}']);
  assert.deepEqual(tasks.ran, [{ task: tasks.tasks[0], waitMs: 300_000 }]);
  assert.deepEqual(json(r), {
    task: 'build',
    source: 'Workspace',
    exitCode: 3,
    seconds: 4.5,
    output: 'compiling\n2 errors\n',
  });
  assert.ok(!r.isError, 'a failing task is a result, not a tool error');
});

test('RunTask: unknown and ambiguous names list the tasks; a task still running says so', async () => {
  const { tasks, call } = setup();
  const unknown = await call('RunTask', { name: 'deploy' });
  assert.equal(unknown.isError, true);
  assert.equal(
    text(unknown),
    'No task named "deploy". Tasks: build (Workspace, build); test (Workspace, test); test (npm).',
  );
  assert.match(text(await call('RunTask', { name: 'test' })), /^Several tasks are named "test": .* Pass "source"\.$/);
  tasks.outcome = { running: true, output: 'watching…', outputTruncated: true, seconds: 10 };
  const r = json(await call('RunTask', { name: 'test', source: 'npm', timeoutSeconds: 10 }));
  assert.deepEqual(tasks.ran.at(-1), { task: tasks.tasks[2], waitMs: 10_000 });
  assert.equal(r.running, true);
  assert.match(String(r.note), /Still running after 10 s/);
  assert.equal(r.outputTruncated, 'Only the end of the output is shown.');
  assert.equal(r.exitCode, undefined);
  tasks.outcome = { exitCode: 0, running: false, outputNote: 'no output captured', seconds: 1 };
  assert.equal(json(await call('RunTask', { name: 'build' })).outputNote, 'no output captured');
});

test('RunTask may run longer than the client-tool timeout: the call lasts as long as its own wait', async () => {
  const { tasks } = setup();
  const group = workspaceToolGroup({ tasks, git: new FakeGit(), diagnostics: new FakeDiagnostics() });
  const runTask = group.tools.find((t) => t.name === 'RunTask')!;
  assert.equal(typeof runTask.timeoutMs, 'function');
  assert.equal((runTask.timeoutMs as (a: Record<string, unknown>) => number)({ timeoutSeconds: 900 }), 1_020_000);
  // Through invoke: a 30 ms global timeout does not cut a task allowed 1 s.
  const registry = new ToolRegistry();
  registry.register({
    name: 'W',
    startCollapsed: false,
    tools: [{ ...runTask, requiresPermission: false }],
  });
  await withMockTimers(async () => {
    let started = false;
    tasks.run = async () => {
      started = true;
      await new Promise((r) => setTimeout(r, 80));
      return { exitCode: 0, running: false, output: '', seconds: 0.08 };
    };
    const config = { ...DEFAULT_TOOLS_CONFIG, timeoutMs: 30 };
    const call = invokeTool(
      'RunTask',
      { name: 'build', timeoutSeconds: 1 },
      { state: new ToolState(registry, () => config), config },
    );
    await until(() => started, 2000, 'the task to start');
    mock.timers.tick(80); // past the 30 ms global timeout, within the task's own
    const r = await call;
    assert.equal(json(r).exitCode, 0, text(r));
  });
});

test('GetProblems: errors first, filtered by severity, workspace-relative and 1-based, bounded', async () => {
  const { diagnostics, call } = setup();
  const d = (line: number, severity: PortDiagnostic['severity'], message: string): PortDiagnostic => ({
    range: { start: { line, character: 4 }, end: { line, character: 9 } },
    severity,
    message,
    source: 'ts',
    code: 2304,
  });
  diagnostics.entries = [
    { path: abs('src/b.ts'), items: [d(9, 'warning', 'unused'), d(2, 'error', "Cannot find name 'x'.")] },
    { path: abs('src/a.ts'), items: [d(0, 'hint', 'could be const'), d(5, 'error', 'Type error')] },
  ];
  const all = json(await call('GetProblems'));
  assert.deepEqual(all.counts, { error: 2, warning: 1, info: 0, hint: 1 });
  assert.deepEqual(
    (all.problems as Array<{ path: string; line: number; severity: string }>).map(
      (p) => `${p.severity} ${p.path}:${p.line}`,
    ),
    ['error src/a.ts:6', 'error src/b.ts:3', 'warning src/b.ts:10', 'hint src/a.ts:1'],
  );
  assert.deepEqual((all.problems as unknown[])[0], {
    path: 'src/a.ts',
    line: 6,
    column: 5,
    severity: 'error',
    message: 'Type error',
    source: 'ts',
    code: 2304,
  });
  const errors = json(await call('GetProblems', { severity: 'warning', path: 'src/b.ts' }));
  assert.deepEqual(diagnostics.asked.at(-1), abs('src/b.ts'));
  assert.equal((errors.problems as unknown[]).length, 2);
  diagnostics.entries = [{ path: abs('big.ts'), items: Array.from({ length: 700 }, (_, i) => d(i, 'error', `e${i}`)) }];
  const big = json(await call('GetProblems', { limit: 50 }));
  assert.equal(big.shown, 50);
  assert.equal(big.total, 700);
  assert.match(String(big.truncated), /^Showing 50 of 700/);
});

test('GetGitChanges: staged, unstaged, untracked and their diffs, per repository; limited to a path', async () => {
  const { git, call } = setup();
  git.repos = [
    {
      root: ROOT,
      branch: 'main',
      staged: [{ path: abs('src/a.ts'), status: 'modified (staged)' }],
      unstaged: [
        { path: abs('src/b.ts'), status: 'modified' },
        { path: abs('docs/x.md'), status: 'deleted' },
      ],
      untracked: [{ path: abs('src/new.ts'), status: 'untracked' }],
      conflicts: [],
    },
  ];
  const unstagedDiff =
    'diff --git a/src/b.ts b/src/b.ts\n--- a/src/b.ts\n+++ b/src/b.ts\n@@ -1 +1 @@\n-a\n+b\n' +
    'diff --git a/docs/x.md b/docs/x.md\ndeleted file mode 100644\n';
  git.diffs = { [`${ROOT}:true`]: 'diff --git a/src/a.ts b/src/a.ts\n+staged\n', [`${ROOT}:false`]: unstagedDiff };
  const all = json(await call('GetGitChanges'));
  assert.deepEqual(all, {
    repositories: [
      {
        root: '.',
        branch: 'main',
        staged: [{ path: 'src/a.ts', status: 'modified (staged)' }],
        unstaged: [
          { path: 'src/b.ts', status: 'modified' },
          { path: 'docs/x.md', status: 'deleted' },
        ],
        untracked: [{ path: 'src/new.ts', status: 'untracked' }],
        stagedDiff: 'diff --git a/src/a.ts b/src/a.ts\n+staged\n',
        unstagedDiff,
      },
    ],
  });
  const src = json(await call('GetGitChanges', { path: 'src', diff: true })).repositories as Array<
    Record<string, unknown>
  >;
  assert.deepEqual(src[0].unstaged, [{ path: 'src/b.ts', status: 'modified' }]);
  assert.equal(
    src[0].unstagedDiff,
    'diff --git a/src/b.ts b/src/b.ts\n--- a/src/b.ts\n+++ b/src/b.ts\n@@ -1 +1 @@\n-a\n+b\n',
  );
  const noDiff = json(await call('GetGitChanges', { diff: false })).repositories as Array<Record<string, unknown>>;
  assert.equal(noDiff[0].unstagedDiff, undefined);
});

test('GetGitChanges: huge diffs are cut and say so; no git extension or no repository is said plainly', async () => {
  const { git, call } = setup();
  git.repos = [
    { root: ROOT, staged: [], unstaged: [{ path: abs('a.bin'), status: 'modified' }], untracked: [], conflicts: [] },
  ];
  git.diffs = { [`${ROOT}:false`]: `diff --git a/a.bin b/a.bin\n${'+x\n'.repeat(50_000)}` };
  const r = json(await call('GetGitChanges'));
  const repo = (r.repositories as Array<{ unstagedDiff: string }>)[0];
  assert.equal(repo.unstagedDiff.length, 30_000);
  assert.match(String(r.truncated), /Diffs are cut at 30000 characters/);
  git.repos = [];
  assert.equal(text(await call('GetGitChanges')), 'No git repository is open in this workspace.');
  git.repos = { unavailable: 'Git is turned off in VS Code (the git.enabled setting).' };
  const off = await call('GetGitChanges');
  assert.equal(off.isError, true);
  assert.equal(text(off), 'Git is turned off in VS Code (the git.enabled setting).');
});

test('diffUnder keeps the sections of files below a path, renames by either side', () => {
  const d =
    'diff --git a/src/a.ts b/src/a.ts\n+1\n' +
    'diff --git a/lib/old.ts b/src/moved.ts\nrename from lib/old.ts\n' +
    'diff --git a/README.md b/README.md\n+2\n';
  assert.equal(
    diffUnder(d, ROOT, abs('src')),
    'diff --git a/src/a.ts b/src/a.ts\n+1\ndiff --git a/lib/old.ts b/src/moved.ts\nrename from lib/old.ts\n',
  );
  assert.equal(diffUnder(d, ROOT, ROOT), d);
  assert.equal(diffUnder(d, ROOT, undefined), d);
});

test('terminal text becomes plain text: no colours, no shell-integration sequences, LF line ends', () => {
  const raw =
    '\x1b]633;C\x07\x1b[32m✓\x1b[0m 3 tests passed\r\n\x1b]0;title\x07progress 10%\rprogress 100%\r\n\x1b]633;D;0\x07';
  assert.equal(plainTerminalText(raw), '✓ 3 tests passed\nprogress 10%\nprogress 100%\n');
});
