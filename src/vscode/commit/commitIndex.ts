// The git that "Commit Kept Changes…" runs itself, because VS Code's git extension API has no such
// operation: reading a file's blob ids in HEAD and the index (ls-tree, ls-files) and a blob's exact
// text (cat-file: the API's show/buffer run `git show --textconv`, which may not give the stored
// bytes a patch must match), staging a patch into the index (`git apply --cached`: the API's apply
// takes a patch file and applies it to the working tree only), and saving the index to put it back
// when the commit fails. Whole files and the commit itself go through the API (gitExtension.ts).
// No vscode here: it is tested against real repositories in plain Node.
import { createHash } from 'node:crypto';
import { existsSync, realpathSync } from 'node:fs';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { git, gitResult, GitError, splitNul } from '../../worktrees/git';
import { gitPath } from '../../worktrees/repo';

/** A file's blob id in HEAD and in the index (null: not there), by repository-relative path. */
export interface BlobIds {
  readonly head: string | null;
  readonly index: string | null;
}

/**
 * The top folder (its real path, the form the tracker's paths have) of the repository holding
 * `path`, a file that may be gone: asked in the nearest folder that exists. Undefined: none.
 */
export async function repositoryTop(path: string): Promise<string | undefined> {
  let dir = dirname(path);
  while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
  const r = await gitResult(['rev-parse', '--show-toplevel'], { cwd: dir }).catch(() => undefined);
  return r?.exitCode === 0 && r.stdout.trim() ? realpathSync(r.stdout.trim()) : undefined;
}

/** The blob ids of `rels` in HEAD and the index; throws when the index has unmerged entries among them. */
export async function blobIds(top: string, rels: readonly string[]): Promise<Map<string, BlobIds>> {
  const out = new Map<string, BlobIds>(rels.map((r) => [r, { head: null, index: null }]));
  if (!rels.length) return out;
  const head = await gitResult(['ls-tree', '-r', '-z', '--full-tree', 'HEAD', '--', ...rels], { cwd: top });
  // No HEAD yet (a repository with no commit): nothing is in HEAD.
  if (head.exitCode === 0)
    for (const entry of splitNul(head.stdout)) {
      const [meta, rel] = splitAtTab(entry); // "<mode> blob <id>\t<path>"
      const ids = out.get(rel);
      if (ids && meta.split(' ')[1] === 'blob') out.set(rel, { ...ids, head: meta.split(' ')[2] });
    }
  for (const entry of splitNul(await git(['ls-files', '-s', '-z', '--', ...rels.map(literal)], { cwd: top }))) {
    const [meta, rel] = splitAtTab(entry); // "<mode> <id> <stage>\t<path>"
    const [, id, stage] = meta.split(' ');
    const ids = out.get(rel);
    if (!ids) continue;
    if (stage !== '0') throw new Error(`${rel} has unresolved merge conflicts: resolve them before committing.`);
    out.set(rel, { ...ids, index: id });
  }
  return out;
}

/** How the repository at `top` names blobs: SHA-1, or SHA-256 in a repository made with that format. */
export async function blobHasher(top: string): Promise<(bytes: Uint8Array) => string> {
  const r = await gitResult(['rev-parse', '--show-object-format'], { cwd: top });
  const algorithm = r.exitCode === 0 && r.stdout.trim() === 'sha256' ? 'sha256' : 'sha1';
  return (bytes) => createHash(algorithm).update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

/** The text of blob `id`, or undefined when its bytes are not UTF-8 text (a binary file goes whole). */
export async function blobText(
  top: string,
  id: string,
  hash: (bytes: Uint8Array) => string,
): Promise<string | undefined> {
  const text = await git(['cat-file', 'blob', id], { cwd: top });
  if (text.includes('\0')) return undefined;
  // The decode lost nothing only if the text hashes back to the same blob.
  return hash(Buffer.from(text, 'utf8')) === id ? text : undefined;
}

/** Stages `patch` (a partialPatch) into the index only; the working tree is not touched. */
export async function applyToIndex(top: string, patch: string): Promise<void> {
  const args = ['apply', '--cached', '--whitespace=nowarn', '-'];
  await whileLocked(async () => {
    const r = await gitResult(args, { cwd: top, input: patch });
    if (r.exitCode !== 0) throw new GitError(`git ${args.join(' ')}`, top, r.exitCode, r.stderr);
  });
}

/** The index as it is now; `restore()` puts it back exactly (the entries and their cached file stats). */
export async function saveIndex(top: string): Promise<{ restore(): Promise<void> }> {
  const index = await gitPath(top, 'index');
  const saved = await readFile(index).catch(() => undefined);
  return {
    async restore() {
      if (saved === undefined) return rm(index, { force: true });
      // git's own protocol: write index.lock (created exclusively, so no git command is writing
      // the index meanwhile), then rename it over the index.
      const lock = `${index}.lock`;
      await whileLocked(() => writeFile(lock, saved, { flag: 'wx' }));
      await rename(lock, index);
    },
  };
}

/**
 * Runs `fn`, again while another git process holds index.lock (the git extension refreshes its
 * status in the background, and a refresh takes the lock for a moment).
 */
async function whileLocked(fn: () => Promise<void>, tries = 20): Promise<void> {
  for (let i = 1; ; i++) {
    try {
      return await fn();
    } catch (err) {
      const locked =
        (err instanceof GitError && err.stderr.includes('index.lock')) ||
        (err as NodeJS.ErrnoException).code === 'EEXIST';
      if (!locked || i >= tries) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

function splitAtTab(entry: string): [string, string] {
  const tab = entry.indexOf('\t');
  return [entry.slice(0, tab), entry.slice(tab + 1)];
}

/** A path as a literal pathspec: `*`, `?` and `[` in a file name are not patterns. */
function literal(rel: string): string {
  return `:(literal)${rel}`;
}
