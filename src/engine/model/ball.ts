// Ball (spherical) joint: the two anchor points coincide. 3 rows 'x','y','z'.
//   C = d = x_A − x_B,  x = p + R·anchor
//   J_A = [I, −[r_A]×],  J_B = [−I, [r_B]×]
//   J̇v = ω_A×(ω_A×r_A) − ω_B×(ω_B×r_B)
// The anchor kinematics and the row are shared with the other types (kinematics.ts).
import { vecOr } from '../core/math';
import type { Vec3 } from '../types';
import type { ConstraintSpec } from '../scene/spec';
import type { ConstraintEval, ConstraintModel, Pose } from './constraint';
import { anchorKinematics, BALL_ROW_MASKS, makeAnchorKin, writeBallRows } from './kinematics';

export class BallConstraint implements ConstraintModel {
  readonly rows = 3;
  readonly rowLabels = ['x', 'y', 'z'] as const;
  readonly rowMasks = BALL_ROW_MASKS;
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
    writeBallRows(k, out);
  }
}
