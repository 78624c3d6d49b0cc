// What a permission prompt asks, in words: "Run `npm test`", "Edit `src/a.ts`", "Call
// `IDE · OpenFile`", "Rename `area` to `surface`: 7 edits in 3 files", "Read `/etc/hosts`, outside
// the workspace", from the request's tool call and the row the session already has for it
// (claude-code-acp's requests carry only a title and the raw input; the row has the kind).
import type { PermissionRequestView, ToolCallView } from '../shared/sessionModel';
import { clientCallOfMcpName, clientCallQuestion, type ClientCallFacts } from '../shared/clientToolTitle';
import { commandLineOf } from '../shared/commandLine';
import { niceTitle, relativePath, toolName } from './toolTitle';

export interface PromptQuestion {
  verb: string;
  /** Shown as code; empty when the verb says it all. */
  subject: string;
  /** The full command line when `subject` had to shorten it (the prompt shows it in full). */
  command?: string;
  /** The whole question in the asker's words, `code` spans in backticks (then verb and subject are empty). */
  sentence?: string;
  /** Where the file is, said after the subject: "outside the workspace". */
  where?: string;
  /** The path as the agent named it, when a link leads from it to `subject` (both are shown in full). */
  via?: string;
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
    meta: { ...(t._meta ?? {}), ...row?.meta, ...tandemOf(t._meta, row?.meta) },
  };
}

/** Tandem's facts of a client call: the row's, with those of Tandem's own request over them (its question). */
function tandemOf(asked: Record<string, unknown> | null | undefined, row: Record<string, unknown> | undefined) {
  const mine = asked?.tandem;
  if (!mine || typeof mine !== 'object') return {};
  return { tandem: { ...(row?.tandem && typeof row.tandem === 'object' ? row.tandem : {}), ...mine } };
}

/** The question as one line of plain words (for screen readers). */
export function questionText(q: PromptQuestion): string {
  if (q.sentence) return q.sentence.replace(/`/g, '');
  return `${q.verb} ${q.subject}`.trim() + (q.where ? `, ${q.where}` : '');
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

/**
 * `roots`: the workspace folders, paths are shown relative to them. `own`: Tandem asks (the
 * request's origin is the client): only its own questions are worded from what Tandem put in them.
 */
export function promptQuestion(c: ToolCallView, roots: readonly string[], own = false): PromptQuestion {
  const raw = (c.rawInput && typeof c.rawInput === 'object' ? c.rawInput : {}) as Record<string, unknown>;
  const outside = own ? outsideQuestion(raw) : undefined;
  if (outside) return outside;
  const tandem = c.meta?.tandem as (Partial<ClientCallFacts> & { question?: unknown }) | undefined;
  // A client tool's own question, asked once it knew what the call does (Rename: how many edits).
  if (own && typeof tandem?.question === 'string') return { verb: '', subject: '', sentence: tandem.question };
  const t = niceTitle(c, roots);
  // Tandem's client tools ("IDE · OpenFile src/a.ts:3"): what the call does when its arguments
  // say it (Rename `area` to `surface`), else the call, then what it is about.
  if (t.verb.includes(' ·')) {
    const facts =
      typeof tandem?.group === 'string' && typeof tandem.tool === 'string'
        ? (tandem as ClientCallFacts)
        : clientCallOfMcpName(toolName(c) ?? c.title, c.rawInput);
    const sentence = facts && clientCallQuestion(facts, (p) => relativePath(p, roots));
    if (sentence) return { verb: '', subject: '', sentence };
    return { verb: 'Call', subject: t.subject ? `${t.verb} ${t.subject}` : t.verb };
  }
  const command = commandOf(c);
  if (command) {
    const subject = cut(command);
    return subject === command ? { verb: 'Run', subject } : { verb: 'Run', subject, command };
  }
  const diffs = diffsOf(c);
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

/**
 * Tandem's own question about a file outside the workspace (FileAccess: the agent's fs requests,
 * the Code tools): it says so, and names the file in full — and the path the agent gave, when a
 * link leads from it there.
 */
function outsideQuestion(raw: Record<string, unknown>): PromptQuestion | undefined {
  const { path, resolvedPath, access } = raw;
  if (typeof resolvedPath !== 'string' || typeof path !== 'string' || (access !== 'read' && access !== 'write'))
    return undefined;
  return {
    verb: access === 'read' ? 'Read' : 'Write',
    subject: resolvedPath,
    where: raw.outside === 'worktree' ? "outside this session's worktree" : 'outside the workspace',
    ...(path !== resolvedPath ? { via: path } : {}),
  };
}
