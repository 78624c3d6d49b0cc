// Client tools on one agent connection: a ClientFeature that starts Tandem's MCP server for the
// connection (one bearer token per connection), opens a slot per session/new, passes it in
// `mcpServers` (http when the agent supports it, else a stdio entry running the bundled bridge),
// shows each client tool call in the session's tool-call tree, and asks permission through the
// PermissionPort. Pure: no vscode (src/vscode/ wires settings, the IDE group and the port).
//
// Tool-call tree and duplicates: most agents (claude-code-acp, gemini-cli, codex-acp) report an MCP tool
// call as their own tool_call before calling it. When such a call is open in the session (it
// names the tool and `tandem`, or its rawInput equals the arguments), Tandem annotates that call
// (`_meta.tandem.group`) instead of adding a second row; otherwise it adds a synthetic call
// `tandem-tool-<n>` titled "IDE · OpenFile src/a.ts" and completes it with the result.
import type {
  AgentCapabilities,
  McpServer,
  PermissionOption,
  ToolCallContent,
  ToolKind,
} from '@agentclientprotocol/sdk';
import type { ClientFeature, FeatureContext, SessionMcpServers } from '../client/feature';
import { clientToolTitleText } from '../shared/clientToolTitle';
import type { PermissionPort } from '../client/permissionPort';
import { toDisposable, type IDisposable } from '../common/disposable';
import type { Logger } from '../common/logger';
import type { CallObserver, PermissionDecision } from './invoke';
import type { McpToolServer, ToolSlot } from './mcpServer';
import type { ToolRegistry } from './registry';
import type { ToolResult, ToolsConfig } from './types';

export interface ClientToolsOptions {
  registry: ToolRegistry;
  config(): ToolsConfig;
  logger: Logger;
  permission?(): PermissionPort | undefined;
  /** How to run dist/mcp-bridge.js for agents without http MCP (node + script path + env). */
  bridge?: { command: string; args: string[]; env?: Array<{ name: string; value: string }> };
  /** User-configured MCP servers (tandem.mcpServers), passed along as they are. */
  userServers?(): McpServer[];
  version?: string;
  now?(): number;
}

/** Claude Code hides a server named `ide`; Tandem's is `tandem` (tools: mcp__tandem__OpenFile). */
const MCP_SERVER_NAME = 'tandem';

/** How long a client call waits for the agent's own tool_call before Tandem adds a synthetic row. */
const ROW_GRACE_MS = 150;

const PERMISSION_OPTIONS: PermissionOption[] = [
  { optionId: 'allow_once', name: 'Allow', kind: 'allow_once' },
  { optionId: 'allow_always', name: 'Always allow', kind: 'allow_always' },
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

  /** The connection serving `ctx` (AgentClient calls mcpServers on the feature, not the connection). */
  mcpServers(caps: AgentCapabilities | undefined, ctx: FeatureContext): Promise<SessionMcpServers> {
    const c = [...this.connections].find((x) => x.ctx === ctx);
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
  private synthetic = 0;

  constructor(
    private readonly opts: ClientToolsOptions,
    readonly ctx: FeatureContext,
  ) {
    // The MCP SDK loads with the first agent connection, not at extension activation.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- synchronous lazy load, see above
    const { McpToolServer: Server } = require('./mcpServer') as typeof import('./mcpServer');
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
      requestPermission: (sid, call) => this.askPermission(sid, call.callId, call.group, call.tool.name, call.args),
      observer: (sid) => this.observer(sid),
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
    callId: string,
    group: string,
    tool: string,
    args: Record<string, unknown>,
  ): Promise<PermissionDecision> {
    const port = this.opts.permission?.();
    if (!port || !sessionId) return 'deny';
    const p = this.pendingRows.get(callId);
    if (p) {
      clearTimeout(p.timer);
      p.create();
    }
    const outcome = await port.request(
      sessionId,
      {
        toolCallId: this.rowId.get(callId) ?? callId,
        title: clientToolTitleText({ group, tool, args }),
        kind: 'other',
        status: 'pending',
        rawInput: args,
        _meta: { tandem: { group, tool, args } },
      },
      PERMISSION_OPTIONS,
    );
    if (outcome.outcome !== 'selected') return 'cancelled';
    const opt = PERMISSION_OPTIONS.find((o) => o.optionId === outcome.optionId);
    return opt?.kind.startsWith('allow') ? 'allow' : 'deny';
  }

  /** Client call id → the tool-call row that shows it (the agent's own, or a synthetic one). */
  private readonly rowId = new Map<string, string>();
  private readonly pendingRows = new Map<string, { create(): void; timer: ReturnType<typeof setTimeout> }>();

  private observer(sessionId: string | undefined): CallObserver | undefined {
    if (!sessionId) return undefined;
    const now = () => (this.opts.now ?? Date.now)();
    const pending = this.pendingRows;
    return {
      started: (call) => {
        const store = this.ctx.session(sessionId);
        if (!store) return;
        // What the view titles the row by ("IDE · OpenFile src/a.ts:3"), whichever row shows the call.
        const meta = {
          tandem: { group: call.group, tool: call.tool, kind: call.kind, args: call.args, clientTool: true },
        };
        const own = findAgentCall(store.state.toolCalls, call);
        if (own) {
          this.rowId.set(call.callId, own);
          store.dispatch({
            type: 'update',
            at: now(),
            update: { sessionUpdate: 'tool_call_update', toolCallId: own, _meta: meta },
          });
          return;
        }
        // The agent's own tool_call (ACP over stdout) may arrive after the MCP call (HTTP): wait a
        // moment for it before adding a synthetic row.
        const create = () => {
          pending.delete(call.callId);
          const st = this.ctx.session(sessionId);
          if (!st) return;
          const late = findAgentCall(st.state.toolCalls, call);
          if (late) {
            this.rowId.set(call.callId, late);
            st.dispatch({
              type: 'update',
              at: now(),
              update: { sessionUpdate: 'tool_call_update', toolCallId: late, _meta: meta },
            });
            return;
          }
          const id = `tandem-tool-${++this.synthetic}`;
          this.rowId.set(call.callId, id);
          const kind: ToolKind = call.kind === 'tool' ? kindOf(call.tool) : 'other';
          const title = clientToolTitleText(call);
          st.dispatch({
            type: 'update',
            at: now(),
            update: {
              sessionUpdate: 'tool_call',
              toolCallId: id,
              title,
              kind,
              status: 'in_progress',
              rawInput: call.args,
              _meta: meta,
            },
          });
        };
        pending.set(call.callId, { create, timer: setTimeout(create, ROW_GRACE_MS) });
      },
      finished: (callId, result) => {
        const p = pending.get(callId);
        if (p) {
          clearTimeout(p.timer);
          p.create();
        }
        const id = this.rowId.get(callId);
        this.rowId.delete(callId);
        const store = this.ctx.session(sessionId);
        if (!id || !store || !id.startsWith('tandem-tool-')) return; // the agent completes its own row
        store.dispatch({
          type: 'update',
          at: now(),
          update: {
            sessionUpdate: 'tool_call_update',
            toolCallId: id,
            status: result.isError ? 'failed' : 'completed',
            content: toAcpContent(result),
          },
        });
      },
    };
  }

  dispose(): void {
    this.server.dispose();
  }
}

/**
 * An open agent tool call that is this MCP call: names `tandem` and the tool, or has the same
 * input; a call proxied through its container (`{function, arguments}`) names the container.
 */
function findAgentCall(
  calls: {
    forEach(
      fn: (
        v: {
          toolCallId: string;
          title: string;
          name?: string;
          status: string;
          rawInput?: unknown;
          meta?: Record<string, unknown>;
        },
        k: string,
      ) => void,
    ): void;
  },
  call: { tool: string; args: Record<string, unknown>; via?: string },
): string | undefined {
  const { tool, args, via } = call;
  let found: string | undefined;
  const argsJson = Object.keys(args).length ? stableJson(args) : undefined;
  calls.forEach((c) => {
    if (
      c.toolCallId.startsWith('tandem-tool-') ||
      (c.status !== 'pending' && c.status !== 'in_progress') ||
      c.meta?.tandem
    )
      return;
    const text = `${c.title} ${c.name ?? ''}`;
    const input = mcpInput(c.rawInput);
    const named = text.includes(tool) && /tandem/i.test(text);
    const sameInput = argsJson !== undefined && input && stableJson(input) === argsJson;
    const proxied = via !== undefined && input?.function === tool && text.includes(via) && /tandem/i.test(text);
    if (named || proxied || (sameInput && text.includes(tool))) found = c.toolCallId;
  });
  return found;
}

/** The arguments an agent's tool call passes to the MCP tool: codex-acp wraps them as
 *  `{server, tool, arguments}`; Claude Code and gemini-cli pass them as they are. */
function mcpInput(raw: unknown): Record<string, unknown> | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const r = raw as Record<string, unknown>;
  const wrapped =
    typeof r.server === 'string' &&
    typeof r.tool === 'string' &&
    r.arguments &&
    typeof r.arguments === 'object' &&
    !Array.isArray(r.arguments);
  return wrapped ? (r.arguments as Record<string, unknown>) : r;
}

function stableJson(v: unknown): string {
  if (!v || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  return `{${Object.keys(v)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${stableJson((v as Record<string, unknown>)[k])}`)
    .join(',')}}`;
}

function kindOf(tool: string): ToolKind {
  if (/^(Get|Read|List|Find)/.test(tool)) return 'read';
  if (/^(Open|Show|Reveal)/.test(tool)) return 'other';
  return 'other';
}

function toAcpContent(r: ToolResult): ToolCallContent[] {
  return r.content.map((c): ToolCallContent => {
    switch (c.type) {
      case 'text':
        return { type: 'content', content: { type: 'text', text: c.text } };
      case 'json':
        return { type: 'content', content: { type: 'text', text: JSON.stringify(c.json, null, 2) } };
      case 'image':
        return { type: 'content', content: { type: 'image', data: c.data, mimeType: c.mimeType } };
      case 'binary':
        return {
          type: 'content',
          content: { type: 'text', text: `(${c.mimeType} data${c.filename ? `: ${c.filename}` : ''})` },
        };
    }
  });
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
