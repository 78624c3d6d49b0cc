// Latency measurement shared by the client-tool benches (P5): percentiles, a warmed-up timing
// loop, and the same-run baseline — a bare HTTP echo of a JSON-RPC-sized body over keep-alive
// on 127.0.0.1, the floor any loopback round trip pays.
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return +s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))].toFixed(3);
}

/** `n` timed runs of `fn` (ms each) after `warmup` untimed ones. */
export async function measure(fn: () => Promise<unknown>, n: number, warmup = Math.min(200, n)): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn();
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    out.push(performance.now() - t0);
  }
  return out;
}

export const summary = (xs: number[]) => ({ p50: pct(xs, 50), p99: pct(xs, 99) });

/** A bare HTTP echo server and a keep-alive client posting `body` to it. */
export async function httpEcho(body: string): Promise<{ roundTrip(): Promise<void>; close(): void }> {
  const echo = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const b = Buffer.concat(chunks);
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': b.length }).end(b);
    });
  });
  await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
  const port = (echo.address() as AddressInfo).port;
  const agent = new Agent({ keepAlive: true });
  return {
    roundTrip: () =>
      new Promise<void>((resolve, reject) => {
        const r = request(
          {
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: '/',
            agent,
            headers: { 'Content-Type': 'application/json' },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve());
          },
        );
        r.on('error', reject);
        r.end(body);
      }),
    close: () => {
      agent.destroy();
      echo.close();
    },
  };
}
