// Client tools in a session that works in its own worktree (ToolCallContext.place): paths resolve
// and show against the worktree, the user's checkout counts as outside (asked, like fs/*), the
// window's problems and tasks are not the session's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as nodePath from 'node:path';
import type { PermissionPort } from '../../../src/client/permissions/permissionPort';
import type { SessionPlace } from '../../../src/client/connection/sessionPlace';
import { codeToolGroup } from '../../../src/tools/code/codeTools';
import { invokeTool, type InvokeEnv } from '../../../src/tools/invoke';
import { ToolRegistry } from '../../../src/tools/registry';
import { ToolState } from '../../../src/tools/toolState';
import { DEFAULT_TOOLS_CONFIG, type ToolResult } from '../../../src/tools/types';
import { workspaceToolGroup, type PortDiagnostic } from '../../../src/tools/workspace/workspaceTools';
import { FakeCodePort, ROOT } from './fakeCodePort';

const WORKTREE = nodePath.resolve('/storage/worktrees/fix-login');
const PLACE: SessionPlace = { cwd: WORKTREE, label: 'tandem/fix-login' };
const rel = (p: string) => nodePath.relative(ROOT, p);

function setup(place: SessionPlace | undefined) {
  const port = new FakeCodePort()
    .file('src/login.ts', 'export function checkout() {}')
    .file(rel(nodePath.join(WORKTREE, 'src/login.ts')), 'export function worktree() {}');
  const diagnostics = {
    folders: () => port.folders(),
    diagnostics: (): Array<{ path: string; items: PortDiagnostic[] }> => [
      { path: nodePath.join(ROOT, 'src/login.ts'), items: [problem('in the checkout')] },
      { path: nodePath.join(WORKTREE, 'src/login.ts'), items: [problem('in the worktree')] },
    ],
  };
  const ran: string[] = [];
  const registry = new ToolRegistry();
  registry.register({ ...codeToolGroup(port), startCollapsed: false });
  registry.register({
    ...workspaceToolGroup({
      tasks: {
        list: async () => [{ name: 'build', source: 'Workspace' }],
        run: async (t) => (ran.push(t.name), { exitCode: 0, running: false, seconds: 1 }),
      },
      git: {
        folders: () => port.folders(),
        repositories: async () => [
          {
            root: ROOT,
            branch: 'main',
            staged: [],
            unstaged: [{ path: nodePath.join(ROOT, 'src/login.ts'), status: 'modified' }],
            untracked: [],
            conflicts: [],
          },
        ],
        diff: async () => '',
      },
      diagnostics,
    }),
    startCollapsed: false,
  });
  const questions: string[] = [];
  const asked: string[] = [];
  const permission: PermissionPort = {
    request: async (_sid, call) => (
      questions.push(String(call.title)),
      { outcome: 'selected', optionId: 'reject_once' }
    ),
  };
  const env: InvokeEnv = {
    state: new ToolState(registry, () => DEFAULT_TOOLS_CONFIG),
    config: DEFAULT_TOOLS_CONFIG,
    sessionId: 's1',
    ...(place ? { place } : {}),
    requestPermission: async (c) => (asked.push(c.tool.name), 'allow'),
    permission,
  };
  const call = (name: string, args: Record<string, unknown>) => invokeTool(name, args, env);
  return { port, call, questions, asked, ran };
}

function problem(message: string): PortDiagnostic {
  return { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, severity: 'error', message };
}
const text = (r: ToolResult) =>
  r.content.map((c) => (c.type === 'text' ? c.text : c.type === 'json' ? JSON.stringify(c.json) : c.type)).join('\n');

test("a worktree session's relative path opens the worktree's file, shown relative to the worktree", async () => {
  const t = setup(PLACE);
  const r = await t.call('DocumentSymbols', { path: 'src/login.ts' });
  assert.equal(t.port.opened.at(-1), nodePath.join(WORKTREE, 'src/login.ts'));
  assert.match(text(r), /src\/login\.ts has no symbols/);
  assert.deepEqual(t.questions, []);
});

test("the user's checkout is outside a worktree session: reading it asks, and a no leaves it unread", async () => {
  const t = setup(PLACE);
  const r = await t.call('DocumentSymbols', { path: nodePath.join(ROOT, 'src/login.ts') });
  assert.equal(t.questions.length, 1);
  assert.match(t.questions[0], /outside the session's worktree/);
  assert.equal(r.isError, true);
  assert.ok(!t.port.opened.includes(nodePath.join(ROOT, 'src/login.ts')));
});

test('a session without a place still reads the workspace without asking', async () => {
  const t = setup(undefined);
  await t.call('DocumentSymbols', { path: 'src/login.ts' });
  assert.equal(t.port.opened.at(-1), nodePath.join(ROOT, 'src/login.ts'));
  assert.deepEqual(t.questions, []);
});

test("GetProblems in a worktree session lists the worktree's problems only, relative to it", async () => {
  const t = setup(PLACE);
  const r = text(await t.call('GetProblems', {}));
  assert.match(r, /in the worktree/);
  assert.doesNotMatch(r, /in the checkout/);
  assert.match(r, /"path":"src\/login\.ts"/);
  const everyone = text(await setup(undefined).call('GetProblems', {}));
  assert.match(everyone, /in the checkout/);
});

test("RunTask is refused in a worktree session before the user is asked: the window's tasks run in the checkout", async () => {
  const t = setup(PLACE);
  const r = await t.call('RunTask', { name: 'build' });
  assert.equal(r.isError, true);
  assert.match(text(r), /not on this session's worktree \(tandem\/fix-login\)/);
  assert.deepEqual(t.asked, []);
  assert.deepEqual(t.ran, []);
  const home = setup(undefined);
  await home.call('RunTask', { name: 'build' });
  assert.deepEqual(home.ran, ['build']);
});

test("GetGitChanges in a worktree session never reports the user's checkout", async () => {
  const t = setup(PLACE);
  const r = text(await t.call('GetGitChanges', {}));
  assert.match(r, /worktree \(tandem\/fix-login\) is not open in VS Code's Source Control/);
  assert.match(text(await setup(undefined).call('GetGitChanges', {})), /src\/login\.ts/);
});
