// Records an agent connection's traffic as JSONL in the transcript format the replay agent
// plays back: {"ms": <since start>, "dir": "c->a" | "a->c", "msg": <JSON-RPC message>}.
// Secrets never reach the file: tokens, keys and auth fields are redacted.
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { dirname } from 'node:path';
import { redact } from '../common/redact';

const SECRET_KEY = /(authorization|token|secret|password|api[-_]?key|cookie|credential)/i;

/** Deep copy with secret-looking values replaced; MCP server headers and env values included. */
export function redactSecrets(value: unknown, depth = 0): unknown {
  if (depth > 64 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    // MCP headers / env arrive as [{name, value}]: judge the pair by its name.
    return value.map((v) =>
      isNameValue(v) && SECRET_KEY.test(v.name) ? { ...v, value: '[redacted]' } : redactSecrets(v, depth + 1),
    );
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] =
      SECRET_KEY.test(k) && (typeof v === 'string' || typeof v === 'number')
        ? '[redacted]'
        : COMMAND_KEYS.has(k) && (typeof v === 'string' || Array.isArray(v))
          ? redactCommand(v)
          : k === 'mcpServers' && Array.isArray(v)
            ? v.map(redactMcpServer)
            : redactSecrets(v, depth + 1);
  }
  return out;
}

/** Command lines (terminal/create's command and args) carry tokens under no telling key name. */
const COMMAND_KEYS = new Set(['command', 'args']);

function redactCommand(v: string | unknown[]): unknown {
  return typeof v === 'string' ? redact(v) : v.map((a) => (typeof a === 'string' ? redact(a) : a));
}

/** An MCP server entry (session/new|load|resume): its headers and env carry credentials under any name. */
function redactMcpServer(server: unknown): unknown {
  if (!server || typeof server !== 'object' || Array.isArray(server)) return redactSecrets(server, 1);
  const out = redactSecrets(server, 1) as Record<string, unknown>;
  for (const k of ['headers', 'env']) {
    const list = out[k];
    if (Array.isArray(list)) out[k] = list.map((e) => (isNameValue(e) ? { ...e, value: '[redacted]' } : e));
  }
  return out;
}

function isNameValue(v: unknown): v is { name: string; value: unknown } {
  return !!v && typeof v === 'object' && typeof (v as { name?: unknown }).name === 'string' && 'value' in v;
}

export class TrafficRecorder {
  private readonly out: WriteStream;
  private readonly t0 = Date.now();
  private failed = false;

  constructor(
    readonly file: string,
    private readonly onError: (err: Error) => void,
  ) {
    mkdirSync(dirname(file), { recursive: true });
    this.out = createWriteStream(file, { flags: 'w' });
    this.out.on('error', (err) => {
      this.failed = true;
      this.onError(err);
    });
  }

  /** Same shape as AcpConnectionOptions.traffic: 'out' is client → agent. */
  record(direction: 'in' | 'out', message: unknown): void {
    if (this.failed) return;
    const line = JSON.stringify({
      ms: Date.now() - this.t0,
      dir: direction === 'out' ? 'c->a' : 'a->c',
      msg: redactSecrets(message),
    });
    this.out.write(line + '\n');
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.out.end(resolve));
  }
}
