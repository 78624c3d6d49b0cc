// Client tools in VS Code: the feature on the settings (tandem.clientTools.*, tandem.mcpServers;
// read in ../config/clientTools.ts), the IDE group, command tools from settings, "Tandem: Reset
// Client Tools", and the extension API `registerToolGroup(group, handlers)` other extensions use
// to add groups.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { PermissionPort } from '../../client/permissions/permissionPort';
import type { IDisposable } from '../../common/disposable';
import type { Logger } from '../../common/logger';
import { ClientToolsFeature } from '../../tools/clientToolsFeature';
import { ToolRegistry } from '../../tools/registry';
import type { GroupDefinition, ToolHandler } from '../../tools/types';
import { ideToolGroup } from './ideTools';
import { commandTools, onDidChange, readToolsConfig, readUserMcpServers } from '../config';

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
    const tools = commandTools();
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
    onDidChange(['clientTools'], (affects) => {
      config = readToolsConfig();
      if (affects('clientTools.commandTools')) registerCommands();
      feature.refresh();
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
