// Content-addressed file contents for checkpoints: one file per distinct content, named by the
// sha256 of the exact bytes (blobs/ab/cdef…), written once (temp file + rename, so a crash never
// leaves a half-written blob under a valid name) and shared by every checkpoint and session of
// the workspace. Stored deflated (zlib level 1, in the thread pool) when that is smaller: one
// byte of header says which (source text takes about a third; bench/checkpoints.ts). Bounded: a file over `maxFileBytes` is not kept, and nothing is added past
// `maxTotalBytes`; both refusals are TooBigToKeep errors whose message says what and why.
import { createHash, randomBytes } from 'node:crypto';
import { promises as fs, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { deflateRaw, inflateRaw, inflateRawSync } from 'node:zlib';
import { formatBytes } from '../client/files/textSlice';

export interface StoreLimits {
  /** A file larger than this is not kept (its changes are listed, but cannot be restored). */
  readonly maxFileBytes: number;
  /** All blobs of the workspace together stay under this. */
  readonly maxTotalBytes: number;
}

export const DEFAULT_LIMITS: StoreLimits = { maxFileBytes: 10 * 1024 * 1024, maxTotalBytes: 1024 * 1024 * 1024 };

/** The one way to free checkpoint storage: a deleted session takes its checkpoints with it. */
export const FREE_SPACE =
  'To free space, delete sessions you no longer need (Tandem: Delete Session from History…): their checkpoints go with them.';

const deflate = promisify(deflateRaw);
const inflate = promisify(inflateRaw);
const RAW = 0;
const DEFLATED = 1;

export class TooBigToKeep extends Error {
  constructor(
    message: string,
    readonly size: number,
  ) {
    super(message);
    this.name = 'TooBigToKeep';
  }
}

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export function tooBigMessage(file: string, size: number, limit: number): string {
  return `${file} is too big to keep in a checkpoint (${formatBytes(size)}; the limit is ${formatBytes(limit)}): its changes are listed but cannot be restored.`;
}

export class BlobStore {
  private total: number | undefined;
  private readonly known = new Set<string>();
  /** Blobs put while a sweep runs: their log records may not be written yet, so they stay. */
  private pinned: Set<string> | undefined;
  private readonly writing = new Map<string, Promise<void>>();

  constructor(
    readonly dir: string,
    readonly limits: StoreLimits = DEFAULT_LIMITS,
  ) {}

  private pathOf(sha: string): string {
    if (!/^[0-9a-f]{64}$/.test(sha)) throw new Error(`Not a checkpoint blob id: ${sha}`);
    return path.join(this.dir, sha.slice(0, 2), sha.slice(2));
  }

  /** Bytes of every blob on disk (read once, then kept up to date). */
  async totalBytes(): Promise<number> {
    if (this.total === undefined) {
      let sum = 0;
      for (const sub of await readdirOrEmpty(this.dir))
        for (const name of await readdirOrEmpty(path.join(this.dir, sub))) {
          const st = await fs.stat(path.join(this.dir, sub, name)).catch(() => undefined);
          if (st?.isFile() && !name.includes('.tmp')) sum += st.size;
        }
      this.total ??= sum;
    }
    return this.total;
  }

  /**
   * Stores `bytes` (if not there yet) and returns their sha256. `file` only names the file in
   * the error when it is too big to keep.
   */
  async put(bytes: Uint8Array, file = 'The file', sha = sha256(bytes)): Promise<string> {
    if (bytes.length > this.limits.maxFileBytes)
      throw new TooBigToKeep(tooBigMessage(file, bytes.length, this.limits.maxFileBytes), bytes.length);
    this.pinned?.add(sha);
    if (this.known.has(sha)) return sha;
    let job = this.writing.get(sha);
    if (!job) {
      job = this.write(sha, bytes, file).finally(() => this.writing.delete(sha));
      this.writing.set(sha, job);
    }
    await job;
    return sha;
  }

  private async write(sha: string, bytes: Uint8Array, file: string): Promise<void> {
    const target = this.pathOf(sha);
    if (await exists(target)) {
      this.known.add(sha);
      return;
    }
    const packed = await deflate(bytes, { level: 1 });
    const stored =
      packed.length < bytes.length
        ? Buffer.concat([Buffer.of(DEFLATED), packed])
        : Buffer.concat([Buffer.of(RAW), bytes]);
    await this.totalBytes();
    const total = this.total ?? 0;
    // Read, checked and counted in one step (no await between), so that puts running side by side cannot overshoot.
    if (total + stored.length > this.limits.maxTotalBytes)
      throw new TooBigToKeep(
        `Checkpoint storage is full (${formatBytes(total)} of ${formatBytes(this.limits.maxTotalBytes)}): ${file} (${formatBytes(bytes.length)}) was not kept. ${FREE_SPACE}`,
        bytes.length,
      );
    this.total = total + stored.length;
    try {
      await fs.mkdir(path.dirname(target), { recursive: true });
      const tmp = `${target}.${randomBytes(4).toString('hex')}.tmp`;
      await fs.writeFile(tmp, stored);
      await fs.rename(tmp, target);
    } catch (err) {
      this.total -= stored.length;
      throw err;
    }
    this.known.add(sha);
  }

  async get(sha: string): Promise<Uint8Array> {
    const stored = await fs.readFile(this.pathOf(sha)).catch((err) => this.missing(sha, err));
    const body = stored.subarray(1);
    return this.checked(sha, stored[0] === DEFLATED ? await inflate(body) : body);
  }

  /** get(), synchronously: for a tracker entry's `before`, which is a property (one file, ≤ 10 MB). */
  getSync(sha: string): Uint8Array {
    let stored: Buffer;
    try {
      stored = readFileSync(this.pathOf(sha));
    } catch (err) {
      this.missing(sha, err);
    }
    const body = stored.subarray(1);
    return this.checked(sha, stored[0] === DEFLATED ? inflateRawSync(body) : body);
  }

  private missing(sha: string, err: unknown): never {
    const code = (err as NodeJS.ErrnoException).code ?? err;
    throw new Error(`The checkpoint copy ${sha.slice(0, 12)} is missing from ${this.dir} (${code}).`);
  }

  private checked(sha: string, bytes: Uint8Array): Uint8Array {
    if (sha256(bytes) !== sha) throw new Error(`The checkpoint copy ${sha.slice(0, 12)} in ${this.dir} is damaged.`);
    return bytes;
  }

  /** Every blob on disk (one directory read per prefix, no file opened). */
  async list(): Promise<Set<string>> {
    const out = new Set<string>();
    for (const sub of await readdirOrEmpty(this.dir))
      for (const name of await readdirOrEmpty(path.join(this.dir, sub))) if (!name.includes('.')) out.add(sub + name);
    return out;
  }

  async has(sha: string): Promise<boolean> {
    return this.known.has(sha) || exists(this.pathOf(sha));
  }

  /** Deletes every blob not in `live` (and stale temp files); returns what was freed. */
  async sweep(live: ReadonlySet<string>): Promise<{ removed: number; bytes: number }> {
    let removed = 0;
    let bytes = 0;
    this.pinned = new Set();
    try {
      for (const sub of await readdirOrEmpty(this.dir)) {
        const dir = path.join(this.dir, sub);
        for (const name of await readdirOrEmpty(dir)) {
          if (live.has(sub + name) || this.pinned.has(sub + name)) continue;
          const p = path.join(dir, name);
          const st = await fs.stat(p).catch(() => undefined);
          // A temp file may be a put in progress: only an old one is debris of a crash.
          if (name.endsWith('.tmp') && st && Date.now() - st.mtimeMs < 3_600_000) continue;
          await fs.rm(p, { force: true });
          this.known.delete(sub + name);
          removed++;
          if (st && !name.includes('.tmp')) bytes += st.size;
        }
        if (!(await readdirOrEmpty(dir)).length) await fs.rmdir(dir).catch(() => undefined);
      }
    } finally {
      this.pinned = undefined;
    }
    if (this.total !== undefined) this.total = Math.max(0, this.total - bytes);
    return { removed, bytes };
  }
}

async function exists(p: string): Promise<boolean> {
  try {
    await fs.access(p);
    return true;
  } catch {
    return false;
  }
}

async function readdirOrEmpty(dir: string): Promise<string[]> {
  try {
    return await fs.readdir(dir);
  } catch {
    return [];
  }
}
