// Redundant rows whose targets disagree ("conflicting", CL302) versus round-off. The solvers' own
// test, ‖A·x − b‖ ≤ 1e-9·(‖b‖ + ‖A‖·‖x‖), is relative to b and λ; when both are themselves
// round-off (a closed loop in free fall: the gravity terms cancel, and C is the round-off of the
// loop's closure), any residual fails it. The decision here is relative to the problem instead:
// the residual is compared with what round-off in forming b can produce — ε times the magnitudes
// that went into b (α·|x| through C, |ẋ| through Ċ, |J̇v|, |J·a₀| or the free velocity B) — and, for
// an ill-conditioned independent part, with ε·κ times ‖b‖ + ‖A‖·‖λ‖.
import type { Assembly } from '../assembly/assemble';
import type { SolverSettings } from '../scene/spec';
import { csrMulVec, csrNorm1 } from '../linalg/sparse';
import type { CsrMatrix } from '../linalg/contracts';

const EPS = 2.220446049250313e-16;
/** Round-off allowance: this many ε per magnitude (generous: sums of a few dozen terms per row). */
export const ROUND_OFF_FACTOR = 64;
/** The solvers' relative tolerance, kept as the floor of the relative part. */
export const CONSISTENCY_REL_TOL = 1e-9;

export interface ConsistencyInput {
  /** The matrix solved (without compliance), λ and b of K·λ ≈ b. */
  K: CsrMatrix;
  lambda: ArrayLike<number>;
  b: ArrayLike<number>;
  /** Magnitude of the terms b was formed from (max over rows, already in b's units). */
  terms: number;
  /** κ of the independent rows, when known (NaN or ∞ otherwise). */
  kappa: number;
}

export interface ConsistencyVerdict {
  consistent: boolean;
  residual: number;
  tolerance: number;
}

/** Is ‖K·λ − b‖ within what round-off explains? */
export function consistencyVerdict(x: ConsistencyInput): ConsistencyVerdict {
  const n = x.b.length;
  const r = csrMulVec(x.K, x.lambda);
  let rn = 0, bn = 0, ln = 0;
  for (let i = 0; i < n; i++) {
    rn += (r[i] - x.b[i]) ** 2;
    bn += x.b[i] * x.b[i];
    ln += x.lambda[i] * x.lambda[i];
  }
  const kappa = Number.isFinite(x.kappa) && x.kappa > 1 ? x.kappa : 1;
  const tau = Math.max(CONSISTENCY_REL_TOL, ROUND_OFF_FACTOR * EPS * kappa);
  const tolerance = tau * (Math.sqrt(bn) + csrNorm1(x.K) * Math.sqrt(ln)) + ROUND_OFF_FACTOR * EPS * Math.sqrt(Math.max(1, n)) * x.terms;
  const residual = Math.sqrt(rn);
  return { consistent: residual <= tolerance, residual, tolerance };
}

const maxAbs = (v: ArrayLike<number> | undefined): number => {
  let m = 0;
  if (v) for (let i = 0; i < v.length; i++) m = Math.max(m, Math.abs(v[i]));
  return m;
};

/**
 * The magnitude of the terms of b: the gains times the scene's length and speed scales (the size of
 * the numbers whose differences C and Ċ are), plus J̇v and J·a₀ (acceleration) or B (velocity).
 */
export function rhsTermScale(s: SolverSettings, asm: Assembly, velocity: boolean, rhs: ArrayLike<number>, formedFrom: ArrayLike<number> | undefined): number {
  let L = 1;
  for (const p of asm.poses) if (p) L = Math.max(L, Math.abs(p.p[0]) + Math.abs(p.p[1]) + Math.abs(p.p[2]) + 1);
  let V = 0;
  const v = asm.v;
  for (let i = 0; i + 5 < v.length; i += 6) {
    V = Math.max(V, Math.abs(v[i]) + Math.abs(v[i + 1]) + Math.abs(v[i + 2]) + L * (Math.abs(v[i + 3]) + Math.abs(v[i + 4]) + Math.abs(v[i + 5])));
  }
  // the gains on C and on Ċ (AerisLab's oscillator: β² and 2α)
  const [gC, gV] = s.stabilization === 'aerislab-oscillator' ? [s.beta * s.beta, 2 * Math.abs(s.alpha)] : [Math.abs(s.alpha), 1 + Math.abs(s.beta)];
  const gains = velocity ? (s.erp / s.dt) * L : gC * L + gV * V;
  return gains + maxAbs(rhs) + maxAbs(formedFrom) + (velocity ? 0 : maxAbs(asm.Jdotv));
}

/** κ of the independent rows from a spectrum (singular values, descending) and the rank tolerance. */
export function independentKappa(singularValues: ArrayLike<number> | undefined, rank: number): number {
  if (!singularValues || rank <= 0 || singularValues.length < rank) return NaN;
  const hi = singularValues[0], lo = singularValues[rank - 1];
  return lo > 0 ? hi / lo : NaN;
}
