// The kinematics the constraint types share, in one place (formulas in docs/formulas.md):
// - a body-fixed vector u seen in the world: v = R·u, v̇ = ω×v, v̈ = ω×(ω×v) at zero acceleration;
// - anchor points x = p + R·r and the anchor offset d = x_A − x_B with its rates (ball, distance,
//   hinge, fixed, slider, lock), and the ball-joint row [e_i, r_A×e_i | −e_i, −(r_B×e_i)];
// - the orientation error q_A ⊗ q_rel0 ⊗ q_B⁻¹ with its rate and J̇v (fixed, slider, lock).
// Everything writes into preallocated scratch: no allocation per evaluation.
import { mat3MulVecInto, quatConjInto, quatMul, quatMulInto, quatConj } from '../core/math';
import type { Mat3, Quat, Vec3 } from '../types';
import type { ConstraintEval, Pose } from './constraint';

/** A body-fixed vector in the world frame and its first two time derivatives (scratch, filled in place). */
export interface SpinKin {
  /** v = R·u. */
  v: Vec3;
  /** v̇ = ω×v. */
  dot: Vec3;
  /** v̈ at zero angular acceleration: ω×(ω×v). */
  acc: Vec3;
}

export function makeSpinKin(): SpinKin {
  return { v: [0, 0, 0], dot: [0, 0, 0], acc: [0, 0, 0] };
}

/** Fill `k` for the body-frame vector `u` of a body with rotation R and angular velocity ω (world frame). */
export function spinKinematics(R: Mat3, w: Vec3, u: Vec3, k: SpinKin): void {
  const v = k.v, d = k.dot, a = k.acc;
  mat3MulVecInto(R, u, v);
  d[0] = w[1] * v[2] - w[2] * v[1];
  d[1] = w[2] * v[0] - w[0] * v[2];
  d[2] = w[0] * v[1] - w[1] * v[0];
  a[0] = w[1] * d[2] - w[2] * d[1];
  a[1] = w[2] * d[0] - w[0] * d[2];
  a[2] = w[0] * d[1] - w[1] * d[0];
}

/** Per-model scratch for the anchor-point kinematics (filled in place, no allocation). */
export interface AnchorKin {
  /** r_A = R_A·anchorA, r_B = R_B·anchorB (world frame) with ω×r and ω×(ω×r). */
  a: SpinKin;
  b: SpinKin;
  /** The lever arms r_A and r_B (the same arrays as `a.v` and `b.v`). */
  rA: Vec3;
  rB: Vec3;
  /** d = x_A − x_B. */
  d: Vec3;
  /** ḋ = v_A + ω_A×r_A − v_B − ω_B×r_B. */
  dDot: Vec3;
  /** d̈ at zero acceleration: ω_A×(ω_A×r_A) − ω_B×(ω_B×r_B). */
  dAcc: Vec3;
}

export function makeAnchorKin(): AnchorKin {
  const a = makeSpinKin();
  const b = makeSpinKin();
  return { a, b, rA: a.v, rB: b.v, d: [0, 0, 0], dDot: [0, 0, 0], dAcc: [0, 0, 0] };
}

/** Fill `k` from the two end states and the body-frame anchors. */
export function anchorKinematics(a: Pose, b: Pose, anchorA: Vec3, anchorB: Vec3, k: AnchorKin): void {
  spinKinematics(a.R, a.w, anchorA, k.a);
  spinKinematics(b.R, b.w, anchorB, k.b);
  const rA = k.rA, rB = k.rB, wrA = k.a.dot, wrB = k.b.dot, accA = k.a.acc, accB = k.b.acc;
  for (let i = 0; i < 3; i++) {
    k.d[i] = a.p[i] + rA[i] - b.p[i] - rB[i];
    k.dDot[i] = a.v[i] + wrA[i] - b.v[i] - wrB[i];
    k.dAcc[i] = accA[i] - accB[i];
  }
}

/**
 * Write the ball-joint row for world axis `axis` (0,1,2) at output row `row`:
 * JA = [e_i, −(e_i·[r_A]×)] = [e_i, (r_A×e_i)], JB = [−e_i, −(r_B×e_i)], J̇v = (d̈)_i.
 * C is NOT written (callers differ: ball uses d_i, lock uses d_i − d0_i).
 */
export function writeBallRow(k: AnchorKin, axis: number, row: number, out: ConstraintEval): void {
  const JA = out.JA, JB = out.JB, o = row * 6;
  const rA = k.rA, rB = k.rB;
  for (let c = 0; c < 6; c++) {
    JA[o + c] = 0;
    JB[o + c] = 0;
  }
  JA[o + axis] = 1;
  JB[o + axis] = -1;
  // Row i of −[r]×: (−[r]×)_{ij} = −ε_{ikj} r_k = (r×e_i)_j.
  if (axis === 0) {
    JA[o + 4] = rA[2]; JA[o + 5] = -rA[1];
    JB[o + 4] = -rB[2]; JB[o + 5] = rB[1];
  } else if (axis === 1) {
    JA[o + 3] = -rA[2]; JA[o + 5] = rA[0];
    JB[o + 3] = rB[2]; JB[o + 5] = -rB[0];
  } else {
    JA[o + 3] = rA[1]; JA[o + 4] = -rA[0];
    JB[o + 3] = -rB[1]; JB[o + 4] = rB[0];
  }
  out.Jdotv[row] = k.dAcc[axis];
}

/**
 * The entries `writeBallRows` may leave nonzero in each block of rows x, y, z (ConstraintModel.rowMasks):
 * e_i and r×e_i, whose i-th component is always 0 — the literal zeros written below.
 */
export const BALL_ROW_MASKS: readonly number[] = [0b110001, 0b101010, 0b011100];
/** A row with an exact zero linear part (writeAngularRow, the hinge's and universal joint's angle rows). */
export const ANGULAR_ROW_MASK = 0b111000;

/**
 * The three ball-joint rows (world axes x, y, z) at output rows 0..2, with C = d: what `writeBallRow`
 * for axes 0, 1, 2 and C_i = d_i write, each entry stored once (no zero fill first).
 */
export function writeBallRows(k: AnchorKin, out: ConstraintEval): void {
  const JA = out.JA, JB = out.JB;
  const a0 = k.rA[0], a1 = k.rA[1], a2 = k.rA[2];
  const b0 = k.rB[0], b1 = k.rB[1], b2 = k.rB[2];
  // row x: JA = [1, 0, 0, 0, r_A,z, −r_A,y], JB = [−1, 0, 0, 0, −r_B,z, r_B,y]
  JA[0] = 1; JA[1] = 0; JA[2] = 0; JA[3] = 0; JA[4] = a2; JA[5] = -a1;
  JB[0] = -1; JB[1] = 0; JB[2] = 0; JB[3] = 0; JB[4] = -b2; JB[5] = b1;
  // row y: JA = [0, 1, 0, −r_A,z, 0, r_A,x], JB = [0, −1, 0, r_B,z, 0, −r_B,x]
  JA[6] = 0; JA[7] = 1; JA[8] = 0; JA[9] = -a2; JA[10] = 0; JA[11] = a0;
  JB[6] = 0; JB[7] = -1; JB[8] = 0; JB[9] = b2; JB[10] = 0; JB[11] = -b0;
  // row z: JA = [0, 0, 1, r_A,y, −r_A,x, 0], JB = [0, 0, −1, −r_B,y, r_B,x, 0]
  JA[12] = 0; JA[13] = 0; JA[14] = 1; JA[15] = a1; JA[16] = -a0; JA[17] = 0;
  JB[12] = 0; JB[13] = 0; JB[14] = -1; JB[15] = -b1; JB[16] = b0; JB[17] = 0;
  const C = out.C, Jdotv = out.Jdotv, d = k.d, acc = k.dAcc;
  C[0] = d[0]; C[1] = d[1]; C[2] = d[2];
  Jdotv[0] = acc[0]; Jdotv[1] = acc[1]; Jdotv[2] = acc[2];
}

/** q_rel0 = q_A0⁻¹ ⊗ q_B0 (unit quaternions assumed: inverse = conjugate). */
export function relativeReference(a0: Pose, b0: Pose): Quat {
  return quatMul(quatConj(a0.q), b0.q);
}

/** Per-model scratch for the orientation-error rows. */
export interface AngularKin {
  /** Hemisphere-corrected q_err = (v, s), s ≥ 0. */
  v: Vec3;
  s: number;
  /** Ċ_ang. */
  cDot: Vec3;
  /** J̇v_ang. */
  acc: Vec3;
  /** Scratch quaternions. */
  t1: Quat;
  t2: Quat;
  qBc: Quat;
}

export function makeAngularKin(): AngularKin {
  return { v: [0, 0, 0], s: 1, cDot: [0, 0, 0], acc: [0, 0, 0], t1: [0, 0, 0, 1], t2: [0, 0, 0, 1], qBc: [0, 0, 0, 1] };
}

/** Fill `k` (orientation error, its rate and J̇v) from the end states and q_rel0. */
export function angularKinematics(a: Pose, b: Pose, qRel0: Quat, k: AngularKin): void {
  quatConjInto(b.q, k.qBc);
  quatMulInto(a.q, qRel0, k.t1);
  quatMulInto(k.t1, k.qBc, k.t2);
  const e = k.t2;
  const sg = e[3] < 0 ? -1 : 1;
  const vx = sg * e[0], vy = sg * e[1], vz = sg * e[2], s = sg * e[3];
  k.v[0] = vx; k.v[1] = vy; k.v[2] = vz; k.s = s;
  const wa = a.w, wb = b.w;
  // Ċ = (sI − [v]×)ω_A − (sI + [v]×)ω_B = s(ω_A − ω_B) − v×(ω_A + ω_B)
  const dx = wa[0] - wb[0], dy = wa[1] - wb[1], dz = wa[2] - wb[2];
  const sx = wa[0] + wb[0], sy = wa[1] + wb[1], sz = wa[2] + wb[2];
  const cx = s * dx - (vy * sz - vz * sy);
  const cy = s * dy - (vz * sx - vx * sz);
  const cz = s * dz - (vx * sy - vy * sx);
  k.cDot[0] = cx; k.cDot[1] = cy; k.cDot[2] = cz;
  // C̈ = ṡΔω − ½Ċ×Σω, ṡ = −½ v·Δω
  const sDot = -0.5 * (vx * dx + vy * dy + vz * dz);
  k.acc[0] = sDot * dx - 0.5 * (cy * sz - cz * sy);
  k.acc[1] = sDot * dy - 0.5 * (cz * sx - cx * sz);
  k.acc[2] = sDot * dz - 0.5 * (cx * sy - cy * sx);
}

/** Write orientation-error component `axis` (0,1,2) at output row `row`, including C. */
export function writeAngularRow(k: AngularKin, axis: number, row: number, out: ConstraintEval): void {
  const JA = out.JA, JB = out.JB, o = row * 6;
  const v = k.v, s = k.s;
  JA[o] = 0; JA[o + 1] = 0; JA[o + 2] = 0;
  JB[o] = 0; JB[o + 1] = 0; JB[o + 2] = 0;
  // J_A,ang row = row of (sI − [v]×);  J_B,ang row = −row of (sI + [v]×)
  if (axis === 0) {
    JA[o + 3] = s; JA[o + 4] = v[2]; JA[o + 5] = -v[1];
    JB[o + 3] = -s; JB[o + 4] = v[2]; JB[o + 5] = -v[1];
  } else if (axis === 1) {
    JA[o + 3] = -v[2]; JA[o + 4] = s; JA[o + 5] = v[0];
    JB[o + 3] = -v[2]; JB[o + 4] = -s; JB[o + 5] = v[0];
  } else {
    JA[o + 3] = v[1]; JA[o + 4] = -v[0]; JA[o + 5] = s;
    JB[o + 3] = v[1]; JB[o + 4] = -v[0]; JB[o + 5] = -s;
  }
  out.C[row] = 2 * v[axis];
  out.Jdotv[row] = k.acc[axis];
}
