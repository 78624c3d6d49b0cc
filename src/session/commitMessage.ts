// The commit message "Commit Worktree Changes on Its Branch" proposes: what the user asked the
// agent for is why the work exists, which is what a commit message should say. The first prompt
// is the subject; the later ones (follow-ups, steering) are bullet lines of the body.
import type { ContentBlock } from '../shared/sessionModel';
import type { SessionState } from './reducer';

/** git's convention: a subject that fits `git log --oneline` and a mail subject line. */
export const SUBJECT_MAX = 72;
/** A body line, "- " included, within the same width. */
const BULLET_MAX = SUBJECT_MAX - 2;

export interface CommitProposal {
  subject: string;
  /** "- …" lines, one per later prompt; '' when there was only one. */
  body: string;
}

/**
 * What the user said in the session, in order: each turn's prompt and any message steered into a
 * running turn. Only the text counts (an attached file or selection is not a reason); prompts with
 * no text are left out.
 */
export function userPrompts(state: SessionState): string[] {
  const out: string[] = [];
  state.turns.forEach((turn) =>
    turn.items.forEach((item) => {
      if (item.kind !== 'user') return;
      const text = textOf(item.blocks).trim();
      if (text) out.push(text);
    }),
  );
  return out;
}

/** The proposal for `prompts` (userPrompts()), or undefined when there is no prompt to go by. */
export function proposeCommitMessage(prompts: readonly string[]): CommitProposal | undefined {
  const lines = prompts.map(firstLine).filter(Boolean);
  if (lines.length === 0) return undefined;
  const subject = clip(lines[0], SUBJECT_MAX);
  // The same follow-up twice ("continue", "go on") says nothing new the second time.
  const seen = new Set<string>([subject]);
  const bullets: string[] = [];
  for (const line of lines.slice(1)) {
    const bullet = clip(line, BULLET_MAX);
    if (seen.has(bullet)) continue;
    seen.add(bullet);
    bullets.push(`- ${bullet}`);
  }
  return { subject, body: bullets.join('\n') };
}

/** The message git gets: the subject, a blank line, the body (when there is one). */
export function commitMessage(subject: string, body: string): string {
  const s = subject.trim();
  return body.trim() ? `${s}\n\n${body.trim()}` : s;
}

/** The first line with text, its runs of whitespace made single spaces. */
function firstLine(text: string): string {
  for (const line of text.split(/\r?\n/)) {
    const l = line.replace(/\s+/g, ' ').trim();
    if (l) return l;
  }
  return '';
}

/** `s` within `max` characters: cut at a word when one ends in the second half, marked with "…". */
export function clip(s: string, max: number): string {
  if (s.length <= max) return s;
  const cut = s.slice(0, max - 1);
  if (s[max - 1] === ' ') return `${cut.trimEnd()}…`; // the cut falls where a word ends
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

function textOf(blocks: readonly ContentBlock[]): string {
  return blocks.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
}
