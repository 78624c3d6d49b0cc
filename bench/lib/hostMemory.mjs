// Memory of a process Tandem's tests do not own the code of (the real VS Code's extension host),
// for test/e2e/flood-four.e2e.mjs:
//  - rssMB(pid): VmRSS from /proc/<pid>/status (Linux);
//  - processes(): every live process with its parent and argv (to find the host and the agents);
//  - heapAfterGc(pid): the V8 heap of a Node process after full collections, read through its
//    inspector: SIGUSR1 opens the inspector on 127.0.0.1:9229 (Node's default; what the flood
//    bench's CPU profiles used), HeapProfiler.collectGarbage twice, then process.memoryUsage()
//    evaluated in the process. The target is checked to be that pid (another process may hold
//    the port); null when it cannot be read. Node 20 has WebSocket only behind a flag, so the
//    exchange runs in a child: `node [--experimental-websocket] bench/lib/hostMemory.mjs <pid>`.
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const MB = 1024 * 1024;
const round = (n) => +n.toFixed(1);

/** Resident set of a process in MB (0 when it is gone). */
export function rssMB(pid) {
  try {
    return round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024);
  } catch {
    return 0;
  }
}

/** Every live process: pid, parent, argv. */
export function processes() {
  const out = [];
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (state === 'Z') continue;
      const argv = readFileSync(`/proc/${e}/cmdline`, 'utf8').split('\0').filter(Boolean);
      out.push({ pid: Number(e), ppid: Number(ppid), argv });
    } catch {
      /* gone meanwhile */
    }
  }
  return out;
}

/** { heapUsedMB, heapTotalMB, externalMB, rssMB } of `pid` after full GCs, or null (with the reason logged). */
export function heapAfterGc(pid, log = () => {}) {
  const flags = typeof WebSocket === 'undefined' ? ['--experimental-websocket', '--no-warnings'] : [];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...flags, fileURLToPath(import.meta.url), String(pid)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (b) => (out += b));
    child.stderr.on('data', (b) => (err += b));
    child.on('exit', () => {
      try {
        resolve(JSON.parse(out));
      } catch {
        log(`heap of ${pid}: ${err.trim() || out.trim() || 'no answer'}`);
        resolve(null);
      }
    });
  });
}

const PORT = 9229;

async function targetOf(pid) {
  const list = async () => {
    try {
      const r = await fetch(`http://127.0.0.1:${PORT}/json/list`, { signal: AbortSignal.timeout(2000) });
      return await r.json();
    } catch {
      return [];
    }
  };
  let targets = await list();
  if (!targets.length) {
    process.kill(pid, 'SIGUSR1');
    for (let i = 0; i < 100 && !targets.length; i++) {
      await new Promise((r) => setTimeout(r, 50));
      targets = await list();
    }
  }
  return targets[0]?.webSocketDebuggerUrl;
}

async function main(pid) {
  const url = await targetOf(pid);
  if (!url) throw new Error(`no inspector on 127.0.0.1:${PORT} after SIGUSR1 to ${pid}`);
  const ws = new WebSocket(url);
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = () => reject(new Error(`cannot connect to ${url}`));
  });
  let seq = 0;
  const waiting = new Map();
  ws.onmessage = (e) => {
    const msg = JSON.parse(String(e.data));
    const w = waiting.get(msg.id);
    if (!w) return;
    waiting.delete(msg.id);
    if (msg.error) w.reject(new Error(msg.error.message));
    else w.resolve(msg.result);
  };
  const send = (method, params = {}) =>
    new Promise((resolve, reject) => {
      const id = ++seq;
      waiting.set(id, { resolve, reject });
      ws.send(JSON.stringify({ id, method, params }));
    });
  const evaluate = async (expression) =>
    (await send('Runtime.evaluate', { expression, returnByValue: true })).result.value;
  const remotePid = await evaluate('process.pid');
  if (remotePid !== pid) throw new Error(`the inspector on port ${PORT} is process ${remotePid}, not ${pid}`);
  let m;
  // Full collections until one frees nothing worth counting (as bench/lib/memory.ts heapAfterGc).
  for (let i = 0, last = Infinity; i < 6; i++) {
    await send('HeapProfiler.collectGarbage');
    m = await evaluate('process.memoryUsage()');
    if (i >= 2 && Math.abs(last - m.heapUsed) < 16 * 1024) break;
    last = m.heapUsed;
  }
  ws.close();
  return {
    heapUsedMB: round(m.heapUsed / MB),
    heapTotalMB: round(m.heapTotal / MB),
    externalMB: round(m.external / MB),
    rssMB: round(m.rss / MB),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main(Number(process.argv[2])).then(
    (r) => {
      process.stdout.write(JSON.stringify(r));
      process.exit(0);
    },
    (e) => {
      process.stderr.write(String(e.message ?? e));
      process.exit(1);
    },
  );
}
