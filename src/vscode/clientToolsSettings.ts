// Client tools in VS Code: settings (tandem.clientTools.*, tandem.mcpServers), the IDE group,
// command tools from settings, "Tandem: Reset Client Tools", and the extension API
// `registerToolGroup(group, handlers)` other extensions use to add groups.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { McpServer } from '@agentclientprotocol/sdk';
import type { PermissionPort } from '../client/permissionPort';
import type { IDisposable } from '../common/disposable';
import type { Logger } from '../common/logger';
import { ClientToolsFeature } from '../tools/clientToolsFeature';
import { ToolRegistry } from '../tools/registry';
import { DEFAULT_TOOLS_CONFIG, type GroupDefinition, type ToolHandler, type ToolsConfig } from '../tools/types';
import { ideToolGroup } from './ideTools';
import { readDisconnectionAndInstructions } from './clientToolsConfig';

export interface CommandToolSetting {
  name: string;
  command: string;
  description: string;
  args?: unknown[];
  requiresPermission?: boolean;
}

export function readToolsConfig(): ToolsConfig {
  const c = vscode.workspace.getConfiguration('tandem.clientTools');
  const timeout = Number(c.get('timeoutSeconds', 30));
  const template = c.get<string>('disconnectedMessage', DEFAULT_TOOLS_CONFIG.disconnectedMessage);
  return {
    collapse: c.get<boolean>('collapse', true) !== false,
    expandedGroups: (c.get<unknown[]>('expandedGroups', []) ?? []).filter((x): x is string => typeof x === 'string'),
    timeoutMs:
      Number.isFinite(timeout) && timeout > 0 ? Math.min(timeout, 3600) * 1000 : DEFAULT_TOOLS_CONFIG.timeoutMs,
    disconnectedMessage:
      typeof template === 'string' && template.trim() ? template : DEFAULT_TOOLS_CONFIG.disconnectedMessage,
    ...readDisconnectionAndInstructions(c),
  };
}

/** tandem.mcpServers: ACP McpServer entries (stdio, or http/sse with `type`). Bad entries are logged and skipped. */
export function readUserMcpServers(logger: Logger): McpServer[] {
  const raw = vscode.workspace.getConfiguration('tandem').get<unknown[]>('mcpServers', []) ?? [];
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

function readCommandTools(): CommandToolSetting[] {
  const raw = vscode.workspace.getConfiguration('tandem.clientTools').get<unknown[]>('commandTools', []) ?? [];
  return (Array.isArray(raw) ? raw : []).filter(
    (x): x is CommandToolSetting =>
      !!x &&
      typeof (x as CommandToolSetting).name === 'string' &&
      typeof (x as CommandToolSetting).command === 'string',
  );
}

export interface ClientToolsApi {
  /** Adds a tool group for every agent session; handlers by tool name. Throws for an invalid group. */
  registerToolGroup(group: GroupDefinition, handlers: Record<string, ToolHandler>): IDisposable;
}

export interface ClientTools extends IDisposable, ClientToolsApi {
  readonly registry: ToolRegistry;
  readonly feature: ClientToolsFeature;
}

export function createClientTools(
  context: vscode.ExtensionContext,
  logger: Logger,
  permission: PermissionPort,
): ClientTools {
  const registry = new ToolRegistry();
  let config = readToolsConfig();
  const feature = new ClientToolsFeature({
    registry,
    logger,
    permission: () => permission,
    config: () => config,
    version: String(context.extension.packageJSON.version),
    userServers: () => readUserMcpServers(logger),
    // The extension host's executable runs the bundled bridge as plain Node.
    bridge: {
      command: process.execPath,
      args: [path.join(context.extensionPath, 'dist', 'mcp-bridge.js')],
      env: [{ name: 'ELECTRON_RUN_AS_NODE', value: '1' }],
    },
  });
  const subs: IDisposable[] = [];
  // Built-in schemas compile on first use: activation loads no ajv (bench/activation.mjs).
  subs.push(registry.register(ideToolGroup(), { trusted: true }));

  let commandGroup: IDisposable | undefined;
  const registerCommands = () => {
    commandGroup?.dispose();
    commandGroup = undefined;
    const tools = readCommandTools();
    if (!tools.length) return;
    try {
      commandGroup = registry.register({
        name: 'Commands',
        description: 'VS Code commands the user exposed as tools (tandem.clientTools.commandTools)',
        tools: tools.map((t) => ({
          name: t.name,
          description: t.description || `Runs the VS Code command ${t.command}.`,
          parametersSchema: { type: 'object', properties: {}, additionalProperties: false },
          requiresPermission: t.requiresPermission !== false,
          handler: async () => {
            const r: unknown = await vscode.commands.executeCommand(t.command, ...(t.args ?? []));
            if (r === undefined) return `Ran ${t.command}.`;
            try {
              return { content: [{ type: 'json' as const, json: JSON.parse(JSON.stringify(r)) as unknown }] };
            } catch {
              return `Ran ${t.command}; its result is not JSON.`;
            }
          },
        })),
      });
    } catch (err) {
      logger.error(`tandem.clientTools.commandTools: ${err instanceof Error ? err.message : err}`);
    }
  };
  registerCommands();

  subs.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('tandem.clientTools')) {
        config = readToolsConfig();
        if (e.affectsConfiguration('tandem.clientTools.commandTools')) registerCommands();
        feature.refresh();
      }
    }),
    vscode.commands.registerCommand('tandem.resetClientTools', () => {
      feature.reset();
      void vscode.window.showInformationMessage('Tandem: client tools reset to the configured groups.');
    }),
  );

  return {
    registry,
    feature,
    registerToolGroup(group, handlers) {
      const tools = (group?.tools ?? []).map((t) => ({ ...t, handler: handlers?.[t.name] }));
      return registry.register({ ...group, tools } as Parameters<ToolRegistry['register']>[0]);
    },
    dispose() {
      commandGroup?.dispose();
      for (const s of subs) s.dispose();
      registry.dispose();
    },
  };
}
