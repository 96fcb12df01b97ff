// What the 3D view draws, from a PanelModel: bodies (inertia box or shapes), constraints (local
// anchors and axes) and, per step, the recorded poses, the constraints' states (the tree's rule),
// the forces of that step's snapshot and the contacts. Never recomputes the engine: world anchors
// and axes are the recorded poses applied to the scene's local anchors and axes.
// Pure: no DOM, no three (unit-tested in Node).
import type { PanelModel, SceneBodyInfo, SceneConstraintInfo, StepRecord, SystemSnapshot } from '../../src/protocol';
import { constraintAt, type ItemState } from '../../src/extension/logic/tree';
import { add3, finite3, inertiaBox, rotate, rotateInv, sub3, unit3, unitQuat, type Q4, type V3 } from './math';
import { readContacts, readShapes, type ContactData, type ShapeData } from './read';
import { isSane, saneBall, type SaneBall } from './robust';

export type { ItemState };

/** A body as drawn: the scene's name, fixedness and mass, its inertia box and shapes. */
interface BodyData extends Pick<SceneBodyInfo, 'name' | 'fixed' | 'mass'> {
  /** Equivalent inertia box in the body frame (when mass and inertia are known). */
  box?: { half: V3; q: Q4 };
  shapes: ShapeData[];
}

/**
 * A constraint as drawn: the scene's name, type, file index, anchors and axes (in A's / B's frame,
 * world frame for the world; axes when the type has one and it is known), with its bodies' indices.
 */
interface ConstraintData extends Omit<SceneConstraintInfo, 'bodyA' | 'bodyB'> {
  /** Body indices in scene order; -1 for the world. */
  a: number;
  b: number;
  /** First row in J and number of rows (for λ of a step record). */
  firstRow: number;
  rows: number;
}

export interface SceneData {
  bodies: BodyData[];
  constraints: ConstraintData[];
  worldShapes: ShapeData[];
  bodyIndex: Map<string, number>;
  constraintIndex: Map<string, number>;
  /** Axis-aligned bounds of everything drawn over the whole run (fit-to-scene), absurd poses left out. */
  bounds: { min: V3; max: V3 };
  /** Around the scene's first step: poses outside are absurd (a blow-up) and frame nothing (robust.ts). */
  sane: SaneBall;
  /** Bounds of the scene as set up (its first recorded step, else the snapshot, and the world's geometry): Fit keeps it in view. */
  reference: { min: V3; max: V3 };
  /** Largest body extent (inertia box or shape), to size glyphs. */
  bodyRadius: number;
}

/** The forces and torques a constraint applies to its ends at a step (the snapshot's constraint report). */
type ConstraintForces = Pick<SystemSnapshot['constraints'][number], 'forceA' | 'torqueA' | 'forceB' | 'torqueB'>;

export interface Frame {
  step: number;
  /** 7 numbers per body [p, q], scene order. */
  poses: Float64Array;
  /** Did the poses come from this very step (a record or a snapshot of step k)? */
  exact: boolean;
  anchorA: V3[];
  anchorB: V3[];
  /** World axis of hinge / slider constraints. */
  axis: (V3 | undefined)[];
  states: ItemState[];
  violation: number[];
  /** ‖λ‖ of each constraint at the step, when known. */
  lambda: (number | undefined)[];
  /** Forces of the step (only from a snapshot of that very step). */
  forces?: ConstraintForces[];
  contacts: ContactData[];
  /** Constraints in a redundancy relation (the redundant rows and the rows they depend on). */
  redundantSet: Set<number>;
  /** Sleeping islands: the bodies asleep (from a snapshot of this very step) and how many (from its record too). */
  asleep: Set<number>;
  asleepCount?: number;
}

export type StepSource = StepRecord | SystemSnapshot | { record?: StepRecord; snapshot?: SystemSnapshot };

/**
 * The run's records as the view reads them, one step at a time: an array of records (a report, a
 * model that carries its history) or the panel's columns (webview/history.ts `runRecords`), so a
 * growing run is never copied into records to be drawn.
 */
export interface RunRecords {
  /** Steps recorded (1 … length). */
  readonly length: number;
  /** The record of step k, or undefined when not recorded. */
  record(k: number): StepRecord | undefined;
  /** The poses after step k (7 per body, scene order), or undefined when not recorded. */
  poses(k: number): ArrayLike<number> | undefined;
  /** Step k's contact report without the rest of its record (cheaper than `record` when the run is columns). */
  extras?(k: number): object | undefined;
}

/** The run of an array of records (record i is normally step i + 1). */
export function recordsRun(h: readonly StepRecord[]): RunRecords {
  const record = (k: number): StepRecord | undefined => {
    if (k <= 0) return undefined;
    const r = h[k - 1];
    if (r && r.step === k) return r;
    return h.find((x) => x.step === k);
  };
  return {
    length: h.length,
    record,
    poses: (k) => {
      const p = record(k)?.poses;
      return Array.isArray(p) ? p : undefined;
    },
  };
}

const DEFAULT_THRESHOLDS = { violationTolerance: 1e-6, conditionWarning: 1e6 };

export function poseOf(poses: Float64Array, i: number): { p: V3; q: Q4 } {
  const o = i * 7;
  return { p: [poses[o], poses[o + 1], poses[o + 2]], q: [poses[o + 3], poses[o + 4], poses[o + 5], poses[o + 6]] };
}

/** The world point of a body-frame point (the world's frame is the identity). */
export function toWorld(poses: Float64Array, body: number, local: V3): V3 {
  if (body < 0) return local;
  const { p, q } = poseOf(poses, body);
  return add3(p, rotate(q, local));
}

function snapshotPoses(names: readonly string[], s: SystemSnapshot, into?: Float64Array): Float64Array {
  const out = into ?? new Float64Array(names.length * 7);
  const by = new Map(s.bodyStates.map((b) => [b.name, b] as const));
  names.forEach((n, i) => {
    const b = by.get(n);
    const p = b && finite3(b.position) ? b.position : [0, 0, 0];
    const q = unitQuat(b?.orientation);
    out.set([p[0], p[1], p[2], q[0], q[1], q[2], q[3]], i * 7);
  });
  return out;
}

function recordPoses(n: number, r: StepRecord): Float64Array | undefined {
  if (!Array.isArray(r.poses) || r.poses.length < n * 7) return undefined;
  const out = new Float64Array(n * 7);
  for (let i = 0; i < n; i++) {
    const q = unitQuat(r.poses.slice(i * 7 + 3, i * 7 + 7));
    for (let k = 0; k < 3; k++) out[i * 7 + k] = Number.isFinite(r.poses[i * 7 + k]) ? r.poses[i * 7 + k] : 0;
    out.set(q, i * 7 + 3);
  }
  return out;
}

/** Builds the drawable scene from a PanelModel (optional fields read structurally) and its run (default: the model's history). */
export function sceneData(model: PanelModel, run: RunRecords = recordsRun(model.history)): SceneData {
  const snap = model.snapshot;
  const infos: SceneBodyInfo[] = model.sceneBodies.length ? model.sceneBodies : snap.bodyStates.map((b) => ({ name: b.name, fixed: b.fixed, mass: b.mass }));
  const massOf = new Map(snap.bodyStates.map((b) => [b.name, b.mass] as const));
  const bodies: BodyData[] = infos.map((b) => {
    const mass = typeof b.mass === 'number' ? b.mass : massOf.get(b.name);
    return { name: b.name, fixed: !!b.fixed, mass, box: inertiaBox(mass, b.inertia), shapes: readShapes((b as { shapes?: unknown }).shapes) };
  });
  const bodyIndex = new Map(bodies.map((b, i) => [b.name, i] as const));
  const idx = (name: string): number => bodyIndex.get(name) ?? -1;
  const poses0 = snapshotPoses(bodies.map((b) => b.name), snap);
  const specs = new Map<number, SceneConstraintInfo>((model.sceneConstraints ?? []).map((c) => [c.fileIndex, c] as const));
  // a producer's rows that name no bodies (MuJoCo's system) have no place to be drawn: its contacts are drawn as contacts
  const placed = snap.constraints.filter((c) => c.bodyA !== '' || c.bodyB !== '');
  const constraints: ConstraintData[] = placed.map((c) => {
    const a = idx(c.bodyA);
    const b = idx(c.bodyB);
    const spec = specs.get(c.fileIndex);
    const ok = spec && spec.name === c.name;
    // Without the scene's local anchors, derive them from the snapshot's world anchors and poses.
    const local = (body: number, world: V3): V3 => (body < 0 ? world : rotateInv(poseOf(poses0, body).q, sub3(world, poseOf(poses0, body).p)));
    const axis = (x: unknown): V3 | undefined => (ok && finite3(x) ? unit3([x[0], x[1], x[2]]) : undefined);
    return {
      name: c.name,
      type: c.type,
      fileIndex: c.fileIndex,
      a,
      b,
      anchorA: ok && finite3(spec.anchorA) ? [...spec.anchorA] : local(a, [...c.anchorAWorld] as V3),
      anchorB: ok && finite3(spec.anchorB) ? [...spec.anchorB] : local(b, [...c.anchorBWorld] as V3),
      axisA: axis(spec?.axisA),
      axisB: axis(spec?.axisB),
      linear: ok ? spec.linear : undefined,
      angular: ok ? spec.angular : undefined,
      firstRow: c.firstRow,
      rows: c.rows,
    };
  });
  const data: SceneData = {
    bodies,
    constraints,
    worldShapes: readShapes(model.worldShapes),
    bodyIndex,
    constraintIndex: new Map(constraints.map((c, i) => [c.name, i] as const)),
    bounds: { min: [0, 0, 0], max: [0, 0, 0] },
    sane: { centre: [0, 0, 0], radius: Infinity },
    reference: { min: [-1, -1, -1], max: [1, 1, 1] },
    bodyRadius: 0,
  };
  data.bodyRadius = Math.max(0, ...bodies.map(bodyExtent));
  data.bounds = runBounds(data, poses0, run);
  return data;
}

/** Radius of a sphere around the body's origin that holds its drawing. */
function bodyExtent(b: BodyData): number {
  let r = b.box ? Math.hypot(...b.box.half) : 0;
  for (const s of b.shapes) {
    const o = Math.hypot(...s.position);
    if (s.type === 'sphere') r = Math.max(r, o + s.radius);
    else if (s.type === 'box') r = Math.max(r, o + Math.hypot(...s.halfExtents));
    else if (s.type === 'capsule') r = Math.max(r, o + s.radius + s.halfLength);
  }
  return r;
}

/**
 * The run's bounds without its absurd poses: first the scene's reference (the first recorded step,
 * which a run's last snapshot after a blow-up is not; else the snapshot) and the world's geometry
 * set the sane ball (robust.ts), then the snapshot's and the run's poses inside it.
 */
function runBounds(data: SceneData, poses0: Float64Array, run: RunRecords): { min: V3; max: V3 } {
  const min: V3 = [Infinity, Infinity, Infinity];
  const max: V3 = [-Infinity, -Infinity, -Infinity];
  const addPt = (p: readonly number[], r = 0): void => {
    if (!isSane(p, data.sane)) return;
    for (let k = 0; k < 3; k++) {
      min[k] = Math.min(min[k], p[k] - r);
      max[k] = Math.max(max[k], p[k] + r);
    }
  };
  const first = run.length > 0 ? run.poses(1) : undefined;
  addPoses(data, first ?? poses0, addPt);
  for (const c of data.constraints) {
    if (c.a < 0) addPt(c.anchorA);
    if (c.b < 0) addPt(c.anchorB);
  }
  for (const s of data.worldShapes) if (s.type !== 'plane') addPt(s.position, s.radius + Math.hypot(...s.halfExtents) + s.halfLength);
  if (Number.isFinite(min[0])) {
    data.sane = saneBall(min, max);
    data.reference = { min: [...min], max: [...max] };
  }
  addPoses(data, poses0, addPt);
  addRunPoses(data, run, 1, run.length, addPt);
  if (!Number.isFinite(min[0])) return { min: [-1, -1, -1], max: [1, 1, 1] };
  return { min, max };
}

/**
 * What Fit frames at a step: the scene as set up, the run's sane poses up to its divergence onset
 * (the whole run when it did not diverge) and what the step draws, never the exploded steps after
 * the onset: the view of a step before a blow-up is the same after it, and a body that travels
 * (a ball that falls) stays in the view while the timeline is scrubbed.
 */
export function frameBounds(data: SceneData, poses: Float64Array, run: RunRecords, onset?: number): { min: V3; max: V3 } {
  const healthy = onset !== undefined && onset < run.length;
  const min: V3 = healthy ? [...data.reference.min] : [...data.bounds.min];
  const max: V3 = healthy ? [...data.reference.max] : [...data.bounds.max];
  const addPt = (p: readonly number[], r = 0): void => {
    if (!isSane(p, data.sane)) return;
    for (let k = 0; k < 3; k++) {
      min[k] = Math.min(min[k], p[k] - r);
      max[k] = Math.max(max[k], p[k] + r);
    }
  };
  if (healthy) addRunPoses(data, run, 1, onset, addPt);
  addPoses(data, poses, addPt);
  return { min, max };
}

type AddPoint = (p: readonly number[], r?: number) => void;

function addPoses(data: SceneData, poses: ArrayLike<number>, addPt: AddPoint): void {
  const n = data.bodies.length;
  if (poses.length < n * 7) return;
  for (let i = 0; i < n; i++) addPt([poses[i * 7], poses[i * 7 + 1], poses[i * 7 + 2]], bodyExtent(data.bodies[i]));
}

/** Poses of steps from … to (inclusive) into the bounds: at most about 200 of them, and the last. */
function addRunPoses(data: SceneData, run: RunRecords, from: number, to: number, addPt: AddPoint): void {
  if (to < from) return;
  const stride = Math.max(1, Math.floor((to - from + 1) / 200));
  for (let k = from; k <= to; k += stride) {
    const p = run.poses(k);
    if (p) addPoses(data, p, addPt);
  }
  const last = run.poses(to);
  if (last) addPoses(data, last, addPt);
}

/** The bounds, sane ball and reference of a run that just got its first records (the model's snapshot may be a blown-up last step). */
export function reboundOnRun(data: SceneData, run: RunRecords): SceneData {
  const first = run.poses(1);
  if (!first) return data;
  data.sane = { centre: [0, 0, 0], radius: Infinity };
  data.bounds = runBounds(data, first instanceof Float64Array ? first : Float64Array.from(first), run);
  return data;
}

/** Grows `data.bounds` by the poses of steps from … to of a run (a run that grew). */
export function extendBounds(data: SceneData, run: RunRecords, from: number, to: number): void {
  const { min, max } = data.bounds;
  addRunPoses(data, run, from, to, (p, r = 0) => {
    if (!isSane(p, data.sane)) return;
    for (let k = 0; k < 3; k++) {
      min[k] = Math.min(min[k], p[k] - r);
      max[k] = Math.max(max[k], p[k] + r);
    }
  });
}

function snapshotAt(model: PanelModel, k: number): SystemSnapshot | undefined {
  if (model.snapshot.step === k) return model.snapshot;
  return model.snapshots?.find((s) => s.step === k);
}

const isSnapshot = (x: unknown): x is SystemSnapshot => typeof x === 'object' && x !== null && Array.isArray((x as SystemSnapshot).bodyStates);
const isRecord = (x: unknown): x is StepRecord => typeof x === 'object' && x !== null && Array.isArray((x as StepRecord).poses);

/** Constraints in a redundancy relation in a snapshot: the redundant rows' constraints and those they depend on. */
export function redundantSet(s: SystemSnapshot, data: SceneData): Set<number> {
  const out = new Set<number>();
  for (const r of s.redundant ?? []) {
    const add = (name: string): void => {
      const i = data.constraintIndex.get(name);
      if (i !== undefined) out.add(i);
    };
    add(r.constraint);
    for (const d of r.dependsOn ?? []) add(d.constraint);
  }
  return out;
}

/** Everything drawn at step k: from `src` when given, else from the run (default: the model's history) / snapshots. */
export function frameAt(model: PanelModel, data: SceneData, k: number, src?: StepSource, run: RunRecords = recordsRun(model.history)): Frame {
  let record: StepRecord | undefined;
  let snapshot: SystemSnapshot | undefined;
  if (isSnapshot(src)) snapshot = src;
  else if (isRecord(src)) record = src;
  else if (src) ({ record, snapshot } = src as { record?: StepRecord; snapshot?: SystemSnapshot });
  if (snapshot && snapshot.step !== k) snapshot = undefined;
  if (record && record.step !== k) record = undefined;
  snapshot ??= snapshotAt(model, k);
  record ??= run.record(k);
  const n = data.bodies.length;
  const names = data.bodies.map((b) => b.name);
  // a producer's snapshot without bodies (MuJoCo's system of a step) poses nothing: its record does
  const posed = snapshot && (snapshot.bodyStates.length > 0 || !record);
  let poses = posed && snapshot ? snapshotPoses(names, snapshot) : record ? recordPoses(n, record) : undefined;
  const exact = poses !== undefined;
  poses ??= snapshotPoses(names, model.snapshot);
  const base = snapshot ?? model.snapshot;
  const th = model.thresholds ?? DEFAULT_THRESHOLDS;
  const states: ItemState[] = [];
  const violation: number[] = [];
  const lambda: (number | undefined)[] = [];
  const reports = new Map(base.constraints.map((c) => [c.name, c] as const));
  const forces: ConstraintForces[] | undefined = snapshot ? [] : undefined;
  data.constraints.forEach((c, i) => {
    const rep = reports.get(c.name);
    if (!rep) {
      states.push('unknown');
      violation.push(NaN);
      lambda.push(undefined);
      forces?.push({ forceA: [0, 0, 0], torqueA: [0, 0, 0], forceB: [0, 0, 0], torqueB: [0, 0, 0] });
      return;
    }
    const at = constraintAt(rep, i, base, snapshot ? undefined : record, th);
    states.push(at.state);
    violation.push(at.violation);
    lambda.push(at.lambda && at.lambda.length ? Math.hypot(...at.lambda) : at.lambda ? 0 : undefined);
    forces?.push({ forceA: v(rep.forceA), torqueA: v(rep.torqueA), forceB: v(rep.forceB), torqueB: v(rep.torqueB) });
  });
  const anchorA = data.constraints.map((c) => toWorld(poses, c.a, c.anchorA));
  const anchorB = data.constraints.map((c) => toWorld(poses, c.b, c.anchorB));
  const axis = data.constraints.map((c) => {
    if (c.axisA) return c.a < 0 ? c.axisA : rotate(poseOf(poses, c.a).q, c.axisA);
    if (c.axisB) return c.b < 0 ? c.axisB : rotate(poseOf(poses, c.b).q, c.axisB);
    return undefined;
  });
  const fromRecord = readContacts(record);
  const contacts = fromRecord.length ? fromRecord : readContacts(snapshot);
  const asleep = new Set((snapshot?.sleeping ?? []).map((name) => names.indexOf(name)).filter((i) => i >= 0));
  const asleepCount = snapshot?.asleep ?? record?.asleep;
  return { step: k, poses, exact, anchorA, anchorB, axis, states, violation, lambda, forces, contacts, redundantSet: redundantSet(base, data), asleep, ...(asleepCount !== undefined ? { asleepCount } : {}) };
}

const v = (x: readonly number[] | undefined): V3 => (x && finite3(x) ? [x[0], x[1], x[2]] : [0, 0, 0]);
