// Serves client tool groups to the agent as an MCP server (ACP v1 has no client-tool call; every
// agent we target speaks MCP): Streamable HTTP on 127.0.0.1, a random port, one bearer token per
// agent connection. Each ACP session gets a slot (its own URL path and its own ToolState), so
// expansions persist across the turns of a session and a new session starts from the
// configured groups. Each MCP session (an `initialize` on a slot) gets its own low-level SDK
// Server; a change of the slot's tool list sends notifications/tools/list_changed to all of them.
//
// Refused before the SDK sees them: a missing or wrong `Authorization: Bearer <token>` (401), a
// Host other than 127.0.0.1:<port> / localhost:<port> (403, DNS rebinding), any Origin header
// (403: no browser page may call it), an unknown slot (404).
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
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  isInitializeRequest,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { IDisposable } from '../common/disposable';
import type { Logger } from '../common/logger';
import { invokeTool, type CallObserver, type PermissionDecision } from './invoke';
import { ToolState, type ToolRegistry } from './registry';
import type { Tool, ToolContent, ToolResult, ToolsConfig } from './types';

/** Claude Code hides a server named `ide`; Tandem's is `tandem` (tools: mcp__tandem__OpenFile). */
export const MCP_SERVER_NAME = 'tandem';
const MAX_BODY = 4 * 1024 * 1024;

export interface McpToolServerOptions {
  registry: ToolRegistry;
  config(): ToolsConfig;
  logger: Logger;
  version?: string;
}

export interface SlotHooks {
  requestPermission?(
    sessionId: string | undefined,
    call: { callId: string; group: string; tool: Tool; args: Record<string, unknown> },
  ): Promise<PermissionDecision>;
  observer?(sessionId: string | undefined): CallObserver | undefined;
  /** False when the session is gone from VS Code: calls get the disconnection fallback. */
  isAlive?(sessionId: string | undefined): boolean;
}

interface McpSession {
  server: Server;
  transport: StreamableHTTPServerTransport;
}

/** One ACP session's tools: its own ToolState and URL path. */
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
    private readonly owner: McpToolServer,
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
        requestPermission: this.hooks.requestPermission && ((c) => this.hooks.requestPermission!(this.sessionId, c)),
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

export class McpToolServer implements IDisposable {
  readonly token = randomBytes(32).toString('base64url');
  private http?: HttpServer;
  private port = 0;
  private readonly slots = new Map<string, ToolSlot>();
  private slotCounter = 0;

  constructor(readonly opts: McpToolServerOptions) {}

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}`;
  }
  get listening(): boolean {
    return !!this.http?.listening;
  }

  async listen(): Promise<void> {
    if (this.http) return;
    const http = (this.http = createServer((req, res) => {
      void this.onRequest(req, res);
    }));
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(0, '127.0.0.1', () => {
        http.off('error', reject);
        resolve();
      });
    });
    this.port = (http.address() as AddressInfo).port;
  }

  openSlot(hooks: SlotHooks = {}): ToolSlot {
    const slot = new ToolSlot(`s${++this.slotCounter}-${randomBytes(6).toString('hex')}`, this, hooks);
    this.slots.set(slot.id, slot);
    return slot;
  }

  /** @internal */
  removeSlot(slot: ToolSlot): void {
    this.slots.delete(slot.id);
  }
  allSlots(): ToolSlot[] {
    return [...this.slots.values()];
  }

  private refuse(req: IncomingMessage, res: ServerResponse): boolean {
    const host = req.headers.host;
    if (host !== `127.0.0.1:${this.port}` && host !== `localhost:${this.port}`) {
      sendText(res, 403, 'Forbidden host');
      return true;
    }
    if (req.headers.origin !== undefined) {
      sendText(res, 403, 'Forbidden origin');
      return true;
    }
    const auth = req.headers.authorization ?? '';
    const want = Buffer.from(`Bearer ${this.token}`);
    const got = Buffer.from(auth);
    if (got.length !== want.length || !timingSafeEqual(got, want)) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="tandem"');
      sendText(res, 401, 'Unauthorized');
      return true;
    }
    return false;
  }

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      if (this.refuse(req, res)) return;
      const m = /^\/mcp\/([A-Za-z0-9-]+)$/.exec((req.url ?? '').split('?')[0]);
      const slot = m && this.slots.get(m[1]);
      if (!slot) {
        sendText(res, 404, 'Not found');
        return;
      }
      let body: unknown;
      if (req.method === 'POST') {
        const raw = await readBody(req);
        if (raw === undefined) {
          sendText(res, 413, 'Payload too large');
          return;
        }
        try {
          body = JSON.parse(raw);
        } catch {
          sendJson(res, 400, { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null });
          return;
        }
      }
      await slot.handle(req, res, body);
    } catch (err) {
      this.opts.logger.error(`MCP request failed: ${err instanceof Error ? (err.stack ?? err.message) : err}`);
      if (!res.headersSent) sendText(res, 500, 'Internal error');
      else res.end();
    }
  }

  dispose(): void {
    for (const s of [...this.slots.values()]) s.dispose();
    this.http?.closeAllConnections?.();
    this.http?.close();
  }
}

function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        resolve(undefined);
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' }).end(text);
}
function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
}

/** ToolResult → MCP CallToolResult (JSON as pretty text, binary as an embedded blob). */
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
