// Slider (prismatic) joint: the 3 angular rows of `fixed` + 2 translational rows keeping the anchor
// offset d on the line through x_B along A's axis. 5 rows '⊥1','⊥2','θx','θy','θz'.
//   n_k = R_A·u_k, (u_1, u_2) = perpendicularBasis(axisA) in A's frame (fixed at construction)
//   C_k = n_k·d   (translation along the axis is free)
//   J_A = [n_kᵀ, (n_k×d + r_A×n_k)ᵀ] = [n_kᵀ, (n_k×(p_A − x_B))ᵀ],  J_B = [−n_kᵀ, −(r_B×n_k)ᵀ]
//   J̇v_k = (ω_A×(ω_A×n_k))·d + 2(ω_A×n_k)·ḋ + n_k·d̈
// Angular rows: see fixed.ts (q_rel0 captured from the initial poses).
import type { Quat, Vec3 } from '../types';
import type { ConstraintSpec } from '../scene/types';
import type { ConstraintEval, ConstraintModel, Pose } from './constraint';
import { perpendicularBasis } from '../math';
import { anchorKinematics, makeAnchorKin, mulInto, vecOr } from './ball';
import { angularKinematics, makeAngularKin, relativeReference, writeAngularRow } from './fixed';
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
  private readonly n: Vec3 = [0, 0, 0];

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
    const wa = a.w;
    const n = this.n;
    const JA = out.JA, JB = out.JB;
    for (let j = 0; j < 2; j++) {
      const o = j * 6;
      mulInto(a.R, this.perpA[j], n);
      // ṅ = ω_A×n, n̈ = ω_A×ṅ
      const ndx = wa[1] * n[2] - wa[2] * n[1], ndy = wa[2] * n[0] - wa[0] * n[2], ndz = wa[0] * n[1] - wa[1] * n[0];
      const nnx = wa[1] * ndz - wa[2] * ndy, nny = wa[2] * ndx - wa[0] * ndz, nnz = wa[0] * ndy - wa[1] * ndx;
      // q = d − r_A = p_A − x_B
      const qx = d[0] - rA[0], qy = d[1] - rA[1], qz = d[2] - rA[2];
      out.C[j] = n[0] * d[0] + n[1] * d[1] + n[2] * d[2];
      JA[o] = n[0]; JA[o + 1] = n[1]; JA[o + 2] = n[2];
      JA[o + 3] = n[1] * qz - n[2] * qy;
      JA[o + 4] = n[2] * qx - n[0] * qz;
      JA[o + 5] = n[0] * qy - n[1] * qx;
      JB[o] = -n[0]; JB[o + 1] = -n[1]; JB[o + 2] = -n[2];
      JB[o + 3] = -(rB[1] * n[2] - rB[2] * n[1]);
      JB[o + 4] = -(rB[2] * n[0] - rB[0] * n[2]);
      JB[o + 5] = -(rB[0] * n[1] - rB[1] * n[0]);
      out.Jdotv[j] =
        nnx * d[0] + nny * d[1] + nnz * d[2] +
        2 * (ndx * dd[0] + ndy * dd[1] + ndz * dd[2]) +
        n[0] * acc[0] + n[1] * acc[1] + n[2] * acc[2];
    }
    angularKinematics(a, b, this.qRel0, this.ang);
    for (let i = 0; i < 3; i++) writeAngularRow(this.ang, i, 2 + i, out);
  }
}
