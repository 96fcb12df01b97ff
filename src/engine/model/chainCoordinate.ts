// The coordinate of one joint of a chain constraint (the hinges and slides MuJoCo stacks between two
// bodies, model/chain.ts), so that its limits, damping, stiffness, armature, friction loss and
// actuators act on it as on a lone joint. Its value is MuJoCo's qpos for that joint.
// MuJoCo moves the body by its joints in order, each about (hinge) or along (slide) its axis in the
// body's frame. Expressed from the initial state, with every joint's axis a_k and anchor c_k in A's frame
// there (the chain spec's), the motion of B relative to A is
//   E = T_A⁻¹·T_B·T_B0⁻¹·T_A0 = L₁(δ₁)·L₂(δ₂)⋯L_n(δ_n),   δ_k = q_k − q_k⁰
// with L_k the rotation by δ_k about the line (c_k, a_k) or the translation δ_k·a_k (as affine maps of
// A's frame, x ↦ R·x + t). Hence
//   R_E = Π_hinges Rot(a_k, δ_k):  no hinge: identity; one hinge: its twist angle about a; two hinges
//         with independent axes: their Davenport angles (model/hingeGroup.ts); three hinges with
//         independent axes: their Davenport angles on the root of the middle angle's equation that
//         the initial state (δ = 0) is on (the other root is the same rotation by other angles);
//   t_E = Σ_k R_{<k}·t_k, t_k = c_k − Rot(a_k, δ_k)·c_k (hinge) or δ_k·a_k (slide): with the hinge angles
//         known, linear in the slides' δ (least squares over their directions R_{<k}·a_k).
// Rates: ĖE⁻¹ = Σ_k δ̇_k·S_k with S_k = Ad(L₁⋯L_{k−1})·ξ_k (spatial twists in A's frame; a hinge's
// ξ = (a, c×a), a slide's (0, a)), and ĖE⁻¹ = (R_Aᵀ(ω_B − ω_A), R_Aᵀ(v_B − v_A + (p_B − p_A)×ω_B)) = V.
// δ̇ = (SᵀS)⁻¹Sᵀ·V, exact wherever the bodies are where the chain puts them (S has full column rank).
// With the row l = (l_ω, l_v) of joint k, g_ω = R_A·l_ω, g_v = R_A·l_v, D = p_B − p_A:
//   J_B = [g_v, g_ω + g_v×D],  J_A = [−g_v, −g_ω]
// q̈ at zero acceleration (J̇·u) is a central difference of J along the bodies' motion.
import type { Mat3, Quat, Vec3 } from '../types';
import type { ChainJointSpec } from '../scene/spec';
import { cross, dot, normalize, quatConj, quatMul, quatToMat3 } from '../core/math';
import type { Pose } from './constraint';
import { gram, solveSym } from '../scene/chainJoints';

export { chainHasCoordinates } from '../scene/chainJoints';
import { groupAngles, middleBranch, wrapAngle } from './hingeGroup';

export interface ChainCoordinate {
  hinge: boolean[];
  /** Unit axes and anchors in A's frame at the initial state. */
  axes: Vec3[];
  anchors: Vec3[];
  index: number;
  /** q_B0⁻¹ ⊗ q_A0 and T_B0⁻¹ applied to A0's origin (the constant factor of E). */
  qc: Quat;
  tc: Vec3;
  /** Three hinges: the root of the middle angle's equation at δ = 0 (hingeGroup.ts `middleBranch`). */
  branch: number;
}

const mul = (R: Mat3, v: Vec3): Vec3 => [R[0] * v[0] + R[1] * v[1] + R[2] * v[2], R[3] * v[0] + R[4] * v[1] + R[5] * v[2], R[6] * v[0] + R[7] * v[1] + R[8] * v[2]];
const mulT = (R: Mat3, v: Vec3): Vec3 => [R[0] * v[0] + R[3] * v[1] + R[6] * v[2], R[1] * v[0] + R[4] * v[1] + R[7] * v[2], R[2] * v[0] + R[5] * v[1] + R[8] * v[2]];
const matMul = (A: Mat3, B: Mat3): Mat3 => {
  const o = new Array<number>(9).fill(0);
  for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) for (let k = 0; k < 3; k++) o[3 * r + c] += A[3 * r + k] * B[3 * k + c];
  return o as unknown as Mat3;
};
const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const scl = (a: Vec3, s: number): Vec3 => [a[0] * s, a[1] * s, a[2] * s];

/** Rot(a, t) as a matrix (row-major). */
function rotation(a: Vec3, t: number): Mat3 {
  const s = Math.sin(t / 2);
  return quatToMat3([a[0] * s, a[1] * s, a[2] * s, Math.cos(t / 2)]);
}

/** The coordinate of joint `index` of the chain, at the initial poses of B (body) and A (parent). */
export function makeChainCoordinate(joints: readonly ChainJointSpec[], index: number, body0: Pose, parent0: Pose): ChainCoordinate {
  const qc = quatMul(quatConj(body0.q), parent0.q);
  const tc = mulT(body0.R, sub(parent0.p, body0.p));
  const axes = joints.map((j) => normalize(j.axis));
  const hinges = axes.filter((_, k) => joints[k].type === 'hinge');
  const branch = hinges.length === 3 ? middleBranch(hinges, 0) : 1;
  return { hinge: joints.map((j) => j.type === 'hinge'), axes, anchors: joints.map((j) => [...j.anchor] as Vec3), index, qc, tc, branch };
}

/** δ of every joint of the chain at the poses of B and A. */
export function chainDeltas(c: ChainCoordinate, body: Pose, parent: Pose): number[] {
  const qE = quatMul(quatMul(quatConj(parent.q), body.q), c.qc);
  const RE = quatToMat3(qE);
  const tE = mulT(parent.R, sub(add(body.p, mul(body.R, c.tc)), parent.p));
  const n = c.axes.length;
  const d = new Array<number>(n).fill(0);
  const hinges = c.hinge.flatMap((h, k) => (h ? [k] : []));
  if (hinges.length === 1) {
    const k = hinges[0];
    const sg = qE[3] < 0 ? -1 : 1;
    d[k] = 2 * Math.atan2(sg * dot(c.axes[k], [qE[0], qE[1], qE[2]]), sg * qE[3]);
  } else if (hinges.length >= 2) {
    const t = groupAngles(hinges.map((k) => c.axes[k]), c.branch, RE);
    hinges.forEach((k, i) => (d[k] = t[i]));
  }
  // t_E − Σ_hinges R_{<k}·(c_k − Rot·c_k) = Σ_slides δ_k·R_{<k}·a_k
  let R: Mat3 = [1, 0, 0, 0, 1, 0, 0, 0, 1];
  let r = tE;
  const cols: Vec3[] = [];
  const slides: number[] = [];
  for (let k = 0; k < n; k++) {
    if (c.hinge[k]) {
      const Rk = rotation(c.axes[k], d[k]);
      r = sub(r, mul(R, sub(c.anchors[k], mul(Rk, c.anchors[k]))));
      R = matMul(R, Rk);
    } else {
      cols.push(mul(R, c.axes[k]));
      slides.push(k);
    }
  }
  if (slides.length) {
    const x = solveSym(gram(cols), cols.map((col) => dot(col, r)));
    if (x) slides.forEach((k, i) => (d[k] = x[i]));
  }
  return d;
}

/** The rows of (SᵀS)⁻¹Sᵀ (6 numbers each: ω then v, in A's frame) at the chain's δ. */
function rateRows(c: ChainCoordinate, d: readonly number[]): number[][] | undefined {
  const n = c.axes.length;
  let R: Mat3 = [1, 0, 0, 0, 1, 0, 0, 0, 1];
  let t: Vec3 = [0, 0, 0];
  const S: number[][] = [];
  for (let k = 0; k < n; k++) {
    const a = c.axes[k];
    const w: Vec3 = c.hinge[k] ? a : [0, 0, 0];
    const v: Vec3 = c.hinge[k] ? cross(c.anchors[k], a) : a;
    // Ad(R, t)·(w, v) = (R·w, R·v + t×R·w)
    const Rw = mul(R, w);
    S.push([...Rw, ...add(mul(R, v), cross(t, Rw))]);
    if (c.hinge[k]) {
      const Rk = rotation(a, d[k]);
      t = add(t, mul(R, sub(c.anchors[k], mul(Rk, c.anchors[k]))));
      R = matMul(R, Rk);
    } else {
      t = add(t, mul(R, scl(a, d[k])));
    }
  }
  const G = S.map((x) => S.map((y) => x.reduce((s, xi, i) => s + xi * y[i], 0)));
  const rows: number[][] = [];
  for (let k = 0; k < n; k++) {
    const e = S.map((_, i) => (i === k ? 1 : 0));
    const y = solveSym(G, e);
    if (!y) return undefined;
    rows.push([0, 1, 2, 3, 4, 5].map((i) => y.reduce((s, yj, j) => s + yj * S[j][i], 0)));
  }
  return rows;
}

/** The Jacobian blocks of joint `index` ([v, ω] on B and on A) at the poses, and δ. */
function jacobianAt(c: ChainCoordinate, body: Pose, parent: Pose, jBody: Float64Array, jParent: Float64Array): number {
  const d = chainDeltas(c, body, parent);
  const rows = rateRows(c, d);
  jBody.fill(0);
  jParent.fill(0);
  if (!rows) return d[c.index];
  const l = rows[c.index];
  const gw = mul(parent.R, [l[0], l[1], l[2]]);
  const gv = mul(parent.R, [l[3], l[4], l[5]]);
  const gvxD = cross(gv, sub(body.p, parent.p));
  for (let i = 0; i < 3; i++) {
    jBody[i] = gv[i];
    jBody[3 + i] = gw[i] + gvxD[i];
    jParent[i] = -gv[i];
    jParent[3 + i] = -gw[i];
  }
  return d[c.index];
}

/** The pose moved by its velocities for time t (rotation by the exponential of ω·t). */
export function movedPose(p: Pose, t: number): Pose {
  const a = Math.hypot(p.w[0], p.w[1], p.w[2]) * t;
  let q = p.q;
  if (a !== 0) {
    const s = Math.sin(a / 2) / (a / t);
    q = quatMul([p.w[0] * s, p.w[1] * s, p.w[2] * s, Math.cos(a / 2)], p.q);
  }
  return { p: add(p.p, scl(p.v, t)), q, R: quatToMat3(q), v: p.v, w: p.w };
}

const rate = (jBody: Float64Array, jParent: Float64Array, body: Pose, parent: Pose): number => {
  let s = 0;
  for (let i = 0; i < 3; i++) s += jBody[i] * body.v[i] + jBody[3 + i] * body.w[i] + jParent[i] * parent.v[i] + jParent[3 + i] * parent.w[i];
  return s;
};

/** Value (initial + δ, a hinge's wrapped to (−π, π]), rate, Jacobian and J̇·u of the chain's joint `index`. */
export function evaluateChainCoordinate(c: ChainCoordinate, initial: number, body: Pose, parent: Pose, o: { q: number; qd: number; qdd: number; jBody: Float64Array; jParent: Float64Array }): void {
  const d = jacobianAt(c, body, parent, o.jBody, o.jParent);
  o.q = initial + (c.hinge[c.index] ? wrapAngle(d) : d);
  o.qd = rate(o.jBody, o.jParent, body, parent);
  // the time over which the bodies turn by 1e-4 rad or move by 1e-4 of the chain's size
  const size = Math.max(1, ...c.anchors.map((x) => Math.hypot(...x)));
  const speed = Math.max(Math.hypot(...body.w), Math.hypot(...parent.w), Math.hypot(...body.v) / size, Math.hypot(...parent.v) / size);
  if (!(speed > 0)) {
    o.qdd = 0;
    return;
  }
  const t = 1e-4 / speed;
  const jb = new Float64Array(6), jp = new Float64Array(6);
  jacobianAt(c, movedPose(body, t), movedPose(parent, t), jb, jp);
  const plus = rate(jb, jp, body, parent);
  jacobianAt(c, movedPose(body, -t), movedPose(parent, -t), jb, jp);
  o.qdd = (plus - rate(jb, jp, body, parent)) / (2 * t);
}
