// Singular value decomposition with a bounded amount of work: one-sided Jacobi (Hestenes) rotations
// on the columns, at most `maxSweeps` sweeps. ml-matrix's SVD (Golub–Kahan, JAMA's loop) iterates
// until its convergence test holds, with no cap: on subnormal entries that test is never met and the
// call never returns. Here every input either converges (quadratically, a handful of sweeps in
// practice) or stops at the cap with a failure that says so; non-finite input is refused first.
import { failure, type Failure } from './contracts';

const EPS = 2 ** -52;

/** Sweeps over all column pairs before giving up (Jacobi converges in 6–12 for n in the hundreds). */
export const SVD_MAX_SWEEPS = 60;

/** A = U·diag(s)·Vᵀ, thin: U is m×k, V is n×k, k = min(m, n); columns stored contiguously. */
export interface Svd {
  ok: true;
  /** Singular values, not sorted. */
  s: Float64Array;
  /** Column j of U is u[j] (length m); a zero column where s[j] = 0. */
  u: Float64Array[];
  /** Column j of V is v[j] (length n). */
  v: Float64Array[];
  sweeps: number;
}

export interface SvdOptions {
  maxSweeps?: number;
}

/**
 * Thin SVD of the m×n matrix given as rows (read only). A wide matrix (m < n) is decomposed through
 * its transpose. Fails ('non-finite') on a NaN or infinite entry and ('not-converged') when the
 * columns are not orthogonal to working precision after `maxSweeps` sweeps.
 */
export function jacobiSvd(rows: ArrayLike<number>[], m: number, n: number, opts: SvdOptions = {}): Svd | Failure {
  for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) if (!Number.isFinite(rows[i][j])) return failure('non-finite', 'SVD: the matrix has a NaN or infinite entry');
  const wide = m < n;
  const r = wide ? n : m; // rows of the tall matrix decomposed
  const c = wide ? m : n; // its columns
  // Columns of the tall matrix, scaled by a power of two (exact) so the largest |entry| is in [½, 1):
  // the sums of squares below neither overflow (entries near 1e308) nor lose everything to underflow.
  let amax = 0;
  for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) amax = Math.max(amax, Math.abs(rows[i][j]));
  const e = amax > 0 ? Math.ceil(Math.log2(amax)) : 0;
  const down = 2 ** -Math.min(1000, Math.max(-1000, e));
  const up = 2 ** Math.min(1000, Math.max(-1000, e));
  const G: Float64Array[] = [];
  for (let j = 0; j < c; j++) {
    const col = new Float64Array(r);
    for (let i = 0; i < r; i++) col[i] = (wide ? rows[j][i] : rows[i][j]) * down;
    G.push(col);
  }
  const V: Float64Array[] = [];
  for (let j = 0; j < c; j++) {
    const col = new Float64Array(c);
    col[j] = 1;
    V.push(col);
  }
  const maxSweeps = Math.max(1, Math.floor(opts.maxSweeps ?? SVD_MAX_SWEEPS));
  let sweeps = 0;
  let rotated = true;
  while (rotated) {
    if (sweeps === maxSweeps) return failure('not-converged', `SVD: the ${m}×${n} matrix's columns were not orthogonal after ${maxSweeps} Jacobi sweeps (the iteration cap)`);
    sweeps++;
    rotated = false;
    for (let p = 0; p < c - 1; p++) {
      const gp = G[p];
      for (let q = p + 1; q < c; q++) {
        const gq = G[q];
        let alpha = 0;
        let beta = 0;
        let gamma = 0;
        for (let i = 0; i < r; i++) {
          const a = gp[i];
          const b = gq[i];
          alpha += a * a;
          beta += b * b;
          gamma += a * b;
        }
        if (gamma === 0 || alpha === 0 || beta === 0) continue;
        if (Math.abs(gamma) <= EPS * Math.sqrt(alpha) * Math.sqrt(beta)) continue;
        rotated = true;
        const zeta = (beta - alpha) / (2 * gamma);
        const t = (zeta >= 0 ? 1 : -1) / (Math.abs(zeta) + Math.sqrt(1 + Math.min(zeta * zeta, 1e300)));
        const cs = 1 / Math.sqrt(1 + t * t);
        const sn = cs * t;
        for (let i = 0; i < r; i++) {
          const a = gp[i];
          const b = gq[i];
          gp[i] = cs * a - sn * b;
          gq[i] = sn * a + cs * b;
        }
        const vp = V[p];
        const vq = V[q];
        for (let i = 0; i < c; i++) {
          const a = vp[i];
          const b = vq[i];
          vp[i] = cs * a - sn * b;
          vq[i] = sn * a + cs * b;
        }
      }
    }
  }
  const s = new Float64Array(c);
  for (let j = 0; j < c; j++) {
    const g = G[j];
    let ss = 0;
    for (let i = 0; i < r; i++) ss += g[i] * g[i];
    const sigma = Math.sqrt(ss);
    if (sigma > 0) for (let i = 0; i < r; i++) g[i] /= sigma;
    s[j] = sigma * up;
  }
  // Tall: A = G·Vᵀ with G = U·Σ. Wide: Aᵀ = U'·Σ·V'ᵀ, so A = V'·Σ·U'ᵀ.
  return wide ? { ok: true, s, u: V, v: G, sweeps } : { ok: true, s, u: G, v: V, sweeps };
}

/**
 * Minimum-norm least-squares solution of A·x ≈ b through the SVD: singular values at or below
 * max(m, n)·ε·σ_max count as zero (numpy's lstsq default).
 */
export function svdLstsq(rows: ArrayLike<number>[], m: number, n: number, b: ArrayLike<number>, opts: SvdOptions = {}): { ok: true; x: Float64Array } | Failure {
  const d = jacobiSvd(rows, m, n, opts);
  if (!d.ok) return d;
  let smax = 0;
  for (const v of d.s) smax = Math.max(smax, v);
  const tol = Math.max(m, n) * EPS * smax;
  const x = new Float64Array(n);
  for (let j = 0; j < d.s.length; j++) {
    if (!(d.s[j] > tol)) continue;
    const u = d.u[j];
    let ub = 0;
    for (let i = 0; i < m; i++) ub += u[i] * b[i];
    const k = ub / d.s[j];
    const v = d.v[j];
    for (let i = 0; i < n; i++) x[i] += v[i] * k;
  }
  return { ok: true, x };
}
