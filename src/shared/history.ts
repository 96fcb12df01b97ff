// A run's history on the wire: records [from, from + count) in columns (one typed array per field,
// record after record), so the extension host streams only what was appended and the panel keeps
// compact columns instead of an array of objects. Pure: no vscode, no DOM, no Node APIs.
import type { StepRecord } from '../engine';

/** The solve methods a record may name (index = the `method` code on the wire). */
export const HISTORY_METHODS = ['none', 'cholesky', 'lu', 'lstsq', 'pgs', 'newton', 'cg'] as const satisfies readonly StepRecord['method'][];

/** The wire code of a record's method (every method has one: the type check below fails otherwise). */
export function methodCode(m: StepRecord['method']): number {
  const codes: Record<StepRecord['method'], number> = { none: 0, cholesky: 1, lu: 2, lstsq: 3, pgs: 4, newton: 5, cg: 6 };
  return codes[m] ?? 0;
}

/** What a record may carry besides its columns: the contact solve's per-step report (contact scenes only). */
export type RecordExtras = Pick<StepRecord, 'contacts' | 'contactCount' | 'complementarity' | 'maxPenetration' | 'pgs' | 'newton' | 'jointRows' | 'asleep'>;
const EXTRA_KEYS = ['contacts', 'contactCount', 'complementarity', 'maxPenetration', 'pgs', 'newton', 'jointRows', 'asleep'] as const satisfies readonly (keyof RecordExtras)[];

/** A record's extras, or null when it has none (a scene without contacts). */
function recordExtras(r: StepRecord): RecordExtras | null {
  let out: Record<string, unknown> | null = null;
  for (const k of EXTRA_KEYS) if (r[k] !== undefined) (out ??= {})[k] = r[k];
  return out as RecordExtras | null;
}

export interface HistoryChunk {
  /** Index of the first record (its step is `from + 1`). */
  from: number;
  count: number;
  /** Numbers per record: ‖C‖ per constraint, λ per row (0 when not recorded), poses (7 per body, 0 when not recorded). */
  nC: number;
  nL: number;
  nP: number;
  t: Float64Array;
  C: Float64Array;
  lambda: Float64Array;
  /** κ(A) per record; +∞ stands for `null` (singular or not finite). */
  cond: Float64Array;
  condEstimated: Uint8Array;
  /** kinetic, potential, total per record. */
  energy: Float64Array;
  quatDrift: Float64Array;
  /** Numerical rank of A per record; NaN when the record has none. */
  rank: Float64Array;
  /** Index into HISTORY_METHODS per record. */
  method: Uint8Array;
  poses: Float64Array;
  /** Per record: its extras (contacts, Newton, PGS) or null; absent when no record of the chunk has any. */
  extras?: (RecordExtras | null)[];
}

/** Numbers (8 bytes each) one record takes in a chunk. */
export function recordWidth(nC: number, nL: number, nP: number): number {
  return 8 + nC + nL + nP;
}

/** How many records of this shape fit in `maxBytes` (at least one). */
export function recordsPerChunk(nC: number, nL: number, nP: number, maxBytes: number): number {
  return Math.max(1, Math.floor(maxBytes / (8 * recordWidth(nC, nL, nP))));
}

/** Shape of the records (from the first one; later ones are padded with NaN or cut to it). */
export function historyShape(records: readonly StepRecord[]): { nC: number; nL: number; nP: number } {
  const r = records[0];
  return { nC: r?.C.length ?? 0, nL: r?.lambda.length ?? 0, nP: r?.poses.length ?? 0 };
}

/**
 * Records [from, to) as a chunk. Every array is a fresh one (never a view into a larger buffer:
 * VS Code transfers a view's whole buffer). `shape` fixes the widths (default: the first record's).
 */
export function encodeHistory(records: readonly StepRecord[], from: number, to: number, shape = historyShape(records)): HistoryChunk {
  const lo = Math.max(0, Math.min(from, records.length));
  const hi = Math.max(lo, Math.min(to, records.length));
  const count = hi - lo;
  const { nC, nL, nP } = shape;
  const out: HistoryChunk = {
    from: lo,
    count,
    nC,
    nL,
    nP,
    t: new Float64Array(count),
    C: new Float64Array(count * nC),
    lambda: new Float64Array(count * nL),
    cond: new Float64Array(count),
    condEstimated: new Uint8Array(count),
    energy: new Float64Array(count * 3),
    quatDrift: new Float64Array(count),
    rank: new Float64Array(count),
    method: new Uint8Array(count),
    poses: new Float64Array(count * nP),
  };
  const put = (dst: Float64Array, at: number, src: readonly number[], n: number): void => {
    for (let i = 0; i < n; i++) dst[at + i] = i < src.length ? src[i] : NaN;
  };
  for (let k = 0; k < count; k++) {
    const r = records[lo + k];
    out.t[k] = r.t;
    put(out.C, k * nC, r.C, nC);
    put(out.lambda, k * nL, r.lambda, nL);
    out.cond[k] = r.cond.A === null ? Infinity : r.cond.A;
    out.condEstimated[k] = r.condEstimated ? 1 : 0;
    out.energy[3 * k] = r.energy.kinetic;
    out.energy[3 * k + 1] = r.energy.potential;
    out.energy[3 * k + 2] = r.energy.total;
    out.quatDrift[k] = r.quatDrift;
    out.rank[k] = r.rank ?? NaN;
    out.method[k] = methodCode(r.method);
    put(out.poses, k * nP, r.poses, nP);
    const x = recordExtras(r);
    if (x) (out.extras ??= new Array<RecordExtras | null>(count).fill(null))[k] = x;
  }
  return out;
}

/** Bytes of the typed arrays of a chunk (what travels besides a few numbers). */
export function chunkBytes(c: HistoryChunk): number {
  return c.t.byteLength + c.C.byteLength + c.lambda.byteLength + c.cond.byteLength + c.condEstimated.byteLength + c.energy.byteLength + c.quatDrift.byteLength + c.rank.byteLength + c.method.byteLength + c.poses.byteLength;
}

const isObj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null;
const isCount = (x: unknown): x is number => typeof x === 'number' && Number.isInteger(x) && x >= 0;

/** Length of what may arrive for a typed array: a typed array, a plain array, or the `{"0":…}` object of plain JSON. */
function lengthOf(x: unknown): number {
  if (ArrayBuffer.isView(x)) return (x as unknown as ArrayLike<number>).length;
  if (Array.isArray(x)) return x.length;
  if (isObj(x)) return Object.keys(x).filter((k) => /^\d+$/.test(k)).length;
  return -1;
}

/** Structural check of a chunk received from the host (every column of the right length). */
export function isHistoryChunk(x: unknown): x is HistoryChunk {
  if (!isObj(x) || !isCount(x.from) || !isCount(x.count) || !isCount(x.nC) || !isCount(x.nL) || !isCount(x.nP)) return false;
  const n = x.count;
  const want: [string, number][] = [
    ['t', n],
    ['C', n * x.nC],
    ['lambda', n * x.nL],
    ['cond', n],
    ['condEstimated', n],
    ['energy', 3 * n],
    ['quatDrift', n],
    ['rank', n],
    ['method', n],
    ['poses', n * x.nP],
  ];
  const extrasOk = x.extras === undefined || (Array.isArray(x.extras) && x.extras.length === n && x.extras.every((e) => e === null || isObj(e)));
  return extrasOk && want.every(([k, len]) => lengthOf(x[k]) === len);
}

function toF64(x: unknown): Float64Array {
  if (x instanceof Float64Array) return x;
  if (ArrayBuffer.isView(x) || Array.isArray(x)) return Float64Array.from(x as ArrayLike<number>, Number);
  const n = lengthOf(x);
  const out = new Float64Array(Math.max(0, n));
  for (let i = 0; i < n; i++) out[i] = Number((x as Record<string, unknown>)[String(i)]);
  return out;
}
function toU8(x: unknown): Uint8Array {
  if (x instanceof Uint8Array) return x;
  return Uint8Array.from(toF64(x));
}

/** A validated chunk with every column a typed array of its type (JSON turns them into arrays or objects). */
export function normalizeChunk(c: HistoryChunk): HistoryChunk {
  return {
    from: c.from,
    count: c.count,
    nC: c.nC,
    nL: c.nL,
    nP: c.nP,
    t: toF64(c.t),
    C: toF64(c.C),
    lambda: toF64(c.lambda),
    cond: toF64(c.cond),
    condEstimated: toU8(c.condEstimated),
    energy: toF64(c.energy),
    quatDrift: toF64(c.quatDrift),
    rank: toF64(c.rank),
    method: toU8(c.method),
    poses: toF64(c.poses),
    ...(c.extras ? { extras: c.extras } : {}),
  };
}

/** Record k of a chunk (0 ≤ k < count) as a StepRecord (tests, exports). */
export function chunkRecord(c: HistoryChunk, k: number): StepRecord {
  const cond = c.cond[k];
  return {
    step: c.from + k + 1,
    t: c.t[k],
    C: Array.from(c.C.subarray(k * c.nC, (k + 1) * c.nC)),
    lambda: Array.from(c.lambda.subarray(k * c.nL, (k + 1) * c.nL)),
    cond: { A: Number.isFinite(cond) ? cond : null },
    condEstimated: c.condEstimated[k] === 1,
    energy: { kinetic: c.energy[3 * k], potential: c.energy[3 * k + 1], total: c.energy[3 * k + 2] },
    quatDrift: c.quatDrift[k],
    method: HISTORY_METHODS[c.method[k]] ?? 'none',
    poses: Array.from(c.poses.subarray(k * c.nP, (k + 1) * c.nP)),
    ...(Number.isFinite(c.rank[k]) ? { rank: c.rank[k] } : {}),
    ...(c.extras?.[k] ?? {}),
  };
}
