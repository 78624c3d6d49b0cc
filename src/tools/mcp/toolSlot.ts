// One ACP session's client tools as an MCP endpoint of McpToolServer (mcpServer.ts): its own URL
// path and its own ToolState, so expansions persist across the turns of a session and a new
// session starts from the configured groups. Each MCP session (an `initialize` on the slot) gets
// its own low-level SDK Server; a change of the slot's tool list sends
// notifications/tools/list_changed to all of them.
//
// systemPrompt mapping. A group's `systemPrompt` ("standing instructions while expanded") reaches
// the agent two ways:
//  1. MCP server `instructions` (sent once, in the initialize result; Claude Code and gemini-cli
//     put server instructions into the system prompt for every turn): the global client-tools
//     instructions, then each group's systemPrompt prefixed "When the <G> tools are expanded:".
//     Instructions are fixed at initialize, so they cannot follow expansion; hence also
//  2. the description of each of the group's tools while they are visible (registry.ts): tool
//     definitions are re-sent to the model every turn and disappear when the group collapses —
//     exactly the lifetime the spec asks for, on any agent, including groups injected later.
// `functionResult` stays one-time: it is appended to the container call's result only.
import type { PermissionPort } from '../../client/permissions/permissionPort';
import type { SessionPlace } from '../../client/connection/sessionPlace';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  isInitializeRequest,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { IDisposable } from '../../common/disposable';
import { sendJson } from './httpReplies';
import { invokeTool, type CallObserver, type PermissionCall, type PermissionDecision } from '../invoke';
import type { McpToolServerOptions } from './mcpServer';
import { ToolState } from '../toolState';
import { MCP_SERVER_NAME, type ToolContent, type ToolResult } from '../types';

/** What a slot needs of the server that routes requests to it. */
export interface SlotOwner {
  readonly opts: McpToolServerOptions;
  readonly baseUrl: string;
  removeSlot(slot: ToolSlot): void;
}

export interface SlotHooks {
  /** `signal` aborts when the call ends: a prompt still open is withdrawn. */
  requestPermission?(sessionId: string | undefined, call: PermissionCall): Promise<PermissionDecision>;
  /** The prompt for questions a handler asks (a file outside the workspace). */
  permission?(): PermissionPort | undefined;
  observer?(sessionId: string | undefined): CallObserver | undefined;
  /** False when the session is gone from VS Code: calls get the disconnection fallback. */
  isAlive?(sessionId: string | undefined): boolean;
  /** The session works in a folder of its own (a worktree): its calls are scoped to it. */
  place?: SessionPlace;
}

interface McpSession {
  server: Server;
  transport: StreamableHTTPServerTransport;
}

/** One ACP session's tools: its own ToolState and URL path. */
/** MCP sessions one slot keeps at once (one per `initialize`). */
export const MAX_MCP_SESSIONS = 8;

export class ToolSlot implements IDisposable {
  readonly state: ToolState;
  sessionId?: string;
  private readonly sessions = new Map<string, McpSession>();
  /** MCP sessions with a tools/call running: they get list_changed on that call's response stream. */
  private readonly inCall = new Map<string, number>();
  private closed = false;
  private disconnect!: () => void;
  readonly disconnected = new Promise<void>((r) => {
    this.disconnect = r;
  });

  constructor(
    readonly id: string,
    private readonly owner: SlotOwner,
    readonly hooks: SlotHooks,
  ) {
    this.state = new ToolState(owner.opts.registry, owner.opts.config);
    this.state.onDidChangeList(() => {
      for (const [id, s] of this.sessions)
        if (!this.inCall.has(id))
          s.server.sendToolListChanged().catch((err) => owner.opts.logger.debug(`list_changed not sent: ${err}`));
    });
  }

  get url(): string {
    return `${this.owner.baseUrl}/mcp/${this.id}`;
  }
  get isClosed(): boolean {
    return this.closed;
  }
  /** The ACP session id the agent answered for this slot's session/new. */
  bind(sessionId: string): void {
    this.sessionId = sessionId;
  }
  /** "Tandem: Reset Client Tools": back to the configured groups (list_changed if different). */
  reset(): void {
    this.state.reset();
  }

  /** @internal */
  async handle(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    const sid = req.headers['mcp-session-id'];
    const existing = typeof sid === 'string' ? this.sessions.get(sid) : undefined;
    if (existing) {
      await existing.transport.handleRequest(req, res, body);
      return;
    }
    if (sid !== undefined || req.method !== 'POST' || !isInitializeRequest(body)) {
      sendJson(res, sid !== undefined ? 404 : 400, {
        jsonrpc: '2.0',
        error: {
          code: -32000,
          message: sid !== undefined ? 'Unknown MCP session' : 'Bad Request: no valid MCP session',
        },
        id: null,
      });
      return;
    }
    const server = this.createServer();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        this.sessions.set(id, { server, transport });
        // An agent re-initializes when it reconnects and may never close the old session: keep
        // the newest few. An evicted session's next request gets 404, and an MCP client then
        // initializes again.
        for (const [old, session] of this.sessions) {
          if (this.sessions.size <= MAX_MCP_SESSIONS) break;
          this.sessions.delete(old);
          void session.transport.close().catch(() => undefined);
        }
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) this.sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  private createServer(): Server {
    const { opts } = this.owner;
    const server = new Server(
      { name: MCP_SERVER_NAME, title: 'Tandem (VS Code)', version: opts.version ?? '0.0.0' },
      { capabilities: { tools: { listChanged: true } }, instructions: this.instructions() },
    );
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: this.state
        .list()
        .map((l) => ({ name: l.name, description: l.description, inputSchema: l.inputSchema as { type: 'object' } })),
    }));
    server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
      // list_changed also goes on this call's own response stream: some clients never open the
      // standalone GET stream, but every client reads the response of its tools/call.
      let changed = false;
      const sub = this.state.onDidChangeList(() => {
        changed = true;
      });
      const sid = extra.sessionId;
      if (sid) this.inCall.set(sid, (this.inCall.get(sid) ?? 0) + 1);
      const r = await invokeTool(req.params.name, req.params.arguments ?? {}, {
        state: this.state,
        config: opts.config(),
        sessionId: this.sessionId,
        place: this.hooks.place,
        requestPermission: this.hooks.requestPermission && ((c) => this.hooks.requestPermission!(this.sessionId, c)),
        permission: this.hooks.permission?.(),
        // The agent cancelled the call (or its MCP connection closed): it ends, its prompts go.
        signal: extra.signal,
        observer: this.hooks.observer?.(this.sessionId),
        disconnected: this.disconnected,
        isDisconnected: () => this.closed || this.hooks.isAlive?.(this.sessionId) === false,
        log: (m) => opts.logger.warn(m),
      }).finally(() => {
        sub.dispose();
        if (sid) {
          const n = (this.inCall.get(sid) ?? 1) - 1;
          if (n > 0) this.inCall.set(sid, n);
          else this.inCall.delete(sid);
        }
      });
      if (changed) await extra.sendNotification({ method: 'notifications/tools/list_changed' }).catch(() => undefined);
      return toMcpResult(r);
    });
    return server;
  }

  /** Server instructions: see the systemPrompt mapping at the top of this file. */
  instructions(): string | undefined {
    const parts: string[] = [];
    const cfg = this.owner.opts.config();
    if (cfg.instructions?.trim()) parts.push(cfg.instructions.trim());
    parts.push(
      "Tools of this server run in the user's VS Code (Tandem). Tool groups start collapsed behind one tool named after the group: call it to expand the group; the tool list then changes.",
    );
    for (const c of this.state.groups()) {
      if (c.group.systemPrompt?.trim())
        parts.push(`When the ${c.group.name} tools are expanded: ${c.group.systemPrompt.trim()}`);
      for (const s of c.group.skills ?? [])
        if (s.systemPrompt?.trim()) parts.push(`While the ${s.name} skill is active: ${s.systemPrompt.trim()}`);
    }
    return parts.join('\n\n');
  }

  /** Ends the slot: pending and later calls get the disconnection fallback; MCP sessions close. */
  dispose(): void {
    if (this.closed) return;
    this.closed = true;
    this.disconnect();
    for (const s of this.sessions.values()) void s.transport.close().catch(() => undefined);
    this.sessions.clear();
    this.state.dispose();
    this.owner.removeSlot(this);
  }
}

/** ToolResult → MCP CallToolResult (JSON as pretty text, binary as an embedded blob); `row` is the user's, not sent. */
export function toMcpResult(r: ToolResult): CallToolResult {
  const content = r.content.map((c: ToolContent): CallToolResult['content'][number] => {
    switch (c.type) {
      case 'text':
        return { type: 'text', text: c.text };
      case 'json':
        return { type: 'text', text: JSON.stringify(c.json, null, 2) };
      case 'image':
        return { type: 'image', data: c.data, mimeType: c.mimeType };
      case 'binary':
        return {
          type: 'resource',
          resource: {
            uri: `tandem:/result/${encodeURIComponent(c.filename ?? 'data')}`,
            mimeType: c.mimeType,
            blob: c.data,
          },
        };
    }
  });
  return r.isError ? { content, isError: true } : { content };
}
