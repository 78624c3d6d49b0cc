// Carries out an install plan into a staging folder and promotes it to a version folder of its
// own only when every step worked (never into an existing one: it may be running). A wrong
// checksum, a failed unpack, a failed npm install or a cancel removes the staging folder (the
// download with it): nothing half-installed is left behind.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentConfig } from '../client/agents/agentConfig';
import { resolveCommand, unpack } from './archive';
import { downloadFile, sameSha256, type UrlPolicy } from './download';
import { installedVersion, npmBin, npmInstall } from './npm';
import type { InstallPlan, Tools } from './plan';
import type { RegistryStore } from './store';
import type { RegistryAgent } from './types';

/** Downloads above this are refused (the largest agents in the registry are a few hundred MB). */
export const MAX_DOWNLOAD_BYTES = 1024 * 1024 * 1024;

export interface InstallContext {
  store: RegistryStore;
  tools: Tools;
  policy: UrlPolicy;
  signal?: AbortSignal;
  /** A short step description and, when known, the fraction done (0..1). */
  progress?: (message: string, fraction?: number) => void;
  log?: (line: string) => void;
}

/** How to run what was installed, and where it is. */
export interface InstallOutcome {
  /** The version folder, or undefined for uvx (nothing on disk). */
  dir?: string;
  /** The version actually installed (npm may report a more precise one). */
  version: string;
  run: Omit<AgentConfig, 'name'>;
  /**
   * Ends the lease that keeps other windows from removing `dir` as left over before it is
   * recorded (or before an update's check that it starts is done). Call it once recorded, or
   * before removing `dir`.
   */
  release: () => void;
}

export class ChecksumError extends Error {
  constructor(
    readonly expected: string,
    readonly actual: string,
  ) {
    super(`the download's SHA-256 is ${actual}, the registry says ${expected}: refused and deleted`);
    this.name = 'ChecksumError';
  }
}

export async function carryOut(
  agent: Pick<RegistryAgent, 'id' | 'name' | 'version'>,
  plan: InstallPlan,
  ctx: InstallContext,
): Promise<InstallOutcome> {
  if (plan.kind === 'uvx') {
    if (!ctx.tools.uvx) throw new Error('uv is not on PATH');
    return {
      version: agent.version,
      run: withEnv({ command: ctx.tools.uvx, args: [plan.package, ...plan.args] }, plan.env),
      release: () => undefined,
    };
  }
  const staging = await ctx.store.staging(agent.id);
  let promoted: { dir: string; release: () => void } | undefined;
  try {
    if (plan.kind === 'binary') {
      const files = join(staging, 'files');
      await downloadVerified(plan.url, plan.sha256, join(staging, 'download'), ctx);
      ctx.progress?.(`Unpacking ${agent.name}…`);
      await mkdir(files);
      await unpack(join(staging, 'download'), plan.format, files, plan.cmd);
      await resolveCommand(files, plan.cmd); // present, inside, executable: before it is promoted
      ctx.signal?.throwIfAborted();
      promoted = await ctx.store.promote(files, agent.id, agent.version);
      const { dir, release } = promoted;
      await ctx.store.removeDir(agent.id, staging);
      const command = await resolveCommand(dir, plan.cmd);
      return { dir, version: agent.version, run: withEnv({ command, args: plan.args }, plan.env), release };
    }
    if (!ctx.tools.npm || !ctx.tools.node) throw new Error('npm and node are not on PATH');
    ctx.progress?.(`Installing ${plan.packageName}@${plan.version} with npm…`);
    await npmInstall({
      npm: ctx.tools.npm,
      dir: staging,
      packageName: plan.packageName,
      version: plan.version,
      signal: ctx.signal,
      onOutput: ctx.log,
    });
    await npmBin(staging, plan.packageName); // fail before promoting when there is nothing to run
    const version = (await installedVersion(staging, plan.packageName)) ?? plan.version;
    ctx.signal?.throwIfAborted();
    promoted = await ctx.store.promote(staging, agent.id, version);
    const { dir, release } = promoted;
    const script = await npmBin(dir, plan.packageName);
    const run = withEnv({ command: ctx.tools.node, args: [script, ...plan.args] }, plan.env);
    return { dir, version, run, release };
  } catch (err) {
    await ctx.store.removeDir(agent.id, staging);
    if (promoted) {
      promoted.release(); // our own lease would keep it
      await ctx.store.removeDir(agent.id, promoted.dir);
    }
    throw err;
  }
}

async function downloadVerified(url: string, sha256: string, file: string, ctx: InstallContext): Promise<void> {
  const host = new URL(url).host;
  ctx.progress?.(`Downloading from ${host}…`, 0);
  let last = 0;
  const { sha256: actual, bytes } = await downloadFile(url, file, {
    policy: ctx.policy,
    signal: ctx.signal,
    maxBytes: MAX_DOWNLOAD_BYTES,
    onProgress: (received, total) => {
      // Report whole percents only: withProgress takes increments, and a report per chunk floods it.
      const fraction = total ? received / total : 0;
      if (total && fraction - last < 0.01) return;
      last = fraction;
      ctx.progress?.(`Downloading from ${host}… ${(received / 1048576).toFixed(1)} MB`, total ? fraction : undefined);
    },
  });
  ctx.log?.(`Downloaded ${bytes} bytes from ${url}, SHA-256 ${actual}`);
  if (!sameSha256(actual, sha256)) throw new ChecksumError(sha256, actual);
}

function withEnv(run: Omit<AgentConfig, 'name'>, env: Record<string, string>): Omit<AgentConfig, 'name'> {
  return Object.keys(env).length ? { ...run, env: { ...env } } : run;
}
