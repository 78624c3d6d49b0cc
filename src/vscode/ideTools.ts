// The built-in IDE tool group: what an agent needs to work with the user's VS Code — open a file
// at a line, read the selection, show a notification, list the open editors, read diagnostics.
// Executed by VS Code through the client tools registry (src/tools); starts collapsed.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ToolGroup, ToolResult } from '../tools/types';
import { textResult } from '../tools/types';

const MAX_DIAGNOSTICS = 200;
const MAX_SELECTION_CHARS = 100_000;

function workspaceRoot(): vscode.Uri | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri;
}

/** Relative paths resolve against the first workspace folder; `file:` URIs and absolute paths as given. */
export function resolvePath(p: string): vscode.Uri {
  if (/^[a-zA-Z][\w+.-]+:\/\//.test(p)) return vscode.Uri.parse(p, true);
  if (path.isAbsolute(p)) return vscode.Uri.file(p);
  const root = workspaceRoot();
  if (!root) throw new Error(`"${p}" is relative and no workspace folder is open; pass an absolute path.`);
  return vscode.Uri.joinPath(root, ...p.split(/[\\/]+/).filter(Boolean));
}

/** Workspace-relative path when inside the workspace, else the absolute path. */
function display(uri: vscode.Uri): string {
  const rel = vscode.workspace.asRelativePath(uri, false);
  return uri.scheme === 'file' ? rel : uri.toString();
}

const SEVERITY: Record<number, 'error' | 'warning' | 'info' | 'hint'> = {
  0: 'error',
  1: 'warning',
  2: 'info',
  3: 'hint',
};

export function ideToolGroup(): ToolGroup {
  return {
    name: 'IDE',
    description:
      "VS Code interaction tools: open files at a line, read the user's selection, show notifications, list open editors, read diagnostics",
    systemPrompt:
      'These tools act in the user\'s VS Code window. Use ShowMessage only for things the user must notice; use GetSelection when the user refers to "this" or "the selected code".',
    tools: [
      {
        name: 'OpenFile',
        description:
          "Open a file in the user's VS Code editor and reveal it, optionally at a 1-based line (and column). Relative paths resolve against the workspace folder. Use it to show the user the code you are talking about.",
        parametersSchema: {
          type: 'object',
          properties: {
            path: {
              type: 'string',
              minLength: 1,
              description: 'File path, relative to the workspace folder or absolute.',
            },
            line: { type: 'integer', minimum: 1, description: '1-based line to reveal and put the cursor on.' },
            column: { type: 'integer', minimum: 1, description: '1-based column on that line (default 1).' },
          },
          required: ['path'],
          additionalProperties: false,
        },
        handler: async (a): Promise<ToolResult> => {
          const uri = resolvePath(a.path as string);
          let doc: vscode.TextDocument;
          try {
            doc = await vscode.workspace.openTextDocument(uri);
          } catch (err) {
            return textResult(`Could not open ${a.path}: ${err instanceof Error ? err.message : String(err)}`, true);
          }
          const line = Math.min(Math.max(1, (a.line as number | undefined) ?? 1), doc.lineCount) - 1;
          const col = Math.max(1, (a.column as number | undefined) ?? 1) - 1;
          const pos = new vscode.Position(line, Math.min(col, doc.lineAt(line).text.length));
          await vscode.window.showTextDocument(doc, {
            selection: new vscode.Range(pos, pos),
            preview: false,
            preserveFocus: false,
          });
          return textResult(
            `Opened ${display(uri)}${a.line !== undefined ? ` at line ${line + 1}` : ''} (${doc.lineCount} lines).`,
          );
        },
      },
      {
        name: 'GetSelection',
        description:
          'Get the user\'s current selection in the active VS Code editor: file path, 1-based start/end line and column, and the selected text (empty when nothing is selected; then the cursor position). Answers "No active editor." when no text editor is focused.',
        parametersSchema: { type: 'object', properties: {}, additionalProperties: false },
        handler: (): ToolResult | string => {
          const ed = vscode.window.activeTextEditor;
          if (!ed) return 'No active editor.';
          const s = ed.selection;
          let text = ed.document.getText(s);
          const truncated = text.length > MAX_SELECTION_CHARS;
          if (truncated) text = text.slice(0, MAX_SELECTION_CHARS);
          return {
            content: [
              {
                type: 'json',
                json: {
                  path: display(ed.document.uri),
                  absolutePath: ed.document.uri.scheme === 'file' ? ed.document.uri.fsPath : undefined,
                  languageId: ed.document.languageId,
                  start: { line: s.start.line + 1, column: s.start.character + 1 },
                  end: { line: s.end.line + 1, column: s.end.character + 1 },
                  isEmpty: s.isEmpty,
                  text,
                  ...(truncated ? { truncated: true } : {}),
                },
              },
            ],
          };
        },
      },
      {
        name: 'ShowMessage',
        description:
          'Show a notification to the user in VS Code. Severity: "info" (default), "warning" or "error". Returns at once; it does not wait for the user.',
        parametersSchema: {
          type: 'object',
          properties: {
            message: { type: 'string', minLength: 1, maxLength: 2000, description: 'The text of the notification.' },
            severity: {
              type: 'string',
              enum: ['info', 'warning', 'error'],
              description: 'How prominent the notification is (default info).',
            },
          },
          required: ['message'],
          additionalProperties: false,
        },
        handler: (a) => {
          const m = a.message as string;
          const sev = (a.severity as string | undefined) ?? 'info';
          void (sev === 'error'
            ? vscode.window.showErrorMessage(m)
            : sev === 'warning'
              ? vscode.window.showWarningMessage(m)
              : vscode.window.showInformationMessage(m));
          return `Shown to the user (${sev}).`;
        },
      },
      {
        name: 'GetOpenEditors',
        description:
          'List the editor tabs open in VS Code: path, whether it is the active tab, has unsaved changes (dirty), is pinned, and its editor group (1-based).',
        parametersSchema: { type: 'object', properties: {}, additionalProperties: false },
        handler: (): ToolResult => {
          const tabs = vscode.window.tabGroups.all.flatMap((g, gi) =>
            g.tabs.map((t) => {
              const input = t.input;
              const uri =
                input instanceof vscode.TabInputText
                  ? input.uri
                  : input instanceof vscode.TabInputTextDiff
                    ? input.modified
                    : undefined;
              return {
                label: t.label,
                path: uri ? display(uri) : undefined,
                active: t.isActive && g.isActive,
                dirty: t.isDirty,
                pinned: t.isPinned,
                group: gi + 1,
                diff: input instanceof vscode.TabInputTextDiff || undefined,
              };
            }),
          );
          return { content: [{ type: 'json', json: tabs }] };
        },
      },
      {
        name: 'GetDiagnostics',
        description: `Get the problems (errors, warnings, info, hints from language servers and linters) VS Code shows, for one file or, without path, for the whole workspace (at most ${MAX_DIAGNOSTICS}, errors first). Lines and columns are 1-based.`,
        parametersSchema: {
          type: 'object',
          properties: {
            path: {
              type: 'string',
              minLength: 1,
              description: 'File path (relative to the workspace folder or absolute). Omit for all files.',
            },
            severity: {
              type: 'string',
              enum: ['error', 'warning', 'info', 'hint'],
              description: 'Only this severity and worse (default: all).',
            },
          },
          additionalProperties: false,
        },
        handler: (a): ToolResult => {
          const entries: Array<[vscode.Uri, readonly vscode.Diagnostic[]]> = a.path
            ? [[resolvePath(a.path as string), vscode.languages.getDiagnostics(resolvePath(a.path as string))]]
            : vscode.languages.getDiagnostics();
          const max = a.severity ? ['error', 'warning', 'info', 'hint'].indexOf(a.severity as string) : 3;
          const all = entries.flatMap(([uri, ds]) =>
            ds
              .filter((d) => d.severity <= max)
              .map((d) => ({
                path: display(uri),
                line: d.range.start.line + 1,
                column: d.range.start.character + 1,
                severity: SEVERITY[d.severity],
                message: d.message,
                source: d.source,
                code: typeof d.code === 'object' ? String(d.code.value) : d.code,
              })),
          );
          all.sort(
            (x, y) =>
              ['error', 'warning', 'info', 'hint'].indexOf(x.severity) -
              ['error', 'warning', 'info', 'hint'].indexOf(y.severity),
          );
          const shown = all.slice(0, MAX_DIAGNOSTICS);
          return {
            content: [
              {
                type: 'json',
                json: {
                  count: all.length,
                  diagnostics: shown,
                  ...(all.length > shown.length ? { truncated: true } : {}),
                },
              },
            ],
          };
        },
      },
    ],
  };
}
