// Installs the pinned real agents the compat layer (and the installed-VSIX e2e) run, into the
// test cache, idempotently: a marker per agent, a lock so two runs never install into one folder.
// Env: TANDEM_COMPAT_CACHE (default <TANDEM_TEST_CACHE>/compat, so an empty test cache means a
// cold install of the agents too).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cacheRoot, lock } from '../harness/install.mjs';

export const COMPAT_CACHE = process.env.TANDEM_COMPAT_CACHE || join(cacheRoot(), 'compat');

/** Pinned agents: [cache subdir, npm spec (several, space-separated, install into one folder)]. */
export const AGENTS = [
  ['claude-code-acp-0.16.2', '@zed-industries/claude-code-acp@0.16.2'],
  ['gemini-cli-0.61.0', '@google/gemini-cli@0.61.0'],
  // codex-acp moved from @zed-industries (last: 0.16.0) to @agentclientprotocol: one JS bundle that
  // starts Codex's app server, @openai/codex (a native binary from an optional dependency, ~440 MB
  // on linux-x64), pinned here too: codex-acp asks for ^0.166.0.
  ['codex-acp-2.6.0', '@agentclientprotocol/codex-acp@2.6.0 @openai/codex@0.166.0'],
  // claude-code-acp's successor; Claude Code itself comes as a native binary (~314 MB). Node ≥ 22.
  ['claude-agent-acp-0.100.0', '@agentclientprotocol/claude-agent-acp@0.100.0'],
  // The first claude-agent-acp with steering (steering.test.ts).
  ['claude-agent-acp-0.101.0', '@agentclientprotocol/claude-agent-acp@0.101.0'],
  // A native binary from an optional dependency (linux-x64 gets it twice, -baseline too: ~354 MB).
  // Its launcher is made by a postinstall, so test/compat/chatAgents.ts starts the binary itself.
  ['opencode-1.18.33', 'opencode-ai@1.18.33'],
  // JS bundles for Node ≥ 22 (~144 MB with its optional native modules).
  ['qwen-code-0.24.4', '@qwen-code/qwen-code@0.24.4'],
  // A native binary from an optional dependency (~227 MB). 7.8.1 (latest on 2026-11-26) publishes
  // no linux-x64 binary package: 7.7.7 is the last release that installs and runs there.
  ['kilo-cli-7.7.7', '@kilocode/cli@7.7.7'],
];

/**
 * Installs the agents whose cache subdir is in `only` (default: all). A failed install is
 * reported and skipped: the tests of that agent then say it is not installed.
 */
export async function installAgents(only) {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  for (const [dir, spec] of AGENTS) {
    if (only && !only.includes(dir)) continue;
    const d = join(COMPAT_CACHE, dir);
    const marker = join(d, '.tandem-install-complete');
    if (existsSync(marker)) continue;
    const release = await lock(`${d}.lock`, (m) => console.log(`[compat] ${m}`));
    try {
      if (existsSync(marker)) continue; // another run finished it while we waited
      mkdirSync(d, { recursive: true });
      if (!existsSync(join(d, 'package.json'))) writeFileSync(join(d, 'package.json'), '{"private":true}\n');
      console.log(`[compat] installing ${spec} into ${d}`);
      // --ignore-scripts: the agents run as plain JS; native extras (node-pty) are not needed here.
      const specs = spec.split(' ');
      const r = spawnSync(npm, ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--save-exact', ...specs], {
        cwd: d,
        stdio: ['ignore', 'inherit', 'inherit'],
        env: { ...process.env, CI: 'true' },
      });
      if (r.status !== 0) {
        console.log(`[compat] npm install ${spec} failed (exit ${r.status ?? r.signal})`);
        continue;
      }
      writeFileSync(marker, new Date().toISOString() + '\n');
    } finally {
      release();
    }
  }
}
