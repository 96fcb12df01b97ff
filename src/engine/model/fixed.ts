// Fixed (weld) joint: ball rows + relative-orientation rows. 6 rows 'x','y','z','θx','θy','θz'.
//   q_err = q_A ⊗ q_rel0 ⊗ q_B⁻¹,  q_rel0 = q_A0⁻¹ ⊗ q_B0 (so q_err = ±1 initially) unless the spec
//   gives `relativeOrientation` (a weld's relpose),
//   σ = sign(w_err) (w ≥ 0 hemisphere), (v, s) = σ·q_err,  C_ang = 2v.
//   Ċ_ang = (sI − [v]×)ω_A − (sI + [v]×)ω_B  ⇒  J_A,ang = sI − [v]×,  J_B,ang = −(sI + [v]×)
//   J̇v_ang = −½(v·Δω)Δω − ½ Ċ_ang × (ω_A + ω_B),  Δω = ω_A − ω_B
// The angular rows are also used by slider and lock (kinematics.ts).
import { vecOr } from '../core/math';
import type { Quat, Vec3 } from '../types';
import type { ConstraintSpec } from '../scene/spec';
import type { ConstraintEval, ConstraintModel, Pose } from './constraint';
import {
  anchorKinematics,
  angularKinematics,
  makeAnchorKin,
  makeAngularKin,
  relativeReference,
  writeAngularRow,
  writeBallRows,
  BALL_ROW_MASKS,
  ANGULAR_ROW_MASK,
} from './kinematics';

export class FixedConstraint implements ConstraintModel {
  readonly rows = 6;
  readonly rowLabels = ['x', 'y', 'z', 'θx', 'θy', 'θz'] as const;
  readonly rowMasks = [...BALL_ROW_MASKS, ANGULAR_ROW_MASK, ANGULAR_ROW_MASK, ANGULAR_ROW_MASK];
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
    writeBallRows(k, out);
    angularKinematics(a, b, this.qRel0, this.ang);
    for (let i = 0; i < 3; i++) writeAngularRow(this.ang, i, 3 + i, out);
  }
}
