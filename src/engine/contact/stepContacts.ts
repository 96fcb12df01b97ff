// The per-formulation step with contacts (docs/formulas.md "Contacts in a run"):
//   velocity + contacts enabled: contacts detected at q⁻; a step with contacts is solved by projected
//     Gauss–Seidel on every row (joints and contacts, Solfec's U = B + W·R) warm-started from the
//     previous step; a step without contacts keeps the direct solve of the velocity formulation
//     (the same equations, solved exactly);
//     Joint limits, friction loss and the drive rows of damping and armature between moving bodies
//     (contact/jointRows.ts) are bounded rows of the same PGS: a step with such a row takes PGS too,
//     and a scene with them steps here even without shapes;
//   nonlinear: every step is Axion's Newton system (joints at the position level, contacts at
//     `solver.contacts.level`), λ_b warm-started from the previous step.
// The acceleration formulation never gets here (its contacts are disabled by the parser, CL116).
import { type Assembly, type World } from '../assembly/assemble';
import { detectContacts } from '../collision/detect';
import type { Contact, ContactForce } from '../collision/contacts';
import type { ShapeSpec } from '../scene/contactSpec';
import { DEFAULT_SLEEP_TOLERANCE, DEFAULT_SOLIMP } from '../scene/contactFields';
import { holdVelocities, shapeRadius, SleepModel, type Nap } from './sleep';
import { stepNonlinear, type NewtonReport } from './newton';
import { solveContactsPgs, type PgsReport, type VelocitySettings } from './pgs';
import { defaultNonlinearSettings, DEFAULT_RESTITUTION_THRESHOLD } from './settings';
import type { NonlinearSettings } from './system';
import { JointRows } from './jointRows';
import type { JointRowReport } from '../result';
import { hasJointRows } from '../scene/jointLimits';
import { driveRowJoints } from '../model/forces';
import { sceneHasTendonRows } from '../model/tendonForces';
import type { SolveOutput } from '../kkt/kkt';
import { quatIntegrateInto, quatToMat3 } from '../core/math';
import type { BodyState } from '../model/body';
import { halfStepInto, isMidpoint } from '../model/midpoint';
import type { SceneSpec } from '../scene/spec';
import type { Vec3 } from '../types';

export type ContactMode = 'velocity' | 'nonlinear';

/** Which contact step a scene takes, if any. */
export function contactMode(scene: SceneSpec): ContactMode | undefined {
  const s = scene.solver;
  if (s.formulation === 'nonlinear') return 'nonlinear';
  if (s.formulation === 'velocity' && (s.contacts.enabled || scene.constraints.some(hasJointRows) || driveRowJoints(scene).size > 0 || sceneHasTendonRows(scene))) return 'velocity';
  return undefined;
}

/**
 * What one step hands to the next: the bilateral reactions (forces) and, for PGS, the contacts'
 * forces keyed by their shape pair and their witness point on A (A's frame). Packed, so that a
 * history of them stays small: `keys` 4 per contact (bodyA, shapeA, bodyB, shapeB), `data` 7 per
 * contact (localA, normal force, friction force as a world vector).
 */
export interface WarmStart {
  bilateral?: Float64Array;
  keys?: Int32Array;
  data?: Float64Array;
  /** Velocity formulation: the force of each joint row (JointRows.info order), 0 where left out. */
  joints?: Float64Array;
  /** Sleeping islands (`solver.contacts.sleep`): each tree's counter after the step (contact/sleep.ts). */
  sleep?: Int32Array;
}
export const NO_WARM: WarmStart = {};
const WARM_STRIDE = 7;

/** One step with contacts: the new states and everything the history, the snapshot and the findings need. */
export interface ContactStep {
  mode: ContactMode;
  states: BodyState[];
  /** |q| − 1 before normalisation, per scene body. */
  drift: Float64Array;
  contacts: Contact[];
  forces: ContactForce[];
  /** Gap of each contact after the step (same normal and witness points, the bodies moved). */
  gapsAfter: Float64Array;
  /** Bilateral reactions as forces, one per row of the world's constraints. */
  lambda: Float64Array;
  /** u⁺, 6 per free body (column order). */
  uPlus: Float64Array;
  complementarity: number;
  maxPenetration: number;
  /** The solver's residual: PGS ‖r‖₂, or Newton's final ‖h‖₂. */
  residual: number;
  pgs?: PgsReport;
  newton?: NewtonReport;
  warm: WarmStart;
  /** Joint limits and friction loss of a velocity step, with their forces. */
  jointRows?: JointRowReport[];
}

/** Detection slop of velocity-level Newton contacts (m): a resting contact at gap +1e-16 must not be lost to round-off. */
export const ROUND_OFF_SLOP = 1e-9;

const pairKey = (c: Contact): string => `${c.bodyA}:${c.shapeA}|${c.bodyB}:${c.shapeB}`;

/** A length that says how large a shape is (the matching radius of warm starts is a tenth of it): 1 beyond spheres, capsules and boxes. */
function shapeSize(s: ShapeSpec | undefined): number {
  return s && (s.type === 'sphere' || s.type === 'capsule' || s.type === 'box') ? shapeRadius(s) : 1;
}

export class ContactStepper {
  readonly mode: ContactMode;
  private readonly velocity: VelocitySettings;
  private readonly nonlinear: NonlinearSettings;
  /** Velocity formulation: the joint limits and friction loss, if any. */
  private readonly joints: JointRows | undefined;
  /** Sleeping islands, when the scene asks for them. */
  readonly sleep: SleepModel | undefined;

  constructor(
    readonly world: World,
    readonly scene: SceneSpec,
    mode: ContactMode,
  ) {
    this.mode = mode;
    this.joints = mode === 'velocity' ? JointRows.of(world) : undefined;
    const s = scene.solver;
    this.sleep = s.contacts.sleep && s.contacts.enabled ? new SleepModel(world, scene, s.contacts.sleepTolerance ?? DEFAULT_SLEEP_TOLERANCE) : undefined;
    const soft = s.contacts.solref && s.contacts.solimp ? { solref: s.contacts.solref, solimp: s.contacts.solimp } : s.contacts.soft ? { solref: [0.02, 1] as const, solimp: DEFAULT_SOLIMP } : undefined;
    this.velocity = { pgs: { ...s.pgs }, erp: s.erp, compliance: s.compliance, restitutionThreshold: DEFAULT_RESTITUTION_THRESHOLD, ...(soft ? { soft } : {}), ...(s.contacts.soft ? { softRows: true } : {}), ...(s.contacts.cone ? { cone: s.contacts.cone } : {}), ...(s.contacts.impratio !== undefined ? { impratio: s.contacts.impratio } : {}) };
    this.nonlinear = defaultNonlinearSettings({
      newton: { ...s.newton },
      fb: { ...s.fb },
      regularization: s.regularization,
      contactLevel: s.contacts.level,
      jointLevel: 'position',
      compliance: s.compliance,
      erp: s.erp,
    });
  }

  /** The shape of body `owner` (−1: the world) at `index`. */
  shapeOf(owner: number, index: number): ShapeSpec | undefined {
    return owner < 0 ? this.scene.world.shapes[index] : this.scene.bodies[owner]?.shapes[index];
  }

  /**
   * Contacts at the given states (empty when contacts are disabled): gap ≤ margin + the
   * speculative distance, so that every contact that can close during the step is solved.
   */
  detect(states: readonly BodyState[], asleep?: Uint8Array): Contact[] {
    const c = this.scene.solver.contacts;
    if (!c.enabled) return [];
    // Velocity-level Newton rows (seed: φ(J_n·u + Υ·c_n(q⁻)/h, ·)) let an open contact close by only Υ·gap per
    // step: a speculative contact would hold the bodies apart. They get the round-off slop only.
    const velocityNewton = this.mode === 'nonlinear' && c.level === 'velocity';
    return detectContacts(this.scene, states, { ...c, margin: c.margin + (velocityNewton ? ROUND_OFF_SLOP : this.speculative(states)) }, asleep);
  }

  /**
   * With sleeping islands: the step's contacts (sleeping bodies left out, wakes done) and which bodies
   * sleep at its end, from the counters `warm` hands over; undefined without.
   */
  nap(states: readonly BodyState[], warm: WarmStart): Nap | undefined {
    return this.sleep?.nap(states, warm.sleep, (mask) => this.detect(states, mask));
  }

  /**
   * How far two surfaces can approach in one step, bounded from the free motion: twice the largest
   * over free bodies of h·(|v| + h·|F/m + g| + |ω|·r), r the farthest shape point from the body's
   * origin. Contacts detected within it but still open at the end of the step carry no force.
   */
  speculative(states: readonly BodyState[]): number {
    const h = this.scene.solver.dt;
    const g = this.scene.gravity;
    let most = 0;
    this.world.bodies.forEach((b, i) => {
      if (b.column < 0 || b.spec.shapes.length === 0) return;
      const s = states[i];
      const f = b.spec.force;
      const m = b.spec.mass;
      const gi = b.spec.gravity ? 1 : 0;
      const acc = Math.hypot(f[0] / m + gi * g[0], f[1] / m + gi * g[1], f[2] / m + gi * g[2]);
      const speed = Math.hypot(...s.v) + h * acc + Math.hypot(...s.w) * this.reach(i);
      if (speed > most) most = speed;
    });
    const d = 2 * h * most;
    return Number.isFinite(d) ? d : 0;
  }

  private readonly reaches = new Map<number, number>();
  /** The farthest point of body i's shapes from its origin. */
  private reach(i: number): number {
    let r = this.reaches.get(i);
    if (r === undefined) {
      r = 0;
      for (const s of this.scene.bodies[i].shapes) r = Math.max(r, Math.hypot(...s.position) + shapeSize(s));
      this.reaches.set(i, r);
    }
    return r;
  }

  /**
   * One step from `states` (not modified) with `warm` from the previous step. Returns undefined
   * for a velocity step without contacts: the caller then takes its direct velocity-level solve
   * (`out`) and hands `plainWarm(out)` to the next step. `predicted`: that direct solve's u⁺, from
   * which joint limits tell whether the step would pass a bound (contact/jointRows.ts). `nap`: the
   * step's sleeping islands (`nap`, with `contacts` its contacts): the bodies asleep at its end stay put.
   */
  step(states: readonly BodyState[], warm: WarmStart, asm: Assembly, contacts = this.detect(states), predicted?: ArrayLike<number>, nap?: Nap): ContactStep | undefined {
    const dt = this.scene.solver.dt;
    const sleep = nap ? { sleep: nap.next } : {};
    if (this.mode === 'nonlinear') {
      const { states: next, report } = stepNonlinear(this.world, states, contacts, this.nonlinear, dt, { bilateral: warm.bilateral });
      if (nap) holdAsleep(nap.hold, states, next, report.bodyQuatDrift);
      const uPlus = new Float64Array(6 * this.world.colBodies.length);
      this.world.colBodies.forEach((bi, k) => {
        uPlus.set(next[bi].v, 6 * k);
        uPlus.set(next[bi].w, 6 * k + 3);
      });
      return {
        mode: 'nonlinear',
        states: next,
        drift: report.bodyQuatDrift,
        contacts,
        forces: report.contacts,
        gapsAfter: gapsAfter(contacts, states, next),
        lambda: report.bilateral,
        uPlus,
        complementarity: report.complementarity,
        maxPenetration: report.maxPenetration,
        residual: report.residuals[report.residuals.length - 1] ?? 0,
        newton: report,
        warm: { bilateral: report.bilateral, ...sleep },
      };
    }
    const joints = this.joints?.rows(states, asm, dt, this.velocity.erp, warm.joints, predicted);
    if (contacts.length === 0 && !joints?.rows.length) return undefined;
    const report = solveContactsPgs(this.world, states, contacts, this.velocity, dt, { bilateral: warm.bilateral, contacts: this.warmContacts(contacts, warm) }, asm, joints?.rows);
    const drift = new Float64Array(states.length);
    // midpoint (model/midpoint.ts): `states` are q^{t+h/2}, where Solfec detects contacts too; the step ends with q^{t+h/2} + (h/2)·u⁺
    const midpoint = isMidpoint(this.scene.solver);
    const hold = nap?.hold;
    const next = states.map((s, i) => {
      const col = this.world.bodies[i].column;
      const st: BodyState = { p: [...s.p], q: [...s.q], v: [...s.v], w: [...s.w] };
      if (col < 0) return st;
      // asleep at the end of the step: where it began, at rest
      if (hold && hold[i]) {
        st.v = [0, 0, 0];
        st.w = [0, 0, 0];
        return st;
      }
      for (let d = 0; d < 3; d++) {
        st.v[d] = report.uPlus[col + d];
        st.w[d] = report.uPlus[col + 3 + d];
        if (!midpoint) st.p[d] += st.v[d] * dt;
      }
      drift[i] = midpoint ? halfStepInto(st, dt) : quatIntegrateInto(st.q, st.w, dt) - 1;
      return st;
    });
    const after = gapsAfter(contacts, states, next);
    let maxPenetration = 0;
    for (const g of after) maxPenetration = Math.max(maxPenetration, -g);
    return {
      mode: 'velocity',
      states: next,
      drift,
      contacts,
      forces: report.contacts,
      gapsAfter: after,
      lambda: report.bilateral,
      uPlus: hold ? heldCopy(this.world, hold, report.uPlus) : report.uPlus,
      complementarity: report.complementarity,
      maxPenetration,
      residual: report.residual,
      pgs: report,
      warm: { ...this.packWarm(contacts, report), ...(this.joints && joints && { joints: this.joints.warm(joints, report.bounded) }), ...sleep },
      ...(this.joints && joints && { jointRows: this.joints.reports(joints, report.bounded, report.U.subarray(report.U.length - joints.rows.length)) }),
    };
  }

  /** The warm start after a velocity step solved directly (no contacts): its bilateral reactions. */
  plainWarm(out: SolveOutput): WarmStart {
    return out.R ? { bilateral: out.R } : NO_WARM;
  }

  private packWarm(contacts: readonly Contact[], report: PgsReport): WarmStart {
    const n = contacts.length;
    const keys = new Int32Array(4 * n);
    const data = new Float64Array(WARM_STRIDE * n);
    contacts.forEach((c, k) => {
      keys.set([c.bodyA, c.shapeA, c.bodyB, c.shapeB], 4 * k);
      const R = report.R;
      const f1 = R[3 * k + 1], f2 = R[3 * k + 2];
      data.set([c.localA[0], c.localA[1], c.localA[2], R[3 * k]], WARM_STRIDE * k);
      for (let d = 0; d < 3; d++) data[WARM_STRIDE * k + 4 + d] = f1 * c.t1[d] + f2 * c.t2[d];
    });
    return { bilateral: report.bilateral, keys, data };
  }

  /**
   * Warm forces [R_n, R_t1, R_t2] per new contact: the previous contact of the same shape pair
   * whose witness point on A (in A's frame) is nearest, within a tenth of A's shape size, each
   * previous contact used once; its friction force re-projected on the new tangents. 0 otherwise.
   */
  private warmContacts(contacts: readonly Contact[], warm: WarmStart): Float64Array {
    const out = new Float64Array(3 * contacts.length);
    const { keys, data } = warm;
    if (!keys || !data || keys.length === 0) return out;
    const pool = new Map<string, number[]>();
    for (let k = 0; k < keys.length / 4; k++) {
      const key = `${keys[4 * k]}:${keys[4 * k + 1]}|${keys[4 * k + 2]}:${keys[4 * k + 3]}`;
      const list = pool.get(key);
      if (list) list.push(k);
      else pool.set(key, [k]);
    }
    contacts.forEach((c, i) => {
      const list = pool.get(pairKey(c));
      if (!list || list.length === 0) return;
      const tol = 0.1 * shapeSize(this.shapeOf(c.bodyA, c.shapeA));
      let best = -1;
      let bestD = tol * tol;
      for (let j = 0; j < list.length; j++) {
        const o = WARM_STRIDE * list[j];
        const d = (data[o] - c.localA[0]) ** 2 + (data[o + 1] - c.localA[1]) ** 2 + (data[o + 2] - c.localA[2]) ** 2;
        if (d <= bestD) {
          bestD = d;
          best = j;
        }
      }
      if (best < 0) return;
      const o = WARM_STRIDE * list[best];
      list.splice(best, 1);
      const f: Vec3 = [data[o + 4], data[o + 5], data[o + 6]];
      out[3 * i] = Math.max(0, data[o + 3]);
      out[3 * i + 1] = f[0] * c.t1[0] + f[1] * c.t1[1] + f[2] * c.t1[2];
      out[3 * i + 2] = f[0] * c.t2[0] + f[1] * c.t2[1] + f[2] * c.t2[2];
    });
    return out;
  }
}

/** u⁺ with the bodies asleep at the end of the step at rest (a copy: the solver's own array is left alone). */
function heldCopy(world: World, hold: Uint8Array, uPlus: Float64Array): Float64Array {
  const out = Float64Array.from(uPlus);
  holdVelocities(world, hold, out);
  return out;
}

/** The bodies asleep at the end of a step (`hold`) keep their pose from `before`, at rest, with no drift. */
export function holdAsleep(hold: Uint8Array, before: readonly BodyState[], after: BodyState[], drift: Float64Array): void {
  for (let i = 0; i < hold.length; i++) {
    if (!hold[i]) continue;
    after[i] = { p: [...before[i].p], q: [...before[i].q], v: [0, 0, 0], w: [0, 0, 0] };
    drift[i] = 0;
  }
}

/**
 * The gap of each contact at the states `after`: the witness points moved with their bodies, the
 * normal and the offset of detection kept (the c_n(q) both solvers use; docs/formulas.md).
 */
export function gapsAfter(contacts: readonly Contact[], before: readonly BodyState[], after: readonly BodyState[]): Float64Array {
  const R0 = new Map<number, number[]>();
  const R1 = new Map<number, number[]>();
  const rot = (cache: Map<number, number[]>, states: readonly BodyState[], i: number): number[] => {
    let R = cache.get(i);
    if (!R) cache.set(i, (R = quatToMat3(states[i].q)));
    return R;
  };
  const point = (states: readonly BodyState[], cache: Map<number, number[]>, i: number, local: Vec3): Vec3 => {
    if (i < 0) return local;
    const R = rot(cache, states, i);
    const p = states[i].p;
    return [
      p[0] + R[0] * local[0] + R[1] * local[1] + R[2] * local[2],
      p[1] + R[3] * local[0] + R[4] * local[1] + R[5] * local[2],
      p[2] + R[6] * local[0] + R[7] * local[1] + R[8] * local[2],
    ];
  };
  return Float64Array.from(contacts, (c) => {
    const n = c.normal;
    const sep = (states: readonly BodyState[], cache: Map<number, number[]>): number => {
      const a = point(states, cache, c.bodyA, c.localA);
      const b = point(states, cache, c.bodyB, c.localB);
      return n[0] * (a[0] - b[0]) + n[1] * (a[1] - b[1]) + n[2] * (a[2] - b[2]);
    };
    return c.gap + sep(after, R1) - sep(before, R0);
  });
}
