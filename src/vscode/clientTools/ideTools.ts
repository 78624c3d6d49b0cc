// The built-in IDE tool group: what an agent needs to work with the user's VS Code — open a file
// at a line, read the selection, show a notification, list the open editors. (The problems VS
// Code shows are the Workspace group's GetProblems: src/tools/workspace/workspaceTools.ts.)
// Executed by VS Code through the client tools registry (src/tools); starts collapsed.
import * as vscode from 'vscode';
import type { ToolCallContext, ToolGroup, ToolResult } from '../../tools/types';
import { textResult } from '../../tools/types';
import { displayPath, foldersOf, pathSchema, resolveInputPath } from '../../tools/workspace/workspacePaths';
import { uriOf, workspaceFolders } from './workspaceTools';

const MAX_SELECTION_CHARS = 100_000;

const windowFolders = { folders: workspaceFolders };

/** A path from a call (relative to the session's folder, absolute, or a URI) as a URI. */
export function resolvePath(p: string, ctx?: Pick<ToolCallContext, 'place'>): vscode.Uri {
  return uriOf(resolveInputPath(p, foldersOf(windowFolders, ctx)));
}

/** How results name a file: folder-relative, else absolute (src/tools/workspace/workspacePaths.ts). */
function display(uri: vscode.Uri, ctx?: Pick<ToolCallContext, 'place'>): string {
  return displayPath(uri.scheme === 'file' ? uri.fsPath : uri.toString(), foldersOf(windowFolders, ctx));
}

export function ideToolGroup(): ToolGroup {
  return {
    name: 'IDE',
    description:
      "VS Code interaction tools: open files at a line, read the user's selection, show notifications, list open editors",
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
            path: pathSchema('File path, relative to the workspace folder or absolute.'),
            line: { type: 'integer', minimum: 1, description: '1-based line to reveal and put the cursor on.' },
            column: { type: 'integer', minimum: 1, description: '1-based column on that line (default 1).' },
          },
          required: ['path'],
          additionalProperties: false,
        },
        handler: async (a, ctx): Promise<ToolResult> => {
          const uri = resolvePath(a.path as string, ctx);
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
            `Opened ${display(uri, ctx)}${a.line !== undefined ? ` at line ${line + 1}` : ''} (${doc.lineCount} lines).`,
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
    ],
  };
}
