// Prompts the user sent while a turn was running, per session, in the order they will go out.
// The host owns this state (not the view), so it survives the view being hidden or reloaded, and
// it is written to storage on every change so it survives a window reload too.
//
// When a turn ends normally the first prompt goes out. After a cancel or a failure the queue is
// held: nothing goes out until the user says "Send" (release), because stopping the agent means
// "stop", not "go on with the next thing". A queue read back from storage is held too: the turn it
// waited for ended with the window.
import { Emitter } from '../common/event';
import { parseAttachment } from '../shared/parseContent';
import type { Attachment } from '../shared/protocol';

export interface QueuedPrompt {
  id: string;
  text: string;
  attachments?: Attachment[];
}

export interface SessionQueue {
  readonly items: readonly QueuedPrompt[];
  /** Waiting for the user's "Send" (after a cancel, a failure or a reload). */
  readonly held: boolean;
}

/** How the turn the queue waited for ended. */
export type TurnOutcome = 'ended' | 'cancelled' | 'failed';

/** Where the queues are kept between windows (workspaceState in VS Code; a Map in tests). */
export interface QueueStorage {
  get(): unknown;
  set(value: Record<string, SessionQueue>): unknown;
}

interface MutableQueue {
  items: QueuedPrompt[];
  held: boolean;
  /** "Send now" without steering cancelled the turn: its end sends the first prompt, not holds. */
  sendAfterCancel: boolean;
}

const EMPTY: SessionQueue = { items: [], held: false };

export class PromptQueues {
  private readonly queues = new Map<string, MutableQueue>();
  private readonly changed = new Emitter<string>();
  /** A session's queue changed (its id). */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly storage: QueueStorage,
    private readonly newId: () => string,
  ) {
    for (const [sessionId, q] of Object.entries(readStored(storage.get())))
      this.queues.set(sessionId, { items: q.items, held: q.items.length > 0, sendAfterCancel: false });
  }

  get(sessionId: string): SessionQueue {
    const q = this.queues.get(sessionId);
    return q ? { items: q.items.slice(), held: q.held } : EMPTY;
  }

  add(sessionId: string, text: string, attachments?: readonly Attachment[]): QueuedPrompt {
    const item: QueuedPrompt = attachments?.length
      ? { id: this.newId(), text, attachments: [...attachments] }
      : { id: this.newId(), text };
    const q = this.queues.get(sessionId) ?? { items: [], held: false, sendAfterCancel: false };
    q.items.push(item);
    this.queues.set(sessionId, q);
    this.save(sessionId);
    return item;
  }

  /** Replaces a queued prompt's text (its attachments stay). False when it is gone or the text is empty. */
  edit(sessionId: string, id: string, text: string): boolean {
    const item = this.queues.get(sessionId)?.items.find((x) => x.id === id);
    if (!item || (!text.trim() && !item.attachments?.length)) return false;
    item.text = text;
    this.save(sessionId);
    return true;
  }

  remove(sessionId: string, id: string): boolean {
    return this.take(sessionId, id) !== undefined;
  }

  /** Moves a queued prompt to position `to` (clamped to the list). */
  move(sessionId: string, id: string, to: number): boolean {
    const q = this.queues.get(sessionId);
    const from = q?.items.findIndex((x) => x.id === id) ?? -1;
    if (!q || from < 0) return false;
    const [item] = q.items.splice(from, 1);
    q.items.splice(Math.max(0, Math.min(q.items.length, to)), 0, item);
    this.save(sessionId);
    return true;
  }

  /** Removes and returns one queued prompt (to send it now). */
  take(sessionId: string, id: string): QueuedPrompt | undefined {
    const q = this.queues.get(sessionId);
    const i = q?.items.findIndex((x) => x.id === id) ?? -1;
    if (!q || i < 0) return undefined;
    const [item] = q.items.splice(i, 1);
    this.save(sessionId);
    return item;
  }

  /** Puts a prompt back at the front (it could not be sent after all). */
  putFirst(sessionId: string, item: QueuedPrompt): void {
    const q = this.queues.get(sessionId) ?? { items: [], held: false, sendAfterCancel: false };
    q.items.unshift(item);
    this.queues.set(sessionId, q);
    this.save(sessionId);
  }

  /**
   * The turn the queue waited for ended: returns the prompt to send now (taken from the queue),
   * or undefined when the queue is empty or held.
   */
  turnEnded(sessionId: string, outcome: TurnOutcome): QueuedPrompt | undefined {
    const q = this.queues.get(sessionId);
    if (!q) return undefined;
    if (outcome === 'cancelled' && q.sendAfterCancel) {
      q.sendAfterCancel = false;
      q.held = false;
    } else if (outcome !== 'ended') {
      q.held = q.items.length > 0;
      this.save(sessionId);
      return undefined;
    }
    if (q.held) return undefined;
    const item = q.items.shift();
    if (item) this.save(sessionId);
    return item;
  }

  /**
   * The user said "Send": the queue goes on. With no turn running (`idle`) the first prompt is
   * taken and returned, to send now; else the queue just waits for the running turn's end.
   */
  release(sessionId: string, idle: boolean): QueuedPrompt | undefined {
    const q = this.queues.get(sessionId);
    if (!q) return undefined;
    q.held = false;
    const item = idle ? q.items.shift() : undefined;
    this.save(sessionId);
    return item;
  }

  /**
   * "Send now" for an agent that cannot steer: this prompt moves to the front and the turn's
   * cancel sends it (the rest follow as after any normal turn).
   */
  sendAfterCancel(sessionId: string, id: string): boolean {
    if (!this.move(sessionId, id, 0)) return false;
    this.queues.get(sessionId)!.sendAfterCancel = true;
    return true;
  }

  /** The session is gone for good: its queue goes too. */
  drop(sessionId: string): void {
    if (this.queues.delete(sessionId)) this.save(sessionId);
  }

  private save(sessionId: string): void {
    const q = this.queues.get(sessionId);
    if (q && !q.items.length) {
      q.held = false;
      q.sendAfterCancel = false;
    }
    const out: Record<string, SessionQueue> = {};
    for (const [id, v] of this.queues) if (v.items.length) out[id] = { items: v.items, held: v.held };
    this.storage.set(out);
    this.changed.fire(sessionId);
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/** What storage holds, checked: anything malformed is left out (a queue is never worth a crash). */
function readStored(raw: unknown): Record<string, { items: QueuedPrompt[] }> {
  const out: Record<string, { items: QueuedPrompt[] }> = {};
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return out;
  for (const [sessionId, q] of Object.entries(raw as Record<string, unknown>)) {
    const items = (q as { items?: unknown } | null)?.items;
    if (!Array.isArray(items)) continue;
    const good = items.flatMap((x) => {
      const item = readItem(x);
      return item ? [item] : [];
    });
    if (good.length) out[sessionId] = { items: good };
  }
  return out;
}

function readItem(x: unknown): QueuedPrompt | undefined {
  const { id, text, attachments } = (x ?? {}) as Record<string, unknown>;
  if (typeof id !== 'string' || !id || typeof text !== 'string') return undefined;
  if (attachments === undefined) return { id, text };
  if (!Array.isArray(attachments)) return undefined;
  const parsed = attachments.map(parseAttachment);
  if (parsed.some((a) => typeof a === 'string')) return undefined;
  return { id, text, attachments: parsed as Attachment[] };
}
