// Distance (rigid rod) constraint, AerisLab's row. 1 row 'd'.
//   C = ½(dᵀd − L²)
//   J_A = [dᵀ, (r_A×d)ᵀ],  J_B = [−dᵀ, −(r_B×d)ᵀ]
//   J̇v = ḋᵀḋ + dᵀ(ω_A×(ω_A×r_A) − ω_B×(ω_B×r_B))
// λ multiplies the unnormalised direction d, so it is a force per metre of d: the force on A is
// +λ·d, on B −λ·d; a rod in tension (pulling B towards A) has λ < 0. See docs/formulas.md.
import { crossInto, norm, vecOr } from '../core/math';
import type { Vec3 } from '../types';
import type { ConstraintSpec } from '../scene/spec';
import type { ConstraintEval, ConstraintModel, Pose } from './constraint';
import { anchorKinematics, makeAnchorKin } from './kinematics';

export class DistanceConstraint implements ConstraintModel {
  readonly rows = 1;
  readonly rowLabels = ['d'] as const;
  /** Rest length L (spec.length, or the initial anchor distance). */
  readonly length: number;
  private readonly anchorA: Vec3;
  private readonly anchorB: Vec3;
  private readonly k = makeAnchorKin();

  constructor(readonly spec: ConstraintSpec, a0: Pose, b0: Pose) {
    this.anchorA = vecOr(spec.anchorA, [0, 0, 0]);
    this.anchorB = vecOr(spec.anchorB, [0, 0, 0]);
    if (spec.length !== undefined) {
      this.length = spec.length;
    } else {
      anchorKinematics(a0, b0, this.anchorA, this.anchorB, this.k);
      const d = this.k.d;
      this.length = norm(d);
    }
  }

  evaluate(a: Pose, b: Pose, out: ConstraintEval): void {
    const k = this.k;
    anchorKinematics(a, b, this.anchorA, this.anchorB, k);
    const d = k.d, rA = k.rA, rB = k.rB, dd = k.dDot, acc = k.dAcc;
    const L = this.length;
    out.C[0] = 0.5 * (d[0] * d[0] + d[1] * d[1] + d[2] * d[2] - L * L);
    const JA = out.JA, JB = out.JB;
    JA[0] = d[0]; JA[1] = d[1]; JA[2] = d[2];
    crossInto(rA, d, JA, 3);
    JB[0] = -d[0]; JB[1] = -d[1]; JB[2] = -d[2];
    crossInto(rB, d, JB, 3, -1);
    out.Jdotv[0] =
      dd[0] * dd[0] + dd[1] * dd[1] + dd[2] * dd[2] + d[0] * acc[0] + d[1] * acc[1] + d[2] * acc[2];
  }
}
