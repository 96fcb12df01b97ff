// Ball (spherical) joint: the two anchor points coincide. 3 rows 'x','y','z'.
//   C = d = x_A − x_B,  x = p + R·anchor
//   J_A = [I, −[r_A]×],  J_B = [−I, [r_B]×]
//   J̇v = ω_A×(ω_A×r_A) − ω_B×(ω_B×r_B)
// Also home of the anchor-point kinematics shared by distance, hinge, fixed, slider and lock.
import type { Mat3, Vec3 } from '../types';
import type { ConstraintSpec } from '../scene/types';
import type { ConstraintEval, ConstraintModel, Pose } from './constraint';

/** Per-model scratch for the anchor-point kinematics (filled in place, no allocation). */
export interface AnchorKin {
  /** r_A = R_A·anchorA, r_B = R_B·anchorB (world frame). */
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
  return { rA: [0, 0, 0], rB: [0, 0, 0], d: [0, 0, 0], dDot: [0, 0, 0], dAcc: [0, 0, 0] };
}

/** out = m·v (row-major 3×3), in place. */
export function mulInto(m: Mat3, v: Vec3, out: Vec3): void {
  const x = v[0], y = v[1], z = v[2];
  out[0] = m[0] * x + m[1] * y + m[2] * z;
  out[1] = m[3] * x + m[4] * y + m[5] * z;
  out[2] = m[6] * x + m[7] * y + m[8] * z;
}

/** Fill `k` from the two end states and the body-frame anchors. */
export function anchorKinematics(a: Pose, b: Pose, anchorA: Vec3, anchorB: Vec3, k: AnchorKin): void {
  const rA = k.rA, rB = k.rB;
  mulInto(a.R, anchorA, rA);
  mulInto(b.R, anchorB, rB);
  const wa = a.w, wb = b.w;
  k.d[0] = a.p[0] + rA[0] - b.p[0] - rB[0];
  k.d[1] = a.p[1] + rA[1] - b.p[1] - rB[1];
  k.d[2] = a.p[2] + rA[2] - b.p[2] - rB[2];
  // ω×r
  const ax = wa[1] * rA[2] - wa[2] * rA[1], ay = wa[2] * rA[0] - wa[0] * rA[2], az = wa[0] * rA[1] - wa[1] * rA[0];
  const bx = wb[1] * rB[2] - wb[2] * rB[1], by = wb[2] * rB[0] - wb[0] * rB[2], bz = wb[0] * rB[1] - wb[1] * rB[0];
  k.dDot[0] = a.v[0] + ax - b.v[0] - bx;
  k.dDot[1] = a.v[1] + ay - b.v[1] - by;
  k.dDot[2] = a.v[2] + az - b.v[2] - bz;
  // ω×(ω×r)
  k.dAcc[0] = wa[1] * az - wa[2] * ay - (wb[1] * bz - wb[2] * by);
  k.dAcc[1] = wa[2] * ax - wa[0] * az - (wb[2] * bx - wb[0] * bz);
  k.dAcc[2] = wa[0] * ay - wa[1] * ax - (wb[0] * by - wb[1] * bx);
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

export const vecOr = (v: Vec3 | undefined, fallback: Vec3): Vec3 =>
  v && v.length === 3 ? [v[0], v[1], v[2]] : [fallback[0], fallback[1], fallback[2]];

export class BallConstraint implements ConstraintModel {
  readonly rows = 3;
  readonly rowLabels = ['x', 'y', 'z'] as const;
  private readonly anchorA: Vec3;
  private readonly anchorB: Vec3;
  private readonly k = makeAnchorKin();

  constructor(readonly spec: ConstraintSpec) {
    this.anchorA = vecOr(spec.anchorA, [0, 0, 0]);
    this.anchorB = vecOr(spec.anchorB, [0, 0, 0]);
  }

  evaluate(a: Pose, b: Pose, out: ConstraintEval): void {
    const k = this.k;
    anchorKinematics(a, b, this.anchorA, this.anchorB, k);
    for (let i = 0; i < 3; i++) {
      out.C[i] = k.d[i];
      writeBallRow(k, i, i, out);
    }
  }
}
