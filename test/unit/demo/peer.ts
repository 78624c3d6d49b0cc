// Test-side NDJSON client: spawns an agent script and speaks plain JSON-RPC lines to it
// (deliberately not our client code, so these tests check the fixtures on their own).
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { outRoot, repoRoot, transcriptsDir } from '../../support/paths';
import { until } from '../../support/until';

export { repoRoot, transcriptsDir };
export const scriptedAgentJs = join(outRoot, 'test/fixtures/agents/scripted-agent.js');
export const replayAgentJs = join(outRoot, 'test/fixtures/agents/replay-agent.js');
export const demoAgentJs = join(outRoot, 'src/demo/agent.js');
/** The bundles `node esbuild.mjs` writes (what the extension runs). */
export const demoAgentBundle = join(repoRoot, 'dist/demo-agent.js');
export const replayAgentBundle = join(repoRoot, 'dist/replay-agent.js');

/* eslint-disable @typescript-eslint/no-explicit-any -- tests read arbitrary JSON-RPC payloads */
export interface Msg {
  jsonrpc?: string;
  id?: number | string | null;
  method?: string;
  params?: any;
  result?: any;
  error?: any;
}
/* eslint-enable @typescript-eslint/no-explicit-any */

export class Peer {
  readonly child: ChildProcessWithoutNullStreams;
  readonly received: Msg[] = [];
  readonly rawLines: string[] = [];
  stderr = '';
  exitCode: number | null | undefined;
  exitSignal: string | null | undefined;
  private buf = '';
  private nextId = 1;
  /** Answers agent→client requests; return undefined to leave a request unanswered. */
  onRequest: (m: Msg) => unknown | Promise<unknown> = () => ({});

  constructor(args: string[], env: Record<string, string> = {}, cwd?: string) {
    this.child = spawn(process.execPath, args, { env: { ...process.env, ...env }, cwd, stdio: 'pipe' });
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (d: string) => {
      this.buf += d;
      let nl: number;
      while ((nl = this.buf.indexOf('\n')) >= 0) {
        const line = this.buf.slice(0, nl);
        this.buf = this.buf.slice(nl + 1);
        this.rawLines.push(line);
        let m: Msg | undefined;
        try {
          m = JSON.parse(line) as Msg;
        } catch {
          m = undefined;
        }
        if (m) this.onMessage(m);
      }
    });
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (d: string) => {
      this.stderr += d;
    });
    this.child.stdin.on('error', () => {
      /* agent gone */
    });
    this.child.on('exit', (code, signal) => {
      this.exitCode = code;
      this.exitSignal = signal;
    });
  }

  private onMessage(m: Msg): void {
    this.received.push(m);
    if (m.method !== undefined && m.id !== undefined && m.id !== null) {
      void Promise.resolve(this.onRequest(m)).then((result) => {
        if (result !== undefined) this.send({ jsonrpc: '2.0', id: m.id, result });
      });
    }
  }

  send(m: Msg): void {
    this.child.stdin.write(JSON.stringify(m) + '\n');
  }

  notify(method: string, params: unknown): void {
    this.send({ jsonrpc: '2.0', method, params });
  }

  async request(method: string, params: unknown, timeoutMs = 5000): Promise<Msg> {
    const id = this.nextId++;
    this.send({ jsonrpc: '2.0', id, method, params });
    return this.waitFor((m) => m.id === id && m.method === undefined, timeoutMs, `answer to ${method}`);
  }

  /** Waits for a received message matching `pred` (searching everything received so far). */
  async waitFor(pred: (m: Msg) => boolean, timeoutMs = 5000, what = 'message'): Promise<Msg> {
    let hit: Msg | undefined;
    // Stops early when the agent exits: no message comes after that.
    const found = () => (hit = this.received.find(pred)) !== undefined || this.exitCode !== undefined;
    try {
      await until(found, timeoutMs, what);
    } catch (err) {
      throw new Error(`${err instanceof Error ? err.message : err}; stderr: ${this.stderr}`);
    }
    if (hit) return hit;
    throw new Error(
      `agent exited (${this.exitCode ?? this.exitSignal}) while waiting for ${what}; stderr: ${this.stderr}`,
    );
  }

  async waitExit(timeoutMs = 5000): Promise<{ code: number | null; signal: string | null }> {
    await until(() => this.exitCode !== undefined, timeoutMs, 'the agent to exit');
    return { code: this.exitCode!, signal: this.exitSignal ?? null };
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see Msg
  updates(kind?: string): any[] {
    return this.received
      .filter((m) => m.method === 'session/update' && (!kind || m.params?.update?.sessionUpdate === kind))
      .map((m) => m.params.update);
  }

  kill(): void {
    if (this.exitCode === undefined) this.child.kill('SIGKILL');
  }
}
