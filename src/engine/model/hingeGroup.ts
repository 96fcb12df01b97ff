// The angle of one hinge of a group of two or three hinges through one point (a universal or ball
// constraint that stands for MuJoCo's hinges of one body), so that its limits, damping, stiffness,
// armature, friction loss and actuators act on it as on a lone hinge.
// MuJoCo turns the body by the group's hinges in order, each about its axis b_k in the body's frame:
//   R_B = R_P · R_off · X,   X = Rot(b₁, θ₁)·Rot(b₂, θ₂)[·Rot(b₃, θ₃)]
// θ_k = qpos_k − qpos0_k. From the initial poses and angles θ⁰, X = X₀ ⊗ q_B0⁻¹ ⊗ q_P0 ⊗ q_P⁻¹ ⊗ q_B.
// The angles are the Davenport angles of X about b₁, b₂(, b₃):
//   two hinges:   v = X·b₂, θ₁ = the angle about b₁ from b₂ to v;  u = Xᵀ·b₁, θ₂ = minus the angle about b₂ from b₁ to u
//   three hinges: b₁·X·b₃ = b₁·Rot(b₂, θ₂)·b₃ = A·cos θ₂ + B·sin θ₂ + D gives θ₂ (the branch of the initial
//                 state), then θ₁ from X·b₃ = Rot(b₁, θ₁)·Rot(b₂, θ₂)·b₃ and θ₃ from Xᵀ·b₁ = Rot(b₃, −θ₃)·Rot(b₂, −θ₂)·b₁
// Rates: Ẋ = X·[Ω]×, Ω = R_Bᵀ(ω_B − ω_P) (in B's frame), and θ̇_k = g_k·Ω with
//   two hinges (exact at any X, also off the universal's manifold):
//     g₁ = b₂ × Xᵀ(b₁ × v) / (1 − (b₁·v)²),   g₂ = (b₂ − (u·b₂)·u) / (1 − (u·b₂)²)
//   three hinges: Ω = θ̇₁·s₁ + θ̇₂·s₂ + θ̇₃·s₃, s₃ = b₃, s₂ = Rot(b₃, −θ₃)·b₂, s₁ = Rot(b₃, −θ₃)·Rot(b₂, −θ₂)·b₁,
//     so g_k is row k of S⁻¹: g₁ = (s₂ × s₃)/det S, …
// The coordinate is q = q⁰ + wrap(θ_k − θ_k⁰) (continuous for |θ_k − θ_k⁰| < π, like a hinge's), its
// Jacobian [0, −R_B·g_k] on the parent and [0, R_B·g_k] on the body.
import type { Mat3, Quat, Vec3 } from '../types';
import { cross, dot, quatConj, quatMul, quatToMat3 } from '../core/math';
import type { Pose } from './constraint';

export interface HingeGroup {
  /** Unit axes in bodyB's frame, in the order MuJoCo applies them. */
  axes: Vec3[];
  /** Which of them this coordinate is. */
  index: number;
  /** θ in the initial state (each hinge's rotation from the group's zero). */
  angles0: number[];
  /** Three hinges: the root of the middle angle's equation (±1) that the initial state is on. */
  branch: number;
  /** X₀ ⊗ q_B0⁻¹ ⊗ q_P0. */
  m: Quat;
}

/** Rot(b, θ)·v (Rodrigues). */
function rot(b: Vec3, t: number, v: Vec3): Vec3 {
  const c = Math.cos(t), s = Math.sin(t), k = dot(b, v) * (1 - c), bxv = cross(b, v);
  return [v[0] * c + bxv[0] * s + b[0] * k, v[1] * c + bxv[1] * s + b[1] * k, v[2] * c + bxv[2] * s + b[2] * k];
}

const mulT = (R: Mat3, v: Vec3): Vec3 => [R[0] * v[0] + R[3] * v[1] + R[6] * v[2], R[1] * v[0] + R[4] * v[1] + R[7] * v[2], R[2] * v[0] + R[5] * v[1] + R[8] * v[2]];
const mul = (R: Mat3, v: Vec3): Vec3 => [R[0] * v[0] + R[1] * v[1] + R[2] * v[2], R[3] * v[0] + R[4] * v[1] + R[5] * v[2], R[6] * v[0] + R[7] * v[1] + R[8] * v[2]];
/** The angle about b from x to y (their parts across b). */
const angleAbout = (b: Vec3, x: Vec3, y: Vec3): number => Math.atan2(dot(b, cross(x, y)), dot(x, y) - dot(b, x) * dot(b, y));
export const wrapAngle = (t: number): number => t - 2 * Math.PI * Math.round(t / (2 * Math.PI));

/** The middle angle's equation A·cos θ + B·sin θ + D = b₁·X·b₃ as (φ, ρ, D): θ = φ ± acos((y − D)/ρ). */
function middle(axes: readonly Vec3[]): { phi: number; rho: number; D: number } {
  const [b1, b2, b3] = axes;
  const D = dot(b1, b2) * dot(b2, b3);
  const A = dot(b1, b3) - D, B = dot(b1, cross(b2, b3));
  return { phi: Math.atan2(B, A), rho: Math.hypot(A, B), D };
}

/** Three hinges: the root (±1) of the middle angle's equation that a middle angle θ₂ lies on. */
export function middleBranch(axes: readonly Vec3[], t2: number): number {
  return wrapAngle(t2 - middle(axes).phi) < 0 ? -1 : 1;
}

/** The group's angles θ at X (rotation matrix, row-major) with `branch` for three hinges. */
export function groupAngles(axes: readonly Vec3[], branch: number, X: Mat3): number[] {
  if (axes.length === 2) {
    const [b1, b2] = axes;
    return [angleAbout(b1, b2, mul(X, b2)), -angleAbout(b2, b1, mulT(X, b1))];
  }
  const [b1, b2, b3] = axes;
  const { phi, rho, D } = middle(axes);
  const y = dot(b1, mul(X, b3));
  const t2 = phi + branch * Math.acos(Math.min(1, Math.max(-1, rho > 0 ? (y - D) / rho : 1)));
  const t1 = angleAbout(b1, rot(b2, t2, b3), mul(X, b3));
  const t3 = -angleAbout(b3, rot(b2, -t2, b1), mulT(X, b1));
  return [t1, t2, t3];
}

/** X = Π Rot(b_k, θ_k) as a quaternion [x, y, z, w]. */
function groupQuat(axes: readonly Vec3[], angles: readonly number[]): Quat {
  let q: Quat = [0, 0, 0, 1];
  axes.forEach((b, k) => {
    const s = Math.sin(angles[k] / 2);
    q = quatMul(q, [b[0] * s, b[1] * s, b[2] * s, Math.cos(angles[k] / 2)]);
  });
  return q;
}

/** The group coordinate of hinge `index` whose initial angles are `angles0`, at the initial poses of body and parent. */
export function makeHingeGroup(axes: Vec3[], index: number, angles0: number[], body0: Pose, parent0: Pose): HingeGroup {
  const m = quatMul(quatMul(groupQuat(axes, angles0), quatConj(body0.q)), parent0.q);
  const branch = axes.length === 3 ? middleBranch(axes, angles0[1]) : 1;
  return { axes, index, angles0, branch, m };
}

/** θ̇_k = g·Ω for the group's hinge `index` at X (its angles θ): g in B's frame. */
function rateAxis(g: HingeGroup, X: Mat3, theta: readonly number[]): Vec3 {
  const k = g.index;
  if (g.axes.length === 2) {
    const [b1, b2] = g.axes;
    if (k === 0) {
      const v = mul(X, b2), c = dot(b1, v), den = 1 - c * c;
      const n = cross(b2, mulT(X, cross(b1, v)));
      return den > 1e-300 ? [n[0] / den, n[1] / den, n[2] / den] : b1;
    }
    const u = mulT(X, b1), c = dot(u, b2), den = 1 - c * c;
    return den > 1e-300 ? [(b2[0] - c * u[0]) / den, (b2[1] - c * u[1]) / den, (b2[2] - c * u[2]) / den] : b2;
  }
  const [b1, b2, b3] = g.axes;
  const s3 = b3, s2 = rot(b3, -theta[2], b2), s1 = rot(b3, -theta[2], rot(b2, -theta[1], b1));
  const s = [s1, s2, s3];
  const det = dot(s1, cross(s2, s3));
  const n = cross(s[(k + 1) % 3], s[(k + 2) % 3]);
  // gimbal lock (the first and last axes aligned): the split of the rate between them is undefined
  return Math.abs(det) > 1e-12 ? [n[0] / det, n[1] / det, n[2] / det] : g.axes[k];
}

export interface GroupEval {
  q: number;
  qd: number;
  /** The angular Jacobian on the body, R_B·g (the parent's is its negative). */
  G: Vec3;
}

/** θ_k − θ_k⁰ (wrapped to (−π, π]) and the world rate axis at the poses of body and parent. */
export function groupAngleAt(g: HingeGroup, bodyQ: Quat, parentQ: Quat): { dq: number; G: Vec3 } {
  const X = quatToMat3(quatMul(quatMul(g.m, quatConj(parentQ)), bodyQ));
  const theta = groupAngles(g.axes, g.branch, X);
  const RB = quatToMat3(bodyQ);
  return { dq: wrapAngle(theta[g.index] - g.angles0[g.index]), G: mul(RB, rateAxis(g, X, theta)) };
}

/** Turn q by ω·t (a small rotation, first order in the exponential). */
function turned(q: Quat, w: Vec3, t: number): Quat {
  const a = Math.hypot(w[0], w[1], w[2]) * t;
  if (a === 0) return q;
  // t < 0 turns back: a < 0 and sin(a/2)/|ω| < 0
  const s = Math.sin(a / 2) / (a / t);
  return quatMul([w[0] * s, w[1] * s, w[2] * s, Math.cos(a / 2)], q);
}

/**
 * Value (initial + wrapped change), rate, Jacobian and the zero-acceleration q̈ = Ġ·(ω_B − ω_P) of hinge
 * `index` of the group. Ġ is a central difference along the bodies' rotation (its error is of order
 * (10⁻⁴)² relative): nothing in the step integrates it; it is the coupler's term, for completeness.
 */
export function evaluateGroup(g: HingeGroup, initial: number, body: Pose, parent: Pose, o: { q: number; qd: number; qdd: number; jBody: Float64Array; jParent: Float64Array }): void {
  const { dq, G } = groupAngleAt(g, body.q, parent.q);
  const dw: Vec3 = [body.w[0] - parent.w[0], body.w[1] - parent.w[1], body.w[2] - parent.w[2]];
  o.q = initial + dq;
  o.qd = dot(G, dw);
  o.jBody.fill(0);
  o.jParent.fill(0);
  for (let i = 0; i < 3; i++) {
    o.jBody[3 + i] = G[i];
    o.jParent[3 + i] = -G[i];
  }
  const wmax = Math.max(Math.hypot(...body.w), Math.hypot(...parent.w));
  if (!(wmax > 0)) {
    o.qdd = 0;
    return;
  }
  const t = 1e-4 / wmax;
  const Gp = groupAngleAt(g, turned(body.q, body.w, t), turned(parent.q, parent.w, t)).G;
  const Gm = groupAngleAt(g, turned(body.q, body.w, -t), turned(parent.q, parent.w, -t)).G;
  o.qdd = ((Gp[0] - Gm[0]) * dw[0] + (Gp[1] - Gm[1]) * dw[1] + (Gp[2] - Gm[2]) * dw[2]) / (2 * t);
}
