// An archive Tandem will not unpack, and why, in words. node-tar and yauzl refuse a hostile entry
// with their own codes ("TAR_ENTRY_INFO: stripping / from absolute linkpath", "invalid relative
// path: ../x"), which read like a crash; the user is told that the archive was refused because it
// tried to write outside its folder, and which entry did.

export type RefusalKind = 'outside' | 'special' | 'duplicate' | 'limit';

/** Long or hostile names are cut (the message is shown as plain text anyway). */
const MAX_NAME = 200;

export class ArchiveRefusedError extends Error {
  constructor(
    readonly kind: RefusalKind,
    /** The entry's name as the archive gives it (undefined for the limits). */
    readonly entry: string | undefined,
    /** What is wrong with it, in words. */
    readonly why: string,
  ) {
    super(refusalText(kind, entry, why));
    this.name = 'ArchiveRefusedError';
  }
}

function refusalText(kind: RefusalKind, entry: string | undefined, why: string): string {
  const name = entry === undefined ? '' : `"${entry.length > MAX_NAME ? `${entry.slice(0, MAX_NAME)}…` : entry}"`;
  switch (kind) {
    case 'outside':
      return `the archive was refused because it tried to write outside its folder (entry ${name}: ${why})`;
    case 'special':
      return `the archive was refused because it holds something other than files, folders and links (entry ${name}: ${why})`;
    case 'duplicate':
      return `the archive was refused because it holds the entry ${name} ${why}`;
    case 'limit':
      return `the archive was refused because ${why}`;
  }
}

interface TarError {
  name?: string;
  message: string;
  tarCode?: string;
  code?: string;
  /** node-tar's entry (its path may already have its root stripped). */
  entry?: { path?: string; type?: string; linkpath?: string };
  /** The original path or link target of the refused field. */
  path?: string;
  linkpath?: string;
}

/** node-tar's refusal of an entry (strict mode makes each a failure) in words; undefined for other errors. */
export function tarRefusal(err: unknown): ArchiveRefusedError | undefined {
  if (!(err instanceof Error)) return undefined;
  const e = err as Error & TarError;
  const entryName = e.entry?.path;
  const isLink = e.entry?.type === 'SymbolicLink' || e.entry?.type === 'Link';
  const link = e.entry?.type === 'Link' ? 'a hard link' : 'a link';
  if (e.name === 'SymlinkError' || e.code === 'TAR_SYMLINK_ERROR')
    return new ArchiveRefusedError('outside', entryName, 'it is written through a symbolic link');
  if (!e.tarCode) return undefined;
  const absolute = /stripping .* from absolute (path|linkpath)/.exec(e.message);
  if (absolute?.[1] === 'path') return new ArchiveRefusedError('outside', e.path ?? entryName, 'an absolute path');
  if (absolute?.[1] === 'linkpath')
    return new ArchiveRefusedError('outside', entryName, `${link} to the absolute path ${e.linkpath ?? ''}`.trim());
  if (/path contains '\.\.'/.test(e.message) && !/linkpath/.test(e.message))
    return new ArchiveRefusedError('outside', e.path ?? entryName, 'its path climbs out with ".."');
  if (/linkpath (contains '\.\.'|escapes)/.test(e.message) || (isLink && /escape/.test(e.message)))
    return new ArchiveRefusedError('outside', entryName, `${link} to ${e.linkpath ?? 'a path'}, which leads outside`);
  if (/path escaped extraction target/.test(e.message))
    return new ArchiveRefusedError('outside', e.path ?? entryName, 'its path leads outside');
  return undefined;
}

/** yauzl's refusal of an entry name in words; undefined for other errors. */
export function zipRefusal(err: unknown): ArchiveRefusedError | undefined {
  if (!(err instanceof Error)) return undefined;
  const m = /^(absolute path|invalid relative path|invalid characters in fileName): (.*)$/s.exec(err.message);
  if (!m) return undefined;
  const why =
    m[1] === 'absolute path'
      ? 'an absolute path'
      : m[1] === 'invalid relative path'
        ? 'its path climbs out with ".."'
        : 'a name with backslashes, which could climb out on Windows';
  return new ArchiveRefusedError('outside', m[2], why);
}
