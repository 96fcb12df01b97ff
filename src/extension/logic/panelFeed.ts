// What the host sends one inspector panel, with backpressure: at most one flow-controlled message
// (model, history, snapshot) is in flight, and the next goes only when the panel acknowledged it.
// Meanwhile updates coalesce: the history is sent as the records appended since the last message
// (compact columns, src/shared/history.ts) with the current step's snapshot in the same message.
// During a run an update goes at most every `intervalMs` (≤ 10 Hz), and never sooner than
// `dutyFactor` times the panel's own work for the previous ones (applying and rendering, as its
// acknowledgement reports it; the whole round trip when it does not), so a slow panel (whose page
// may share its thread with the workbench) spends at most about 1/dutyFactor of its time on the
// run. The transport's latency and the wait for a frame are not the panel's work: in code-server
// an acknowledgement takes 150-230 ms to come back for 1-2 ms of applying, and pacing by it held Play's updates to
// about one a second; one message in flight already keeps the host from running ahead; when the run settles the end goes at once. Only the run's own updates pace it (the
// model or a long history's chunks take the panel longer once, and say nothing about the next
// update), the pace never drops below one update a second, and the first update of a run that
// starts after the feed went quiet goes at once. So the host never runs ahead of the panel, and
// the work per message does not grow with the run.
// Pure: no vscode; timers injectable (test/unit/extension-feed.test.ts).
import type { HistoryChunk, HostMessage, StepRecord, SystemSnapshot } from '../../protocol';
import { chunkBytes, encodeHistory, historyShape, recordsPerChunk } from '../../shared/history';
import { realTimers, type Timers } from './schedule';

/** Longest time between two updates of a running run, however slow the panel (ms). */
const MAX_GAP_MS = 1000;

/** A message the feed sends and the panel acknowledges. */
type FlowMessage = Extract<HostMessage, { type: 'model' | 'snapshot' | 'historyAppend' | 'historyReset' }>;

/** The panel's model message (or an error to show instead), and the step to show after it. */
export interface FeedModel {
  message: Extract<HostMessage, { type: 'model' | 'error' }>;
  /** The step whose snapshot the panel should show, when the model carries another one (large scenes). */
  showStep?: number;
}

/** Where the feed gets what it sends (read when a message goes, so it is always the latest). */
interface FeedSource {
  /** The model without its history (streamed after it); undefined while the scene is not analysed. */
  model(): FeedModel | undefined;
  /**
   * The run's records so far; undefined while the scene has no simulation for its text (edited,
   * re-analysis pending): the panel keeps what it shows until the new model.
   */
  records(): readonly StepRecord[] | undefined;
  /** The analysed system after step k (maybe in a worker); undefined when superseded. */
  snapshot(step: number): SystemSnapshot | undefined | Promise<SystemSnapshot | undefined>;
}

interface FeedOptions {
  timers?: Timers;
  /** Least time between two updates (records and the current step's snapshot) while a run goes on (ms). */
  intervalMs?: number;
  /** During a run, updates are at least this many times the panel's acknowledgement time apart. Default 4. */
  dutyFactor?: number;
  /** Largest history message (bytes of its columns). */
  maxChunkBytes?: number;
  /** A snapshot could not be made. */
  onSnapshotError?(step: number, e: unknown): void;
}

interface FeedStats {
  /** Flow-controlled messages posted. */
  posted: number;
  /** Bytes of history columns posted. */
  historyBytes: number;
  /** Records posted (re-sent ones counted again). */
  historyRecords: number;
  /** Most messages ever in flight at once (1 by construction). */
  maxInFlight: number;
}

export class PanelFeed {
  private seq = 0;
  private inFlight: number | undefined;
  /** A snapshot is being made (it holds the slot). */
  private busy = false;
  private open = false;
  private wantModel = false;
  /** Records the panel has, or will have once the message in flight lands. */
  private sent = 0;
  /** A step the panel asked for (or the host wants shown: `goTo`). */
  private requested: { step: number; goTo: boolean } | undefined;
  /** The last current step pushed (or announced by the model). */
  private pushedStep = -1;
  /** The run settled: its end goes without waiting for the interval. */
  private flush = false;
  /** The last history message stopped short of the end (its size was capped): the rest goes at once. */
  private partial = false;
  /** When the last update of the run (records and/or the current step's snapshot) went. */
  private lastUpdateAt = Number.NEGATIVE_INFINITY;
  private timer: unknown;
  /** Bumped whenever what the panel has is replaced: snapshots made for before are dropped. */
  private epoch = 0;
  private readonly timers: Timers;
  private readonly intervalMs: number;
  private readonly dutyFactor: number;
  /** When the message in flight went, whether it is a run's update, and how long the panel takes to acknowledge one (ms, smoothed). */
  private sentAt = 0;
  private sentUpdate = false;
  private ackMs = 0;
  private readonly maxChunkBytes: number;
  readonly stats: FeedStats = { posted: 0, historyBytes: 0, historyRecords: 0, maxInFlight: 0 };

  constructor(
    private readonly post: (m: HostMessage) => boolean | Promise<boolean>,
    private readonly source: FeedSource,
    private readonly opts: FeedOptions = {},
  ) {
    this.timers = opts.timers ?? realTimers;
    this.intervalMs = opts.intervalMs ?? 100;
    this.dutyFactor = opts.dutyFactor ?? 4;
    this.maxChunkBytes = opts.maxChunkBytes ?? 1 << 20;
  }

  /** The last step whose record the panel has, or will have once the message in flight lands. */
  get knownEnd(): number {
    return this.sent;
  }

  /** A message is waiting for its acknowledgement. */
  get waiting(): boolean {
    return this.inFlight !== undefined;
  }

  /** How long the message in flight has waited for its acknowledgement (ms; 0: none waiting). Play paces itself by it. */
  get lagMs(): number {
    return this.inFlight === undefined ? 0 : Math.max(0, this.timers.now() - this.sentAt);
  }

  /**
   * Connected and nothing left to do: no message in flight, no snapshot being made, no model or
   * requested step waiting, every record of the run sent (and so acknowledged).
   */
  get idle(): boolean {
    if (!this.open || this.inFlight !== undefined || this.busy || this.wantModel || this.requested) return false;
    const records = this.source.records();
    return records === undefined || records.length === this.sent;
  }

  /** The webview (re)loaded and said ready: it has nothing, everything goes anew. */
  connect(): void {
    this.reset();
    this.open = true;
    this.wantModel = true;
    this.pump();
  }

  /** The webview went away (hidden, unloaded, disposed): nothing goes until it connects again. */
  disconnect(): void {
    this.reset();
    this.open = false;
  }

  /** A new analysis, or the run was reset: the model goes again (its history streamed after it). */
  modelChanged(): void {
    this.wantModel = true;
    this.requested = undefined;
    this.epoch++;
    this.pump();
  }

  /** Steps were taken; `settled`: no more follow right away (send the end now). */
  stepped(settled: boolean): void {
    if (settled) this.flush = true;
    this.pump();
  }

  /** The panel asked for the snapshot of `step`; `goTo`: the host wants the panel to show it (Go to Step). */
  request(step: number, goTo = false): void {
    this.requested = { step, goTo };
    this.pump();
  }

  /**
   * A run started: a step the host still meant to move the panel to (Go to Step, waiting for the
   * slot) is dropped, as the run's own views follow its end; arriving after the run's start it
   * would leave the panel on that step while every other view follows the run.
   */
  runStarted(): void {
    if (this.requested?.goTo) this.requested = undefined;
  }

  /** The panel applied the message `seq`; `panelMs`: its own time for it, when it says (else the round trip counts). */
  ack(seq: number, panelMs?: number): void {
    if (seq !== this.inFlight) return;
    this.inFlight = undefined;
    if (this.sentUpdate) {
      const roundTrip = this.timers.now() - this.sentAt;
      const ms = panelMs !== undefined && Number.isFinite(panelMs) && panelMs >= 0 ? Math.min(panelMs, roundTrip) : roundTrip;
      // smoothed: one slow frame (a garbage collection, the workbench's own work) does not halve the rate
      this.ackMs = this.ackMs === 0 ? ms : (this.ackMs + ms) / 2;
    }
    this.pump();
  }

  dispose(): void {
    this.disconnect();
  }

  private reset(): void {
    this.inFlight = undefined;
    this.busy = false;
    this.wantModel = false;
    this.sent = 0;
    this.requested = undefined;
    this.pushedStep = -1;
    this.flush = false;
    this.partial = false;
    this.lastUpdateAt = Number.NEGATIVE_INFINITY;
    this.ackMs = 0;
    this.epoch++;
    this.clearTimer();
  }

  private clearTimer(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Send the most urgent thing the panel is missing, if the slot is free. */
  private pump(): void {
    if (!this.open || this.inFlight !== undefined || this.busy) return;
    this.clearTimer();
    const now = this.timers.now();
    if (this.wantModel) {
      this.sendModel();
      return;
    }
    const records = this.source.records();
    if (records === undefined) {
      if (this.requested) {
        const r = this.requested;
        this.requested = undefined;
        this.sendSnapshot(r.step, r.goTo ? 'goTo' : 'reply');
      }
      return;
    }
    if (records.length < this.sent) {
      this.send({ type: 'historyReset', length: records.length });
      this.sent = records.length;
      this.pushedStep = Math.min(this.pushedStep, records.length);
      return;
    }
    if (this.requested) {
      const r = this.requested;
      // A step the host moves the panel to past the records it has (a Step taken from the CodeLens):
      // the records go first, as the panel clamps the step it goes to at the end of its history.
      if (r.goTo && r.step > this.sent && records.length > this.sent) {
        this.sendHistory(records, now);
        return;
      }
      this.requested = undefined;
      // the current step, sent this way, is not pushed again
      if (r.goTo && r.step === this.sent) this.pushedStep = r.step;
      this.sendSnapshot(r.step, r.goTo ? 'goTo' : 'reply');
      return;
    }
    let wake = Number.POSITIVE_INFINITY;
    if (records.length > this.sent) {
      const at = this.flush || this.partial ? now : this.lastUpdateAt + this.gap();
      if (at <= now) {
        this.sendHistory(records, now);
        return;
      }
      wake = at;
    }
    // The current step's snapshot, once the panel has its record.
    const target = this.sent;
    if (target !== this.pushedStep) {
      const at = this.flush ? now : this.lastUpdateAt + this.gap();
      if (at <= now) {
        this.pushedStep = target;
        this.lastUpdateAt = now;
        this.sendSnapshot(target, 'push');
        return;
      }
      wake = Math.min(wake, at);
    } else if (records.length === this.sent && this.flush) {
      // The end is there: the feed is quiet, and the next run's first update need not wait.
      this.flush = false;
      this.lastUpdateAt = Number.NEGATIVE_INFINITY;
    }
    if (wake < Number.POSITIVE_INFINITY) {
      this.timer = this.timers.setTimeout(() => {
        this.timer = undefined;
        this.pump();
      }, wake - now);
    }
  }

  /** Least time between two updates of a running run: the interval, or more for a slow panel. */
  private gap(): number {
    return Math.min(MAX_GAP_MS, Math.max(this.intervalMs, this.dutyFactor * this.ackMs));
  }

  private sendModel(): void {
    const m = this.source.model();
    if (!m) return; // not analysed yet: modelChanged() follows the analysis
    this.wantModel = false;
    this.epoch++;
    if (m.message.type === 'error') {
      this.postFree(m.message);
      return;
    }
    const model = m.message.model;
    this.sent = model.history.length;
    this.pushedStep = model.steps ?? model.history.length;
    this.lastUpdateAt = this.timers.now();
    if (m.showStep !== undefined && m.showStep !== model.snapshot.step) this.requested = { step: m.showStep, goTo: true };
    this.send(m.message);
  }

  /**
   * The records the panel is missing (up to the size cap). When they reach the end and the current
   * step's snapshot is due, it travels in the same message: one round trip, and the panel moves its
   * records and its step together.
   */
  private sendHistory(records: readonly StepRecord[], now: number): void {
    const shape = historyShape(records);
    const to = Math.min(records.length, this.sent + recordsPerChunk(shape.nC, shape.nL, shape.nP, this.maxChunkBytes));
    const chunk = encodeHistory(records, this.sent, to, shape);
    const total = records.length;
    this.stats.historyBytes += chunkBytes(chunk);
    this.stats.historyRecords += chunk.count;
    this.sent = to;
    this.partial = to < records.length;
    this.lastUpdateAt = now;
    // Records that reach the end bring the current step's snapshot along.
    // (unless the host moves the panel to a step next: that snapshot goes after these records)
    const withSnapshot = !this.partial && to !== this.pushedStep && !this.requested?.goTo;
    if (!withSnapshot) {
      // a capped chunk catches up on a long history; the others are the run's updates
      this.send({ type: 'historyAppend', chunk, total }, !this.partial);
      return;
    }
    this.pushedStep = to;
    this.sendSnapshot(to, 'push', { chunk, total });
  }

  /** The snapshot of `step` (made maybe asynchronously: it holds the slot meanwhile), alone or with the records before it. */
  private sendSnapshot(step: number, why: 'reply' | 'push' | 'goTo', withRecords?: { chunk: HistoryChunk; total: number }): void {
    const epoch = this.epoch;
    this.busy = true;
    const done = (snap: SystemSnapshot | undefined): void => {
      this.busy = false;
      if (epoch !== this.epoch || !this.open) this.pump(); // replaced meanwhile: the model goes again
      else if (withRecords) this.send(snap ? { type: 'historyAppend', ...withRecords, snapshot: snap } : { type: 'historyAppend', ...withRecords }, true);
      else if (snap) this.send(why === 'goTo' ? { type: 'snapshot', snapshot: snap, goTo: true } : { type: 'snapshot', snapshot: snap }, why === 'push');
      else this.pump();
    };
    const failed = (e: unknown): void => {
      this.busy = false;
      this.opts.onSnapshotError?.(step, e);
      if (withRecords && epoch === this.epoch && this.open) this.send({ type: 'historyAppend', ...withRecords }, true);
      else this.pump();
    };
    let out: SystemSnapshot | undefined | Promise<SystemSnapshot | undefined>;
    try {
      out = this.source.snapshot(step);
    } catch (e) {
      failed(e);
      return;
    }
    if (out instanceof Promise) out.then(done, failed);
    else done(out);
  }

  /** Post a flow-controlled message: it holds the slot until acknowledged (or not delivered). `update`: a run's update (its acknowledgement paces the next). */
  private send(m: FlowMessage, update = false): void {
    const seq = ++this.seq;
    this.inFlight = seq;
    this.sentAt = this.timers.now();
    this.sentUpdate = update;
    this.stats.posted++;
    this.stats.maxInFlight = Math.max(this.stats.maxInFlight, 1);
    const undelivered = (): void => {
      // The webview is gone (hidden or unloaded): it says ready again when it comes back.
      if (this.inFlight === seq) this.disconnect();
    };
    let r: boolean | Promise<boolean>;
    try {
      r = this.post({ ...m, seq });
    } catch {
      undelivered();
      return;
    }
    if (r instanceof Promise) r.then((ok) => ok || undelivered(), undelivered);
    else if (!r) undelivered();
  }

  /** Post a small message outside the flow (an error banner). */
  private postFree(m: HostMessage): void {
    try {
      const r = this.post(m);
      if (r instanceof Promise) r.catch(() => undefined);
    } catch {
      // the webview is gone
    }
  }
}
