// The rows of a chain of three hinges whose axes span space (scene/chainPattern.ts `rotation`; meeting
// or not, as dm_control's dog's scapulas). Every rotation of B relative to A is allowed, so the rows
// constrain the translation only: with E = T_A⁻¹·T_B·T_B0⁻¹·T_A0 = L₁(δ₁)·L₂(δ₂)·L₃(δ₃) (model/
// chainCoordinate.ts), the hinge angles δ are the Davenport angles of R_E (model/hingeGroup.ts, on the
// root of the middle angle's equation that the initial state is on), and
//   C = t_E − f(δ),   f(δ) = Σ_k R_{<k}·(c_k − Rot(a_k, δ_k)·c_k)
// in A's frame: zero wherever B is where the hinges put it, whatever the angles.
// Rates: with V = (ω, v) = ĖE⁻¹ (A's frame; chainCoordinate.ts), ṫ_E = v + ω×t_E, and along the hinges
// f moves as ∂f/∂δ_k = v_k + w_k×f with the twists S_k = (w_k, v_k) = Ad(L_{<k})·(a_k, c_k×a_k). The
// w_k span space, so δ̇ = W⁻¹·ω (W = [w₁ w₂ w₃]) and, exactly at any state,
//   Ċ = v − (P + [C]×)·ω,   P = [v₁ v₂ v₃]·W⁻¹.
// Row i (g_v = R_A·e_i, g_ω = R_A·Qᵀe_i, Q = P + [C]×, D = p_B − p_A):
//   J_B = [g_v, g_v×D − g_ω],  J_A = [−g_v, g_ω]
// J̇·u is a central difference of J·u along the bodies' motion at constant velocities (as the chain
// coordinates'). Where the middle hinge turns the first and last axes parallel (the gimbal lock) W is
// singular and the split of ω between them undefined: det W is kept away from zero there, so the rows
// stay finite (the chain itself loses a degree of freedom at that state).
import type { Mat3, Quat, Vec3 } from '../types';
import { cross, quatConj, quatMul, quatToMat3 } from '../core/math';
import type { ConstraintEval, Pose } from './constraint';
import { groupAngles, middleBranch } from './hingeGroup';
import { movedPose } from './chainCoordinate';

export interface RotationChain {
  axes: Vec3[];
  anchors: Vec3[];
  branch: number;
  /** q_B0⁻¹ ⊗ q_A0 and T_B0⁻¹ applied to A0's origin (the constant factor of E). */
  qc: Quat;
  tc: Vec3;
}

const mul = (R: Mat3, v: Vec3): Vec3 => [R[0] * v[0] + R[1] * v[1] + R[2] * v[2], R[3] * v[0] + R[4] * v[1] + R[5] * v[2], R[6] * v[0] + R[7] * v[1] + R[8] * v[2]];
const mulT = (R: Mat3, v: Vec3): Vec3 => [R[0] * v[0] + R[3] * v[1] + R[6] * v[2], R[1] * v[0] + R[4] * v[1] + R[7] * v[2], R[2] * v[0] + R[5] * v[1] + R[8] * v[2]];
const matMul = (A: Mat3, B: Mat3): Mat3 => {
  const o = [0, 0, 0, 0, 0, 0, 0, 0, 0];
  for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) for (let k = 0; k < 3; k++) o[3 * r + c] += A[3 * r + k] * B[3 * k + c];
  return o as unknown as Mat3;
};
const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const rotation = (a: Vec3, t: number): Mat3 => {
  const s = Math.sin(t / 2);
  return quatToMat3([a[0] * s, a[1] * s, a[2] * s, Math.cos(t / 2)]);
};

export function makeRotationChain(axes: readonly Vec3[], anchors: readonly Vec3[], a0: Pose, b0: Pose): RotationChain {
  return {
    axes: axes.map((a) => [...a] as Vec3),
    anchors: anchors.map((c) => [...c] as Vec3),
    branch: middleBranch(axes, 0),
    qc: quatMul(quatConj(b0.q), a0.q),
    tc: mulT(b0.R, sub(a0.p, b0.p)),
  };
}

/** The hinge angles of the chain's rotation at these poses (δ from the initial state). */
export function rotationChainAngles(c: RotationChain, b: Pose, a: Pose): number[] {
  return groupAngles(c.axes, c.branch, quatToMat3(quatMul(quatMul(quatConj(a.q), b.q), c.qc)));
}

/** C (A's frame) and Q = P + [C]× (row-major) at the poses. */
function residual(c: RotationChain, a: Pose, b: Pose): { C: Vec3; Q: number[] } {
  const d = rotationChainAngles(c, b, a);
  const tE = mulT(a.R, sub(add(b.p, mul(b.R, c.tc)), a.p));
  let R: Mat3 = [1, 0, 0, 0, 1, 0, 0, 0, 1];
  let f: Vec3 = [0, 0, 0];
  const w: Vec3[] = [], v: Vec3[] = [];
  for (let k = 0; k < 3; k++) {
    const ak = c.axes[k], ck = c.anchors[k];
    const wk = mul(R, ak);
    w.push(wk);
    v.push(add(mul(R, cross(ck, ak)), cross(f, wk)));
    const Rk = rotation(ak, d[k]);
    f = add(f, mul(R, sub(ck, mul(Rk, ck))));
    R = matMul(R, Rk);
  }
  const C = sub(tE, f);
  // W⁻¹ = rows (w₂×w₃, w₃×w₁, w₁×w₂)/det
  const cof = [cross(w[1], w[2]), cross(w[2], w[0]), cross(w[0], w[1])];
  const det0 = cof[0][0] * w[0][0] + cof[0][1] * w[0][1] + cof[0][2] * w[0][2];
  const det = Math.abs(det0) > 1e-9 ? det0 : det0 < 0 ? -1e-9 : 1e-9;
  const Q = new Array<number>(9);
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) Q[3 * i + j] = (v[0][i] * cof[0][j] + v[1][i] * cof[1][j] + v[2][i] * cof[2][j]) / det;
  }
  // + [C]×
  Q[1] -= C[2]; Q[2] += C[1];
  Q[3] += C[2]; Q[5] -= C[0];
  Q[6] -= C[1]; Q[7] += C[0];
  return { C, Q };
}

/** The three rows' Jacobian blocks ([v, ω], rows×6) at the poses, into JA and JB from row `at`; returns C. */
function rows(c: RotationChain, a: Pose, b: Pose, JA: Float64Array, JB: Float64Array, at: number): Vec3 {
  const { C, Q } = residual(c, a, b);
  const D = sub(b.p, a.p);
  const RA = a.R;
  for (let i = 0; i < 3; i++) {
    const gv: Vec3 = [RA[i], RA[3 + i], RA[6 + i]];
    const gw = mul(RA, [Q[3 * i], Q[3 * i + 1], Q[3 * i + 2]]);
    const gvxD = cross(gv, D);
    const o = (at + i) * 6;
    for (let k = 0; k < 3; k++) {
      JB[o + k] = gv[k];
      JB[o + 3 + k] = gvxD[k] - gw[k];
      JA[o + k] = -gv[k];
      JA[o + 3 + k] = gw[k];
    }
  }
  return C;
}

const rate = (J: Float64Array, o: number, p: Pose): number => J[o] * p.v[0] + J[o + 1] * p.v[1] + J[o + 2] * p.v[2] + J[o + 3] * p.w[0] + J[o + 4] * p.w[1] + J[o + 5] * p.w[2];

/** C, J and J̇·u of the chain's three rows, written from row `at` of `out`. */
export function evaluateRotationChain(c: RotationChain, a: Pose, b: Pose, out: ConstraintEval, at: number): void {
  const C = rows(c, a, b, out.JA, out.JB, at);
  for (let i = 0; i < 3; i++) out.C[at + i] = C[i];
  // the time over which the bodies turn by 1e-5 rad or move by 1e-5 of the chain's size: C curves fast
  // near the gimbal lock, so a shorter time than the chain coordinates' (round-off ~1e-11 relative)
  const size = Math.max(1, ...c.anchors.map((x) => Math.hypot(...x)));
  const speed = Math.max(Math.hypot(...b.w), Math.hypot(...a.w), Math.hypot(...b.v) / size, Math.hypot(...a.v) / size);
  if (!(speed > 0)) {
    for (let i = 0; i < 3; i++) out.Jdotv[at + i] = 0;
    return;
  }
  const t = 1e-5 / speed;
  const JA = new Float64Array(18), JB = new Float64Array(18);
  const rates = (s: number): number[] => {
    rows(c, movedPose(a, s), movedPose(b, s), JA, JB, 0);
    return [0, 1, 2].map((i) => rate(JA, 6 * i, a) + rate(JB, 6 * i, b));
  };
  const plus = rates(t), minus = rates(-t);
  for (let i = 0; i < 3; i++) out.Jdotv[at + i] = (plus[i] - minus[i]) / (2 * t);
}
