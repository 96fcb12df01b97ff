// Compressed-sparse-row utilities (pure TypeScript, no dependencies).
import type { CsrMatrix } from './contracts';
import { csrGet, csrToDense, csrToDenseFlat } from '../core/csr';

// The lookups and dense views are the shared ones (also used by the CLI and the panel).
export { csrGet, csrToDense, csrToDenseFlat };

/** Sort the entries lo..hi−1 of one row by column (after a submatrix that reorders columns). */
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

/** ‖M‖₁ (max absolute column sum). `work` (≥ cols entries, overwritten) avoids an allocation. */
export function csrNorm1(m: CsrMatrix, work?: Float64Array): number {
  const s = work ? work.fill(0, 0, m.cols) : new Float64Array(m.cols);
  const nnz = m.rowPtr[m.rows];
  const { colIdx, values } = m;
  for (let p = 0; p < nnz; p++) s[colIdx[p]] += Math.abs(values[p]);
  let mx = 0;
  for (let j = 0; j < m.cols; j++) if (s[j] > mx) mx = s[j];
  return mx;
}
