// The words of "bring the work back": the discard question, the lists of file names in the
// warnings, the review's title. No vscode import, so test/unit/ checks them in plain Node.
import type { ApplyMode, DiscardLosses } from '../../worktrees/worktrees';

export const plural = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** "a.ts, b.ts and c.ts", or the first `max` then "and N more": a message stays readable. */
export function nameList(names: readonly string[], max = 5): string {
  if (names.length === 0) return '';
  const shown = names.slice(0, max);
  const rest = names.length - shown.length;
  if (rest > 0) return `${shown.join(', ')} and ${rest} more`;
  if (shown.length === 1) return shown[0];
  return `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`;
}

/** The multi-diff editor's title (also its tab's label). */
export const reviewTitle = (branch: string, files: number): string => `${branch} — ${plural(files, 'file')} changed`;

export interface ApplyModeChoice {
  mode: ApplyMode;
  label: string;
  /** One line: what the mode does to the user's branch. */
  description: string;
}

export const APPLY_MODES: readonly ApplyModeChoice[] = [
  {
    mode: 'merge',
    label: 'Merge',
    description: "Commits the worktree's uncommitted work on its branch, then merges the branch into yours",
  },
  {
    mode: 'cherry-pick',
    label: 'Cherry-pick',
    description: "Replays the branch's commits onto your branch (uncommitted work stays in the worktree)",
  },
  {
    mode: 'uncommitted',
    label: 'As uncommitted changes',
    description: "Puts the worktree's whole diff in your tree as staged changes, without a commit",
  },
];

export const isApplyMode = (v: unknown): v is ApplyMode => APPLY_MODES.some((m) => m.mode === v);

export const DISCARD_ALL = 'Discard Worktree and Branch';
export const DISCARD_KEEP_BRANCH = 'Discard Worktree, Keep Branch';
export const DISCARD = 'Discard Worktree';

export interface DiscardQuestion {
  message: string;
  detail: string;
  /** The buttons, in order: both choices when something is lost, else one plain confirmation. */
  buttons: string[];
}

/** The modal question before a discard: it names what would be lost, or says that nothing is. */
export function discardQuestion(name: string, branch: string, losses: DiscardLosses): DiscardQuestion {
  const { uncommitted, commits } = losses;
  if (uncommitted.length === 0 && commits.length === 0)
    return {
      message: `Discard the worktree of session "${name}"?`,
      detail: `Nothing is lost: it has no uncommitted changes, and your branch has every commit of ${branch}. The folder and the branch are removed.`,
      buttons: [DISCARD],
    };
  const lost: string[] = [];
  if (uncommitted.length) lost.push(`${plural(uncommitted.length, 'uncommitted file')}: ${nameList(uncommitted)}.`);
  if (commits.length) {
    const subjects = commits.slice(0, 5).map((c) => `  • ${c.subject || c.sha.slice(0, 7)}`);
    if (commits.length > 5) subjects.push(`  • and ${commits.length - 5} more`);
    lost.push(`${plural(commits.length, 'commit')} not in your branch:\n${subjects.join('\n')}`);
  }
  const after: string[] = [];
  if (commits.length) after.push(`"${DISCARD_KEEP_BRANCH}" keeps the commits on ${branch}.`);
  if (uncommitted.length)
    after.push(
      'The uncommitted files are lost either way; to keep them, run "Tandem: Commit Worktree Changes on Its Branch" first and keep the branch.',
    );
  return {
    message: `Discarding the worktree of session "${name}" loses work.`,
    detail: `${lost.join('\n\n')}\n\n${after.join(' ')}`,
    buttons: [DISCARD_ALL, DISCARD_KEEP_BRANCH],
  };
}
