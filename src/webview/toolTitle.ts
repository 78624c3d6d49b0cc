// Natural titles for tool calls. Claude Code (claude-code-acp, claude-agent-acp) titles its
// tools "Read /abs/path", "Edit `/abs/path`", "Terminal", the raw shell line, "Read File"…; the
// tool name is in `_meta.claudeCode.toolName` (sometimes `mcp__acp__Read`) or `name`. We show a
// verb and the workspace-relative subject, and keep the agent's title as the tooltip. The
// workspace folders come with the host's snapshot into the mirrored state; App provides them as
// RootsContext and the functions here take them as an argument.
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { clientCallOfMcpName, clientToolTitle, type ClientCallFacts } from '../shared/clientToolTitle';
import { commandLineOfInput } from '../shared/commandLine';
import type { ToolCallView } from '../shared/sessionModel';

export interface NiceTitle {
  verb: string;
  subject: string;
  detail?: string;
}

/** The workspace folders (the mirrored state's `workspaceRoots`), so paths show relative to them. */
export const RootsContext = createContext<readonly string[]>([]);
export const useRoots = (): readonly string[] => useContext(RootsContext);

const trim = (p: string) => p.replace(/[\\/]+$/, '');
const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);
const short = (s: string, n = 80) => (s.length > n ? s.slice(0, n - 1) + '…' : s);

/** `p` relative to the workspace folder it is in, else as it is. */
export function relativePath(p: string, roots: readonly string[]): string {
  for (const root of roots) {
    const r = trim(root);
    if (r && (p === r || p.startsWith(r + '/') || p.startsWith(r + '\\'))) return p.slice(r.length + 1) || p;
  }
  return p;
}

/** relativePath against RootsContext: a hook (call it while rendering, unconditionally). */
export const useRelPath = (p: string): string => relativePath(p, useRoots());

/** A folder as a row names it: relative to the workspace, and '' for a workspace folder itself. */
export function folderLabel(dir: string, roots: readonly string[]): string {
  const d = trim(dir) || dir;
  if (d === '.' || roots.some((r) => (trim(r) || r) === d)) return '';
  return relativePath(d, roots);
}

/** The folder a shell call says it runs in (its input's cwd, else its location), if it names one. */
export function commandFolder(
  call: ToolCallView,
  roots: readonly string[],
): { path: string; label: string } | undefined {
  if (call.kind !== 'execute') return undefined;
  const input = (call.rawInput && typeof call.rawInput === 'object' ? call.rawInput : {}) as Record<string, unknown>;
  const path =
    str(input.cwd) ?? str(input.workdir) ?? str(input.directory) ?? str(input.dir) ?? call.locations[0]?.path;
  return path === undefined ? undefined : { path, label: folderLabel(path, roots) };
}

/** " in src" for a search's folder; nothing for a workspace folder itself (the usual case). */
function inFolder(p: string | undefined, roots: readonly string[]): string {
  const r = p && relativePath(p, roots);
  return !r || roots.some((x) => trim(x) === trim(r)) ? '' : ` in ${r}`;
}

export function toolName(call: ToolCallView): string | undefined {
  const cc = (call.meta?.claudeCode as { toolName?: unknown } | undefined)?.toolName;
  const n = typeof cc === 'string' ? cc : call.name;
  return n?.replace(/^mcp__acp__/, '');
}

export function niceTitle(call: ToolCallView, roots: readonly string[]): NiceTitle {
  const input = (call.rawInput && typeof call.rawInput === 'object' ? call.rawInput : {}) as Record<string, unknown>;
  const path = str(input.file_path) ?? str(input.path) ?? str(input.notebook_path) ?? call.locations[0]?.path;
  const relative = (p: string) => relativePath(p, roots);
  const rel = path ? relative(path) : undefined;
  const name = toolName(call);
  const mcp = clientCallOfMcpName(name ?? call.title, call.rawInput);
  const client = clientToolMeta(call.meta?.tandem, relative) ?? (mcp && clientToolTitle(mcp, relative));
  if (client) return client;
  switch (name) {
    case 'Read': {
      const range = typeof input.offset === 'number' ? ` (from line ${input.offset})` : '';
      if (rel) return { verb: 'Read', subject: rel + range };
      break;
    }
    case 'Edit':
    case 'MultiEdit':
      if (rel) return { verb: 'Edit', subject: rel };
      break;
    case 'Write':
      if (rel) return { verb: 'Write', subject: rel };
      break;
    case 'NotebookEdit':
      if (rel) return { verb: 'Edit notebook', subject: rel };
      break;
    case 'Bash':
    case 'BashOutput': {
      const cmd = str(input.command);
      const desc = str(input.description);
      if (desc) return { verb: '', subject: desc, detail: cmd };
      if (cmd) return { verb: 'Run', subject: short(cmd, 120) };
      break;
    }
    case 'KillShell':
    case 'KillBash':
      return { verb: 'Stop', subject: 'background command' };
    case 'Glob': {
      const pat = str(input.pattern);
      if (pat) return { verb: 'Find files', subject: pat + inFolder(str(input.path), roots) };
      break;
    }
    case 'Grep': {
      const pat = str(input.pattern);
      if (pat)
        return {
          verb: 'Search',
          subject:
            `"${short(pat, 60)}"` + inFolder(str(input.path), roots) + (str(input.glob) ? ` (${input.glob})` : ''),
        };
      break;
    }
    case 'LS':
      if (rel) return { verb: 'List', subject: rel };
      break;
    case 'WebFetch': {
      const u = str(input.url);
      if (u) return { verb: 'Fetch', subject: u };
      break;
    }
    case 'WebSearch': {
      const q = str(input.query);
      if (q) return { verb: 'Web search', subject: `"${q}"` };
      break;
    }
    case 'Task':
    case 'Agent': {
      const d = str(input.description);
      const t = str(input.subagent_type);
      if (d) return { verb: t ? `Agent (${t})` : 'Agent', subject: d };
      break;
    }
    case 'TodoWrite':
      return { verb: 'Update', subject: 'plan' };
    case 'ExitPlanMode':
      return { verb: 'Ready to code', subject: '' };
    default:
    // Another agent's tool, or none named: titled from what it carries, below.
  }
  // codex-acp titles a command with the command itself ({command: [shell, "-lc", line]}).
  const argv = Array.isArray(input.command) ? input.command : undefined;
  if (call.kind === 'execute' && call.title && argv?.[argv.length - 1] === call.title)
    return { verb: 'Run', subject: short(call.title, 120) };
  if (call.kind === 'execute') return commandTitle(call, name);
  return { verb: '', subject: cleanTitle(call.title || name || 'Tool call', roots) };
}

/**
 * A shell call's title is (or holds) the command that ran: shown exactly, as the agent gave it —
 * only the code span claude-code-acp wraps it in is taken off. A bare tool name for a title
 * ("bash", "Shell": opencode, Kilo, Qwen Code) gives way to the command of the raw input.
 */
function commandTitle(call: ToolCallView, name: string | undefined): NiceTitle {
  const command = commandLineOfInput(call.rawInput);
  const inner = /^`[\s\S]+`$/.test(call.title) ? call.title.slice(1, -1) : undefined;
  const title = inner !== undefined && (!inner.includes('`') || inner === command) ? inner : call.title;
  if (command && !/\s/.test(title.trim())) return { verb: 'Run', subject: short(command, 120) };
  return { verb: '', subject: title || name || 'Tool call' };
}

/** A row of Tandem's client tools (`_meta.tandem`, on the agent's own row or on Tandem's). */
function clientToolMeta(t: unknown, relative: (p: string) => string): NiceTitle | undefined {
  const m = t as Partial<ClientCallFacts> | undefined;
  if (typeof m?.group !== 'string' || typeof m.tool !== 'string') return undefined;
  return clientToolTitle(
    { group: m.group, tool: m.tool, kind: m.kind, args: m.args && typeof m.args === 'object' ? m.args : undefined },
    relative,
  );
}

/** Backticks around paths dropped, absolute workspace paths made relative. */
export function cleanTitle(t: string, roots: readonly string[]): string {
  return t
    .replace(/`([^`]+)`/g, '$1')
    .replace(/(?:^|\s)(\/[^\s]+)/g, (m, p: string) => m.replace(p, relativePath(p, roots)));
}

export function titleText(call: ToolCallView, roots: readonly string[]): string {
  const t = niceTitle(call, roots);
  return t.verb ? `${t.verb} ${t.subject}`.trim() : t.subject;
}
