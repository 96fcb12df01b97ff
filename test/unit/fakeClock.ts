// A fake clock for timer-driven logic: timers fire in due order when time is advanced, and work
// done inside a callback may advance the clock too (a busy event loop delays what comes next).
import type { Timers } from '../../src/extension/logic/schedule';

interface Pending {
  id: number;
  due: number;
  fn: () => void;
}

export class FakeClock implements Timers {
  t = 0;
  private seq = 0;
  private queue: Pending[] = [];

  now(): number {
    return this.t;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const p = { id: ++this.seq, due: this.t + Math.max(0, ms), fn };
    this.queue.push(p);
    return p.id;
  }

  clearTimeout(handle: unknown): void {
    this.queue = this.queue.filter((p) => p.id !== handle);
  }

  /** Timers waiting. */
  get pending(): number {
    return this.queue.length;
  }

  /**
   * Runs the event loop until `until`: the earliest due timer fires (at its due time, or later if
   * the loop was busy), in order. Callbacks may advance `t` (work takes time).
   */
  runUntil(until: number): void {
    for (;;) {
      this.queue.sort((a, b) => a.due - b.due || a.id - b.id);
      const next = this.queue[0];
      if (!next || next.due > until) break;
      this.queue.shift();
      this.t = Math.max(this.t, next.due);
      next.fn();
    }
    this.t = Math.max(this.t, until);
  }

  advance(ms: number): void {
    this.runUntil(this.t + ms);
  }
}
