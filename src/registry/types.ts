// The ACP Registry's index (https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json),
// as its agent.schema.json describes an entry: `{ version, agents: [entry] }`, each entry with
// id, name, version, description, optional repository / website / authors / license / icon, and a
// `distribution` of one or more kinds: `npx` and `uvx` (a package with optional args and env) and
// `binary` (per platform target: an archive URL, the command inside it, args, env, sha256).

/** The platform keys of `distribution.binary` (the schema's propertyNames enum). */
export const PLATFORM_KEYS = [
  'darwin-aarch64',
  'darwin-x86_64',
  'linux-aarch64',
  'linux-x86_64',
  'windows-aarch64',
  'windows-x86_64',
] as const;
export type PlatformKey = (typeof PLATFORM_KEYS)[number];

export interface PackageDistribution {
  /** npm or PyPI package, with an optional version: `@scope/name@1.2.3`, `name==1.2.3`. */
  package: string;
  args?: string[];
  env?: Record<string, string>;
}

export interface BinaryTarget {
  /** Where the archive (.zip, .tar.gz, .tgz) or the raw executable is downloaded from. */
  archive: string;
  /** The command to run, relative to the unpacked archive (`./codex-acp`). */
  cmd: string;
  args?: string[];
  env?: Record<string, string>;
  /** Hex SHA-256 of the download. Optional in the registry's schema; Tandem requires it. */
  sha256?: string;
}

export type DistributionKind = 'npx' | 'uvx' | 'binary';

export interface Distribution {
  npx?: PackageDistribution;
  uvx?: PackageDistribution;
  binary?: Partial<Record<PlatformKey, BinaryTarget>>;
}

export interface RegistryAgent {
  id: string;
  name: string;
  version: string;
  description: string;
  repository?: string;
  website?: string;
  authors: string[];
  license?: string;
  /** Absolute icon URL (the registry's build turns each agent's icon.svg into one). */
  icon?: string;
  distribution: Distribution;
}

export interface RegistryIndex {
  /** The index format's version (`1.0.0`). */
  version: string;
  agents: RegistryAgent[];
}

/** What Tandem installed from the registry, kept in the install folder's manifest. */
export interface InstalledAgent {
  id: string;
  version: string;
  kind: DistributionKind;
  /** The name of its entry in `tandem.agents`. */
  agentName: string;
  /** The version folder (npx, binary) or undefined (uvx: nothing on disk). */
  dir?: string;
  /**
   * The index's version it was installed for, when `version` (what npm installed) differs: an
   * index entry can pin an npm version other than its own, and comparing the index with npm's
   * would offer the same update forever.
   */
  registryVersion?: string;
  installedAt: number;
}
