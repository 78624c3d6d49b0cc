import { request } from 'node:http';
import type { FeatureContext } from '../../../src/client/connection/feature';
import type { PermissionPort } from '../../../src/client/permissions/permissionPort';
import { Emitter } from '../../../src/common/event';
import { MemoryLogger } from '../../../src/common/logger';
import { SessionStore } from '../../../src/session/store';
import { ClientToolsFeature } from '../../../src/tools/clientToolsFeature';
import type { ToolRegistry } from '../../../src/tools/registry';
import { DEFAULT_TOOLS_CONFIG, type Tool, type ToolGroup, type ToolHandler } from '../../../src/tools/types';

export function tool(name: string, handler: ToolHandler = () => `${name} ok`, extra: Partial<Tool> = {}): Tool {
  return {
    name,
    description: `${name} does a thing`,
    parametersSchema: { type: 'object', properties: {} },
    handler,
    ...extra,
  };
}

/** The IDE group of the spec with fake handlers. */
export function ideGroup(opened: Array<{ path: string; line?: number }> = []): ToolGroup {
  return {
    name: 'IDE',
    description: 'VS Code interaction tools',
    tools: [
      {
        name: 'OpenFile',
        description: 'Open a file in the editor',
        parametersSchema: {
          type: 'object',
          properties: { path: { type: 'string' }, line: { type: 'integer', minimum: 1 } },
          required: ['path'],
          additionalProperties: false,
        },
        handler: (a) => {
          opened.push({ path: a.path as string, line: a.line as number | undefined });
          return `Opened ${a.path}`;
        },
      },
      {
        name: 'GetSelection',
        description: "Get the user's current text selection",
        parametersSchema: { type: 'object' },
        handler: () => ({ content: [{ type: 'json', json: { path: 'a.ts', text: 'x' } }] }),
      },
      {
        name: 'ShowMessage',
        description: 'Show a message to the user',
        parametersSchema: {
          type: 'object',
          properties: { message: { type: 'string' }, severity: { type: 'string', enum: ['info', 'warning', 'error'] } },
          required: ['message'],
        },
        handler: () => 'shown',
      },
    ],
  };
}

/** POSTs `body` to an MCP server URL with `headers` (plus MCP's content types); resolves with the status code. */
export function postStatus(url: string, headers: Record<string, string>, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode!);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * A ClientToolsFeature attached to a fake connection (its sessions in `stores`), serving `registry`
 * with a Danger group whose Wipe asks permission; `permission` is the PermissionPort.
 */
export function attachedToolsFeature(
  registry: ToolRegistry,
  permission: PermissionPort,
  extra: Partial<ConstructorParameters<typeof ClientToolsFeature>[0]> = {},
) {
  registry.register({
    name: 'Danger',
    startCollapsed: false,
    tools: [tool('Wipe', () => 'wiped', { requiresPermission: true })],
  });
  const stores = new Map<string, SessionStore>();
  const closed = new Emitter<string>();
  const ctx = {
    logger: new MemoryLogger(),
    cwd: '/w',
    agentName: 'Fake',
    session: (id: string) => stores.get(id),
    onDidCloseSession: closed.event,
  } as unknown as FeatureContext;
  const feature = new ClientToolsFeature({
    registry,
    config: () => DEFAULT_TOOLS_CONFIG,
    logger: new MemoryLogger(),
    permission: () => permission,
    ...extra,
  });
  const conn = feature.attach(ctx);
  return { feature, ctx, stores, closed, dispose: () => conn.dispose() };
}
