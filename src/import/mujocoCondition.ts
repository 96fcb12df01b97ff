// A cheap estimate of κ₂(A), A = J·M⁻¹·Jᵀ, for the steps of a MuJoCo run between its exact samples.
// The exact κ (the seam's analysis: every eigenvalue of A, the rank, the redundancy, A + R) costs tens
// of mj_steps on a robot, so the live session takes it on a sample of the steps; a step between takes
// this instead: A formed from the step's own efc_J and M (M = L·Lᵀ, A = YᵀY with Y = L⁻¹·Jᵀ), then
// its largest eigenvalue by a few Lanczos steps on A and its smallest by as many on A⁻¹ (A's Cholesky
// solves): one factor of A and a few products with it, where the exact analysis takes every eigenvalue
// of A (and of its Jacobi scaling), the rank, the redundancy and A + R. Both are Ritz values, λmax from
// below and λmin from above, so the estimate never exceeds κ₂, and it is κ₂ up to round-off when A
// has at most LANCZOS_STEPS rows. It is the 2-norm κ the exact samples give, so the history's κ stays
// one quantity; a 1-norm estimate (Hager/Higham) would differ from the samples by up to a factor of
// the row count.
// Singular as the exact analysis rules it: λmin ≤ n·ε·λmax (or a Cholesky pivot that small) is κ = ∞.
import { solverModule, type MjDataLike } from './mujocoSystem';
import type { MjModelHandle, MujocoRuntime } from './mujoco';

const EPS = 2.220446049250313e-16;
/**
 * Lanczos steps of each extreme eigenvalue at most: with n ≤ this many rows the Ritz values are A's
 * eigenvalues (full reorthogonalisation); above, the extreme ones converge first, clusters included
 * (a plain power iteration stalls on two nearly equal top eigenvalues, as a weld's rows have).
 */
const LANCZOS_STEPS = 24;

/** The largest eigenvalue of the symmetric tridiagonal (α on the diagonal, β below it), k × k, by Sturm bisection. */
function tridiagonalMax(alpha: Float64Array, beta: Float64Array, k: number): number {
  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < k; i++) {
    const r = (i > 0 ? Math.abs(beta[i - 1]) : 0) + (i < k - 1 ? Math.abs(beta[i]) : 0);
    lo = Math.min(lo, alpha[i] - r);
    hi = Math.max(hi, alpha[i] + r);
  }
  // count of eigenvalues below x: the negative pivots of T − x·I
  const below = (x: number): number => {
    let c = 0, d = 1;
    for (let i = 0; i < k; i++) {
      d = alpha[i] - x - (i > 0 ? (beta[i - 1] * beta[i - 1]) / d : 0);
      if (d === 0) d = EPS * (Math.abs(x) + 1);
      if (d < 0) c++;
    }
    return c;
  };
  for (let it = 0; it < 200 && hi - lo > 4 * EPS * Math.max(Math.abs(lo), Math.abs(hi)); it++) {
    const mid = 0.5 * (lo + hi);
    if (below(mid) >= k) hi = mid;
    else lo = mid;
  }
  return hi;
}

/**
 * The largest eigenvalue of the symmetric positive semi-definite operator `apply` (y ← Op·x) on ℝⁿ:
 * the largest Ritz value of up to LANCZOS_STEPS Lanczos steps with full reorthogonalisation, from a
 * start vector with a component along every eigenvector of a generic matrix. A Ritz value, so never
 * above the eigenvalue.
 */
function largestEigenvalue(apply: (x: Float64Array, y: Float64Array) => void, n: number): number {
  const k = Math.min(n, LANCZOS_STEPS);
  const Q = new Float64Array(k * n);
  const alpha = new Float64Array(k), beta = new Float64Array(k);
  const w = new Float64Array(n);
  let norm = 0;
  for (let i = 0; i < n; i++) norm += (1 + i / n) ** 2;
  for (let i = 0; i < n; i++) Q[i] = ((i % 2 ? -1 : 1) * (1 + i / n)) / Math.sqrt(norm);
  let steps = 0;
  for (let j = 0; j < k; j++) {
    steps++;
    const q = Q.subarray(j * n, (j + 1) * n);
    apply(q, w);
    let a = 0;
    for (let i = 0; i < n; i++) a += w[i] * q[i];
    if (!Number.isFinite(a)) return Infinity;
    alpha[j] = a;
    // w ⟂ every earlier q (twice: full reorthogonalisation keeps the Ritz values A's)
    for (let pass = 0; pass < 2; pass++)
      for (let l = 0; l <= j; l++) {
        const ql = Q.subarray(l * n, (l + 1) * n);
        let d = 0;
        for (let i = 0; i < n; i++) d += w[i] * ql[i];
        for (let i = 0; i < n; i++) w[i] -= d * ql[i];
      }
    let b = 0;
    for (let i = 0; i < n; i++) b += w[i] * w[i];
    b = Math.sqrt(b);
    // an invariant subspace: the Ritz values so far are eigenvalues
    if (j === k - 1 || !(b > EPS * Math.abs(alpha[0]) * n)) break;
    beta[j] = b;
    const next = Q.subarray((j + 1) * n, (j + 2) * n);
    for (let i = 0; i < n; i++) next[i] = w[i] / b;
  }
  return tridiagonalMax(alpha, beta, steps);
}

/**
 * Estimate κ₂ of the symmetric positive semi-definite n × n matrix `A` (dense, row-major; only read):
 * λmax by Lanczos on A, λmin as 1/λmax of A⁻¹ by Lanczos on A's Cholesky solves (module comment).
 * Infinity when A is singular by the exact analysis's rule.
 */
export function cond2Estimate(A: Float64Array, n: number): number {
  const lmax = largestEigenvalue(
    (x, y) => {
      for (let i = 0; i < n; i++) {
        let s = 0;
        const r = i * n;
        for (let j = 0; j < n; j++) s += A[r + j] * x[j];
        y[i] = s;
      }
    },
    n,
  );
  if (!(lmax > 0) || !Number.isFinite(lmax)) return Infinity;
  const tol = n * EPS * lmax;
  // Cholesky A = L·Lᵀ (lower, row-major); a pivot at or below the tolerance is a singular A
  const L = new Float64Array(n * n);
  for (let j = 0; j < n; j++) {
    let d = A[j * n + j];
    for (let k = 0; k < j; k++) d -= L[j * n + k] * L[j * n + k];
    if (!(d > tol)) return Infinity;
    const ljj = Math.sqrt(d);
    L[j * n + j] = ljj;
    for (let i = j + 1; i < n; i++) {
      let s = A[i * n + j];
      for (let k = 0; k < j; k++) s -= L[i * n + k] * L[j * n + k];
      L[i * n + j] = s / ljj;
    }
  }
  const inv = largestEigenvalue(
    (x, y) => {
      // L·w = x, then Lᵀ·y = w
      for (let i = 0; i < n; i++) {
        let s = x[i];
        for (let k = 0; k < i; k++) s -= L[i * n + k] * y[k];
        y[i] = s / L[i * n + i];
      }
      for (let i = n - 1; i >= 0; i--) {
        let s = y[i];
        for (let k = i + 1; k < n; k++) s -= L[k * n + i] * y[k];
        y[i] = s / L[i * n + i];
      }
    },
    n,
  );
  const lmin = 1 / inv;
  return Number.isFinite(lmin) && lmin > tol ? lmax / lmin : Infinity;
}

/**
 * A = J·M⁻¹·Jᵀ (m × m, dense) from J (m × nv, dense, row-major) and M (nv × nv, dense symmetric
 * positive definite): M = L·Lᵀ, Y = L⁻¹·Jᵀ, A = YᵀY. Undefined when M is not positive definite.
 */
export function formDenseA(J: Float64Array, m: number, M: Float64Array, nv: number, out: Float64Array = new Float64Array(m * m)): Float64Array | undefined {
  const L = new Float64Array(nv * nv);
  for (let j = 0; j < nv; j++) {
    let d = M[j * nv + j];
    for (let k = 0; k < j; k++) d -= L[j * nv + k] * L[j * nv + k];
    if (!(d > 0)) return undefined;
    const ljj = Math.sqrt(d);
    L[j * nv + j] = ljj;
    for (let i = j + 1; i < nv; i++) {
      let s = M[i * nv + j];
      for (let k = 0; k < j; k++) s -= L[i * nv + k] * L[j * nv + k];
      L[i * nv + j] = s / ljj;
    }
  }
  // Y's column r (row r of Yᵀ, kept as row r of Yt) = L⁻¹·(row r of J)
  const Yt = new Float64Array(m * nv);
  for (let r = 0; r < m; r++) {
    const o = r * nv;
    for (let i = 0; i < nv; i++) {
      let s = J[o + i];
      for (let k = 0; k < i; k++) s -= L[i * nv + k] * Yt[o + k];
      Yt[o + i] = s / L[i * nv + i];
    }
  }
  for (let r = 0; r < m; r++)
    for (let c = 0; c <= r; c++) {
      let s = 0;
      const a = r * nv, b = c * nv;
      for (let i = 0; i < nv; i++) s += Yt[a + i] * Yt[b + i];
      out[r * m + c] = s;
      out[c * m + r] = s;
    }
  return out;
}

/** The estimate for a run: MuJoCo's buffer for M kept between steps. */
export class MujocoConditionEstimator {
  private mBuf?: { GetView(): Float64Array; delete(): void };

  constructor(
    private readonly rt: MujocoRuntime,
    private readonly nv: number,
  ) {}

  /**
   * κ₂ estimate of A of the system MuJoCo's data holds (after mj_step: the system that step solved,
   * as MujocoRun.lastSystem reads it); undefined without rows or with an M that is not positive definite
   * (the exact analysis says why there).
   */
  estimate(m: MjModelHandle, d: MjDataLike): number | undefined {
    const nefc = Number(d.nefc), nv = this.nv;
    if (nefc === 0 || nv === 0) return undefined;
    const J = new Float64Array(nefc * nv);
    const values = d.efc_J as ArrayLike<number>;
    if (values.length < nefc * nv) {
      // MuJoCo's sparse efc_J (m.opt.jacobian and nv decide)
      const rownnz = d.efc_J_rownnz as ArrayLike<number>, rowadr = d.efc_J_rowadr as ArrayLike<number>, colind = d.efc_J_colind as ArrayLike<number>;
      for (let r = 0; r < nefc; r++) for (let k = 0; k < rownnz[r]; k++) J[r * nv + colind[rowadr[r] + k]] = values[rowadr[r] + k];
    } else J.set((values as Float64Array).subarray(0, nefc * nv));
    const mj = solverModule(this.rt);
    this.mBuf ??= new mj.DoubleBuffer(Math.max(1, nv * nv)) as unknown as { GetView(): Float64Array; delete(): void };
    mj.mj_fullM(m, d, this.mBuf as never);
    const A = formDenseA(J, nefc, this.mBuf.GetView(), nv);
    if (!A) return undefined;
    for (let i = 0; i < A.length; i++) if (!Number.isFinite(A[i])) return Infinity;
    return cond2Estimate(A, nefc);
  }

  dispose(): void {
    this.mBuf?.delete();
    this.mBuf = undefined;
  }
}
