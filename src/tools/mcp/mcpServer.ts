// Serves client tool groups to the agent as an MCP server (ACP v1 has no client-tool call; every
// agent we target speaks MCP): Streamable HTTP on 127.0.0.1, a random port, one bearer token per
// agent connection. Each ACP session gets a slot (toolSlot.ts): its own URL path and tool state.
//
// Refused before the SDK sees them: a missing or wrong `Authorization: Bearer <token>` (401), a
// Host other than 127.0.0.1:<port> / localhost:<port> (403, DNS rebinding), any Origin header
// (403: no browser page may call it), an unknown slot (404).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { IDisposable } from '../../common/disposable';
import type { Logger } from '../../common/logger';
import { readBody, sendJson, sendText } from './httpReplies';
import type { ToolRegistry } from '../registry';
import { ToolSlot, type SlotHooks } from './toolSlot';
import type { ToolsConfig } from '../types';

export interface McpToolServerOptions {
  registry: ToolRegistry;
  config(): ToolsConfig;
  logger: Logger;
  version?: string;
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
