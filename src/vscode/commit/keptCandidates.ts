// The facts "Commit Kept Changes…" offers a choice from: the session's changed files (tracker
// entries, reverted ones left out: commitSelection.ts), the repository each is in (a worktree
// session's is its worktree), and for each file what git knows of it: whether it differs from the
// index at all (a file already committed or staged as it is has nothing to commit), whether it
// also has someone else's uncommitted work (it differed from HEAD before the agent's first change
// in the session), and its hunks from the index to the file now (the one line diff, as the
// editor's Keep | Undo lenses count them). No vscode here: tested against real repositories.
import { readFile } from 'node:fs/promises';
import { isAbsolute, relative, sep } from 'node:path';
import { decodeExact } from '../../checkpoints/hunks';
import { beforeIfKnown } from '../../client/changes/changeEntries';
import type { ChangeTracker } from '../../client/changes/changeTracker';
import { type CommitCandidate, type SessionFile, sessionFiles } from '../../review/commitSelection';
import { lineDiff, splitLines } from '../../shared/lineDiff';
import { blobHasher, blobIds, blobText, repositoryTop } from './commitIndex';

/** The session's files that still carry the agent's work, by the top folder of their repository. */
export async function filesByRepository(
  tracker: Pick<ChangeTracker, 'allTurns'>,
  sessionId: string,
  worktree?: string,
): Promise<{ byTop: Map<string, SessionFile[]>; outside: string[] }> {
  const files = sessionFiles(tracker.allTurns(sessionId).flatMap((t) => t.files));
  const byTop = new Map<string, SessionFile[]>();
  const outside: string[] = [];
  const tops = new Map<string, Promise<string | undefined>>();
  for (const f of files) {
    const top = worktree && inside(f.path, worktree) ? worktree : await topOf(tops, f.path);
    if (top === undefined || (worktree !== undefined && top !== worktree)) outside.push(f.path);
    else byTop.set(top, [...(byTop.get(top) ?? []), f]);
  }
  return { byTop, outside };
}

function topOf(cache: Map<string, Promise<string | undefined>>, path: string): Promise<string | undefined> {
  const dir = path.slice(0, path.lastIndexOf(sep));
  let top = cache.get(dir);
  if (!top) cache.set(dir, (top = repositoryTop(path)));
  return top;
}

/**
 * What can be committed of `files` in the repository at `top`; a file with nothing to commit (the
 * index has it as it is now) is left out. `tracker` gives each file's state before the session.
 */
export async function commitCandidates(
  top: string,
  files: readonly SessionFile[],
  tracker: Pick<ChangeTracker, 'allTurns'>,
  sessionId: string,
): Promise<CommitCandidate[]> {
  const rels = files.map((f) => relativeTo(top, f.path));
  const ids = await blobIds(top, rels);
  const hash = await blobHasher(top);
  const entries = tracker.allTurns(sessionId).flatMap((t) => t.files);
  const out: CommitCandidate[] = [];
  for (const [i, f] of files.entries()) {
    const rel = rels[i];
    const { head, index } = ids.get(rel)!;
    const now = await readFile(f.path).catch(() => null);
    if ((now === null ? null : hash(now)) === index) continue;
    const first = entries.find((c) => c.path === f.path && c.turn === f.firstTurn);
    const before = first && beforeIfKnown(first);
    const otherChanges = before !== undefined && (before === null ? null : hash(before)) !== head;
    const split = index !== null && now !== null ? await splitOf(top, index, now, hash) : undefined;
    out.push({ path: f.path, rel, state: f.state, otherChanges, ...(split ? { split } : {}) });
  }
  return out;
}

/** The index's text of a file as lines and its hunks to the file now; undefined: binary, or past the diff's bound. */
async function splitOf(
  top: string,
  index: string,
  now: Uint8Array,
  hash: (bytes: Uint8Array) => string,
): Promise<CommitCandidate['split']> {
  const nowText = decodeExact(now);
  const base = nowText === undefined ? undefined : await blobText(top, index, hash);
  if (base === undefined || nowText === undefined) return undefined;
  const d = lineDiff(base, nowText);
  return d.tooLarge ? undefined : { lines: splitLines(base), hunks: d.hunks };
}

/** `path` relative to `top`, `/`-separated, as git names it. */
export function relativeTo(top: string, path: string): string {
  return relative(top, path).split(sep).join('/');
}

function inside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return !!rel && !rel.startsWith('..') && !isAbsolute(rel);
}
