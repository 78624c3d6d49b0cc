#!/usr/bin/env node
// UI end-to-end tests: Playwright drives the real Tandem sidebar webview inside code-server
// (see codeServer.mjs). Runs every test/e2e/*.e2e.mjs; each file gets its own code-server
// (its own user settings, a fresh copy of test/fixtures/workspace) and browser page, shared
// by the tests of that file, which run in order. Prints one closing line
//   RESULT <n> passed, <m> failed
// which scripts/test.mjs parses; exit code 0 only when every test passed.
//
// An e2e file default-exports:
//   {
//     vsix?: true,                             // install tandem-<version>.vsix (npm run package) with
//                                              // --install-extension instead of the development path
//     userSettings?: (ctx) => object | Promise,  // merged into User/settings.json
//     cleanup?: () => void | Promise,          // after the file's tests (servers the settings started)
//     env?: (ctx) => object,                   // extra env for code-server / extension host
//     tests: [{ name, timeoutMs?, run: async (ctx) => void }],
//   }
// ctx = { repo, node, workspace, server, page, view, openTandemView, screenshot, log }
//   view = FrameLocator inside the Tandem webview (tandemWebview(page)).
//
// node test/harness/run-e2e.mjs [--no-build] [--ext <dir>] [--grep <text>] [files...]
// Env: HEADED=1, VERBOSE=1.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { ensureInstalled } from './install.mjs';
import { packageVsix, vsixPath } from './vsix.mjs';
import {
  REPO,
  TANDEM_ID,
  freshWorkspace,
  onConsoleLines,
  openTandemView,
  openWorkbench,
  screenshot,
  startCodeServer,
  tandemWebview,
} from './codeServer.mjs';

const { values: opt, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    'no-build': { type: 'boolean', default: false },
    ext: { type: 'string', default: REPO },
    grep: { type: 'string' },
    verbose: { type: 'boolean', default: process.env.VERBOSE === '1' },
  },
});
const ext = resolve(opt.ext);
const t0 = Date.now();
const secs = (from = t0) => ((Date.now() - from) / 1000).toFixed(1);
const totals = { passed: 0, failed: 0 };
const cleanups = [];
async function cleanup() {
  while (cleanups.length) {
    try {
      await cleanups.pop()();
    } catch {
      /* best effort */
    }
  }
}
for (const sig of ['SIGINT', 'SIGTERM'])
  process.on(sig, async () => {
    await cleanup();
    process.exit(130);
  });

const slug = (s) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise((_, rej) => {
      timer = setTimeout(() => rej(new Error(`${what} timed out after ${ms / 1000} s`)), ms);
    }),
  ]);
}

async function runFile(file) {
  const spec = (await import(pathToFileURL(file).href)).default;
  const fileName = basename(file, '.e2e.mjs');
  const tests = spec.tests.filter((t) => !opt.grep || t.name.includes(opt.grep));
  if (tests.length === 0) return;
  console.log(`\n${fileName}`);
  const workspace = await freshWorkspace();
  const base = { repo: REPO, ext, node: process.execPath, workspace };
  const fileCleanups = [() => rmSync(dirname(workspace), { recursive: true, force: true })];
  let ctx;
  try {
    const userSettings = (await spec.userSettings?.(base)) ?? {};
    if (spec.cleanup) fileCleanups.push(() => spec.cleanup());
    const server = await startCodeServer({
      workspace,
      ...(spec.vsix ? { installVsix: vsixPath() } : { extensionDevelopmentPath: ext }),
      userSettings,
      env: spec.env?.(base) ?? {},
      onOutput: opt.verbose ? (l) => console.log(`  [code-server] ${l}`) : undefined,
    });
    fileCleanups.push(() => server.stop());
    const wb = await openWorkbench(server.url, {
      beforeGoto: async (page) => {
        onConsoleLines(page, (line, { fromExtensionHost, type }) => {
          if (opt.verbose || (fromExtensionHost && type === 'error'))
            console.log(`  [${fromExtensionHost ? 'ext host' : 'workbench'} ${type}] ${line}`);
        });
      },
    });
    fileCleanups.push(() => wb.close());
    if (opt.verbose) console.log(`  workbench up (${secs()} s)`);
    ctx = {
      ...base,
      server,
      page: wb.page,
      view: tandemWebview(wb.page, TANDEM_ID),
      openTandemView: (o) => openTandemView(wb.page, o),
      screenshot: (name) => screenshot(wb.page, name),
      log: (...a) => console.log('   ', ...a),
    };
  } catch (e) {
    console.log(`  ✗ setup: ${e.stack ?? e}`);
    totals.failed += tests.length;
    while (fileCleanups.length)
      await Promise.resolve()
        .then(fileCleanups.pop())
        .catch(() => {});
    return;
  }
  cleanups.push(async () => {
    while (fileCleanups.length)
      await Promise.resolve()
        .then(fileCleanups.pop())
        .catch(() => {});
  });

  for (const t of tests) {
    const start = Date.now();
    try {
      await withTimeout(
        Promise.resolve().then(() => t.run(ctx)),
        t.timeoutMs ?? 60_000,
        `"${t.name}"`,
      );
      totals.passed++;
      console.log(`  ✓ ${t.name} (${secs(start)} s)`);
    } catch (e) {
      totals.failed++;
      const shot = await ctx.screenshot(`e2e-${slug(fileName)}-${slug(t.name)}-failure`).catch(() => null);
      console.log(
        `  ✗ ${t.name} (${secs(start)} s)\n    ${String(e.stack ?? e)
          .split('\n')
          .slice(0, 8)
          .join('\n    ')}${shot ? `\n    screenshot: ${shot}` : ''}`,
      );
    }
  }
  await cleanups.pop()();
}

try {
  if (!opt['no-build'] && ext === REPO) {
    // The VSIX first: its production build overwrites dist/, which the development build redoes.
    const { bytes } = packageVsix();
    console.log(`[e2e] packaged ${vsixPath()} (${(bytes / 1024).toFixed(1)} KiB)`);
    const b = spawnSync(process.execPath, ['esbuild.mjs', '--with-tests'], { cwd: REPO, stdio: 'inherit' });
    if (b.status !== 0) throw new Error('build failed (node esbuild.mjs --with-tests)');
  }
  await ensureInstalled();
  const dir = join(REPO, 'test', 'e2e');
  const files = positionals.length
    ? positionals.map((p) => resolve(p))
    : existsSync(dir)
      ? readdirSync(dir)
          .filter((n) => n.endsWith('.e2e.mjs'))
          .sort()
          .map((n) => join(dir, n))
      : [];
  for (const f of files) await runFile(f);
} catch (e) {
  console.log(`✗ harness error: ${e.stack ?? e}`);
  totals.failed = Math.max(1, totals.failed);
}
await cleanup();
console.log(`\n[e2e] finished in ${secs()} s`);
console.log(`RESULT ${totals.passed} passed, ${totals.failed} failed`);
process.exitCode = totals.failed === 0 ? 0 : 1;
