// MuJoCo's fluid forces (engine_passive.c `mj_fluid`): a body moving through a medium of density ρ and
// viscosity μ, which itself moves at the wind velocity, feels a wrench that depends on its velocity
// relative to the medium. MuJoCo adds it to qfrc_passive as an explicit force evaluated at the state the
// step starts from; here it is added to F the same way, per body at its centre of mass.
//
// Two models, chosen per body as MuJoCo chooses: a body with a shape marked `fluidEllipsoid` (MuJoCo's
// fluidshape="ellipsoid") takes the ellipsoid model on each such shape; any other body the inertia-box
// model on the body as a whole.
// - Inertia box (`mj_inertiaBoxFluidModel`): the box of uniform density with the body's mass and
//   principal moments, sides bᵢ = √(6·(Iⱼ + Iₖ − Iᵢ)/m), in the principal frame. With v, ω the centre's
//   velocity relative to the wind and the body's angular velocity in that frame, and D = (b₀+b₁+b₂)/3:
//     f = −3πDμ·v − ½ρ·(bⱼbₖ)·|vᵢ|vᵢ,   τ = −πD³μ·ω − ρ·bᵢ(bⱼ⁴ + bₖ⁴)/64·|ωᵢ|ωᵢ   (per axis i, j, k the others).
// - Ellipsoid (`mj_ellipsoidFluidModel`): on the shape's equivalent ellipsoid (semi-axes from its type and
//   size), with v, ω of the shape's centre in the shape's frame: added-mass gyroscopic terms (the
//   acceleration part MuJoCo leaves out too), Magnus lift, Kutta–Joukowski lift, and linear plus quadratic
//   drag and angular drag weighted by the five coefficients [blunt, slender, angular, kutta, magnus]. The
//   virtual masses and inertias are MuJoCo's compile-time ones (user_objects.cc `SetFluidCoefs`): the
//   Gauss–Kronrod quadrature of the potential-flow integrals, reproduced here number for number.
import type { Mat3, Quat, Vec3 } from '../types';
import type { ShapeSpec } from '../scene/contactSpec';
import type { BodySpec, FluidSpec } from '../scene/spec';
import type { Pose } from './constraint';
import { IDENTITY_MAT3, quatToMat3 } from '../core/math';
import { jacobiSvd } from '../linalg/svd';

/** MuJoCo's mjMINVAL and mjEPS. */
const MINVAL = 1e-15;
const EPS = 1e-14;

/** The inertia-box model of one body: the box's sides and its principal axes in the body frame (columns of a row-major matrix). */
interface BoxBody {
  body: number;
  box: Vec3;
  axes: Mat3;
}

/** One shape of the ellipsoid model: its centre and axes in the body frame, semi-axes and coefficients. */
interface EllipsoidShape {
  offset: Vec3;
  axes: Mat3;
  semi: Vec3;
  /** blunt drag, slender drag, angular drag, Kutta lift, Magnus lift. */
  coef: readonly [number, number, number, number, number];
  virtualMass: Vec3;
  virtualInertia: Vec3;
}

interface EllipsoidBody {
  body: number;
  shapes: EllipsoidShape[];
}

/** The fluid forces of a scene (absent when neither density nor viscosity is positive). */
export class FluidForces {
  /** Σ|x| over the F entries the last `apply` added (what the finite checks add to their bounds). */
  absF = 0;
  private readonly lfrc = new Float64Array(6);

  constructor(
    readonly medium: FluidSpec,
    private readonly boxes: readonly BoxBody[],
    private readonly ellipsoids: readonly EllipsoidBody[],
  ) {}

  /** Add every moving body's fluid wrench to F (column layout: `columnOf(body)`, −1 for fixed bodies). */
  apply(poses: readonly Pose[], columnOf: (body: number) => number, F: Float64Array): void {
    let sum = 0;
    const { density: rho, viscosity: mu, wind } = this.medium;
    const l = this.lfrc;
    for (const b of this.boxes) {
      const col = columnOf(b.body);
      if (col < 0) continue;
      const P = poses[b.body];
      const A = frameOf(P.R, b.axes);
      const w = tmul(A, P.w), v = tmul(A, [P.v[0] - wind[0], P.v[1] - wind[1], P.v[2] - wind[2]]);
      boxWrench(b.box, w, v, rho, mu, l);
      sum += addWrench(F, col, A, l, undefined);
    }
    for (const e of this.ellipsoids) {
      const col = columnOf(e.body);
      if (col < 0) continue;
      const P = poses[e.body];
      for (const s of e.shapes) {
        const A = frameOf(P.R, s.axes);
        const r = mul(P.R, s.offset);
        // the velocity of the shape's centre: v + ω × r
        const vc: Vec3 = [P.v[0] + P.w[1] * r[2] - P.w[2] * r[1] - wind[0], P.v[1] + P.w[2] * r[0] - P.w[0] * r[2] - wind[1], P.v[2] + P.w[0] * r[1] - P.w[1] * r[0] - wind[2]];
        ellipsoidWrench(s, tmul(A, P.w), tmul(A, vc), rho, mu, l);
        sum += addWrench(F, col, A, l, r);
      }
    }
    this.absF = sum;
  }

  /** The fluid wrench [f, τ] (world frame, τ about the centre of mass) on every body at the given states: 6 numbers per body, scene order. */
  wrenches(states: readonly { p: Vec3; q: Quat; v: Vec3; w: Vec3 }[]): Float64Array {
    const out = new Float64Array(6 * states.length);
    this.apply(states.map((s) => ({ p: s.p, q: s.q, R: quatToMat3(s.q), v: s.v, w: s.w })), (i) => 6 * i, out);
    return out;
  }
}

/** The fluid forces of a scene, or undefined when the medium has neither density nor viscosity. */
export function buildFluid(fluid: FluidSpec | undefined, bodies: readonly BodySpec[]): FluidForces | undefined {
  if (!fluid || !(fluid.density > 0 || fluid.viscosity > 0)) return undefined;
  const boxes: BoxBody[] = [], ellipsoids: EllipsoidBody[] = [];
  bodies.forEach((b, i) => {
    if (b.fixed || !(b.mass >= MINVAL)) return;
    const marked = b.shapes.filter((s) => s.fluidEllipsoid);
    if (marked.length) ellipsoids.push({ body: i, shapes: marked.map(ellipsoidShape) });
    else boxes.push(inertiaBox(b, i));
  });
  return new FluidForces({ density: fluid.density, viscosity: fluid.viscosity, wind: [...fluid.wind] }, boxes, ellipsoids);
}

/** The box of uniform density with the body's mass and principal moments, and its principal axes. */
function inertiaBox(b: BodySpec, body: number): BoxBody {
  const I = b.inertia;
  let moments: Vec3 = [I[0], I[4], I[8]], axes = IDENTITY_MAT3;
  if (I[1] !== 0 || I[2] !== 0 || I[3] !== 0 || I[5] !== 0 || I[6] !== 0 || I[7] !== 0) {
    // symmetric positive definite: the SVD is the eigen-decomposition, V's columns the principal axes
    const svd = jacobiSvd([[I[0], I[1], I[2]], [I[3], I[4], I[5]], [I[6], I[7], I[8]]], 3, 3);
    if (svd.ok) {
      const v = svd.v;
      moments = [svd.s[0], svd.s[1], svd.s[2]];
      axes = [v[0][0], v[1][0], v[2][0], v[0][1], v[1][1], v[2][1], v[0][2], v[1][2], v[2][2]];
    }
  }
  const side = (i: number, j: number, k: number) => Math.sqrt((Math.max(MINVAL, moments[j] + moments[k] - moments[i]) / b.mass) * 6);
  return { body, box: [side(0, 1, 2), side(1, 0, 2), side(2, 0, 1)], axes };
}

/** A shape's equivalent ellipsoid (MuJoCo's mju_geomSemiAxes); capsules and cylinders lie along z. */
export function semiAxes(s: ShapeSpec): Vec3 {
  switch (s.type) {
    case 'sphere':
      return [s.radius, s.radius, s.radius];
    case 'capsule':
      return [s.radius, s.radius, s.halfLength + s.radius];
    case 'cylinder':
      return [s.radius, s.radius, s.halfLength];
    case 'box':
      return [...s.halfExtents];
    case 'ellipsoid':
      return [...s.radii];
    default:
      return [0, 0, 0];
  }
}

function ellipsoidShape(s: ShapeSpec): EllipsoidShape {
  const semi = semiAxes(s);
  const { virtualMass, virtualInertia } = addedMass(semi);
  return { offset: [...s.position], axes: quatToMat3(s.orientation), semi, coef: s.fluidEllipsoid!, virtualMass, virtualInertia };
}

// 15-point Gauss–Kronrod weights, and the nodes l = x³/(1 − x)² with dl/dx, of MuJoCo's quadrature
// over [0, ∞) (user_objects.cc `GetAddedMassKappa`).
const KRONROD_W = [0.01146766, 0.03154605, 0.05239501, 0.07032663, 0.08450236, 0.09517529, 0.10221647, 0.10474107, 0.10221647, 0.09517529, 0.08450236, 0.07032663, 0.05239501, 0.03154605, 0.01146766];
const KRONROD_L = [7.865151709349917e-8, 1.7347976913907274e-5, 0.0003548008144506193, 0.002846636252924549, 0.014094260903596077, 0.053063261727396636, 0.17041978741317773, 0.5, 1.4036301548686991, 3.9353484827022642, 11.644841677041734, 39.53187807410903, 177.5711362220801, 1429.4772912937397, 54087.416549217705];
const KRONROD_D = [5.538677720489877e-5, 0.002080868285293228, 0.016514126520723166, 0.07261900344370877, 0.23985243401862602, 0.6868318249020725, 1.8551129519182894, 5.0, 14.060031152313941, 43.28941239611009, 156.58546376397112, 747.9826085305024, 5827.4042950027115, 116754.0197944512, 25482945.327264845];

/** κ_x = dx·dy·dz·∫₀^∞ dl / ((dx² + l)·√((dx² + l)(dy² + l)(dz² + l))), by MuJoCo's quadrature. */
function kappa(dx: number, dy: number, dz: number): number {
  const ix = 1 / (dx * dx), iy = 1 / (dy * dy), iz = 1 / (dz * dz);
  // l is scaled by d² so that 1 + l/d² stays of order one
  const scale = Math.pow(dx * dx * dx * dy * dz, 0.4);
  let k = 0;
  for (let i = 0; i < 15; i++) {
    const lambda = scale * KRONROD_L[i];
    const denom = (1 + lambda * ix) * Math.sqrt((1 + lambda * ix) * (1 + lambda * iy) * (1 + lambda * iz));
    k += ((scale * KRONROD_D[i]) / denom) * KRONROD_W[i];
  }
  return k * ix;
}

/** The virtual (added) masses and moments of inertia per unit fluid density of an ellipsoid (MuJoCo's `SetFluidCoefs`). */
export function addedMass(semi: Vec3): { virtualMass: Vec3; virtualInertia: Vec3 } {
  const [dx, dy, dz] = semi;
  const volume = (4 / 3) * Math.PI * dx * dy * dz;
  const kx = kappa(dx, dy, dz), ky = kappa(dy, dz, dx), kz = kappa(dz, dx, dy);
  const sq = (x: number) => x * x;
  // when (k₂ − k₁) is negative so is the denominator: MuJoCo takes both absolute
  const fac = (a: number, b: number, ka: number, kb: number) => (sq(a * a - b * b) * Math.abs(kb - ka)) / Math.max(EPS, Math.abs(2 * (a * a - b * b) + (a * a + b * b) * (ka - kb)));
  return {
    virtualMass: [(volume * kx) / Math.max(EPS, 2 - kx), (volume * ky) / Math.max(EPS, 2 - ky), (volume * kz) / Math.max(EPS, 2 - kz)],
    virtualInertia: [(volume * fac(dy, dz, ky, kz)) / 5, (volume * fac(dz, dx, kz, kx)) / 5, (volume * fac(dx, dy, kx, ky)) / 5],
  };
}

/** The local wrench [τ, f] of the inertia-box model (ω, v in the principal frame, v relative to the wind). */
function boxWrench(b: Vec3, w: Vec3, v: Vec3, rho: number, mu: number, out: Float64Array): void {
  out.fill(0);
  if (mu > 0) {
    const d = (b[0] + b[1] + b[2]) / 3;
    for (let i = 0; i < 3; i++) {
      out[i] = -Math.PI * d * d * d * mu * w[i];
      out[3 + i] = -3 * Math.PI * d * mu * v[i];
    }
  }
  if (rho > 0) {
    out[3] -= 0.5 * rho * b[1] * b[2] * Math.abs(v[0]) * v[0];
    out[4] -= 0.5 * rho * b[0] * b[2] * Math.abs(v[1]) * v[1];
    out[5] -= 0.5 * rho * b[0] * b[1] * Math.abs(v[2]) * v[2];
    const p4 = (x: number) => x * x * x * x;
    out[0] -= (rho * b[0] * (p4(b[1]) + p4(b[2])) * Math.abs(w[0]) * w[0]) / 64;
    out[1] -= (rho * b[1] * (p4(b[0]) + p4(b[2])) * Math.abs(w[1]) * w[1]) / 64;
    out[2] -= (rho * b[2] * (p4(b[0]) + p4(b[1])) * Math.abs(w[2]) * w[2]) / 64;
  }
}

/** The local wrench [τ, f] of the ellipsoid model (MuJoCo's mj_addedMassForces without accelerations, then mj_viscousForces). */
function ellipsoidWrench(s: EllipsoidShape, w: Vec3, v: Vec3, rho: number, mu: number, out: Float64Array): void {
  const [blunt, slender, angular, kutta, magnus] = s.coef;
  const vm = s.virtualMass, vi = s.virtualInertia, size = s.semi;
  // added mass: p = ρ·m_v∘v, L = ρ·I_v∘ω; f = p × ω, τ = p × v + L × ω
  const p: Vec3 = [rho * vm[0] * v[0], rho * vm[1] * v[1], rho * vm[2] * v[2]];
  const L: Vec3 = [rho * vi[0] * w[0], rho * vi[1] * w[1], rho * vi[2] * w[2]];
  const t1 = cross(p, v), t2 = cross(L, w), fa = cross(p, w);
  out[0] = t1[0] + t2[0];
  out[1] = t1[1] + t2[1];
  out[2] = t1[2] + t2[2];
  out[3] = fa[0];
  out[4] = fa[1];
  out[5] = fa[2];

  const volume = (4 / 3) * Math.PI * size[0] * size[1] * size[2];
  const dMax = Math.max(size[0], size[1], size[2]);
  const dMin = Math.min(size[0], size[1], size[2]);
  const dMid = size[0] + size[1] + size[2] - dMax - dMin;
  const aMax = Math.PI * dMax * dMid;
  const mg = cross(w, v);
  const magnusScale = magnus * rho * volume;
  const p2 = (x: number) => x * x, p4 = (x: number) => x * x * x * x;
  // The projection of the ellipsoid on the plane normal to v: its area A and the Kutta–Joukowski force
  // ρ·k·cos α·A·((n × v) × v), n = ((s₁s₂)²v₀, (s₂s₀)²v₁, (s₀s₁)²v₂). MuJoCo 3.14 evaluates them on
  // the semi-axes over the largest and on v over its speed, so that the size⁸·v² sums do not fall below
  // its 1e-15 clamp on small, slow shapes (which the dimensional formula hits at centimetre sizes);
  // in these units A = π·d²·√(P/Q) and the force is ρ·k·π·d²·|v|²·√(Q/P)·((n̂ × û) × û).
  const speed = Math.hypot(v[0], v[1], v[2]);
  let aProj = 0;
  let kf: Vec3 = [0, 0, 0];
  if (speed > MINVAL) {
    const u: Vec3 = [v[0] / speed, v[1] / speed, v[2] / speed];
    const s0 = size[0] / dMax, s1 = size[1] / dMax, s2 = size[2] / dMax;
    const a = p2(s1 * s2), b = p2(s2 * s0), c = p2(s0 * s1);
    const P = a * a * u[0] * u[0] + b * b * u[1] * u[1] + c * c * u[2] * u[2];
    const Q = a * u[0] * u[0] + b * u[1] * u[1] + c * u[2] * u[2];
    aProj = Math.PI * dMax * dMax * Math.sqrt(P / Math.max(MINVAL, Q));
    const circ = cross([a * u[0], b * u[1], c * u[2]], u);
    const k = kutta * rho * Math.PI * dMax * dMax * speed * speed * Math.sqrt(Q / Math.max(MINVAL, P));
    const f = cross(circ, u);
    kf = [f[0] * k, f[1] * k, f[2] * k];
  }
  // Stokes drag of the equivalent sphere, and the quadratic angular drag's moments
  const D = (2 / 3) * (size[0] + size[1] + size[2]);
  const iMax = (8 / 15) * Math.PI * dMid * p4(dMax);
  const II = [0, 1, 2].map((k) => (8 / 15) * Math.PI * size[k] * p4(Math.max(size[(k + 1) % 3], size[(k + 2) % 3])));
  const mom: Vec3 = [0, 1, 2].map((k) => w[k] * (angular * II[k] + slender * (iMax - II[k]))) as Vec3;
  const dragLin = mu * 3 * Math.PI * D + rho * speed * (aProj * blunt + slender * (aMax - aProj));
  const dragAng = mu * Math.PI * D * D * D + rho * Math.hypot(mom[0], mom[1], mom[2]);
  for (let k = 0; k < 3; k++) {
    out[k] -= dragAng * w[k];
    out[3 + k] += mg[k] * magnusScale + kf[k] - dragLin * v[k];
  }
}

/** F[col..col+6] += [A·f, A·τ + r × A·f] (the wrench acting at r from the centre of mass); returns Σ|added|. */
function addWrench(F: Float64Array, col: number, A: Mat3, l: Float64Array, r: Vec3 | undefined): number {
  const f = mul(A, [l[3], l[4], l[5]]);
  const t = mul(A, [l[0], l[1], l[2]]);
  if (r) {
    t[0] += r[1] * f[2] - r[2] * f[1];
    t[1] += r[2] * f[0] - r[0] * f[2];
    t[2] += r[0] * f[1] - r[1] * f[0];
  }
  let s = 0;
  for (let k = 0; k < 3; k++) {
    F[col + k] += f[k];
    F[col + 3 + k] += t[k];
    s += Math.abs(f[k]) + Math.abs(t[k]);
  }
  return s;
}

const cross = (a: Vec3, b: Vec3): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const mul = (m: Mat3, x: Vec3): Vec3 => [m[0] * x[0] + m[1] * x[1] + m[2] * x[2], m[3] * x[0] + m[4] * x[1] + m[5] * x[2], m[6] * x[0] + m[7] * x[1] + m[8] * x[2]];
const tmul = (m: Mat3, x: Vec3): Vec3 => [m[0] * x[0] + m[3] * x[1] + m[6] * x[2], m[1] * x[0] + m[4] * x[1] + m[7] * x[2], m[2] * x[0] + m[5] * x[1] + m[8] * x[2]];
/** R·B (row-major): the world axes of a frame whose axes in the body frame are B's columns. */
function frameOf(R: Mat3, B: Mat3): Mat3 {
  if (B === IDENTITY_MAT3) return R;
  const o = new Array<number>(9) as Mat3;
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) o[i * 3 + j] = R[i * 3] * B[j] + R[i * 3 + 1] * B[3 + j] + R[i * 3 + 2] * B[6 + j];
  return o;
}
