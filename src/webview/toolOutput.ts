// Which text of a tool call is shown as it is and which as Markdown. What a command printed, a
// file read, a search's hits or a fetched page are the program's bytes: Markdown would join their
// lines, eat `*` and `_` and turn `# …` into a heading, so the user would read something else than
// what the tool returned. Only the kinds whose text a model writes (a subagent's report, a plan:
// think, other, switch_mode) may be prose, and they are shown as Markdown only when they read
// like prose; anything that looks like program output stays literal there too.

/** Kinds whose text may be a model's prose (claude's Task report is `think`, ExitPlanMode's plan `switch_mode`). */
const PROSE_KINDS: ReadonlySet<string> = new Set(['think', 'other', 'switch_mode']);

/** How much of a long text the prose test reads (the start says enough, and stays cheap). */
const SAMPLE_CHARS = 4000;

/** Whether a text block of a call of this kind is shown literally (monospace, lines kept) rather than as Markdown. */
export function showsLiterally(kind: string, text: string): boolean {
  return !PROSE_KINDS.has(kind) || !looksLikeProse(text);
}

/**
 * Sentences rather than program output: lines of several words, mostly letters and spaces, no
 * terminal escapes or tabs, not JSON. A line of output (`tandem-42`, `src/a.ts:3: x`, `total 8`)
 * has one or two words; a model's paragraph has a dozen.
 */
export function looksLikeProse(text: string): boolean {
  const s = text.slice(0, SAMPLE_CHARS);
  if (/\x1b\[|\t/.test(s)) return false;
  const trimmed = s.trim();
  if (/^[[{]/.test(trimmed) && /[\]}]$/.test(trimmed)) return false;
  const lines = s.split('\n').filter((l) => l.trim());
  if (!lines.length) return false;
  const words = s.match(/\p{L}{2,}/gu)?.length ?? 0;
  const wordy = s.match(/[\p{L}\s]/gu)?.length ?? 0;
  return words / lines.length >= 5 && wordy / s.length >= 0.7;
}
