// When a task run ends, and its process's exit code: VS Code reports the process's end (with the
// code) before the task's; a task that never started a process ends without one. Used by the
// Workspace group's RunTask tool and by a comparison's "Run Tests".
import * as vscode from 'vscode';

export interface TaskEnd extends vscode.Disposable {
  /** Resolves with the exit code (undefined: no process) when a run that `ours` accepts ends. */
  readonly ended: Promise<number | undefined>;
}

/** Subscribe before executeTask: a quick task can end before its promise settles. */
export function watchTaskEnd(ours: (e: vscode.TaskExecution) => boolean): TaskEnd {
  let exitCode: number | undefined;
  const subs: vscode.Disposable[] = [];
  const ended = new Promise<number | undefined>((resolve) => {
    subs.push(
      vscode.tasks.onDidEndTaskProcess((e) => {
        if (ours(e.execution)) exitCode = e.exitCode;
      }),
      vscode.tasks.onDidEndTask((e) => {
        if (ours(e.execution)) resolve(exitCode);
      }),
    );
  });
  return { ended, dispose: () => subs.forEach((s) => s.dispose()) };
}
