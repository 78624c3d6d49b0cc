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
 * A call of Tandem's MCP server as the agent reports it before Tandem has seen the call (Claude
 * names it `mcp__tandem__<tool>`, and asks permission first in its Manual mode). Through a group's
 * container the input is `{function, arguments}`, which names both; a tool called directly does
 * not say its group, so it reads "Tandem · OpenFile".
 */
export function clientCallOfMcpName(name: string, input: unknown): ClientCallFacts | undefined {
  const m = /^mcp__tandem__(.+)$/.exec(name);
  if (!m) return undefined;
  const a = (input && typeof input === 'object' ? input : {}) as Record<string, unknown>;
  const args = a.arguments && typeof a.arguments === 'object' ? (a.arguments as Record<string, unknown>) : {};
  return typeof a.function === 'string'
    ? { group: m[1], tool: a.function, args }
    : { group: 'Tandem', tool: m[1], args: a };
}

/** The same as one line of text. */
export function clientToolTitleText(c: ClientCallFacts): string {
  const t = clientToolTitle(c);
  return t.subject ? `${t.verb} ${t.subject}` : t.verb;
}
