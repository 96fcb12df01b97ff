// Fixed (weld) joint: ball rows + relative-orientation rows. 6 rows 'x','y','z','θx','θy','θz'.
//   q_err = q_A ⊗ q_rel0 ⊗ q_B⁻¹,  q_rel0 = q_A0⁻¹ ⊗ q_B0 (so q_err = ±1 initially) unless the spec
//   gives `relativeOrientation` (a weld's relpose),
//   σ = sign(w_err) (w ≥ 0 hemisphere), (v, s) = σ·q_err,  C_ang = 2v.
//   Ċ_ang = (sI − [v]×)ω_A − (sI + [v]×)ω_B  ⇒  J_A,ang = sI − [v]×,  J_B,ang = −(sI + [v]×)
//   J̇v_ang = −½(v·Δω)Δω − ½ Ċ_ang × (ω_A + ω_B),  Δω = ω_A − ω_B
// The angular rows are also used by slider and lock (exported helpers below).
import type { Quat, Vec3 } from '../types';
import type { ConstraintSpec } from '../scene/types';
import type { ConstraintEval, ConstraintModel, Pose } from './constraint';
import { anchorKinematics, makeAnchorKin, vecOr, writeBallRow } from './ball';

/** out = a ⊗ b (Hamilton, [x,y,z,w]), in place; `out` may alias neither input. */
function quatMulInto(a: Quat, b: Quat, out: Quat): void {
  const ax = a[0], ay = a[1], az = a[2], aw = a[3];
  const bx = b[0], by = b[1], bz = b[2], bw = b[3];
  out[0] = aw * bx + ax * bw + ay * bz - az * by;
  out[1] = aw * by - ax * bz + ay * bw + az * bx;
  out[2] = aw * bz + ax * by - ay * bx + az * bw;
  out[3] = aw * bw - ax * bx - ay * by - az * bz;
}

/** q_rel0 = q_A0⁻¹ ⊗ q_B0 (unit quaternions assumed: inverse = conjugate). */
export function relativeReference(a0: Pose, b0: Pose): Quat {
  const out: Quat = [0, 0, 0, 1];
  quatMulInto([-a0.q[0], -a0.q[1], -a0.q[2], a0.q[3]], b0.q, out);
  return out;
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
  const qBc = k.qBc;
  qBc[0] = -b.q[0]; qBc[1] = -b.q[1]; qBc[2] = -b.q[2]; qBc[3] = b.q[3];
  quatMulInto(a.q, qRel0, k.t1);
  quatMulInto(k.t1, qBc, k.t2);
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

export class FixedConstraint implements ConstraintModel {
  readonly rows = 6;
  readonly rowLabels = ['x', 'y', 'z', 'θx', 'θy', 'θz'] as const;
  /** q_rel0 = q_A0⁻¹ ⊗ q_B0, captured from the initial poses (or `spec.relativeOrientation`). */
  readonly qRel0: Quat;
  private readonly anchorA: Vec3;
  private readonly anchorB: Vec3;
  private readonly k = makeAnchorKin();
  private readonly ang = makeAngularKin();

  constructor(readonly spec: ConstraintSpec, a0: Pose, b0: Pose) {
    this.anchorA = vecOr(spec.anchorA, [0, 0, 0]);
    this.anchorB = vecOr(spec.anchorB, [0, 0, 0]);
    const r = spec.relativeOrientation;
    this.qRel0 = r ? [r[0], r[1], r[2], r[3]] : relativeReference(a0, b0);
  }

  evaluate(a: Pose, b: Pose, out: ConstraintEval): void {
    const k = this.k;
    anchorKinematics(a, b, this.anchorA, this.anchorB, k);
    for (let i = 0; i < 3; i++) {
      out.C[i] = k.d[i];
      writeBallRow(k, i, i, out);
    }
    angularKinematics(a, b, this.qRel0, this.ang);
    for (let i = 0; i < 3; i++) writeAngularRow(this.ang, i, 3 + i, out);
  }
}
