// Reads the registry index, checking each entry by hand against the rules of the registry's
// agent.schema.json (draft-07; small enough that a generated validator would be larger than the
// checks). A bad entry is skipped with a warning and never hides the others; only an index that is
// not `{ version, agents: [] }` at all is an error.
//
// Where the schema forbids extra fields (a binary target, an npx/uvx package) an unknown field
// makes the entry invalid: Tandem cannot tell what it would have meant (a checksum of another kind,
// a signature) and will not install around it. Unknown top-level fields are allowed by the schema
// (`website` and `license_url` arrived that way) and are ignored. A distribution kind or platform
// key Tandem does not know is dropped with a warning and the rest of the entry kept, so an agent
// that adds a new kind of download stays installable the ways Tandem knows.
import {
  PLATFORM_KEYS,
  type BinaryTarget,
  type Distribution,
  type PackageDistribution,
  type PlatformKey,
  type RegistryAgent,
  type RegistryIndex,
} from './types';

export interface ParsedIndex {
  index: RegistryIndex;
  warnings: string[];
}

const ID = /^[a-z][a-z0-9-]*$/;
const SEMVER_PREFIX = /^[0-9]+\.[0-9]+\.[0-9]+/;
const SHA256 = /^[a-fA-F0-9]{64}$/;
const TARGET_FIELDS = new Set(['archive', 'cmd', 'args', 'env', 'sha256']);
const PACKAGE_FIELDS = new Set(['package', 'args', 'env']);

class EntryError extends Error {}

/** Parses the index JSON text (or an already parsed value). Throws only when it is not an index. */
export function parseRegistryIndex(input: string | unknown): ParsedIndex {
  let raw: unknown = input;
  if (typeof input === 'string') {
    try {
      raw = JSON.parse(input);
    } catch (err) {
      throw new Error(`the registry index is not JSON: ${(err as Error).message}`);
    }
  }
  if (!isObject(raw)) throw new Error('the registry index is not a JSON object');
  if (typeof raw.version !== 'string' || !SEMVER_PREFIX.test(raw.version))
    throw new Error('the registry index has no "version"');
  if (!Array.isArray(raw.agents)) throw new Error('the registry index has no "agents" list');
  const warnings: string[] = [];
  if (!raw.version.startsWith('1.'))
    warnings.push(`The registry index has format ${raw.version}; Tandem reads format 1 and skips what it cannot read.`);
  const agents: RegistryAgent[] = [];
  raw.agents.forEach((entry, i) => {
    const where = isObject(entry) && typeof entry.id === 'string' ? `"${entry.id}"` : `#${i + 1}`;
    try {
      const agent = parseAgentEntry(entry, (w) => warnings.push(`Registry agent ${where}: ${w}`));
      if (agents.some((a) => a.id === agent.id)) {
        warnings.push(`Registry agent ${where} is listed twice: the second entry is skipped.`);
        return;
      }
      agents.push(agent);
    } catch (err) {
      // Any failure stays with its entry: one bad agent never hides the rest of the list.
      warnings.push(`Registry agent ${where} skipped: ${err instanceof Error ? err.message : String(err)}.`);
    }
  });
  return { index: { version: raw.version, agents }, warnings };
}

/** One entry of `agents`; throws EntryError when the schema rejects it. */
export function parseAgentEntry(raw: unknown, warn: (message: string) => void = () => {}): RegistryAgent {
  if (!isObject(raw)) throw new EntryError('not an object');
  const id = raw.id;
  if (typeof id !== 'string' || !ID.test(id)) throw new EntryError('"id" must be lowercase letters, digits and -');
  const name = requiredText(raw, 'name');
  const version = requiredText(raw, 'version');
  if (!SEMVER_PREFIX.test(version)) throw new EntryError(`"version" ${JSON.stringify(version)} is not a version`);
  const description = requiredText(raw, 'description');
  const agent: RegistryAgent = {
    id,
    name,
    version,
    description,
    authors: optionalStrings(raw.authors, '"authors"') ?? [],
    distribution: parseDistribution(raw.distribution, warn),
  };
  for (const key of ['repository', 'website', 'license', 'icon'] as const) {
    const v = raw[key];
    if (v === undefined) continue;
    if (typeof v !== 'string') throw new EntryError(`"${key}" must be a string`);
    agent[key] = v;
  }
  return agent;
}

function parseDistribution(raw: unknown, warn: (message: string) => void): Distribution {
  if (!isObject(raw)) throw new EntryError('"distribution" must be an object');
  const d: Distribution = {};
  for (const [kind, value] of Object.entries(raw)) {
    if (kind === 'npx' || kind === 'uvx') d[kind] = parsePackage(value, kind);
    else if (kind === 'binary') d.binary = parseBinary(value, warn);
    else warn(`distribution kind "${kind}" is not one Tandem knows (npx, uvx, binary): ignored.`);
  }
  if (!d.npx && !d.uvx && !(d.binary && Object.keys(d.binary).length))
    throw new EntryError('no distribution Tandem knows (npx, uvx, binary)');
  return d;
}

function parsePackage(raw: unknown, kind: string): PackageDistribution {
  if (!isObject(raw)) throw new EntryError(`"distribution.${kind}" must be an object`);
  rejectUnknown(raw, PACKAGE_FIELDS, `distribution.${kind}`);
  const pkg = raw.package;
  if (typeof pkg !== 'string' || !pkg.trim()) throw new EntryError(`"distribution.${kind}.package" is missing`);
  const out: PackageDistribution = { package: pkg.trim() };
  const args = optionalStrings(raw.args, `"distribution.${kind}.args"`);
  if (args) out.args = args;
  const env = optionalEnv(raw.env, `"distribution.${kind}.env"`);
  if (env) out.env = env;
  return out;
}

function parseBinary(raw: unknown, warn: (message: string) => void): Partial<Record<PlatformKey, BinaryTarget>> {
  if (!isObject(raw)) throw new EntryError('"distribution.binary" must be an object');
  const out: Partial<Record<PlatformKey, BinaryTarget>> = {};
  for (const [platform, value] of Object.entries(raw)) {
    if (!(PLATFORM_KEYS as readonly string[]).includes(platform)) {
      warn(`binary platform "${platform}" is not one Tandem knows: ignored.`);
      continue;
    }
    const where = `distribution.binary.${platform}`;
    if (!isObject(value)) throw new EntryError(`"${where}" must be an object`);
    rejectUnknown(value, TARGET_FIELDS, where);
    if (typeof value.archive !== 'string' || !value.archive) throw new EntryError(`"${where}.archive" is missing`);
    if (typeof value.cmd !== 'string' || !value.cmd) throw new EntryError(`"${where}.cmd" is missing`);
    const t: BinaryTarget = { archive: value.archive, cmd: value.cmd };
    const args = optionalStrings(value.args, `"${where}.args"`);
    if (args) t.args = args;
    const env = optionalEnv(value.env, `"${where}.env"`);
    if (env) t.env = env;
    if (value.sha256 !== undefined) {
      if (typeof value.sha256 !== 'string' || !SHA256.test(value.sha256))
        throw new EntryError(`"${where}.sha256" is not 64 hex digits`);
      t.sha256 = value.sha256.toLowerCase();
    }
    out[platform as PlatformKey] = t;
  }
  return out;
}

function rejectUnknown(obj: Record<string, unknown>, known: Set<string>, where: string): void {
  const extra = Object.keys(obj).filter((k) => !known.has(k));
  if (extra.length)
    throw new EntryError(`"${where}" has unknown field${extra.length > 1 ? 's' : ''} ${extra.join(', ')}`);
}

function requiredText(obj: Record<string, unknown>, key: string): string {
  const v = obj[key];
  if (typeof v !== 'string' || !v.trim()) throw new EntryError(`"${key}" is missing`);
  return v;
}

function optionalStrings(v: unknown, what: string): string[] | undefined {
  if (v === undefined) return undefined;
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string'))
    throw new EntryError(`${what} must be a list of strings`);
  return v as string[];
}

function optionalEnv(v: unknown, what: string): Record<string, string> | undefined {
  if (v === undefined) return undefined;
  if (!isObject(v) || !Object.values(v).every((x) => typeof x === 'string'))
    throw new EntryError(`${what} must map names to strings`);
  return { ...(v as Record<string, string>) };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
