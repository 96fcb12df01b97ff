// J·x and Jᵀ·y for the assembled Jacobian, whose rows are runs of 6 consecutive columns (one run per
// end body of the row's constraint: assemble.ts writes J row by row, body block by body block).
// The same products and sums, in the same order, as linalg/sparse.ts csrMulVec / csrTransposeMulVec
// (bit-identical results), with one column index read per run instead of one per entry (issue 9:
// three such products per step). A pattern that is not made of such runs takes the general kernels.
import { csrMulVec, csrTransposeMulVec } from './linalg/sparse';
import type { CsrMatrix } from './linalg/types';

/** Per column-index array (J's pattern, the world's: never written after buildWorld): whether every row is runs of 6. */
const runsOf = new WeakMap<Int32Array, boolean>();

function hasRuns(m: CsrMatrix): boolean {
  let r = runsOf.get(m.colIdx);
  if (r === undefined) {
    r = true;
    const { rowPtr, colIdx } = m;
    for (let i = 0; i < m.rows && r; i++) {
      if ((rowPtr[i + 1] - rowPtr[i]) % 6 !== 0) r = false;
      for (let p = rowPtr[i]; p < rowPtr[i + 1] && r; p += 6) for (let d = 1; d < 6; d++) if (colIdx[p + d] !== colIdx[p] + d) r = false;
    }
    runsOf.set(m.colIdx, r);
  }
  return r;
}

/** y = J·x (csrMulVec). */
export function jMulVec(m: CsrMatrix, x: ArrayLike<number>, out?: Float64Array): Float64Array {
  if (!hasRuns(m)) return csrMulVec(m, x, out);
  const y = out ?? new Float64Array(m.rows);
  const { rowPtr, colIdx, values } = m;
  for (let i = 0; i < m.rows; i++) {
    let s = 0;
    for (let p = rowPtr[i], e = rowPtr[i + 1]; p < e; p += 6) {
      const c = colIdx[p];
      s += values[p] * x[c];
      s += values[p + 1] * x[c + 1];
      s += values[p + 2] * x[c + 2];
      s += values[p + 3] * x[c + 3];
      s += values[p + 4] * x[c + 4];
      s += values[p + 5] * x[c + 5];
    }
    y[i] = s;
  }
  return y;
}

/** y = Jᵀ·x (csrTransposeMulVec: rows with x_i = 0 skipped). */
export function jTransposeMulVec(m: CsrMatrix, x: ArrayLike<number>, out?: Float64Array): Float64Array {
  if (!hasRuns(m)) return csrTransposeMulVec(m, x, out);
  const y = out ?? new Float64Array(m.cols);
  y.fill(0, 0, m.cols);
  const { rowPtr, colIdx, values } = m;
  for (let i = 0; i < m.rows; i++) {
    const xi = x[i];
    if (xi === 0) continue;
    for (let p = rowPtr[i], e = rowPtr[i + 1]; p < e; p += 6) {
      const c = colIdx[p];
      y[c] += values[p] * xi;
      y[c + 1] += values[p + 1] * xi;
      y[c + 2] += values[p + 2] * xi;
      y[c + 3] += values[p + 3] * xi;
      y[c + 4] += values[p + 4] * xi;
      y[c + 5] += values[p + 5] * xi;
    }
  }
  return y;
}
