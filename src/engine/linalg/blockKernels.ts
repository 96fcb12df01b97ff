// Kernels of the sparse solve path (solve.ts) for symmetric matrices: ‖A‖₁ by rows, and the
// residual of a matrix made of whole 3×3 blocks (blockLdl.ts) without reading a column index per entry.
import type { CsrMatrix } from './contracts';

/**
 * ‖A‖₁ of a symmetric A (full storage) as its largest row sum of |a_ij| (= the largest column sum,
 * ‖A‖₁ = ‖A‖∞ for symmetric A): one pass over the values in storage order, no scatter. Equals
 * `csrNorm1` bit for bit when A is exactly symmetric (row j's entries in column order are column j's
 * in row order, the order in which csrNorm1 sums them), else to round-off. NaN or ±∞ in A gives a
 * non-finite result.
 */
export function symmetricNorm1(A: CsrMatrix): number {
  const { rowPtr, values } = A;
  const n = A.rows;
  let mx = 0;
  let bad = false;
  for (let i = 0, p = rowPtr[0]; i < n; i++) {
    let s = 0;
    for (const e = rowPtr[i + 1]; p < e; p++) s += Math.abs(values[p]);
    if (s > mx) mx = s;
    else if (!(s <= mx)) bad = true; // NaN
  }
  return bad ? NaN : mx;
}

/**
 * ‖(A + shift·I)·x − b‖₂ with the residual b − (A + shift·I)·x written to r, for an A whose rows
 * 3K..3K+2 share one pattern of whole 3×3 blocks (the matrices blockLdl.ts plans): one column index
 * read per block. The same operations in the same order as solve.ts's scalar residual (each row's
 * sum in column order, then b − A·x − shift·x, the squares summed row by row): bit for bit its result.
 */
export function blockResidual(A: CsrMatrix, shift: number, x: Float64Array, b: ArrayLike<number>, r: Float64Array): number {
  const { rowPtr, colIdx, values: v } = A;
  const nb = A.rows / 3;
  let sq = 0;
  for (let K = 0; K < nb; K++) {
    const k = 3 * K;
    const p0 = rowPtr[k];
    const len = rowPtr[k + 1] - p0;
    let a0 = 0, a1 = 0, a2 = 0;
    for (let p = p0, e = p0 + len; p < e; p += 3) {
      const c = colIdx[p];
      const x0 = x[c], x1 = x[c + 1], x2 = x[c + 2];
      const q = p + len, u = q + len;
      a0 += v[p] * x0;
      a0 += v[p + 1] * x1;
      a0 += v[p + 2] * x2;
      a1 += v[q] * x0;
      a1 += v[q + 1] * x1;
      a1 += v[q + 2] * x2;
      a2 += v[u] * x0;
      a2 += v[u + 1] * x1;
      a2 += v[u + 2] * x2;
    }
    const r0 = b[k] - a0 - shift * x[k];
    const r1 = b[k + 1] - a1 - shift * x[k + 1];
    const r2 = b[k + 2] - a2 - shift * x[k + 2];
    r[k] = r0;
    r[k + 1] = r1;
    r[k + 2] = r2;
    sq += r0 * r0;
    sq += r1 * r1;
    sq += r2 * r2;
  }
  return Math.sqrt(sq);
}
