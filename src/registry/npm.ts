// npx agents, installed once: `npm install` of the pinned package into its own folder (the
// registry's `npx` would fetch it again on every start), then run with the machine's node from
// there. The package and version go into that folder's package.json, never onto a command line.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { spawnTree } from '../acp/processTree';
import { insidePath } from './archive';

export interface NpmInstallOptions {
  /** The npm executable (found on PATH). */
  npm: string;
  /** An empty folder; receives package.json and node_modules. */
  dir: string;
  packageName: string;
  version: string;
  signal?: AbortSignal;
  /** npm's output, line by line (for the log). */
  onOutput?: (line: string) => void;
}

export async function npmInstall(o: NpmInstallOptions): Promise<void> {
  const manifest = { name: 'tandem-registry-agent', private: true, dependencies: { [o.packageName]: o.version } };
  await writeFile(join(o.dir, 'package.json'), JSON.stringify(manifest, null, 2));
  const args = ['install', '--omit=dev', '--no-audit', '--no-fund', '--loglevel=error'];
  const isWin = process.platform === 'win32';
  // A guarded process tree (src/acp/processTree.ts): cancelling kills npm's children (install
  // scripts) too, on every OS, and nothing of it outlives the extension host. npm.cmd on Windows
  // needs a shell; the arguments above are fixed, nothing from the registry is in them.
  const tree = spawnTree(o.npm, args, {
    cwd: o.dir,
    shell: isWin,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
  const child = tree.child;
  const tail: string[] = [];
  const onData = (buf: Buffer) => {
    for (const line of buf.toString('utf8').split(/\r?\n/)) {
      if (!line.trim()) continue;
      o.onOutput?.(line);
      tail.push(line);
      if (tail.length > 15) tail.shift();
    }
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  // SIGTERM, SIGKILL after the grace (Windows: taskkill /T, then /T /F).
  const kill = () => void tree.kill();
  o.signal?.addEventListener('abort', kill, { once: true });
  try {
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', resolve);
    });
    o.signal?.throwIfAborted();
    if (code !== 0)
      throw new Error(
        `npm install ${o.packageName}@${o.version} failed (exit ${code})${tail.length ? `:\n${tail.join('\n')}` : ''}`,
      );
  } finally {
    o.signal?.removeEventListener('abort', kill);
  }
}

/**
 * The JavaScript file of the package's executable, as npx would pick it: the only `bin`, or the
 * one named after the package (without its scope).
 */
export async function npmBin(dir: string, packageName: string): Promise<string> {
  const pkgDir = join(dir, 'node_modules', ...packageName.split('/'));
  let pkg: { bin?: unknown; name?: string };
  try {
    pkg = JSON.parse(await readFile(join(pkgDir, 'package.json'), 'utf8'));
  } catch {
    throw new Error(`npm did not install ${packageName}`);
  }
  const bin = pkg.bin;
  let rel: string | undefined;
  if (typeof bin === 'string') rel = bin;
  else if (bin && typeof bin === 'object') {
    const entries = Object.entries(bin as Record<string, unknown>).filter(
      (e): e is [string, string] => typeof e[1] === 'string',
    );
    const base = packageName.split('/').pop();
    rel = entries.length === 1 ? entries[0][1] : entries.find(([k]) => k === base)?.[1];
  }
  if (!rel) throw new Error(`${packageName} has no single executable (package.json "bin") to run`);
  return insidePath(pkgDir, rel);
}

/** The version npm actually installed (the registry pins one; a range would resolve here). */
export async function installedVersion(dir: string, packageName: string): Promise<string | undefined> {
  try {
    const pkg = JSON.parse(
      await readFile(join(dir, 'node_modules', ...packageName.split('/'), 'package.json'), 'utf8'),
    );
    return typeof pkg.version === 'string' ? pkg.version : undefined;
  } catch {
    return undefined;
  }
}
