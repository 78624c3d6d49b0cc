// What agents put in a tool call's `_meta` that the store reads: agent-side terminal streaming
// (claude-agent-acp, codex-acp: `terminal_info`, `terminal_output` or `terminal_output_delta`,
// `terminal_exit`) and the
// Agent call a subagent's call belongs to (claude-agent-acp: `claudeCode.parentToolUseId`).

type Meta = Record<string, unknown>;

const TERMINAL_META: readonly string[] = ['terminal_info', 'terminal_output', 'terminal_output_delta', 'terminal_exit'];

export function hasTerminalMeta(meta: Meta): boolean {
  return TERMINAL_META.some((k) => k in meta);
}

/** The rest of the `_meta` (kept on the call), or undefined when nothing is left. */
export function withoutTerminalMeta(meta: Meta): Meta | undefined {
  const rest = Object.fromEntries(Object.entries(meta).filter(([k]) => !TERMINAL_META.includes(k)));
  return Object.keys(rest).length ? rest : undefined;
}

export function terminalIdOf(meta: Meta): string | undefined {
  for (const k of TERMINAL_META) {
    const v = meta[k] as { terminal_id?: unknown } | undefined;
    if (v && typeof v.terminal_id === 'string') return v.terminal_id;
  }
  return undefined;
}

export function parentToolUseIdOf(meta: Meta | undefined): string | undefined {
  const id = (meta?.claudeCode as { parentToolUseId?: unknown } | undefined)?.parentToolUseId;
  return typeof id === 'string' && id ? id : undefined;
}
