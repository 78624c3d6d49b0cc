#!/usr/bin/env node
// Runs Tandem's integration tests inside a real VS Code extension host: code-server (see
// codeServer.mjs) opened in headless Chromium with the test-electron payload
// (extensionDevelopmentPath = the extension, extensionTestsPath = its built tests module).
// Prints the extension host's console output, then exactly one closing line
//   RESULT <n> passed, <m> failed[, <k> skipped]
// which scripts/test.mjs parses. Exit code 0 only when every test passed.
//
// node test/harness/run-integration.mjs [--no-build] [--ext <dir>] [--tests <index.js>]
//   [--grep <title>] [--timeout <s>] [--verbose]
// Env: TANDEM_INTEGRATION_TIMEOUT (s, default 420: the registry suite npm-installs claude-code-acp,
// 30-60 s on a shared machine), HEADED=1, VERBOSE=1 (workbench console too).
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ensureInstalled } from './install.mjs';
import { REPO, freshWorkspace, onConsoleLines, openWorkbench, screenshot, startCodeServer } from './codeServer.mjs';

const { values: opt } = parseArgs({
  options: {
    'no-build': { type: 'boolean', default: false },
    ext: { type: 'string', default: REPO },
    tests: { type: 'string' },
    grep: { type: 'string' },
    timeout: { type: 'string', default: process.env.TANDEM_INTEGRATION_TIMEOUT ?? '420' },
    verbose: { type: 'boolean', default: process.env.VERBOSE === '1' },
  },
});
const ext = resolve(opt.ext);
const testsPath = resolve(opt.tests ?? join(ext, 'out', 'test', 'integration', 'index.js'));
const timeoutMs = Number(opt.timeout) * 1000;
const t0 = Date.now();
const secs = () => ((Date.now() - t0) / 1000).toFixed(1);

let result = null; // { passed, failed, pending }
const seen = { passed: 0, failed: 0, summary: false }; // counted from the spec reporter's lines
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
function finish(summary, code) {
  const r = result ?? { passed: 0, failed: 1, pending: 0 };
  if (summary) console.log(`✗ ${summary}`);
  console.log(`RESULT ${r.passed} passed, ${r.failed} failed${r.pending ? `, ${r.pending} skipped` : ''}`);
  process.exitCode = code;
}
for (const sig of ['SIGINT', 'SIGTERM'])
  process.on(sig, async () => {
    await cleanup();
    process.exit(130);
  });

try {
  if (!opt['no-build'] && ext === REPO) {
    const b = spawnSync(process.execPath, ['esbuild.mjs', '--with-tests'], { cwd: REPO, stdio: 'inherit' });
    if (b.status !== 0) throw new Error('build failed (node esbuild.mjs --with-tests)');
  }
  if (!existsSync(testsPath))
    throw new Error(`no tests module at ${testsPath} (build first: node esbuild.mjs --with-tests)`);
  await ensureInstalled();

  const workspace = await freshWorkspace();
  cleanups.push(() => rmSync(dirname(workspace), { recursive: true, force: true }));
  const server = await startCodeServer({
    workspace,
    // A second, installed extension: registers the Language Model tools the Extensions client
    // tool group offers (test/integration/lmTools.test.ts).
    linkExtensions: [join(REPO, 'test', 'fixtures', 'lm-tool-extension')],
    extensionDevelopmentPath: ext,
    extensionTestsPath: testsPath,
    extensionEnvironment: {
      TANDEM_TEST: '1',
      ...(opt.grep ? { TANDEM_TEST_GREP: opt.grep } : {}),
    },
    onOutput: opt.verbose ? (l) => console.log(`[code-server] ${l}`) : undefined,
  });
  cleanups.push(() => server.stop());
  console.log(`[integration] code-server on ${server.baseUrl} (${secs()} s); workspace ${workspace}`);

  let settle;
  const exited = new Promise((r) => {
    settle = r;
  });
  const wb = await openWorkbench(server.url, {
    beforeGoto: async (page) => {
      await page.exposeFunction('codeAutomationExit', (code) => {
        settle({ code });
      });
      onConsoleLines(page, (line, { fromExtensionHost, type }) => {
        const m = line.match(/^TANDEM-RESULT (\{.*\})\s*$/m);
        if (m) {
          try {
            result = JSON.parse(m[1]);
          } catch {
            /* keep going */
          }
          return;
        }
        if (fromExtensionHost) {
          console.log(line);
          // Spec reporter lines, in case run() never settles (timeout): "    ✔ title", "    1) title".
          if (/^\s+✔ /.test(line)) seen.passed++;
          else if (/^\s+\d+\) /.test(line) && !seen.summary) seen.failed++;
          else if (/^\s+\d+ (passing|failing)/.test(line)) seen.summary = true;
        } else if (opt.verbose || (type === 'error' && /extension|Tandem|tandem/i.test(line)))
          console.log(`[workbench ${type}] ${line}`);
      });
      page.on('pageerror', (e) => {
        if (opt.verbose) console.log(`[workbench pageerror] ${e.message}`);
      });
    },
  });
  cleanups.push(() => wb.close());
  console.log(`[integration] workbench loaded (${secs()} s)`);

  const timer = setTimeout(() => settle({ timeout: true }), timeoutMs);
  const outcome = await exited;
  clearTimeout(timer);
  if (outcome.timeout) {
    const shot = await screenshot(wb.page, 'integration-timeout').catch(() => null);
    if (result) result.failed = Math.max(1, result.failed);
    else result = { passed: seen.passed, failed: seen.failed + 1, pending: 0 }; // + the test that hung
    await cleanup();
    finish(`timed out after ${opt.timeout} s${shot ? ` (screenshot ${shot})` : ''}`, 1);
  } else {
    // Give late console messages a moment to arrive.
    if (!result) await new Promise((r) => setTimeout(r, 500));
    await cleanup();
    console.log(`[integration] extension host finished with code ${outcome.code} in ${secs()} s`);
    const ok = outcome.code === 0 && result && result.failed === 0;
    if (!result && outcome.code === 0) result = { passed: 0, failed: 1, pending: 0 };
    finish(result ? null : `run() ended with code ${outcome.code} without a TANDEM-RESULT line`, ok ? 0 : 1);
  }
} catch (e) {
  console.error(`[integration] ${e.stack ?? e}`);
  await cleanup();
  finish(`harness error: ${e.message.split('\n')[0]}`, 1);
}
