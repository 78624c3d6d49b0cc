// The user's review comments on the agent's changes, per session: each on a range of lines of a
// file the agent changed, with the user's notes (the first comment and its replies). "Send
// Feedback" turns a session's pending comments into one prompt and marks them sent; after each of
// the session's turns they are looked at again (lineAnchor.ts): lines the agent changed make a
// comment outdated, with the text that stands there now. The session active when a comment was
// made owns it. Written to storage on every change (workspaceState in VS Code), so the comments
// outlive a window reload. Pure: the vscode side shows them as comment threads and reads files.
import { Emitter } from '../common/event';
import type { LineAnchor, Located } from './lineAnchor';

/** pending: not sent yet; sent: in a prompt, its lines as sent; outdated: its lines changed since. */
export type FeedbackStatus = 'pending' | 'sent' | 'outdated';

export interface FeedbackNote {
  readonly id: string;
  readonly body: string;
  /** Epoch ms. */
  readonly at: number;
}

export interface FeedbackComment {
  readonly id: string;
  /** The session that was active when the comment was made: its prompt gets the comment. */
  readonly sessionId: string;
  /** The file's path (absolute, in the change tracker's canonical form). */
  readonly path: string;
  /** The lines as the comment quotes them, and where they were. */
  readonly anchor: LineAnchor;
  /** The first note is the comment, the rest its replies; never empty. */
  readonly notes: readonly FeedbackNote[];
  readonly status: FeedbackStatus;
  /** When outdated: what the agent made of the lines (lineAnchor.ts's `locate`). */
  readonly now?: Exclude<Located, { kind: 'same' }>;
}

/** Where the comments are kept between windows. */
export interface FeedbackStorage {
  get(): unknown;
  set(value: readonly FeedbackComment[]): unknown;
}

export class FeedbackComments {
  private comments: FeedbackComment[];
  private readonly changed = new Emitter<void>();
  /** Any comment was added, changed or removed. */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly storage: FeedbackStorage,
    private readonly newId: () => string,
    private readonly clock: () => number = Date.now,
  ) {
    this.comments = readStored(storage.get());
  }

  all(): readonly FeedbackComment[] {
    return this.comments;
  }

  get(id: string): FeedbackComment | undefined {
    return this.comments.find((c) => c.id === id);
  }

  /** A session's comments, in the order they were made. */
  ofSession(sessionId: string): FeedbackComment[] {
    return this.comments.filter((c) => c.sessionId === sessionId);
  }

  /** A session's comments not sent yet, by file and line (the order the prompt lists them in). */
  pending(sessionId: string): FeedbackComment[] {
    return this.ofSession(sessionId)
      .filter((c) => c.status === 'pending')
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.anchor.start - b.anchor.start));
  }

  /** Sessions with comments not sent yet, and how many each has. */
  pendingBySession(): Map<string, number> {
    const out = new Map<string, number>();
    for (const c of this.comments) if (c.status === 'pending') out.set(c.sessionId, (out.get(c.sessionId) ?? 0) + 1);
    return out;
  }

  add(d: { sessionId: string; path: string; anchor: LineAnchor; body: string }): FeedbackComment {
    const comment: FeedbackComment = {
      id: this.newId(),
      sessionId: d.sessionId,
      path: d.path,
      anchor: d.anchor,
      notes: [this.note(d.body)],
      status: 'pending',
    };
    this.comments = [...this.comments, comment];
    this.save();
    return comment;
  }

  /**
   * A reply: more to tell the agent, so a sent or outdated comment is pending again, quoting its
   * lines as they read now (`anchor`, given by the caller that read the file).
   */
  reply(id: string, body: string, anchor?: LineAnchor): FeedbackComment | undefined {
    return this.update(id, (c) => ({
      ...c,
      notes: [...c.notes, this.note(body)],
      ...(c.status === 'pending' ? {} : { status: 'pending', anchor: anchor ?? c.anchor, now: undefined }),
    }));
  }

  /** Removes one note; the comment goes with its last one. Returns the comment left, if any. */
  deleteNote(id: string, noteId: string): FeedbackComment | undefined {
    const c = this.get(id);
    if (!c) return undefined;
    const notes = c.notes.filter((n) => n.id !== noteId);
    if (!notes.length) {
      this.remove(id);
      return undefined;
    }
    return this.update(id, () => ({ ...c, notes }));
  }

  /** Resolved (or deleted): the comment is done with and forgotten. */
  remove(id: string): void {
    const before = this.comments.length;
    this.comments = this.comments.filter((c) => c.id !== id);
    if (this.comments.length !== before) this.save();
  }

  /** The comments went out in a prompt, quoting their lines as `anchors` (by id) say. */
  markSent(anchors: ReadonlyMap<string, LineAnchor>): void {
    this.updateAll((c) => {
      const anchor = anchors.get(c.id);
      return anchor ? { ...c, anchor, status: 'sent', now: undefined } : c;
    });
  }

  /** Sending failed: the comments are pending again. */
  markPending(ids: readonly string[]): void {
    this.updateAll((c) => (ids.includes(c.id) ? { ...c, status: 'pending', now: undefined } : c));
  }

  /** "Re-send": pending again, quoting the lines as they read now. */
  resend(id: string, anchor: LineAnchor): FeedbackComment | undefined {
    return this.update(id, (c) => ({ ...c, anchor, status: 'pending', now: undefined }));
  }

  /**
   * After a turn: where the comment's lines are now (`locate`). Moved lines move the comment; lines
   * that read otherwise, or are gone, make it outdated (an outdated comment stays so until resent).
   */
  relocate(id: string, where: Located): FeedbackComment | undefined {
    return this.update(id, (c) => {
      if (c.status === 'outdated') return c;
      if (where.kind === 'same')
        return where.start === c.anchor.start ? c : { ...c, anchor: { ...c.anchor, start: where.start } };
      return { ...c, status: 'outdated', now: where };
    });
  }

  dispose(): void {
    this.changed.dispose();
  }

  private note(body: string): FeedbackNote {
    return { id: this.newId(), body, at: this.clock() };
  }

  private update(id: string, f: (c: FeedbackComment) => FeedbackComment): FeedbackComment | undefined {
    let out: FeedbackComment | undefined;
    this.updateAll((c) => (c.id === id ? (out = f(c)) : c));
    return out;
  }

  private updateAll(f: (c: FeedbackComment) => FeedbackComment): void {
    let changed = false;
    const next = this.comments.map((c) => {
      const n = f(c);
      if (n !== c) changed = true;
      return n;
    });
    if (!changed) return;
    this.comments = next;
    this.save();
  }

  private save(): void {
    // `now: undefined` is dropped by the JSON the storage keeps; written out so reads match.
    this.storage.set(this.comments.map(({ now, ...c }) => (now ? { ...c, now } : c)));
    this.changed.fire();
  }
}

/** The comments kept in storage; anything malformed (an older or damaged shape) is dropped. */
function readStored(raw: unknown): FeedbackComment[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter(isComment).map(({ now, ...c }) => (isLocated(now) ? { ...c, now } : c));
}

const KINDS: readonly string[] = ['changed', 'deleted', 'fileGone'];

function isLocated(l: unknown): l is FeedbackComment['now'] {
  const x = l as { kind?: unknown; start?: unknown; lines?: unknown } | undefined;
  if (!x || !KINDS.includes(x.kind as string)) return false;
  if (x.kind === 'fileGone') return true;
  if (!Number.isInteger(x.start)) return false;
  return x.kind === 'deleted' || (Array.isArray(x.lines) && x.lines.every((s) => typeof s === 'string'));
}

const STATUSES: readonly string[] = ['pending', 'sent', 'outdated'];

function isComment(x: unknown): x is FeedbackComment {
  const c = x as Partial<FeedbackComment> | null;
  return (
    !!c &&
    typeof c.id === 'string' &&
    typeof c.sessionId === 'string' &&
    typeof c.path === 'string' &&
    STATUSES.includes(c.status as string) &&
    isAnchor(c.anchor) &&
    Array.isArray(c.notes) &&
    c.notes.length > 0 &&
    c.notes.every((n) => !!n && typeof n.id === 'string' && typeof n.body === 'string' && typeof n.at === 'number')
  );
}

function isAnchor(a: unknown): a is LineAnchor {
  const x = a as Partial<LineAnchor> | null;
  const strings = (v: unknown) => Array.isArray(v) && v.every((s) => typeof s === 'string');
  return (
    !!x &&
    Number.isInteger(x.start) &&
    x.start! >= 0 &&
    strings(x.lines) &&
    x.lines!.length > 0 &&
    strings(x.before) &&
    strings(x.after)
  );
}
