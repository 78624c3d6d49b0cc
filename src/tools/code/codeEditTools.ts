// The Code group's tools that change files: Rename (the language extension's rename, applied as
// one undoable edit) and QuickFixes (lists the code actions for lines; applying one asks first).
// Every change goes through CodePort.applyEdit, which records it for Review Changes; an edit that
// reaches a file outside the workspace asks first, as fs/write_text_file does (codeAccess.ts).
// Rename asks once it knows the edit, so its one question can say what it changes: "Rename `area`
// to `surface`: 7 edits in 3 files" (asking before the call could only say where it points). Pure.
import { gateOf } from './codeAccess';
import { count } from './codeRows';
import type { Span } from './codeShape';
import type { CodePort, PortCodeAction, PortEdit } from './codePort';
import { POSITION_PROPS, at, documentOf, noSupport, positionSchema, targetOf, type Target } from './codeTarget';
import { textResult, type Tool, type ToolCallContext, type ToolResult } from '../types';
import { displayPath, foldersOf } from '../workspace/workspacePaths';

const IDENT = /[\p{L}\p{N}_$]/u;

/** The identifier the position is on (for messages). */
function wordAt(t: Target): string {
  const line = t.doc.lineAt(t.pos.line);
  let s = t.pos.character;
  let e = t.pos.character;
  while (s > 0 && IDENT.test(line[s - 1])) s--;
  while (e < line.length && IDENT.test(line[e])) e++;
  return line.slice(s, e);
}

function editedFiles(port: CodePort, edit: PortEdit, ctx: ToolCallContext) {
  const folders = foldersOf(port, ctx);
  return edit.files.map((f) => ({ path: displayPath(f.path ?? f.uri, folders), edits: f.edits }));
}

/** Undefined when the edit may be applied; else why not (a file outside the workspace the user did not allow). */
async function refusedEdit(port: CodePort, edit: PortEdit, ctx: ToolCallContext): Promise<string | undefined> {
  const folders = foldersOf(port, ctx);
  try {
    for (const f of edit.files)
      await gateOf(port).allow(f.path ?? f.uri, displayPath(f.path ?? f.uri, folders), ctx, 'write');
    return undefined;
  } catch (err) {
    return `${err instanceof Error ? err.message : String(err)} Nothing was changed.`;
  }
}

const UNDO_NOTE =
  'Applied as one edit: Undo in VS Code reverts all of it, and Tandem: Review Changes lists the files. Files that had no unsaved changes were saved.';

export function renameTool(port: CodePort): Tool {
  return {
    name: 'Rename',
    description:
      "Rename the symbol at a position everywhere it is used, with the language extension's rename (references, imports, other files), not text replace. Asks the user first, saying how many edits in how many files. " +
      UNDO_NOTE,
    parametersSchema: positionSchema(
      { newName: { type: 'string', minLength: 1, maxLength: 256, description: 'The new name.' } },
      ['newName'],
    ),
    handler: async (a, ctx): Promise<ToolResult> => {
      const t = await targetOf(port, a, ctx);
      const from = wordAt(t);
      const to = a.newName as string;
      let edit: PortEdit | undefined;
      try {
        edit = await port.rename(t.doc, t.pos, to);
      } catch (err) {
        return textResult(`Cannot rename at ${at(t)}: ${err instanceof Error ? err.message : String(err)}`, true);
      }
      if (!edit?.files.length)
        return (
          noSupport(port, 'Rename', t) ??
          textResult(`Nothing to rename at ${at(t)}: the language extension offers no rename there.`, true)
        );
      const files = editedFiles(port, edit, ctx);
      const edits = files.reduce((n, f) => n + f.edits, 0);
      const what = `${from ? `\`${from}\`` : `the symbol at ${at(t)}`} to \`${to}\`: ${count(edits, 'edit')} in ${count(files.length, 'file')}`;
      const answer = await ctx.confirm?.({
        text: `Rename ${what}`,
        paths: edit.files.flatMap((f) => (f.path ? [f.path] : [])),
      });
      if (answer !== 'allow')
        return textResult(
          answer === undefined
            ? "Tool Rename requires the user's permission, and no permission prompt is available."
            : answer === 'deny'
              ? 'The user denied permission to run Rename.'
              : 'The permission request for Rename was cancelled.',
          true,
        );
      const refused = await refusedEdit(port, edit, ctx);
      if (refused) return textResult(refused, true);
      if (!(await port.applyEdit(edit, ctx.sessionId)))
        return textResult(
          'VS Code did not apply the rename (a file may have changed meanwhile); nothing was changed.',
          true,
        );
      const perFile = files.map((f) => `${f.path}  ${count(f.edits, 'edit')}`);
      return {
        content: [{ type: 'json', json: { renamed: { from, to }, at: at(t), edits, files, note: UNDO_NOTE } }],
        row: {
          text: [`Renamed ${what.replace(/`/g, '')}`, ...perFile].join('\n'),
          locations: edit.files.flatMap((f) => (f.path ? [{ path: f.path }] : [])),
        },
      };
    },
  };
}

function describeAction(x: PortCodeAction) {
  return {
    title: x.title,
    ...(x.kind ? { kind: x.kind } : {}),
    ...(x.isPreferred ? { preferred: true } : {}),
    ...(x.disabled ? { disabled: x.disabled } : {}),
    ...(x.diagnostics.length ? { fixes: x.diagnostics } : {}),
  };
}

export function quickFixesTool(port: CodePort): Tool {
  return {
    name: 'QuickFixes',
    description:
      'The quick fixes and refactorings VS Code offers for lines of a file (the light bulb: add a missing import, fix a spelling, extract…), with the problems each one fixes. Pass "apply" with the exact title of one to apply it: that asks the user first. ' +
      UNDO_NOTE,
    parametersSchema: {
      type: 'object',
      properties: {
        path: POSITION_PROPS.path,
        line: { type: 'integer', minimum: 1, description: '1-based first line of the range.' },
        endLine: { type: 'integer', minimum: 1, description: '1-based last line of the range (default: line).' },
        kind: {
          type: 'string',
          minLength: 1,
          description: 'Only actions of this kind or below it: "quickfix", "refactor", "source", "refactor.extract", …',
        },
        apply: { type: 'string', minLength: 1, description: 'The title of the action to apply, exactly as listed.' },
      },
      required: ['path', 'line'],
      additionalProperties: false,
    },
    requiresPermission: (a) => typeof a.apply === 'string',
    handler: async (a, ctx): Promise<ToolResult | string> => {
      const d = await documentOf(port, a.path as string, ctx);
      const first = a.line as number;
      const last = (a.endLine as number | undefined) ?? first;
      if (last < first) return textResult(`endLine ${last} is before line ${first}.`, true);
      if (last > d.doc.lineCount)
        return textResult(`Line ${last} is past the end of ${d.shown} (${d.doc.lineCount} lines).`, true);
      const range: Span = {
        start: { line: first - 1, character: 0 },
        end: { line: last - 1, character: d.doc.lineAt(last - 1).length },
      };
      const lines = first === last ? `line ${first}` : `lines ${first}–${last}`;
      const actions = await port.codeActions(d.doc, range, a.kind as string | undefined);
      if (typeof a.apply !== 'string') {
        if (!actions.length)
          return noSupport(port, 'QuickFixes', d) ?? `No quick fixes or refactorings for ${lines} of ${d.shown}.`;
        return { content: [{ type: 'json', json: { path: d.shown, lines, actions: actions.map(describeAction) } }] };
      }
      const chosen = actions.find((x) => x.title === a.apply);
      if (!chosen)
        return textResult(
          `No action titled ${JSON.stringify(a.apply)} for ${lines} of ${d.shown}. Offered now: ${
            actions.map((x) => JSON.stringify(x.title)).join(', ') || 'none'
          }.`,
          true,
        );
      if (chosen.disabled) return textResult(`"${chosen.title}" cannot be applied now: ${chosen.disabled}`, true);
      const refused = chosen.edit && (await refusedEdit(port, chosen.edit, ctx));
      if (refused) return textResult(refused, true);
      if (chosen.edit && !(await port.applyEdit(chosen.edit, ctx.sessionId)))
        return textResult(`VS Code did not apply "${chosen.title}"; nothing was changed.`, true);
      if (chosen.command) await port.runCommand(chosen);
      return {
        content: [
          {
            type: 'json',
            json: {
              applied: chosen.title,
              files: chosen.edit ? editedFiles(port, chosen.edit, ctx) : [],
              ...(chosen.command ? { ranCommand: chosen.command } : {}),
              note: chosen.edit ? UNDO_NOTE : 'The action ran a command; its changes are not in Review Changes.',
            },
          },
        ],
      };
    },
  };
}
