// What a permission decision looks at, pulled out of a tool call as agents really send it:
// claude-code-acp puts kind and _meta.claudeCode.toolName on the earlier tool_call and sends the
// request with only title + rawInput; gemini-cli sends a request with no prior tool_call and no
// rawInput. So the request's toolCall is merged over what the session already knows.
import * as nodePath from 'node:path';
import type { ToolCallUpdate, ToolKind } from '@agentclientprotocol/sdk';

export interface CallFacts {
  toolCallId: string;
  kind?: ToolKind;
  title: string;
  /** Tool name: a client tool's (_meta.tandem.tool), _meta.claudeCode.toolName (without the mcp__acp__ prefix), `name`, or gemini's id prefix. */
  tool?: string;
  /** Shell command line for execute calls (rawInput.command [+ args], else the title). */
  command?: string;
  /** Absolute, normalized paths the call touches (locations, rawInput paths, diff paths). */
  paths: string[];
}

/** The subset of ToolCallView / ToolCallUpdate the facts come from. */
export interface CallLike {
  toolCallId: string;
  title?: string | null;
  kind?: ToolKind | null;
  name?: string | null;
  rawInput?: unknown;
  locations?: Array<{ path: string }> | null;
  content?: ToolCallUpdate['content'];
  _meta?: Record<string, unknown> | null;
  meta?: Record<string, unknown>;
}

const PATH_KEYS = [
  'file_path',
  'path',
  'filePath',
  'notebook_path',
  'absolute_path',
  'target_file',
  'source',
  'destination',
  'old_path',
  'new_path',
  'dir_path',
  'directory',
];

export function callFacts(request: CallLike, known: CallLike | undefined, cwd: string): CallFacts {
  const pick = <K extends keyof CallLike>(k: K): CallLike[K] | undefined => {
    const v = request[k];
    if (v !== undefined && v !== null && !(k === 'rawInput' && isEmptyObject(v))) return v;
    return known?.[k] ?? undefined;
  };
  const title = String(pick('title') ?? '');
  const kind = pick('kind') ?? undefined;
  const rawInput = pick('rawInput');
  const meta = (request._meta ?? known?._meta ?? known?.meta ?? undefined) as Record<string, unknown> | undefined;
  const tool = toolName(meta, pick('name') ?? undefined, request.toolCallId);
  const input =
    rawInput && typeof rawInput === 'object' && !Array.isArray(rawInput)
      ? (rawInput as Record<string, unknown>)
      : undefined;

  let command: string | undefined;
  if (kind === 'execute' || (input && typeof input.command === 'string' && !kind)) {
    if (input && typeof input.command === 'string') {
      const args = Array.isArray(input.args) ? input.args.filter((a): a is string => typeof a === 'string') : [];
      command = [input.command, ...args].join(' ');
    } else if (Array.isArray(input?.command)) {
      command = (input!.command as unknown[]).filter((a): a is string => typeof a === 'string').join(' ');
    } else {
      command = stripBackticks(title);
    }
    command = command.trim();
  }

  const paths = new Set<string>();
  const add = (p: unknown) => {
    if (typeof p !== 'string' || !p || p.length > 4096) return;
    paths.add(nodePath.resolve(cwd, p));
  };
  for (const l of pick('locations') ?? []) add(l?.path);
  for (const c of pick('content') ?? []) if (c && c.type === 'diff') add(c.path);
  if (input) for (const k of PATH_KEYS) add(input[k]);
  return { toolCallId: request.toolCallId, kind, title, tool, command, paths: [...paths] };
}

function toolName(
  meta: Record<string, unknown> | undefined,
  name: string | undefined,
  toolCallId: string,
): string | undefined {
  const cc = meta?.claudeCode as { toolName?: unknown } | undefined;
  // Tandem's own prompt for a client tool (src/tools/clientToolsFeature.ts) names the tool there,
  // so rules and remembered decisions match client tools by name ("OpenFile", an lm tool's name).
  const tandem = meta?.tandem as { tool?: unknown } | undefined;
  let t = typeof tandem?.tool === 'string' ? tandem.tool : typeof cc?.toolName === 'string' ? cc.toolName : name;
  // gemini-cli: ids look like "run_shell_command__call_86836d5446c6".
  if (!t) t = /^([a-z][a-z0-9_]*?)__call_/.exec(toolCallId)?.[1];
  if (!t) return undefined;
  // claude-code-acp routes its tools through its own MCP server: mcp__acp__Bash is Bash.
  return t.replace(/^mcp__acp__/, '');
}

function stripBackticks(s: string): string {
  const m = /^`([^`]*)`$/.exec(s.trim());
  return m ? m[1] : s;
}

function isEmptyObject(v: unknown): boolean {
  return !!v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0;
}

/** True when `p` is `root` or below it. */
export function isInside(p: string, root: string): boolean {
  const rel = nodePath.relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !nodePath.isAbsolute(rel));
}

// ---- shell command lines ----------------------------------------------------------------

/** Splits a command line at control operators (; && || | & newlines); quotes respected. */
export function commandSegments(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let q: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (q) {
      cur += c;
      if (c === q) q = undefined;
      else if (c === '\\' && q === '"' && i + 1 < line.length) cur += line[++i];
      continue;
    }
    if (c === '\\' && i + 1 < line.length) {
      cur += c + line[++i];
      continue;
    }
    if (c === '"' || c === "'") {
      q = c;
      cur += c;
      continue;
    }
    // `2>&1` and `&>file` are redirections, not the background operator.
    const redirect = c === '&' && (line[i - 1] === '>' || line[i - 1] === '<' || line[i + 1] === '>');
    if (!redirect && (c === ';' || c === '\n' || c === '|' || c === '&')) {
      if (cur.trim()) out.push(cur.trim());
      cur = '';
      if ((c === '|' || c === '&') && line[i + 1] === c) i++;
      continue;
    }
    cur += c;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

/** Command substitution, process substitution or redirection: a prefix says nothing about what runs or what is written. */
export function hasShellTricks(line: string): boolean {
  return /`|\$\(|<\(|>\(|>/.test(
    line
      .replace(/'[^']*'/g, "''")
      .replace(/[12]?>&[12]/g, '')
      .replace(/>\s*\/dev\/null/g, ''),
  );
}

/** `prefix` matches `segment` at a word boundary ("git status" matches "git status -s", not "git statuses"). */
export function startsWithWords(segment: string, prefix: string): boolean {
  const s = segment.replace(/\s+/g, ' ').trim();
  const p = prefix.replace(/\s+/g, ' ').trim();
  if (!p) return false;
  return s === p || s.startsWith(p + ' ');
}

/**
 * A prefix rule on a command line. For allowing, every segment must start with the prefix and
 * the line must have no substitution/redirection ("git status && rm -rf ~" is not "git status").
 * For tightening (reject/ask), any segment starting with it is enough.
 */
export function commandMatchesPrefix(line: string, prefix: string, loosening: boolean): boolean {
  const segs = commandSegments(line);
  if (!segs.length) return false;
  if (loosening) return !hasShellTricks(line) && segs.every((s) => startsWithWords(s, prefix));
  return segs.some((s) => startsWithWords(s, prefix));
}
