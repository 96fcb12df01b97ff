// Compressed-sparse-row utilities (pure TypeScript, no dependencies).
import { cumsum } from '../offsets';
import type { CsrMatrix } from './types';
import { csrGet, csrToDense, csrToDenseFlat } from '../../shared/csr';

// The lookups and dense views are the shared ones (also used by the CLI and the panel).
export { csrGet, csrToDense, csrToDenseFlat };

/** Accumulates (row, col, value) triplets; `build()` sums duplicates and sorts columns within rows. */
export class CsrBuilder {
  private ri: number[] = [];
  private ci: number[] = [];
  private vs: number[] = [];
  constructor(
    readonly rows: number,
    readonly cols: number,
  ) {}

  add(i: number, j: number, v: number): this {
    if (i < 0 || i >= this.rows || j < 0 || j >= this.cols || !Number.isInteger(i) || !Number.isInteger(j)) {
      throw new RangeError(`CsrBuilder.add: (${i}, ${j}) outside ${this.rows}×${this.cols}`);
    }
    this.ri.push(i);
    this.ci.push(j);
    this.vs.push(v);
    return this;
  }

  /** Number of triplets added so far (before duplicates are summed). */
  get count(): number {
    return this.vs.length;
  }

  /** Builds the CSR matrix. Duplicates are summed; explicit zeros are kept unless `dropZeros`. */
  build(dropZeros = false): CsrMatrix {
    const { rows, cols } = this;
    const t = this.vs.length;
    // Bucket by row (counting sort), then sort each row by column and merge duplicates.
    const cnt = new Int32Array(rows + 1);
    for (let k = 0; k < t; k++) cnt[this.ri[k] + 1]++;
    cumsum(cnt);
    const pos = cnt.slice(0, rows);
    const cj = new Int32Array(t);
    const cv = new Float64Array(t);
    for (let k = 0; k < t; k++) {
      const p = pos[this.ri[k]]++;
      cj[p] = this.ci[k];
      cv[p] = this.vs[k];
    }
    // Merge per row using a dense marker (column -> position in output).
    const mark = new Int32Array(cols).fill(-1);
    const rowPtr = new Int32Array(rows + 1);
    const outJ = new Int32Array(t);
    const outV = new Float64Array(t);
    let nz = 0;
    for (let i = 0; i < rows; i++) {
      const start = nz;
      for (let p = cnt[i]; p < cnt[i + 1]; p++) {
        const j = cj[p];
        const q = mark[j];
        if (q >= start) outV[q] += cv[p];
        else {
          mark[j] = nz;
          outJ[nz] = j;
          outV[nz++] = cv[p];
        }
      }
      sortRow(outJ, outV, start, nz);
      if (dropZeros) {
        let w = start;
        for (let p = start; p < nz; p++) {
          if (outV[p] !== 0) {
            outJ[w] = outJ[p];
            outV[w++] = outV[p];
          }
        }
        nz = w;
      }
      rowPtr[i + 1] = nz;
    }
    return { rows, cols, rowPtr, colIdx: outJ.slice(0, nz), values: outV.slice(0, nz) };
  }
}

function sortRow(j: Int32Array, v: Float64Array, lo: number, hi: number): void {
  // Insertion sort (rows are short); fall back to index sort for long rows.
  if (hi - lo > 32) {
    const idx = Array.from({ length: hi - lo }, (_, k) => lo + k).sort((a, b) => j[a] - j[b]);
    const jj = idx.map((p) => j[p]);
    const vv = idx.map((p) => v[p]);
    for (let k = 0; k < idx.length; k++) {
      j[lo + k] = jj[k];
      v[lo + k] = vv[k];
    }
    return;
  }
  for (let p = lo + 1; p < hi; p++) {
    const kj = j[p];
    const kv = v[p];
    let q = p - 1;
    while (q >= lo && j[q] > kj) {
      j[q + 1] = j[q];
      v[q + 1] = v[q];
      q--;
    }
    j[q + 1] = kj;
    v[q + 1] = kv;
  }
}

/** Dense (array of rows) → CSR; exact zeros are not stored. */
export function csrFromDense(a: ArrayLike<number>[], cols?: number): CsrMatrix {
  const rows = a.length;
  const nc = cols ?? (rows > 0 ? a[0].length : 0);
  let nnz = 0;
  for (let i = 0; i < rows; i++) for (let j = 0; j < nc; j++) if (a[i][j] !== 0) nnz++;
  const rowPtr = new Int32Array(rows + 1);
  const colIdx = new Int32Array(nnz);
  const values = new Float64Array(nnz);
  let p = 0;
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < nc; j++) {
      const v = a[i][j];
      if (v !== 0) {
        colIdx[p] = j;
        values[p++] = v;
      }
    }
    rowPtr[i + 1] = p;
  }
  return { rows, cols: nc, rowPtr, colIdx, values };
}

/** y = M·x. */
export function csrMulVec(m: CsrMatrix, x: ArrayLike<number>, out?: Float64Array): Float64Array {
  const y = out ?? new Float64Array(m.rows);
  const { rowPtr, colIdx, values } = m;
  for (let i = 0; i < m.rows; i++) {
    let s = 0;
    for (let p = rowPtr[i]; p < rowPtr[i + 1]; p++) s += values[p] * x[colIdx[p]];
    y[i] = s;
  }
  return y;
}

/** y = Mᵀ·x. */
export function csrTransposeMulVec(m: CsrMatrix, x: ArrayLike<number>, out?: Float64Array): Float64Array {
  const y = out ?? new Float64Array(m.cols);
  y.fill(0, 0, m.cols);
  const { rowPtr, colIdx, values } = m;
  for (let i = 0; i < m.rows; i++) {
    const xi = x[i];
    if (xi === 0) continue;
    for (let p = rowPtr[i]; p < rowPtr[i + 1]; p++) y[colIdx[p]] += values[p] * xi;
  }
  return y;
}

export function csrTranspose(m: CsrMatrix): CsrMatrix {
  const nnz = m.rowPtr[m.rows];
  const rowPtr = new Int32Array(m.cols + 1);
  for (let p = 0; p < nnz; p++) rowPtr[m.colIdx[p] + 1]++;
  cumsum(rowPtr);
  const next = rowPtr.slice(0, m.cols);
  const colIdx = new Int32Array(nnz);
  const values = new Float64Array(nnz);
  for (let i = 0; i < m.rows; i++) {
    for (let p = m.rowPtr[i]; p < m.rowPtr[i + 1]; p++) {
      const q = next[m.colIdx[p]]++;
      colIdx[q] = i;
      values[q] = m.values[p];
    }
  }
  return { rows: m.cols, cols: m.rows, rowPtr, colIdx, values };
}

export function csrNnz(m: CsrMatrix): number {
  return m.rowPtr[m.rows];
}

/**
 * M(rowsIdx, colsIdx): the submatrix with the given rows and columns, in the order given
 * (e.g. one island's rows of A). Indices must be distinct.
 */
export function csrSubmatrix(m: CsrMatrix, rowsIdx: ArrayLike<number>, colsIdx: ArrayLike<number>): CsrMatrix {
  const colMap = new Int32Array(m.cols).fill(-1);
  for (let k = 0; k < colsIdx.length; k++) colMap[colsIdx[k]] = k;
  const nr = rowsIdx.length;
  const rowPtr = new Int32Array(nr + 1);
  let nnz = 0;
  for (let k = 0; k < nr; k++) {
    const i = rowsIdx[k];
    for (let p = m.rowPtr[i]; p < m.rowPtr[i + 1]; p++) if (colMap[m.colIdx[p]] >= 0) nnz++;
    rowPtr[k + 1] = nnz;
  }
  const colIdx = new Int32Array(nnz);
  const values = new Float64Array(nnz);
  let q = 0;
  let sorted = true;
  for (let k = 0; k < nr; k++) {
    const i = rowsIdx[k];
    const start = q;
    for (let p = m.rowPtr[i]; p < m.rowPtr[i + 1]; p++) {
      const c = colMap[m.colIdx[p]];
      if (c >= 0) {
        if (q > start && colIdx[q - 1] > c) sorted = false;
        colIdx[q] = c;
        values[q++] = m.values[p];
      }
    }
  }
  if (!sorted) for (let k = 0; k < nr; k++) sortRow(colIdx, values, rowPtr[k], rowPtr[k + 1]);
  return { rows: nr, cols: colsIdx.length, rowPtr, colIdx, values };
}

/** M + s·I (square M); the result always stores every diagonal entry. */
export function csrAddDiagonal(m: CsrMatrix, s: number | ArrayLike<number>): CsrMatrix {
  const n = m.rows;
  let missing = 0;
  for (let i = 0; i < n && i < m.cols; i++) {
    let has = false;
    for (let p = m.rowPtr[i]; p < m.rowPtr[i + 1]; p++) if (m.colIdx[p] === i) has = true;
    if (!has) missing++;
  }
  const nnz = m.rowPtr[n] + missing;
  const rowPtr = new Int32Array(n + 1);
  const colIdx = new Int32Array(nnz);
  const values = new Float64Array(nnz);
  let q = 0;
  for (let i = 0; i < n; i++) {
    const si = typeof s === 'number' ? s : s[i];
    let done = i >= m.cols;
    for (let p = m.rowPtr[i]; p < m.rowPtr[i + 1]; p++) {
      const j = m.colIdx[p];
      if (!done && j > i) {
        colIdx[q] = i;
        values[q++] = si;
        done = true;
      }
      colIdx[q] = j;
      values[q] = m.values[p];
      if (j === i) {
        values[q] += si;
        done = true;
      }
      q++;
    }
    if (!done) {
      colIdx[q] = i;
      values[q++] = si;
    }
    rowPtr[i + 1] = q;
  }
  return { rows: n, cols: m.cols, rowPtr, colIdx, values };
}

/** Same sparsity pattern (rowPtr and colIdx equal)? */
export function csrSamePattern(a: CsrMatrix, b: CsrMatrix): boolean {
  if (a.rows !== b.rows || a.cols !== b.cols) return false;
  if (a.rowPtr === b.rowPtr && a.colIdx === b.colIdx) return true;
  const n = a.rows;
  for (let i = 0; i <= n; i++) if (a.rowPtr[i] !== b.rowPtr[i]) return false;
  const nnz = a.rowPtr[n];
  for (let p = 0; p < nnz; p++) if (a.colIdx[p] !== b.colIdx[p]) return false;
  return true;
}

/** ‖M‖₁ (max absolute column sum). */
export function csrNorm1(m: CsrMatrix): number {
  const s = new Float64Array(m.cols);
  const nnz = m.rowPtr[m.rows];
  const { colIdx, values } = m;
  for (let p = 0; p < nnz; p++) s[colIdx[p]] += Math.abs(values[p]);
  let mx = 0;
  for (let j = 0; j < m.cols; j++) if (s[j] > mx) mx = s[j];
  return mx;
}

/** J·diag(d)·Jᵀ (e.g. the Schur complement J·M⁻¹·Jᵀ for a diagonal M⁻¹), full symmetric CSR. */
export function csrMulDiagTranspose(J: CsrMatrix, d?: ArrayLike<number>): CsrMatrix {
  const Jt = csrTranspose(J); // columns of J as rows: for each dof, the rows touching it
  const m = J.rows;
  const mark = new Int32Array(m).fill(-1);
  const acc = new Float64Array(m);
  const rowPtr = new Int32Array(m + 1);
  let cap = Math.max(16, J.rowPtr[m] * 4);
  let colIdx = new Int32Array(cap);
  let values = new Float64Array(cap);
  let nz = 0;
  const list: number[] = [];
  for (let i = 0; i < m; i++) {
    list.length = 0;
    for (let p = J.rowPtr[i]; p < J.rowPtr[i + 1]; p++) {
      const k = J.colIdx[p];
      const v = J.values[p] * (d ? d[k] : 1);
      for (let q = Jt.rowPtr[k]; q < Jt.rowPtr[k + 1]; q++) {
        const j = Jt.colIdx[q];
        if (mark[j] !== i) {
          mark[j] = i;
          acc[j] = 0;
          list.push(j);
        }
        acc[j] += v * Jt.values[q];
      }
    }
    list.sort((a, b) => a - b);
    if (nz + list.length > cap) {
      cap = Math.max(cap * 2, nz + list.length);
      const c2 = new Int32Array(cap);
      c2.set(colIdx.subarray(0, nz));
      colIdx = c2;
      const v2 = new Float64Array(cap);
      v2.set(values.subarray(0, nz));
      values = v2;
    }
    for (const j of list) {
      colIdx[nz] = j;
      values[nz++] = acc[j];
    }
    rowPtr[i + 1] = nz;
  }
  return { rows: m, cols: m, rowPtr, colIdx: colIdx.slice(0, nz), values: values.slice(0, nz) };
}
