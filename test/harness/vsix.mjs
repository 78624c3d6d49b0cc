// The packaged extension, as users install it: `npm run package` (@vscode/vsce; its
// vscode:prepublish step builds the production bundles) writes tandem-<version>.vsix at the repo
// root. The VSIX contents test and the installed-VSIX e2e read that file.
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export function vsixPath() {
  const pkg = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));
  return join(REPO, `${pkg.name}-${pkg.version}.vsix`);
}

/** Runs `npm run package`; returns the VSIX path and its size. Throws with vsce's output on failure. */
export function packageVsix() {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = spawnSync(npm, ['run', '--silent', 'package'], { cwd: REPO, encoding: 'utf8' });
  if (r.status !== 0)
    throw new Error(`npm run package failed (exit ${r.status}):\n${r.stdout}${r.stderr}`.slice(-4000));
  const path = vsixPath();
  return { path, bytes: statSync(path).size };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { path, bytes } = packageVsix();
  console.log(`[vsix] ${path} (${(bytes / 1024).toFixed(1)} KiB)`);
}
