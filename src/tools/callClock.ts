// The timeout of one client tool call (tandem.clientTools.timeoutSeconds) measures how long VS
// Code takes, not how long the user takes: it starts once the call's permission answer is in,
// and it stops while a question the handler asks (a file outside the workspace) waits for the
// user, then goes on with the time that was left.
export class CallClock {
  private left: number;
  private since = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running = false;
  private waiting = 0;

  constructor(
    ms: number,
    private readonly onTimeout: () => void,
    private readonly now: () => number = Date.now,
  ) {
    this.left = ms;
  }

  /** The handler starts: the time runs (unless a question is already waiting). */
  start(): void {
    this.running = true;
    this.arm();
  }

  /** A question waits for the user: the time stands still (questions may overlap). */
  pause(): void {
    if (this.waiting++ > 0 || !this.timer) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.left = Math.max(0, this.left - (this.now() - this.since));
  }

  /** The question was answered: the time left runs again. */
  resume(): void {
    if (this.waiting > 0 && --this.waiting === 0) this.arm();
  }

  stop(): void {
    this.running = false;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(): void {
    if (!this.running || this.waiting > 0 || this.timer) return;
    this.since = this.now();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.running = false;
      this.onTimeout();
    }, this.left);
  }
}
