// The `Code` client tool group: the IDE's own knowledge for any agent — where a symbol is
// defined, who references or calls it, what type it has, the symbols of a file or the
// workspace, rename, quick fixes — asked of whatever language extensions the user has installed,
// through CodePort. Results name files workspace-relative with 1-based lines and columns, are
// bounded in size (and say so when cut), and say plainly when no language support is installed
// for a file. A file outside the workspace is opened only when the user allows it, and the line
// text of such a file is never shown (codeAccess.ts). Pure: no vscode.
import { gateOf } from './codeAccess';
import { bounded, byPlace, clipText, shownLocation, uniqueLocations, type PortLocation } from './codeShape';
import type { CodePort, PortCall, PortSymbol } from './codePort';
import { quickFixesTool, renameTool } from './codeEditTools';
import { count, outlineRow, placesRow } from './codeRows';
import {
  POSITION_PROPS,
  at,
  documentOf,
  limitProp,
  noSupport,
  positionSchema,
  targetOf,
  type Target,
} from './codeTarget';
import type { Tool, ToolCallContext, ToolGroup, ToolResult } from '../types';
import { displayPath, foldersOf } from '../workspace/workspacePaths';
import { isWithin } from '../../client/files/realPath';

const MAX_HOVER_CHARS = 8_000;
/** Previews (line text) are read for at most this many locations per answer. */
const MAX_PREVIEWS = 100;
/**
 * Locations with the text of their line (inside the workspace only), sorted, deduplicated,
 * bounded; the row lists them as `path:line  text` under how many there are (`noun`: "reference").
 */
async function locationsResult(
  port: CodePort,
  ctx: ToolCallContext,
  what: { key: string; noun: string },
  locs: PortLocation[],
  limit: number,
  extra: Record<string, unknown>,
): Promise<ToolResult> {
  const sorted = uniqueLocations(locs).sort(byPlace);
  const folders = foldersOf(port, ctx);
  const head = sorted.slice(0, Math.min(limit, MAX_PREVIEWS));
  // A definition in a library outside the workspace is named, not quoted: reading it would need the user's yes.
  const texts = await Promise.all(
    head.map(async (l) =>
      (await gateOf(port).inside(l.path ?? l.uri, ctx)) ? port.lineText(l).catch(() => undefined) : undefined,
    ),
  );
  const shown = sorted.map((l, i) => shownLocation(l, folders, texts[i]));
  const files = new Set(shown.map((s) => s.path)).size;
  const json = bounded(shown, limit, (s) => ({ ...extra, files, [what.key]: s }));
  const places = shown
    .slice(0, json.shown)
    .map((s, i) => ({ shown: s.path, path: sorted[i].path, line: s.line, text: s.text }));
  const title = `${count(json.total, what.noun)}${files > 1 ? ` in ${count(files, 'file')}` : ''}`;
  return { content: [{ type: 'json', json }], row: placesRow(title, places, json.total) };
}

function flattenSymbols(symbols: readonly PortSymbol[], container?: string): PortSymbol[] {
  const out: PortSymbol[] = [];
  for (const s of symbols) {
    out.push({ ...s, containerName: s.containerName ?? container, children: undefined });
    if (s.children?.length) out.push(...flattenSymbols(s.children, s.name));
  }
  return out;
}

function callsResult(
  port: CodePort,
  ctx: ToolCallContext,
  t: Target,
  call: { name: string; direction: string; limit: number },
  calls: PortCall[],
) {
  const { name, direction, limit } = call;
  const folders = foldersOf(port, ctx);
  const rows = calls.map((c) => ({
    name: c.item.name,
    kind: c.item.kind,
    ...(c.item.detail ? { detail: c.item.detail } : {}),
    ...shownLocation(c.item.location, folders),
    // Call sites are in the caller's file (incoming) or in the item's own file (outgoing).
    callSites: c.ranges.map((r) => ({ line: r.start.line + 1, column: r.start.character + 1 })),
  }));
  const json = bounded(rows, limit, (s) => ({ function: name, at: at(t), direction, calls: s }));
  const places = calls.slice(0, json.shown).map((c, i) => ({
    shown: rows[i].path,
    path: c.item.location.path,
    line: rows[i].line,
    text: `${c.item.name}${c.ranges.length > 1 ? `  (${c.ranges.length} calls)` : ''}`,
  }));
  const head =
    direction === 'incoming'
      ? `${count(json.total, 'caller')} of ${name}`
      : `${name} calls ${count(json.total, 'function')}`;
  return { content: [{ type: 'json' as const, json }], row: placesRow(head, places, json.total) };
}

/** A tool that answers a position with locations (definitions, references). */
function locationsTool(
  port: CodePort,
  o: {
    name: string;
    description: string;
    key: string;
    /** What one result is, for the row: "definition", "reference". */
    noun: string;
    limit: number;
    ask(t: Target): Promise<PortLocation[]>;
    none: string;
  },
): Tool {
  return {
    name: o.name,
    description: o.description,
    parametersSchema: positionSchema({ limit: limitProp(o.limit) }),
    handler: async (a, ctx) => {
      const t = await targetOf(port, a, ctx);
      const locs = await o.ask(t);
      if (!locs.length) return noSupport(port, o.name, t) ?? `${o.none} for the symbol at ${at(t)}.`;
      return locationsResult(port, ctx, o, locs, (a.limit as number) ?? o.limit, { at: at(t) });
    },
  };
}

export function codeToolGroup(port: CodePort): ToolGroup {
  const tools: Tool[] = [
    locationsTool(port, {
      name: 'GoToDefinition',
      description:
        "Where the symbol at a position is defined, asked of VS Code's language features (any language the user has an extension for). Give the file, the 1-based line and the column or the symbol's name on that line. Returns workspace-relative paths, 1-based lines/columns and each line's text.",
      key: 'definitions',
      noun: 'definition',
      limit: 20,
      ask: (t) => port.definitions(t.doc, t.pos),
      none: 'No definition found',
    }),
    locationsTool(port, {
      name: 'FindReferences',
      description:
        'Every reference to the symbol at a position across the workspace (the declaration included), from the language features. Paths are workspace-relative, lines and columns 1-based, each with its line text; sorted by file and line; bounded by "limit".',
      key: 'references',
      noun: 'reference',
      limit: 100,
      ask: (t) => port.references(t.doc, t.pos),
      none: 'No references found',
    }),
    {
      name: 'DocumentSymbols',
      description:
        'The outline of a file: its classes, functions, methods, variables… with kind, 1-based line range and containing symbol, in document order.',
      parametersSchema: {
        type: 'object',
        properties: { path: POSITION_PROPS.path, limit: limitProp(200) },
        required: ['path'],
        additionalProperties: false,
      },
      handler: async (a, ctx) => {
        const d = await documentOf(port, a.path as string, ctx);
        const symbols = flattenSymbols(await port.documentSymbols(d.doc));
        if (!symbols.length) return noSupport(port, 'DocumentSymbols', d) ?? `${d.shown} has no symbols.`;
        const rows = symbols.map((s) => ({
          name: s.name,
          kind: s.kind,
          ...(s.detail ? { detail: s.detail } : {}),
          ...(s.containerName ? { container: s.containerName } : {}),
          line: s.location.range.start.line + 1,
          endLine: s.location.range.end.line + 1,
        }));
        const json = bounded(rows, (a.limit as number) ?? 200, (s) => ({ path: d.shown, symbols: s }));
        return {
          content: [{ type: 'json', json }],
          row: outlineRow(d.shown, d.doc.path, rows.slice(0, json.shown), json.total),
        };
      },
    },
    {
      name: 'WorkspaceSymbols',
      description:
        'Search the symbols (types, functions, …) of the whole workspace by name, fuzzy, as Go to Symbol in Workspace does. Returns name, kind, container, workspace-relative path and 1-based line/column.',
      parametersSchema: {
        type: 'object',
        properties: {
          query: { type: 'string', minLength: 1, description: 'Part of the symbol name.' },
          limit: limitProp(100),
        },
        required: ['query'],
        additionalProperties: false,
      },
      handler: async (a, ctx) => {
        const folders = foldersOf(port, ctx);
        const all = await port.workspaceSymbols(a.query as string);
        // Language servers index the window's workspace: a worktree session sees its own files only.
        const found = ctx.place ? all.filter((s) => isWithin(ctx.place!.cwd, s.location.path ?? '')) : all;
        if (!found.length && ctx.place)
          return `No symbol of this session's worktree matches "${a.query}": language servers index the workspace VS Code has open, so the worktree's symbols appear only for its files that are open or that a language server loaded.`;
        if (!found.length)
          return `No workspace symbol matches "${a.query}" (language servers index the workspace only for languages with an extension installed; some answer only once a file of theirs is open).`;
        const rows = found.map((s) => ({
          name: s.name,
          kind: s.kind,
          ...(s.containerName ? { container: s.containerName } : {}),
          path: displayPath(s.location.path ?? s.location.uri, folders),
          line: s.location.range.start.line + 1,
          column: s.location.range.start.character + 1,
        }));
        const json = bounded(rows, (a.limit as number) ?? 100, (s) => ({ query: a.query, symbols: s }));
        const places = rows.slice(0, json.shown).map((r, i) => ({
          shown: r.path,
          path: found[i].location.path,
          line: r.line,
          text: `${r.container ? `${r.container} › ` : ''}${r.name}  ${r.kind}`,
        }));
        const head = `${count(json.total, 'symbol')} matching "${a.query as string}"`;
        return { content: [{ type: 'json', json }], row: placesRow(head, places, json.total) };
      },
    },
    {
      name: 'TypeInfo',
      description:
        'The type and documentation of the symbol at a position: the hover text VS Code shows (signature, inferred type, doc comment), as markdown.',
      parametersSchema: positionSchema(),
      handler: async (a, ctx) => {
        const t = await targetOf(port, a, ctx);
        const parts = (await port.hover(t.doc, t.pos)).map((p) => p.trim()).filter(Boolean);
        if (!parts.length) return noSupport(port, 'TypeInfo', t) ?? `No type information at ${at(t)}.`;
        const c = clipText(parts.join('\n\n---\n\n'), MAX_HOVER_CHARS);
        return `${at(t)}\n\n${c.text}${c.truncated ? `\n\n(${c.truncated})` : ''}`;
      },
    },
    {
      name: 'CallHierarchy',
      description:
        'Who calls the function at a position (incoming, the default) or what it calls (outgoing), one level deep, with the call sites. Call again on a result to go further.',
      parametersSchema: positionSchema({
        direction: { type: 'string', enum: ['incoming', 'outgoing'], description: 'Default incoming (its callers).' },
        limit: limitProp(100),
      }),
      handler: async (a, ctx) => {
        const t = await targetOf(port, a, ctx);
        const items = await port.prepareCallHierarchy(t.doc, t.pos);
        if (!items.length)
          return (
            noSupport(port, 'CallHierarchy', t) ??
            `No function or method at ${at(t)} (or its language extension has no call hierarchy).`
          );
        const direction = (a.direction as 'incoming' | 'outgoing' | undefined) ?? 'incoming';
        const calls = await port.calls(items[0], direction);
        return callsResult(port, ctx, t, { name: items[0].name, direction, limit: (a.limit as number) ?? 100 }, calls);
      },
    },
    renameTool(port),
    quickFixesTool(port),
  ];
  return {
    name: 'Code',
    description:
      "the IDE's language intelligence: definitions, references, symbols, types, call hierarchy, rename and quick fixes, from the user's installed language extensions",
    systemPrompt:
      'Prefer these over text search for code navigation: they follow imports and types like the IDE does. Positions are 1-based; give "symbol" when you do not know the column.',
    tools,
  };
}
