// Sparse LU with threshold partial pivoting for square unsymmetric matrices (the Newton matrix
// ∂h/∂x of the nonlinear contact system). Left-looking Gilbert–Peierls algorithm (as T. Davis'
// CSparse `cs_lu`): column k of L and U comes from one sparse triangular solve L·x = A(:, q_k)
// whose nonzero pattern is the reach of A(:, q_k) in the graph of L (depth-first search).
// Columns are pre-ordered by AMD on the pattern of A + Aᵀ; a diagonal pivot is kept while it is
// at least `tol`·(largest candidate), which preserves that ordering's low fill when the diagonal
// is strong (the caller orders rows so that it is).
import type { CsrMatrix } from './contracts';
import { amdOrdering } from './ordering';

export interface SparseLu {
  n: number;
  /** Column permutation: column q[k] of A is eliminated k-th. */
  q: Int32Array;
  /** Row permutation: row i of A is pivot row pinv[i]. */
  pinv: Int32Array;
  /** L (unit lower, diagonal stored first) and U (diagonal stored last), column-compressed, permuted numbering. */
  Lp: Int32Array;
  Li: Int32Array;
  Lx: Float64Array;
  Up: Int32Array;
  Ui: Int32Array;
  Ux: Float64Array;
  /** min |u_kk| / max |u_kk| (a cheap reciprocal-condition indicator). */
  pivotRatio: number;
}

export interface SparseLuOptions {
  /** Diagonal preference (0 < tol ≤ 1; 1 = strict partial pivoting). Default 0.1. */
  tol?: number;
  /** Use the natural column order instead of AMD. */
  natural?: boolean;
  /** An explicit column order (overrides `natural`). */
  order?: Int32Array;
}

/** Column-compressed copy of a CSR matrix (= CSR of Aᵀ). */
function toCsc(A: CsrMatrix): { p: Int32Array; i: Int32Array; x: Float64Array } {
  const n = A.cols;
  const cnt = new Int32Array(n + 1);
  const nnz = A.rowPtr[A.rows];
  for (let k = 0; k < nnz; k++) cnt[A.colIdx[k] + 1]++;
  for (let j = 0; j < n; j++) cnt[j + 1] += cnt[j];
  const pos = cnt.slice(0, n);
  const i = new Int32Array(nnz);
  const x = new Float64Array(nnz);
  for (let r = 0; r < A.rows; r++) {
    for (let k = A.rowPtr[r]; k < A.rowPtr[r + 1]; k++) {
      const dst = pos[A.colIdx[k]]++;
      i[dst] = r;
      x[dst] = A.values[k];
    }
  }
  return { p: cnt, i, x };
}

/**
 * Factorise P·A·Q = L·U. Returns undefined when A is structurally or numerically singular
 * (no nonzero candidate pivot in some column) or when a value is not finite.
 */
export function sparseLu(A: CsrMatrix, opts: SparseLuOptions = {}): SparseLu | undefined {
  const n = A.rows;
  if (A.cols !== n) throw new RangeError(`sparseLu: matrix is ${A.rows}×${A.cols}`);
  const tol = opts.tol ?? 0.1;
  const q = opts.order ?? (opts.natural || n === 0 ? Int32Array.from({ length: n }, (_, k) => k) : amdOrdering(A));
  if (q.length !== n) throw new RangeError('sparseLu: column order has the wrong length');
  const B = toCsc(A);
  let cap = Math.max(4 * B.p[n] + n, 16);
  let Li = new Int32Array(cap), Lx = new Float64Array(cap);
  let ucap = cap;
  let Ui = new Int32Array(ucap), Ux = new Float64Array(ucap);
  const Lp = new Int32Array(n + 1);
  const Up = new Int32Array(n + 1);
  const pinv = new Int32Array(n).fill(-1);
  const x = new Float64Array(n);
  const mark = new Uint8Array(n);
  const reach = new Int32Array(n); // output of the DFS (topological order from `top`)
  const stack = new Int32Array(n);
  const pstack = new Int32Array(n);
  let lnz = 0, unz = 0;
  let umin = Infinity, umax = 0;
  for (let k = 0; k < n; k++) {
    Lp[k] = lnz;
    Up[k] = unz;
    if (lnz + n > cap) {
      cap = 2 * cap + n;
      const li = new Int32Array(cap), lx = new Float64Array(cap);
      li.set(Li.subarray(0, lnz));
      lx.set(Lx.subarray(0, lnz));
      Li = li;
      Lx = lx;
    }
    if (unz + n > ucap) {
      ucap = 2 * ucap + n;
      const ui = new Int32Array(ucap), ux = new Float64Array(ucap);
      ui.set(Ui.subarray(0, unz));
      ux.set(Ux.subarray(0, unz));
      Ui = ui;
      Ux = ux;
    }
    const col = q[k];
    // --- reach of A(:, col) in the graph of L (columns of L are indexed by pivot step)
    let top = n;
    for (let p = B.p[col]; p < B.p[col + 1]; p++) {
      const start = B.i[p];
      if (mark[start]) continue;
      let head = 0;
      stack[0] = start;
      while (head >= 0) {
        const j = stack[head];
        const jnew = pinv[j];
        if (!mark[j]) {
          mark[j] = 1;
          pstack[head] = jnew < 0 ? 0 : Lp[jnew] + 1; // skip L's diagonal (first entry)
        }
        let done = true;
        const end = jnew < 0 ? 0 : jnew < k ? Lp[jnew + 1] : lnz;
        for (let pp = pstack[head]; pp < end; pp++) {
          const i = Li[pp];
          if (mark[i]) continue;
          pstack[head] = pp + 1;
          stack[++head] = i;
          done = false;
          break;
        }
        if (done) {
          head--;
          reach[--top] = j;
        }
      }
    }
    // --- sparse triangular solve x = L \ A(:, col) on the reach
    for (let p = top; p < n; p++) x[reach[p]] = 0;
    for (let p = B.p[col]; p < B.p[col + 1]; p++) x[B.i[p]] = B.x[p];
    for (let px = top; px < n; px++) {
      const j = reach[px];
      const J = pinv[j];
      if (J < 0) continue;
      const xj = x[j]; // L has a unit diagonal
      for (let p = Lp[J] + 1; p < Lp[J + 1]; p++) x[Li[p]] -= Lx[p] * xj;
    }
    // --- choose the pivot
    let ipiv = -1;
    let a = -1;
    for (let p = top; p < n; p++) {
      const i = reach[p];
      if (pinv[i] < 0) {
        const t = Math.abs(x[i]);
        if (t > a) {
          a = t;
          ipiv = i;
        }
      } else {
        Ui[unz] = pinv[i];
        Ux[unz++] = x[i];
      }
    }
    for (let p = top; p < n; p++) mark[reach[p]] = 0;
    if (ipiv < 0 || !(a > 0) || !Number.isFinite(a)) return undefined;
    if (pinv[col] < 0 && Math.abs(x[col]) >= a * tol) ipiv = col;
    const pivot = x[ipiv];
    const ap = Math.abs(pivot);
    umin = Math.min(umin, ap);
    umax = Math.max(umax, ap);
    Ui[unz] = k;
    Ux[unz++] = pivot;
    pinv[ipiv] = k;
    Li[lnz] = ipiv;
    Lx[lnz++] = 1;
    for (let p = top; p < n; p++) {
      const i = reach[p];
      if (pinv[i] < 0) {
        Li[lnz] = i;
        Lx[lnz++] = x[i] / pivot;
      }
      x[i] = 0;
    }
  }
  Lp[n] = lnz;
  Up[n] = unz;
  for (let p = 0; p < lnz; p++) Li[p] = pinv[Li[p]];
  return {
    n,
    q,
    pinv,
    Lp,
    Li: Li.slice(0, lnz),
    Lx: Lx.slice(0, lnz),
    Up,
    Ui: Ui.slice(0, unz),
    Ux: Ux.slice(0, unz),
    pivotRatio: n === 0 ? 1 : umin / umax,
  };
}

/** Solve A·x = b with a factorisation from `sparseLu`. */
export function sparseLuSolve(f: SparseLu, b: ArrayLike<number>): Float64Array {
  const n = f.n;
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) y[f.pinv[i]] = b[i];
  for (let j = 0; j < n; j++) {
    const yj = y[j];
    if (yj === 0) continue;
    for (let p = f.Lp[j] + 1; p < f.Lp[j + 1]; p++) y[f.Li[p]] -= f.Lx[p] * yj;
  }
  for (let j = n - 1; j >= 0; j--) {
    const d = f.Up[j + 1] - 1;
    y[j] /= f.Ux[d];
    const yj = y[j];
    if (yj === 0) continue;
    for (let p = f.Up[j]; p < d; p++) y[f.Ui[p]] -= f.Ux[p] * yj;
  }
  const x = new Float64Array(n);
  for (let k = 0; k < n; k++) x[f.q[k]] = y[k];
  return x;
}

/** Entries of L and U (fill measure). */
export const sparseLuNnz = (f: SparseLu): number => f.Lp[f.n] + f.Up[f.n];

/** Solve Aᵀ·x = c with a factorisation of A from `sparseLu`. */
export function sparseLuSolveTranspose(f: SparseLu, c: ArrayLike<number>): Float64Array {
  const n = f.n;
  const v = new Float64Array(n);
  for (let k = 0; k < n; k++) v[k] = c[f.q[k]];
  // Uᵀ·v = c̃ (forward; row j of Uᵀ is column j of U, its diagonal last)
  for (let j = 0; j < n; j++) {
    const d = f.Up[j + 1] - 1;
    let s = v[j];
    for (let p = f.Up[j]; p < d; p++) s -= f.Ux[p] * v[f.Ui[p]];
    v[j] = s / f.Ux[d];
  }
  // Lᵀ·w = v (backward, unit diagonal first in each column of L)
  for (let j = n - 1; j >= 0; j--) {
    let s = v[j];
    for (let p = f.Lp[j] + 1; p < f.Lp[j + 1]; p++) s -= f.Lx[p] * v[f.Li[p]];
    v[j] = s;
  }
  const x = new Float64Array(n);
  for (let i = 0; i < n; i++) x[i] = v[f.pinv[i]];
  return x;
}
