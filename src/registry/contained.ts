// Writing an archive's entries into a folder so that nothing lands, or points, outside it. A name
// checked only as text is not enough: `a/b -> ..` then `a/b/c -> ..` then `a/b/c/x` is inside by
// name and two folders up on disk. So every entry is placed by what is on disk: no component on
// its way may be a symbolic link (nothing is ever written through a link), a link is kept only
// when its real target is inside, a name comes once, and when all is written a last walk checks
// every link again (a link made early can lead out through one made later) and every hard link.
// The folder is a fresh staging folder that only this unpack writes to, so a check holds until
// the write it guards.
import { lstat, mkdir, readdir, readlink, realpath, symlink } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { isWithin, realPathSync } from '../client/files/realPath';
import { ArchiveRefusedError } from './archiveRefusal';

export type EntryKind = 'file' | 'dir' | 'link';

export class ContainedFolder {
  /** Each name placed so far (relative, `/`-separated), and what it was. */
  private readonly names = new Map<string, EntryKind>();
  /** Real folders on the way of some entry: checked once (nothing here is replaced later). */
  private readonly checked = new Set<string>();

  private constructor(
    readonly root: string,
    private readonly realRoot: string,
  ) {}

  static async open(root: string): Promise<ContainedFolder> {
    return new ContainedFolder(resolve(root), await realpath(root));
  }

  /**
   * Where entry `name` goes, checked: inside by name and on disk, its first occurrence, with no
   * symbolic link on the way and, for a file or a link, nothing there yet. Folders on the way
   * that do not exist yet are made.
   */
  async place(name: string, kind: EntryKind): Promise<string> {
    const outside = outsideByName(this.root, name);
    if (outside) throw new ArchiveRefusedError('outside', name, outside);
    const target = insidePath(this.root, name);
    const key = relative(this.root, target).split(sep).join('/');
    if (key === '') {
      if (kind !== 'dir') throw new ArchiveRefusedError('outside', name, 'a file in place of the folder itself');
      return target;
    }
    const before = this.names.get(key);
    if (before && !(before === 'dir' && kind === 'dir')) throw new ArchiveRefusedError('duplicate', name, 'twice');
    this.names.set(key, kind);
    await this.noLinkOnTheWay(target, name, kind);
    await mkdir(kind === 'dir' ? target : dirname(target), { recursive: true });
    // Belt and braces: the folder the entry goes into really is inside.
    if (!isWithin(this.realRoot, realPathSync(dirname(target))))
      throw new ArchiveRefusedError('outside', name, 'its path leads outside');
    return target;
  }

  /** Makes `at` (placed as a link) a symbolic link to `to`, refused when it really leads outside. */
  async link(to: string, at: string, name: string): Promise<void> {
    if (isAbsolute(to) || /^[a-zA-Z]:/.test(to) || to.includes('\\'))
      throw new ArchiveRefusedError('outside', name, `a link to the absolute path ${to}`);
    // Not joined (join would normalize): `x/..` must be resolved the way the file system will.
    if (!isWithin(this.realRoot, realPathSync(dirname(at) + sep + to)))
      throw new ArchiveRefusedError('outside', name, `a link to ${to}, which leads outside`);
    await symlink(to, at);
  }

  /**
   * The last walk, once everything is written: every symbolic link resolves inside, and a file
   * with more than one name has all of them inside (a hard link to a file elsewhere would let a
   * later chmod, or the agent's updates, change that file).
   */
  async verify(): Promise<void> {
    const inodes = new Map<string, { nlink: number; seen: number; path: string }>();
    const walk = async (dir: string): Promise<void> => {
      for (const e of await readdir(dir, { withFileTypes: true })) {
        const p = join(dir, e.name);
        const shown = relative(this.root, p);
        if (e.isSymbolicLink()) {
          if (!isWithin(this.realRoot, realPathSync(p)))
            throw new ArchiveRefusedError('outside', shown, `a link to ${await readlink(p)}, which leads outside`);
        } else if (e.isDirectory()) await walk(p);
        else {
          const st = await lstat(p, { bigint: true });
          if (!st.isFile()) throw new ArchiveRefusedError('special', shown, 'a special file: a device, FIFO or socket');
          if (st.nlink < 2n) continue;
          const key = `${st.dev}:${st.ino}`;
          const seen = inodes.get(key) ?? { nlink: Number(st.nlink), seen: 0, path: shown };
          seen.seen++;
          inodes.set(key, seen);
        }
      }
    };
    await walk(this.root);
    for (const { nlink, seen, path } of inodes.values())
      if (seen < nlink) throw new ArchiveRefusedError('outside', path, 'a hard link to a file outside');
  }

  private async noLinkOnTheWay(target: string, name: string, kind: EntryKind): Promise<void> {
    const parts = relative(this.root, target).split(sep);
    let p = this.root;
    for (let i = 0; i < parts.length; i++) {
      p = join(p, parts[i]);
      const last = i === parts.length - 1;
      if (!last && this.checked.has(p)) continue;
      const st = await lstat(p).catch(() => undefined);
      if (!st) return; // nothing further exists: the folders are made by place(), as folders
      if (st.isSymbolicLink()) throw new ArchiveRefusedError('outside', name, 'it is written through a symbolic link');
      if (last) {
        if (kind !== 'dir' || !st.isDirectory()) throw new ArchiveRefusedError('duplicate', name, 'twice');
      } else if (!st.isDirectory()) throw new ArchiveRefusedError('duplicate', name, 'under a file');
      else this.checked.add(p);
    }
  }
}

/** `name` resolved under `dest`; throws when it is absolute or climbs out (by name). */
export function insidePath(dest: string, name: string): string {
  const outside = outsideByName(dest, name);
  if (outside) throw new Error(`${name} is outside its folder: ${outside}`);
  return resolve(dest, name.replace(/\\/g, '/'));
}

/** Why `name` is outside `dest` by its text alone (absolute, or climbing out); undefined when inside. */
function outsideByName(dest: string, name: string): string | undefined {
  const normalized = name.replace(/\\/g, '/');
  if (isAbsolute(normalized) || /^[a-zA-Z]:/.test(normalized)) return 'an absolute path';
  if (!isWithin(resolve(dest), resolve(dest, normalized))) return 'its path climbs out with ".."';
  return undefined;
}
