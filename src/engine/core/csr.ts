// Compressed-sparse-row views and lookups, written once for the engine (linalg/sparse.ts), the
// CLI and the panel. Column indices within a row are strictly increasing. Pure: no vscode, no
// DOM, no Node APIs.

/** Any CSR matrix (the engine's CsrMatrix, a panel MatrixSource, arrays decoded from JSON). */
export interface CsrView {
  rows: number;
  cols: number;
  rowPtr: ArrayLike<number>;
  colIdx: ArrayLike<number>;
  values: ArrayLike<number>;
}

/** A CSR matrix with typed arrays (structurally the engine's CsrMatrix). */
export interface CsrArrays extends CsrView {
  rowPtr: Int32Array;
  colIdx: Int32Array;
  values: Float64Array;
}

/** First storage index k in row i with colIdx[k] ≥ j (rowPtr[i + 1] when there is none). */
export function csrLowerBound(m: CsrView, i: number, j: number): number {
  let lo = m.rowPtr[i];
  let hi = m.rowPtr[i + 1];
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (m.colIdx[mid] < j) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Storage index of (i, j), or -1 when (i, j) is a structural zero. */
export function csrFind(m: CsrView, i: number, j: number): number {
  const k = csrLowerBound(m, i, j);
  return k < m.rowPtr[i + 1] && m.colIdx[k] === j ? k : -1;
}

/** M(i, j); 0 when not stored. */
export function csrGet(m: CsrView, i: number, j: number): number {
  const k = csrFind(m, i, j);
  return k < 0 ? 0 : m.values[k];
}

/** M(i, j) and whether it is in the sparsity pattern (a stored 0 is not a structural zero). */
export function csrEntry(m: CsrView, i: number, j: number): { value: number; stored: boolean } {
  const k = csrFind(m, i, j);
  return k < 0 ? { value: 0, stored: false } : { value: m.values[k], stored: true };
}

/** Dense rows (for small matrices: printing, JSON, tests); duplicate entries are summed. */
export function csrToDense(m: CsrView): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < m.rows; i++) {
    const row = new Array<number>(m.cols).fill(0);
    for (let p = m.rowPtr[i]; p < m.rowPtr[i + 1]; p++) row[m.colIdx[p]] += m.values[p];
    out.push(row);
  }
  return out;
}

/** Row-major flat dense copy (rows × cols); duplicate entries are summed. */
export function csrToDenseFlat(m: CsrView): Float64Array {
  const out = new Float64Array(m.rows * m.cols);
  for (let i = 0; i < m.rows; i++) {
    const o = i * m.cols;
    for (let p = m.rowPtr[i]; p < m.rowPtr[i + 1]; p++) out[o + m.colIdx[p]] += m.values[p];
  }
  return out;
}

/**
 * A block-diagonal matrix from square `size`×`size` blocks stored row-major one after the other
 * (M⁻¹ from `SystemSnapshot.MinvBlocks`, size 6). `dropZeros`: exact zeros inside a block are not
 * stored (the CLI's summaries); otherwise every block entry is (the panel's block pattern).
 */
export function blockDiagonalCsr(blocks: ArrayLike<number>, size: number, dropZeros = false): CsrArrays {
  const bb = size * size;
  const nb = Math.floor(blocks.length / bb);
  const n = nb * size;
  const rowPtr = new Int32Array(n + 1);
  const colIdx = new Int32Array(nb * bb);
  const values = new Float64Array(nb * bb);
  let nz = 0;
  for (let b = 0; b < nb; b++) {
    for (let r = 0; r < size; r++) {
      for (let c = 0; c < size; c++) {
        const v = blocks[b * bb + r * size + c];
        if (dropZeros && v === 0) continue;
        colIdx[nz] = b * size + c;
        values[nz++] = v;
      }
      rowPtr[b * size + r + 1] = nz;
    }
  }
  return { rows: n, cols: n, rowPtr, colIdx: colIdx.slice(0, nz), values: values.slice(0, nz) };
}

/** Largest and smallest non-zero |value| over the finite stored values (minAbs = maxAbs when none is non-zero). */
export function absRange(values: ArrayLike<number>): { maxAbs: number; minAbs: number } {
  let maxAbs = 0;
  let minAbs = Infinity;
  for (let k = 0; k < values.length; k++) {
    const a = Math.abs(values[k]);
    if (!Number.isFinite(a)) continue;
    if (a > maxAbs) maxAbs = a;
    if (a > 0 && a < minAbs) minAbs = a;
  }
  return { maxAbs, minAbs: Number.isFinite(minAbs) ? minAbs : maxAbs };
}
