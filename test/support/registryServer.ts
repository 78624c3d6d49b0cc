// A registry on 127.0.0.1 for the tests: serves an index and archives by path, can redirect, and
// can be stopped to play "offline". Plus the tiny binary agent the tests pack: a shell script
// that runs `node` on a bundled ACP agent script (what a registry `binary` download looks like).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { makeTarGz, makeZip, type ArchiveEntry } from './archives';

export interface RegistryServer {
  /** http://127.0.0.1:PORT */
  url: string;
  set(path: string, body: string | Buffer | object): void;
  redirect(path: string, location: string): void;
  /** Paths requested so far. */
  readonly hits: string[];
  close(): Promise<void>;
}

/** Listens on `port` (0: any free one). The server never keeps a test process alive on its own. */
export async function serveRegistry(port = 0): Promise<RegistryServer> {
  const routes = new Map<string, { body?: Buffer; location?: string }>();
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    hits.push(path);
    const r = routes.get(path);
    if (r?.location) {
      res.writeHead(302, { location: r.location }).end();
    } else if (r?.body) {
      res.writeHead(200, { 'content-length': r.body.length }).end(r.body);
    } else {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  server.unref();
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    hits,
    set(path, body) {
      routes.set(path, {
        body: Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
      });
    },
    redirect(path, location) {
      routes.set(path, { location });
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The files of a binary agent: `bin/agent` (sh, runs node) and `lib/agent.js` (the ACP agent). */
export function tinyAgentFiles(agentJs: string | Buffer, extra: ArchiveEntry[] = []): ArchiveEntry[] {
  return [
    { name: 'bin/', dir: true },
    {
      name: 'bin/agent',
      mode: 0o755,
      data: '#!/bin/sh\nexec node "$(dirname "$0")/../lib/agent.js" "$@"\n',
    },
    { name: 'lib/', dir: true },
    { name: 'lib/agent.js', data: agentJs },
    ...extra,
  ];
}

export function tinyAgentArchive(format: 'tar.gz' | 'zip', agentJs: string | Buffer): Buffer {
  const files = tinyAgentFiles(agentJs);
  return format === 'zip' ? makeZip(files) : makeTarGz(files);
}
