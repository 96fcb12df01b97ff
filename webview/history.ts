// The run's history in the panel: compact columns (typed arrays that grow by doubling) and cheap
// immutable views over them. A view is `{ buf, length }`: appending to the newest view writes past
// its end in place and returns a new view, so older views stay valid (they never look past their
// own length) and the reducers stay pure. Truncation or a new shape starts a new buffer.
// Pure: no DOM; unit-tested in Node.
import { encodeHistory, HISTORY_METHODS, type HistoryChunk, type RecordExtras } from '../src/shared/history';
import type { StepRecord } from '../src/protocol';
import type { RunRecords } from './scene3d/model';
import { formatCond } from '../src/shared';

/** Column storage of a history (one per run; views share it). */
export class Columns {
  /** Records written so far (the longest view over this buffer). */
  filled = 0;
  capacity = 0;
  t: Float64Array = new Float64Array(0);
  C: Float64Array = new Float64Array(0);
  lambda: Float64Array = new Float64Array(0);
  cond: Float64Array = new Float64Array(0);
  condEstimated: Uint8Array = new Uint8Array(0);
  energy: Float64Array = new Float64Array(0);
  quatDrift: Float64Array = new Float64Array(0);
  rank: Float64Array = new Float64Array(0);
  method: Uint8Array = new Uint8Array(0);
  poses: Float64Array = new Float64Array(0);
  /** Per record: the contact solve's report (sparse: only contact scenes have any). */
  extras: (RecordExtras | undefined)[] = [];

  constructor(
    readonly nC: number,
    readonly nL: number,
    readonly nP: number,
  ) {}

  /** Room for at least `n` records (copies the first `filled`). */
  reserve(n: number): void {
    if (n <= this.capacity) return;
    const cap = Math.max(n, 64, this.capacity * 2);
    const used = this.filled;
    const f64 = (a: Float64Array, width: number): Float64Array => {
      const b = new Float64Array(cap * width);
      b.set(a.subarray(0, used * width));
      return b;
    };
    const u8 = (a: Uint8Array): Uint8Array => {
      const b = new Uint8Array(cap);
      b.set(a.subarray(0, used));
      return b;
    };
    this.t = f64(this.t, 1);
    this.C = f64(this.C, this.nC);
    this.lambda = f64(this.lambda, this.nL);
    this.cond = f64(this.cond, 1);
    this.condEstimated = u8(this.condEstimated);
    this.energy = f64(this.energy, 3);
    this.quatDrift = f64(this.quatDrift, 1);
    this.rank = f64(this.rank, 1);
    this.method = u8(this.method);
    this.poses = f64(this.poses, this.nP);
    this.capacity = cap;
  }

  /** A new buffer holding the first `n` records of this one. */
  prefix(n: number): Columns {
    const c = new Columns(this.nC, this.nL, this.nP);
    c.reserve(n);
    c.t.set(this.t.subarray(0, n));
    c.C.set(this.C.subarray(0, n * this.nC));
    c.lambda.set(this.lambda.subarray(0, n * this.nL));
    c.cond.set(this.cond.subarray(0, n));
    c.condEstimated.set(this.condEstimated.subarray(0, n));
    c.energy.set(this.energy.subarray(0, 3 * n));
    c.quatDrift.set(this.quatDrift.subarray(0, n));
    c.rank.set(this.rank.subarray(0, n));
    c.method.set(this.method.subarray(0, n));
    c.poses.set(this.poses.subarray(0, n * this.nP));
    c.extras = this.extras.slice(0, n);
    c.filled = n;
    return c;
  }

  /** Writes `chunk` at record `at` (the caller made room). */
  write(at: number, ch: HistoryChunk): void {
    const n = ch.count;
    this.t.set(ch.t, at);
    this.C.set(ch.C, at * this.nC);
    this.lambda.set(ch.lambda, at * this.nL);
    this.cond.set(ch.cond, at);
    this.condEstimated.set(ch.condEstimated, at);
    this.energy.set(ch.energy, 3 * at);
    this.quatDrift.set(ch.quatDrift, at);
    this.rank.set(ch.rank, at);
    this.method.set(ch.method, at);
    this.poses.set(ch.poses, at * this.nP);
    if (this.extras.length > at) this.extras.length = at;
    if (ch.extras) for (let k = 0; k < n; k++) this.extras[at + k] = ch.extras[k] ?? undefined;
    this.filled = at + n;
  }
}

/** An immutable view of the first `length` records of a column buffer. */
export interface History {
  readonly length: number;
  /** @internal the columns (shared with later views) */
  readonly buf: Columns;
}

export const emptyHistory = (): History => ({ length: 0, buf: new Columns(0, 0, 0) });

/** Bytes the history's columns take (capacity included). */
export function historyBytes(h: History): number {
  const b = h.buf;
  return b.t.byteLength + b.C.byteLength + b.lambda.byteLength + b.cond.byteLength + b.condEstimated.byteLength + b.energy.byteLength + b.quatDrift.byteLength + b.rank.byteLength + b.method.byteLength + b.poses.byteLength;
}

/**
 * `h` with `chunk` applied: records from `chunk.from` on are replaced (normally `from` is
 * `h.length`: an append). A chunk that starts past the end (a gap) is refused: `h` comes back.
 */
export function appendHistory(h: History, chunk: HistoryChunk): History {
  if (chunk.from > h.length) return h;
  if (chunk.count === 0) return chunk.from < h.length ? truncateHistory(h, chunk.from) : h;
  let buf = h.buf;
  const sameShape = buf.nC === chunk.nC && buf.nL === chunk.nL && buf.nP === chunk.nP;
  if (!sameShape) {
    // A new shape (another scene): what came before cannot share columns with it.
    if (chunk.from !== 0) return h;
    buf = new Columns(chunk.nC, chunk.nL, chunk.nP);
  } else if (buf.filled !== chunk.from) {
    // Writing inside records a view may still show (an older view, or a rewrite): copy first.
    buf = buf.prefix(chunk.from);
  }
  buf.reserve(chunk.from + chunk.count);
  buf.write(chunk.from, chunk);
  return { length: chunk.from + chunk.count, buf };
}

/** The first `n` records of `h` (views of the longer history stay as they were). */
export function truncateHistory(h: History, n: number): History {
  const len = Math.max(0, Math.min(n, h.length));
  if (len === h.length) return h;
  return { length: len, buf: h.buf.prefix(len) };
}

/** A history from records (the report's embedded run, a model that carries its history): one chunk, appended. */
export function historyFromRecords(records: readonly StepRecord[]): History {
  if (records.length === 0) return emptyHistory();
  return appendHistory(emptyHistory(), encodeHistory(records, 0, records.length));
}

// ---- reading ------------------------------------------------------------------------------------

/** ‖C‖ of constraint i at record k (NaN when not recorded). */
export const violationAt = (h: History, k: number, i: number): number => (i < h.buf.nC ? h.buf.C[k * h.buf.nC + i] : NaN);
/** λ of row i at record k (NaN when not recorded). */
export const lambdaAt = (h: History, k: number, i: number): number => (i < h.buf.nL ? h.buf.lambda[k * h.buf.nL + i] : NaN);
/** κ(A) at record k, null when singular. */
export const condAt = (h: History, k: number): number | null => (Number.isFinite(h.buf.cond[k]) ? h.buf.cond[k] : null);

/**
 * κ at `step` as the κ chart reads it out (`step 840: κ 14.3`): step k is record k − 1, with the
 * "≈" of a held estimate as in every view; undefined for step 0 (no record) or past the run.
 */
export function condReadout(h: History, step: number): string | undefined {
  if (step < 1 || step > h.length) return undefined;
  return `step ${step}: κ ${formatCond(condAt(h, step - 1), { estimated: h.buf.condEstimated[step - 1] === 1 })}`;
}
const energyAt = (h: History, k: number): { kinetic: number; potential: number; total: number } => ({ kinetic: h.buf.energy[3 * k], potential: h.buf.energy[3 * k + 1], total: h.buf.energy[3 * k + 2] });
/** One part of the energy at record k: 0 kinetic, 1 potential, 2 total. */
export const energyPartAt = (h: History, k: number, part: 0 | 1 | 2): number => h.buf.energy[3 * k + part];
export const quatDriftAt = (h: History, k: number): number => h.buf.quatDrift[k];

/** The poses after step `step` (≥ 1): [p(3), q(4)] per body, or undefined when not recorded. */
function posesAt(h: History, step: number): Float64Array | undefined {
  const k = step - 1;
  if (k < 0 || k >= h.length || h.buf.nP === 0) return undefined;
  return h.buf.poses.subarray(k * h.buf.nP, (k + 1) * h.buf.nP);
}

/** Record k as a StepRecord (one record: selectors, tooltips). */
export function recordAt(h: History, k: number): StepRecord | undefined {
  if (k < 0 || k >= h.length) return undefined;
  const b = h.buf;
  return {
    step: k + 1,
    t: b.t[k],
    C: Array.from(b.C.subarray(k * b.nC, (k + 1) * b.nC)),
    lambda: Array.from(b.lambda.subarray(k * b.nL, (k + 1) * b.nL)),
    cond: { A: condAt(h, k) },
    condEstimated: b.condEstimated[k] === 1,
    energy: energyAt(h, k),
    quatDrift: b.quatDrift[k],
    method: HISTORY_METHODS[b.method[k]] ?? 'none',
    poses: Array.from(b.poses.subarray(k * b.nP, (k + 1) * b.nP)),
    ...(Number.isFinite(b.rank[k]) ? { rank: b.rank[k] } : {}),
    ...(b.extras[k] ?? {}),
  };
}

/** The extras of record k (contacts, Newton, PGS), or undefined. */
const extrasAt = (h: History, k: number): RecordExtras | undefined => (k >= 0 && k < h.length ? h.buf.extras[k] : undefined);

/** A record's step and time with its extras: what the per-step contact, Newton and PGS charts read. */
export type StepExtras = RecordExtras & { step: number; t: number };

/** Per column buffer: its records as StepExtras so far (a buffer is only ever appended to). */
const extrasCache = new WeakMap<Columns, StepExtras[]>();

/** Every record as its step, time and extras (empty when the run has no extras: a scene without contacts). Incremental per buffer. */
export function extrasRecords(h: History): StepExtras[] {
  const b = h.buf;
  let list = extrasCache.get(b);
  if (!list) {
    if (!b.extras.some((x) => x !== undefined)) return [];
    list = [];
    extrasCache.set(b, list);
  }
  for (let k = list.length; k < b.filled; k++) list.push({ step: k + 1, t: b.t[k], ...(b.extras[k] ?? {}) });
  return list.length === h.length ? list : list.slice(0, h.length);
}

/** The run as the 3D view reads it (webview/scene3d `RunRecords`): one record or one step's poses at a time, in place. */
export function runRecords(h: History): RunRecords {
  return { length: h.length, record: (k) => recordAt(h, k - 1), poses: (k) => posesAt(h, k), extras: (k) => extrasAt(h, k - 1) };
}
