// "Mark as reviewed" on a file the agent changed: the mark belongs to the file as the user saw it
// (a hash of its bytes), in one session. It clears when the agent changes the file again — the
// file's bytes differ from the marked ones when the agent's next change settles — and follows
// the user's own saves made while no turn runs (the user's edit is not new work to review).
// Pure: hashing and storage come from the caller.

export interface ReviewedMark {
  sessionId: string;
  path: string;
  /** sha256 of the file's bytes when marked (or last saved by the user); '' for a deleted file. */
  hash: string;
}

const key = (sessionId: string, path: string) => `${sessionId}\u0000${path}`;

export class ReviewedMarks {
  private readonly marks = new Map<string, ReviewedMark>();

  constructor(saved: readonly ReviewedMark[] = []) {
    for (const m of saved) if (isMark(m)) this.marks.set(key(m.sessionId, m.path), { ...m });
  }

  isReviewed(sessionId: string, path: string): boolean {
    return this.marks.has(key(sessionId, path));
  }

  mark(sessionId: string, path: string, hash: string): void {
    this.marks.set(key(sessionId, path), { sessionId, path, hash });
  }

  /** True when there was a mark to remove. */
  unmark(sessionId: string, path: string): boolean {
    return this.marks.delete(key(sessionId, path));
  }

  /** The marks of one session (for re-checking after the agent's changes). */
  of(sessionId: string): ReviewedMark[] {
    return [...this.marks.values()].filter((m) => m.sessionId === sessionId);
  }

  /**
   * The agent's changes in `sessionId` settled: each marked file whose bytes differ from the
   * marked ones was changed again and needs review again. Returns the paths that lost their mark.
   * `hashNow` is undefined for a path it did not read: one marked while the others were being
   * read was marked as it is now, so it keeps its mark.
   */
  afterAgentChange(sessionId: string, hashNow: (path: string) => string | undefined): string[] {
    const cleared: string[] = [];
    for (const m of this.of(sessionId)) {
      const now = hashNow(m.path);
      if (now !== undefined && now !== m.hash) {
        this.marks.delete(key(sessionId, m.path));
        cleared.push(m.path);
      }
    }
    return cleared;
  }

  /** The user saved `path` while no turn ran: its marks (in any session) follow the new bytes. */
  afterUserSave(path: string, hash: string): void {
    for (const m of this.marks.values()) if (m.path === path) m.hash = hash;
  }

  /** How many of `paths` (a session's changed files) are not marked. */
  leftToReview(sessionId: string, paths: Iterable<string>): number {
    let n = 0;
    for (const p of paths) if (!this.isReviewed(sessionId, p)) n++;
    return n;
  }

  /** Forgets a session's marks (its history was deleted). */
  forget(sessionId: string): void {
    for (const m of this.of(sessionId)) this.marks.delete(key(sessionId, m.path));
  }

  toJSON(): ReviewedMark[] {
    return [...this.marks.values()];
  }
}

function isMark(m: unknown): m is ReviewedMark {
  const x = m as ReviewedMark;
  return !!x && typeof x.sessionId === 'string' && typeof x.path === 'string' && typeof x.hash === 'string';
}
