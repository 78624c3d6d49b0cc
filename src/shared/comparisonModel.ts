// "Ask Several Agents" (vscode/worktrees/askSeveral.ts): one prompt to 2–4 agents, each in a
// worktree of its own, and a comparison of what each did. This file is what a column shows, from
// the session's state, its worktree's changes and its test run: plain data in, plain data out, so
// the host builds it, comparisonHtml.ts renders it, and test/unit/shared checks both without VS Code.
import type { SessionStatus, TurnView } from './sessionModel';

export const MIN_AGENTS = 2;
export const MAX_AGENTS = 4;
/** A final message longer than this is cut: the column is for comparing, the session has it all. */
export const MAX_MESSAGE_CHARS = 20_000;

/** One comparison as workspaceState keeps it (it outlives a reload; the panel is rebuilt from it). */
export interface ComparisonRecord {
  id: string;
  prompt: string;
  /** In the order the agents were picked: the columns' order. */
  sessions: { sessionId: string; agentName: string }[];
  /** Epoch milliseconds. */
  createdAt: number;
  /** The session whose work "Apply This One" brought back. */
  appliedId?: string;
}

export function isComparisonRecord(v: unknown): v is ComparisonRecord {
  if (!v || typeof v !== 'object') return false;
  const r = v as Partial<ComparisonRecord>;
  return (
    typeof r.id === 'string' &&
    typeof r.prompt === 'string' &&
    typeof r.createdAt === 'number' &&
    (r.appliedId === undefined || typeof r.appliedId === 'string') &&
    Array.isArray(r.sessions) &&
    r.sessions.every(
      (s: unknown) =>
        !!s &&
        typeof (s as { sessionId?: unknown }).sessionId === 'string' &&
        typeof (s as { agentName?: unknown }).agentName === 'string',
    )
  );
}

/** A changed file of the worktree (the shape of worktrees/types.ts ChangedFile, which shared/ cannot import). */
export interface FileChange {
  path: string;
  oldPath?: string;
  status: 'added' | 'modified' | 'deleted' | 'renamed';
  /** Undefined for a binary file. */
  added?: number;
  removed?: number;
}

/** The workspace's test task, run in one worktree. */
export type TestRun =
  | { state: 'notRun' }
  | { state: 'running'; task: string }
  | { state: 'passed' | 'failed'; task: string; exitCode?: number }
  | { state: 'noTask' }
  | { state: 'error'; message: string };

export type ColumnStatus = 'working' | 'done' | 'failed' | 'disconnected' | 'discarded';

/** What the host knows of one session of the comparison. */
export interface ColumnInput {
  sessionId: string;
  agentName: string;
  /** The worktree's branch; undefined once the worktree was discarded. */
  branch?: string;
  /** The session's status while it is open on a running agent. */
  session?: { status: SessionStatus };
  /** Its latest turn: from the open session, else the last one seen (a discarded column still says what it did). */
  lastTurn?: TurnView;
  /** The prompt is on its way: sent, its turn not begun in the store yet. */
  sending?: boolean;
  /** Sending the prompt failed before a turn began. */
  sendError?: string;
  /** Undefined until git was asked. */
  files?: readonly FileChange[];
  filesError?: string;
  tests?: TestRun;
  applied?: boolean;
}

export interface ColumnView {
  sessionId: string;
  agentName: string;
  branch?: string;
  status: ColumnStatus;
  /** Why it failed or is not connected, in words. */
  detail?: string;
  files?: readonly FileChange[];
  filesError?: string;
  /** Lines added and removed in all files (binary files count none). */
  added: number;
  removed: number;
  /** The agent's last message of the latest turn (while it works: what it has said so far). */
  message?: string;
  messageCut: boolean;
  tests: TestRun;
  applied: boolean;
  /** Which buttons act now. */
  can: { show: boolean; review: boolean; runTests: boolean; apply: boolean };
}

export interface ComparisonView {
  id: string;
  prompt: string;
  createdAt: number;
  /** The agent whose work was applied. */
  appliedAgent?: string;
  columns: ColumnView[];
}

/**
 * The text of the turn's last agent message: its text blocks joined. Thoughts, tool calls and
 * the user's prompt are not the answer; an image or a resource block is left out of the text.
 */
export function finalMessage(turn: TurnView | undefined): string | undefined {
  if (!turn) return undefined;
  for (let i = turn.items.length - 1; i >= 0; i--) {
    const item = turn.items[i];
    if (item.kind !== 'agent') continue;
    const text = item.blocks.map((b) => (b.type === 'text' ? b.text : '')).join('');
    if (text.trim()) return text;
  }
  return undefined;
}

function statusOf(i: ColumnInput): { status: ColumnStatus; detail?: string } {
  if (i.branch === undefined) return { status: 'discarded', detail: 'Its worktree was discarded.' };
  const s = i.session;
  if (!s)
    return i.sendError
      ? { status: 'failed', detail: i.sendError }
      : { status: 'disconnected', detail: `The session is not open in ${i.agentName} now.` };
  if (s.status === 'disconnected') return { status: 'disconnected', detail: `${i.agentName} is gone.` };
  if (s.status === 'working') return { status: 'working' };
  const t = i.lastTurn;
  if (!t) {
    if (i.sendError) return { status: 'failed', detail: i.sendError };
    // The prompt is built (attachments, notices) before its turn shows in the store.
    return i.sending ? { status: 'working' } : { status: 'done', detail: 'No prompt reached the session.' };
  }
  if (t.error) return { status: 'failed', detail: t.error };
  if (t.stopReason === 'refusal') return { status: 'failed', detail: `${i.agentName} refused.` };
  if (t.stopReason === 'cancelled') return { status: 'failed', detail: 'The turn was cancelled.' };
  return { status: 'done' };
}

export function columnView(i: ColumnInput): ColumnView {
  const { status, detail } = statusOf(i);
  const full = finalMessage(i.lastTurn);
  const messageCut = !!full && full.length > MAX_MESSAGE_CHARS;
  const tests = i.tests ?? { state: 'notRun' };
  let added = 0;
  let removed = 0;
  for (const f of i.files ?? []) {
    added += f.added ?? 0;
    removed += f.removed ?? 0;
  }
  const hasWorktree = i.branch !== undefined;
  return {
    sessionId: i.sessionId,
    agentName: i.agentName,
    ...(i.branch !== undefined ? { branch: i.branch } : {}),
    status,
    ...(detail ? { detail } : {}),
    ...(i.files ? { files: i.files } : {}),
    ...(i.filesError ? { filesError: i.filesError } : {}),
    added,
    removed,
    ...(full ? { message: messageCut ? full.slice(0, MAX_MESSAGE_CHARS) : full } : {}),
    messageCut,
    tests,
    applied: !!i.applied,
    can: {
      show: !!i.session && status !== 'discarded',
      review: hasWorktree,
      runTests: hasWorktree && tests.state !== 'running',
      // Not while the agent still writes, not when git found nothing to bring back, not twice.
      apply: hasWorktree && status !== 'working' && !i.applied && (i.files === undefined || i.files.length > 0),
    },
  };
}

/** The first words of the prompt, at most `max` characters: a session's name (and its branch's). */
export function shortPrompt(prompt: string, max = 24): string {
  const flat = prompt.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.lastIndexOf(' ', max);
  return (cut > 0 ? flat.slice(0, cut) : flat.slice(0, max)).trim();
}

/** The panel's title: "Compare: " and the prompt, cut with an ellipsis. */
export function comparisonTitle(prompt: string, max = 40): string {
  const flat = prompt.replace(/\s+/g, ' ').trim();
  return `Compare: ${flat.length <= max ? flat : `${shortPrompt(flat, max - 1)}…`}`;
}
