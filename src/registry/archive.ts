// Unpacking a verified download into its install folder, and finding the agent's command in it.
// tar.gz through `tar` (npm's own, node-tar: refuses absolute and `..` paths and writing through
// symlinks) and zip through `yauzl` (rejects absolute, `..` and backslash names, checks entry sizes);
// both are pure JavaScript, so nothing depends on the tools a machine happens to have. A raw
// download is the executable itself. Nothing may land or point outside the folder: zip entries are
// placed by `ContainedFolder` (checked on disk, never written through a link), and both formats
// end with its walk over what was unpacked (links, hard links, special files).
import { chmod, copyFile, mkdir, realpath, stat } from 'node:fs/promises';
import { createReadStream, createWriteStream } from 'node:fs';
import { dirname, sep } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { ArchiveRefusedError, tarRefusal, zipRefusal } from './archiveRefusal';
import { ContainedFolder, insidePath } from './contained';
import type { ArchiveFormat } from './plan';

export { insidePath };

export interface UnpackLimits {
  /** Bytes of content (zip) or of the unpacked tar stream (tar.gz) past which the unpack fails. */
  maxBytes: number;
  /** Entries past which the unpack fails. */
  maxEntries: number;
}

/**
 * 2 GiB: twice the largest download Tandem accepts (installer.ts) and several times the largest
 * agent in the registry unpacked (a few hundred MB), while a zip or gzip bomb (deflate reaches
 * 1000:1, so a 1 GiB download could claim a terabyte) fails as soon as it passes it, before it
 * fills the disk. 250,000 entries: an agent with a bundled runtime has tens of thousands of files;
 * millions of empty ones would only exhaust inodes.
 */
export const UNPACK_LIMITS: UnpackLimits = { maxBytes: 2 * 1024 ** 3, maxEntries: 250_000 };

/** Unpacks `file` into `dest` (which must exist). For `raw`, `rawName` is the file name to give it. */
export async function unpack(
  file: string,
  format: ArchiveFormat,
  dest: string,
  rawName: string,
  limits: UnpackLimits = UNPACK_LIMITS,
): Promise<void> {
  if (format === 'tar.gz') return unpackTarGz(file, dest, limits);
  if (format === 'zip') return unpackZip(file, dest, limits);
  const target = insidePath(dest, rawName);
  await mkdir(dirname(target), { recursive: true });
  await copyFile(file, target);
}

async function unpackTarGz(file: string, dest: string, limits: UnpackLimits): Promise<void> {
  const tar = await import('tar');
  const allowed = new Set(['File', 'OldFile', 'ContiguousFile', 'Directory', 'SymbolicLink', 'Link']);
  let entries = 0;
  let declared = 0;
  let refused: ArchiveRefusedError | undefined;
  const unpacker = tar.x({
    cwd: dest,
    strict: true, // a warning (an unsafe path, a bad header) fails the unpack instead of skipping the entry
    preservePaths: false,
    preserveOwner: false,
    // Seen at each header, before its content is written: a refused entry stops the unpack.
    filter: (path, entry) => {
      const type = 'type' in entry ? entry.type : 'unknown';
      declared += entry.size ?? 0;
      if (++entries > limits.maxEntries) refused ??= tooMany(limits);
      else if (declared > limits.maxBytes) refused ??= tooLarge(limits);
      else if (!allowed.has(type)) refused ??= new ArchiveRefusedError('special', path, `a ${type} entry`);
      return !refused;
    },
  });
  // Counted after gunzip, so a gzip bomb stops at the limit instead of being inflated to the end.
  let bytes = 0;
  const count = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      if (bytes > limits.maxBytes) return done(tooLarge(limits));
      if (refused) return done(refused);
      done(null, chunk);
    },
  });
  const done = pipeline(createReadStream(file), createGunzip(), count, unpacker as unknown as NodeJS.WritableStream);
  // The reason for refusing comes first: tar's own complaint (a truncated body) is a consequence.
  // tar's refusals of an entry (strict: each is a failure) are said in words.
  await done.catch((err: unknown) => {
    throw refused ?? tarRefusal(err) ?? err;
  });
  if (refused) throw refused;
  await (await ContainedFolder.open(dest)).verify();
}

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;

async function unpackZip(file: string, dest: string, limits: UnpackLimits): Promise<void> {
  const yauzl = await import('yauzl');
  const zip = await yauzl.openPromise(file, { lazyEntries: true, validateEntrySizes: true });
  const folder = await ContainedFolder.open(dest);
  let total = 0;
  let entries = 0;
  try {
    if (zip.entryCount > limits.maxEntries) throw tooMany(limits);
    for await (const entry of zip.eachEntry()) {
      if (++entries > limits.maxEntries) throw tooMany(limits);
      // The Unix mode, from a zip made on Unix or macOS. One made on Windows has MS-DOS attributes
      // there instead: no type, so a file unless its name says folder, never a link.
      const unix = [3, 19].includes(entry.versionMadeBy >> 8);
      const mode = unix ? (entry.externalFileAttributes >>> 16) & 0o177777 : 0;
      const type = mode & S_IFMT;
      if (type && type !== S_IFREG && type !== S_IFDIR && type !== S_IFLNK)
        throw new ArchiveRefusedError('special', entry.fileName, 'a special file: a device, FIFO or socket');
      if (entry.fileName.endsWith('/') || type === S_IFDIR) {
        await folder.place(entry.fileName, 'dir');
        continue;
      }
      total += entry.uncompressedSize; // yauzl checks the content against the declared size
      if (total > limits.maxBytes) throw tooLarge(limits);
      const isLink = type === S_IFLNK;
      const target = await folder.place(entry.fileName, isLink ? 'link' : 'file');
      const stream = await zip.openReadStreamPromise(entry);
      if (isLink) {
        // A symbolic link stores its target as the content.
        await folder.link(await smallText(stream, 4096, entry.fileName), target, entry.fileName);
        continue;
      }
      // 'wx': never opens what is already there (a link above all); place() found nothing there.
      await pipeline(stream, createWriteStream(target, { flags: 'wx', mode: 0o644 }));
      if (mode & 0o111) await chmod(target, 0o755);
    }
    await folder.verify();
  } catch (err) {
    throw zipRefusal(err) ?? err; // yauzl's refusal of a name, in words
  } finally {
    zip.close();
  }
}

async function smallText(stream: Readable, max: number, name: string): Promise<string> {
  const chunks: Buffer[] = [];
  let n = 0;
  for await (const c of stream) {
    n += (c as Buffer).length;
    if (n > max) throw new Error(`the archive holds a link with an overlong target: ${name}`);
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function tooLarge(limits: UnpackLimits): ArchiveRefusedError {
  return new ArchiveRefusedError('limit', undefined, `it unpacks to more than ${limits.maxBytes} bytes`);
}

function tooMany(limits: UnpackLimits): ArchiveRefusedError {
  return new ArchiveRefusedError('limit', undefined, `it holds more than ${limits.maxEntries} entries`);
}

/**
 * The registry's `cmd` (`./codex-acp`, `./dist-package\\cursor-agent.cmd`) as an absolute path
 * inside `dest`, following symlinks, made executable. Throws when it is missing or points outside.
 */
export async function resolveCommand(dest: string, cmd: string): Promise<string> {
  const path = insidePath(dest, cmd);
  let real: string;
  try {
    real = await realpath(path);
  } catch {
    throw new Error(`the download has no ${cmd}`);
  }
  const root = await realpath(dest);
  if (real !== root && !real.startsWith(root + sep)) throw new Error(`${cmd} points outside the install folder`);
  if (!(await stat(real)).isFile()) throw new Error(`${cmd} is not a file`);
  if (process.platform !== 'win32') await chmod(real, 0o755);
  return path;
}
