// When the open documents are analysed. A change that comes after a pause of
// DEBOUNCE_MS without one is analysed at once (typing at a person's speed sees
// every keystroke's diagnostics without a wait); a change within DEBOUNCE_MS
// of the one before waits until the changes pause for DEBOUNCE_MS, so that a
// burst (a paste replayed as many changes, a client sending thousands a
// second) is analysed once, on its last text; a stream of changes that never
// pauses is still analysed every MAX_WAIT_MS. There is never more than one
// analysis waiting: it always takes the latest texts, so work an edit
// superseded is never done.

const DEBOUNCE_MS = 60;
const MAX_WAIT_MS = 250;

export class Schedule {
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;
  private lastChange = Number.NEGATIVE_INFINITY;
  /** When the waiting analysis was first put off. */
  private putOffSince: number | undefined;

  constructor(private readonly analyse: () => void) {}

  changed(): void {
    const now = performance.now();
    const quiet = now - this.lastChange >= DEBOUNCE_MS;
    this.lastChange = now;
    if (quiet && this.timer === undefined) {
      this.immediate ??= setImmediate(() => this.run());
      return;
    }
    if (this.immediate !== undefined) {
      clearImmediate(this.immediate);
      this.immediate = undefined;
    }
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.putOffSince ??= now;
    const wait = Math.max(0, Math.min(DEBOUNCE_MS, this.putOffSince + MAX_WAIT_MS - now));
    this.timer = setTimeout(() => this.run(), wait);
  }

  get pending(): boolean {
    return this.timer !== undefined || this.immediate !== undefined;
  }

  /** Runs the waiting analysis now (a request needs the latest texts analysed). */
  flush(): void {
    if (this.pending) this.run();
  }

  private run(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    if (this.immediate !== undefined) clearImmediate(this.immediate);
    this.timer = undefined;
    this.immediate = undefined;
    this.putOffSince = undefined;
    this.analyse();
  }
}
