// What a permission decision looks at, pulled out of a tool call as agents really send it:
// claude-code-acp puts kind and _meta.claudeCode.toolName on the earlier tool_call and sends the
// request with only title + rawInput; gemini-cli sends a request with no prior tool_call and no
// rawInput. So the request's toolCall is merged over what the session already knows.
import * as nodePath from 'node:path';
import { homedir } from 'node:os';
import type { ToolCallUpdate, ToolKind } from '@agentclientprotocol/sdk';
import { isWithin, realPathSync } from '../files/realPath';
import { commandLineOf } from '../../shared/commandLine';

export interface CallFacts {
  toolCallId: string;
  kind?: ToolKind;
  title: string;
  /** Tool name: a client tool's (_meta.tandem.tool), _meta.claudeCode.toolName (without the mcp__acp__ prefix), `name`, or gemini's id prefix. */
  tool?: string;
  /** Shell command line for execute calls, quoted as bash would run it (src/shared/commandLine.ts). */
  command?: string;
  /**
   * Where the call lands: the real paths (symlinks and `..` resolved as the file system will,
   * src/client/files/realPath.ts) of the paths it names in locations, rawInput paths and diff paths.
   */
  paths: string[];
  /**
   * The same paths as the call names them (absolute, normalized), for rules that only tighten:
   * a reject rule on `.env` still holds when `.env` is a link. Allowing looks at `paths` only.
   */
  named?: string[];
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
  // gemini-cli's read_many_files: a list.
  'paths',
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

  // One command line for the card, rules and remembered decisions (src/shared/commandLine.ts).
  const hasCommand = input && (typeof input.command === 'string' || Array.isArray(input.command));
  const command =
    kind === 'execute' || (hasCommand && !kind)
      ? commandLineOf({ kind: 'execute', title, rawInput: input })
      : undefined;

  const named: unknown[] = [];
  for (const l of pick('locations') ?? []) named.push(l?.path);
  for (const c of pick('content') ?? []) if (c && c.type === 'diff') named.push(c.path);
  if (input) for (const k of PATH_KEYS) named.push(input[k]);
  return { toolCallId: request.toolCallId, kind, title, tool, command, ...callPaths(named, kind, cwd) };
}

/** Kinds whose calls name the files they touch. */
const FILE_KINDS = new Set<ToolKind | undefined>(['read', 'edit', 'delete', 'move']);

function callPaths(given: unknown[], kind: ToolKind | undefined, cwd: string): Pick<CallFacts, 'paths' | 'named'> {
  const named = new Set<string>();
  const real = new Set<string>();
  // A key may hold a list of paths (`paths`): one level of lists is flattened.
  for (const p of given.flat()) {
    if (typeof p !== 'string' || !p || p.length > 4096) continue;
    // Agents' tools expand `~`; a tool that does not would fail on "~/x" anyway.
    const abs = /^~(?=$|[\\/])/.test(p) ? homedir() + p.slice(1) : nodePath.isAbsolute(p) ? p : cwd + nodePath.sep + p;
    named.add(nodePath.resolve(abs));
    real.add(realPathSync(abs));
  }
  // A search with no path (Grep, Glob) runs in the session's cwd: that is where it looks.
  if (!real.size && kind === 'search') real.add(realPathSync(cwd));
  return { paths: [...real], named: [...named] };
}

/**
 * A read, edit, delete or move with no path found (it sits under a rawInput key Tandem does not
 * know) may touch any file: no rule or remembered answer allows it unasked, it asks (fails closed).
 */
export function pathUnknown(call: Pick<CallFacts, 'kind' | 'paths'>): boolean {
  return !call.paths.length && FILE_KINDS.has(call.kind);
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

function isEmptyObject(v: unknown): boolean {
  return !!v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0;
}

/** True when `p` is `root` or below it (lexically; callFacts' `paths` are real already). */
export function isInside(p: string, root: string): boolean {
  return isWithin(root, p);
}
