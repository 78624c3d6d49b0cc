// The client side of an ACP session for agent tests, on top of Peer (plain JSON lines, not
// Tandem's client code): real fs/read_text_file + fs/write_text_file on disk, real terminals
// (child processes), scripted permission answers, and Tandem's real MCP server
// (src/tools/mcp/mcpServer.ts + registry) serving the IDE group with a fake handler.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { MemoryLogger } from '../../../src/common/logger';
import { McpToolServer } from '../../../src/tools/mcp/mcpServer';
import type { ToolSlot } from '../../../src/tools/mcp/toolSlot';
import { ToolRegistry } from '../../../src/tools/registry';
import { DEFAULT_TOOLS_CONFIG } from '../../../src/tools/types';
import { ideGroup } from '../tools/fixtures';
import type { Msg, Peer } from './peer';

export interface TestTerminal {
  id: string;
  command: string;
  args: string[];
  output: string;
  exit?: { exitCode: number | null; signal: string | null };
  released: boolean;
  proc: ChildProcess;
  exited: Promise<void>;
}

export class AcpTestClient {
  readonly asked: Msg[] = [];
  readonly terminals = new Map<string, TestTerminal>();
  /** The answer to session/request_permission: an optionId, or undefined to leave it open. */
  permission: (m: Msg) => string | undefined = () => 'allow';
  /** Called for every agent→client request before it is answered (e.g. to cancel mid-turn). */
  onAsked: (m: Msg) => void = () => undefined;
  private termSeq = 0;

  constructor(readonly peer: Peer) {
    peer.onRequest = (m) => this.handle(m);
  }

  methods(): string[] {
    return this.asked.map((m) => m.method!);
  }

  private async handle(m: Msg): Promise<unknown> {
    this.asked.push(m);
    this.onAsked(m);
    const p = m.params ?? {};
    switch (m.method) {
      case 'session/request_permission': {
        const id = this.permission(m);
        return id === undefined ? undefined : { outcome: { outcome: 'selected', optionId: id } };
      }
      case 'fs/read_text_file': {
        const lines = readFileSync(p.path as string, 'utf8').split('\n');
        const start = ((p.line as number | undefined) ?? 1) - 1;
        const end = p.limit !== undefined ? start + (p.limit as number) : undefined;
        return { content: lines.slice(start, end).join('\n') };
      }
      case 'fs/write_text_file':
        writeFileSync(p.path as string, p.content as string);
        return null;
      case 'terminal/create': {
        const id = `test-term-${++this.termSeq}`;
        const env: Record<string, string> = { ...(process.env as Record<string, string>) };
        for (const e of (p.env ?? []) as Array<{ name: string; value: string }>) env[e.name] = e.value;
        const proc = spawn(p.command as string, (p.args ?? []) as string[], {
          cwd: p.cwd as string | undefined,
          env,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        const t: TestTerminal = {
          id,
          command: p.command as string,
          args: (p.args ?? []) as string[],
          output: '',
          released: false,
          proc,
          exited: Promise.resolve(),
        };
        proc.stdout!.on('data', (d: Buffer) => {
          t.output += d.toString('utf8');
        });
        proc.stderr!.on('data', (d: Buffer) => {
          t.output += d.toString('utf8');
        });
        t.exited = new Promise((r) =>
          proc.on('close', (code, signal) => {
            t.exit = { exitCode: code, signal };
            r();
          }),
        );
        this.terminals.set(id, t);
        return { terminalId: id };
      }
      case 'terminal/wait_for_exit': {
        const t = this.terminals.get(p.terminalId as string)!;
        await t.exited;
        return t.exit;
      }
      case 'terminal/output': {
        const t = this.terminals.get(p.terminalId as string)!;
        return { output: t.output, truncated: false, exitStatus: t.exit ?? null };
      }
      case 'terminal/release': {
        const t = this.terminals.get(p.terminalId as string);
        if (!t) return null;
        t.released = true;
        if (!t.exit) t.proc.kill('SIGKILL');
        return null;
      }
      case 'terminal/kill': {
        this.terminals.get(p.terminalId as string)?.proc.kill('SIGKILL');
        return null;
      }
      default:
        return undefined;
    }
  }

  dispose(): void {
    for (const t of this.terminals.values()) if (!t.exit) t.proc.kill('SIGKILL');
  }
}

/** Tandem's MCP server with the IDE group (fake handler: records OpenFile calls). */
export async function tandemMcpServer(): Promise<{
  server: McpToolServer;
  slot: ToolSlot;
  opened: Array<{ path: string; line?: number }>;
  entry: unknown;
}> {
  const registry = new ToolRegistry();
  const opened: Array<{ path: string; line?: number }> = [];
  registry.register(ideGroup(opened));
  const server = new McpToolServer({ registry, config: () => DEFAULT_TOOLS_CONFIG, logger: new MemoryLogger() });
  await server.listen();
  const slot = server.openSlot();
  const entry = {
    type: 'http',
    name: 'tandem',
    url: slot.url,
    headers: [{ name: 'Authorization', value: `Bearer ${server.token}` }],
  };
  return { server, slot, opened, entry };
}

export const FULL_CAPS = { fs: { readTextFile: true, writeTextFile: true }, terminal: true };
