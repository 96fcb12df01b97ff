// A trailing-edge throttle for view refreshes that follow a running simulation (the tree while
// Play or Run N Steps fires 'stepped' many times a second). Pure: no vscode; timers injectable.
import { realTimers, type Timers } from './schedule';

interface ThrottleOptions {
  /** Minimum time between two runs (ms): 250 = at most 4 runs per second. */
  intervalMs: number;
  /** Coalescing delay after the first trigger of a burst (ms), so that bursts of events run once. */
  delayMs: number;
}

/** The cadence of the views that follow a run (tree, status bar, CodeLens): at most 4 refreshes per second, bursts coalesced over 50 ms. */
export const VIEW_REFRESH: ThrottleOptions = { intervalMs: 250, delayMs: 50 };

/**
 * `trigger()` schedules `fn` unless a run is already pending (which then covers this trigger, as
 * `fn` reads the state when it runs). A run comes `delayMs` after the trigger at the earliest, and
 * never sooner than `intervalMs` after the previous run. The last trigger is always followed by a
 * run (trailing edge): the final state is never missed.
 */
export class Throttle {
  private handle: unknown;
  private pending = false;
  private last = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly fn: () => void,
    private readonly opts: ThrottleOptions,
    private readonly timers: Timers = realTimers,
  ) {}

  get isPending(): boolean {
    return this.pending;
  }

  trigger(): void {
    if (this.pending) return;
    const wait = Math.max(this.opts.delayMs, this.last + this.opts.intervalMs - this.timers.now());
    this.pending = true;
    this.handle = this.timers.setTimeout(() => {
      this.pending = false;
      this.handle = undefined;
      this.last = this.timers.now();
      this.fn();
    }, wait);
  }

  /** Drop a pending run. */
  cancel(): void {
    if (!this.pending) return;
    this.timers.clearTimeout(this.handle);
    this.pending = false;
    this.handle = undefined;
  }

  dispose(): void {
    this.cancel();
  }
}
