// Which terminal a command of the visible-terminal mode runs in: each session keeps its terminals
// and reuses an idle one for its next command (what users expect: one shell per session, its
// history in one place); a command that starts while the others still run gets a terminal of its
// own. A terminal is busy while Tandem runs a command in it or while the user runs one there.
// Generic in the terminal type: no vscode here.

interface Entry<T> {
  key: string;
  term: T;
  agentBusy: boolean;
  userBusy: boolean;
}

export class TerminalPool<T> {
  private readonly entries: Entry<T>[] = [];

  /** An idle terminal for `key`, now marked busy; undefined when every one is busy (or none). */
  acquire(key: string): T | undefined {
    const e = this.entries.find((x) => x.key === key && !x.agentBusy && !x.userBusy);
    if (!e) return undefined;
    e.agentBusy = true;
    return e.term;
  }

  /** A new terminal for `key`, busy with the command it was opened for. */
  add(key: string, term: T): void {
    this.entries.push({ key, term, agentBusy: true, userBusy: false });
  }

  /** Tandem's command in it ended: it can take the next one. */
  release(term: T): void {
    const e = this.find(term);
    if (e) e.agentBusy = false;
  }

  /** The user started (true) or ended (false) a command of their own in it. */
  setUserBusy(term: T, busy: boolean): void {
    const e = this.find(term);
    if (e) e.userBusy = busy;
  }

  /** It closed: never hand it out again. */
  remove(term: T): void {
    const i = this.entries.findIndex((x) => x.term === term);
    if (i >= 0) this.entries.splice(i, 1);
  }

  has(term: T): boolean {
    return !!this.find(term);
  }

  /** How many terminals `key` has (to number their names). */
  count(key: string): number {
    return this.entries.filter((x) => x.key === key).length;
  }

  all(): T[] {
    return this.entries.map((x) => x.term);
  }

  private find(term: T): Entry<T> | undefined {
    return this.entries.find((x) => x.term === term);
  }
}
