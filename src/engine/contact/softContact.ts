// MuJoCo's soft-contact penetration recovery, for the velocity formulation of imported models
// (docs/formulas.md "Penetration recovery"). MuJoCo drives a contact row's acceleration towards its
// reference aref = −b·v − k·r (docs/computation "Soft constraints"; engine_core_constraint.c,
// mj_makeImpedance / getimpedance):
//   τ = max(solref[0], 2·h) (MuJoCo's safety clamp), ζ = solref[1],
//   b = 2 / (dmax·τ),  k = d(r) / (dmax²·τ²·ζ²),
//   d(r) = dmin + y(|r| / width)·(dmax − dmin), y the two-piece power curve around `mid`,
// and reaches a = d·aref + (1 − d)·a₀ in one row. The velocity formulation keeps its contacts hard
// (no further penetration) and takes the same recovery as the row's target velocity:
//   U⁺ ≥ max(0, U⁻ + h·d·aref),
// so an initial overlap is pushed out in about τ, critically damped for ζ = 1, instead of at
// erp·|r|/h (2 m/s for 3 cm at h = 3 ms and erp = 0.2).

/** `solref` [timeconst, dampratio] and `solimp` [dmin, dmax, width, mid, power], as in MuJoCo. */
export interface SoftContact {
  solref: readonly [number, number];
  solimp: readonly [number, number, number, number, number];
}

const MIN_IMP = 1e-4;
const MAX_IMP = 0.9999;
const clampImp = (x: number) => Math.min(MAX_IMP, Math.max(MIN_IMP, x));

/** MuJoCo's impedance d(r) at violation r (getimpedance). */
export function impedance(solimp: SoftContact['solimp'], r: number): number {
  const dmin = clampImp(solimp[0]);
  const dmax = clampImp(solimp[1]);
  const width = solimp[2];
  const mid = Math.min(MAX_IMP, Math.max(MIN_IMP, solimp[3]));
  const power = Math.max(1, solimp[4]);
  if (dmin === dmax || width <= 0) return 0.5 * (dmin + dmax);
  const x = Math.min(1, Math.abs(r) / width);
  if (x >= 1) return dmax;
  if (x <= 0) return dmin;
  const y = x <= mid ? Math.pow(x, power) / Math.pow(mid, power - 1) : 1 - Math.pow(1 - x, power) / Math.pow(1 - mid, power - 1);
  return dmin + y * (dmax - dmin);
}

/** MuJoCo's reference acceleration of a row at violation `r` (< 0: penetrating) and velocity `v`. */
export function referenceAcceleration(soft: SoftContact, r: number, v: number, h: number): { aref: number; d: number } {
  const tau = Math.max(soft.solref[0], 2 * h);
  const zeta = soft.solref[1];
  const dmax = clampImp(soft.solimp[1]);
  const d = impedance(soft.solimp, r);
  const b = 2 / (dmax * tau);
  const k = d / (dmax * dmax * tau * tau * zeta * zeta);
  return { aref: -b * v - k * r, d };
}

/** Target normal velocity of a penetrating contact (gap < 0) whose normal velocity before the step is `un`. */
export function softRecoveryTarget(soft: SoftContact, gap: number, un: number, h: number): number {
  const { aref, d } = referenceAcceleration(soft, gap, un, h);
  return Math.max(0, un + h * d * aref);
}

/**
 * A contact as MuJoCo's soft constraint, in the velocity form of the step (docs/formulas.md "Soft
 * contacts"). MuJoCo solves (A + R)·f = aref − a₀ in the cone, R = (1 − d)/d·Â (engine_core_constraint.c,
 * mj_makeImpedance; Â its diagApprox: the two bodies' translational body_invweight0); with U = J·u⁺ and
 * a = (U − v)/h that is U + h·R·f = v + h·aref, a compliance Σ = h·R on the rows and the target
 * v + h·aref. The elliptic cone's friction rows take R/impratio (the caller divides) and aref = −b·v_t;
 * the pyramidal cone's edges build on the normal's (pyramid.ts). A speculative contact (gap > 0, which
 * MuJoCo does not have) gets the target −gap/h with the compliance at r = 0; the velocity solver leaves
 * contacts with gap ≥ 0 out of the step, as MuJoCo does (pgs.ts).
 * Returns into `out`: [normal target, Σ_n, friction damping factor 1 − h·b, Σ_t].
 */
export function softRow(soft: SoftContact, gap: number, un: number, h: number, invWeight: number, out: Float64Array): void {
  const { aref, d, b } = referenceAccelerationB(soft, Math.min(0, gap), un, h);
  const sigma = (h * (1 - d) * invWeight) / d;
  out[0] = gap > 0 ? -gap / h : un + h * aref;
  out[1] = sigma;
  out[2] = 1 - h * b;
  out[3] = sigma;
}

function referenceAccelerationB(soft: SoftContact, r: number, v: number, h: number): { aref: number; d: number; b: number } {
  const { aref, d } = referenceAcceleration(soft, r, v, h);
  const tau = Math.max(soft.solref[0], 2 * h);
  return { aref, d, b: 2 / (clampImp(soft.solimp[1]) * tau) };
}
