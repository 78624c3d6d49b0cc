// Facts about the user's repository that every operation checks first (is it a repository, has it
// a commit, which paths has the user changed), and the naming of branches and folders.
import { copyFileSync, existsSync, lstatSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { git, gitResult, splitNul } from './git';

export type WorktreeErrorCode =
  'notGitRepository' | 'noCommits' | 'userChanges' | 'branchMissing' | 'setupFailed' | 'nothingToAbort';

/** A refusal or failure the caller shows as is (the message says what and what to do). */
export class WorktreeError extends Error {
  override readonly name = 'WorktreeError';
  constructor(
    readonly code: WorktreeErrorCode,
    message: string,
    /** For 'userChanges': the user's files in the way. */
    readonly paths: string[] = [],
  ) {
    super(message);
  }
}

export const BRANCH_PREFIX = 'tandem/';
const MAX_SLUG = 40;

/** The top folder of the working tree `dir` is in; refuses a folder outside any repository. */
export async function requireRepo(dir: string): Promise<string> {
  const r = await gitResult(['rev-parse', '--show-toplevel'], { cwd: dir }).catch((err: Error) => {
    throw new WorktreeError('notGitRepository', `${dir} is not a git repository: ${err.message}`);
  });
  if (r.exitCode !== 0)
    throw new WorktreeError('notGitRepository', `${dir} is not a git repository (${r.stderr.trim()}).`);
  return r.stdout.trim();
}

/** The commit HEAD points at; refuses a repository with no commit yet (nothing to branch from). */
export async function requireHead(top: string): Promise<string> {
  const r = await gitResult(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], { cwd: top });
  if (r.exitCode !== 0 || !r.stdout.trim())
    throw new WorktreeError('noCommits', `${top} has no commit yet: make a first commit, then start the session.`);
  return r.stdout.trim();
}

/** A branch- and folder-safe name: lowercase a-z, 0-9 and '-', at most 40 characters, never empty. */
export function slugify(name: string): string {
  const ascii = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '') // "Ünïcode" → "unicode" rather than "n-code"
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return ascii.slice(0, MAX_SLUG).replace(/-+$/, '') || 'session';
}

/** `slug`, `slug-2`, `slug-3`, … still within 40 characters. */
export function withSuffix(slug: string, n: number): string {
  if (n === 1) return slug;
  const suffix = `-${n}`;
  return `${slug.slice(0, MAX_SLUG - suffix.length).replace(/-+$/, '')}${suffix}`;
}

const occupied = (parentDir: string, slug: string): boolean => {
  try {
    lstatSync(join(parentDir, slug)); // a dangling symlink counts too
    return true;
  } catch {
    return false;
  }
};

/** The first of slug, slug-2, … with neither a `tandem/<slug>` branch nor a `<parentDir>/<slug>` entry. */
export async function freeSlug(top: string, parentDir: string, slug: string): Promise<string> {
  // Ref names cannot hold a newline, so one per line is safe.
  const out = await git(['for-each-ref', '--format=%(refname)', `refs/heads/${BRANCH_PREFIX}`], { cwd: top });
  const refs = out.split('\n').filter(Boolean);
  const prefix = `refs/heads/${BRANCH_PREFIX}`;
  // A branch "tandem/x/y" blocks "tandem/x" too (a ref cannot be both a file and a folder).
  const taken = (s: string) => refs.some((r) => r === prefix + s || r.startsWith(`${prefix}${s}/`));
  for (let n = 1; ; n++) {
    const candidate = withSuffix(slug, n);
    if (!taken(candidate) && !occupied(parentDir, candidate)) return candidate;
  }
}

/** The first of `<parentDir>/<slug>`, `-2`, … that does not exist (restore keeps the branch, so only the folder may move). */
export function freeFolder(parentDir: string, slug: string): string {
  for (let n = 1; ; n++) if (!occupied(parentDir, withSuffix(slug, n))) return join(parentDir, withSuffix(slug, n));
}

export async function branchExists(top: string, branch: string): Promise<boolean> {
  const r = await gitResult(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`], { cwd: top });
  return r.exitCode === 0;
}

/** Every path `git status` lists (both sides of a rename), untracked files one by one. */
export async function changedPaths(cwd: string): Promise<string[]> {
  const fields = splitNul(await git(['status', '--porcelain=v1', '-z', '--untracked-files=all'], { cwd }));
  const paths: string[] = [];
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i];
    paths.push(f.slice(3));
    // "R  new\0old": the original path of a rename or copy is the next field.
    if (f[0] === 'R' || f[0] === 'C' || f[1] === 'R' || f[1] === 'C') paths.push(fields[++i]);
  }
  return paths;
}

/**
 * The paths of `touched` that the user would lose to an apply: uncommitted changes (staged or
 * not), untracked files, and ignored files in the way (git treats ignored files as expendable and
 * a merge overwrites them without a word).
 */
export async function userPathsInTheWay(top: string, touched: string[]): Promise<string[]> {
  const dirty = new Set(await changedPaths(top));
  const hits = touched.filter((p) => dirty.has(p));
  const onDisk = touched.filter((p) => !dirty.has(p) && existsSync(join(top, p)));
  if (onDisk.length > 0) {
    // check-ignore names only paths that are ignored and not tracked: exactly the ones in the way.
    const r = await gitResult(['check-ignore', '-z', '--stdin'], { cwd: top, input: `${onDisk.join('\0')}\0` });
    if (r.exitCode === 0) hits.push(...splitNul(r.stdout));
  }
  return [...new Set(hits)].sort();
}

/** Paths left with conflict stages in the index after a merge, cherry-pick or 3-way apply. */
export async function unmergedPaths(top: string): Promise<string[]> {
  const out = await git(['diff', '--name-only', '--diff-filter=U', '-z'], { cwd: top });
  return [...new Set(splitNul(out))].sort();
}

/** Absolute path of a file in the repository's git folder (MERGE_HEAD, the worktree's index, …). */
export async function gitPath(cwd: string, name: string): Promise<string> {
  return resolve(cwd, (await git(['rev-parse', '--git-path', name], { cwd })).trim());
}

/**
 * Runs `fn` with the environment of a throwaway copy of the index of the working tree at `cwd`
 * (GIT_INDEX_FILE). Commands that refresh or stage into an index (`git add`, `git stash create`)
 * then write the copy, never the real one. The copy keeps the file stats, so only files that
 * changed are read and hashed.
 */
export async function withIndexCopy<T>(cwd: string, fn: (env: { GIT_INDEX_FILE: string }) => Promise<T>): Promise<T> {
  const index = await gitPath(cwd, 'index');
  const tmp = mkdtempSync(join(tmpdir(), 'tandem-index-'));
  try {
    const copy = join(tmp, 'index');
    try {
      copyFileSync(index, copy);
    } catch {
      /* no index yet: git starts an empty one */
    }
    return await fn({ GIT_INDEX_FILE: copy });
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
