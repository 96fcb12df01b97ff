// Lock (AerisLab DOFLock): lock the selected WORLD axes of body A's motion relative to body B.
// Rows: the masked linear axes ('x','y','z'), then the masked angular axes ('θx','θy','θz').
//   linear row i:  C = e_i·(d − d0), d0 = d at the initial poses; J and J̇v = row i of the ball joint
//   angular row i: component i of the fixed joint's orientation error 2·vec(q_A ⊗ q_rel0 ⊗ q_B⁻¹)
//                  (a world-frame rotation vector to first order), q_rel0 = q_A0⁻¹ ⊗ q_B0
// Both reference quantities are captured at construction, so C = 0 in the initial configuration.
// Missing masks lock nothing (the scene format's default, filled in by the parser); all-false masks give a 0-row constraint.
import type { Quat, Vec3 } from '../types';
import type { ConstraintSpec } from '../scene/spec';
import { vecOr } from '../core/math';
import type { ConstraintEval, ConstraintModel, Pose } from './constraint';
import {
  anchorKinematics,
  angularKinematics,
  makeAnchorKin,
  makeAngularKin,
  relativeReference,
  writeAngularRow,
  writeBallRow,
} from './kinematics';

const LIN_LABELS = ['x', 'y', 'z'];
const ANG_LABELS = ['θx', 'θy', 'θz'];

export class LockConstraint implements ConstraintModel {
  readonly rows: number;
  readonly rowLabels: readonly string[];
  /** Locked world axes (indices 0..2), in row order. */
  readonly linearAxes: readonly number[];
  readonly angularAxes: readonly number[];
  /** Initial anchor offset d0 = x_A0 − x_B0. */
  readonly d0: Vec3;
  readonly qRel0: Quat;
  private readonly anchorA: Vec3;
  private readonly anchorB: Vec3;
  private readonly k = makeAnchorKin();
  private readonly ang = makeAngularKin();

  constructor(readonly spec: ConstraintSpec, a0: Pose, b0: Pose) {
    this.anchorA = vecOr(spec.anchorA, [0, 0, 0]);
    this.anchorB = vecOr(spec.anchorB, [0, 0, 0]);
    const lin = spec.linear ?? [false, false, false];
    const ang = spec.angular ?? [false, false, false];
    this.linearAxes = [0, 1, 2].filter((i) => lin[i]);
    this.angularAxes = [0, 1, 2].filter((i) => ang[i]);
    this.rows = this.linearAxes.length + this.angularAxes.length;
    this.rowLabels = [...this.linearAxes.map((i) => LIN_LABELS[i]), ...this.angularAxes.map((i) => ANG_LABELS[i])];
    anchorKinematics(a0, b0, this.anchorA, this.anchorB, this.k);
    this.d0 = [this.k.d[0], this.k.d[1], this.k.d[2]];
    this.qRel0 = relativeReference(a0, b0);
  }

  evaluate(a: Pose, b: Pose, out: ConstraintEval): void {
    const nl = this.linearAxes.length;
    if (nl > 0) {
      const k = this.k;
      anchorKinematics(a, b, this.anchorA, this.anchorB, k);
      for (let r = 0; r < nl; r++) {
        const i = this.linearAxes[r];
        out.C[r] = k.d[i] - this.d0[i];
        writeBallRow(k, i, r, out);
      }
    }
    if (this.angularAxes.length > 0) {
      angularKinematics(a, b, this.qRel0, this.ang);
      for (let r = 0; r < this.angularAxes.length; r++) writeAngularRow(this.ang, this.angularAxes[r], nl + r, out);
    }
  }
}
