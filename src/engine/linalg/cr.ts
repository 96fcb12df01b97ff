// Right-preconditioned conjugate residual for A·x = b with A given only as a product (matrix-free).
// The Schur complement of the Newton matrix is unsymmetric in general (the Fischer–Burmeister row
// scaling, position-level rows' gradients at the iterate, the exact friction Jacobian), so this is the
// generalised form (GCR): each new direction's image A·p is orthogonalised against all previous images,
// which minimises ‖b − A·x‖₂ over the Krylov space exactly as conjugate residual does when A is
// symmetric, and keeps doing so when it is not. Directions are stored, so the iteration restarts from
// the true residual every RESTART directions (which also removes the recurrence's round-off drift).

/** Directions kept per cycle before the iteration restarts from its true residual (GCR(k)). */
export const RESTART = 60;

export interface CrResult {
  /** Whether the true residual ‖b − A·x‖₂ ≤ tol·max(‖b‖₂, ‖A‖₂·‖x‖₂) was reached (‖A‖₂ estimated from below). */
  converged: boolean;
  iterations: number;
  /** ‖b − A·x‖₂ / ‖b‖₂ at exit, recomputed from A (0 for b = 0). */
  relResidual: number;
}

/**
 * A right preconditioner: `apply(r, z)` writes z = B⁻¹·r. A bare Float64Array is Jacobi's (z_i = d_i·r_i,
 * d the inverse diagonal).
 */
export type Preconditioner = Float64Array | { apply(r: Float64Array, z: Float64Array): void };

/** Reusable storage for `gcr`: the cycle's directions are allocated as the iteration first needs them. */
export class CrWork {
  P: Float64Array[] = [];
  Q: Float64Array[] = [];
  r = new Float64Array(0);
  z = new Float64Array(0);
  ensure(n: number, k: number): void {
    if (this.r.length !== n) {
      this.r = new Float64Array(n);
      this.z = new Float64Array(n);
      this.P = [];
      this.Q = [];
    }
    while (this.P.length < k) {
      this.P.push(new Float64Array(n));
      this.Q.push(new Float64Array(n));
    }
  }
}

function dot(a: Float64Array, b: Float64Array, n: number): number {
  let s = 0;
  for (let i = 0; i < n; i++) s += a[i] * b[i];
  return s;
}

/**
 * Solve A·x = b into x (x's content on entry is ignored: the iteration starts from 0), with `apply(v, out)`
 * writing A·v and `precond` the right preconditioner B⁻¹ (A·B⁻¹·y = b, x = B⁻¹·y).
 */
export function gcr(
  n: number,
  apply: (v: Float64Array, out: Float64Array) => void,
  b: Float64Array,
  precond: Preconditioner,
  x: Float64Array,
  tol: number,
  maxIter: number,
  work = new CrWork(),
  restart = RESTART,
): CrResult {
  x.fill(0, 0, n);
  const bn = Math.sqrt(dot(b, b, n));
  if (bn === 0) return { converged: true, iterations: 0, relResidual: 0 };
  if (!Number.isFinite(bn)) return { converged: false, iterations: 0, relResidual: Infinity };
  const cap = Math.max(1, maxIter);
  const len = Math.max(1, Math.min(restart, n));
  work.ensure(n, 0);
  const { r, z } = work;
  r.set(b.subarray(0, n));
  let rn = bn;
  let total = 0;
  // ‖A‖₂ from below (the largest ‖A·p‖/‖p‖ seen). The target is ‖r‖ ≤ tol·‖b‖; when round-off stops
  // the true residual short of it (the terms of A·x cancel), the backward-error level tol·‖A‖·‖x‖ is accepted
  let normA = 0;
  const target = tol * bn;
  const backward = () => tol * normA * Math.sqrt(dot(x, x, n));
  for (;;) {
    // one cycle of at most `len` directions on the current residual
    let k = 0;
    while (k < len && total < cap && rn > target) {
      work.ensure(n, k + 1);
      const p = work.P[k], q = work.Q[k];
      if (precond instanceof Float64Array) for (let i = 0; i < n; i++) p[i] = precond[i] * r[i];
      else precond.apply(r, p);
      apply(p, q);
      const pn = Math.sqrt(dot(p, p, n));
      if (pn > 0) normA = Math.max(normA, Math.sqrt(dot(q, q, n)) / pn);
      // modified Gram–Schmidt of q against the cycle's previous images (the same combination applied to p)
      for (let j = 0; j < k; j++) {
        const qj = work.Q[j], pj = work.P[j];
        const c = dot(q, qj, n);
        if (c === 0) continue;
        for (let i = 0; i < n; i++) {
          q[i] -= c * qj[i];
          p[i] -= c * pj[i];
        }
      }
      const qn = Math.sqrt(dot(q, q, n));
      if (!(qn > 0) || !Number.isFinite(qn)) break;
      const s = 1 / qn;
      for (let i = 0; i < n; i++) {
        q[i] *= s;
        p[i] *= s;
      }
      const a = dot(r, q, n);
      for (let i = 0; i < n; i++) {
        x[i] += a * p[i];
        r[i] -= a * q[i];
      }
      rn = Math.sqrt(dot(r, r, n));
      k++;
      total++;
    }
    // the recurrence's residual drifts from the true one in floating point: restart from the true one
    const before = rn;
    apply(x, z);
    for (let i = 0; i < n; i++) r[i] = b[i] - z[i];
    rn = Math.sqrt(dot(r, r, n));
    if (!Number.isFinite(rn)) return { converged: false, iterations: total, relResidual: Infinity };
    if (rn <= target) return { converged: true, iterations: total, relResidual: rn / bn };
    // a cycle that reached the target only in the recurrence (drift), a breakdown or no iterations left: stop,
    // converged when the true residual is at the backward-error level
    if (total >= cap || k === 0 || (k < len && before <= target)) return { converged: rn <= backward(), iterations: total, relResidual: rn / bn };
  }
}
