// How a call of Tandem's client tools is titled, on the host (Tandem's own row, the permission
// prompt) and in the view (any row carrying `_meta.tandem`): "IDE · OpenFile src/a.ts:3".

export interface ClientCallFacts {
  group: string;
  tool: string;
  kind?: unknown;
  args?: Record<string, unknown>;
}

/** The verb ("IDE · OpenFile") and subject ("src/a.ts:3"); `rel` shortens a path for display. */
export function clientToolTitle(
  c: ClientCallFacts,
  rel: (path: string) => string = (p) => p,
): { verb: string; subject: string } {
  if (c.kind === 'container') return { verb: `${c.group} ·`, subject: 'expand group' };
  if (c.kind === 'skill') return { verb: `${c.group} ·`, subject: `skill ${c.tool}` };
  const a = c.args ?? {};
  // What the call is about: a file, a message, a task's name (RunTask), a search (WorkspaceSymbols).
  const first = [a.path, a.message, a.uri, a.name, a.query].find((v): v is string => typeof v === 'string' && v !== '');
  if (!first) return { verb: `${c.group} · ${c.tool}`, subject: '' };
  const s = rel(first);
  return {
    verb: `${c.group} · ${c.tool}`,
    subject: `${s.length > 60 ? `${s.slice(0, 59)}…` : s}${typeof a.line === 'number' ? `:${a.line}` : ''}`,
  };
}

/**
 * The groups Tandem ships and their tools (src/tools/code, src/tools/workspace,
 * src/vscode/clientTools/ideTools.ts): before Tandem has seen a call, its MCP name says which of
 * these it is, since no two tools or groups share a name. Other groups' tools do not say theirs.
 */
export const BUILT_IN_GROUPS: Readonly<Record<string, readonly string[]>> = {
  IDE: ['OpenFile', 'GetSelection', 'ShowMessage', 'GetOpenEditors'],
  Code: [
    'GoToDefinition',
    'FindReferences',
    'DocumentSymbols',
    'WorkspaceSymbols',
    'TypeInfo',
    'CallHierarchy',
    'Rename',
    'QuickFixes',
  ],
  Workspace: ['RunTask', 'GetGitChanges', 'GetProblems'],
};

/**
 * A call of Tandem's MCP server as the agent reports it before Tandem has seen the call (Claude
 * names it `mcp__tandem__<tool>`, and asks permission first in its default mode; codex-acp titles
 * it `mcp.tandem.<tool>` and wraps the input as `{server: "tandem", tool, arguments}`), in the words
 * Tandem's own row for it will use. Through a group's container the input is `{function,
 * arguments}`, which names both; a shipped group's container is "Code · expand group", a shipped
 * tool is in its group; any other tool called directly does not say its group: "Tandem · OpenFile".
 */
export function clientCallOfMcpName(name: string, input: unknown): ClientCallFacts | undefined {
  const raw = (input && typeof input === 'object' ? input : {}) as Record<string, unknown>;
  const wrapped = raw.server === 'tandem' && typeof raw.tool === 'string';
  const tool = wrapped ? (raw.tool as string) : /^mcp__tandem__(.+)$/.exec(name)?.[1];
  if (!tool) return undefined;
  const a = wrapped ? objectOr(raw.arguments) : raw;
  const args = objectOr(a.arguments);
  if (typeof a.function === 'string') return { group: tool, tool: a.function, args };
  if (Object.hasOwn(BUILT_IN_GROUPS, tool)) return { group: tool, tool, kind: 'container', args: {} };
  const group = Object.keys(BUILT_IN_GROUPS).find((g) => BUILT_IN_GROUPS[g].includes(tool));
  return { group: group ?? 'Tandem', tool, args: a };
}

const objectOr = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/**
 * What a call would do, in words, for the tools whose arguments say it (`code` spans in
 * backticks): Rename says what it renames to what. Undefined for the others ("Call …" then).
 */
export function clientCallQuestion(c: ClientCallFacts, rel: (path: string) => string = (p) => p): string | undefined {
  const a = c.args ?? {};
  if (c.kind === 'container' || c.kind === 'skill' || c.tool !== 'Rename' || typeof a.newName !== 'string')
    return undefined;
  const line = typeof a.line === 'number' ? `:${a.line}` : '';
  const place = typeof a.path === 'string' ? `${rel(a.path)}${line}` : '';
  const named = typeof a.symbol === 'string' && a.symbol !== '';
  const column = !named && line && typeof a.column === 'number' ? `:${a.column}` : '';
  const what = named
    ? `\`${a.symbol}\`${place && ` in \`${place}\``}`
    : `the symbol${place && ` at \`${place}${column}\``}`;
  return `Rename ${what} to \`${a.newName}\``;
}

/** The same as one line of text. */
export function clientToolTitleText(c: ClientCallFacts): string {
  const t = clientToolTitle(c);
  return t.subject ? `${t.verb} ${t.subject}` : t.verb;
}
