// The agent traffic: kept in a small ring (secrets redacted) for "Tandem: Show Traffic", written
// to the log at trace level, and recorded to a JSONL file the replay agent can play back when
// `tandem.recordTraffic` is on.
import * as vscode from 'vscode';
import { join } from 'node:path';
import { redactSecrets, TrafficRecorder } from '../../acp/trafficRecorder';
import type { Logger } from '../../common/logger';
import { recordTraffic } from '../config';

const RING = 2000;

export class Traffic implements vscode.Disposable {
  /** The last messages as they were (immutable once parsed); redacted and serialized only when shown. */
  private readonly ring: { ms: number; dir: 'in' | 'out'; msg: unknown }[] = [];
  private recorder?: TrafficRecorder;
  private readonly t0 = Date.now();

  constructor(
    private readonly channel: vscode.LogOutputChannel,
    private readonly logger: Logger,
    private readonly storage: vscode.Uri,
  ) {}

  /** For AcpConnectionOptions.traffic. */
  readonly onMessage = (dir: 'in' | 'out', msg: unknown): void => {
    // On the hot path: keep a reference, nothing more, unless recording or tracing.
    this.ring.push({ ms: Date.now() - this.t0, dir, msg });
    if (this.ring.length > RING * 2) this.ring.splice(0, this.ring.length - RING);
    this.recorder?.record(dir, msg);
    if (this.channel.logLevel === vscode.LogLevel.Trace)
      this.channel.trace(`${dir === 'in' ? '◀ agent' : '▶ agent'} ${JSON.stringify(redactSecrets(msg))}`);
  };

  /** A new connection starts: a new recording when recording is on. */
  async startConnection(agentName: string): Promise<void> {
    await this.recorder?.close();
    this.recorder = undefined;
    if (!recordTraffic()) return;
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const file = join(this.storage.fsPath, 'recordings', `${agentName.replace(/[^\w.-]+/g, '_')}-${stamp}.jsonl`);
    this.recorder = new TrafficRecorder(file, (err) =>
      this.logger.error(`Recording traffic to ${file} failed: ${err.message}`),
    );
    this.logger.info(`Recording ${agentName}'s traffic to ${file}`);
  }

  get recordingFile(): string | undefined {
    return this.recorder?.file;
  }

  async show(): Promise<void> {
    const lines = this.ring.slice(-RING).map((r) => {
      const line = JSON.stringify({ ms: r.ms, dir: r.dir === 'out' ? 'c->a' : 'a->c', msg: redactSecrets(r.msg) });
      return line.length > 100_000 ? `${line.slice(0, 100_000)}… (${line.length} characters)` : line;
    });
    const doc = await vscode.workspace.openTextDocument({ language: 'jsonl', content: lines.join('\n') + '\n' });
    await vscode.window.showTextDocument(doc, { preview: true });
  }

  dispose(): void {
    void this.recorder?.close();
  }
}
