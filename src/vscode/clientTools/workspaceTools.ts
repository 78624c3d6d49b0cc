// The Workspace group's ports in VS Code: tasks (vscode.tasks; the output comes from the shell
// integration events VS Code fires for task terminals, the exit code from onDidEndTaskProcess),
// git (the built-in git extension's API), diagnostics (vscode.languages). The logic is in
// src/tools/workspace/workspaceTools.ts and src/tools/workspace/gitChangesTool.ts.
import * as vscode from 'vscode';
import { watchTaskEnd } from '../taskEnd';
import { OutputBuffer } from '../../client/terminals/outputBuffer';
import type { GitFileChange, GitPort, GitRepository } from '../../tools/workspace/gitChangesTool';
import type { WorkspaceFolderInfo } from '../../tools/workspace/workspacePaths';
import {
  plainTerminalText,
  type DiagnosticsPort,
  type PortDiagnostic,
  type TaskInfo,
  type TaskOutcome,
  type TaskPort,
  type WorkspacePorts,
} from '../../tools/workspace/workspaceTools';

/** Task output kept (the tail). */
const TASK_OUTPUT_BYTES = 30_000;
/** After a task ends, how long its output stream may take to drain. */
const OUTPUT_DRAIN_MS = 1500;

/** A path or URI string (as src/tools/workspace/workspacePaths.ts resolves them) as a VS Code URI. */
export function uriOf(pathOrUri: string): vscode.Uri {
  return /^[a-zA-Z][\w+.-]+:\/\//.test(pathOrUri) ? vscode.Uri.parse(pathOrUri, true) : vscode.Uri.file(pathOrUri);
}

export function workspaceFolders(): WorkspaceFolderInfo[] {
  return (vscode.workspace.workspaceFolders ?? [])
    .filter((f) => f.uri.scheme === 'file')
    .map((f) => ({ name: f.name, path: f.uri.fsPath }));
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function taskInfo(t: vscode.Task): TaskInfo {
  return {
    name: t.name,
    source: t.source,
    ...(t.detail ? { detail: t.detail } : {}),
    ...(t.group?.id ? { group: t.group.id } : {}),
    ...(t.isBackground ? { background: true } : {}),
  };
}

/** The command line a shell or process task runs, to recognise its terminal's shell execution. */
function commandOf(t: vscode.Task): string | undefined {
  const e = t.execution;
  const text = (c: string | vscode.ShellQuotedString) => (typeof c === 'string' ? c : c.value);
  if (e instanceof vscode.ShellExecution)
    return (
      e.commandLine ??
      [e.command, ...(e.args ?? [])]
        .filter((x) => x !== undefined)
        .map(text)
        .join(' ')
    );
  if (e instanceof vscode.ProcessExecution) return [e.process, ...e.args].join(' ');
  return undefined;
}

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

export const vscodeTasks: TaskPort = {
  async list() {
    return (await vscode.tasks.fetchTasks()).map(taskInfo);
  },
  async run(info, { waitMs, signal }): Promise<TaskOutcome> {
    const task = (await vscode.tasks.fetchTasks()).find((t) => t.name === info.name && t.source === info.source);
    if (!task) throw new Error(`The task "${info.name}" (${info.source}) is gone.`);
    const t0 = Date.now();
    const command = commandOf(task);
    const output = new OutputBuffer(TASK_OUTPUT_BYTES);
    const reads: Promise<void>[] = [];
    const subs: vscode.Disposable[] = [];
    let execution: vscode.TaskExecution | undefined;
    let exitCode: number | undefined;
    const end = watchTaskEnd((e) => e === execution || (e.task.name === task.name && e.task.source === task.source));
    subs.push(end);
    // VS Code reports a task terminal's run as a shell execution (shell integration for tasks):
    // its read() stream is the task's output. A run of another command (the user's) is not ours.
    subs.push(
      vscode.window.onDidStartTerminalShellExecution((e) => {
        if (reads.length) return;
        const line = squash(e.execution.commandLine.value);
        if (command !== undefined && line && !line.includes(squash(command))) return;
        reads.push(
          (async () => {
            for await (const chunk of e.execution.read()) output.push(Buffer.from(chunk));
          })().catch(() => undefined),
        );
      }),
    );
    const aborted = new Promise<void>((r) => signal.addEventListener('abort', () => r(), { once: true }));
    try {
      execution = await vscode.tasks.executeTask(task);
      const finished = await Promise.race([
        end.ended.then((code) => {
          exitCode = code;
          return true;
        }),
        sleep(waitMs).then(() => false),
        aborted.then(() => false),
      ]);
      if (finished) await Promise.race([Promise.all(reads), sleep(OUTPUT_DRAIN_MS)]);
      const { output: text, truncated } = output.read(finished);
      return {
        running: !finished,
        ...(exitCode !== undefined ? { exitCode } : {}),
        ...(reads.length ? { output: plainTerminalText(text) } : {}),
        ...(truncated ? { outputTruncated: true } : {}),
        ...(reads.length
          ? {}
          : {
              outputNote:
                "VS Code did not report this task's terminal output (no shell integration for its terminal); it is in the task's terminal.",
            }),
        seconds: Math.round((Date.now() - t0) / 100) / 10,
      };
    } finally {
      for (const s of subs) s.dispose();
    }
  },
};

// ---- git ------------------------------------------------------------------------------------

/** The part of the git extension's API v1 (extensions/git/src/api/git.d.ts) used here. */
interface GitApiChange {
  readonly uri: vscode.Uri;
  readonly originalUri: vscode.Uri;
  readonly status: number;
}
interface GitApiRepository {
  readonly rootUri: vscode.Uri;
  readonly state: {
    readonly HEAD?: { readonly name?: string };
    readonly indexChanges: GitApiChange[];
    readonly workingTreeChanges: GitApiChange[];
    readonly mergeChanges: GitApiChange[];
    readonly untrackedChanges?: GitApiChange[];
  };
  diff(cached?: boolean): Promise<string>;
}
interface GitApi {
  readonly state: 'uninitialized' | 'initialized';
  readonly onDidChangeState: vscode.Event<string>;
  readonly repositories: GitApiRepository[];
}
interface GitExtension {
  readonly enabled: boolean;
  getAPI(version: 1): GitApi;
}

/** Status enum of the git API, in order. */
const STATUS = [
  'modified (staged)',
  'added',
  'deleted (staged)',
  'renamed',
  'copied',
  'modified',
  'deleted',
  'untracked',
  'ignored',
  'intent to add',
  'intent to rename',
  'type changed',
  'conflict (added by us)',
  'conflict (added by them)',
  'conflict (deleted by us)',
  'conflict (deleted by them)',
  'conflict (both added)',
  'conflict (both deleted)',
  'conflict (both modified)',
];
const UNTRACKED = 7;

function change(c: GitApiChange): GitFileChange {
  const renamed = c.originalUri.fsPath !== c.uri.fsPath;
  return {
    path: c.uri.fsPath,
    status: STATUS[c.status] ?? `status ${c.status}`,
    ...(renamed ? { originalPath: c.originalUri.fsPath } : {}),
  };
}

async function gitApi(): Promise<GitApi | { unavailable: string }> {
  const ext = vscode.extensions.getExtension<GitExtension>('vscode.git');
  if (!ext)
    return { unavailable: "VS Code's built-in git extension is not installed or is disabled: no git information." };
  const exp = ext.isActive ? ext.exports : await ext.activate();
  if (!exp.enabled) return { unavailable: 'Git is turned off in VS Code (the git.enabled setting).' };
  const api = exp.getAPI(1);
  if (api.state === 'uninitialized')
    await Promise.race([new Promise<void>((r) => api.onDidChangeState(() => r())), sleep(10_000)]);
  return api;
}

export const vscodeGit: GitPort = {
  folders: workspaceFolders,
  async repositories() {
    const api = await gitApi();
    if ('unavailable' in api) return api;
    return api.repositories.map((r): GitRepository => ({
      root: r.rootUri.fsPath,
      ...(r.state.HEAD?.name ? { branch: r.state.HEAD.name } : {}),
      staged: r.state.indexChanges.map(change),
      unstaged: r.state.workingTreeChanges.filter((c) => c.status !== UNTRACKED).map(change),
      untracked: [
        ...(r.state.untrackedChanges ?? []),
        ...r.state.workingTreeChanges.filter((c) => c.status === UNTRACKED),
      ].map(change),
      conflicts: r.state.mergeChanges.map(change),
    }));
  },
  async diff(root, staged) {
    const api = await gitApi();
    const repo = 'unavailable' in api ? undefined : api.repositories.find((r) => r.rootUri.fsPath === root);
    return repo ? repo.diff(staged) : '';
  },
};

// ---- diagnostics ----------------------------------------------------------------------------

const SEVERITY = ['error', 'warning', 'info', 'hint'] as const;

function diagnostic(d: vscode.Diagnostic): PortDiagnostic {
  const r = d.range;
  return {
    range: {
      start: { line: r.start.line, character: r.start.character },
      end: { line: r.end.line, character: r.end.character },
    },
    severity: SEVERITY[d.severity] ?? 'info',
    message: d.message,
    ...(d.source ? { source: d.source } : {}),
    ...(d.code !== undefined ? { code: typeof d.code === 'object' ? d.code.value : d.code } : {}),
  };
}

export const vscodeDiagnostics: DiagnosticsPort = {
  folders: workspaceFolders,
  diagnostics(file) {
    const entries: Array<[vscode.Uri, readonly vscode.Diagnostic[]]> = file
      ? [[uriOf(file), vscode.languages.getDiagnostics(uriOf(file))]]
      : vscode.languages.getDiagnostics();
    return entries.map(([u, ds]) => ({
      path: u.scheme === 'file' ? u.fsPath : u.toString(),
      items: ds.map(diagnostic),
    }));
  },
};

export const vscodeWorkspacePorts: WorkspacePorts = {
  tasks: vscodeTasks,
  git: vscodeGit,
  diagnostics: vscodeDiagnostics,
};
