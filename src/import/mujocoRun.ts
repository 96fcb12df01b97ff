// MuJoCo as a solver under the lens: a run of mj_step on the model as written (all of MuJoCo: actuators
// with ctrl from the keyframe or the user, tendons, limits, contacts, soft constraints, its integrator),
// with a light record per step and a state checkpoint per step, so that MuJoCo's constraint system at any
// step can be read again exactly (mj_setState with the warm start, then mj_forward gives the same
// efc arrays the step computed) and analysed through the seam like the engine's own.
import { analyseSystem, snapshotOfSystem, type ConstrainedSystem, type SystemAnalysis, type SystemSnapshot } from '../engine';
import type { ImportedModel } from './index';
import { compileModel, type MjModelHandle, type MujocoRuntime, type Quat } from './mujoco';
import { MujocoConditionEstimator } from './mujocoCondition';
import { EfcHeap } from './mujocoHeap';
import { MujocoElements, type MujocoElement } from './mujocoElements';
import { posesInto, sceneBodyIds, velocitiesInto } from './mujocoPoses';
import { MujocoRecordColumns, type MujocoStepRecord } from './mujocoRecords';

export type { MujocoStepRecord } from './mujocoRecords';
import { type MjDataLike, readSystem, solverModule } from './mujocoSystem';

export type { MujocoElement } from './mujocoElements';

export interface MujocoRunOptions {
  /** The initial state: this key (by name), else the imported model's keyframe, else qpos0. */
  keyframe?: string;
  /** Controls to hold during the run (nu numbers); default the key's ctrl, else zero. */
  ctrl?: readonly number[];
  /** Most steps kept (checkpoints and records); the run stops there. */
  maxSteps?: number;
}

/** A state is kept every this many steps; a step between two is reached by stepping again from the earlier one. */
const CHECKPOINT_EVERY = 32;

/** mjData's fixed-size arrays a step record reads. */
type FixedName = 'qpos' | 'qvel' | 'qacc' | 'energy' | 'solver_niter' | 'xipos' | 'xquat' | 'cvel' | 'subtree_com';
type FixedViews = Record<FixedName, Float64Array | Int32Array>;

const WARNING_NAMES = ['inertia', 'contactfull', 'cnstrfull', 'vgeomfull', 'badqpos', 'badqvel', 'badqacc', 'badctrl'];
const EMPTY = new Float64Array(0);

const maxAbs = (x: ArrayLike<number>): number => {
  let m = 0;
  for (let i = 0; i < x.length; i++) {
    const a = Math.abs(x[i]);
    if (!(a <= m)) m = a; // NaN propagates as NaN
  }
  return m;
};

/** One MuJoCo run of one model: step, read any step's system, dispose. */
export class MujocoRun {
  /** Every step's record, as columns (mujocoRecords.ts); `records` and `recordAt` make objects of them. */
  readonly columns: MujocoRecordColumns;
  /** The record objects made so far by `records` (made once each, on the first read). */
  private readonly recordCache: MujocoStepRecord[] = [];
  /** The run's elements, numbered as first met (mujocoElements.ts). */
  private readonly elementIndex: MujocoElements;
  /** Every element that had rows at some step, in the order first met (ids of the records' element entries). */
  get elements(): readonly MujocoElement[] {
    return this.elementIndex.list;
  }
  private readonly scratchLambda: number[] = [];
  private views: FixedViews | undefined;
  /** MuJoCo's constraint solver (m.opt.solver): what its steps' records name as their method. */
  readonly solverMethod: 'pgs' | 'cg' | 'newton';
  /** The efc arrays of each step, read from the heap (mujocoHeap.ts). */
  private readonly heap: EfcHeap;
  private readonly scratchViolation: number[] = [];
  private readonly scratchTouched: number[] = [];
  private readonly checkpoints: Float64Array[] = [];
  private readonly stateSpec: number;
  private readonly stateBuf: { GetView(): Float64Array; delete(): void };
  private readonly warningCounts: number[] = [];
  /** The MuJoCo body of each scene body. */
  private readonly poseIds: Int32Array;
  private readonly iquats: Quat[];
  /** Each MuJoCo body's tree root (the centre cvel is taken at is its subtree_com). */
  private readonly rootIds: Int32Array;
  private disposed = false;
  /** The last step's bodies are still those of the state it started from (finishLastPoses). */
  private posesPending = false;
  private estimator?: MujocoConditionEstimator;
  /** Set when MuJoCo threw (an abort of its WebAssembly): the run cannot go on. */
  failure?: string;

  private constructor(
    readonly rt: MujocoRuntime,
    readonly model: ImportedModel,
    private readonly m: MjModelHandle,
    private readonly d: MjDataLike,
    readonly maxSteps: number,
  ) {
    const mj = solverModule(rt);
    this.stateSpec = mj.mjtState.mjSTATE_INTEGRATION.value | mj.mjtState.mjSTATE_WARMSTART.value;
    this.stateBuf = new mj.DoubleBuffer(Math.max(1, mj.mj_stateSize(m, this.stateSpec))) as unknown as { GetView(): Float64Array; delete(): void };
    this.poseIds = sceneBodyIds(model);
    this.iquats = model.compiled.bodies.map((b) => b.iquat);
    this.rootIds = Int32Array.from((m as unknown as { body_rootid: ArrayLike<number> }).body_rootid);
    this.columns = new MujocoRecordColumns(this.poseIds.length * 7, this.poseIds.length * 6);
    this.heap = new EfcHeap(d);
    this.elementIndex = new MujocoElements(model.compiled);
    // read once: every step's record names it, and each read of m.opt is a call through the bindings
    const solver = Number((m.opt as { solver: number }).solver);
    this.solverMethod = solver === 0 ? 'pgs' : solver === 1 ? 'cg' : 'newton';
    this.columns.settle = () => this.finishLastPoses();
  }

  /** Compile the imported model again in MuJoCo and put it at its initial state (mj_forward done). */
  static open(rt: MujocoRuntime, model: ImportedModel, opts: MujocoRunOptions = {}): MujocoRun | { error: string } {
    const compiled = compileModel(rt, model.mainName, [...model.vfs].map(([name, data]) => ({ name, data })));
    if ('error' in compiled) return { error: `MuJoCo: ${compiled.error}` };
    const mj = solverModule(rt);
    const m = compiled.model;
    let d: MjDataLike | undefined;
    try {
      d = new mj.MjData(m) as MjDataLike;
      // MuJoCo computes the energy only when asked
      // MuJoCo computes the energy only when asked; and after a bad acceleration it resets the data to
      // qpos0 and goes on (autoreset), which would hide the blow-up this run is for: the run stops at
      // the non-finite state instead (everything before it is MuJoCo's own step, unchanged)
      const opt = m.opt as { enableflags: number; disableflags: number };
      const bits = rt.mj as unknown as { mjtEnableBit: Record<string, { value: number }>; mjtDisableBit: Record<string, { value: number }> };
      opt.enableflags = opt.enableflags | bits.mjtEnableBit.mjENBL_ENERGY.value;
      opt.disableflags = opt.disableflags | (bits.mjtDisableBit.mjDSBL_AUTORESET?.value ?? 0);
      const keyName = opts.keyframe ?? model.keyframe;
      const key = keyName === undefined ? -1 : model.compiled.keys.findIndex((k) => k.name === keyName);
      if (key >= 0) mj.mj_resetDataKeyframe(m, d, key);
      else mj.mj_resetData(m, d);
      if (opts.ctrl) (d.ctrl as Float64Array).set(opts.ctrl.slice(0, (d.ctrl as Float64Array).length));
      mj.mj_forward(m, d);
      const run = new MujocoRun(rt, model, m, d, Math.max(0, Math.floor(opts.maxSteps ?? 1_000_000)));
      run.warningCounts.push(...run.readWarnings().map((w) => w.number));
      run.checkpoint();
      run.record();
      return run;
    } catch (e) {
      d?.delete();
      m.delete();
      return { error: `MuJoCo failed at the initial state: ${e instanceof Error ? e.message : String(e)}` };
    }
  }

  /** Whether the steps' efc arrays are read from the heap (mujocoHeap.ts) rather than through the bindings' views. */
  get efcFromHeap(): boolean {
    return !this.heap.off;
  }

  get currentStep(): number {
    return this.columns.length - 1;
  }

  /**
   * Every step's record (index = step) as objects, for a consumer that reads the whole history (the
   * CLI's JSON, the tests): each made from the columns on the first read and kept. The stepping and
   * the live session read the columns (`columns`, `recordAt`) and make none.
   */
  get records(): readonly MujocoStepRecord[] {
    const cache = this.recordCache;
    for (let k = cache.length; k < this.columns.length; k++) cache.push(this.columns.at(k));
    return cache;
  }

  /** Step k's record (a new object with views of the columns). */
  recordAt(k: number): MujocoStepRecord {
    return k < this.recordCache.length ? this.recordCache[k] : this.columns.at(k);
  }

  get stopped(): boolean {
    return this.failure !== undefined || this.disposed || this.currentStep >= this.maxSteps || this.columns.nonFinite(this.currentStep);
  }

  /** The time step MuJoCo integrates with. */
  get timestep(): number {
    return Number((this.m.opt as { timestep: number }).timestep);
  }

  /** The integrator MuJoCo runs (m.opt.integrator by name). */
  get integrator(): string {
    const v = Number((this.m.opt as { integrator: number }).integrator);
    return ['Euler', 'RK4', 'implicit', 'implicitfast'][v] ?? `integrator ${v}`;
  }

  /** Take up to n steps (stops at a non-finite state, a failure or maxSteps). Returns how many were taken. */
  step(n = 1): number {
    const mj = solverModule(this.rt);
    const cols = this.columns;
    const first = this.currentStep;
    for (let k = 0; k < n && !this.stopped; k++) {
      try {
        const before = cols.t(this.currentStep);
        mj.mj_step(this.m, this.d);
        const s = this.record();
        // reading MuJoCo's warning counters costs more than the step of a small model: they are read on a
        // non-finite or runaway state (where MuJoCo's bad-value warnings fire), and every 256 steps for the others
        if (cols.t(s) < before || cols.nonFinite(s) || cols.maxQvel(s) > 1e4 || s % 256 === 0) cols.setWarnings(s, this.newWarnings());
        if (s % CHECKPOINT_EVERY === 0) this.checkpoint();
      } catch (e) {
        this.failure = `MuJoCo failed at step ${this.columns.length}: ${e instanceof Error ? e.message : String(e)}`;
      }
    }
    // the last step's bodies when they are first read (a session steps one at a time between reads)
    this.posesPending = this.currentStep > first ? this.failure === undefined : this.posesPending;
    return this.currentStep - first;
  }

  /**
   * The last step's bodies as the state after it: mj_step leaves its kinematics at the state it started
   * from, so the kinematics of the new state are computed here once per call (the next mj_step computes
   * them again from qpos and qvel, so MuJoCo's run is unchanged). MuJoCo's data must hold the run's
   * current state: the columns call it before a read, and systemAt puts the state back before returning.
   */
  private finishLastPoses(): void {
    if (!this.posesPending) return;
    this.posesPending = false;
    const mj = solverModule(this.rt);
    mj.mj_kinematics(this.m, this.d);
    mj.mj_comPos(this.m, this.d);
    mj.mj_comVel(this.m, this.d);
    const cols = this.columns, k = this.currentStep;
    const xipos = this.fixedView('xipos');
    posesInto(cols.poses(), this.poseIds, this.iquats, xipos, this.fixedView('xquat'), k * cols.poseStride);
    velocitiesInto(cols.velocities(), this.poseIds, this.rootIds, this.fixedView('cvel'), xipos, this.fixedView('subtree_com'), k * cols.velocityStride);
  }

  /**
   * MuJoCo's constraint system of step k (0 ≤ k ≤ currentStep): the one the k-th mj_step solved, at the
   * state before it (read again from that state's checkpoint with its warm start, so the efc arrays are
   * the step's own); step 0 is the initial state's, which is also what the first step solves.
   */
  systemAt(k: number): ConstrainedSystem {
    if (!(k >= 0 && k <= this.currentStep)) throw new RangeError(`step ${k} is outside 0…${this.currentStep}`);
    this.finishLastPoses(); // while MuJoCo's data holds the run's state
    const mj = solverModule(this.rt);
    const now = this.stateNow();
    // the state before step k: the last checkpoint at or before it, then the steps in between again
    // (MuJoCo is deterministic: the same state and warm start give the same step, bit for bit)
    const before = Math.max(0, k - 1);
    const from = Math.floor(before / CHECKPOINT_EVERY);
    mj.mj_setState(this.m, this.d, this.checkpoints[from], this.stateSpec);
    try {
      for (let s = from * CHECKPOINT_EVERY; s < before; s++) mj.mj_step(this.m, this.d);
      mj.mj_forward(this.m, this.d);
      return { ...readSystem(this.rt, this.m, this.d, this.model.compiled, k), t: this.columns.t(k) };
    } finally {
      mj.mj_setState(this.m, this.d, now, this.stateSpec);
      mj.mj_forward(this.m, this.d);
    }
  }

  /**
   * MuJoCo's systems of steps from…to (1 ≤ from ≤ to ≤ currentStep) in order, each as systemAt gives it,
   * for a whole history: one pass from the checkpoint before `from` (systemAt would step again from a
   * checkpoint for every step). The run's own state is put back afterwards.
   */
  forEachSystem(from: number, to: number, fn: (system: ConstrainedSystem) => void): void {
    const lo = Math.max(1, from), hi = Math.min(to, this.currentStep);
    if (lo > hi) return;
    this.finishLastPoses(); // while MuJoCo's data holds the run's state (the callback may read the records)
    const mj = solverModule(this.rt);
    const now = this.stateNow();
    const start = Math.floor((lo - 1) / CHECKPOINT_EVERY);
    mj.mj_setState(this.m, this.d, this.checkpoints[start], this.stateSpec);
    try {
      for (let s = start * CHECKPOINT_EVERY; s < lo - 1; s++) mj.mj_step(this.m, this.d);
      for (let k = lo; k <= hi; k++) {
        // the state before step k with its warm start: mj_forward makes step k's efc arrays, mj_step then takes it
        mj.mj_forward(this.m, this.d);
        fn({ ...readSystem(this.rt, this.m, this.d, this.model.compiled, k), t: this.columns.t(k) });
        if (k < hi) mj.mj_step(this.m, this.d);
      }
    } finally {
      mj.mj_setState(this.m, this.d, now, this.stateSpec);
      mj.mj_forward(this.m, this.d);
    }
  }

  /**
   * The system the last mj_step solved (step currentStep), read from the data as that step left it: its
   * efc arrays, qM, qacc_smooth and contacts are those of the step's own mj_forward, which Euler, implicit
   * and implicitfast integrate after without touching them; so no second mj_forward is paid, and it is
   * systemAt(currentStep), bit for bit. RK4 evaluates the dynamics again at its stages: read it there.
   */
  lastSystem(): ConstrainedSystem {
    const k = this.currentStep;
    if (k === 0 || Number((this.m.opt as { integrator: number }).integrator) === 1) return this.systemAt(k);
    return { ...readSystem(this.rt, this.m, this.d, this.model.compiled, k), t: this.columns.t(k) };
  }

  /**
   * An estimate of κ₂(A) of the system the last mj_step solved (mujocoCondition.ts), read from the
   * data as lastSystem reads it; undefined at step 0, under RK4 (its stages leave other arrays), and
   * for a system without rows or with an M that is not positive definite.
   */
  estimateLastCond(): number | undefined {
    if (this.currentStep === 0 || this.disposed || Number((this.m.opt as { integrator: number }).integrator) === 1) return undefined;
    this.estimator ??= new MujocoConditionEstimator(this.rt, this.model.compiled.nv);
    return this.estimator.estimate(this.m, this.d);
  }

  /** The analysed system at step k as the snapshot every view reads, with the analysis. */
  snapshotAt(k: number): AnalysedStep {
    return analysedStep(this.systemAt(k));
  }

  /** The model handle and data for read-only use by the findings (never stepped through this). */
  raw(): { m: MjModelHandle; d: MjDataLike } {
    return { m: this.m, d: this.d };
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.estimator?.dispose();
    this.stateBuf.delete();
    this.d.delete();
    this.m.delete();
  }

  private readWarnings(): { number: number; lastinfo: number }[] {
    const w = this.d.warning as { size(): number; get(i: number): ({ number: number; lastinfo: number } & { delete?(): void }) | undefined };
    const out: { number: number; lastinfo: number }[] = [];
    for (let i = 0; i < w.size(); i++) {
      const x = w.get(i);
      out.push({ number: x?.number ?? 0, lastinfo: x?.lastinfo ?? 0 });
      x?.delete?.();
    }
    return out;
  }

  /** The warnings whose counters went up since they were last read. */
  private newWarnings(): MujocoStepRecord['warnings'] {
    const fired: MujocoStepRecord['warnings'] = [];
    this.readWarnings().forEach((w, i) => {
      if (w.number > (this.warningCounts[i] ?? 0)) fired.push({ name: WARNING_NAMES[i] ?? `warning${i}`, info: w.lastinfo });
      this.warningCounts[i] = w.number;
    });
    return fired;
  }

  private stateNow(): Float64Array {
    solverModule(this.rt).mj_getState(this.m, this.d, this.stateBuf as never, this.stateSpec);
    return this.stateBuf.GetView().slice();
  }

  /** Keep the state every CHECKPOINT_EVERY steps (checkpoints[i] is the state after i·CHECKPOINT_EVERY steps). */
  private checkpoint(): void {
    this.checkpoints.push(this.stateNow());
  }

  /**
   * A view of one of MjData's own arrays (allocated with the data, unlike the efc arrays, which move with
   * every step's arena): the bindings make a new view on each read, which costs as much as a small
   * model's step, so it is kept until MuJoCo's memory grows (that detaches it: its length becomes 0).
   */
  private fixedView(name: FixedName): ArrayLike<number> {
    return this.fixedViews()[name];
  }

  /**
   * The views of mjData's fixed arrays, made once: they stay valid until the WebAssembly memory grows,
   * which detaches every view of it at once (energy, never empty, then reads as length 0).
   */
  private fixedViews(): FixedViews {
    let v = this.views;
    if (!v || v.energy.length === 0) {
      const d = this.d as unknown as Record<FixedName, Float64Array | Int32Array>;
      v = this.views = { qpos: d.qpos, qvel: d.qvel, qacc: d.qacc, energy: d.energy, solver_niter: d.solver_niter, xipos: d.xipos, xquat: d.xquat, cvel: d.cvel, subtree_com: d.subtree_com };
    }
    return v;
  }

  /** Record the state MuJoCo's data holds as the next step's columns; returns that step. */
  private record(): number {
    const d = this.d;
    const heap = this.heap;
    const fast = heap.scalars();
    const nefc = fast ? heap.nefc : Number(d.nefc);
    // the efc arrays from the heap at mjData's addresses (mujocoHeap.ts), else the bindings' views:
    // each array with the index its step's entries start at
    let type: ArrayLike<number> = EMPTY, id: ArrayLike<number> = EMPTY, force: ArrayLike<number> = EMPTY, pos: ArrayLike<number> = EMPTY, margin: ArrayLike<number> = EMPTY;
    let t0 = 0, i0 = 0, f0 = 0, p0 = 0, m0 = 0;
    if (nefc > 0) {
      const at = this.heap.read();
      if (at) {
        type = id = at.i32;
        force = pos = margin = at.f64;
        t0 = at.type;
        i0 = at.id;
        f0 = at.force;
        p0 = at.pos;
        m0 = at.margin;
      } else {
        type = d.efc_type as ArrayLike<number>;
        id = d.efc_id as ArrayLike<number>;
        force = d.efc_force as ArrayLike<number>;
        pos = d.efc_pos as ArrayLike<number>;
        margin = d.efc_margin as ArrayLike<number>;
      }
    }
    const lam = this.scratchLambda, viol = this.scratchViolation;
    const touched = this.scratchTouched;
    const elements = this.elementIndex;
    for (let r = 0; r < nefc; r++) {
      const e = elements.ofRow(r, type[t0 + r], id[i0 + r]);
      if (lam.length <= e) {
        lam.push(0);
        viol.push(-1);
      }
      if (viol[e] < 0) {
        touched.push(e);
        viol[e] = 0;
      }
      const f = force[f0 + r];
      lam[e] += f * f;
      const v = Math.abs(pos[p0 + r] - margin[m0 + r]);
      if (!(v <= viol[e])) viol[e] = v;
    }
    // in element order (rows come in efc order, which is nearly always it already)
    let sorted = true;
    for (let i = 1; i < touched.length && sorted; i++) sorted = touched[i - 1] < touched[i];
    if (!sorted) touched.sort((a, b) => a - b);
    const n = touched.length;
    const cols = this.columns;
    cols.begin(n);
    for (let i = 0; i < n; i++) {
      const e = touched[i];
      cols.setElement(i, e, Math.sqrt(lam[e]), viol[e]);
      lam[e] = 0;
      viol[e] = -1;
    }
    touched.length = 0;
    const v = this.fixedViews();
    const energy = v.energy;
    const maxQacc = maxAbs(v.qacc), maxQvel = maxAbs(v.qvel), maxQpos = maxAbs(v.qpos);
    cols.setScalars(fast ? heap.time : Number(d.time), nefc, fast ? heap.ncon : Number(d.ncon), energy[0], energy[1], v.solver_niter[0] ?? 0, maxQacc, maxQvel, !(Number.isFinite(maxQacc) && Number.isFinite(maxQvel) && Number.isFinite(maxQpos)));
    // a step record's bodies are the state after the step, as the engine's records: after mj_step the
    // kinematics (xipos, xquat, cvel) are still of the state the step started from, which is the state
    // after the step before, so they complete the previous record; this record's own are written with
    // them for now and finished by the next step, or by finishLastPoses when first read
    const poses = cols.poses(), vels = cols.velocities();
    const po = cols.poseOffset, vo = cols.velocityOffset;
    posesInto(poses, this.poseIds, this.iquats, v.xipos, v.xquat, po);
    velocitiesInto(vels, this.poseIds, this.rootIds, v.cvel, v.xipos, v.subtree_com, vo);
    if (cols.length > 0) {
      this.posesPending = false;
      // a few numbers a body: a loop costs less than copyWithin's call
      for (let i = 0, ps = cols.poseStride; i < ps; i++) poses[po - ps + i] = poses[po + i];
      for (let i = 0, vs = cols.velocityStride; i < vs; i++) vels[vo - vs + i] = vels[vo + i];
    }
    cols.commit(n);
    return cols.length - 1;
  }
}

/** MuJoCo's system at one step with the seam's analysis and the snapshot the views read. */
export interface AnalysedStep {
  snapshot: SystemSnapshot;
  analysis: SystemAnalysis | undefined;
  system: ConstrainedSystem;
  /** Why the seam could not analyse it (the snapshot then shows J and MuJoCo's λ, and claims nothing). */
  error?: string;
}

/** Analyse one of MuJoCo's systems through the seam, never throwing (a blown-up state is not analysable). */
export function analysedStep(system: ConstrainedSystem, opts: { wantSpectrum?: boolean } = {}): AnalysedStep {
  const an = analyseSystem(system, opts);
  if (!an.ok) return { snapshot: snapshotOfSystem(system, emptyAnalysis(system)), analysis: undefined, system, error: an.message };
  return { snapshot: snapshotOfSystem(system, an), analysis: an, system };
}

/** The analysis of a system the seam could not analyse (sizes or values broken): nothing claimed. */
function emptyAnalysis(s: ConstrainedSystem): SystemAnalysis {
  const m = s.J.rows;
  const A = { rows: m, cols: m, rowPtr: new Int32Array(m + 1), colIdx: new Int32Array(0), values: new Float64Array(0) };
  return { ok: true, A, cond: { A: Infinity }, condEstimated: false, rankTolerance: 0, rank: { J: 0, rows: m, dofs: s.J.cols }, redundant: [], consistent: null, ...(s.lambda && s.lambda.length === m ? { lambda: s.lambda, lambdaSource: 'producer' as const } : { lambda: new Float64Array(m), lambdaSource: 'none' as const }), residual: 0, method: 'lstsq' };
}
