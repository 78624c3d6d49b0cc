#!/usr/bin/env node
// P2: the real webview bundle (built minified, as shipped) in headless Chromium, fed by the
// real patch protocol: ACP updates → the session reducer (out/src/session/reducer.js) → patches
// batched per 16 ms and coalesced exactly like SessionViewProvider → window.postMessage into a
// page with a stub acquireVsCodeApi.
//
// Measures
//  - replay of a 10,000-tool-call session at 1,000 updates/s: patch-to-paint p50/p95/max
//    (postMessage → the frame that shows it has painted), longest main-thread task, DOM nodes;
//  - the same at 100 updates/s as baseline (the last BASELINE_UPDATES updates of the session,
//    on top of a snapshot of everything before them);
//  - initial render of a 10,000-call snapshot (postMessage → painted);
//  - streaming: 20,000 chunks into one message, markdown block renders vs chunks;
//  - bundle size minified: the entry + its static chunks, and the lazy terminal chunk.
// Budgets: p95 < 16 ms at 1,000/s, initial render < 300 ms, bundle < 150 KB. Prints JSON.
//
// node bench/webview.mjs [--quick] [--headed] [--pretty]   (one JSON line, like the other benches)
// Diagnostics of the replays (stderr): PROFILE=1 (CPU profile), PROFILE=trace [TRACE_OUT=file]
// (trace event totals), SPLIT=1 (the frame's work before/after the app's rAF, and main-thread
// time per message from CDP metrics), MUT=1 (DOM mutations by kind), LATDUMP=1 (every latency).
import * as esbuild from 'esbuild';
import { createServer } from 'node:http';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';

const REPO = resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
const quick = process.argv.includes('--quick');
const CALLS = quick ? 2000 : 10_000;
const RATE = 1000;
const BASE_RATE = 100;
const BASELINE_UPDATES = quick ? 300 : 1500;

// ---- build the webview as shipped (minified) into a temp dir --------------------------------
const out = mkdtempSync(join(tmpdir(), 'tandem-bench-webview-'));
const build = await esbuild.build({
  entryPoints: { webview: join(REPO, 'src/webview/main.tsx') },
  bundle: true,
  minify: !process.env.PROFILE,
  format: 'esm',
  splitting: true,
  outdir: out,
  platform: 'browser',
  target: 'chrome120',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  metafile: true,
  legalComments: 'none',
  logLevel: 'warning',
  chunkNames: 'webview-chunks/[name]-[hash]',
});
const outputs = build.metafile.outputs;
const entryKey = Object.keys(outputs).find((k) => outputs[k].entryPoint?.endsWith('src/webview/main.tsx'));
const eager = new Set([entryKey]);
for (let grew = true; grew;) {
  grew = false;
  for (const k of [...eager])
    for (const imp of outputs[k].imports)
      if (imp.kind === 'import-statement' && !eager.has(imp.path)) {
        eager.add(imp.path);
        grew = true;
      }
}
const jsKeys = Object.keys(outputs).filter((k) => k.endsWith('.js'));
const bytes = (k) => statSync(resolve(k)).size;
const bundle = {
  entryKB: +(bytes(entryKey) / 1024).toFixed(1),
  eagerKB: +([...eager].reduce((n, k) => n + bytes(k), 0) / 1024).toFixed(1),
  lazyKB: +(jsKeys.filter((k) => !eager.has(k)).reduce((n, k) => n + bytes(k), 0) / 1024).toFixed(1),
  lazyChunks: jsKeys.filter((k) => !eager.has(k)).map((k) => k.split('/').pop()),
};
bundle.budgetKB = 150;
bundle.ok = bundle.eagerKB < 150;

// ---- the session: ACP updates → reducer → patches, batched like the host ---------------------
if (!existsSync(join(REPO, 'out/src/session/reducer.js')))
  execFileSync(process.execPath, ['esbuild.mjs', '--tests-only'], { cwd: REPO, stdio: 'inherit' });
const { createSessionState, reduce } = require(join(REPO, 'out/src/session/reducer.js'));
const { toSnapshot, turnWithCalls, getToolCall } = require(join(REPO, 'out/src/session/snapshot.js'));
const { coalescePatches } = require(join(REPO, 'out/src/shared/patches.js'));
const { TurnOutliner } = require(join(REPO, 'out/src/shared/turnOutline.js'));
const sourceOf = (state) => ({
  fullTurn: (t) => turnWithCalls(state, t),
  turnOfCall: (id) => getToolCall(state, id)?.turn,
});

const KINDS = ['read', 'edit', 'search', 'execute', 'fetch', 'think', 'other'];
const TOOLS = ['Read', 'Edit', 'Grep', 'Bash', 'WebFetch', 'Task', 'Glob'];
function* sessionUpdates() {
  // 50 turns of 200 tool calls, each call created then completed 3 calls later, with a few
  // message chunks in between (a tool-heavy agent).
  const perTurn = CALLS / 50;
  let n = 0;
  for (let t = 0; t < 50; t++) {
    yield { type: 'promptStarted', prompt: [{ type: 'text', text: `Task ${t + 1}: refactor module ${t}` }] };
    const open = [];
    for (let i = 0; i < perTurn; i++, n++) {
      const k = n % KINDS.length;
      yield {
        type: 'update',
        update: {
          sessionUpdate: 'tool_call',
          toolCallId: `call-${n}`,
          title: `${TOOLS[k]} src/module${t}/file${i}.ts`,
          kind: KINDS[k],
          status: 'in_progress',
          locations: [{ path: `/ws/src/module${t}/file${i}.ts`, line: i + 1 }],
          rawInput: { file_path: `/ws/src/module${t}/file${i}.ts` },
          _meta: { claudeCode: { toolName: TOOLS[k] } },
        },
      };
      open.push(n);
      if (open.length > 3) {
        const id = open.shift();
        yield {
          type: 'update',
          update: {
            sessionUpdate: 'tool_call_update',
            toolCallId: `call-${id}`,
            status: id % 97 === 0 ? 'failed' : 'completed',
            content: [{ type: 'content', content: { type: 'text', text: `done ${id}` } }],
          },
        };
      }
      if (i % 10 === 0)
        yield {
          type: 'update',
          update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `Working on file ${i}; ` } },
        };
    }
    for (const id of open)
      yield {
        type: 'update',
        update: { sessionUpdate: 'tool_call_update', toolCallId: `call-${id}`, status: 'completed' },
      };
    yield {
      type: 'update',
      update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `\n\nTurn ${t + 1} done.` } },
    };
    yield { type: 'promptEnded', stopReason: 'end_turn' };
  }
}

function replayPlan(startAt, rate) {
  // Returns { snapshot (state before startAt), messages: [{t (ms), msg}] }.
  // Like SessionViewProvider: the snapshot outlines folded turns; patches pass the outliner.
  let state = createSessionState('bench');
  const outliner = new TurnOutliner();
  let i = 0;
  let snapshot;
  const msgs = [];
  let batch = [];
  let batchT = -1;
  const flushAt = (t) => {
    if (batch.length)
      msgs.push({ t: batchT, msg: { type: 'patch', sessionId: 'bench', patches: coalescePatches(batch) } });
    batch = [];
    batchT = t;
  };
  for (const a of sessionUpdates()) {
    if (i === startAt) snapshot = outliner.snapshot(toSnapshot(state));
    const at = i < startAt ? 0 : (i - startAt) * (1000 / rate);
    const r = reduce(state, { ...a, at: 1_700_000_000_000 + i * 2 });
    state = r.state;
    if (i >= startAt) {
      // The host flushes 16 ms after the first patch of a batch.
      if (batchT < 0 || at >= batchT + 16) flushAt(at);
      for (const p of outliner.patches('bench', r.patches, sourceOf(state))) batch.push(p);
    }
    i++;
  }
  flushAt(Infinity);
  return {
    snapshot: snapshot ?? outliner.snapshot(toSnapshot(state)),
    messages: msgs,
    total: i,
    final: toSnapshot(state),
    state,
  };
}

// ---- page ----------------------------------------------------------------------------------
const css = readFileSync(join(REPO, 'media/webview.css'), 'utf8');
const codicons = join(REPO, 'node_modules/@vscode/codicons/dist');
const THEME = `:root{--vscode-font-family:sans-serif;--vscode-font-size:13px;--vscode-foreground:#ccc;--vscode-sideBar-background:#181818;
--vscode-editor-font-family:monospace;--vscode-descriptionForeground:#9d9d9d;--vscode-list-hoverBackground:#2a2d2e;--vscode-input-background:#313131;
--vscode-button-background:#0078d4;--vscode-button-foreground:#fff;--vscode-focusBorder:#0078d4;--vscode-widget-border:#313131;--vscode-textCodeBlock-background:#2b2b2b;}`;
const HTML = `<!DOCTYPE html><html><head><meta charset="utf-8">
<link rel="stylesheet" href="/codicon.css"><style>${THEME}</style><link rel="stylesheet" href="/webview.css"></head>
<body style="width:400px;height:900px"><div id="root"></div>
<script>
window.__posted = [];
// Registered before the app: the cost of receiving a message (structured-clone deserialization).
window.__deser = [];
window.addEventListener('message', (e) => { const t = performance.now(); void e.data; window.__deser.push(performance.now() - t); });
// The host's side of the loadTurns request (the bench answers through a binding, like the
// extension host): the fullTurn patches, then the reply with the request's seq.
window.acquireVsCodeApi = () => ({ postMessage: (m) => {
  window.__posted.push(m);
  if (m.type === 'request' && m.method === 'loadTurns' && window.__host) { window.__asked = (window.__asked ?? 0) + 1; const ta = performance.now(); window.__host(m.params).then((patch) => { window.__hostMs = (window.__hostMs ?? 0) + performance.now() - ta; window.postMessage(JSON.parse(patch), '*'); window.postMessage({ type: 'reply', seq: m.seq, result: { loaded: m.params.turns } }, '*'); window.__answered = (window.__answered ?? 0) + 1; }); }
}, getState: () => undefined, setState: () => undefined });
window.__longest = 0; window.__stalls = 0;
// The gap probe of bench/flood (test/e2e/gapProbe.mjs), here too: a 50 ms timer's longest wait.
window.__gap = { max: 0, prev: performance.now() };
setInterval(() => { const now = performance.now(); window.__gap.max = Math.max(window.__gap.max, now - window.__gap.prev); window.__gap.prev = now; }, 50);
window.__mut = {};
// MUT=1: count DOM mutations by kind and target (what a frame really changes).
const nodeName = (n) => n.nodeType === 1 ? n.tagName + '.' + (n.className?.baseVal ?? n.className) : n.parentElement?.tagName + '.' + n.parentElement?.className + ' (text)';
if (location.search.includes('mut')) new MutationObserver((ms) => {
  for (const m of ms) {
    const added = m.addedNodes.length ? ' +' + [...m.addedNodes].map((n) => n.nodeType === 1 ? n.tagName + '.' + n.className : '#text').join(',') : '';
    const k = m.type + ' ' + (m.type === 'attributes' ? m.attributeName + ' on ' : '') + nodeName(m.target) + added;
    window.__mut[k] = (window.__mut[k] ?? 0) + 1;
  }
}).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
try { new PerformanceObserver((l) => { for (const e of l.getEntries()) { window.__longest = Math.max(window.__longest, e.duration); if (e.duration > 100) window.__stalls++; } }).observe({ type: 'longtask', buffered: true }); } catch {}
// Patch-to-paint: a message is painted when a task posted from the next animation frame after
// its dispatch runs (rAF callbacks run in order: the app's flush first, then ours).
// Each latency splits in two: waiting for the frame (postMessage → the frame's rAF timestamp, the
// display's 60 Hz phase) and the frame's work (its timestamp → painted: a late start when the
// previous frame ran over, the app's flush and render, style, layout, paint).
window.__lat = []; window.__phases = [];
window.__measure = (t0) => requestAnimationFrame((ts) => {
  const ch = new MessageChannel();
  const t1 = performance.now(); ch.port1.onmessage = () => { const t2 = performance.now(); window.__lat.push(t2 - t0); window.__phases.push([ts - t0, t2 - ts, t1 - ts, t2 - t1]); };
  ch.port2.postMessage(0);
});
window.__t0s = [];
window.__send = (msg) => { window.__t0s.push(performance.now()); window.postMessage(msg, '*'); };
// Registered after the app's own listener: runs after the mirror queued its frame.
window.__hook = () => window.addEventListener('message', () => { const t0 = window.__t0s.shift(); if (t0 !== undefined) window.__measure(t0); });
window.__replay = (list) => new Promise((res) => {
  const start = performance.now(); let i = 0;
  const tick = () => {
    const now = performance.now() - start;
    while (i < list.length && list[i].t <= now) window.__send(list[i++].msg);
    if (i < list.length) setTimeout(tick, Math.max(0, Math.min(16, list[i].t - (performance.now() - start)))); else setTimeout(res, 300);
  };
  tick();
});
</script>
<script type="module" src="/webview.js"></script></body></html>`;

// The same-run floor: the same page and messages, but an "app" that does nothing but count the
// patches into one text node on the next animation frame. What it measures is what no renderer
// can beat here: message delivery plus the wait for the display's next frame.
const FLOOR_HTML = HTML.replace(
  '<script type="module" src="/webview.js"></script>',
  `<script>
const out = document.getElementById('root'); let n = 0, frame = 0;
window.addEventListener('message', (e) => { const m = e.data; if (m && m.type === 'patch') { n += m.patches.length; frame ||= requestAnimationFrame(() => { frame = 0; out.textContent = 'patches: ' + n; }); } });
window.acquireVsCodeApi().postMessage({ type: 'ready' });
</script>`,
);

const server = createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  const type = { '.js': 'text/javascript', '.css': 'text/css', '.ttf': 'font/ttf', '.html': 'text/html' };
  let file;
  if (url.pathname === '/') {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(HTML);
    return;
  }
  if (url.pathname === '/floor') {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(FLOOR_HTML);
    return;
  }
  if (url.pathname === '/webview.css') {
    res.writeHead(200, { 'content-type': 'text/css' });
    res.end(css);
    return;
  }
  if (url.pathname.startsWith('/codicon.')) file = join(codicons, url.pathname.slice(1));
  else file = join(out, url.pathname.slice(1));
  if (!file.startsWith(out) && !file.startsWith(codicons)) {
    res.writeHead(403);
    res.end();
    return;
  }
  try {
    const b = readFileSync(file);
    res.writeHead(200, { 'content-type': type[extname(file)] ?? 'application/octet-stream' });
    res.end(b);
  } catch {
    res.writeHead(404);
    res.end();
  }
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${server.address().port}/`;

const { chromium } = await import('playwright-core');
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  headless: !process.argv.includes('--headed'),
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    ...(process.env.FREE ? ['--disable-frame-rate-limit', '--disable-gpu-vsync'] : []),
  ],
});

const agent = { name: 'Bench', state: 'ready' };
async function freshPage(host, path = '') {
  const page = await browser.newPage({ viewport: { width: 400, height: 900 } });
  if (host) await page.exposeFunction('__host', host);
  await page.goto(base + path);
  await page.waitForFunction(() => window.__posted.some((m) => m.type === 'ready'));
  await page.evaluate(() => window.__hook());
  return page;
}
const pct = (a, p) => {
  const s = [...a].sort((x, y) => x - y);
  return s.length ? +s[Math.min(s.length - 1, Math.floor(p * s.length))].toFixed(2) : null;
};
const domNodes = (page) => page.evaluate(() => document.getElementsByTagName('*').length);
// Webview JS heap (memory report of issue 8): CDP JSHeapUsedSize after a forced GC, in MB.
async function heapMB(page) {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('HeapProfiler.collectGarbage');
    await cdp.send('Performance.enable');
    const { metrics } = await cdp.send('Performance.getMetrics');
    return +(metrics.find((m) => m.name === 'JSHeapUsedSize').value / 1048576).toFixed(1);
  } finally {
    await cdp.detach().catch(() => {});
  }
}

async function replayRun(startAt, rate, label, path = '') {
  const plan = replayPlan(startAt, rate);
  return replayMessages({ ...plan, updates: plan.total - startAt }, rate, label, path);
}

/**
 * Replays `plan.messages` ({t, msg}) on top of `plan.snapshot` and measures each message's
 * patch-to-paint, split into the frame wait and the frame's work; `extra(page)` adds figures read
 * from the page before it closes.
 */
async function replayMessages(plan, rate, label, path = '', extra) {
  const page = await freshPage(undefined, path + (process.env.MUT ? '?mut' : ''));
  await page.evaluate((m) => window.__send(m), { type: 'snapshot', agent, session: plan.snapshot });
  await page.waitForTimeout(500);
  await page.evaluate(() => {
    window.__lat = [];
    window.__phases = [];
    window.__longest = 0;
    window.__stalls = 0;
  });
  const updates = plan.updates;
  const mcdp = process.env.SPLIT ? await page.context().newCDPSession(page) : undefined;
  await mcdp?.send('Performance.enable');
  const metricsOf = async () => {
    const { metrics } = await mcdp.send('Performance.getMetrics');
    return Object.fromEntries(metrics.map((m) => [m.name, m.value]));
  };
  const m0 = process.env.SPLIT ? await metricsOf() : undefined;
  const t0 = Date.now();
  const cdp = process.env.PROFILE ? await page.context().newCDPSession(page) : undefined;
  if (cdp && process.env.PROFILE === 'trace') {
    await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
  } else if (cdp) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.start');
  }
  // The list crosses into the page first: deserializing it is the bench's cost, not a frame's.
  await page.evaluate((list) => {
    window.__list = list;
  }, plan.messages);
  await page.waitForTimeout(200);
  await page.evaluate(() => {
    window.__gap.max = 0;
    window.__gap.prev = performance.now();
  });
  await page.evaluate(() => window.__replay(window.__list));
  const wall = Date.now() - t0;
  const maxTimerGapMs = Math.round(await page.evaluate(() => window.__gap.max));
  if (m0) {
    const m1 = await metricsOf();
    console.error(
      'main thread per message (ms):',
      JSON.stringify(
        Object.fromEntries(
          ['TaskDuration', 'ScriptDuration', 'LayoutDuration', 'RecalcStyleDuration'].map((k) => [
            k,
            +(((m1[k] - m0[k]) * 1000) / plan.messages.length).toFixed(2),
          ]),
        ),
      ),
      'frames',
      m1.Frames - m0.Frames,
    );
  }
  if (cdp && process.env.PROFILE === 'trace') {
    const buf = await browser.stopTracing();
    if (process.env.TRACE_OUT) writeFileSync(process.env.TRACE_OUT, buf);
    const ev = JSON.parse(buf.toString()).traceEvents;
    const sum = new Map();
    let maxLayout = 0,
      maxObjs = 0;
    for (const e of ev)
      if (e.ph === 'X' && e.dur) {
        sum.set(e.name, sum.get(e.name) ?? [0, 0]);
        const v = sum.get(e.name);
        v[0] += e.dur / 1000;
        v[1]++;
        if (e.name === 'Layout') {
          maxLayout = Math.max(maxLayout, e.dur / 1000);
          maxObjs = Math.max(maxObjs, e.args?.beginData?.totalObjects ?? 0);
        }
      }
    const lays = ev
      .filter((e) => e.ph === 'X' && e.name === 'Layout' && e.dur)
      .map((e) => [
        e.dur / 1000,
        e.args?.beginData?.dirtyObjects,
        e.args?.beginData?.totalObjects,
        e.args?.beginData?.partialLayout,
      ]);
    lays.sort((a, b) => b[0] - a[0]);
    console.error(
      'layouts',
      lays.length,
      'top',
      JSON.stringify(lays.slice(0, 8)),
      'median',
      JSON.stringify(lays[Math.floor(lays.length / 2)]),
    );
    const styles = ev
      .filter((e) => e.ph === 'X' && e.name === 'UpdateLayoutTree' && e.dur)
      .map((e) => [e.dur / 1000, e.args?.elementCount])
      .sort((a, b) => b[0] - a[0]);
    console.error(
      'styles',
      styles.length,
      JSON.stringify(styles.slice(0, 5)),
      'median',
      JSON.stringify(styles[Math.floor(styles.length / 2)]),
    );
    console.error(
      label,
      'maxLayout',
      maxLayout,
      'maxObjs',
      maxObjs,
      [...sum]
        .sort((a, b) => b[1][0] - a[1][0])
        .slice(0, 15)
        .map(([k, v]) => `${v[0].toFixed(0)}ms x${v[1]} ${k}`)
        .join('\n'),
    );
  } else if (cdp) {
    const { profile } = await cdp.send('Profiler.stop');
    const self = new Map();
    const dt = profile.timeDeltas;
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    profile.samples.forEach((id, i) => {
      const n = byId.get(id);
      const k = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}:${n.callFrame.columnNumber}`;
      self.set(k, (self.get(k) ?? 0) + (dt[i] ?? 0) / 1000);
    });
    console.error(
      label,
      [...self]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 25)
        .map(([k, v]) => `${v.toFixed(0)}ms ${k}`)
        .join('\n'),
    );
    // Inclusive time per function (a frame counted once even when it recurses).
    const selfOf = new Map();
    profile.samples.forEach((id, i) => selfOf.set(id, (selfOf.get(id) ?? 0) + (dt[i] ?? 0) / 1000));
    const keyOf = (n) =>
      `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`;
    const incl = new Map();
    const walk = (n, open) => {
      let t = selfOf.get(n.id) ?? 0;
      const k = keyOf(n);
      const mine = !open.has(k);
      if (mine) open.add(k);
      for (const c of n.children ?? []) t += walk(byId.get(c), open);
      if (mine) {
        open.delete(k);
        incl.set(k, (incl.get(k) ?? 0) + t);
      }
      return t;
    };
    walk(profile.nodes[0], new Set());
    console.error(
      'inclusive',
      [...incl]
        .filter(([k]) => /webview|chunk/.test(k))
        .sort((a, b) => b[1] - a[1])
        .slice(0, 40)
        .map(([k, v]) => `${v.toFixed(0)}ms ${k}`)
        .join('\n'),
    );
  }
  if (process.env.MUT)
    console.error(
      Object.entries(await page.evaluate(() => window.__mut))
        .sort((a, b) => b[1] - a[1])
        .slice(0, 40)
        .map(([k, v]) => v + ' ' + k)
        .join('\n'),
    );
  const lat = await page.evaluate(() => window.__lat);
  const phases = await page.evaluate(() => window.__phases);
  if (process.env.LATDUMP) console.error(label, lat.map((x) => x.toFixed(0)).join(' '));
  // LATDUMP=ops: the slowest 5 % of messages with what they carried (and the message before).
  if (process.env.LATDUMP === 'ops') {
    const ops = (m) =>
      Object.entries(
        m.patches.reduce((c, p) => {
          const k = p.op + (p.op === 'turn' && p.turn.stopReason ? ':end' : '');
          c[k] = (c[k] ?? 0) + 1;
          return c;
        }, {}),
      )
        .map(([k, v]) => k + v)
        .join(',');
    const order = lat
      .map((x, i) => i)
      .sort((a, b) => lat[b] - lat[a])
      .slice(0, Math.ceil(lat.length / 20));
    for (const i of order)
      console.error(
        `#${i} ${lat[i].toFixed(1)} ms wait ${phases[i][0].toFixed(1)} work ${phases[i][1].toFixed(1)} | ${ops(plan.messages[i].msg)} | before: ${i ? ops(plan.messages[i - 1].msg) : '-'}`,
      );
  }
  const r = {
    label,
    rate,
    updates,
    messages: plan.messages.length,
    wallMs: wall,
    jsHeapMB: await heapMB(page),
    patchToPaintMs: { p50: pct(lat, 0.5), p95: pct(lat, 0.95), max: pct(lat, 1) },
    // The two parts of each latency: the wait for the display's next frame, the frame's work.
    frameWaitMs: {
      p50: pct(
        phases.map((p) => p[0]),
        0.5,
      ),
      p95: pct(
        phases.map((p) => p[0]),
        0.95,
      ),
    },
    frameWorkMs: {
      p50: pct(
        phases.map((p) => p[1]),
        0.5,
      ),
      p95: pct(
        phases.map((p) => p[1]),
        0.95,
      ),
      max: pct(
        phases.map((p) => p[1]),
        1,
      ),
    },
    ...(process.env.SPLIT
      ? {
          toRafMs: {
            p50: pct(
              phases.map((p) => p[2]),
              0.5,
            ),
            p95: pct(
              phases.map((p) => p[2]),
              0.95,
            ),
          },
          afterRafMs: {
            p50: pct(
              phases.map((p) => p[3]),
              0.5,
            ),
            p95: pct(
              phases.map((p) => p[3]),
              0.95,
            ),
          },
        }
      : {}),
    longestTaskMs: +(await page.evaluate(() => window.__longest)).toFixed(1),
    stallsOver100ms: await page.evaluate(() => window.__stalls),
    maxTimerGapMs,
    domNodes: await domNodes(page),
    toolRowsInDom: await page.evaluate(() => document.querySelectorAll('[data-testid="tool-call"]').length),
  };
  const shown = await page.evaluate(() => document.querySelectorAll('[data-testid="turn"]').length);
  r.turnHeadersInDom = shown;
  if (extra) Object.assign(r, await extra(page));
  await page.close();
  return r;
}

async function initialRender() {
  const plan = replayPlan(Number.MAX_SAFE_INTEGER, RATE);
  const full = plan.final;
  // What the host sends: folded turns as outlines (src/shared/turnOutline.ts); it answers the
  // view's loadTurns requests with fullTurn patches.
  const hostFor = () => {
    const outliner = new TurnOutliner();
    const snap = outliner.snapshot(full);
    // As a JSON string, the way VS Code carries messages to a webview (and far faster through CDP).
    const host = async (params) =>
      JSON.stringify({
        type: 'patch',
        sessionId: 'bench',
        patches: outliner.request('bench', params.turns, sourceOf(plan.state)),
      });
    return { snap, host };
  };
  const first = hostFor();
  const page = await freshPage(first.host);
  const emptyHeapMB = await heapMB(page);
  const icdp = process.env.PROFILE === 'initial' ? await page.context().newCDPSession(page) : undefined;
  if (icdp) {
    await icdp.send('Profiler.enable');
    await icdp.send('Profiler.start');
  }
  const ms = await page.evaluate(
    (m) =>
      new Promise((res) => {
        const t0 = performance.now();
        window.__t0s.push(t0);
        window.postMessage(m, '*');
        requestAnimationFrame(() => requestAnimationFrame(() => res(performance.now() - t0)));
      }),
    { type: 'snapshot', agent, session: first.snap },
  );
  if (icdp) {
    const { profile } = await icdp.send('Profiler.stop');
    const self = new Map();
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    profile.samples.forEach((id, i) => {
      const n = byId.get(id);
      const k = `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}`;
      self.set(k, (self.get(k) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
    });
    console.error(
      'initial',
      [...self]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 20)
        .map(([k, v]) => `${v.toFixed(0)}ms ${k}`)
        .join('\n'),
    );
  }
  const sessionHeapMB = await heapMB(page);
  const deser = await page.evaluate(() => window.__deser[window.__deser.length - 1]);
  // The same with everything expanded (worst case: 10,000 rows in the list; every turn loaded).
  await page.click('[data-testid="expand-all"]');
  await page.waitForFunction(() => window.__asked > 0 && window.__answered === window.__asked);
  await page.waitForTimeout(300);
  const nodesExpanded = await domNodes(page);
  const expandedHeapMB = await heapMB(page);
  const second = hostFor();
  const page2 = await freshPage(second.host);
  const msAll = await page2.evaluate(
    async (m) => {
      const t0 = performance.now();
      window.__t0s.push(t0);
      window.postMessage(m, '*');
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      const first = performance.now() - t0;
      document.querySelector('[data-testid="expand-all"]').click();
      const t1 = performance.now();
      // Until every unfolded turn has its content (a round trip to the host) and it is painted.
      await new Promise((r) => {
        const poll = () =>
          window.__asked > 0 && window.__answered === window.__asked ? r() : requestAnimationFrame(poll);
        requestAnimationFrame(poll);
      });
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      return { first, expandAll: performance.now() - t1, roundTrip: window.__hostMs };
    },
    { type: 'snapshot', agent, session: second.snap },
  );
  const r = {
    deserializeMs: +deser.toFixed(1),
    calls: Object.keys(full.toolCalls).length,
    turns: full.turns.length,
    snapshotMB: +(JSON.stringify(first.snap).length / 1e6).toFixed(2),
    fullSnapshotMB: +(JSON.stringify(full).length / 1e6).toFixed(1),
    initialRenderMs: +ms.toFixed(1),
    initialRenderMsRepeat: +msAll.first.toFixed(1),
    expandAllMs: +msAll.expandAll.toFixed(1),
    // Of which the round trip to the bench's host (Playwright binding; VS Code's IPC differs).
    expandAllRoundTripMs: +msAll.roundTrip.toFixed(1),
    domNodes: await domNodes(page),
    domNodesAllExpanded: nodesExpanded,
    budgetMs: 300,
    // Baseline: the same page with the app loaded and no session yet.
    jsHeapMB: {
      empty: emptyHeapMB,
      session: sessionHeapMB,
      sessionAllExpanded: expandedHeapMB,
      sessionMinusEmpty: +(sessionHeapMB - emptyHeapMB).toFixed(1),
    },
  };
  r.ok = Math.max(r.initialRenderMs, r.initialRenderMsRepeat) < 300;
  await page.close();
  await page2.close();
  return r;
}

async function streaming(path = '') {
  // One agent message streamed in 20,000 chunks (markdown with paragraphs, lists, code).
  const words = 'The quick brown fox jumps over the lazy dog and `code` with **bold** text'.split(' ');
  const chunks = [];
  for (let i = 0; i < 20_000; i++) {
    let c = words[i % words.length] + ' ';
    if (i % 40 === 39) c += '\n\n';
    if (i % 400 === 199) c += '\n\n```ts\nconst x = 1;\n```\n\n- item a\n- item b\n\n';
    chunks.push(c);
  }
  let state = createSessionState('bench');
  state = reduce(state, { type: 'promptStarted', at: 1, prompt: [{ type: 'text', text: 'stream' }] }).state;
  const snapshot = toSnapshot(state);
  const msgs = [];
  let batch = [];
  chunks.forEach((c, i) => {
    const r = reduce(state, {
      type: 'update',
      at: 2 + i,
      update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: c } },
    });
    state = r.state;
    batch.push(...r.patches);
    if (i % 50 === 49) {
      msgs.push({ t: msgs.length * 16, msg: { type: 'patch', sessionId: 'bench', patches: coalescePatches(batch) } });
      batch = [];
    }
  });
  if (batch.length)
    msgs.push({ t: msgs.length * 16, msg: { type: 'patch', sessionId: 'bench', patches: coalescePatches(batch) } });
  const plan = { snapshot, messages: msgs, updates: chunks.length };
  const shown = async (page) => ({
    chunks: chunks.length,
    chars: chunks.join('').length,
    mdBlocksInDom: await page.evaluate(() => document.querySelectorAll('.md-block').length),
    textShown: await page.evaluate(
      () => document.querySelector('[data-testid="message-agent"]')?.textContent?.length ?? 0,
    ),
  });
  return replayMessages(plan, 1000 / 16, `streaming 20,000 chunks${path ? ' (empty renderer)' : ''}`, path, shown);
}

/**
 * The flood of bench/flood in the page alone: 2,000 tool calls (each completed 4 calls later)
 * interleaved with 20,000 message chunks, as the host delivered them in the real VS Code
 * (test/e2e/flood.e2e.mjs): about 24 messages of ~1,000 updates each, one every 90 ms.
 */
async function floodBatches(path = '') {
  const N = quick ? 500 : 2000;
  const M = N * 10;
  const PER_MESSAGE = 1000;
  let state = createSessionState('bench');
  const outliner = new TurnOutliner();
  const messages = [];
  let batch = [];
  let updates = 0;
  const step = (a) => {
    const r = reduce(state, { ...a, at: 1_700_000_000_000 + updates });
    state = r.state;
    for (const p of outliner.patches('bench', r.patches, sourceOf(state))) batch.push(p);
    if (++updates % PER_MESSAGE === 0) flush();
  };
  const flush = () => {
    if (batch.length)
      messages.push({
        t: messages.length * 90,
        msg: { type: 'patch', sessionId: 'bench', patches: coalescePatches(batch) },
      });
    batch = [];
  };
  step({ type: 'promptStarted', prompt: [{ type: 'text', text: 'flood' }] });
  const snapshot = outliner.snapshot(toSnapshot(state));
  batch = [];
  let chunkNo = 0;
  const complete = (i) =>
    step({
      type: 'update',
      update: {
        sessionUpdate: 'tool_call_update',
        toolCallId: `flood-${i}`,
        status: 'completed',
        content: [{ type: 'content', content: { type: 'text', text: `result ${i}` } }],
        rawOutput: { i },
      },
    });
  for (let i = 0; i < N; i++) {
    step({
      type: 'update',
      update: {
        sessionUpdate: 'tool_call',
        toolCallId: `flood-${i}`,
        title: `Flood tool call ${i}`,
        kind: 'execute',
        status: 'in_progress',
        rawInput: { i },
      },
    });
    for (let k = Math.floor((i * M) / N); k < Math.floor(((i + 1) * M) / N); k++)
      step({
        type: 'update',
        update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `chunk ${chunkNo++} ` } },
      });
    if (i >= 4) complete(i - 4);
  }
  for (let i = N - 4; i < N; i++) complete(i);
  step({ type: 'promptEnded', stopReason: 'end_turn' });
  flush();
  return replayMessages(
    { snapshot, messages, updates },
    1000 / 90,
    `flood: ${N} calls + ${M} chunks in ${messages.length} messages${path ? ' (empty renderer)' : ''}`,
    path,
  );
}

/**
 * A command printing 20 MB into a live terminal of the running turn at the rate the long-output
 * e2e measured with real agents (20 MB in about 7.5 s; build-tool lines, some colored), sent the
 * way Tandem's terminal sends it (src/client/terminals/liveOutput.ts): a flush after 50 ms, then, while
 * the output pours, one per HEAVY_FLUSH_MS holding at most the view's 256 KiB from a whole line.
 */
async function terminalFlood(path = '') {
  const { LIVE_FLUSH_MS, HEAVY_FLUSH_MS, HEAVY_FLUSH_BYTES } = require(
    join(REPO, 'out/src/client/terminals/liveOutput.js'),
  );
  const { TERMINAL_VIEW_MAX_CHARS } = require(join(REPO, 'out/src/shared/sessionModel.js'));
  const TOTAL = quick ? 5e6 : 20e6;
  const BYTES_PER_MS = 20e6 / 7500;
  let state = createSessionState('bench');
  const outliner = new TurnOutliner();
  const step = (a) => {
    const r = reduce(state, { ...a, at: 1_700_000_000_000 });
    state = r.state;
    return [...outliner.patches('bench', r.patches, sourceOf(state))];
  };
  step({ type: 'promptStarted', prompt: [{ type: 'text', text: 'build it' }] });
  const call = {
    sessionUpdate: 'tool_call',
    toolCallId: 'x1',
    title: 'Run node print.js',
    kind: 'execute',
    status: 'in_progress',
    content: [{ type: 'terminal', terminalId: 't1' }],
  };
  step({ type: 'update', update: call });
  step({ type: 'terminal', terminal: { terminalId: 't1', command: 'node print.js', exited: false } });
  const snapshot = outliner.snapshot(toSnapshot(state));
  const messages = [];
  let n = 0;
  let written = 0;
  let sent = 0;
  for (let t = 0, wait = LIVE_FLUSH_MS; written < TOTAL;) {
    t += wait;
    const lines = [];
    let bytes = 0;
    while (written < Math.min(TOTAL, t * BYTES_PER_MS)) {
      n++;
      const line =
        n % 10 === 0
          ? `\x1b[32m✓\x1b[0m test ${n} passes (${n % 97} ms)\n`
          : `[build] compiling src/module${n % 50}/file${n}.ts → out/module${n % 50}/file${n}.js\n`;
      lines.push(line);
      bytes += line.length;
      written += line.length;
    }
    // What the view keeps of this flush: whole lines from the end, at most its 256 KiB.
    let keep = lines.length;
    for (let b = 0; keep > 0 && b + lines[keep - 1].length <= TERMINAL_VIEW_MAX_CHARS; keep--)
      b += lines[keep - 1].length;
    const data = lines.slice(keep).join('');
    const patches =
      keep > 0 ? step({ type: 'terminal', terminal: { terminalId: 't1', exited: false, truncated: true } }) : [];
    patches.push(...step({ type: 'terminalOutput', terminalId: 't1', data }));
    messages.push({ t, msg: { type: 'patch', sessionId: 'bench', patches } });
    sent += data.length;
    wait = bytes >= HEAVY_FLUSH_BYTES ? HEAVY_FLUSH_MS : LIVE_FLUSH_MS;
  }
  const end = [
    ...step({ type: 'terminal', terminal: { terminalId: 't1', command: 'node print.js', exited: true, exitCode: 0 } }),
    ...step({ type: 'update', update: { sessionUpdate: 'tool_call_update', toolCallId: 'x1', status: 'completed' } }),
  ];
  messages.push({ t: messages.at(-1).t + LIVE_FLUSH_MS, msg: { type: 'patch', sessionId: 'bench', patches: end } });
  const shown = async (page) => ({
    outputMB: +(written / 1e6).toFixed(1),
    sentToViewMB: +(sent / 1e6).toFixed(1),
    lastLineShown: await page.evaluate(() => {
      const lines = [...document.querySelectorAll('[data-testid="terminal-screen"] .term-line')];
      return lines.findLast((l) => l.textContent.trim())?.textContent ?? null;
    }),
    termLinesInDom: await page.evaluate(() => document.querySelectorAll('.term-line').length),
    lastLineWritten: `${n}`,
  });
  return replayMessages(
    { snapshot, messages, updates: messages.length + 1 },
    1000 / HEAVY_FLUSH_MS,
    `terminal: ${TOTAL / 1e6} MB in ${messages.length} flushes${path ? ' (empty renderer)' : ''}`,
    path,
    shown,
  );
}

const result = { bench: 'P2 webview', chromium: browser.version(), calls: CALLS, bundle };
try {
  // --only=initial,replay1000,replay100,streaming runs a subset (for profiling).
  const only = process.argv
    .find((a) => a.startsWith('--only='))
    ?.slice(7)
    .split(',');
  const want = (k) => !only || only.includes(k);
  if (want('initial')) result.initial = await initialRender();
  if (want('replay1000')) result.replay1000 = await replayRun(0, RATE, '1000 updates/s, whole session');
  if (want('floor1000'))
    result.floor1000 = await replayRun(0, RATE, 'floor: the same 1000 updates/s into an empty renderer', 'floor');
  if (want('replay100'))
    result.replay100 = await replayRun(
      replayPlan(0, RATE).total - BASELINE_UPDATES,
      BASE_RATE,
      `100 updates/s baseline, last ${BASELINE_UPDATES} updates`,
    );
  if (want('floor100'))
    result.floor100 = await replayRun(
      replayPlan(0, RATE).total - BASELINE_UPDATES,
      BASE_RATE,
      `floor: the same 100 updates/s into an empty renderer`,
      'floor',
    );
  if (want('streaming')) result.streaming = await streaming();
  if (want('floorStreaming')) result.floorStreaming = await streaming('floor');
  if (want('flood')) result.flood = await floodBatches();
  if (want('floorFlood')) result.floorFlood = await floodBatches('floor');
  if (want('terminal')) result.terminal = await terminalFlood();
  if (want('floorTerminal')) result.floorTerminal = await terminalFlood('floor');
  // The frame-floor budgets (issue 23), each against its floor measured in this run.
  const budget = (name, measured, limit, floor) =>
    measured == null ? undefined : { name, measured, limit: +limit.toFixed(1), floor, met: measured <= limit };
  const overFloor = (run, floor, extra, name) =>
    run && floor && budget(name, run.patchToPaintMs.p95, floor.patchToPaintMs.p95 + extra, floor.patchToPaintMs.p95);
  result.budgets = [
    overFloor(result.replay100, result.floor100, 4, '100 updates/s: patch-to-paint p95 <= floor + 4 ms'),
    overFloor(result.replay1000, result.floor1000, 10, '1,000 updates/s: patch-to-paint p95 <= floor + 10 ms'),
    budget(
      '1,000 updates/s: frame work p95 <= 10 ms',
      result.replay1000?.frameWorkMs.p95,
      10,
      result.floor1000?.frameWorkMs.p95,
    ),
    budget(
      '1,000 updates/s: no frame over 50 ms',
      result.replay1000?.frameWorkMs.max,
      50,
      result.floor1000?.frameWorkMs.max,
    ),
    budget(
      '20,000 chunks: frame work p95 <= 8 ms',
      result.streaming?.frameWorkMs.p95,
      8,
      result.floorStreaming?.frameWorkMs.p95,
    ),
    budget(
      'flood (issue 3: calls + chunks in big batches): no timer gap over 100 ms',
      result.flood?.maxTimerGapMs,
      100,
      result.floorFlood?.maxTimerGapMs,
    ),
    budget(
      'terminal output pouring (20 MB; 5 MB with --quick): no timer gap over 100 ms',
      result.terminal?.maxTimerGapMs,
      100,
      result.floorTerminal?.maxTimerGapMs,
    ),
  ].filter(Boolean);
  result.ok = bundle.ok && result.initial?.ok !== false && result.budgets.every((b) => b.met);
} finally {
  await browser.close();
  server.close();
  rmSync(out, { recursive: true, force: true });
}
console.log(JSON.stringify(result, null, process.argv.includes('--pretty') ? 2 : undefined));
