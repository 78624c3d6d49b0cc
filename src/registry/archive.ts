// Unpacking a verified download into its install folder, and finding the agent's command in it.
// tar.gz through `tar` (npm's own, node-tar: refuses absolute and `..` paths and writing through
// symlinks) and zip through `yauzl` (rejects absolute, `..` and backslash names, checks entry sizes);
// both are pure JavaScript, so nothing depends on the tools a machine happens to have. A raw
// download is the executable itself. Nothing may land or point outside the folder.
import { chmod, copyFile, mkdir, realpath, stat, symlink } from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { ArchiveFormat } from './plan';

/** More than this unpacked (zip) is refused: a zip bomb should fail, not fill the disk. */
export const MAX_UNPACKED_BYTES = 4 * 1024 * 1024 * 1024;

/** Unpacks `file` into `dest` (which must exist). For `raw`, `rawName` is the file name to give it. */
export async function unpack(file: string, format: ArchiveFormat, dest: string, rawName: string): Promise<void> {
  if (format === 'tar.gz') return unpackTarGz(file, dest);
  if (format === 'zip') return unpackZip(file, dest);
  const target = insidePath(dest, rawName);
  await mkdir(dirname(target), { recursive: true });
  await copyFile(file, target);
}

async function unpackTarGz(file: string, dest: string): Promise<void> {
  const tar = await import('tar');
  const allowed = new Set(['File', 'OldFile', 'ContiguousFile', 'Directory', 'SymbolicLink', 'Link']);
  await tar.x({
    file,
    cwd: dest,
    gzip: true,
    strict: true, // a warning (an unsafe path, a bad header) fails the unpack instead of skipping the entry
    preservePaths: false,
    preserveOwner: false,
    filter: (_path, entry) => 'type' in entry && allowed.has(entry.type),
  });
}

async function unpackZip(file: string, dest: string): Promise<void> {
  const yauzl = await import('yauzl');
  const zip = await yauzl.openPromise(file, { lazyEntries: true, validateEntrySizes: true });
  let total = 0;
  try {
    for await (const entry of zip.eachEntry()) {
      const target = insidePath(dest, entry.fileName);
      if (entry.fileName.endsWith('/')) {
        await mkdir(target, { recursive: true });
        continue;
      }
      total += entry.uncompressedSize;
      if (total > MAX_UNPACKED_BYTES) throw new Error('the archive unpacks to more than 4 GiB');
      const mode = (entry.externalFileAttributes >>> 16) & 0o177777;
      await mkdir(dirname(target), { recursive: true });
      const stream = await zip.openReadStreamPromise(entry);
      if ((mode & 0o170000) === 0o120000) {
        // A symbolic link stores its target as the content: keep it only when it stays inside.
        const chunks: Buffer[] = [];
        for await (const c of stream) chunks.push(c as Buffer);
        const linkTarget = Buffer.concat(chunks).toString('utf8');
        insidePath(dest, relative(dest, resolve(dirname(target), linkTarget)));
        await symlink(linkTarget, target);
        continue;
      }
      await pipeline(stream, createWriteStream(target, { mode: 0o644 }));
      if (mode & 0o111) await chmod(target, 0o755);
    }
  } finally {
    zip.close();
  }
}

/** `name` resolved under `dest`; throws when it is absolute or climbs out. */
export function insidePath(dest: string, name: string): string {
  const normalized = name.replace(/\\/g, '/');
  if (isAbsolute(normalized) || /^[a-zA-Z]:/.test(normalized))
    throw new Error(`the archive holds an absolute path: ${name}`);
  const target = resolve(dest, normalized);
  const rel = relative(resolve(dest), target);
  if (rel.startsWith('..') || isAbsolute(rel)) throw new Error(`the archive holds a path outside its folder: ${name}`);
  return target;
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
