// The smooth forces along hinge and slider coordinates: MuJoCo's passive joint forces (damping,
// stiffness with springref, armature) and actuators with a joint transmission. The coordinate q, its
// rate q̇ and its 1×12 Jacobian Jθ = [J_parent | J_body] are the coupler's (coupler.ts), exact at any
// state, so a generalised force τ enters F as Jθᵀ·τ: for a hinge τ·G on the body and −τ·G on the
// parent (G the twist-rate axis), for a slider τ·n on the body and −τ·n with the lever torque τ·(n×D)
// on the parent.
//   τ = −k·(q − q_ref) − b·q̇ + Σ_actuators gear·clamp(gain(u, l, l̇)·u + bias(l, l̇)),  l = gear·q
// Damping (the joint's, and the actuators' velocity terms ∂τ/∂q̇ = −d unless the scene's source asked
// for MuJoCo's Euler or RK4, which keep those explicit) is implicit as in MuJoCo's Euler and
// implicitfast: the step solves (M + h·Jθᵀ·d·Jθ)·Δu = h·(F − Jθᵀ·d·q̇) …, i.e. M·Δu = h·(F − Jθᵀ·d·Jθ·u⁺).
// Armature a adds ½·a·q̇² to the kinetic energy (MuJoCo adds it to the joint-space mass), i.e. the
// force −a·q̈ along the coordinate. Where that can be stored per body it is: for a hinge to the world or
// a fixed body the term h·d·G·Gᵀ goes into the moving end's rotational inertia (Sherman–Morrison on the
// world inverse inertia) and the armature is a rigid inertia a·u·uᵀ about the axis (`armatureInertia`),
// both exact since the other end does not turn. Between two moving bodies (and on any slider, whose
// translational mass is one scalar per body) the terms couple the ends, which per-body masses cannot
// hold: in the velocity formulation they are one compliant row of the step instead (`driveRowJoints`,
// contact/jointRows.ts), exact; the other formulations keep per-body approximations: each end takes
// 2·h·d·G·Gᵀ (as (a − b)² ≤ 2a² + 2b², the explicit part h·Jθᵀ·d·Jθ is then at most the added mass,
// summed over all the joints of a chain, so the damping step never overshoots whatever h·d; mild
// damping, h·d·Gᵀ(I_A⁻¹ + I_B⁻¹)G ≤ ¼, stays explicit, an error of second order instead of first), the
// armature goes to the child alone, and a slider's damping stays explicit and its armature is dropped.
import type { Mat3, Quat, Vec3 } from '../types';
import type { ActuatorSpec, ConstraintSpec, JointDriveSpec, SceneSpec } from '../scene/spec';
import type { Pose } from './constraint';
import { type Coordinate, type CoordinateEval, evaluateCoordinate, makeCoordinate, makeCoordinateEval } from './coupler';
import { mat3Inverse, normalize, quatToMat3 } from '../core/math';
import { jointsOf } from '../scene/hingeGroups';
import type { Activations } from './activation';

/** The driven joints and actuators of a snapshot (arrays in the order of `joints` and `actuators`). */
export interface DriveReport {
  joints: string[];
  /** Joint coordinate q (rad or m), its rate q̇ and the generalised force τ it receives (N·m or N). */
  q: number[];
  qd: number[];
  tau: number[];
  actuators: string[];
  /** The control after ctrlRange and the force after forceRange. */
  ctrl: number[];
  force: number[];
}

/** One driven joint: its coordinate, ends (body indices, −1: world), passive terms and actuators. */
export interface DrivenJoint {
  constraint: number;
  /** The hinge or slider spec of the coordinate (a universal's or ball's member: scene/hingeGroups.ts). */
  spec: ConstraintSpec;
  name: string;
  kind: 'hinge' | 'slider';
  coord: Coordinate;
  ev: CoordinateEval;
  /** End A (the parent) and B (the body) as body indices, −1 for the world. */
  parent: number;
  body: number;
  drive?: JointDriveSpec;
  actuators: ActuatorSpec[];
  /** Damping and armature are a compliant row of the velocity-level step (contact/jointRows.ts), not per-body masses. */
  row?: boolean;
}

/** What the last `apply` computed, per driven joint and per actuator (for snapshots and tests). */
export interface ForceReport {
  /** Per driven joint: q, q̇ and the generalised force τ it received. */
  q: Float64Array;
  qd: Float64Array;
  tau: Float64Array;
  /** Per driven joint: the damping d taken implicitly this step (the joint's and its actuators' −∂τ/∂q̇). */
  damping: Float64Array;
  /** Per actuator (scene order): the clamped control and the clamped force. */
  ctrl: Float64Array;
  force: Float64Array;
}

export class JointForces {
  readonly joints: DrivenJoint[];
  readonly report: ForceReport;
  private readonly actuatorIndex = new Map<ActuatorSpec, number>();
  /** Per driven joint, its coordinate at the last evaluation (NaN before the first). */
  private readonly lastQ: Float64Array;
  private readonly scratch = makeCoordinateEval();

  /** Σ|x| over the F entries and the M⁻¹ entries the last `apply` changed (what the finite checks add to their bounds). */
  absF = 0;
  absM = 0;

  /**
   * `actuators`: the scene's, in file order (the report's order). `implicitActuators`: the actuators'
   * velocity terms are implicit too (MuJoCo's implicit and implicitfast; its Euler and RK4 take only
   * joint damping implicitly, or none).
   */
  constructor(joints: DrivenJoint[], actuators: readonly ActuatorSpec[], private readonly implicitActuators = true, private readonly activations?: Activations) {
    this.joints = joints;
    this.lastQ = new Float64Array(joints.length).fill(NaN);
    actuators.forEach((a, k) => this.actuatorIndex.set(a, k));
    const n = actuators.length;
    this.report = { q: new Float64Array(joints.length), qd: new Float64Array(joints.length), tau: new Float64Array(joints.length), damping: new Float64Array(joints.length), ctrl: new Float64Array(n), force: new Float64Array(n) };
  }

  /**
   * ½·k·(q − q_ref)² summed over the joints with a spring, at the given states (poses from p, q; the
   * hinge branch nearest the last evaluation, which is left as it is).
   */
  springEnergy(states: readonly { p: Vec3; q: Quat }[]): number {
    let e = 0;
    for (let i = 0; i < this.joints.length; i++) {
      const j = this.joints[i];
      const k = j.drive?.stiffness ?? 0;
      if (!(k > 0)) continue;
      const pose = (b: number): Pose => (b < 0 ? STILL_WORLD : { p: states[b].p, q: states[b].q, R: quatToMat3(states[b].q), v: ZERO, w: ZERO });
      evaluateCoordinate(j.coord, pose(j.body), pose(j.parent), this.scratch);
      let q = this.scratch.q;
      const last = this.lastQ[i];
      if (j.kind === 'hinge' && Number.isFinite(last)) q += TWO_PI * Math.round((last - q) / TWO_PI);
      e += 0.5 * k * (q - j.drive!.springRef) ** 2;
    }
    return e;
  }

  /** Forget the hinge branches (a run starting again from its initial state). */
  restart(): void {
    this.lastQ.fill(NaN);
  }

  /** The last `apply`'s report as plain arrays (for a snapshot). */
  snapshot(actuators: readonly ActuatorSpec[]): DriveReport {
    const r = this.report;
    return {
      joints: this.joints.map((j) => j.name),
      q: Array.from(r.q),
      qd: Array.from(r.qd),
      tau: Array.from(r.tau),
      actuators: actuators.map((a) => a.name),
      ctrl: Array.from(r.ctrl),
      force: Array.from(r.force),
    };
  }

  /**
   * Add Jθᵀ·τ of every driven joint to F (column layout: `columnOf(body)`, −1 for fixed bodies and the
   * world) and the implicit damping h·d·G·Gᵀ to the hinge ends' world inverse inertia (`minvCompact`,
   * 10 numbers per column-owning body: 1/m and the 3×3); Σ|x| of what changed into absF and absM.
   */
  apply(poses: readonly Pose[], worldPose: Pose, columnOf: (body: number) => number, h: number, F: Float64Array, minvCompact: Float64Array): void {
    let sum = 0, sumM = 0;
    for (let i = 0; i < this.joints.length; i++) {
      const j = this.joints[i];
      const pb = j.body < 0 ? worldPose : poses[j.body];
      const pa = j.parent < 0 ? worldPose : poses[j.parent];
      const ev = j.ev;
      evaluateCoordinate(j.coord, pb, pa, ev);
      // the twist is measured within ±π of the initial coordinate; a hinge turns on without bound, so
      // take the branch nearest the coordinate of the previous evaluation (continuous in a run)
      let q = ev.q;
      const last = this.lastQ[i];
      if (j.kind === 'hinge' && Number.isFinite(last)) q += TWO_PI * Math.round((last - q) / TWO_PI);
      this.lastQ[i] = q;
      const qd = ev.qd;
      let tau = 0;
      let d = 0;
      if (j.drive) {
        tau -= j.drive.stiffness * (q - j.drive.springRef) + j.drive.damping * qd;
        d += j.drive.damping;
      }
      for (const a of j.actuators) {
        const out = actuatorForce(a, q, qd, this.activations, h);
        const k = this.actuatorIndex.get(a);
        if (k !== undefined) {
          this.report.ctrl[k] = out.ctrl;
          this.report.force[k] = out.force;
        }
        tau += a.gear * out.force;
        // ∂τ/∂q̇ = gear²·(gain₂·u + bias₂) while the force is not clamped; only its damping part is implicit
        if (this.implicitActuators && !out.clamped) d -= Math.min(0, a.gear * a.gear * (a.gain[2] * out.input + a.bias[2]));
      }
      this.report.q[i] = q;
      this.report.qd[i] = qd;
      this.report.tau[i] = tau;
      this.report.damping[i] = d;
      const cb = columnOf(j.body), ca = columnOf(j.parent);
      if (cb >= 0) for (let c = 0; c < 6; c++) sum += Math.abs((F[cb + c] += tau * ev.jBody[c]));
      if (ca >= 0) for (let c = 0; c < 6; c++) sum += Math.abs((F[ca + c] += tau * ev.jParent[c]));
      if (j.row || j.kind !== 'hinge' || !(d > 0) || !(h > 0)) continue;
      const G: Vec3 = [ev.jBody[3], ev.jBody[4], ev.jBody[5]];
      // between two moving bodies each end takes 2·h·d (see the header): then h·Jθᵀ·d·Jθ ≤ the added mass;
      // mild damping (h·d·Gᵀ(I_A⁻¹ + I_B⁻¹)G ≤ EXPLICIT_DAMPING) stays explicit, which errs at second order
      if (cb >= 0 && ca >= 0 && h * d * (mobility(minvCompact, (cb / 6) * 10 + 1, G) + mobility(minvCompact, (ca / 6) * 10 + 1, G)) <= EXPLICIT_DAMPING) continue;
      const s = cb >= 0 && ca >= 0 ? 2 * h * d : h * d;
      if (cb >= 0) sumM += addRankOne(minvCompact, (cb / 6) * 10 + 1, G, s);
      if (ca >= 0) sumM += addRankOne(minvCompact, (ca / 6) * 10 + 1, G, s);
    }
    this.absF = sum;
    this.absM = sumM;
  }
}

const TWO_PI = 2 * Math.PI;
/**
 * Damping of a hinge between two moving bodies whose explicit step changes the relative rate by at
 * most this fraction (h·d times the unconstrained mobility, an upper bound of the constrained one)
 * stays explicit: the 2·h·d blocks would add that much inertia to each body's whole rotation about
 * the axis, an error of first order, where the explicit step errs by its square.
 */
const EXPLICIT_DAMPING = 0.25;

/** Gᵀ·I⁻¹·G for the row-major 3×3 world inverse inertia at `o`. */
function mobility(m: Float64Array, o: number, G: Vec3): number {
  let s = 0;
  for (let r = 0; r < 3; r++) s += G[r] * (m[o + 3 * r] * G[0] + m[o + 3 * r + 1] * G[1] + m[o + 3 * r + 2] * G[2]);
  return s;
}
const ZERO: Vec3 = [0, 0, 0];
const STILL_WORLD: Pose = { p: [0, 0, 0], q: [0, 0, 0, 1], R: [1, 0, 0, 0, 1, 0, 0, 0, 1], v: ZERO, w: ZERO };

/**
 * Control, force and whether the force was clamped, for one actuator at joint coordinate q, q̇; `input`
 * is what the gain multiplies: the control, or the activation of an actuator with activation dynamics
 * (`acts` at its step count; without it, the initial activation).
 */
export function actuatorForce(a: ActuatorSpec, q: number, qd: number, acts?: Activations, h = 0): { ctrl: number; input: number; force: number; clamped: boolean } {
  let u = a.ctrl;
  if (a.ctrlRange) u = Math.min(Math.max(u, a.ctrlRange[0]), a.ctrlRange[1]);
  const x = !a.activation ? u : acts ? acts.of(a, u, h) : a.activation.act0;
  const l = a.gear * q, ld = a.gear * qd;
  let force = (a.gain[0] + a.gain[1] * l + a.gain[2] * ld) * x + a.bias[0] + a.bias[1] * l + a.bias[2] * ld;
  let clamped = false;
  if (a.forceRange) {
    const f = Math.min(Math.max(force, a.forceRange[0]), a.forceRange[1]);
    clamped = f !== force;
    force = f;
  }
  return { ctrl: u, input: x, force, clamped };
}

/**
 * (I⁻¹ + … ) for I' = I + s·G·Gᵀ, in place on the row-major 3×3 inverse at `o` (Sherman–Morrison:
 * I'⁻¹ = I⁻¹ − s·(I⁻¹G)(I⁻¹G)ᵀ / (1 + s·Gᵀ·I⁻¹·G), I⁻¹ symmetric). Returns Σ|x| of the new block.
 */
function addRankOne(m: Float64Array, o: number, G: Vec3, s: number): number {
  const x0 = m[o] * G[0] + m[o + 1] * G[1] + m[o + 2] * G[2];
  const x1 = m[o + 3] * G[0] + m[o + 4] * G[1] + m[o + 5] * G[2];
  const x2 = m[o + 6] * G[0] + m[o + 7] * G[1] + m[o + 8] * G[2];
  const f = s / (1 + s * (G[0] * x0 + G[1] * x1 + G[2] * x2));
  const x = [x0, x1, x2];
  let sum = 0;
  for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) sum += Math.abs((m[o + 3 * r + c] -= f * x[r] * x[c]));
  return sum;
}

/**
 * The joints whose damping and armature the velocity formulation solves as a compliant row of the step
 * (contact/jointRows.ts): hinges between two moving bodies and sliders with a moving end, with damping,
 * armature or an actuator with a velocity term. Empty in the other formulations.
 */
export function driveRowJoints(scene: SceneSpec): Set<ConstraintSpec> {
  const out = new Set<ConstraintSpec>();
  if (scene.solver.formulation !== 'velocity') return out;
  const fixed = new Map(scene.bodies.map((b) => [b.name, b.fixed]));
  const moving = (name: string) => name !== 'world' && fixed.get(name) === false;
  for (const spec of scene.constraints.flatMap(jointsOf)) {
    const d = spec.drive;
    const velocityTerm = (scene.actuators ?? []).some((a) => a.joint === spec.name && (a.gain[2] !== 0 || a.bias[2] !== 0));
    if (!((d?.damping ?? 0) > 0 || (d?.armature ?? 0) > 0 || velocityTerm)) continue;
    // a group's or chain's hinge axis turns with the other joints: its armature is no rigid inertia of one body
    const ma = moving(spec.bodyA), mb = moving(spec.bodyB);
    if (spec.type === 'hinge' && !spec.group && !spec.chainMember ? ma && mb : ma || mb) out.add(spec);
  }
  return out;
}

export const explicitActuators = (requested: string | undefined): boolean => requested === 'Euler' || requested === 'RK4';

/** The driven joints of a scene: hinges and sliders (and a group's hinges) with a `drive` or an actuator (modelled constraints only). */
export function drivenJoints(
  specs: readonly ConstraintSpec[],
  endA: readonly number[],
  endB: readonly number[],
  actuators: readonly ActuatorSpec[],
  poseOf: (body: number) => Pose,
  rows: ReadonlySet<ConstraintSpec> = new Set(),
): DrivenJoint[] {
  const out: DrivenJoint[] = [];
  specs.forEach((group, c) => {
    for (const spec of jointsOf(group)) {
      const acts = actuators.filter((a) => a.tendon === undefined && a.joint === spec.name);
      const d = spec.drive;
      // a drive with only a `coordinate` (the scale of the joint's limits and springRef) exerts nothing
      if (acts.length === 0 && !(d && (d.damping > 0 || d.stiffness > 0 || d.armature > 0))) continue;
      const kind = spec.type === 'slider' ? 'slider' : 'hinge';
      const joint = { joint: spec.name, kind, body: spec.bodyB, parent: spec.bodyA, axis: spec.axisA ?? [0, 0, 1], initial: spec.drive?.coordinate ?? 0 } as const;
      const coord = makeCoordinate({ ...joint, axis: [...joint.axis] }, poseOf(endB[c]), poseOf(endA[c]), 1, 0, spec);
      out.push({ constraint: c, spec, name: spec.name, kind, coord, ev: makeCoordinateEval(), parent: endA[c], body: endB[c], drive: spec.drive, actuators: acts, ...(rows.has(spec) ? { row: true } : {}) });
    }
  });
  return out;
}

/**
 * Body inertia with the armature of the hinges it is the moving child of: I + a·u·uᵀ with u the
 * hinge's axis in the body's frame (axisB; axisA when the body is end A of a hinge to a fixed B).
 * Returns the new inertia and inverse per body index that changed.
 */
export function armatureInertia(
  specs: readonly ConstraintSpec[],
  endA: readonly number[],
  endB: readonly number[],
  moving: (body: number) => boolean,
  inertiaOf: (body: number) => Mat3,
  rows: ReadonlySet<ConstraintSpec> = new Set(),
): Map<number, { inertia: Mat3; invInertia: Mat3 }> {
  const out = new Map<number, { inertia: Mat3; invInertia: Mat3 }>();
  specs.forEach((spec, c) => {
    const a = spec.drive?.armature ?? 0;
    if (spec.type !== 'hinge' || !(a > 0) || rows.has(spec)) return;
    const onB = endB[c] >= 0 && moving(endB[c]);
    const body = onB ? endB[c] : endA[c];
    if (body < 0 || !moving(body)) return;
    const u = normalize(onB ? (spec.axisB ?? spec.axisA ?? [0, 0, 1]) : (spec.axisA ?? [0, 0, 1]));
    const I = [...(out.get(body)?.inertia ?? inertiaOf(body))] as Mat3;
    for (let r = 0; r < 3; r++) for (let k = 0; k < 3; k++) I[3 * r + k] += a * u[r] * u[k];
    const inv = mat3Inverse(I);
    if (inv) out.set(body, { inertia: I, invInertia: inv });
  });
  return out;
}
