// The `Workspace` client tool group: run one of the workspace's VS Code tasks and get its output
// and exit code (RunTask, asks first), the uncommitted git changes (GetGitChanges), and the
// problems VS Code shows (GetProblems: the one diagnostics tool; it was GetDiagnostics in the IDE
// group). Pure: tasks, git and diagnostics answer through ports (src/vscode/clientTools/workspaceTools.ts).
import { bounded, type Span } from '../code/codeShape';
import { gitChangesTool, type GitPort } from './gitChangesTool';
import { textResult, type Tool, type ToolGroup, type ToolResult } from '../types';
import { isWithin } from '../../client/files/realPath';
import { displayPath, foldersOf, pathSchema, resolveInputPath, type WorkspaceFolderInfo } from './workspacePaths';

export interface TaskInfo {
  name: string;
  /** Where the task comes from: "Workspace" (tasks.json), "npm", "typescript", … */
  source: string;
  detail?: string;
  /** "build", "test", … */
  group?: string;
  /** Runs in the background (a watcher): RunTask returns when its wait ends, the task keeps running. */
  background?: boolean;
}

export interface TaskOutcome {
  /** undefined while it still runs (the wait ended) or when VS Code did not report one. */
  exitCode?: number;
  running: boolean;
  /** The terminal text of the run (tail), when it could be captured. */
  output?: string;
  outputTruncated?: boolean;
  /** Why there is no output. */
  outputNote?: string;
  seconds: number;
}

export interface TaskPort {
  list(): Promise<TaskInfo[]>;
  /** Starts the task and waits up to `waitMs` for it to end. */
  run(task: TaskInfo, opts: { waitMs: number; signal: AbortSignal }): Promise<TaskOutcome>;
}

export type Severity = 'error' | 'warning' | 'info' | 'hint';
const SEVERITIES: Severity[] = ['error', 'warning', 'info', 'hint'];

export interface PortDiagnostic {
  range: Span;
  severity: Severity;
  message: string;
  source?: string;
  code?: string | number;
}

export interface DiagnosticsPort {
  folders(): WorkspaceFolderInfo[];
  /** Problems of one file (path or URI), or of every file. `path` of each entry: fs path or URI. */
  diagnostics(file?: string): Array<{ path: string; items: PortDiagnostic[] }>;
}

export interface WorkspacePorts {
  tasks: TaskPort;
  git: GitPort;
  diagnostics: DiagnosticsPort;
}

/**
 * Terminal text as plain text: no colours or cursor moves (CSI), no shell-integration or title
 * sequences (OSC), CR LF as LF, a lone CR (a redrawn progress line) as a line break.
 */
export function plainTerminalText(s: string): string {
  return s
    .replace(/\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g, '')
    .replace(/\x1b\[[0-9;?]*[ -/]*[@-~]/g, '')
    .replace(/\x1b[()][A-Za-z0-9]|\x1b[=>78]/g, '')
    .replace(/\r\n/g, '\n')
    .replace(/\r(?!\n)/g, '\n');
}

/** Default and largest wait of RunTask, in seconds. */
export const TASK_WAIT_DEFAULT = 300;
export const TASK_WAIT_MAX = 3600;

function runTaskTool(port: TaskPort): Tool {
  return {
    name: 'RunTask',
    description: `Run one of the workspace's VS Code tasks (tasks.json and tasks of installed extensions, e.g. npm scripts) by its name, as the user would from Run Task, and get its exit code and terminal output (the tail). Asks the user first. Waits up to timeoutSeconds (default ${TASK_WAIT_DEFAULT}); a task still running then (a watcher) keeps running. An unknown name answers with the tasks there are.`,
    parametersSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 1, description: 'The task\'s name (label), e.g. "build".' },
        source: {
          type: 'string',
          minLength: 1,
          description: 'Where the task comes from when two have the same name: "Workspace", "npm", …',
        },
        timeoutSeconds: {
          type: 'integer',
          minimum: 1,
          maximum: TASK_WAIT_MAX,
          description: `How long to wait for the task to end (default ${TASK_WAIT_DEFAULT}).`,
        },
      },
      required: ['name'],
      additionalProperties: false,
    },
    requiresPermission: true,
    // Tasks run in the window's folders: a worktree session's build belongs in its own terminal.
    workspaceOnly: true,
    // The call may last as long as the wait it asks for, plus time for the output to drain (the
    // time the user takes to answer the prompt never counts: invoke.ts).
    timeoutMs: (a) => (((a.timeoutSeconds as number | undefined) ?? TASK_WAIT_DEFAULT) + 120) * 1000,
    handler: async (a, ctx): Promise<ToolResult> => {
      const all = await port.list();
      const named = all.filter((t) => t.name === a.name && (a.source === undefined || t.source === a.source));
      const list = (ts: TaskInfo[]) =>
        ts
          .slice(0, 60)
          .map((t) => `${t.name} (${t.source}${t.group ? `, ${t.group}` : ''})`)
          .join('; ') + (ts.length > 60 ? `; … ${ts.length - 60} more` : '');
      if (!named.length)
        return textResult(
          `No task named ${JSON.stringify(a.name)}${a.source ? ` from ${a.source}` : ''}. Tasks: ${list(all) || 'none (no tasks.json and no task providers)'}.`,
          true,
        );
      if (named.length > 1)
        return textResult(`Several tasks are named ${JSON.stringify(a.name)}: ${list(named)}. Pass "source".`, true);
      const task = named[0];
      const waitMs = ((a.timeoutSeconds as number | undefined) ?? TASK_WAIT_DEFAULT) * 1000;
      const r = await port.run(task, { waitMs, signal: ctx.signal });
      const json = {
        task: task.name,
        source: task.source,
        ...(r.running
          ? { running: true, note: `Still running after ${r.seconds} s; it keeps running in VS Code's terminal.` }
          : { exitCode: r.exitCode ?? null }),
        seconds: r.seconds,
        ...(r.output !== undefined ? { output: r.output } : {}),
        ...(r.outputTruncated ? { outputTruncated: 'Only the end of the output is shown.' } : {}),
        ...(r.outputNote ? { outputNote: r.outputNote } : {}),
      };
      return { content: [{ type: 'json', json }] };
    },
  };
}

function problemsTool(port: DiagnosticsPort): Tool {
  return {
    name: 'GetProblems',
    description:
      "The problems VS Code shows (errors, warnings, info and hints from language servers, linters and tasks' problem matchers), for one file or the whole workspace, errors first. Workspace-relative paths, 1-based lines and columns.",
    parametersSchema: {
      type: 'object',
      properties: {
        path: pathSchema('Only this file (relative to the workspace folder or absolute). Omit for every file.'),
        severity: {
          type: 'string',
          enum: SEVERITIES,
          description: 'Only this severity and worse (default: all).',
        },
        limit: { type: 'integer', minimum: 1, maximum: 500, description: 'Most problems to return (default 200).' },
      },
      additionalProperties: false,
    },
    handler: (a, ctx): ToolResult => {
      const folders = foldersOf(port, ctx);
      const file = typeof a.path === 'string' ? resolveInputPath(a.path, folders) : undefined;
      // A worktree session's "whole workspace" is its own folder (the window's problems are not its).
      const mine = (path: string) => !ctx.place || file !== undefined || isWithin(ctx.place.cwd, path);
      const worst = SEVERITIES.indexOf((a.severity as Severity | undefined) ?? 'hint');
      const all = port
        .diagnostics(file)
        .filter(({ path }) => mine(path))
        .flatMap(({ path, items }) =>
          items
            .filter((d) => SEVERITIES.indexOf(d.severity) <= worst)
            .map((d) => ({
              path: displayPath(path, folders),
              line: d.range.start.line + 1,
              column: d.range.start.character + 1,
              severity: d.severity,
              message: d.message,
              ...(d.source ? { source: d.source } : {}),
              ...(d.code !== undefined ? { code: d.code } : {}),
            })),
        )
        .sort(
          (x, y) =>
            SEVERITIES.indexOf(x.severity) - SEVERITIES.indexOf(y.severity) ||
            (x.path < y.path ? -1 : x.path > y.path ? 1 : 0) ||
            x.line - y.line,
        );
      const counts = Object.fromEntries(SEVERITIES.map((s) => [s, all.filter((d) => d.severity === s).length]));
      const json = bounded(all, (a.limit as number | undefined) ?? 200, (shown) => ({ counts, problems: shown }));
      return { content: [{ type: 'json', json }] };
    },
  };
}

export function workspaceToolGroup(ports: WorkspacePorts): ToolGroup {
  return {
    name: 'Workspace',
    description: "the workspace's tasks (build, test, …), uncommitted git changes and problems",
    tools: [runTaskTool(ports.tasks), gitChangesTool(ports.git), problemsTool(ports.diagnostics)],
  };
}
