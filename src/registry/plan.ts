// Install planning: which of an agent's distributions Tandem uses on this machine, or why it
// cannot run here. Order: a verified binary for this platform (self-contained), then npx (needs
// Node.js and npm), then uvx (needs uv). A binary without a sha256 is never used: Tandem runs
// only downloads it can verify.
import { PLATFORM_KEYS, type PlatformKey, type RegistryAgent } from './types';

export type ArchiveFormat = 'zip' | 'tar.gz' | 'raw';

export type InstallPlan =
  | { kind: 'npx'; packageName: string; version: string; args: string[]; env: Record<string, string> }
  | { kind: 'uvx'; package: string; args: string[]; env: Record<string, string> }
  | {
      kind: 'binary';
      platform: PlatformKey;
      url: string;
      sha256: string;
      format: ArchiveFormat;
      cmd: string;
      args: string[];
      env: Record<string, string>;
    };

/** Why an agent cannot be installed here: another platform, a missing tool, an unverifiable or unreadable download. */
export interface Unavailable {
  why: 'platform' | 'tool' | 'unverified' | 'format';
  message: string;
}

export type PlanResult = { plan: InstallPlan } | { unavailable: Unavailable };

/** The programs the plan may need, as found on PATH (undefined: missing). */
export interface Tools {
  node?: string;
  npm?: string;
  uvx?: string;
}

export const UV_HELP =
  'Install uv (https://docs.astral.sh/uv/getting-started/installation/), e.g. `curl -LsSf https://astral.sh/uv/install.sh | sh`, `brew install uv` or `pipx install uv`, then try again.';
export const NPM_HELP = 'Install Node.js with npm (https://nodejs.org) so that `node` and `npm` are on PATH.';

/** The registry's platform key for a Node platform/arch pair, or undefined for one it has no builds for. */
export function platformKey(platform: string = process.platform, arch: string = process.arch): PlatformKey | undefined {
  const os = platform === 'darwin' ? 'darwin' : platform === 'linux' ? 'linux' : platform === 'win32' ? 'windows' : '';
  const cpu = arch === 'x64' ? 'x86_64' : arch === 'arm64' ? 'aarch64' : '';
  const key = `${os}-${cpu}`;
  return (PLATFORM_KEYS as readonly string[]).includes(key) ? (key as PlatformKey) : undefined;
}

export function planInstall(agent: RegistryAgent, platform: PlatformKey | undefined, tools: Tools): PlanResult {
  const d = agent.distribution;
  const problems: Unavailable[] = [];
  const target = platform ? d.binary?.[platform] : undefined;
  if (target && platform) {
    const format = archiveFormat(target.archive);
    if (!target.sha256)
      problems.push({
        why: 'unverified',
        message: `its ${platform} download has no sha256 in the registry, and Tandem installs only downloads it can verify`,
      });
    else if (typeof format !== 'string')
      problems.push({ why: 'format', message: `Tandem cannot unpack ${format.unsupported} downloads` });
    else
      return {
        plan: {
          kind: 'binary',
          platform,
          url: target.archive,
          sha256: target.sha256,
          format,
          cmd: target.cmd,
          args: target.args ?? [],
          env: target.env ?? {},
        },
      };
  }
  if (d.npx) {
    if (tools.npm && tools.node) {
      const { name, version } = splitNpmSpec(d.npx.package);
      return {
        plan: {
          kind: 'npx',
          packageName: name,
          version: version ?? agent.version,
          args: d.npx.args ?? [],
          env: d.npx.env ?? {},
        },
      };
    }
    problems.push({ why: 'tool', message: `it installs with npm. ${NPM_HELP}` });
  }
  if (d.uvx) {
    if (tools.uvx)
      return { plan: { kind: 'uvx', package: d.uvx.package, args: d.uvx.args ?? [], env: d.uvx.env ?? {} } };
    problems.push({ why: 'tool', message: `it runs with uvx, and uv is not on PATH. ${UV_HELP}` });
  }
  if (d.binary && !target) {
    const builds = Object.keys(d.binary).join(', ');
    problems.push({
      why: 'platform',
      message: platform
        ? `no build for ${platform} (builds: ${builds})`
        : `no build for this platform (builds: ${builds})`,
    });
  }
  // The most useful reason first: a tool the user can install beats "not for this platform".
  const order: Unavailable['why'][] = ['tool', 'unverified', 'format', 'platform'];
  problems.sort((a, b) => order.indexOf(a.why) - order.indexOf(b.why));
  return { unavailable: problems[0] ?? { why: 'platform', message: 'no distribution for this machine' } };
}

/** The archive format of a download URL, from its path's extension; anything else is the executable itself. */
export function archiveFormat(url: string): ArchiveFormat | { unsupported: string } {
  let path = url;
  try {
    path = new URL(url).pathname;
  } catch {
    /* a relative or odd URL: judge by the text */
  }
  const p = path.toLowerCase();
  if (p.endsWith('.zip')) return 'zip';
  if (p.endsWith('.tar.gz') || p.endsWith('.tgz')) return 'tar.gz';
  const other = [
    '.tar.bz2',
    '.tbz2',
    '.tar.xz',
    '.txz',
    '.tar',
    '.7z',
    '.dmg',
    '.pkg',
    '.deb',
    '.rpm',
    '.msi',
    '.appimage',
  ];
  const ext = other.find((e) => p.endsWith(e));
  return ext ? { unsupported: ext } : 'raw';
}

/** `@scope/name@1.2.3` → name `@scope/name`, version `1.2.3`; no version → undefined. */
export function splitNpmSpec(spec: string): { name: string; version?: string } {
  const at = spec.indexOf('@', spec.startsWith('@') ? 1 : 0);
  if (at < 0) return { name: spec };
  const version = spec.slice(at + 1);
  return { name: spec.slice(0, at), version: version || undefined };
}
