// Universal (Cardan) joint: ball rows + 1 angular row keeping the angle between a = R_A·axisA and
// b = R_B·axisB at its initial value (two hinges whose axes meet in one point, as MuJoCo composes
// them: the first axis turns with A, the second with B). 4 rows 'x','y','z','∠'.
//   C_∠ = a·b − a₀·b₀            (a₀·b₀ from the initial poses; 0 for the usual perpendicular axes)
//   J_A = [0, (a×b)ᵀ],  J_B = [0, −(a×b)ᵀ]
//   J̇v_∠ = (ω_A×(ω_A×a))·b + 2(ω_A×a)·(ω_B×b) + a·(ω_B×(ω_B×b))
import type { Vec3 } from '../types';
import type { ConstraintSpec } from '../scene/spec';
import type { ConstraintEval, ConstraintModel, Pose } from './constraint';
import { mat3MulVecInto, vecOr } from '../core/math';
import { unitAxis } from './hinge';
import { anchorKinematics, ANGULAR_ROW_MASK, BALL_ROW_MASKS, makeAnchorKin, writeBallRows } from './kinematics';

export class UniversalConstraint implements ConstraintModel {
  readonly rows = 4;
  readonly rowLabels = ['x', 'y', 'z', '∠'] as const;
  readonly rowMasks = [...BALL_ROW_MASKS, ANGULAR_ROW_MASK];
  readonly axisA: Vec3;
  readonly axisB: Vec3;
  /** a₀·b₀ in the initial configuration. */
  readonly cos0: number;
  private readonly anchorA: Vec3;
  private readonly anchorB: Vec3;
  private readonly k = makeAnchorKin();
  private readonly a: Vec3 = [0, 0, 0];
  private readonly b: Vec3 = [0, 0, 0];

  constructor(readonly spec: ConstraintSpec, a0: Pose, b0: Pose) {
    this.anchorA = vecOr(spec.anchorA, [0, 0, 0]);
    this.anchorB = vecOr(spec.anchorB, [0, 0, 0]);
    this.axisA = unitAxis(spec.axisA);
    this.axisB = unitAxis(spec.axisB ?? spec.axisA);
    mat3MulVecInto(a0.R, this.axisA, this.a);
    mat3MulVecInto(b0.R, this.axisB, this.b);
    this.cos0 = this.a[0] * this.b[0] + this.a[1] * this.b[1] + this.a[2] * this.b[2];
  }

  evaluate(a: Pose, b: Pose, out: ConstraintEval): void {
    const k = this.k;
    anchorKinematics(a, b, this.anchorA, this.anchorB, k);
    writeBallRows(k, out);
    const ax = this.a, p = this.b;
    mat3MulVecInto(a.R, this.axisA, ax);
    mat3MulVecInto(b.R, this.axisB, p);
    const wa = a.w, wb = b.w;
    // ȧ = ω_A×a, ä = ω_A×ȧ; ḃ = ω_B×b, b̈ = ω_B×ḃ
    const adx = wa[1] * ax[2] - wa[2] * ax[1], ady = wa[2] * ax[0] - wa[0] * ax[2], adz = wa[0] * ax[1] - wa[1] * ax[0];
    const aax = wa[1] * adz - wa[2] * ady, aay = wa[2] * adx - wa[0] * adz, aaz = wa[0] * ady - wa[1] * adx;
    const pdx = wb[1] * p[2] - wb[2] * p[1], pdy = wb[2] * p[0] - wb[0] * p[2], pdz = wb[0] * p[1] - wb[1] * p[0];
    const ppx = wb[1] * pdz - wb[2] * pdy, ppy = wb[2] * pdx - wb[0] * pdz, ppz = wb[0] * pdy - wb[1] * pdx;
    const cx = ax[1] * p[2] - ax[2] * p[1], cy = ax[2] * p[0] - ax[0] * p[2], cz = ax[0] * p[1] - ax[1] * p[0];
    const o = 18;
    out.C[3] = ax[0] * p[0] + ax[1] * p[1] + ax[2] * p[2] - this.cos0;
    const JA = out.JA, JB = out.JB;
    JA[o] = 0; JA[o + 1] = 0; JA[o + 2] = 0; JA[o + 3] = cx; JA[o + 4] = cy; JA[o + 5] = cz;
    JB[o] = 0; JB[o + 1] = 0; JB[o + 2] = 0; JB[o + 3] = -cx; JB[o + 4] = -cy; JB[o + 5] = -cz;
    out.Jdotv[3] = aax * p[0] + aay * p[1] + aaz * p[2] + 2 * (adx * pdx + ady * pdy + adz * pdz) + ax[0] * ppx + ax[1] * ppy + ax[2] * ppz;
  }
}
