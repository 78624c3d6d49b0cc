// npx agents, installed once: `npm install` of the pinned package into its own folder (the
// registry's `npx` would fetch it again on every start), then run with the machine's node from
// there. The package and version go into that folder's package.json, never onto a command line.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { spawnTree } from '../acp/processTree';
import { insidePath } from './archive';
import { wordsForCode } from './networkErrors';

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

/** npm failed: a short reason in words; npm's own output (with its log's path) went to `onOutput`. */
export class NpmInstallError extends Error {
  constructor(
    /** npm's code (E404, ETARGET, ECONNREFUSED, …) when it printed one. */
    readonly npmCode: string | undefined,
    readonly exitCode: number | null,
    readonly reason: string,
  ) {
    super(`npm install failed: ${reason}`);
    this.name = 'NpmInstallError';
  }
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
  const errorLines: string[] = [];
  const onData = (buf: Buffer) => {
    for (const line of buf.toString('utf8').split(/\r?\n/)) {
      if (!line.trim()) continue;
      o.onOutput?.(line);
      if (errorLines.length < 200 && NPM_ERROR.test(line)) errorLines.push(line);
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
    if (code !== 0) {
      o.onOutput?.(`npm install ${o.packageName}@${o.version} exited with code ${code}`);
      throw npmFailure(errorLines, code, o.packageName, o.version);
    }
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

/** A line of npm's error report: `npm error …` (npm 10 and later) or `npm ERR! …` (before). */
const NPM_ERROR = /^npm (error|ERR!)( |$)/;

/** What npm's codes mean for the package being installed. */
const NPM_WORDS: Record<string, (pkg: string, version: string) => string> = {
  E404: (pkg, version) => `the npm registry has no package ${pkg}@${version} (or does not let this computer see it)`,
  ETARGET: (pkg, version) => `the npm registry has no version ${version} of ${pkg}`,
  E401: () => 'the npm registry asked for a login (check your npm login and .npmrc)',
  E403: () => 'the npm registry refused access (check your npm login and .npmrc)',
  ENEEDAUTH: () => 'the npm registry asked for a login (check your npm login and .npmrc)',
  EACCES: () => 'npm was not allowed to write a file (permissions)',
  EPERM: () => 'npm was not allowed to write a file (permissions, or a file in use)',
  ENOSPC: () => 'the disk is full',
  EINTEGRITY: () => 'a package npm downloaded did not match its checksum',
  ERESOLVE: () => "npm could not resolve the package's dependencies",
  ELIFECYCLE: () => 'an install script of the package or of a dependency failed',
};

/**
 * npm's report as one short reason: its code in words (a network code as for Tandem's own
 * downloads), else its first message line. The log keeps every line and the path of npm's log.
 */
export function npmFailure(
  lines: readonly string[],
  exitCode: number | null,
  pkg: string,
  version: string,
): NpmInstallError {
  const text = lines.map((l) => l.replace(NPM_ERROR, '').trim());
  const code = text.map((l) => /^code (\S+)$/.exec(l)?.[1]).find((c) => c !== undefined);
  const network = code ? wordsForCode(code) : undefined;
  let reason: string;
  if (code && NPM_WORDS[code]) reason = NPM_WORDS[code](pkg, version);
  else if (network)
    reason =
      `npm could not reach its registry: ${network.words}` +
      (network.untrusted
        ? ' (npm trusts the certificates of its own settings: cafile in .npmrc, or NODE_EXTRA_CA_CERTS)'
        : '');
  else if (code === '1' || text.includes('command failed'))
    reason = 'an install script of the package or of a dependency failed';
  else {
    const first = text.find((l) => l && !/^(code|errno|syscall|path|command|A complete log of this run)\b/.test(l));
    reason = first ? first.slice(0, 200) : `npm exited with code ${exitCode}`;
  }
  return new NpmInstallError(code, exitCode, reason);
}
