#!/usr/bin/env node
// `npm start`: build Tandem and try it in a real VS Code with the built-in Demo agent.
//  - `code` on PATH (desktop VS Code): opens a new window with Tandem loaded as a development
//    extension (--extensionDevelopmentPath) on the demo workspace.
//  - otherwise: installs code-server once (test/harness/install.mjs, cached under
//    ~/.cache/tandem-test) and serves VS Code in the browser on 127.0.0.1 with Tandem
//    installed (symlinked into a fresh extensions dir), the Demo agent preselected. Prints the
//    URL, opens a browser when there is a display, stays up until Ctrl-C.
//
// node scripts/start.mjs [--web] [--no-build] [--fresh]
//   --web       use code-server even when `code` is on PATH
//   --no-build  skip `node esbuild.mjs`
//   --fresh     reset the demo workspace to demo-workspace/ (a newcomer's welcome and a tiny project)
// Env: PORT (default: a free port), TANDEM_TEST_CACHE (install/workspace cache dir).
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values: opt } = parseArgs({
  options: {
    web: { type: 'boolean', default: false },
    'no-build': { type: 'boolean', default: false },
    fresh: { type: 'boolean', default: false },
  },
});

function onPath(cmd) {
  for (const d of (process.env.PATH ?? '').split(delimiter)) {
    if (d && existsSync(join(d, cmd))) return join(d, cmd);
  }
  return null;
}

if (!opt['no-build']) {
  console.log('[start] building Tandem (node esbuild.mjs)…');
  const b = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: REPO, stdio: 'inherit' });
  if (b.status !== 0) {
    console.error('[start] build failed');
    process.exit(1);
  }
}

// The demo workspace: a copy of demo-workspace/ (its README greets a newcomer) that persists
// between starts, so what the agent changed is still there next time.
const { cacheRoot, ensureInstalled } = await import('../test/harness/install.mjs');
const workspace = join(cacheRoot(), 'demo');
if (opt.fresh) rmSync(workspace, { recursive: true, force: true });
if (!existsSync(workspace)) {
  mkdirSync(dirname(workspace), { recursive: true });
  cpSync(join(REPO, 'demo-workspace'), workspace, { recursive: true });
}

const code = !opt.web && onPath('code');
if (code) {
  console.log(`[start] desktop VS Code: ${code} --extensionDevelopmentPath=${REPO} ${workspace}`);
  console.log('[start] Tandem uses the built-in Demo agent unless "tandem.defaultAgent" says otherwise.');
  const r = spawnSync(code, ['--new-window', `--extensionDevelopmentPath=${REPO}`, workspace], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}

console.log('[start] no `code` on PATH: serving VS Code in the browser (code-server)');
await ensureInstalled();
const { startCodeServer } = await import('../test/harness/codeServer.mjs');
const t0 = Date.now();
const server = await startCodeServer({
  workspace,
  port: process.env.PORT ? Number(process.env.PORT) : undefined,
  linkExtensions: [REPO],
  userSettings: {
    'tandem.defaultAgent': 'Demo',
    'workbench.startupEditor': 'readme',
  },
  startTimeoutMs: 90_000,
});
const url = new URL(server.baseUrl);
url.searchParams.set('folder', workspace);
console.log(`[start] code-server up in ${((Date.now() - t0) / 1000).toFixed(1)} s (log: ${server.logFile})`);
console.log(`\n  Tandem in VS Code:  ${url}\n`);
console.log('  Click the Tandem icon in the activity bar and ask the Demo agent something.');
console.log('  After a rebuild (npm run build), run "Developer: Reload Window" in VS Code.');
console.log('  Ctrl-C stops the server.\n');

if (process.env.DISPLAY && onPath('xdg-open')) {
  const b = spawn('xdg-open', [url.toString()], { stdio: 'ignore', detached: true });
  b.on('error', () => {});
  b.unref();
}

let stopping = false;
async function shutdown(code) {
  if (stopping) return;
  stopping = true;
  console.log('\n[start] stopping code-server…');
  await server.stop();
  process.exit(code);
}
process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));
process.on('SIGHUP', () => shutdown(0));
server.exited.then((e) => {
  if (stopping) return;
  console.error(`[start] code-server exited (${JSON.stringify(e)}):\n${server.tail()}`);
  shutdown(1);
});
