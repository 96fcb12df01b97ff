// Rigid-body kinematics shared by the contact solvers: the quaternion map G(q), poses of contact
// ends, contact rows (normal, t1, t2) and the gap function c_n(q) from the contact's witness points.
// Conventions (docs/formulas.md): q = [x, y, z, w] scalar last, world-frame ω, q̇ = ½(ω, 0)⊗q.
import { WORLD_POSE, type World } from '../assembly/assemble';
import type { Contact } from '../collision/contacts';
import type { BodyState } from '../model/body';
import type { Pose } from '../model/constraint';
import { quatToMat3 } from '../core/math';
import type { Quat, Vec3 } from '../types';

/** Free-body slot (column / 6) of each scene body, −1 for fixed bodies. The world is −1 too. */
export function slotsOf(world: World): Int32Array {
  return Int32Array.from(world.bodies, (b) => (b.column < 0 ? -1 : b.column / 6));
}

/** Pose of a unit-normalised copy of (p, Q); velocities zero (only positions matter here). */
export function poseFrom(p: ArrayLike<number>, po: number, Q: ArrayLike<number>, qo: number): Pose {
  const n = Math.hypot(Q[qo], Q[qo + 1], Q[qo + 2], Q[qo + 3]);
  const q: Quat = n > 0 ? [Q[qo] / n, Q[qo + 1] / n, Q[qo + 2] / n, Q[qo + 3] / n] : [0, 0, 0, 1];
  return { p: [p[po], p[po + 1], p[po + 2]], q, R: quatToMat3(q), v: [0, 0, 0], w: [0, 0, 0] };
}

/** Pose of scene body i at its state (world for i < 0). */
export function statePose(states: readonly BodyState[], i: number): Pose {
  if (i < 0) return WORLD_POSE;
  const s = states[i];
  return poseFrom(s.p, 0, s.q, 0);
}

/**
 * G_Q(q), the 4×3 block of G mapping world ω to q̇ = ½(ω, 0)⊗q (row-major into out[o..o+12]):
 * G_Q = ½·[w·I − [v]× ; −vᵀ] for q = (v, w). Linear in q; for a unit q, G_QᵀG_Q = ¼I and G_Qᵀq = 0.
 */
export function gqInto(Q: ArrayLike<number>, qo: number, out: Float64Array, o = 0): void {
  const x = Q[qo], y = Q[qo + 1], z = Q[qo + 2], w = Q[qo + 3];
  out[o] = 0.5 * w; out[o + 1] = 0.5 * z; out[o + 2] = -0.5 * y;
  out[o + 3] = -0.5 * z; out[o + 4] = 0.5 * w; out[o + 5] = 0.5 * x;
  out[o + 6] = 0.5 * y; out[o + 7] = -0.5 * x; out[o + 8] = 0.5 * w;
  out[o + 9] = -0.5 * x; out[o + 10] = -0.5 * y; out[o + 11] = -0.5 * z;
}

/**
 * ∂c/∂Q for a function of the orientation evaluated at Q/|Q|, from its angular Jacobian row J_ω
 * (δc = J_ω·δθ): ∂c/∂Q = 4·J_ω·G_Q(q̂)ᵀ / |Q|, q̂ = Q/|Q| (writes 4 numbers).
 */
export function dQuatInto(Jw0: number, Jw1: number, Jw2: number, Q: ArrayLike<number>, qo: number, out: Float64Array, o: number): void {
  const n = Math.hypot(Q[qo], Q[qo + 1], Q[qo + 2], Q[qo + 3]);
  const x = Q[qo] / n, y = Q[qo + 1] / n, z = Q[qo + 2] / n, w = Q[qo + 3] / n;
  const s = 2 / n; // 4 · ½ / |Q|
  // entry c of J_ω·G_Qᵀ = J_ω · (row c of G_Q)
  out[o] = s * (Jw0 * w + Jw1 * z - Jw2 * y);
  out[o + 1] = s * (-Jw0 * z + Jw1 * w + Jw2 * x);
  out[o + 2] = s * (Jw0 * y - Jw1 * x + Jw2 * w);
  out[o + 3] = -s * (Jw0 * x + Jw1 * y + Jw2 * z);
}

/** The three rows (n, t1, t2) of one contact, fixed at q⁻, and its gap function. */
export interface ContactRows {
  contact: Contact;
  /** Free-body slots of the two ends (−1: world or fixed body). */
  slotA: number;
  slotB: number;
  /** Jacobian rows [n; t1; t2] × [v, ω] of A and B at q⁻ (3×6 row-major; zero for non-free ends). */
  JA: Float64Array;
  JB: Float64Array;
  /** c_n(q) = n·(x_A(q) − x_B(q)) + offset, with offset making c_n(q⁻) = contact.gap exactly. */
  offset: number;
  /** Diagonal of J·M⁻¹·Jᵀ for the rows n, t1, t2 (M at q⁻). */
  w: Float64Array;
}

/** World witness point of contact end `local` on scene body i (world: `local` itself). */
function witness(local: Vec3, pose: Pose): Vec3 {
  const R = pose.R;
  return [
    pose.p[0] + R[0] * local[0] + R[1] * local[1] + R[2] * local[2],
    pose.p[1] + R[3] * local[0] + R[4] * local[1] + R[5] * local[2],
    pose.p[2] + R[6] * local[0] + R[7] * local[1] + R[8] * local[2],
  ];
}

function writeRows(dir: readonly Vec3[], r: Vec3, sign: number, J: Float64Array): void {
  for (let k = 0; k < 3; k++) {
    const d = dir[k];
    const o = k * 6;
    J[o] = sign * d[0];
    J[o + 1] = sign * d[1];
    J[o + 2] = sign * d[2];
    J[o + 3] = sign * (r[1] * d[2] - r[2] * d[1]);
    J[o + 4] = sign * (r[2] * d[0] - r[0] * d[2]);
    J[o + 5] = sign * (r[0] * d[1] - r[1] * d[0]);
  }
}

/** J_row·M⁻¹·J_rowᵀ for one 6-vector row with the compact inverse mass of slot k (1/m, I_w⁻¹). */
export function rowMinvRow(J: ArrayLike<number>, o: number, minvCompact: Float64Array, k: number): number {
  const m0 = k * 10;
  const im = minvCompact[m0];
  const a0 = J[o + 3], a1 = J[o + 4], a2 = J[o + 5];
  const I = minvCompact;
  const t0 = I[m0 + 1] * a0 + I[m0 + 2] * a1 + I[m0 + 3] * a2;
  const t1 = I[m0 + 4] * a0 + I[m0 + 5] * a1 + I[m0 + 6] * a2;
  const t2 = I[m0 + 7] * a0 + I[m0 + 8] * a1 + I[m0 + 9] * a2;
  return im * (J[o] * J[o] + J[o + 1] * J[o + 1] + J[o + 2] * J[o + 2]) + a0 * t0 + a1 * t1 + a2 * t2;
}

/** Contact rows at the states q⁻ (the detection configuration). */
export function contactRows(world: World, states: readonly BodyState[], contacts: readonly Contact[], minvCompact: Float64Array): ContactRows[] {
  const slots = slotsOf(world);
  return contacts.map((c) => {
    const pa = statePose(states, c.bodyA);
    const pb = statePose(states, c.bodyB);
    const xa = c.bodyA < 0 ? c.localA : witness(c.localA, pa);
    const xb = c.bodyB < 0 ? c.localB : witness(c.localB, pb);
    const n = c.normal;
    const offset = c.gap - (n[0] * (xa[0] - xb[0]) + n[1] * (xa[1] - xb[1]) + n[2] * (xa[2] - xb[2]));
    const dirs = [c.normal, c.t1, c.t2] as const;
    const JA = new Float64Array(18);
    const JB = new Float64Array(18);
    const slotA = c.bodyA < 0 ? -1 : slots[c.bodyA];
    const slotB = c.bodyB < 0 ? -1 : slots[c.bodyB];
    if (slotA >= 0) writeRows(dirs, [xa[0] - pa.p[0], xa[1] - pa.p[1], xa[2] - pa.p[2]], 1, JA);
    if (slotB >= 0) writeRows(dirs, [xb[0] - pb.p[0], xb[1] - pb.p[1], xb[2] - pb.p[2]], -1, JB);
    const w = new Float64Array(3);
    for (let k = 0; k < 3; k++) {
      if (slotA >= 0) w[k] += rowMinvRow(JA, k * 6, minvCompact, slotA);
      if (slotB >= 0) w[k] += rowMinvRow(JB, k * 6, minvCompact, slotB);
    }
    return { contact: c, slotA, slotB, JA, JB, offset, w };
  });
}

/**
 * c_n at positions (p, Q) of the free bodies (7 per slot: p, Q) — fixed ends at their states —
 * and, when `grad` is given, ∂c_n/∂(p, Q) of end A into grad[0..7) and of end B into grad[7..14).
 */
export function contactGap(
  cr: ContactRows,
  x: ArrayLike<number>,
  states: readonly BodyState[],
  grad?: Float64Array,
): number {
  const c = cr.contact;
  const n = c.normal;
  const end = (body: number, slot: number, local: Vec3, sign: number, g0: number): Vec3 => {
    if (body < 0) return local;
    const pose = slot >= 0 ? poseFrom(x, slot * 7, x, slot * 7 + 3) : statePose(states, body);
    const xw = witness(local, pose);
    if (grad && slot >= 0) {
      const r: Vec3 = [xw[0] - pose.p[0], xw[1] - pose.p[1], xw[2] - pose.p[2]];
      grad[g0] = sign * n[0];
      grad[g0 + 1] = sign * n[1];
      grad[g0 + 2] = sign * n[2];
      // δc = sign·n·(δθ×r) = sign·δθ·(r×n)
      const a0 = sign * (r[1] * n[2] - r[2] * n[1]);
      const a1 = sign * (r[2] * n[0] - r[0] * n[2]);
      const a2 = sign * (r[0] * n[1] - r[1] * n[0]);
      dQuatInto(a0, a1, a2, x, slot * 7 + 3, grad, g0 + 3);
    }
    return xw;
  };
  const xa = end(c.bodyA, cr.slotA, c.localA, 1, 0);
  const xb = end(c.bodyB, cr.slotB, c.localB, -1, 7);
  return n[0] * (xa[0] - xb[0]) + n[1] * (xa[1] - xb[1]) + n[2] * (xa[2] - xb[2]) + cr.offset;
}

/** Row k (0 = n, 1 = t1, 2 = t2) of the contact times the velocity vector u (6 per slot). */
export function contactRowDot(cr: ContactRows, k: number, u: ArrayLike<number>, uo = 0): number {
  let s = 0;
  const o = k * 6;
  if (cr.slotA >= 0) for (let j = 0; j < 6; j++) s += cr.JA[o + j] * u[uo + cr.slotA * 6 + j];
  if (cr.slotB >= 0) for (let j = 0; j < 6; j++) s += cr.JB[o + j] * u[uo + cr.slotB * 6 + j];
  return s;
}
