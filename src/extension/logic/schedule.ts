// Debouncing and versioned ("latest wins") scheduling of per-document work.
// Pure: no vscode. Timers are injectable so the logic is testable with a fake clock.

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  now(): number;
}

export const realTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
  now: () => performance.now(),
};

/**
 * A keyed debouncer: `trigger(key, fn, delay)` runs `fn` once `delay` ms after the last trigger
 * for that key. `flush(key)` runs a pending call now; `cancel(key)` drops it.
 */
export class KeyedDebouncer {
  private readonly pending = new Map<string, { handle: unknown; fn: () => void }>();

  constructor(private readonly timers: Timers = realTimers) {}

  trigger(key: string, fn: () => void, delayMs: number): void {
    this.cancel(key);
    if (delayMs <= 0) {
      fn();
      return;
    }
    const handle = this.timers.setTimeout(() => {
      const p = this.pending.get(key);
      if (p && p.handle === handle) {
        this.pending.delete(key);
        p.fn();
      }
    }, delayMs);
    this.pending.set(key, { handle, fn });
  }

  isPending(key: string): boolean {
    return this.pending.has(key);
  }

  flush(key: string): void {
    const p = this.pending.get(key);
    if (!p) return;
    this.timers.clearTimeout(p.handle);
    this.pending.delete(key);
    p.fn();
  }

  cancel(key: string): void {
    const p = this.pending.get(key);
    if (!p) return;
    this.timers.clearTimeout(p.handle);
    this.pending.delete(key);
  }

  dispose(): void {
    for (const p of this.pending.values()) this.timers.clearTimeout(p.handle);
    this.pending.clear();
  }
}

/**
 * Tracks the newest requested version per key so that results of stale computations are dropped.
 * `begin(key, version)` returns a ticket; `isCurrent(ticket)` tells whether it is still the newest.
 */
export interface Ticket {
  key: string;
  version: number;
  /** Monotonic id (distinguishes two requests for the same document version, e.g. after a save). */
  seq: number;
  startedAt: number;
}

export class VersionTracker {
  private seq = 0;
  private readonly latest = new Map<string, Ticket>();

  constructor(private readonly timers: Pick<Timers, 'now'> = realTimers) {}

  begin(key: string, version: number): Ticket {
    const t: Ticket = { key, version, seq: ++this.seq, startedAt: this.timers.now() };
    this.latest.set(key, t);
    return t;
  }

  /** True when no newer request for the same key was begun since. */
  isCurrent(t: Ticket): boolean {
    return this.latest.get(t.key)?.seq === t.seq;
  }

  /** Forget a key (document closed): every outstanding ticket for it becomes stale. */
  invalidate(key: string): void {
    this.latest.delete(key);
  }

  latestFor(key: string): Ticket | undefined {
    return this.latest.get(key);
  }
}

/**
 * A single-lane job queue for a worker that can only do one thing at a time: keeps at most one
 * pending job per key (a newer job for the same key replaces the older one, whose promise
 * resolves with `undefined`), runs jobs one by one, and tells when the running job became stale
 * (so the caller can abort it, e.g. by terminating the worker).
 */
interface LaneJob<T> {
  key: string;
  ticket: Ticket;
  run: () => Promise<T>;
  resolve: (v: T | undefined) => void;
}

export class SingleLane<T> {
  private readonly queue: LaneJob<T>[] = [];
  private running: LaneJob<T> | undefined;

  constructor(private readonly tracker: VersionTracker) {}

  /** Enqueue; the promise resolves with the result, or `undefined` when superseded or aborted. */
  submit(key: string, ticket: Ticket, run: () => Promise<T>): Promise<T | undefined> {
    return new Promise<T | undefined>((resolve) => {
      for (let i = this.queue.length - 1; i >= 0; i--) {
        if (this.queue[i].key === key) {
          this.queue[i].resolve(undefined);
          this.queue.splice(i, 1);
        }
      }
      this.queue.push({ key, ticket, run, resolve });
      this.pump();
    });
  }

  /** The running job, if any. */
  get current(): LaneJob<T> | undefined {
    return this.running;
  }

  /** True when the running job's ticket is no longer the newest for its key. */
  runningIsStale(): boolean {
    return this.running !== undefined && !this.tracker.isCurrent(this.running.ticket);
  }

  get pendingCount(): number {
    return this.queue.length;
  }

  private pump(): void {
    if (this.running) return;
    // Drop queued jobs that went stale while waiting.
    for (let head = this.queue[0]; head !== undefined && !this.tracker.isCurrent(head.ticket); head = this.queue[0]) {
      this.queue.shift();
      head.resolve(undefined);
    }
    const job = this.queue.shift();
    if (!job) return;
    this.running = job;
    const finish = (v: T | undefined): void => {
      if (this.running === job) this.running = undefined;
      job.resolve(v);
      this.pump();
    };
    let p: Promise<T>;
    try {
      p = job.run();
    } catch {
      finish(undefined);
      return;
    }
    p.then(finish, () => finish(undefined));
  }

  /** Reject everything (dispose). */
  clear(): void {
    for (const j of this.queue.splice(0)) j.resolve(undefined);
  }
}

/** At most this share of the debounce is spent analysing ahead of its end. */
export const MAX_LEAD_SHARE = 0.4;

/**
 * How long before the end of the debounce a document's analysis starts (ms), so that its result is
 * ready when the debounce ends: the last analysis of the document took `lastMs`; half as much again
 * and 10 ms are added for the variation, and never more than MAX_LEAD_SHARE of the debounce (a
 * keystroke after the early start wastes that analysis). 0 without an estimate (the first analysis)
 * and for a debounce under 20 ms. The result is published at the debounce's end, not before: the
 * Problems panel still changes only `debounceMs` after the last keystroke.
 */
export function analysisLead(debounceMs: number, lastMs: number | undefined): number {
  if (lastMs === undefined || !Number.isFinite(lastMs) || lastMs < 0 || !(debounceMs >= 20)) return 0;
  return Math.round(Math.min(lastMs * 1.5 + 10, debounceMs * MAX_LEAD_SHARE));
}
