// The tendons of a world (model/tendon.ts builds their lengths) and the smooth forces along them,
// as MuJoCo's passive tendon forces and actuators with a tendon transmission:
//   τ = −k·(L − s₁) for L > s₁, −k·(L − s₀) for L < s₀ (the spring's dead band [s₀, s₁]), − d·L̇
//       + Σ_actuators gear·clamp(gain(u, l, l̇)·u + bias(l, l̇)),  l = gear·L
// entering F as Jᵀ·τ on every body the tendon spans. Damping (the tendon's, and the actuators' velocity
// terms as for joints, model/forces.ts) is implicit as in MuJoCo's implicit and implicitfast, in the
// velocity formulation: the explicit −d·L̇⁻ here and a compliant row U + R/d = L̇⁻ on the tendon
// (contact/tendonRows.ts) make it −d·L̇⁺. It stays explicit where the source asked for MuJoCo's Euler or
// RK4 (their implicit part is the joints' damping only: a tendon's is explicit there, checked against
// MuJoCo's WebAssembly) and in the other formulations. Limits, friction loss and the tendon equality
// are rows of the velocity step only.
import type { ActuatorSpec, ConstraintSpec, SceneSpec, TendonSpec } from '../scene/spec';
import type { Pose } from './constraint';
import { actuatorForce, explicitActuators, type DriveReport, type JointForces } from './forces';
import { JointCoordinate } from './jointCoordinate';
import { TendonLength, type TendonCoordinate, type TendonPoint, type TendonTerm } from './tendon';
import { jointsOf } from '../scene/hingeGroups';
import type { Activations } from './activation';

/**
 * A lone hinge's or slider's coordinate on its own scale (its drive's `coordinate` in the initial
 * state). A hinge's twist is measured within ±π of the initial state, and a hinge turns on without
 * bound: the branch nearest the previous evaluation is taken, so that L stays continuous (as the
 * joints' own forces do, model/forces.ts).
 */
class JointTendonCoordinate implements TendonCoordinate {
  q = 0;
  qd = 0;
  private last = NaN;
  readonly JA: Float64Array;
  readonly JB: Float64Array;
  private readonly c: JointCoordinate;
  private readonly offset: number;
  constructor(spec: ConstraintSpec, a0: Pose, b0: Pose, readonly endA: number, readonly endB: number) {
    this.c = new JointCoordinate(spec, a0, b0);
    this.offset = spec.drive?.coordinate ?? 0;
    this.JA = this.c.JA;
    this.JB = this.c.JB;
  }
  restart(): void {
    this.last = NaN;
  }
  evaluate(a: Pose, b: Pose): void {
    this.c.evaluate(a, b);
    let q = this.c.q + this.offset;
    if (this.c.kind === 'hinge' && Number.isFinite(this.last)) q += TWO_PI * Math.round((this.last - q) / TWO_PI);
    this.last = q;
    this.q = q;
    this.qd = this.c.qd;
  }
}

const TWO_PI = 2 * Math.PI;

export interface WorldTendon {
  spec: TendonSpec;
  length: TendonLength;
  actuators: ActuatorSpec[];
  /** The equality's second tendon (index in `TendonSet.tendons`), if any. */
  other?: number;
  /** Damping is a compliant row of the velocity step (contact/tendonRows.ts). */
  row: boolean;
  /** L in the initial state: the default of the spring's length and of the equality's reference lengths. */
  length0: number;
}

export interface TendonReport {
  L: Float64Array;
  Ld: Float64Array;
  tau: Float64Array;
  /** The damping d taken implicitly this step (the tendon's and its actuators' −∂τ/∂L̇). */
  damping: Float64Array;
}

export class TendonSet {
  readonly report: TendonReport;
  /** Per actuator pulling a tendon: the clamped control and force of the last `apply`. */
  readonly actuatorOut = new Map<ActuatorSpec, { ctrl: number; force: number }>();
  /** Σ|x| over the F entries the last `apply` changed. */
  absF = 0;
  /** `activations`: the run's activation state (actuators with activation dynamics), h its step. */
  constructor(readonly tendons: WorldTendon[], private readonly activations?: Activations, private readonly h = 0) {
    const n = tendons.length;
    this.report = { L: new Float64Array(n), Ld: new Float64Array(n), tau: new Float64Array(n), damping: new Float64Array(n) };
  }

  /** True when some tendon exerts a smooth force (spring, damping or an actuator). */
  get forced(): boolean {
    return this.tendons.some((t) => (t.spec.stiffness ?? 0) > 0 || (t.spec.damping ?? 0) > 0 || t.actuators.length > 0);
  }

  /** Forget the hinge branches (a run starting again from its initial state). */
  restart(): void {
    for (const t of this.tendons) t.length.restart();
  }

  /** Evaluate every tendon's length, rate and Jacobian at `pose`. */
  evaluate(pose: (body: number) => Pose): void {
    this.tendons.forEach((t, i) => {
      t.length.evaluate(pose);
      this.report.L[i] = t.length.L;
      this.report.Ld[i] = t.length.Ld;
    });
  }

  /** ½·k·(L − s)² outside each spring's dead band, at `pose` (the lengths are evaluated there). */
  springEnergy(pose: (body: number) => Pose): number {
    let e = 0;
    for (const t of this.tendons) {
      const k = t.spec.stiffness ?? 0, s = t.spec.springLength ?? [t.length0, t.length0];
      if (!(k > 0)) continue;
      t.length.evaluate(pose);
      const L = t.length.L;
      const x = L > s[1] ? L - s[1] : L < s[0] ? L - s[0] : 0;
      e += 0.5 * k * x * x;
    }
    return e;
  }

  /** Evaluate every tendon at `pose` and add Jᵀ·τ to F (`columnOf(body)`: the body's first column, −1 when it has none). */
  apply(pose: (body: number) => Pose, columnOf: (body: number) => number, F: Float64Array): void {
    let sum = 0;
    this.tendons.forEach((t, i) => {
      const len = t.length;
      len.evaluate(pose);
      const s = t.spec;
      let tau = 0, d = 0;
      const k = s.stiffness ?? 0;
      if (k > 0) {
        const [s0, s1] = s.springLength ?? [t.length0, t.length0];
        if (len.L > s1) tau -= k * (len.L - s1);
        else if (len.L < s0) tau -= k * (len.L - s0);
      }
      const damping = s.damping ?? 0;
      tau -= damping * len.Ld;
      d += damping;
      for (const a of t.actuators) {
        const out = actuatorForce(a, len.L, len.Ld, this.activations, this.h);
        this.actuatorOut.set(a, { ctrl: out.ctrl, force: out.force });
        tau += a.gear * out.force;
        if (t.row && !out.clamped) d -= Math.min(0, a.gear * a.gear * (a.gain[2] * out.input + a.bias[2]));
      }
      this.report.L[i] = len.L;
      this.report.Ld[i] = len.Ld;
      this.report.tau[i] = tau;
      this.report.damping[i] = d;
      if (tau === 0) return;
      len.bodies.forEach((b, e) => {
        const col = columnOf(b);
        if (col < 0) return;
        for (let c = 0; c < 6; c++) sum += Math.abs((F[col + c] += tau * len.J[6 * e + c]));
      });
    });
    this.absF = sum;
  }
}

/**
 * True when a scene's tendons need rows of the velocity step: limits, friction loss, an equality, or
 * damping (and actuators' velocity terms) taken implicitly.
 */
export function sceneHasTendonRows(scene: SceneSpec): boolean {
  if (scene.solver.formulation !== 'velocity') return false;
  const implicit = !explicitActuators(scene.requestedIntegrator);
  return (scene.tendons ?? []).some((t) => t.limits !== undefined || (t.frictionLoss ?? 0) > 0 || t.equality !== undefined || (implicit && implicitDamping(scene, t)));
}

/** The tendon's damping or an actuator's velocity term: what an implicit step takes implicitly. */
const implicitDamping = (scene: SceneSpec, t: TendonSpec): boolean => (t.damping ?? 0) > 0 || (scene.actuators ?? []).some((a) => a.tendon === t.name && (a.gain[2] !== 0 || a.bias[2] !== 0));

/**
 * The drives of a snapshot: the joints' (model/forces.ts) with the controls and forces of the actuators
 * that pull tendons filled in from the tendons' last `apply`; undefined when there are neither.
 */
export function driveSnapshot(forces: JointForces | undefined, tendons: TendonSet | undefined, actuators: readonly ActuatorSpec[]): DriveReport | undefined {
  if (!forces && !tendons?.actuatorOut.size) return undefined;
  const out = forces?.snapshot(actuators) ?? { joints: [], q: [], qd: [], tau: [], actuators: actuators.map((a) => a.name), ctrl: actuators.map(() => 0), force: actuators.map(() => 0) };
  actuators.forEach((a, k) => {
    const o = tendons?.actuatorOut.get(a);
    if (o) {
      out.ctrl[k] = o.ctrl;
      out.force[k] = o.force;
    }
  });
  return out;
}

/** What a world's tendons are built from: its constraints' specs and ends, the bodies' initial poses. */
export interface TendonWorld {
  scene: SceneSpec;
  bodyIndex: ReadonlyMap<string, number>;
  specs: readonly ConstraintSpec[];
  endA: readonly number[];
  endB: readonly number[];
  pose0: (body: number) => Pose;
}

/**
 * The scene's tendons whose joints are modelled hinges or sliders and whose points are on known
 * bodies (the parser and the importer report the others), or undefined when there are none.
 */
export function buildTendons(w: TendonWorld, activations?: Activations): TendonSet | undefined {
  const specs = w.scene.tendons ?? [];
  if (!specs.length) return undefined;
  // every hinge and slider by name, a universal's or ball's hinges too (each with its own coordinate)
  const byName = new Map<string, { c: number; spec: ConstraintSpec }>();
  w.specs.forEach((s, c) => {
    for (const m of jointsOf(s)) byName.set(m.name, { c, spec: m });
  });
  const out: WorldTendon[] = [];
  const implicit = w.scene.solver.formulation === 'velocity' && !explicitActuators(w.scene.requestedIntegrator);
  for (const spec of specs) {
    const terms: TendonTerm[] = [];
    let ok = true;
    for (const j of spec.joints ?? []) {
      const found = byName.get(j.joint);
      if (found === undefined) {
        ok = false;
        break;
      }
      const { c, spec: js } = found;
      terms.push({ coordinate: new JointTendonCoordinate(js, w.pose0(w.endA[c]), w.pose0(w.endB[c]), w.endA[c], w.endB[c]), coef: j.coef });
    }
    const points: TendonPoint[] = [];
    for (const p of spec.path ?? []) {
      const b = p.body === 'world' ? -1 : w.bodyIndex.get(p.body);
      if (b === undefined) ok = false;
      else points.push({ body: b, local: [...p.point] });
    }
    if (!ok) continue;
    const actuators = (w.scene.actuators ?? []).filter((a) => a.tendon === spec.name);
    const length = new TendonLength(terms, points);
    length.evaluate(w.pose0);
    const length0 = length.L;
    length.restart();
    out.push({ spec, length, actuators, row: implicit && implicitDamping(w.scene, spec), length0 });
  }
  const index = new Map(out.map((t, i) => [t.spec.name, i]));
  for (const t of out) {
    const other = t.spec.equality?.other;
    if (other !== undefined && index.has(other)) t.other = index.get(other);
  }
  return out.length ? new TendonSet(out, activations, w.scene.solver.dt) : undefined;
}
