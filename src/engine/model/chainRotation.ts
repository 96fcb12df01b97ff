// The rows of a chain of three hinges whose axes span space (scene/chainPattern.ts `rotation`; meeting
// or not, as dm_control's dog's scapulas), with up to two slides among them. Every rotation of B
// relative to A is allowed, so the rows constrain the translation only: with E = T_A⁻¹·T_B·T_B0⁻¹·T_A0 =
// L₁(δ₁)⋯L_n(δ_n) (model/chainCoordinate.ts), the hinge angles δ are the Davenport angles of R_E
// (model/hingeGroup.ts, on the root of the middle angle's equation that the initial state is on), and
//   x = t_E − f(δ),   f(δ) = Σ_hinges R_{<k}·(c_k − Rot(a_k, δ_k)·c_k)
// in A's frame is, where B is where the joints put it, Σ_slides δ_s·u_s with u_s = R_{<s}·a_s (a slide
// turns with the hinges before it and moves nothing else). The rows are C_i = r_i·x for directions r_i
// across the slides: no slide, the axes e_i; one slide s, r_i = R_{<s}·m_i with m₁, m₂ ⊥ a_s; two
// slides, r = u₁×u₂.
// Rates: with V = (ω, v) = ĖE⁻¹ (A's frame; chainCoordinate.ts), ṫ_E = v + ω×t_E, and along the hinges
// f moves as ∂f/∂δ_k = v_k + w_k×f with the hinges' twists S_k = (w_k, v_k) = Ad(L_{<k})·(a_k, c_k×a_k)
// (slides left out: f has none). The w_k span space, so δ̇ = W⁻¹·ω (W = [w₁ w₂ w₃]) and, exactly at any
// state, ẋ = v − Q·ω with Q = P + [x]×, P = [v₁ v₂ v₃]·W⁻¹. The frame before a slide turns at
// Ω_s = G_s·ω, G_s = Σ_{k<s} w_k·(W⁻¹)_k, so ṙ = D·ω: one slide, D_i = −[r_i]×·G_s; two slides,
// D = [u₂]×[u₁]×·G₁ − [u₁]×[u₂]×·G₂. Then Ċ_i = r_i·v − g_i·ω with g_i = Qᵀr_i − D_iᵀx. Row i
// (g_v = R_A·r_i, g_ω = R_A·g_i, D = p_B − p_A):
//   J_B = [g_v, g_v×D − g_ω],  J_A = [−g_v, g_ω]
// J̇·u is a central difference of J·u along the bodies' motion at constant velocities (as the chain
// coordinates'). Where the middle hinge turns the first and last axes parallel (the gimbal lock) W is
// singular and the split of ω between them undefined: det W is kept away from zero there, so the rows
// stay finite (the chain itself loses a degree of freedom at that state).
import type { Mat3, Quat, Vec3 } from '../types';
import { cross, perpendicularBasis, quatConj, quatMul, quatToMat3 } from '../core/math';
import type { ConstraintEval, Pose } from './constraint';
import { groupAngles, middleBranch } from './hingeGroup';
import { movedPose } from './chainCoordinate';

export interface RotationChain {
  axes: Vec3[];
  anchors: Vec3[];
  /** The slides: unit axis, how many hinges act before it, and (one slide) two unit directions across it. */
  slides: { axis: Vec3; after: number }[];
  across: Vec3[];
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
/** [a]×·M for a 3×3 M (row-major). */
const crossMat = (a: Vec3, M: Mat3): Mat3 => {
  const o = [0, 0, 0, 0, 0, 0, 0, 0, 0];
  for (let c = 0; c < 3; c++) {
    const col = cross(a, [M[c], M[3 + c], M[6 + c]]);
    o[c] = col[0]; o[3 + c] = col[1]; o[6 + c] = col[2];
  }
  return o as unknown as Mat3;
};
const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const rotation = (a: Vec3, t: number): Mat3 => {
  const s = Math.sin(t / 2);
  return quatToMat3([a[0] * s, a[1] * s, a[2] * s, Math.cos(t / 2)]);
};

export function makeRotationChain(axes: readonly Vec3[], anchors: readonly Vec3[], slides: readonly { axis: Vec3; after: number }[], a0: Pose, b0: Pose): RotationChain {
  return {
    axes: axes.map((a) => [...a] as Vec3),
    anchors: anchors.map((c) => [...c] as Vec3),
    slides: slides.map((s) => ({ axis: [...s.axis] as Vec3, after: s.after })),
    across: slides.length === 1 ? perpendicularBasis(slides[0].axis) : [],
    branch: middleBranch(axes, 0),
    qc: quatMul(quatConj(b0.q), a0.q),
    tc: mulT(b0.R, sub(a0.p, b0.p)),
  };
}

/** Rows of the chain: 3 less the slides. */
export const rotationChainRows = (c: RotationChain): number => 3 - c.slides.length;

/** The hinge angles of the chain's rotation at these poses (δ from the initial state). */
export function rotationChainAngles(c: RotationChain, b: Pose, a: Pose): number[] {
  return groupAngles(c.axes, c.branch, quatToMat3(quatMul(quatMul(quatConj(a.q), b.q), c.qc)));
}

/** The rows' values C_i = r_i·x and their angular parts g_i (A's frame) at the poses, with the directions r_i. */
function residual(c: RotationChain, a: Pose, b: Pose): { C: number[]; r: Vec3[]; g: Vec3[] } {
  const d = rotationChainAngles(c, b, a);
  const tE = mulT(a.R, sub(add(b.p, mul(b.R, c.tc)), a.p));
  let R: Mat3 = [1, 0, 0, 0, 1, 0, 0, 0, 1];
  let f: Vec3 = [0, 0, 0];
  const w: Vec3[] = [], v: Vec3[] = [], frames: Mat3[] = [R];
  for (let k = 0; k < 3; k++) {
    const ak = c.axes[k], ck = c.anchors[k];
    const wk = mul(R, ak);
    w.push(wk);
    v.push(add(mul(R, cross(ck, ak)), cross(f, wk)));
    const Rk = rotation(ak, d[k]);
    f = add(f, mul(R, sub(ck, mul(Rk, ck))));
    R = matMul(R, Rk);
    frames.push(R);
  }
  const x = sub(tE, f);
  // W⁻¹ = rows (w₂×w₃, w₃×w₁, w₁×w₂)/det
  const cof = [cross(w[1], w[2]), cross(w[2], w[0]), cross(w[0], w[1])];
  const det0 = cof[0][0] * w[0][0] + cof[0][1] * w[0][1] + cof[0][2] * w[0][2];
  const det = Math.abs(det0) > 1e-9 ? det0 : det0 < 0 ? -1e-9 : 1e-9;
  const Winv = cof.map((r) => [r[0] / det, r[1] / det, r[2] / det] as Vec3);
  // Q = [v₁ v₂ v₃]·W⁻¹ + [x]×
  const Q = new Array<number>(9).fill(0);
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) Q[3 * i + j] += v[k][i] * Winv[k][j];
  Q[1] -= x[2]; Q[2] += x[1];
  Q[3] += x[2]; Q[5] -= x[0];
  Q[6] -= x[1]; Q[7] += x[0];
  /** G = Σ_{k<n} w_k·(W⁻¹)_k: the frame after n hinges turns at G·ω. */
  const G = (n: number): Mat3 => {
    const o = [0, 0, 0, 0, 0, 0, 0, 0, 0];
    for (let k = 0; k < n; k++) for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) o[3 * i + j] += w[k][i] * Winv[k][j];
    return o as unknown as Mat3;
  };
  const rows: { r: Vec3; D?: Mat3 }[] = [];
  const sl = c.slides;
  if (sl.length === 0) rows.push({ r: [1, 0, 0] }, { r: [0, 1, 0] }, { r: [0, 0, 1] });
  else if (sl.length === 1) {
    const Fs = frames[sl[0].after], Gs = G(sl[0].after);
    for (const m of c.across) {
      const r = mul(Fs, m);
      const D = crossMat(r, Gs);
      rows.push({ r, D: D.map((y) => -y) as unknown as Mat3 });
    }
  } else {
    const [s1, s2] = sl;
    const u1 = mul(frames[s1.after], s1.axis), u2 = mul(frames[s2.after], s2.axis);
    const A1 = crossMat(u2, crossMat(u1, G(s1.after))), A2 = crossMat(u1, crossMat(u2, G(s2.after)));
    rows.push({ r: cross(u1, u2), D: A1.map((y, i) => y - A2[i]) as unknown as Mat3 });
  }
  const C: number[] = [], r: Vec3[] = [], g: Vec3[] = [];
  for (const row of rows) {
    const ri = row.r;
    const gi: Vec3 = [0, 1, 2].map((j) => Q[j] * ri[0] + Q[3 + j] * ri[1] + Q[6 + j] * ri[2]) as Vec3;
    if (row.D) for (let j = 0; j < 3; j++) gi[j] -= row.D[j] * x[0] + row.D[3 + j] * x[1] + row.D[6 + j] * x[2];
    C.push(ri[0] * x[0] + ri[1] * x[1] + ri[2] * x[2]);
    r.push(ri);
    g.push(gi);
  }
  return { C, r, g };
}

/** The rows' Jacobian blocks ([v, ω], rows×6) at the poses, into JA and JB from row `at`; returns C. */
function rows(c: RotationChain, a: Pose, b: Pose, JA: Float64Array, JB: Float64Array, at: number): number[] {
  const { C, r, g } = residual(c, a, b);
  const D = sub(b.p, a.p);
  for (let i = 0; i < C.length; i++) {
    const gv = mul(a.R, r[i]);
    const gw = mul(a.R, g[i]);
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

/** C, J and J̇·u of the chain's rows, written from row `at` of `out`. */
export function evaluateRotationChain(c: RotationChain, a: Pose, b: Pose, out: ConstraintEval, at: number): void {
  const C = rows(c, a, b, out.JA, out.JB, at);
  const n = C.length;
  for (let i = 0; i < n; i++) out.C[at + i] = C[i];
  // the time over which the bodies turn by 1e-5 rad or move by 1e-5 of the chain's size: C curves fast
  // near the gimbal lock, so a shorter time than the chain coordinates' (round-off ~1e-11 relative)
  const size = Math.max(1, ...c.anchors.map((x) => Math.hypot(...x)));
  const speed = Math.max(Math.hypot(...b.w), Math.hypot(...a.w), Math.hypot(...b.v) / size, Math.hypot(...a.v) / size);
  if (!(speed > 0)) {
    for (let i = 0; i < n; i++) out.Jdotv[at + i] = 0;
    return;
  }
  const t = 1e-5 / speed;
  const JA = new Float64Array(6 * n), JB = new Float64Array(6 * n);
  const rates = (s: number): number[] => {
    rows(c, movedPose(a, s), movedPose(b, s), JA, JB, 0);
    return C.map((_, i) => rate(JA, 6 * i, a) + rate(JB, 6 * i, b));
  };
  const plus = rates(t), minus = rates(-t);
  for (let i = 0; i < n; i++) out.Jdotv[at + i] = (plus[i] - minus[i]) / (2 * t);
}
