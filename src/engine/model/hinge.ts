// Hinge (revolute) joint: ball rows + 2 angular rows keeping a = R_A·axisA parallel to R_B·axisB.
// 5 rows 'x','y','z','⊥1','⊥2'.
//   p_k = R_B·u_k, (u_1, u_2) = perpendicularBasis(axisB) in B's frame (fixed at construction)
//   C_k = a·p_k
//   J_A = [0, (a×p_k)ᵀ],  J_B = [0, −(a×p_k)ᵀ]
//   J̇v_k = (ω_A×(ω_A×a))·p_k + 2(ω_A×a)·(ω_B×p_k) + a·(ω_B×(ω_B×p_k))
// Note C = 0 also when a is ANTI-parallel to R_B·axisB (the rows only see the line, not its sense).
import type { Vec3 } from '../types';
import type { ConstraintSpec } from '../scene/types';
import type { ConstraintEval, ConstraintModel, Pose } from './constraint';
import { normalize, perpendicularBasis } from '../math';
import { anchorKinematics, makeAnchorKin, mulInto, vecOr, writeBallRow } from './ball';

/** A unit axis from the spec, defaulting to z when missing or zero. */
export function unitAxis(v: Vec3 | undefined): Vec3 {
  const n = normalize(vecOr(v, [0, 0, 1]));
  return n[0] === 0 && n[1] === 0 && n[2] === 0 ? [0, 0, 1] : n;
}

export class HingeConstraint implements ConstraintModel {
  readonly rows = 5;
  readonly rowLabels = ['x', 'y', 'z', '⊥1', '⊥2'] as const;
  readonly axisA: Vec3;
  readonly axisB: Vec3;
  /** Perpendiculars of axisB in B's frame. */
  readonly perpB: readonly [Vec3, Vec3];
  private readonly anchorA: Vec3;
  private readonly anchorB: Vec3;
  private readonly k = makeAnchorKin();
  private readonly a: Vec3 = [0, 0, 0];
  private readonly p: Vec3 = [0, 0, 0];

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
    for (let i = 0; i < 3; i++) {
      out.C[i] = k.d[i];
      writeBallRow(k, i, i, out);
    }
    const ax = this.a, p = this.p;
    mulInto(a.R, this.axisA, ax);
    const wa = a.w, wb = b.w;
    // ȧ = ω_A×a, ä = ω_A×ȧ
    const adx = wa[1] * ax[2] - wa[2] * ax[1], ady = wa[2] * ax[0] - wa[0] * ax[2], adz = wa[0] * ax[1] - wa[1] * ax[0];
    const aax = wa[1] * adz - wa[2] * ady, aay = wa[2] * adx - wa[0] * adz, aaz = wa[0] * ady - wa[1] * adx;
    const JA = out.JA, JB = out.JB;
    for (let j = 0; j < 2; j++) {
      const row = 3 + j, o = row * 6;
      mulInto(b.R, this.perpB[j], p);
      // ṗ = ω_B×p, p̈ = ω_B×ṗ
      const pdx = wb[1] * p[2] - wb[2] * p[1], pdy = wb[2] * p[0] - wb[0] * p[2], pdz = wb[0] * p[1] - wb[1] * p[0];
      const ppx = wb[1] * pdz - wb[2] * pdy, ppy = wb[2] * pdx - wb[0] * pdz, ppz = wb[0] * pdy - wb[1] * pdx;
      const cx = ax[1] * p[2] - ax[2] * p[1], cy = ax[2] * p[0] - ax[0] * p[2], cz = ax[0] * p[1] - ax[1] * p[0];
      out.C[row] = ax[0] * p[0] + ax[1] * p[1] + ax[2] * p[2];
      JA[o] = 0; JA[o + 1] = 0; JA[o + 2] = 0; JA[o + 3] = cx; JA[o + 4] = cy; JA[o + 5] = cz;
      JB[o] = 0; JB[o + 1] = 0; JB[o + 2] = 0; JB[o + 3] = -cx; JB[o + 4] = -cy; JB[o + 5] = -cz;
      out.Jdotv[row] =
        aax * p[0] + aay * p[1] + aaz * p[2] +
        2 * (adx * pdx + ady * pdy + adz * pdz) +
        ax[0] * ppx + ax[1] * ppy + ax[2] * ppz;
    }
  }
}
