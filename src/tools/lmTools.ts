// The `Extensions` client tool group: every Language Model tool other VS Code extensions
// registered (`vscode.lm.tools`) offered to the agent with its own name, description and input
// schema, run with `vscode.lm.invokeTool` behind Tandem's permission prompt (every call asks;
// rules and "always allow" can allow a tool by name). The group follows the installed
// extensions: LmToolsSync re-registers it when the list changes, which sends list_changed.
// Pure: the tools come from LmPort (src/vscode/lmTools.ts).
import type { IDisposable } from '../common/disposable';
import type { Logger } from '../common/logger';
import type { ToolRegistry } from './registry';
import { TOOL_NAME, type JsonSchema, type Tool, type ToolContent, type ToolGroup, type ToolResult } from './types';

export const EXTENSIONS_GROUP = 'Extensions';

/** vscode.LanguageModelToolInformation, as plain data. */
export interface LmToolInfo {
  name: string;
  description: string;
  inputSchema: object | undefined;
  tags: readonly string[];
}

/** A part of a LanguageModelToolResult: text, data (images, JSON, …), or something else. */
export type LmPart = { type: 'text'; text: string } | { type: 'data'; mimeType: string; data: Uint8Array };

export interface LmPort {
  tools(): readonly LmToolInfo[];
  invoke(name: string, input: Record<string, unknown>, signal: AbortSignal): Promise<LmPart[]>;
}

/** VS Code's own tools (vscode_renameSymbol, …): the Code group does their work; not another extension's. */
export const DEFAULT_EXCLUDE: readonly string[] = ['vscode_*'];

/** A name or tag pattern: exact, or with `*` for any characters. */
function matcher(pattern: string): (s: string) => boolean {
  if (!pattern.includes('*')) return (s) => s === pattern;
  const re = new RegExp(
    `^${pattern
      .split('*')
      .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
  return (s) => re.test(s);
}

/** Leaves a tool out when a pattern matches its name or one of its tags (`*` leaves every tool out). */
export function isExcluded(t: LmToolInfo, exclude: readonly string[]): boolean {
  return exclude.map(matcher).some((m) => m(t.name) || t.tags.some(m));
}

/** The tool's own schema, as an object schema the registry accepts; undefined when it cannot be one. */
export function toolSchema(input: object | undefined): JsonSchema | undefined {
  if (input === undefined || input === null) return { type: 'object', properties: {} };
  if (typeof input !== 'object' || Array.isArray(input)) return undefined;
  const s = { ...(input as JsonSchema) };
  if (s.type === undefined) s.type = 'object';
  if (s.type !== 'object') return undefined;
  // Tandem validates with draft-07; a dialect it does not load must not fail the call (VS Code
  // validates the input against the tool's schema again in invokeTool).
  delete s.$schema;
  return s;
}

/** A name models accept (`^[A-Za-z0-9_-]{1,64}$`), not taken by another tool. */
function clientName(name: string, taken: Set<string>): string {
  const base = name.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 64) || 'tool';
  let n = base;
  for (let i = 2; taken.has(n) || !TOOL_NAME.test(n); i++) n = `${base.slice(0, 60)}_${i}`;
  taken.add(n);
  return n;
}

export function toToolResult(parts: readonly LmPart[]): ToolResult {
  const content: ToolContent[] = [];
  for (const p of parts) {
    if (p.type === 'text') {
      if (p.text) content.push({ type: 'text', text: p.text });
    } else if (p.mimeType.startsWith('image/')) {
      content.push({ type: 'image', mimeType: p.mimeType, data: Buffer.from(p.data).toString('base64') });
    } else if (/^(application\/json|text\/)/.test(p.mimeType)) {
      content.push({ type: 'text', text: Buffer.from(p.data).toString('utf8') });
    } else {
      content.push({ type: 'binary', mimeType: p.mimeType, data: Buffer.from(p.data).toString('base64') });
    }
  }
  return content.length ? { content } : { content: [{ type: 'text', text: '(The tool returned nothing.)' }] };
}

/**
 * The group for these lm tools (undefined when none is left), each tool under a name models
 * accept that no other group uses. `skipped` says which tools were left out and why.
 */
export function lmToolGroup(
  infos: readonly LmToolInfo[],
  port: LmPort,
  opts: { exclude: readonly string[]; taken: Iterable<string> },
): { group?: ToolGroup; skipped: string[] } {
  const taken = new Set([...opts.taken, EXTENSIONS_GROUP]);
  const skipped: string[] = [];
  const tools: Tool[] = [];
  for (const t of [...infos].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (isExcluded(t, opts.exclude)) continue;
    const schema = toolSchema(t.inputSchema);
    if (!schema) {
      skipped.push(`${t.name}: its input schema is not an object schema`);
      continue;
    }
    const name = clientName(t.name, taken);
    const renamed = name !== t.name ? ` (VS Code tool ${t.name})` : '';
    tools.push({
      name,
      description: `${t.description.trim() || `Language model tool ${t.name} of an installed extension.`}${renamed}`,
      parametersSchema: schema,
      requiresPermission: true,
      handler: async (args, ctx) => toToolResult(await port.invoke(t.name, args, ctx.signal)),
    });
  }
  if (!tools.length) return { skipped };
  return {
    skipped,
    group: {
      name: EXTENSIONS_GROUP,
      description:
        "tools other VS Code extensions offer to language models (vscode.lm.tools); each call asks the user's permission",
      tools,
    },
  };
}

/** What the group depends on: which tools, with which schemas and tags, minus which exclusions. */
function signature(infos: readonly LmToolInfo[], exclude: readonly string[], taken: readonly string[]): string {
  return JSON.stringify([
    infos.map((t) => [t.name, t.description, t.inputSchema, t.tags]).sort(),
    [...exclude].sort(),
    [...taken].sort(),
  ]);
}

/**
 * Keeps the Extensions group in the registry equal to the lm tools: sync() after a change
 * (extensions installed or removed, settings) re-registers it only when it differs, so the
 * agents' lists change (list_changed) exactly when the tools did.
 */
export class LmToolsSync implements IDisposable {
  private registration?: IDisposable;
  private last = '';

  constructor(
    private readonly registry: ToolRegistry,
    private readonly port: LmPort,
    private readonly exclude: () => readonly string[],
    private readonly logger: Logger,
  ) {}

  sync(): void {
    const infos = this.port.tools();
    const exclude = this.exclude();
    const taken = this.registry
      .all()
      .filter((c) => c.group.name !== EXTENSIONS_GROUP)
      .flatMap((c) => [c.group.name, ...c.group.tools.map((t) => t.name)]);
    const sig = signature(infos, exclude, taken);
    if (sig === this.last) return;
    this.last = sig;
    const { group, skipped } = lmToolGroup(infos, this.port, { exclude, taken });
    for (const s of skipped) this.logger.warn(`Client tools: extension tool left out: ${s}`);
    const previous = this.registration;
    this.registration = undefined;
    if (!group) {
      previous?.dispose();
      return;
    }
    try {
      // Replaced in one change (one list_changed). Their schemas compile on first call (VS Code
      // validates them too): no ajv when the list changes.
      this.registration = this.registry.register(group, { trusted: true, replace: !!previous });
    } catch (err) {
      previous?.dispose();
      this.logger.error(`Client tools: the ${EXTENSIONS_GROUP} group could not be registered: ${err}`);
    }
  }

  dispose(): void {
    this.registration?.dispose();
    this.registration = undefined;
    this.last = '';
  }
}
