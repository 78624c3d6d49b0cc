// The registry index, fetched with a timeout and cached with its fetch time. When the fetch fails
// (offline, the server down, a broken index) the cached copy of the same URL is used and marked
// offline, so the list still shows, saying how old it is.
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fetchText, type UrlPolicy } from './download';
import { NetworkError } from './networkErrors';
import { parseRegistryIndex } from './parse';
import type { RegistryIndex } from './types';

export const OFFICIAL_INDEX_URL = 'https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json';
export const INDEX_TIMEOUT_MS = 15_000;
const MAX_INDEX_BYTES = 8 * 1024 * 1024;

export interface LoadedIndex {
  index: RegistryIndex;
  warnings: string[];
  url: string;
  /** When this copy was fetched (ms since the epoch). */
  fetchedAt: number;
  /** The fetch failed and this is the cached copy. */
  offline: boolean;
  /** Why the fetch failed, when it did: in words. */
  fetchError?: string;
  /** The same with the error's codes, for the log. */
  fetchErrorDetail?: string;
}

/** No index could be fetched and none is cached: what the message about it needs. */
export class RegistryLoadError extends Error {
  constructor(
    readonly url: string,
    /** Why, in words. */
    readonly reason: string,
    /** Why, with the codes: for the log. */
    readonly detail: string,
    /** The server's certificate is not trusted here (a company CA missing from the system's store). */
    readonly untrusted: boolean,
  ) {
    super(`could not load the ACP Registry from ${url}: ${reason}; no copy is cached yet`);
    this.name = 'RegistryLoadError';
  }
}

export interface LoadIndexOptions {
  url: string;
  cacheFile: string;
  policy: UrlPolicy;
  timeoutMs?: number;
  /** A cached copy younger than this is used without fetching (background update checks). */
  maxAgeMs?: number;
  now?: () => number;
}

interface CacheFile {
  url: string;
  fetchedAt: number;
  body: string;
}

export async function loadIndex(o: LoadIndexOptions): Promise<LoadedIndex> {
  const now = o.now ?? Date.now;
  const cached = await readCache(o.cacheFile, o.url);
  if (cached && o.maxAgeMs !== undefined && now() - cached.fetchedAt < o.maxAgeMs) {
    const parsed = safeParse(cached.body);
    if (parsed) return { ...parsed, url: o.url, fetchedAt: cached.fetchedAt, offline: false };
  }
  let failure: { reason: string; detail: string; untrusted: boolean };
  try {
    const body = await fetchText(o.url, {
      policy: o.policy,
      timeoutMs: o.timeoutMs ?? INDEX_TIMEOUT_MS,
      maxBytes: MAX_INDEX_BYTES,
    });
    const parsed = parseRegistryIndex(body);
    const fetchedAt = now();
    await writeCache(o.cacheFile, { url: o.url, fetchedAt, body });
    return { ...parsed, url: o.url, fetchedAt, offline: false };
  } catch (err) {
    failure = describeFetchError(err);
  }
  const parsed = cached && safeParse(cached.body);
  if (cached && parsed)
    return {
      ...parsed,
      url: o.url,
      fetchedAt: cached.fetchedAt,
      offline: true,
      fetchError: failure.reason,
      fetchErrorDetail: failure.detail,
    };
  throw new RegistryLoadError(o.url, failure.reason, failure.detail, failure.untrusted);
}

/** "2026-11-23 14:05", in local time: when an offline list was fetched. */
export function formatListDate(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

function safeParse(body: string): ReturnType<typeof parseRegistryIndex> | undefined {
  try {
    return parseRegistryIndex(body);
  } catch {
    return undefined;
  }
}

async function readCache(file: string, url: string): Promise<CacheFile | undefined> {
  try {
    const c = JSON.parse(await readFile(file, 'utf8')) as Partial<CacheFile>;
    if (c.url === url && typeof c.fetchedAt === 'number' && typeof c.body === 'string') return c as CacheFile;
  } catch {
    /* no cache yet, or unreadable: as if none */
  }
  return undefined;
}

async function writeCache(file: string, c: CacheFile): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const tmp = `${file}.tmp`;
  await writeFile(tmp, JSON.stringify(c));
  await rename(tmp, file);
}

/** Why the fetch failed: a failed connection in words (fetchText made it a NetworkError), else the error's own message. */
function describeFetchError(err: unknown): { reason: string; detail: string; untrusted: boolean } {
  if (err instanceof NetworkError) return { reason: err.message, detail: err.detail, untrusted: err.untrusted };
  const text = err instanceof Error ? err.message : String(err);
  return { reason: text, detail: text, untrusted: false };
}
