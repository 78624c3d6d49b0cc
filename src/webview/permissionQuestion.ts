// What a permission prompt asks, in words: "Run `npm test`", "Edit `src/a.ts`", "Call
// `IDE · OpenFile`", from the request's tool call and the row the session already has for it
// (claude-code-acp's requests carry only a title and the raw input; the row has the kind).
import type { PermissionRequestView, ToolCallView } from '../shared/sessionModel';
import { commandLineOf } from '../shared/commandLine';
import { niceTitle, relativePath } from './toolTitle';

export interface PromptQuestion {
  verb: string;
  /** Shown as code; empty when the verb says it all. */
  subject: string;
  /** The full command line when `subject` had to shorten it (the prompt shows it in full). */
  command?: string;
}

type Diff = { type: 'diff'; path: string; oldText?: string | null; newText: string };
const MAX = 60;

/** The call as far as the request and the row know it (the request's fields win). */
export function askedCall(t: PermissionRequestView['toolCall'], row?: ToolCallView): ToolCallView {
  return {
    turn: 0,
    startedAt: 0,
    status: 'pending',
    ...row,
    toolCallId: t.toolCallId,
    title: t.title ?? row?.title ?? '',
    kind: t.kind ?? row?.kind ?? 'other',
    content: t.content ?? row?.content ?? [],
    locations: t.locations ?? row?.locations ?? [],
    rawInput: t.rawInput ?? row?.rawInput,
    meta: { ...(t._meta ?? {}), ...row?.meta },
  };
}

/** The command line a call runs, if it runs one: the whole line, as the host's rules see it. */
export function commandOf(c: ToolCallView): string | undefined {
  return commandLineOf(c);
}

export function diffsOf(c: { content?: readonly { type: string }[] | null }): Diff[] {
  return (c.content ?? []).filter((x): x is Diff => x.type === 'diff');
}

const cut = (s: string) => {
  const line = s.split('\n')[0];
  return line.length > MAX || line !== s ? `${line.slice(0, MAX - 1)}…` : s;
};

/** `roots`: the workspace folders, paths are shown relative to them. */
export function promptQuestion(c: ToolCallView, roots: readonly string[]): PromptQuestion {
  const t = niceTitle(c, roots);
  // Tandem's client tools ("IDE · OpenFile src/a.ts:3"): the call, then what it is about.
  if (t.verb.includes(' ·')) return { verb: 'Call', subject: t.subject ? `${t.verb} ${t.subject}` : t.verb };
  const command = commandOf(c);
  if (command) {
    const subject = cut(command);
    return subject === command ? { verb: 'Run', subject } : { verb: 'Run', subject, command };
  }
  const diffs = diffsOf(c);
  const raw = (c.rawInput && typeof c.rawInput === 'object' ? c.rawInput : {}) as Record<string, unknown>;
  const paths = [
    ...new Set([
      ...diffs.map((d) => d.path),
      ...c.locations.map((l) => l.path),
      ...[raw.file_path, raw.path].filter((p): p is string => typeof p === 'string'),
    ]),
  ];
  const files = paths.length
    ? relativePath(paths[0], roots) + (paths.length > 1 ? ` and ${paths.length - 1} more` : '')
    : '';
  const created = diffs.length > 0 && diffs.every((d) => !d.oldText);
  const verb = { edit: created ? 'Create' : 'Edit', delete: 'Delete', move: 'Move', read: 'Read' }[c.kind as string];
  if (verb && files) return { verb, subject: files };
  if (t.verb && t.subject) return { verb: t.verb, subject: t.subject };
  // A title that is a whole question ("Ready to code", ExitPlanMode) asks itself, not "Allow ?".
  if (t.verb) return { verb: t.verb, subject: '' };
  return { verb: 'Allow', subject: t.subject };
}
