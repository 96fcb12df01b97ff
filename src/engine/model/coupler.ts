// Coupler: a polynomial coupling of two joint coordinates (MuJoCo's `joint` equality, URDF <mimic>).
// 1 row 'q'. With the polynomial P(x) = c₀ + c₁x + c₂x² + …:
//   C = q₁ − P(q₂)              (one joint: C = q₁ − c₀)
//   J = J_q₁ − P′(q₂)·J_q₂,   J̇v = q̈₁ − P′(q₂)·q̈₂ − P″(q₂)·q̇₂²   (q̈: the zero-acceleration terms)
// Coordinate of a joint between `parent` p and `body` c, unit axis u in p's frame, value q⁰ initially:
//   hinge:  e = q_p⁻¹ ⊗ q_c ⊗ r₀⁻¹ = (v, w) with w ≥ 0, r₀ = q_p0⁻¹ ⊗ q_c0, U = u·v
//           q = q⁰ + 2·atan2(U, w)          (twist of the relative rotation about u; continuous for |q − q⁰| < π)
//           q̇ = G·(ω_c − ω_p),  G = R_p·g,  g = (w²u + w(v×u) + U·v) / (U² + w²)
//           q̈ = Ġ·(ω_c − ω_p),  Ġ = ω_p×G + R_p·ġ,  ė = ½(Ω, 0) ⊗ e,  Ω = R_pᵀ(ω_c − ω_p)
//   slider: q = q⁰ + n·D − n₀·D₀,  n = R_p·u,  D = p_c − p_p (centres of mass)
//           q̇ = n·(v_c − v_p) + (n×D)·ω_p
//           q̈ = (ṅ×D + n×Ḋ)·ω_p + ṅ·Ḋ,  ṅ = ω_p×n,  Ḋ = v_c − v_p
// The coupled joints may involve up to four bodies: bodyA/bodyB are the first joint's body/parent, the
// others are `extraBodies` (see ConstraintModel). Details and derivation: docs/formulas.md.
import type { Quat, Vec3 } from '../types';
import type { CoupledJoint, ConstraintSpec } from '../scene/spec';
import type { ConstraintEval, ConstraintModel, Pose } from './constraint';
import { cross, dot, IDENTITY_MAT3, mat3MulVecInto, mat3TMulVec, normalize, quatConj, quatMul } from '../core/math';
import { evaluateGroup, makeHingeGroup, type HingeGroup } from './hingeGroup';
import { evaluateChainCoordinate, makeChainCoordinate, type ChainCoordinate } from './chainCoordinate';

const WORLD = 'world';

/** The bodies a coupler's rows depend on beyond bodyA and bodyB (never "world"), in a fixed order. */
export function couplerExtraBodies(spec: ConstraintSpec): string[] {
  const out: string[] = [];
  for (const j of spec.coupling?.joints ?? []) {
    for (const n of [j.body, j.parent]) if (n !== WORLD && n !== spec.bodyA && n !== spec.bodyB && !out.includes(n)) out.push(n);
  }
  return out;
}

/** One joint coordinate with its slots among the constraint's ends (0 = A, 1 = B, 2+k = extra k, −1 = world). */
export interface Coordinate {
  joint: CoupledJoint;
  axis: Vec3;
  bodySlot: number;
  parentSlot: number;
  /** hinge: r₀⁻¹; slider: n₀·D₀. */
  r0inv: Quat;
  d0: number;
  /** A hinge of a universal or ball constraint's group: its angle is the group's Davenport angle (hingeGroup.ts). */
  group?: HingeGroup;
  /** A joint of a chain constraint: its coordinate is that joint's in the chain (chainCoordinate.ts). */
  chain?: ChainCoordinate;
}

/** Value, Jacobian (angular/linear parts for the body and the parent) and zero-acceleration second derivative. */
export interface CoordinateEval {
  q: number;
  /** 6-vectors [v, ω] for the body and the parent. */
  jBody: Float64Array;
  jParent: Float64Array;
  qdd: number;
  qd: number;
}

const WORLD_POSE: Pose = { p: [0, 0, 0], q: [0, 0, 0, 1], R: IDENTITY_MAT3, v: [0, 0, 0], w: [0, 0, 0] };

export class CouplerConstraint implements ConstraintModel {
  readonly rows: number;
  readonly rowLabels: readonly string[];
  readonly extraBodies: readonly string[];
  readonly coefficients: readonly number[];
  private readonly coords: Coordinate[];
  private readonly evals: CoordinateEval[];

  constructor(readonly spec: ConstraintSpec, a0: Pose, b0: Pose, extra0: readonly Pose[] = []) {
    this.extraBodies = couplerExtraBodies(spec);
    const joints = spec.coupling?.joints ?? [];
    const coeffs = spec.coupling?.coefficients ?? [];
    this.coefficients = coeffs.length ? [...coeffs] : [0];
    this.rows = joints.length > 0 ? 1 : 0;
    this.rowLabels = this.rows ? ['q'] : [];
    const slotOf = (name: string): number =>
      name === WORLD ? -1 : name === spec.bodyA ? 0 : name === spec.bodyB ? 1 : 2 + this.extraBodies.indexOf(name);
    const poseAt = (slot: number): Pose => (slot === 0 ? a0 : slot === 1 ? b0 : slot >= 2 ? (extra0[slot - 2] ?? WORLD_POSE) : WORLD_POSE);
    this.coords = joints.map((j) => {
      const bodySlot = slotOf(j.body), parentSlot = slotOf(j.parent);
      return makeCoordinate(j, poseAt(bodySlot), poseAt(parentSlot), bodySlot, parentSlot);
    });
    this.evals = this.coords.map(() => makeCoordinateEval());
  }

  /** The polynomial and its first two derivatives at x. */
  private poly(x: number): [number, number, number] {
    let p = 0, dp = 0, ddp = 0;
    const c = this.coefficients;
    for (let k = c.length - 1; k >= 0; k--) {
      ddp = ddp * x + 2 * dp;
      dp = dp * x + p;
      p = p * x + c[k];
    }
    return [p, dp, ddp];
  }

  evaluate(a: Pose, b: Pose, out: ConstraintEval, extra: readonly Pose[] = []): void {
    if (this.rows === 0) return;
    const poseAt = (slot: number): Pose => (slot === 0 ? a : slot === 1 ? b : slot >= 2 ? (extra[slot - 2] ?? WORLD_POSE) : WORLD_POSE);
    for (let k = 0; k < this.coords.length; k++) {
      const c = this.coords[k];
      const body = poseAt(c.bodySlot), parent = poseAt(c.parentSlot);
      evaluateCoordinate(c, body, parent, this.evals[k]);
    }
    const blocks = [out.JA, out.JB, ...out.JX];
    for (const blk of blocks) blk.fill(0, 0, 6);
    const add = (slot: number, j: Float64Array, s: number): void => {
      if (slot < 0 || !blocks[slot]) return;
      const blk = blocks[slot];
      for (let i = 0; i < 6; i++) blk[i] += s * j[i];
    };
    const e1 = this.evals[0];
    add(this.coords[0].bodySlot, e1.jBody, 1);
    add(this.coords[0].parentSlot, e1.jParent, 1);
    if (this.coords.length === 1) {
      out.C[0] = e1.q - this.coefficients[0];
      out.Jdotv[0] = e1.qdd;
      return;
    }
    const e2 = this.evals[1];
    const [p, dp, ddp] = this.poly(e2.q);
    add(this.coords[1].bodySlot, e2.jBody, -dp);
    add(this.coords[1].parentSlot, e2.jParent, -dp);
    out.C[0] = e1.q - p;
    out.Jdotv[0] = e1.qdd - dp * e2.qdd - ddp * e2.qd * e2.qd;
  }
}

/** A joint coordinate whose reference is the initial poses of its body and parent. */
export function makeCoordinate(j: CoupledJoint, body0: Pose, parent0: Pose, bodySlot = 1, parentSlot = 0, member?: Pick<ConstraintSpec, 'group' | 'chainMember'>): Coordinate {
  const group = member?.group, chain = member?.chainMember;
  const n = normalize(j.axis);
  const axis: Vec3 = n[0] === 0 && n[1] === 0 && n[2] === 0 ? [0, 0, 1] : n;
  const r0 = quatMul(quatConj(parent0.q), body0.q);
  const nw: Vec3 = [0, 0, 0];
  mat3MulVecInto(parent0.R, axis, nw);
  const d0 = nw[0] * (body0.p[0] - parent0.p[0]) + nw[1] * (body0.p[1] - parent0.p[1]) + nw[2] * (body0.p[2] - parent0.p[2]);
  const g = group && j.kind === 'hinge' ? { group: makeHingeGroup(group.axes, group.index, group.angles0, body0, parent0) } : {};
  const ch = chain ? { chain: makeChainCoordinate(chain.joints, chain.index, body0, parent0) } : {};
  return { joint: j, axis, bodySlot, parentSlot, r0inv: quatConj(r0), d0, ...g, ...ch };
}

export const makeCoordinateEval = (): CoordinateEval => ({ q: 0, jBody: new Float64Array(6), jParent: new Float64Array(6), qdd: 0, qd: 0 });

/** The coordinate of a hinge or slider at the given poses (value, rate, Jacobian and q̈ at zero acceleration) into `o`. */
export function evaluateCoordinate(c: Coordinate, body: Pose, parent: Pose, o: CoordinateEval): void {
  if (c.group) evaluateGroup(c.group, c.joint.initial, body, parent, o);
  else if (c.chain) evaluateChainCoordinate(c.chain, c.joint.initial, body, parent, o);
  else if (c.joint.kind === 'hinge') hingeCoordinate(c, body, parent, o);
  else sliderCoordinate(c, body, parent, o);
}

/** The hinge coordinate (see the header) with its Jacobian and q̈ at zero acceleration. */
export function hingeCoordinate(c: Coordinate, body: Pose, parent: Pose, o: CoordinateEval): void {
  const e = quatMul(quatMul(quatConj(parent.q), body.q), c.r0inv);
  const sg = e[3] < 0 ? -1 : 1;
  const v: Vec3 = [sg * e[0], sg * e[1], sg * e[2]];
  const w = sg * e[3];
  const u = c.axis;
  const U = dot(u, v);
  const den = U * U + w * w;
  o.q = c.joint.initial + 2 * Math.atan2(U, w);
  const dw: Vec3 = [body.w[0] - parent.w[0], body.w[1] - parent.w[1], body.w[2] - parent.w[2]];
  const R = parent.R;
  const Om = mat3TMulVec(R, dw); // Ω = R_pᵀ·Δω
  let g: Vec3, gd: Vec3;
  if (!(den > 1e-300)) {
    // 180° of swing: the twist is undefined; use the axis (never NaN).
    g = [u[0], u[1], u[2]];
    gd = [0, 0, 0];
  } else {
    const vxu = cross(v, u);
    const N: Vec3 = [w * w * u[0] + w * vxu[0] + U * v[0], w * w * u[1] + w * vxu[1] + U * v[1], w * w * u[2] + w * vxu[2] + U * v[2]];
    g = [N[0] / den, N[1] / den, N[2] / den];
    // ė = ½(Ω,0)⊗e: v̇ = ½(wΩ + Ω×v), ẇ = −½Ω·v
    const Oxv = cross(Om, v);
    const vd: Vec3 = [0.5 * (w * Om[0] + Oxv[0]), 0.5 * (w * Om[1] + Oxv[1]), 0.5 * (w * Om[2] + Oxv[2])];
    const wd = -0.5 * dot(Om, v);
    const Ud = dot(u, vd);
    const vdxu = cross(vd, u);
    const Nd: Vec3 = [0, 0, 0];
    for (let i = 0; i < 3; i++) Nd[i] = 2 * w * wd * u[i] + wd * vxu[i] + w * vdxu[i] + Ud * v[i] + U * vd[i];
    const dend = 2 * U * Ud + 2 * w * wd;
    gd = [(Nd[0] - g[0] * dend) / den, (Nd[1] - g[1] * dend) / den, (Nd[2] - g[2] * dend) / den];
  }
  const G: Vec3 = [0, 0, 0];
  mat3MulVecInto(R, g, G);
  const Rgd: Vec3 = [0, 0, 0];
  mat3MulVecInto(R, gd, Rgd);
  const wxG = cross(parent.w, G);
  const Gd: Vec3 = [wxG[0] + Rgd[0], wxG[1] + Rgd[1], wxG[2] + Rgd[2]];
  o.jBody.fill(0);
  o.jParent.fill(0);
  for (let i = 0; i < 3; i++) {
    o.jBody[3 + i] = G[i];
    o.jParent[3 + i] = -G[i];
  }
  o.qd = dot(G, dw);
  o.qdd = dot(Gd, dw);
}

/** The slider coordinate (see the header) with its Jacobian and q̈ at zero acceleration. */
export function sliderCoordinate(c: Coordinate, body: Pose, parent: Pose, o: CoordinateEval): void {
  const n: Vec3 = [0, 0, 0];
  mat3MulVecInto(parent.R, c.axis, n);
  const D: Vec3 = [body.p[0] - parent.p[0], body.p[1] - parent.p[1], body.p[2] - parent.p[2]];
  const Dd: Vec3 = [body.v[0] - parent.v[0], body.v[1] - parent.v[1], body.v[2] - parent.v[2]];
  const wp = parent.w;
  const nxD = cross(n, D);
  o.q = c.joint.initial + dot(n, D) - c.d0;
  o.jBody.fill(0);
  o.jParent.fill(0);
  for (let i = 0; i < 3; i++) {
    o.jBody[i] = n[i];
    o.jParent[i] = -n[i];
    o.jParent[3 + i] = nxD[i];
  }
  const nd = cross(wp, n);
  const ndxD = cross(nd, D), nxDd = cross(n, Dd);
  o.qd = dot(n, Dd) + dot(nxD, wp);
  o.qdd = (ndxD[0] + nxDd[0]) * wp[0] + (ndxD[1] + nxDd[1]) * wp[1] + (ndxD[2] + nxDd[2]) * wp[2] + dot(nd, Dd);
}
