// Hager / Higham 1-norm condition estimate: κ₁(A) ≈ ‖A‖₁ · est‖A⁻¹‖₁, using a few solves with an
// existing factor (A symmetric, so A⁻ᵀ = A⁻¹ and one solve routine serves both).

export type SolveFn = (b: Float64Array) => Float64Array;

/** Scratch and warm start of `estimateInverseNorm1` (kept by a caller that estimates a stream of matrices). */
export interface CondestWork {
  /** Two vectors of ≥ n entries, overwritten by each call. */
  x: Float64Array;
  xi: Float64Array;
  /**
   * In: the column to start from (x = e_start), −1 (or absent, or ≥ n) for Hager's uniform start
   * x = (1/n,…,1/n). Out: the column j of the final unit vector e_j (the maximiser found), −1 if none.
   */
  start?: number;
  /**
   * Higham's alternating vector for this n (`highamVector(n)`), when the caller keeps one: read only,
   * instead of building it into `xi` on every call (the same numbers, so the same estimate).
   */
  alt?: Float64Array;
  /**
   * A⁻¹·e_start and A⁻¹·alt when the caller already solved them with the same `solve` (smallSolve.ts:
   * beside the system's own right-hand side, in one pass over the factor): used instead of
   * those two solves, so the same numbers. Read only, and only by the call they were set for (the
   * caller clears them after it).
   */
  startSolved?: Float64Array;
  altSolved?: Float64Array;
}

/** Higham's alternating vector b_i = (−1)^i·(1 + i/(n−1)), i < n, as `estimateInverseNorm1` builds it. */
export function highamVector(n: number, out: Float64Array = new Float64Array(n)): Float64Array {
  for (let i = 0; i < n; i++) out[i] = (i % 2 === 0 ? 1 : -1) * (1 + (n > 1 ? i / (n - 1) : 0));
  return out;
}

/**
 * Estimate of ‖A⁻¹‖₁ (Hager's algorithm with Higham's extra vector, LAPACK xLACON style).
 * `solve` applies A⁻¹; `solveT` applies A⁻ᵀ (defaults to `solve`, i.e. symmetric A).
 * With `work.start = j` the iteration starts at the vertex e_j instead of the uniform vector (e.g. the
 * maximiser of the previous matrix of a same-pattern stream): when e_j is still a local maximum of
 * ‖A⁻¹x‖₁ on the unit ball (‖A⁻ᵀξ‖∞ ≤ (A⁻ᵀξ)_j, Hager's test) the estimate is ‖A⁻¹e_j‖₁ after two
 * solves instead of four; otherwise the iteration continues as usual. Every value is ‖A⁻¹x‖₁ for
 * some ‖x‖₁ = 1 (a lower bound of ‖A⁻¹‖₁), whichever the start.
 */
export function estimateInverseNorm1(n: number, solve: SolveFn, solveT: SolveFn = solve, maxIter = 5, work?: CondestWork): number {
  if (n === 0) return 0;
  // x and ξ are reused across iterations (and may be the caller's scratch, fully overwritten here);
  // `solve`/`solveT` may return the same buffer each call (each result is read before the next call).
  const x = work ? work.x : new Float64Array(n);
  const xi = work ? work.xi : new Float64Array(n);
  const start = work?.start ?? -1;
  let jPrev = -1;
  if (start >= 0 && start < n) {
    x.fill(0, 0, n);
    x[start] = 1;
    jPrev = start;
  } else x.fill(1 / n, 0, n);
  let est = 0;
  let cur = jPrev; // the vertex x = e_cur being tried (−1: the uniform vector)
  let best = -1; // the vertex that gave est
  const startSolved = jPrev >= 0 ? work?.startSolved : undefined;
  for (let iter = 0; iter < maxIter; iter++) {
    // x = e_start on the first iteration of a warm start: its solve may be given
    const y = iter === 0 && startSolved ? startSolved : solve(x);
    let e = 0;
    for (let i = 0; i < n; i++) e += Math.abs(y[i]);
    if (!Number.isFinite(e)) return Infinity;
    if (iter > 0 && e <= est) {
      est = Math.max(est, e);
      break;
    }
    est = e;
    best = cur;
    let changed = iter === 0;
    for (let i = 0; i < n; i++) {
      const si = y[i] >= 0 ? 1 : -1;
      if (xi[i] !== si) {
        xi[i] = si;
        changed = true;
      }
    }
    // ξ as in the previous iteration: z = A⁻ᵀξ would be the previous z, whose maximiser is the
    // current vertex (j = jPrev below), so the iteration stops here without that solve (LAPACK's test).
    if (!changed) break;
    const z = solveT(xi);
    let j = 0;
    let zmax = -1;
    let ztx = 0;
    for (let i = 0; i < n; i++) {
      const a = Math.abs(z[i]);
      if (a > zmax) {
        zmax = a;
        j = i;
      }
      ztx += z[i] * x[i];
    }
    // From a vertex (iter > 0, or a warm start) stop at a local maximum or a repeated vertex.
    if ((iter > 0 || jPrev >= 0) && (zmax <= ztx || j === jPrev)) break;
    jPrev = j;
    cur = j;
    x.fill(0, 0, n);
    x[j] = 1;
  }
  if (work) work.start = best >= 0 ? best : jPrev;
  // Higham's alternating vector guards against Hager's worst cases.
  const b = work?.alt && work.alt.length === n ? work.alt : highamVector(n, xi);
  const y = b === work?.alt && work.altSolved ? work.altSolved : solve(b);
  let e2 = 0;
  for (let i = 0; i < n; i++) e2 += Math.abs(y[i]);
  e2 = (2 * e2) / (3 * n);
  return Math.max(est, e2);
}
