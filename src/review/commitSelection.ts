// What "Commit Kept Changes…" offers and stages: the files the agent changed in a session (kept
// or still pending review; a file whose every change was undone is not offered), which of them
// are chosen at first (all but those that also hold someone else's uncommitted work), and, for a
// choice of whole files or of some hunks of a file, what goes into the index: paths to add whole,
// and a patch of the chosen hunks for each partly committed file (partialPatch.ts). Pure: the
// vscode side reads git and the tracker and hands the facts in.
import { type LineHunk, partialPatch } from './partialPatch';

export type { LineHunk };

/** One tracker entry (client/changes/changeEntries.ts's FileChange, as much of it as counts here). */
export interface TrackedChange {
  readonly path: string;
  readonly turn: number;
  readonly state: 'pending' | 'kept' | 'reverted';
}

/** A file the session changed that still has the agent's work in it. */
export interface SessionFile {
  readonly path: string;
  /** kept: the user kept each of its changes they did not undo; pending: some still wait for review. */
  readonly state: 'kept' | 'pending';
  /** The turn of its first change in the session: that entry's snapshot is the file before the session. */
  readonly firstTurn: number;
}

/** The session's changed files, first changed first; a file whose every change was undone is left out. */
export function sessionFiles(changes: readonly TrackedChange[]): SessionFile[] {
  const byPath = new Map<string, TrackedChange[]>();
  for (const c of changes) byPath.set(c.path, [...(byPath.get(c.path) ?? []), c]);
  const out: SessionFile[] = [];
  for (const [path, all] of byPath) {
    const live = all.filter((c) => c.state !== 'reverted');
    if (!live.length) continue;
    out.push({
      path,
      state: live.some((c) => c.state === 'pending') ? 'pending' : 'kept',
      firstTurn: Math.min(...all.map((c) => c.turn)),
    });
  }
  return out.sort((a, b) => a.firstTurn - b.firstTurn || a.path.localeCompare(b.path));
}

/** A file that can go into the commit, with what the picker shows of it. */
export interface CommitCandidate {
  /** Absolute, as the tracker has it. */
  readonly path: string;
  /** Repository-relative, `/`-separated. */
  readonly rel: string;
  readonly state: 'kept' | 'pending';
  /** It also has uncommitted changes that are not the agent's: it differed from HEAD before the session. */
  readonly otherChanges: boolean;
  /**
   * Its text in the index, as lines, and the hunks from there to the file now: some of them can
   * be committed. Undefined: the file goes whole or not at all (binary, created, deleted, too large to diff).
   */
  readonly split?: { readonly lines: readonly string[]; readonly hunks: readonly LineHunk[] };
}

/** A file to commit: whole, or only hunks `hunks` (indexes into its candidate's `split.hunks`). */
export interface CommitChoice {
  readonly path: string;
  readonly hunks?: readonly number[];
}

/** What the picker selects at first: every file, whole, except those with other uncommitted changes. */
export function initialChoices(candidates: readonly CommitCandidate[]): CommitChoice[] {
  return candidates.filter((c) => !c.otherChanges).map((c) => ({ path: c.path }));
}

/** What goes into the index for a commit. */
export interface StagingPlan {
  /** Repository-relative paths staged as they are now (a deleted one is staged as deleted). */
  readonly whole: readonly string[];
  /** Partly committed files: the patch of their chosen hunks against the index. */
  readonly patches: readonly { readonly rel: string; readonly patch: string }[];
  /** Every committed file, for the record: its path, and "2 of 3 changes" when partly. */
  readonly files: readonly string[];
}

/**
 * The staging for `choices`: a file chosen with every hunk goes whole, with none not at all.
 * Throws for a path that is not a candidate, or hunks of a file that can only go whole.
 */
export function stagingPlan(candidates: readonly CommitCandidate[], choices: readonly CommitChoice[]): StagingPlan {
  const whole: string[] = [];
  const patches: { rel: string; patch: string }[] = [];
  const files: string[] = [];
  const seen = new Set<string>();
  for (const choice of choices) {
    const c = candidates.find((x) => x.path === choice.path);
    if (!c) throw new Error(`${choice.path} is not one of the session's changed files.`);
    if (seen.has(c.path)) continue;
    seen.add(c.path);
    const chosen = choice.hunks === undefined ? undefined : [...new Set(choice.hunks)];
    if (chosen === undefined || (c.split && chosen.length === c.split.hunks.length)) {
      whole.push(c.rel);
      files.push(c.rel);
      continue;
    }
    if (!c.split) throw new RangeError(`${c.rel} can only be committed whole.`);
    if (!chosen.length) continue;
    patches.push({ rel: c.rel, patch: partialPatch(c.rel, c.split.lines, c.split.hunks, chosen) });
    files.push(`${c.rel} (${chosen.length} of ${c.split.hunks.length} changes)`);
  }
  return { whole, patches, files };
}

/** How the hunk picker shows a hunk: where it is, its size, and its first changed lines. */
export function describeHunk(h: LineHunk): { label: string; description: string; detail: string } {
  const n = h.newLines.length;
  const first = h.newStart + 1;
  const label =
    n === 0 ? `Removed before line ${first}` : n === 1 ? `Line ${first}` : `Lines ${first}–${first + n - 1}`;
  const shown =
    h.oldLines.length && n
      ? [`− ${clipLine(h.oldLines[0])}`, `+ ${clipLine(h.newLines[0])}`]
      : n
        ? h.newLines.slice(0, 2).map((l) => `+ ${clipLine(l)}`)
        : h.oldLines.slice(0, 2).map((l) => `− ${clipLine(l)}`);
  return { label, description: `+${n} −${h.oldLines.length}`, detail: shown.join('   ') };
}

/** A line as one short piece of text: its terminator and surrounding blanks gone, at most `max` characters. */
function clipLine(line: string, max = 60): string {
  const t = line.replace(/\r?\n$/, '').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t || '(blank line)';
}
