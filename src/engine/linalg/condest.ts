// Hager / Higham 1-norm condition estimate: κ₁(A) ≈ ‖A‖₁ · est‖A⁻¹‖₁, using a few solves with an
// existing factor (A symmetric, so A⁻ᵀ = A⁻¹ and one solve routine serves both).

export type SolveFn = (b: Float64Array) => Float64Array;

/**
 * Estimate of ‖A⁻¹‖₁ (Hager's algorithm with Higham's extra vector, LAPACK xLACON style).
 * `solve` applies A⁻¹; `solveT` applies A⁻ᵀ (defaults to `solve`, i.e. symmetric A).
 */
export function estimateInverseNorm1(n: number, solve: SolveFn, solveT: SolveFn = solve, maxIter = 5): number {
  if (n === 0) return 0;
  // x and ξ are reused across iterations; `solve`/`solveT` may return the same buffer each call
  // (each result is read before the next call).
  const x = new Float64Array(n).fill(1 / n);
  const xi = new Float64Array(n);
  let est = 0;
  let jPrev = -1;
  for (let iter = 0; iter < maxIter; iter++) {
    const y = solve(x);
    let e = 0;
    for (let i = 0; i < n; i++) e += Math.abs(y[i]);
    if (!Number.isFinite(e)) return Infinity;
    if (iter > 0 && e <= est) {
      est = Math.max(est, e);
      break;
    }
    est = e;
    for (let i = 0; i < n; i++) xi[i] = y[i] >= 0 ? 1 : -1;
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
    if (iter > 0 && (zmax <= ztx || j === jPrev)) break;
    jPrev = j;
    x.fill(0);
    x[j] = 1;
  }
  // Higham's alternating vector guards against Hager's worst cases.
  const b = xi;
  for (let i = 0; i < n; i++) b[i] = (i % 2 === 0 ? 1 : -1) * (1 + (n > 1 ? i / (n - 1) : 0));
  const y = solve(b);
  let e2 = 0;
  for (let i = 0; i < n; i++) e2 += Math.abs(y[i]);
  e2 = (2 * e2) / (3 * n);
  return Math.max(est, e2);
}
