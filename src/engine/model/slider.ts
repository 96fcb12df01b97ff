// Slider (prismatic) joint: the 3 angular rows of `fixed` + 2 translational rows keeping the anchor
// offset d on the line through x_B along A's axis. 5 rows '⊥1','⊥2','θx','θy','θz'.
//   n_k = R_A·u_k, (u_1, u_2) = perpendicularBasis(axisA) in A's frame (fixed at construction)
//   C_k = n_k·d   (translation along the axis is free)
//   J_A = [n_kᵀ, (n_k×d + r_A×n_k)ᵀ] = [n_kᵀ, (n_k×(p_A − x_B))ᵀ],  J_B = [−n_kᵀ, −(r_B×n_k)ᵀ]
//   J̇v_k = (ω_A×(ω_A×n_k))·d + 2(ω_A×n_k)·ḋ + n_k·d̈
// Angular rows: see fixed.ts (q_rel0 captured from the initial poses).
import type { Quat, Vec3 } from '../types';
import type { ConstraintSpec } from '../scene/spec';
import type { ConstraintEval, ConstraintModel, Pose } from './constraint';
import { crossInto, perpendicularBasis, vecOr } from '../core/math';
import {
  anchorKinematics,
  angularKinematics,
  makeAnchorKin,
  makeAngularKin,
  makeSpinKin,
  relativeReference,
  spinKinematics,
  writeAngularRow,
} from './kinematics';
import { unitAxis } from './hinge';

export class SliderConstraint implements ConstraintModel {
  readonly rows = 5;
  readonly rowLabels = ['⊥1', '⊥2', 'θx', 'θy', 'θz'] as const;
  readonly axisA: Vec3;
  /** Perpendiculars of axisA in A's frame. */
  readonly perpA: readonly [Vec3, Vec3];
  readonly qRel0: Quat;
  private readonly anchorA: Vec3;
  private readonly anchorB: Vec3;
  private readonly k = makeAnchorKin();
  private readonly ang = makeAngularKin();
  /** n_k = R_A·u_k with its rates. */
  private readonly n = makeSpinKin();
  private readonly q: Vec3 = [0, 0, 0];

  constructor(readonly spec: ConstraintSpec, a0: Pose, b0: Pose) {
    this.anchorA = vecOr(spec.anchorA, [0, 0, 0]);
    this.anchorB = vecOr(spec.anchorB, [0, 0, 0]);
    this.axisA = unitAxis(spec.axisA);
    this.perpA = perpendicularBasis(this.axisA);
    this.qRel0 = relativeReference(a0, b0);
  }

  evaluate(a: Pose, b: Pose, out: ConstraintEval): void {
    const k = this.k;
    anchorKinematics(a, b, this.anchorA, this.anchorB, k);
    const d = k.d, dd = k.dDot, acc = k.dAcc, rA = k.rA, rB = k.rB;
    // n, ṅ = ω_A×n, n̈ = ω_A×ṅ
    const { v: n, dot: nd, acc: nn } = this.n;
    const q = this.q;
    const JA = out.JA, JB = out.JB;
    for (let j = 0; j < 2; j++) {
      const o = j * 6;
      spinKinematics(a.R, a.w, this.perpA[j], this.n);
      // q = d − r_A = p_A − x_B
      q[0] = d[0] - rA[0]; q[1] = d[1] - rA[1]; q[2] = d[2] - rA[2];
      out.C[j] = n[0] * d[0] + n[1] * d[1] + n[2] * d[2];
      JA[o] = n[0]; JA[o + 1] = n[1]; JA[o + 2] = n[2];
      crossInto(n, q, JA, o + 3);
      JB[o] = -n[0]; JB[o + 1] = -n[1]; JB[o + 2] = -n[2];
      crossInto(rB, n, JB, o + 3, -1);
      out.Jdotv[j] =
        nn[0] * d[0] + nn[1] * d[1] + nn[2] * d[2] +
        2 * (nd[0] * dd[0] + nd[1] * dd[1] + nd[2] * dd[2]) +
        n[0] * acc[0] + n[1] * acc[1] + n[2] * acc[2];
    }
    angularKinematics(a, b, this.qRel0, this.ang);
    for (let i = 0; i < 3; i++) writeAngularRow(this.ang, i, 2 + i, out);
  }
}
