// The message "Commit Kept Changes…" proposes: what the user asked for (session/commitMessage.ts:
// the first prompt is the subject, later ones are bullets) and, when the session has a summary
// (the agent's answer to "Ask the Agent to Summarize Its Changes", changes/sessionSummaries.ts),
// that summary as the body's last paragraphs: what was done, in the agent's words, wrapped to
// git's width. The prompt that asked for the summary is not one of the user's reasons, so it is
// left out of the bullets. Everything stays editable before the commit. No vscode here.
import { commitMessage, proposeCommitMessage, SUBJECT_MAX, userPrompts } from '../../session/commitMessage';
import type { SessionState } from '../../session/reducer';

export interface KeptMessage {
  subject: string;
  /** Bullets of the later prompts, then the session's summary; '' when there is neither. */
  body: string;
}

export interface KeptMessageSources {
  /** The session's summary, as the agent wrote it. */
  summary?: string;
  /** Prompts that are Tandem's own, not the user's reasons (the summary request). */
  notReasons?: readonly string[];
  /** The subject when the session has no prompt with text. */
  fallback: string;
}

/** The proposal for the session in `state`. */
export function proposeKeptMessage(state: SessionState | undefined, from: KeptMessageSources): KeptMessage {
  const prompts = state ? userPrompts(state).filter((p) => !from.notReasons?.includes(p)) : [];
  const proposal = proposeCommitMessage(prompts);
  const summary = from.summary?.trim() ? wrapParagraphs(from.summary.trim(), SUBJECT_MAX) : '';
  const body = [proposal?.body ?? '', summary].filter(Boolean).join('\n\n');
  return { subject: proposal?.subject ?? from.fallback, body };
}

/** The whole message: the subject, a blank line, the body. */
export function fullMessage(m: KeptMessage): string {
  return commitMessage(m.subject, m.body);
}

/**
 * `text` with each paragraph's lines rejoined and wrapped to `width`; a paragraph that is a list
 * (its lines start with "-", "*", "+" or "1.") keeps its lines, each wrapped under its marker.
 */
export function wrapParagraphs(text: string, width: number): string {
  const LIST = /^\s*([-*+]|\d+[.)])\s+/;
  return text
    .split(/\n\s*\n/)
    .map((p) => {
      const lines = p.split('\n').map((l) => l.trimEnd());
      if (!lines.some((l) => LIST.test(l))) return wrap(lines.join(' '), width);
      return lines
        .map((l) => {
          const marker = LIST.exec(l)?.[0] ?? '';
          return wrap(l.slice(marker.length), width - marker.length)
            .split('\n')
            .map((w, i) => (i === 0 ? marker : ' '.repeat(marker.length)) + w)
            .join('\n');
        })
        .join('\n');
    })
    .join('\n\n');
}

/** `text` in lines of at most `width` characters, broken between words (a longer word stands alone). */
export function wrap(text: string, width: number): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.join('\n');
}
