// Client tools on one agent connection: a ClientFeature that starts Tandem's MCP server for the
// connection (one bearer token per connection), opens a slot per session/new, passes it in
// `mcpServers` (http when the agent supports it, else a stdio entry running the bundled bridge),
// shows each client tool call in the session's tool-call tree (callUpdates.ts), and asks permission
// through the PermissionPort. Pure: no vscode (src/vscode/ wires settings, the IDE group and the port).
import type { PermissionPort } from '../client/permissions/permissionPort';
import type { AgentCapabilities, McpServer, PermissionOption } from '@agentclientprotocol/sdk';
import type { ClientFeature, FeatureContext, SessionMcpServers } from '../client/connection/feature';
import type { SessionPlace } from '../client/connection/sessionPlace';
import { clientToolTitleText } from '../shared/clientToolTitle';
import { toDisposable, type IDisposable } from '../common/disposable';
import type { Logger } from '../common/logger';
import { CallUpdates } from './callUpdates';
import type { PermissionDecision } from './invoke';
import type { McpToolServer } from './mcp/mcpServer';
import type { ToolSlot } from './mcp/toolSlot';
import type { ToolRegistry } from './registry';
import { MCP_SERVER_NAME, type ToolsConfig } from './types';

export interface ClientToolsOptions {
  registry: ToolRegistry;
  config(): ToolsConfig;
  logger: Logger;
  /** Tandem's permission prompt; one that takes a `signal` can withdraw the prompts of calls that ended. */
  permission?(): PermissionPort | undefined;
  /** How to run dist/mcp-bridge.js for agents without http MCP (node + script path + env). */
  bridge?: { command: string; args: string[]; env?: Array<{ name: string; value: string }> };
  /** User-configured MCP servers (tandem.mcpServers), passed along as they are. */
  userServers?(): McpServer[];
  version?: string;
  now?(): number;
}

// No "Always allow": the broker remembers decisions only for the agent's own prompts, so the
// button would promise what nothing keeps. Permission rules ({ "tool": "Rename" }) still apply.
const PERMISSION_OPTIONS: PermissionOption[] = [
  { optionId: 'allow_once', name: 'Allow', kind: 'allow_once' },
  { optionId: 'reject_once', name: 'Deny', kind: 'reject_once' },
];

/** Extension lifetime: one instance for every connection; `attach` makes the per-connection server. */
export class ClientToolsFeature implements ClientFeature {
  private readonly connections = new Set<ConnectionTools>();

  constructor(private readonly opts: ClientToolsOptions) {}

  capabilities(): void {
    /* MCP rides in session/new; nothing to advertise in initialize. */
  }

  attach(ctx: FeatureContext): IDisposable {
    const c = new ConnectionTools(this.opts, ctx);
    this.connections.add(c);
    return toDisposable(() => {
      this.connections.delete(c);
      c.dispose();
    });
  }

  /**
   * The connection serving `ctx` (AgentClient calls mcpServers on the feature, not the connection).
   * A session with a place (its own worktree) gets the user's servers only: Tandem's tools act on
   * the workspace VS Code has open (its editors, language services, edits), not on that folder.
   */
  mcpServers(
    caps: AgentCapabilities | undefined,
    ctx: FeatureContext,
    place?: SessionPlace,
  ): Promise<SessionMcpServers> {
    const c = [...this.connections].find((x) => x.ctx === ctx);
    if (place)
      ctx.logger.info(`Client tools are not offered to a session in ${place.label}: they act on the workspace.`);
    if (place)
      return Promise.resolve({ servers: filterUserServers(this.opts.userServers?.() ?? [], caps, ctx.logger) });
    if (!c) return Promise.resolve({ servers: this.opts.userServers?.() ?? [] });
    return c.sessionServers(caps);
  }

  /** "Tandem: Reset Client Tools": every open session back to the configured groups. */
  reset(): void {
    for (const c of this.connections) c.reset();
  }
  /** Settings changed: re-check tool lists (list_changed where they differ). */
  refresh(): void {
    for (const c of this.connections) c.refresh();
  }
  /** The servers (tests, the P5 bench). */
  servers(): McpToolServer[] {
    return [...this.connections].map((c) => c.server);
  }
}

class ConnectionTools implements IDisposable {
  readonly server: McpToolServer;
  private readonly listening: Promise<void>;
  private current?: ToolSlot;
  private readonly rows: CallUpdates;

  constructor(
    private readonly opts: ClientToolsOptions,
    readonly ctx: FeatureContext,
  ) {
    this.rows = new CallUpdates(ctx, opts.now);
    // The MCP SDK loads with the first agent connection, not at extension activation.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- synchronous lazy load, see above
    const { McpToolServer: Server } = require('./mcp/mcpServer') as typeof import('./mcp/mcpServer');
    this.server = new Server({
      registry: opts.registry,
      config: opts.config,
      logger: ctx.logger,
      version: opts.version,
    });
    this.listening = this.server.listen();
    this.listening.catch((err) => ctx.logger.error(`Client tools: the MCP server could not start: ${err}`));
  }

  async sessionServers(caps: AgentCapabilities | undefined): Promise<SessionMcpServers> {
    const user = filterUserServers(this.opts.userServers?.() ?? [], caps, this.ctx.logger);
    try {
      await this.listening;
    } catch {
      return { servers: user };
    }
    const slot = this.server.openSlot({
      requestPermission: (sid, call) => this.askPermission(sid, call),
      permission: () => this.opts.permission?.(),
      observer: (sid) => this.rows.observer(sid),
      isAlive: (sid) => sid === undefined || !!this.ctx.session(sid),
    });
    const entry = this.entry(slot, caps);
    if (!entry) {
      slot.dispose();
      return { servers: user };
    }
    return {
      servers: [entry, ...user.filter((s) => s.name !== MCP_SERVER_NAME)],
      opened: (sessionId) => {
        slot.bind(sessionId);
        const prev = this.current;
        this.current = slot;
        // The previous session is gone from VS Code (AgentClient keeps one): its calls get the fallback.
        prev?.dispose();
      },
      failed: () => slot.dispose(),
    };
  }

  private entry(slot: ToolSlot, caps: AgentCapabilities | undefined): McpServer | undefined {
    if (caps?.mcpCapabilities?.http) {
      return {
        type: 'http',
        name: MCP_SERVER_NAME,
        url: slot.url,
        headers: [{ name: 'Authorization', value: `Bearer ${this.server.token}` }],
      };
    }
    const b = this.opts.bridge;
    if (!b) {
      this.ctx.logger.warn(
        `Client tools: ${this.ctx.agentName} supports no http MCP servers and no stdio bridge is configured.`,
      );
      return undefined;
    }
    return {
      name: MCP_SERVER_NAME,
      command: b.command,
      args: b.args,
      env: [
        ...(b.env ?? []),
        { name: 'TANDEM_MCP_URL', value: slot.url },
        { name: 'TANDEM_MCP_TOKEN', value: this.server.token },
      ],
    };
  }

  reset(): void {
    for (const s of this.server.allSlots()) s.reset();
  }
  refresh(): void {
    for (const s of this.server.allSlots()) s.state.refresh();
  }

  private async askPermission(
    sessionId: string | undefined,
    call: { callId: string; group: string; tool: { name: string }; args: Record<string, unknown>; signal: AbortSignal },
  ): Promise<PermissionDecision> {
    const port = this.opts.permission?.();
    if (!port || !sessionId) return 'deny';
    const { callId, group, args } = call;
    const tool = call.tool.name;
    const outcome = await port.request(
      sessionId,
      {
        // The prompt names the call's row, which must exist by now.
        toolCallId: this.rows.showNow(callId) ?? callId,
        title: clientToolTitleText({ group, tool, args }),
        kind: 'other',
        status: 'pending',
        rawInput: args,
        _meta: { tandem: { group, tool, args } },
      },
      PERMISSION_OPTIONS,
      call.signal,
    );
    if (outcome.outcome !== 'selected') return 'cancelled';
    const opt = PERMISSION_OPTIONS.find((o) => o.optionId === outcome.optionId);
    return opt?.kind.startsWith('allow') ? 'allow' : 'deny';
  }

  dispose(): void {
    this.server.dispose();
  }
}

/** Keeps user servers the agent can use (http/sse need the capability). */
export function filterUserServers(
  servers: McpServer[],
  caps: AgentCapabilities | undefined,
  logger: Logger,
): McpServer[] {
  return servers.filter((s) => {
    if ('type' in s && s.type === 'http' && !caps?.mcpCapabilities?.http) {
      logger.warn(`MCP server "${s.name}" (http) skipped: the agent does not support http MCP servers.`);
      return false;
    }
    if ('type' in s && s.type === 'sse' && !caps?.mcpCapabilities?.sse) {
      logger.warn(`MCP server "${s.name}" (sse) skipped: the agent does not support sse MCP servers.`);
      return false;
    }
    return true;
  });
}
