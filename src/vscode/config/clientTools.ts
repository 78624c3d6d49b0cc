// The client-tools settings (tandem.clientTools.*, tandem.mcpServers), checked and turned into
// what src/tools takes: the ToolsConfig, the user's MCP servers, the command tools and the
// exclude patterns of the extension tools. Each read when asked (a changed setting applies).
import type { McpServer } from '@agentclientprotocol/sdk';
import type { Logger } from '../../common/logger';
import { DISCONNECTION_STRATEGIES } from '../../tools/disconnection';
import { DEFAULT_TOOLS_CONFIG, type ToolsConfig } from '../../tools/types';
import { read, SETTINGS } from './settings';

/** tandem.clientTools.* as the ToolsConfig; out-of-range or malformed values fall back to the defaults. */
export function readToolsConfig(): ToolsConfig {
  const timeout = Number(read('clientTools.timeoutSeconds'));
  const template = read('clientTools.disconnectedMessage');
  const expanded: unknown = read('clientTools.expandedGroups');
  return {
    collapse: read('clientTools.collapse') !== false,
    expandedGroups: (Array.isArray(expanded) ? expanded : []).filter((x): x is string => typeof x === 'string'),
    timeoutMs:
      Number.isFinite(timeout) && timeout > 0 ? Math.min(timeout, 3600) * 1000 : DEFAULT_TOOLS_CONFIG.timeoutMs,
    disconnectedMessage:
      typeof template === 'string' && template.trim() ? template : DEFAULT_TOOLS_CONFIG.disconnectedMessage,
    ...readDisconnectionAndInstructions(),
  };
}

/** tandem.clientTools.disconnection.* (src/tools/disconnection.ts) and .instructions (the MCP server's instructions). */
function readDisconnectionAndInstructions(): Pick<ToolsConfig, 'disconnection' | 'maxRetries' | 'instructions'> {
  const strategy = read('clientTools.disconnection.strategy');
  const retries = Number(read('clientTools.disconnection.maxRetries'));
  const instructions: unknown = read('clientTools.instructions');
  return {
    disconnection: DISCONNECTION_STRATEGIES.find((s) => s === strategy) ?? DEFAULT_TOOLS_CONFIG.disconnection,
    maxRetries: Number.isFinite(retries)
      ? Math.min(10, Math.max(0, Math.floor(retries)))
      : DEFAULT_TOOLS_CONFIG.maxRetries,
    ...(typeof instructions === 'string' && instructions.trim() ? { instructions } : {}),
  };
}

/** tandem.clientTools.extensionTools.exclude: the patterns of extension LM tools not offered. */
export function extensionToolsExclude(): string[] {
  const v: unknown = read('clientTools.extensionTools.exclude');
  return Array.isArray(v)
    ? v.filter((x): x is string => typeof x === 'string')
    : [...SETTINGS['clientTools.extensionTools.exclude'].default];
}

export interface CommandToolSetting {
  name: string;
  command: string;
  description: string;
  args?: unknown[];
  requiresPermission?: boolean;
}

/** tandem.clientTools.commandTools: entries without a name or a command are dropped. */
export function commandTools(): CommandToolSetting[] {
  const raw: unknown = read('clientTools.commandTools');
  return (Array.isArray(raw) ? raw : []).filter(
    (x): x is CommandToolSetting =>
      !!x &&
      typeof (x as CommandToolSetting).name === 'string' &&
      typeof (x as CommandToolSetting).command === 'string',
  );
}

/** tandem.mcpServers: ACP McpServer entries (stdio, or http/sse with `type`). Bad entries are logged and skipped. */
export function readUserMcpServers(logger: Logger): McpServer[] {
  const raw: unknown = read('mcpServers');
  const out: McpServer[] = [];
  const pairs = (o: unknown): Array<{ name: string; value: string }> =>
    o && typeof o === 'object' && !Array.isArray(o)
      ? Object.entries(o as Record<string, unknown>).map(([name, v]) => ({ name, value: String(v) }))
      : [];
  for (const e of Array.isArray(raw) ? raw : []) {
    const s = e as Record<string, unknown>;
    if (!s || typeof s.name !== 'string' || !s.name) {
      logger.warn('tandem.mcpServers: an entry without a name was skipped.');
      continue;
    }
    if (s.name === 'tandem') {
      logger.warn('tandem.mcpServers: the name "tandem" is Tandem\'s own server; entry skipped.');
      continue;
    }
    if ((s.type === 'http' || s.type === 'sse') && typeof s.url === 'string') {
      out.push({ type: s.type, name: s.name, url: s.url, headers: pairs(s.headers) });
    } else if (typeof s.command === 'string') {
      out.push({
        name: s.name,
        command: s.command,
        args: Array.isArray(s.args) ? s.args.map(String) : [],
        env: pairs(s.env),
      });
    } else {
      logger.warn(
        `tandem.mcpServers: "${s.name}" needs "command" (stdio) or "type": "http"|"sse" with "url"; skipped.`,
      );
    }
  }
  return out;
}
