// Joint limits and friction loss as bounded rows of the velocity-level contact problem (pgs.ts), on the
// coordinate q of a hinge or slider constraint (model/jointCoordinate.ts), J_q its 1×12 Jacobian:
// (q on the joint's own scale: its `coordinate` in the initial state, 0 by default, as the drives')
//   limit, lower bound:  row  J_q, gap = (q − lower) − margin,   R ≥ 0,  U ≥ t
//   limit, upper bound:  row −J_q, gap = (upper − q) − margin,   R ≥ 0,  U ≥ t
//       t = −gap/h when open (the bound may be reached within the step, not passed),
//           −erp·gap/h when passed (the penetration recovery of contacts)
//   friction loss:       row  J_q, U = 0 while |R| < frictionLoss,  R ∈ [−frictionLoss, frictionLoss]
//   drive (damping d and armature a between two moving bodies, or on a slider; model/forces.ts):
//                        row  J_q, U + σ·R = q̇⁻,  σ = h/(a + h·d),  R free
//       i.e. R = −d·(U − q̇⁻) − (a/h)·(U − q̇⁻): with the explicit −d·q̇⁻ already in F the joint feels
//       −d·q̇⁺ (MuJoCo's implicit damping, (M + h·D)·Δu) and −a·q̈ (its armature, (M + A)·q̈), exactly,
//       whatever the bodies on either side; d includes the actuators' implicit velocity terms
// R are forces (N·m for a hinge, N for a slider) like the contacts'. A bound's row is included when the
// bound can be reached within the step: gap ≤ 2h·(closing speed, before the step or after the step
// solved without joint rows, or the free motion when that solve is not given), or the row pushed in
// the previous step; a row left out carries no force. The solve without joint rows matters: in
// maximal coordinates gravity turns a hinge only through its joint rows, so the free motion alone
// does not see a pendulum swing towards its bound. Friction and drive rows are always included.
import { applyMinv, poseOf, WORLD_POSE, type Assembly, type World } from '../assembly/assemble';
import type { BodyState } from '../model/body';
import type { Pose } from '../model/constraint';
import { JointCoordinate } from '../model/jointCoordinate';
import { hasJointRows, hasOwnJointRows } from '../scene/jointLimits';
import { jointsOf } from '../scene/hingeGroups';
import type { ConstraintSpec } from '../scene/spec';
import { initialState } from '../model/body';
import type { JointRowReport } from '../result';
import { slotsOf } from './rigid';
import { softRow, type SoftContact } from './softContact';
import { boundedRowW } from './boundedRows';
import type { BoundedRow, JointRowInfo } from './boundedRows';
export { boundedRowW, type BoundedRow, type JointRowInfo } from './boundedRows';
import { hasTendonRows, tendonRowInfo, tendonRows } from './tendonRows';



/** The rows of one step, with the coordinate of each (rad or m) and its gap (limits). */
export interface JointRowStep {
  rows: BoundedRow[];
  q: Float64Array;
  gap: Float64Array;
}

const softOut = new Float64Array(4);
/** MuJoCo's default solref and solimp of a joint limit. */
const LIMIT_SOLREF: [number, number] = [0.02, 1];
const LIMIT_SOLIMP: [number, number, number, number, number] = [0.9, 0.95, 0.001, 0.5, 2];
const softLimits = (spec: ConstraintSpec): SoftContact | undefined =>
  spec.limitSolref || spec.limitSolimp ? { solref: spec.limitSolref ?? LIMIT_SOLREF, solimp: spec.limitSolimp ?? LIMIT_SOLIMP } : undefined;

/** Slop on the activation test so that a joint resting on its bound keeps its row through round-off. */
const SLOP = 1e-12;

export class JointRows {
  readonly info: JointRowInfo[] = [];
  private readonly coords: { constraint: number; spec: ConstraintSpec; coord: JointCoordinate; first: number; drive?: number }[] = [];
  private readonly slots: Int32Array;
  /** Key of the first tendon row (after every joint's). */
  private readonly tendonFirst: number;

  private constructor(private readonly world: World) {
    this.slots = slotsOf(world);
    const s0 = world.scene.bodies.map(initialState);
    const pose0 = (i: number): Pose => (i < 0 ? WORLD_POSE : poseOf(s0[i], true));
    const driveOf = new Map<ConstraintSpec, number>();
    world.forces?.joints.forEach((j, k) => j.row && driveOf.set(j.spec, k));
    // every coordinate of the constraint: a hinge's or slider's own, a universal's or ball's per hinge
    world.constraints.forEach((m, c) => {
      for (const spec of jointsOf(m.spec)) {
        const drive = driveOf.get(spec);
        if (!hasOwnJointRows(spec) && drive === undefined) continue;
        const coord = new JointCoordinate(spec, pose0(world.endA[c]), pose0(world.endB[c]));
        this.coords.push({ constraint: c, spec, coord, first: this.info.length, ...(drive !== undefined ? { drive } : {}) });
        if (spec.limits) {
          this.info.push({ constraint: c, name: `${spec.name}.limit`, kind: 'limit', side: 'lower', bound: spec.limits[0] });
          this.info.push({ constraint: c, name: `${spec.name}.limit`, kind: 'limit', side: 'upper', bound: spec.limits[1] });
        }
        if ((spec.frictionLoss ?? 0) > 0) this.info.push({ constraint: c, name: `${spec.name}.frictionloss`, kind: 'frictionloss', bound: spec.frictionLoss! });
        if (drive !== undefined) this.info.push({ constraint: c, name: `${spec.name}.drive`, kind: 'drive', bound: spec.drive?.armature ?? 0 });
      }
    });
    this.tendonFirst = this.info.length;
    if (world.tendons) this.info.push(...tendonRowInfo(world.tendons));
  }

  /** The joint rows of a world, or undefined when no hinge or slider has limits, friction loss or a drive row, and no tendon a row. */
  static of(world: World): JointRows | undefined {
    return world.constraints.some((m) => hasJointRows(m.spec)) || world.forces?.joints.some((j) => j.row) || hasTendonRows(world.tendons) ? new JointRows(world) : undefined;
  }

  get count(): number {
    return this.info.length;
  }

  /** The rows of a solved step as records show them; `R` and `U` per row of `step.rows`. */
  reports(step: JointRowStep, R: ArrayLike<number>, U: ArrayLike<number>): JointRowReport[] {
    const out: JointRowReport[] = [];
    // drive rows are the joints' damping and armature: the snapshot's drives report those joints
    step.rows.forEach((row, i) => {
      const inf = this.info[row.key];
      if (inf.kind === 'drive' || inf.kind === 'equality') return;
      const force = R[i];
      const rep: JointRowReport = {
        name: inf.name,
        constraint: inf.tendon !== undefined ? this.world.tendons!.tendons[inf.tendon].spec.name : this.world.constraints[inf.constraint].spec.name,
        ...(inf.tendon !== undefined ? { tendon: true } : {}),
        kind: inf.kind,
        q: step.q[row.key],
        bound: inf.bound,
        force,
        velocity: U[i],
        state: inf.kind === 'limit' ? (force > 0 ? 'active' : 'open') : Math.abs(force) < inf.bound * (1 - 1e-9) ? 'stick' : 'slip',
      };
      if (inf.side) {
        rep.side = inf.side;
        rep.gap = step.gap[row.key];
      }
      out.push(rep);
    });
    return out;
  }

  /** The forces of a solved step per joint row (0 for rows left out): the next step's warm start. */
  warm(step: JointRowStep, R: ArrayLike<number>): Float64Array {
    const out = new Float64Array(this.count);
    step.rows.forEach((row, i) => (out[row.key] = R[i]));
    return out;
  }

  /**
   * The rows of the step from `states` (the assembly `asm` at these states): every friction row and
   * the limit rows that can act. `warm` holds the previous step's force per joint row (or nothing),
   * `predicted` the u⁺ of the step solved without joint rows (or nothing: the free motion is used).
   */
  rows(states: readonly BodyState[], asm: Assembly, h: number, erp: number, warm?: ArrayLike<number>, predicted?: ArrayLike<number>): JointRowStep {
    const w = this.world;
    const uFree = predicted ?? freeVelocity(w, asm, h);
    const rows: BoundedRow[] = [];
    const q = new Float64Array(this.count);
    const gap = new Float64Array(this.count);
    const pose = (i: number): Pose => (i < 0 ? WORLD_POSE : poseOf(states[i], w.bodies[i].column < 0));
    const forces = w.forces;
    for (const { constraint: c, spec, coord, first, drive } of this.coords) {
      const ia = w.endA[c], ib = w.endB[c];
      coord.evaluate(pose(ia), pose(ib));
      const slotA = ia < 0 ? -1 : this.slots[ia], slotB = ib < 0 ? -1 : this.slots[ib];
      const qdFree = dotEnd(coord.JA, uFree, slotA) + dotEnd(coord.JB, uFree, slotB);
      // the bounds are on the joint's own scale: `coordinate` (the drive's, default 0) in the initial state
      const qj = coord.q + (spec.drive?.coordinate ?? 0);
      let k = first;
      if (spec.limits) {
        const margin = spec.limitMargin ?? 0;
        const soft = softLimits(spec);
        for (const s of [1, -1]) {
          const dist = s > 0 ? qj - spec.limits[0] : spec.limits[1] - qj;
          const g = dist - margin;
          q[k] = qj;
          gap[k] = g;
          const closing = Math.max(0, -s * coord.qd, -s * qdFree);
          const R0 = warm?.[k] ?? 0;
          // a soft bound acts once passed, as MuJoCo's (dist < margin); a hard one also when the step may reach it
          if (soft ? g < 0 : g <= 2 * h * closing + SLOP || R0 > 0) {
            const row: BoundedRow = { key: k, slotA, slotB, JA: scaled(coord.JA, s), JB: scaled(coord.JB, s), lo: 0, hi: Infinity, target: g >= 0 ? -g / h : -(erp * g) / h, R0: Math.max(0, R0) };
            if (soft) {
              // MuJoCo's soft bound: U + Σ·R ≥ s·q̇⁻ + h·aref with Σ = h·(1 − d)/d·Â (softContact.ts)
              softRow(soft, g, s * coord.qd, h, spec.limitInvWeight ?? boundedRowW(row, asm.minvCompact), softOut);
              row.target = softOut[0];
              row.compliance = softOut[1];
            }
            rows.push(row);
          }
          k++;
        }
      }
      const f = spec.frictionLoss ?? 0;
      if (f > 0) {
        q[k] = qj;
        const R0 = Math.min(f, Math.max(-f, warm?.[k] ?? 0));
        rows.push({ key: k, slotA, slotB, JA: scaled(coord.JA, 1), JB: scaled(coord.JB, 1), lo: -f, hi: f, target: 0, R0 });
        k++;
      }
      if (drive !== undefined && forces) {
        // the assembly at these states applied the joint forces: their damping d is this step's
        const d = forces.report.damping[drive];
        const a = spec.drive?.armature ?? 0;
        const stiff = a + h * d;
        q[k] = qj;
        // the row holds U = J·u⁺ at this step's J, but the joint's rate after the step is J(x⁺)·u⁺ ≈ U + h·J̇·u:
        // q̇⁻ − h·J̇·u as the target makes the armature's −a·q̈ and the damping's −d·q̇⁺ act on that rate
        // (J̇·u = 0 for a hinge whose axis keeps its direction, as in a planar or coaxial motion)
        if (stiff > 0 && h > 0) rows.push({ key: k, slotA, slotB, JA: scaled(coord.JA, 1), JB: scaled(coord.JB, 1), lo: -Infinity, hi: Infinity, target: coord.qd - h * coord.qdd, R0: warm?.[k] ?? 0, compliance: h / stiff, constraint: c });
      }
    }
    if (w.tendons && this.tendonFirst < this.count) {
      w.tendons.evaluate(pose);
      rows.push(...tendonRows({ set: w.tendons, slotOf: (i) => (i < 0 ? -1 : this.slots[i]), uFree, h, erp, warm, first: this.tendonFirst, q, gap }));
    }
    return { rows, q, gap };
  }
}


/** u⁻ + h·M⁻¹F, 6 per free body. */
function freeVelocity(w: World, asm: Assembly, h: number): Float64Array {
  const u = applyMinv(w, asm.minvCompact, asm.F);
  for (let i = 0; i < u.length; i++) u[i] = asm.v[i] + h * u[i];
  return u;
}

function dotEnd(J: Float64Array, u: ArrayLike<number>, slot: number): number {
  if (slot < 0) return 0;
  const o = 6 * slot;
  return J[0] * u[o] + J[1] * u[o + 1] + J[2] * u[o + 2] + J[3] * u[o + 3] + J[4] * u[o + 4] + J[5] * u[o + 5];
}

const scaled = (J: Float64Array, s: number): Float64Array => Float64Array.from(J, (x) => s * x);
