// Hinge (revolute) joint: ball rows + 2 angular rows keeping a = R_A·axisA parallel to R_B·axisB.
// 5 rows 'x','y','z','⊥1','⊥2'.
//   p_k = R_B·u_k, (u_1, u_2) = perpendicularBasis(axisB) in B's frame (fixed at construction)
//   C_k = a·p_k
//   J_A = [0, (a×p_k)ᵀ],  J_B = [0, −(a×p_k)ᵀ]
//   J̇v_k = (ω_A×(ω_A×a))·p_k + 2(ω_A×a)·(ω_B×p_k) + a·(ω_B×(ω_B×p_k))
// Note C = 0 also when a is ANTI-parallel to R_B·axisB (the rows only see the line, not its sense).
import type { Vec3 } from '../types';
import type { ConstraintSpec } from '../scene/spec';
import type { ConstraintEval, ConstraintModel, Pose } from './constraint';
import { crossInto, normalize, perpendicularBasis, vecOr } from '../core/math';
import { anchorKinematics, ANGULAR_ROW_MASK, BALL_ROW_MASKS, makeAnchorKin, makeSpinKin, spinKinematics, writeBallRows } from './kinematics';

/** A unit axis from the spec, defaulting to z when missing or zero. */
export function unitAxis(v: Vec3 | undefined): Vec3 {
  const n = normalize(vecOr(v, [0, 0, 1]));
  return n[0] === 0 && n[1] === 0 && n[2] === 0 ? [0, 0, 1] : n;
}

export class HingeConstraint implements ConstraintModel {
  readonly rows = 5;
  readonly rowLabels = ['x', 'y', 'z', '⊥1', '⊥2'] as const;
  readonly rowMasks = [...BALL_ROW_MASKS, ANGULAR_ROW_MASK, ANGULAR_ROW_MASK];
  readonly axisA: Vec3;
  readonly axisB: Vec3;
  /** Perpendiculars of axisB in B's frame. */
  readonly perpB: readonly [Vec3, Vec3];
  private readonly anchorA: Vec3;
  private readonly anchorB: Vec3;
  private readonly k = makeAnchorKin();
  /** a = R_A·axisA and p_k = R_B·u_k with their rates. */
  private readonly a = makeSpinKin();
  private readonly p = makeSpinKin();
  private readonly c: Vec3 = [0, 0, 0];

  constructor(readonly spec: ConstraintSpec) {
    this.anchorA = vecOr(spec.anchorA, [0, 0, 0]);
    this.anchorB = vecOr(spec.anchorB, [0, 0, 0]);
    this.axisA = unitAxis(spec.axisA);
    this.axisB = unitAxis(spec.axisB ?? spec.axisA);
    this.perpB = perpendicularBasis(this.axisB);
  }

  evaluate(a: Pose, b: Pose, out: ConstraintEval): void {
    const k = this.k;
    anchorKinematics(a, b, this.anchorA, this.anchorB, k);
    writeBallRows(k, out);
    // a, ȧ = ω_A×a, ä = ω_A×ȧ;  p, ṗ = ω_B×p, p̈ = ω_B×ṗ
    const { v: ax, dot: ad, acc: aa } = this.a;
    const { v: p, dot: pd, acc: pp } = this.p;
    const c = this.c;
    spinKinematics(a.R, a.w, this.axisA, this.a);
    const JA = out.JA, JB = out.JB;
    for (let j = 0; j < 2; j++) {
      const row = 3 + j, o = row * 6;
      spinKinematics(b.R, b.w, this.perpB[j], this.p);
      crossInto(ax, p, c);
      out.C[row] = ax[0] * p[0] + ax[1] * p[1] + ax[2] * p[2];
      JA[o] = 0; JA[o + 1] = 0; JA[o + 2] = 0; JA[o + 3] = c[0]; JA[o + 4] = c[1]; JA[o + 5] = c[2];
      JB[o] = 0; JB[o + 1] = 0; JB[o + 2] = 0; JB[o + 3] = -c[0]; JB[o + 4] = -c[1]; JB[o + 5] = -c[2];
      out.Jdotv[row] =
        aa[0] * p[0] + aa[1] * p[1] + aa[2] * p[2] +
        2 * (ad[0] * pd[0] + ad[1] * pd[1] + ad[2] * pd[2]) +
        ax[0] * pp[0] + ax[1] * pp[1] + ax[2] * pp[2];
    }
  }
}
