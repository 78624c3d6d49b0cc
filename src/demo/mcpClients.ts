// The agent side of client tools: MCP client connections to the servers the client passed in
// `session/new` `mcpServers` (http: Streamable HTTP with the given headers, e.g. Tandem's bearer
// token; stdio: a child process such as Tandem's dist/mcp-bridge.js). One connection per session
// and server, opened on first use and kept for the session's later turns (a group expanded in
// one turn stays expanded). The MCP SDK is loaded only when a script first calls a tool.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

/** An `mcpServers` entry of session/new, as the ACP schema gives it. */
export interface McpServerEntry {
  type?: string;
  name: string;
  url?: string;
  headers?: Array<{ name: string; value: string }>;
  command?: string;
  args?: string[];
  env?: Array<{ name: string; value: string }>;
}

/** What a tool call gives a script: the MCP result plus its text, or an error. */
export type McpCallOutcome = { content: unknown[]; isError: boolean; text: string } | { error: { message: string } };

export type McpToolsOutcome = { names: string[]; has: Record<string, boolean> } | { error: { message: string } };

/** `mcpServers` by name (the `mcp` variable of a session). */
export function serversByName(list: unknown): Record<string, McpServerEntry> {
  const out: Record<string, McpServerEntry> = {};
  if (!Array.isArray(list)) return out;
  for (const s of list as McpServerEntry[])
    if (s && typeof s === 'object' && typeof s.name === 'string') out[s.name] = s;
  return out;
}

export class McpClients {
  private readonly clients = new Map<string, Promise<Client>>();

  constructor(
    private readonly log: (text: string) => void,
    private readonly cwd?: string,
  ) {}

  async callTool(
    key: string,
    server: McpServerEntry,
    tool: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    timeoutMs: number,
  ): Promise<McpCallOutcome> {
    try {
      const client = await this.client(key, server, signal);
      const r = await client.callTool({ name: tool, arguments: args }, undefined, { signal, timeout: timeoutMs });
      const content = Array.isArray(r.content) ? (r.content as unknown[]) : [];
      const text = content
        .map((c) =>
          c && typeof c === 'object' && (c as { type?: string }).type === 'text'
            ? String((c as { text?: unknown }).text ?? '')
            : '',
        )
        .filter(Boolean)
        .join('\n');
      return { content, isError: r.isError === true, text };
    } catch (err) {
      return { error: { message: err instanceof Error ? err.message : String(err) } };
    }
  }

  async listTools(
    key: string,
    server: McpServerEntry,
    signal: AbortSignal,
    timeoutMs: number,
  ): Promise<McpToolsOutcome> {
    try {
      const client = await this.client(key, server, signal);
      const r = await client.listTools(undefined, { signal, timeout: timeoutMs });
      const names = r.tools.map((t) => t.name);
      return { names, has: Object.fromEntries(names.map((n) => [n, true])) };
    } catch (err) {
      return { error: { message: err instanceof Error ? err.message : String(err) } };
    }
  }

  /** Closes the connections whose key starts with `prefix` (a session's), or all. */
  async close(prefix = ''): Promise<void> {
    const closing: Array<Promise<unknown>> = [];
    for (const [k, c] of this.clients) {
      if (!k.startsWith(prefix)) continue;
      this.clients.delete(k);
      closing.push(c.then((x) => x.close()).catch(() => undefined));
    }
    await Promise.all(closing);
  }

  private client(key: string, server: McpServerEntry, signal: AbortSignal): Promise<Client> {
    let c = this.clients.get(key);
    if (!c) {
      c = this.connect(server, signal);
      this.clients.set(key, c);
      c.catch(() => {
        if (this.clients.get(key) === c) this.clients.delete(key);
      });
    }
    return c;
  }

  private async connect(server: McpServerEntry, signal: AbortSignal): Promise<Client> {
    // The MCP SDK loads when a server is first used, not when the demo agent starts.
    const { Client: ClientCtor } = await import('@modelcontextprotocol/sdk/client/index.js');
    const client = new ClientCtor({ name: 'tandem-demo-agent', version: '1' });
    client.onerror = (err) => this.log(`MCP ${server.name}: ${err.message}`);
    const type = server.type ?? (server.command ? 'stdio' : undefined);
    if (type === 'http') {
      const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
      const headers = Object.fromEntries((server.headers ?? []).map((h) => [h.name, h.value]));
      await client.connect(
        new StreamableHTTPClientTransport(new URL(String(server.url)), { requestInit: { headers } }),
        { signal },
      );
    } else if (type === 'stdio') {
      const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
      const env: Record<string, string> = {};
      for (const [k, v] of Object.entries(process.env)) if (typeof v === 'string') env[k] = v;
      for (const e of server.env ?? []) env[e.name] = e.value;
      await client.connect(
        new StdioClientTransport({
          command: String(server.command),
          args: server.args ?? [],
          env,
          cwd: this.cwd,
          stderr: 'ignore',
        }),
        { signal },
      );
    } else {
      throw new Error(`MCP server "${server.name}": transport ${String(server.type)} is not supported by this agent`);
    }
    return client;
  }
}
