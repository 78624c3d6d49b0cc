#!/usr/bin/env node
// P4: Tandem's activation time in the real VS Code (code-server) and its bundle sizes.
//
//  1. Production build (`node esbuild.mjs --production`) of the current working tree into a temp
//     copy of the extension, so the repo's dist/ is left alone. Bundle sizes (raw and gzip):
//     extension.js, webview.js + its static chunks (eager) and its lazy chunks, demo-agent.js,
//     replay-agent.js, mcp-bridge.js.
//  2. Plain Node, stub `vscode` (bench/lib/vscodeStub.cjs), fresh process per sample: require
//     time of dist/extension.js and the time of activate(), plus what activation must not do:
//     runtime code generation (`new Function`: how ajv compiles a schema) and, on the unbundled
//     transpile (out/src/extension.js), ajv instances and compile() calls.
//     Baseline (same run): a trivial extension bundled with the same esbuild options.
//  3. The real VS Code: code-server with both extensions installed (Tandem's production build
//     and the trivial baseline, which contributes a webview view and a command like Tandem, so
//     both are activated by the same kind of events and loaded the same way) and a tests module
//     (the test-electron contract, in a third, development-mode extension) running in the
//     extension host, which times `await ext.activate()` of each, in alternating order. Then the workbench's own record: the
//     "Developer: Show Running Extensions" editor (codeLoadingTime + activateCallTime, as VS Code
//     measures it), read for Tandem, the baseline and the built-in Git extension of the same
//     session (activated at startup).
//
// node bench/activation.mjs [--runs 3] [--quick] [--no-vscode] [--pretty]; one JSON line.
import * as esbuild from 'esbuild';
import { execFileSync, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';

const REPO = resolve(import.meta.dirname, '..');
const { values: opt } = parseArgs({
  strict: false,
  options: {
    runs: { type: 'string' },
    quick: { type: 'boolean', default: false },
    'no-vscode': { type: 'boolean', default: false },
    pretty: { type: 'boolean', default: false },
  },
});
const RUNS = Number(opt.runs ?? (opt.quick ? 1 : 3));
const NODE_SAMPLES = opt.quick ? 3 : 7;
const TANDEM_ID = 'tandem-dev.tandem';
const BASELINE_ID = 'tandem-dev.tandem-baseline';
const GIT_ID = 'vscode.git';

const work = mkdtempSync(join(tmpdir(), 'tandem-bench-activation-'));
const median = (a) => {
  const s = [...a].sort((x, y) => x - y);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : null;
};
const kb = (n) => +(n / 1024).toFixed(1);
const r1 = (x) => (x == null ? x : +x.toFixed(1));

// ---- 1. production build into a temp copy ---------------------------------------------------
function productionBuild() {
  const ext = join(work, 'tandem');
  mkdirSync(ext);
  for (const f of ['package.json', 'esbuild.mjs', 'tsconfig.json']) cpSync(join(REPO, f), join(ext, f));
  for (const d of ['src', 'scripts', 'media'])
    cpSync(join(REPO, d), join(ext, d), { recursive: true, preserveTimestamps: true });
  // Read only (esbuild.mjs lists their files even in a production build).
  for (const d of ['node_modules', 'test', 'bench']) symlinkSync(join(REPO, d), join(ext, d), 'dir');
  const t0 = Date.now();
  execFileSync(process.execPath, ['esbuild.mjs', '--production'], { cwd: ext, stdio: ['ignore', 'ignore', 'inherit'] });
  return { ext, buildMs: Date.now() - t0 };
}

function bundleSizes(ext) {
  const dist = join(ext, 'dist');
  const meta = JSON.parse(readFileSync(join(dist, 'meta.json'), 'utf8'));
  const size = (rel) => {
    const b = readFileSync(join(ext, rel));
    return { kb: kb(b.length), gzipKB: kb(gzipSync(b).length) };
  };
  const outs = meta.outputs;
  const entry = Object.keys(outs).find((k) => outs[k].entryPoint?.endsWith('src/webview/main.tsx'));
  const eager = new Set([entry]);
  for (let grew = true; grew;) {
    grew = false;
    for (const k of [...eager])
      for (const imp of outs[k].imports)
        if (imp.kind === 'import-statement' && !eager.has(imp.path)) {
          eager.add(imp.path);
          grew = true;
        }
  }
  const webviewJs = Object.keys(outs).filter(
    (k) => k.endsWith('.js') && (k === entry || k.startsWith('dist/webview-chunks/')),
  );
  const sum = (keys) =>
    keys.reduce(
      (a, k) => {
        const s = size(k);
        return { kb: +(a.kb + s.kb).toFixed(1), gzipKB: +(a.gzipKB + s.gzipKB).toFixed(1) };
      },
      { kb: 0, gzipKB: 0 },
    );
  const lazy = webviewJs.filter((k) => !eager.has(k));
  // What the extension's own modules weigh in extension.js (top inputs by bytes in the output).
  const extInputs = Object.entries(outs['dist/extension.js'].inputs).map(([k, v]) => [
    k.replace(/^.*node_modules\/(@[^/]+\/[^/]+|[^/]+)\/.*$/, 'node_modules/$1'),
    v.bytesInOutput,
  ]);
  const byPkg = {};
  for (const [k, b] of extInputs) {
    const key = k.startsWith('node_modules/') ? k : 'src (Tandem)';
    byPkg[key] = (byPkg[key] ?? 0) + b;
  }
  return {
    extension: size('dist/extension.js'),
    extensionComposition: Object.fromEntries(
      Object.entries(byPkg)
        .sort((a, b) => b[1] - a[1])
        .slice(0, 8)
        .map(([k, b]) => [k, kb(b)]),
    ),
    webviewEager: {
      ...sum([...eager]),
      files: [...eager].map((k) => k.split('/').pop()),
      budgetKB: 150,
      ok: sum([...eager]).kb < 150,
    },
    webviewLazy: { ...sum(lazy), chunks: Object.fromEntries(lazy.map((k) => [k.split('/').pop(), size(k).kb])) },
    demoAgent: size('dist/demo-agent.js'),
    replayAgent: existsSync(join(dist, 'replay-agent.js')) ? size('dist/replay-agent.js') : undefined,
    mcpBridge: size('dist/mcp-bridge.js'),
    css: {
      codicons: size('dist/codicon.css').kb + size('dist/codicon.ttf').kb,
      webviewCss: kb(statSync(join(REPO, 'media/webview.css')).size),
    },
  };
}

// ---- the baseline extension ------------------------------------------------------------------
async function baselineExtension() {
  const dir = join(work, 'baseline');
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify(
      {
        name: 'tandem-baseline',
        displayName: 'Tandem baseline',
        publisher: 'tandem-dev',
        version: '0.0.1',
        license: 'MIT',
        engines: { vscode: '^1.100.0' },
        main: './dist/extension.js',
        activationEvents: [],
        extensionKind: ['workspace'],
        contributes: {
          viewsContainers: { activitybar: [{ id: 'tandemBaseline', title: 'Tandem baseline', icon: 'media/x.svg' }] },
          views: { tandemBaseline: [{ type: 'webview', id: 'tandemBaseline.view', name: 'Baseline' }] },
          commands: [{ command: 'tandemBaseline.hello', title: 'Hello', category: 'Tandem baseline' }],
        },
      },
      null,
      2,
    ),
  );
  writeFileSync(
    join(dir, 'src/extension.ts'),
    `import * as vscode from 'vscode';
export function activate(context: vscode.ExtensionContext) {
  context.subscriptions.push(
    vscode.window.registerWebviewViewProvider('tandemBaseline.view', { resolveWebviewView(v) { v.webview.html = '<p>baseline</p>'; } }),
    vscode.commands.registerCommand('tandemBaseline.hello', () => vscode.window.showInformationMessage('hello')),
  );
  return {};
}
export function deactivate() {}
`,
  );
  // The same esbuild options as Tandem's production extension bundle.
  await esbuild.build({
    entryPoints: { extension: join(dir, 'src/extension.ts') },
    outdir: join(dir, 'dist'),
    bundle: true,
    minify: true,
    sourcemap: false,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    legalComments: 'none',
    logLevel: 'warning',
  });
  mkdirSync(join(dir, 'media'), { recursive: true });
  writeFileSync(join(dir, 'media/x.svg'), '<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"/>');
  return dir;
}

/**
 * The extension-development folder that carries the tests module (test-electron contract) timing
 * activation inside the extension host. Tandem and the baseline are both installed normally
 * (linked into the extensions dir), so both load the same way; only this runner is in
 * development mode.
 */
function runnerExtension() {
  const runner = join(work, 'runner');
  mkdirSync(runner);
  writeFileSync(
    join(runner, 'package.json'),
    JSON.stringify({
      name: 'tandem-bench-runner',
      publisher: 'tandem-dev',
      version: '0.0.1',
      engines: { vscode: '^1.100.0' },
    }),
  );
  // The tests module (test-electron contract) that times activation inside the extension host.
  writeFileSync(
    join(runner, 'bench-runner.js'),
    `'use strict';
const vscode = require('vscode');
const { existsSync } = require('fs');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
exports.run = async function run() {
  const order = JSON.parse(process.env.TANDEM_BENCH_ORDER);
  const out = { activeBefore: {}, activateMs: {} };
  for (const id of [...order, '${GIT_ID}']) out.activeBefore[id] = vscode.extensions.getExtension(id)?.isActive ?? null;
  // Let startup activity (builtin extensions, the workbench restoring) settle first.
  await sleep(Number(process.env.TANDEM_BENCH_SETTLE_MS || 3000));
  for (const id of order) {
    const ext = vscode.extensions.getExtension(id);
    if (!ext) { out.activateMs[id] = null; continue; }
    const t0 = performance.now();
    await ext.activate();
    out.activateMs[id] = performance.now() - t0;
  }
  out.gitActive = vscode.extensions.getExtension('${GIT_ID}')?.isActive ?? null;
  console.log('TANDEM-BENCH ' + JSON.stringify(out));
  for (let i = 0; i < 1200 && !existsSync(process.env.TANDEM_BENCH_DONE); i++) await sleep(100);
};
`,
  );
  return runner;
}

// ---- 2. plain node, stub vscode -------------------------------------------------------------
function nodeSamples(file, extPath, n) {
  const runs = [];
  for (let i = 0; i < n; i++) {
    const r = spawnSync(process.execPath, [join(REPO, 'bench/lib/vscodeStub.cjs'), file, extPath], {
      encoding: 'utf8',
    });
    const line = (r.stdout ?? '').split('\n').find((l) => l.startsWith('{'));
    if (!line) throw new Error(`vscodeStub failed for ${file}: ${r.stderr}`);
    runs.push(JSON.parse(line));
  }
  const errors = runs.map((x) => x.error).filter(Boolean);
  return {
    file: relative(work, file).startsWith('..') ? relative(REPO, file) : relative(work, file),
    samples: n,
    requireMs: r1(median(runs.map((x) => x.requireMs))),
    activateMs: r1(median(runs.map((x) => x.activateMs).filter((x) => x != null))),
    newFunctionDuringActivate: Math.max(...runs.map((x) => x.newFunction)),
    ajvInstances: Math.max(...runs.map((x) => x.ajvInstances)),
    ajvCompiles: Math.max(...runs.map((x) => x.ajvCompiles)),
    ajvMs: r1(median(runs.map((x) => x.ajvMs))),
    ...(errors.length ? { error: errors[0] } : {}),
  };
}

// ---- 3. the real VS Code --------------------------------------------------------------------
async function vscodeRuns(tandemExt, baselineExt) {
  const { startCodeServer, openWorkbench, onConsoleLines, runCommand, remoteUri, freshWorkspace } =
    await import('../test/harness/codeServer.mjs');
  const runner = runnerExtension();
  const runs = [];
  for (let i = 0; i < RUNS; i++) {
    const order = i % 2 === 0 ? [BASELINE_ID, TANDEM_ID] : [TANDEM_ID, BASELINE_ID];
    const done = join(work, `done-${i}`);
    const workspace = await freshWorkspace();
    const server = await startCodeServer({ workspace, linkExtensions: [tandemExt, baselineExt] });
    let wb;
    try {
      const u = new URL(server.baseUrl);
      u.searchParams.set('folder', workspace);
      u.searchParams.set(
        'payload',
        JSON.stringify([
          ['extensionDevelopmentPath', remoteUri(runner)],
          ['extensionTestsPath', remoteUri(join(runner, 'bench-runner.js'))],
          [
            'extensionEnvironment',
            JSON.stringify({ TANDEM_BENCH_ORDER: JSON.stringify(order), TANDEM_BENCH_DONE: done }),
          ],
        ]),
      );
      let report;
      const got = new Promise((res) => {
        report = res;
      });
      const t0 = Date.now();
      wb = await openWorkbench(u.toString(), {
        viewport: { width: 1400, height: 3200 },
        beforeGoto: async (page) => {
          await page.exposeFunction('codeAutomationExit', () => {});
          onConsoleLines(page, (line) => {
            const m = /TANDEM-BENCH (\{.*\})/.exec(line);
            if (m) report(JSON.parse(m[1]));
          });
        },
      });
      const host = await Promise.race([
        got,
        new Promise((_, rej) => setTimeout(() => rej(new Error('no TANDEM-BENCH line within 120 s')), 120_000)),
      ]);
      const workbenchToReportMs = Date.now() - t0;
      // VS Code's own record of the same activations.
      await runCommand(wb.page, 'Developer: Show Running Extensions');
      const rows = wb.page.locator('.runtime-extensions-editor .monaco-list-row');
      await rows.first().waitFor({ timeout: 20_000 });
      await wb.page.waitForTimeout(1000);
      const listed = await rows.evaluateAll((els) =>
        els.map((el) => ({
          name: el.querySelector('.name')?.textContent ?? '',
          time: el.querySelector('.activation-time')?.textContent ?? '',
        })),
      );
      const find = (...names) => {
        const row = listed.find((x) => names.some((n) => x.name.startsWith(n)));
        const m = row && /(Startup )?Activation: (\d+)ms/.exec(row.time);
        return m ? { ms: Number(m[2]), startup: !!m[1] } : null;
      };
      runs.push({
        order: order.map((x) => x.split('.')[1]),
        extensionHost: {
          tandemActivateMs: r1(host.activateMs[TANDEM_ID]),
          baselineActivateMs: r1(host.activateMs[BASELINE_ID]),
          activeBefore: host.activeBefore,
          gitActive: host.gitActive,
        },
        runningExtensions: {
          tandem: find('Tandem — ACP', TANDEM_ID),
          baseline: find('Tandem baseline', BASELINE_ID),
          git: find('Git', GIT_ID),
          listed: listed.map((x) => `${x.name}: ${x.time}`),
        },
        workbenchToReportMs,
      });
      writeFileSync(done, '');
    } finally {
      await wb?.close();
      await server.stop();
      rmSync(join(workspace, '..'), { recursive: true, force: true });
    }
  }
  const med = (f) => r1(median(runs.map(f).filter((x) => x != null)));
  return {
    runs: runs.length,
    median: {
      tandemActivateMs: med((r) => r.extensionHost.tandemActivateMs),
      baselineActivateMs: med((r) => r.extensionHost.baselineActivateMs),
      runningExtensions: {
        tandemMs: med((r) => r.runningExtensions.tandem?.ms),
        baselineMs: med((r) => r.runningExtensions.baseline?.ms),
        gitMs: med((r) => r.runningExtensions.git?.ms),
      },
    },
    each: runs,
  };
}

const result = { bench: 'P4 activation', node: process.version };
try {
  const { ext, buildMs } = productionBuild();
  result.productionBuildMs = buildMs;
  result.bundles = bundleSizes(ext);
  const baseline = await baselineExtension();
  result.plainNode = {
    tandem: nodeSamples(join(ext, 'dist/extension.js'), ext, NODE_SAMPLES),
    tandemUnbundled: existsSync(join(REPO, 'out/src/extension.js'))
      ? nodeSamples(join(REPO, 'out/src/extension.js'), REPO, Math.min(3, NODE_SAMPLES))
      : undefined,
    baseline: nodeSamples(join(baseline, 'dist/extension.js'), baseline, NODE_SAMPLES),
  };
  if (!opt['no-vscode']) result.vscode = await vscodeRuns(ext, baseline);
  const act = result.plainNode.tandem;
  result.noSchemaCompileAtActivation =
    act.newFunctionDuringActivate === 0 && (result.plainNode.tandemUnbundled?.ajvCompiles ?? 0) === 0;
  result.budget = 'webview eager bundle < 150 KB minified; activation compiles no schema (no ajv, no new Function)';
  result.budget_met = result.bundles.webviewEager.ok && result.noSchemaCompileAtActivation;
} finally {
  rmSync(work, { recursive: true, force: true });
}
console.log(JSON.stringify(result, null, opt.pretty ? 2 : undefined));
