// Repeated assembly of a sparse matrix whose entries are added in the same (row, column) sequence
// every time (the Newton matrix of one step): the first pass sorts the triplets into CSR and keeps
// each triplet's slot; later passes only add values into their slots. If a pass deviates from the
// recorded sequence, the pattern is rebuilt, so the result is always the summed triplets.
import type { CsrMatrix } from './contracts';

const cache = new WeakMap<object, PatternAssembler>();

/** The assembler kept for `owner` (e.g. the world: consecutive steps usually repeat the pattern). */
export function assemblerFor(owner: object, rows: number, cols: number): PatternAssembler {
  let a = cache.get(owner);
  if (!a || a.rows !== rows || a.cols !== cols) cache.set(owner, (a = new PatternAssembler(rows, cols)));
  return a;
}

export class PatternAssembler {
  private ri = new Int32Array(256);
  private ci = new Int32Array(256);
  private vs = new Float64Array(256);
  private count = 0;
  private slot: Int32Array | null = null;
  private recorded = 0;
  private rowPtr: Int32Array | null = null;
  private colIdx: Int32Array | null = null;
  private values: Float64Array | null = null;
  private same = true;

  constructor(
    readonly rows: number,
    readonly cols: number,
  ) {}

  begin(): this {
    this.count = 0;
    this.same = this.slot !== null;
    if (this.values) this.values = new Float64Array(this.values.length);
    return this;
  }

  add(i: number, j: number, v: number): void {
    const k = this.count++;
    if (k >= this.ri.length) this.grow();
    this.ri[k] = i;
    this.ci[k] = j;
    this.vs[k] = v;
    if (this.same) {
      if (k < this.recorded && this.slotRow(k) === i && this.colIdx![this.slot![k]] === j) this.values![this.slot![k]] += v;
      else this.same = false;
    }
  }

  /** The matrix of this pass (rowPtr/colIdx shared between passes with the same pattern, values fresh). */
  end(): CsrMatrix {
    if (!this.same || this.count !== this.recorded) this.rebuild();
    return { rows: this.rows, cols: this.cols, rowPtr: this.rowPtr!, colIdx: this.colIdx!, values: this.values! };
  }

  private rowOfSlot: Int32Array | null = null;
  private slotRow(k: number): number {
    return this.rowOfSlot![this.slot![k]];
  }

  private grow(): void {
    const n = 2 * this.ri.length;
    const ri = new Int32Array(n), ci = new Int32Array(n), vs = new Float64Array(n);
    ri.set(this.ri);
    ci.set(this.ci);
    vs.set(this.vs);
    this.ri = ri;
    this.ci = ci;
    this.vs = vs;
  }

  private rebuild(): void {
    const t = this.count, rows = this.rows;
    for (let k = 0; k < t; k++) {
      if (this.ri[k] < 0 || this.ri[k] >= rows || this.ci[k] < 0 || this.ci[k] >= this.cols) {
        throw new RangeError(`PatternAssembler.add: (${this.ri[k]}, ${this.ci[k]}) outside ${rows}×${this.cols}`);
      }
    }
    // triplets by row (counting sort), then by column within each row; duplicates share a slot
    const cnt = new Int32Array(rows + 1);
    for (let k = 0; k < t; k++) cnt[this.ri[k] + 1]++;
    for (let i = 0; i < rows; i++) cnt[i + 1] += cnt[i];
    const pos = cnt.slice(0, rows);
    const byRow = new Int32Array(t);
    for (let k = 0; k < t; k++) byRow[pos[this.ri[k]]++] = k;
    const slot = new Int32Array(t);
    const rowPtr = new Int32Array(rows + 1);
    const col: number[] = [];
    const ci = this.ci;
    for (let i = 0; i < rows; i++) {
      const lo = cnt[i], hi = cnt[i + 1];
      // insertion sort of the row's triplets by column (rows are short and mostly in order)
      for (let p = lo + 1; p < hi; p++) {
        const kk = byRow[p], c = ci[kk];
        let q = p - 1;
        while (q >= lo && ci[byRow[q]] > c) {
          byRow[q + 1] = byRow[q];
          q--;
        }
        byRow[q + 1] = kk;
      }
      for (let p = lo; p < hi; p++) {
        if (p === lo || ci[byRow[p]] !== ci[byRow[p - 1]]) col.push(ci[byRow[p]]);
        slot[byRow[p]] = col.length - 1;
      }
      rowPtr[i + 1] = col.length;
    }
    const colIdx = Int32Array.from(col);
    const values = new Float64Array(col.length);
    for (let k = 0; k < t; k++) values[slot[k]] += this.vs[k];
    const rowOfSlot = new Int32Array(col.length);
    for (let i = 0; i < rows; i++) rowOfSlot.fill(i, rowPtr[i], rowPtr[i + 1]);
    this.slot = slot;
    this.recorded = t;
    this.rowPtr = rowPtr;
    this.colIdx = colIdx;
    this.values = values;
    this.rowOfSlot = rowOfSlot;
  }
}
