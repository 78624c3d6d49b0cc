// "Run Tests" of a comparison column: the workspace's test task (the Test group's default, else its
// first), run in a worktree instead of the user's tree. A task cannot be told another folder, so
// its execution is cloned with the worktree as `cwd` (and `${workspaceFolder}` in its command
// pointing there too), run as a task of Tandem's, and its process's exit code is the verdict.
import { randomUUID } from 'node:crypto';
import { isAbsolute, join, relative } from 'node:path';
import * as vscode from 'vscode';
import { watchTaskEnd } from '../taskEnd';
import type { Logger } from '../../common/logger';
import type { TestRun } from '../../shared/comparisonModel';
import type { WorktreeSession } from '../../worktrees/worktrees';
import { errorText } from './worktreeTarget';

/** Not a registered task type: VS Code gives such a task a key of its own on every run, so runs in two worktrees never clash. */
const TASK_TYPE = 'tandemWorktreeTest';

/** The Test group's default task, else its first; undefined when the workspace has none. */
export function pickTestTask(tasks: readonly vscode.Task[]): vscode.Task | undefined {
  const test = tasks.filter((t) => t.group?.id === vscode.TaskGroup.Test.id);
  return test.find((t) => t.group?.isDefault) ?? test[0];
}

/**
 * Runs the test task in `w`; `onStart` names it once it runs. Resolves with the outcome, never
 * rejects: a task that cannot run is an outcome too (and no test task is told to the user).
 */
export async function runTestTask(
  w: WorktreeSession,
  logger: Logger,
  onStart: (task: string) => void,
): Promise<TestRun> {
  try {
    return await run(w, logger, onStart);
  } catch (err) {
    logger.warn(`[worktrees] running the test task in ${w.path}: ${errorText(err)}`);
    return { state: 'error', message: errorText(err) };
  }
}

async function run(w: WorktreeSession, logger: Logger, onStart: (task: string) => void): Promise<TestRun> {
  const task = pickTestTask(await vscode.tasks.fetchTasks());
  if (!task) {
    void vscode.window.showInformationMessage(
      'Tandem: the workspace has no test task. Give a task "group": "test" in tasks.json, or use one an extension provides (npm: test).',
    );
    return { state: 'noTask' };
  }
  const folder = taskFolder(task);
  const execution = inWorktree(task.execution, folder, w);
  if (!execution)
    return {
      state: 'error',
      message: `${task.name} runs inside its extension (no command line), so Tandem cannot run it in another folder.`,
    };
  const runId = randomUUID();
  const clone = new vscode.Task(
    { type: TASK_TYPE, run: runId, task: task.name },
    task.scope ?? vscode.TaskScope.Workspace,
    `${task.name} (${w.branch})`,
    'Tandem',
    execution,
    task.problemMatchers,
  );
  clone.presentationOptions = { ...task.presentationOptions, panel: vscode.TaskPanelKind.Dedicated };
  const end = watchTaskEnd((e) => (e.task.definition as { run?: unknown }).run === runId);
  let exitCode: number | undefined;
  try {
    logger.info(`[worktrees] running ${task.name} in ${w.path}`);
    await vscode.tasks.executeTask(clone);
    onStart(task.name);
    exitCode = await end.ended;
  } finally {
    end.dispose();
  }
  logger.info(`[worktrees] ${task.name} in ${w.branch} ended with exit code ${exitCode ?? 'none'}`);
  return {
    state: exitCode === 0 ? 'passed' : 'failed',
    task: task.name,
    ...(exitCode !== undefined ? { exitCode } : {}),
  };
}

function taskFolder(task: vscode.Task): string | undefined {
  const scope = task.scope;
  if (scope && typeof scope === 'object' && 'uri' in scope) return scope.uri.fsPath;
  return vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file')?.uri.fsPath;
}

/**
 * The execution with its folder moved from the user's tree to the worktree: a path under the
 * repository maps to the same place under the worktree; anything else runs at the worktree's
 * counterpart of the workspace folder. A custom execution (code in its extension) cannot move.
 */
function inWorktree(
  e: vscode.Task['execution'],
  folder: string | undefined,
  w: WorktreeSession,
): vscode.ShellExecution | vscode.ProcessExecution | undefined {
  const mapped = (p: string | undefined): string | undefined => {
    if (!p) return undefined;
    const rel = relative(w.repoRoot, p);
    return rel.startsWith('..') || isAbsolute(rel) ? undefined : join(w.path, rel);
  };
  const home = mapped(folder) ?? w.path;
  const FOLDER = /\$\{(workspaceFolder|workspaceRoot)\}/g;
  const sub = (s: string) => s.replace(FOLDER, home);
  const subQ = (s: string | vscode.ShellQuotedString) =>
    typeof s === 'string' ? sub(s) : { value: sub(s.value), quoting: s.quoting };
  // A task's cwd is relative to its folder, or names it by variable: where it is in the user's tree first.
  const cwdOf = (cwd: string | undefined) => {
    if (cwd === undefined) return home;
    const there = cwd.replace(FOLDER, folder ?? w.repoRoot);
    return isAbsolute(there) ? (mapped(there) ?? home) : join(home, there);
  };
  if (e instanceof vscode.ShellExecution) {
    const options = { ...e.options, cwd: cwdOf(e.options?.cwd) };
    if (e.commandLine !== undefined) return new vscode.ShellExecution(sub(e.commandLine), options);
    if (e.command === undefined) return undefined;
    return new vscode.ShellExecution(subQ(e.command), (e.args ?? []).map(subQ), options);
  }
  if (e instanceof vscode.ProcessExecution)
    return new vscode.ProcessExecution(e.process, e.args.map(sub), { ...e.options, cwd: cwdOf(e.options?.cwd) });
  return undefined;
}
