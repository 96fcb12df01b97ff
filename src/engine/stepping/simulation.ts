// Time stepping (AerisLab `HybridSolver.step`, semi-implicit Euler; or the velocity-level
// Solfec update), with a history that can be scrubbed: every past step can be re-analysed.
import { assemble, type AssemblyBuffers, assemblyBuffers, buildWorld, type World, WORLD_POSE } from '../assembly/assemble';
import { buildSnapshot, energyOf } from '../analysis/analysis';
import type { SimulationApi } from '../api';
import { Codes } from '../core/codes';
import { constraintRange, formatNumber as fmt } from '../analysis/findings';
import { checkInitial, checkRecord, checkStates, checkSystem, type Finding, findingDiagnostic } from '../guards/nonFinite';
import { DivergenceWatch, type Trigger } from '../guards/divergence';
import { explainDivergence } from '../guards/divergenceCause';
import { type BodyState, cloneState, initialState } from '../model/body';
import type { SimulationResult, StepRecord, SystemSnapshot } from '../result';
import { emptySourceMap } from '../scene/text';
import type { SceneSpec, SourceMap } from '../scene/spec';
import { solveSystem, type SolveOutput, SolveScratch } from '../kkt/kkt';
import type { Diagnostic, Quat, Vec3 } from '../types';
import { arrayTemplate, CheckpointPacker, maxAbs, pack, posesOf, toArray, unpack } from './packedStates';
import type { Pose } from '../model/constraint';
import { halfStepInto, isMidpoint, toMidpointInto } from '../model/midpoint';
import { norm2, quatIntegrateInto, quatToMat3Into } from '../core/math';
import { RECORD_OVERHEAD, resolveLimits, formatCount } from '../core/inputLimits';
import { firstLineRange } from '../scene/limits';
import { contactMode, ContactStepper, NO_WARM, type ContactStep, type WarmStart } from '../contact/stepContacts';
import { addContactSnapshotFields, applyContactStep, contactRecordFields, NO_CONTACT_FIELDS } from '../contact/contactReports';
import { holdVelocities } from '../contact/sleep';
import { ContactFindings } from '../analysis/contactFindings';
import type { SimulationOptions } from './options';
import { checkContactStep } from '../guards/nonFiniteContacts';

export type { SimulationOptions } from './options';

/** Per step, κ is exact up to this many rows per island (see `stepExactCondMaxRows`). */
const STEP_EXACT_COND_ROWS = 12;
/** The divergence analysis (on demand, a few solves) takes exact κ up to this many rows per island. */
const DIVERGENCE_EXACT_COND_ROWS = 200;

/** What a record costs the history (RECORD_OVERHEAD for its fixed fields plus its arrays' numbers). */
export function recordCost(rec: StepRecord): number {
  return RECORD_OVERHEAD + rec.C.length + rec.lambda.length + rec.poses.length + (rec.contacts?.length ?? 0) * RECORD_OVERHEAD;
}

export class Simulation implements SimulationApi {
  readonly world: World;
  private states: BodyState[];
  private readonly initial: Float64Array;
  private readonly checkpoints = new Map<number, ArrayLike<number>>();
  private readonly checkpointEvery: number;
  private readonly stepCondRows: number;
  private readonly maxRecordRows: number;
  private readonly maxRecordBodies: number;
  private readonly smallSystems: boolean;
  private _records: StepRecord[] = [];
  private _diagnostics: Diagnostic[] = [];
  private _stopped = false;
  /** The history cap (numbers over all records), what the records hold so far, and whether it stopped the run. */
  private readonly historyCap: number;
  private historyValues = 0;
  private _historyFull = false;
  private initialViolation: Float64Array;
  private drifted = new Set<number>();
  private readonly watch: DivergenceWatch;
  /** The initial state and its system were checked (at the first step of a run). */
  private startChecked = false;
  /** Contacts (velocity formulation with shapes, nonlinear formulation): the step, its warm start and its findings. */
  private readonly contacts: ContactStepper | undefined;
  private readonly contactFindings: ContactFindings;
  private readonly maxRecordContacts: number;
  private warm: WarmStart = NO_WARM;
  /**
   * `world.evals` hold the constraints evaluated at `this.states` (by the last record's ‖C‖), so the
   * next step's assembly need not evaluate them again. Cleared by anything else that assembles or
   * replaces the states; never set with contacts (their solvers assemble on the same world).
   */
  private evalsFresh = false;
  private readonly warmAt = new Map<number, WarmStart>();
  /**
   * Buffers of the stepping path (`step` only), overwritten by every step: the solve's vectors
   * (kkt.ts SolveScratch), |q|−1 per body, ‖C‖ per constraint, and the poses ‖C‖ is evaluated at.
   * Safe because within one step they are read only before the next step writes them: the record
   * copies C and λ (toArray), the checks and the divergence watch read them and keep nothing, and
   * the warm start is NO_WARM without contacts (with contacts, which keep the solve's λ as their
   * warm start, the solve gets fresh arrays). Snapshots, replays and the divergence analysis
   * never use them.
   */
  private readonly scratch = new SolveScratch();
  /** The stepping path's assembly (assemble.ts AssemblyBuffers), overwritten by every step like `scratch`. */
  private asmBuffers?: AssemblyBuffers;
  private readonly driftBuf: Float64Array;
  private readonly violationBuf: Float64Array;
  private readonly violationPoses: Pose[];
  private readonly packer = new CheckpointPacker();
  /** Templates the records' C, λ and poses are copied from (packedStates.ts `arrayTemplate`: never written, each copy fresh). */
  private readonly recordTemplates: { C: readonly number[]; lambda: readonly number[]; poses: readonly number[] };

  /** `sourceMap` places the run's diagnostics in the scene text; a scene built in code gets an empty map. */
  constructor(
    readonly scene: SceneSpec,
    readonly sourceMap: SourceMap = emptySourceMap(),
    opts: SimulationOptions = {},
  ) {
    this.world = buildWorld(scene);
    this.states = scene.bodies.map(initialState);
    this.initial = pack(this.states);
    this.checkpoints.set(0, this.initial);
    const mode = contactMode(scene);
    this.contacts = mode ? new ContactStepper(this.world, scene, mode) : undefined;
    this.contactFindings = new ContactFindings(this.world, scene, sourceMap);
    this.maxRecordContacts = opts.maxRecordContacts ?? 256;
    // PGS is warm-started: a replay must start where a warm start was kept (one per checkpoint)
    const shapes = mode === 'velocity' ? scene.bodies.reduce((n, b) => n + b.shapes.length, 0) : 0;
    this.checkpointEvery = Math.max(1, Math.ceil(scene.bodies.length / 200), Math.ceil(shapes / 10));
    this.stepCondRows = opts.stepExactCondMaxRows ?? STEP_EXACT_COND_ROWS;
    this.maxRecordRows = opts.maxRecordRows ?? 600;
    this.maxRecordBodies = opts.maxRecordBodies ?? 500;
    this.smallSystems = opts.smallSystems ?? true;
    this.historyCap = resolveLimits(opts.limits).history;
    this.driftBuf = new Float64Array(this.world.bodies.length);
    this.violationBuf = new Float64Array(this.world.constraints.length);
    this.recordTemplates = { C: arrayTemplate(this.world.constraints.length), lambda: arrayTemplate(this.world.nRows <= this.maxRecordRows ? this.world.nRows : 0), poses: arrayTemplate(this.world.bodies.length <= this.maxRecordBodies ? 7 * this.world.bodies.length : 0) };
    this.violationPoses = this.world.bodies.map(() => ({ p: [0, 0, 0], q: [0, 0, 0, 1], R: [1, 0, 0, 0, 1, 0, 0, 0, 1], v: [0, 0, 0], w: [0, 0, 0] }));
    this.initialViolation = this.constraintViolations(this.states);
    this.watch = new DivergenceWatch(this.world, this.states, this.initialViolation);
  }

  get currentStep(): number {
    return this._records.length;
  }
  get records(): readonly StepRecord[] {
    return this._records;
  }
  get diagnostics(): Diagnostic[] {
    // Completed once each (SourceMap.decorate), however often they are read.
    const decorate = this.sourceMap?.decorate;
    if (decorate) for (; this.decorated < this._diagnostics.length; this.decorated++) decorate.call(this.sourceMap, this._diagnostics[this.decorated]);
    return this._diagnostics;
  }
  private decorated = 0;
  /** True once the run stopped: a non-finite value (CL401/CL403) or a full history (CL405, `historyFull`). */
  get stopped(): boolean {
    return this._stopped;
  }
  /** True once the history reached its cap (CL405): the run stopped there, every kept step can be inspected. */
  get historyFull(): boolean {
    return this._historyFull;
  }

  reset(): void {
    this.states = unpack(this.initial);
    this.world.forces?.restart();
    this.world.tendons?.restart();
    this.evalsFresh = false;
    this.checkpoints.clear();
    this.checkpoints.set(0, this.initial);
    this.packer.reset();
    this._records = [];
    this._diagnostics = [];
    this._stopped = false;
    this._historyFull = false;
    this.historyValues = 0;
    this.drifted.clear();
    this.watch.reset();
    this.startChecked = false;
    this.warm = NO_WARM;
    this.warmAt.clear();
    this.contactFindings.reset();
  }

  /**
   * ‖C‖₂ per constraint at the given states (into `out`, fresh by default). The poses are what
   * assemble.ts `poseOf` gives (R of q; v = ω = 0 for fixed bodies), one per body, refilled per call
   * (the constraints read them during `evaluate` and keep nothing).
   */
  private constraintViolations(states: BodyState[], out: Float64Array = new Float64Array(this.world.constraints.length)): Float64Array {
    const w = this.world;
    this.evalsFresh = states === this.states && !this.contacts;
    const poses = this.violationPoses;
    for (let i = 0; i < w.bodies.length; i++) {
      const pose = poses[i];
      const st = states[i];
      pose.p = st.p;
      pose.q = st.q;
      quatToMat3Into(st.q, pose.R);
      // fixed bodies: v = ω = 0 are the pose's own zero vectors from the constructor (a body stays fixed
      // or moving for the Simulation's life, and `evaluate` only reads poses), so nothing is allocated here
      if (w.bodies[i].column >= 0) {
        pose.v = st.v;
        pose.w = st.w;
      }
    }
    for (let c = 0; c < w.constraints.length; c++) {
      const ia = w.endA[c];
      const ib = w.endB[c];
      const ev = w.evals[c];
      const ex = w.endX[c];
      w.constraints[c].evaluate(ia < 0 ? WORLD_POSE : poses[ia], ib < 0 ? WORLD_POSE : poses[ib], ev, ex.length ? Array.from(ex, (i) => poses[i]) : undefined);
      out[c] = norm2(ev.C, 0, w.constraints[c].rows);
    }
    return out;
  }

  /** The system at `states`, reusing `world.evals` when they hold exactly these states' evaluation. */
  private assembleAt(states: BodyState[], into?: AssemblyBuffers) {
    const fresh = this.evalsFresh && states === this.states;
    this.evalsFresh = false;
    return assemble(this.world, states, fresh, into);
  }

  /**
   * One step from `states` (mutated in place). Returns the solve and per-body |q|−1, or the first bad
   * value (nonFinite.ts). `reuse` (the stepping path only): the solve and |q|−1 go into this.scratch and
   * this.driftBuf, overwritten by the next such call (see `scratch`).
   */
  private advance(states: BodyState[], stepIndex: number, analyse: boolean, warm: WarmStart = NO_WARM, reuse = false): { out: SolveOutput; drift: Float64Array; contact?: ContactStep; warm: WarmStart } | Finding {
    const w = this.world;
    const s = w.scene.solver;
    // with contacts, the warm start keeps the solve's λ and the contact solvers read the Assembly: never
    // scratch buffers then. Without contacts the Assembly is read only by solveSystem and checkSystem within
    // this call, and neither the SolveOutput nor a Finding keeps any of its arrays (see `scratch`).
    const reusing = reuse && !this.contacts;
    // Solfec's midpoint step (model/midpoint.ts): H and f at q^{t+h/2} = q^t + (h/2)·u^t
    // the forces of actuators with activation dynamics take the activation after the steps before this one
    if (w.activations) w.activations.steps = stepIndex - 1;
    const midpoint = isMidpoint(s);
    if (midpoint) {
      this.evalsFresh = false;
      toMidpointInto(w.bodies, states, s.dt);
    }
    const asm = this.assembleAt(states, reusing ? (this.asmBuffers ??= assemblyBuffers(w)) : undefined);
    const scratch = reusing ? this.scratch : undefined;
    // per step: κ(A) (exact when small, else estimated) but not the scaled κ, which only inspect/snapshots show
    const out = solveSystem(w, asm, s, { exactCondMaxRows: this.stepCondRows, wantSpectrum: analyse, wantScaledCond: false, skipAnalysis: !analyse, smallSystems: this.smallSystems }, scratch);
    // the assembly's Σ|x| as it wrote the stepping buffers (AssemblyBuffers.absJ…): asm is exactly that assembly, unmodified
    const bad = checkSystem(w, asm, out, { analysed: analyse, bound: scratch?.finiteBound, sums: reusing ? this.asmBuffers : undefined });
    if (bad) return bad;
    // sleeping islands (contact/sleep.ts): the step's contacts without them, and who stays put
    const nap = this.contacts?.nap(states, warm);
    const contact = this.contacts?.step(states, warm, asm, nap?.contacts, out.uPlus, nap);
    if (contact) return this.takeContactStep(states, out, contact);
    // semi-implicit Euler: v += a·dt (u⁺), p += v·dt, q = normalize(q + ½(ω,0)⊗q·dt); midpoint: q^{t+h} = q^{t+h/2} + (h/2)·u⁺
    const dt = s.dt;
    const drift = reuse ? this.driftBuf : new Float64Array(w.bodies.length);
    for (let i = 0; i < w.bodies.length; i++) {
      const col = w.bodies[i].column;
      const st = states[i];
      if (col < 0 || nap?.hold[i]) {
        if (col >= 0) {
          st.v.fill(0);
          st.w.fill(0);
        }
        drift[i] = 0;
        continue;
      }
      for (let d = 0; d < 3; d++) {
        st.v[d] = out.uPlus[col + d];
        st.w[d] = out.uPlus[col + 3 + d];
      }
      if (midpoint) drift[i] = halfStepInto(st, dt);
      else {
        for (let d = 0; d < 3; d++) st.p[d] += st.v[d] * dt;
        drift[i] = quatIntegrateInto(st.q, st.w, dt) - 1;
      }
    }
    return checkStates(w, states) ?? { out, drift, warm: this.contacts ? { ...this.contacts.plainWarm(out), ...(nap && { sleep: nap.next }) } : NO_WARM };
  }


  /** Copy a contact step's states into `states`, unless a value in it (or in the contact solve, nonFiniteContacts.ts) is bad. */
  private takeContactStep(states: BodyState[], out: SolveOutput, cs: ContactStep): { out: SolveOutput; drift: Float64Array; contact: ContactStep; warm: WarmStart } | Finding {
    const w = this.world;
    const bad = checkStates(w, cs.states);
    if (bad) return bad;
    const badContact = checkContactStep(w, cs);
    if (badContact) return badContact;
    for (let i = 0; i < w.bodies.length; i++) Object.assign(states[i], cs.states[i]);
    return { out, drift: cs.drift, contact: cs, warm: cs.warm };
  }

  /** Step 0 as inspect checks it: a run never starts from NaN, ∞ or values beyond ±1e150. */
  private checkStart(): Finding | undefined {
    if (this._records.length > 0) return undefined;
    const w = this.world;
    const asm = this.assembleAt(this.states);
    const out = solveSystem(w, asm, w.scene.solver, { exactCondMaxRows: 0, wantSpectrum: false, wantScaledCond: false, skipAnalysis: true, smallSystems: this.smallSystems });
    return checkInitial(w, this.states, asm, out, this.initialViolation, energyOf(w, this.states), false);
  }

  /** Stop the run at `step` on a bad value: CL401/CL403, the divergence analysis, the last good state restored. */
  private stopAt(step: number, bad: Finding): void {
    this._stopped = true;
    this._diagnostics.push(findingDiagnostic(bad, step, this.scene.solver.dt, this.sourceMap));
    this.states = unpack(this.stateAt(this._records.length));
    this.evalsFresh = false;
    this.explain(this.watch.stop(step, bad));
  }

  /** The history cannot keep step `step`: stop before it with CL405 (the state goes back to the last kept step). */
  private stopFull(step: number): void {
    this._stopped = true;
    this._historyFull = true;
    const kept = this._records.length;
    this.states = unpack(this.stateAt(kept));
    this.evalsFresh = false;
    this._diagnostics.push({
      severity: 'information',
      code: Codes.historyFull,
      message: `The run's history is full: its ${formatCount(kept)} records keep ${formatCount(this.historyValues)} numbers and step ${formatCount(step)} would pass the cap of ${formatCount(this.historyCap)}, so the run stopped after step ${formatCount(kept)}. Every kept step can still be inspected. Run fewer steps, or raise the cap with the CLI's \`--limits history=N\` or the \`limits\` option of the engine API.`,
      range: this.sourceMap.text !== undefined ? firstLineRange(this.sourceMap.text) : { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } },
      data: { limit: 'history', step: kept, value: this.historyValues, max: this.historyCap },
    });
  }

  /** The one divergence diagnostic (CL404) of the run, replaced when a later trigger knows more. */
  private explain(trigger: Trigger): void {
    const d = explainDivergence(this.world, this.sourceMap, this.trace, trigger, this.initialViolation, this.watch);
    this._diagnostics = this._diagnostics.filter((x) => x.code !== Codes.divergence);
    if (d) this._diagnostics.push(d);
  }

  /** The run as the divergence analysis reads it. */
  private get trace() {
    return {
      records: this._records,
      solveAt: (k: number) => {
        const w = this.world;
        const asm = this.assembleAt(unpack(this.stateAt(k)));
        return solveSystem(w, asm, w.scene.solver, { exactCondMaxRows: DIVERGENCE_EXACT_COND_ROWS, wantSpectrum: false, wantScaledCond: true, smallSystems: this.smallSystems });
      },
      replay: (from: number, to: number, visit: (step: number, states: readonly BodyState[]) => void) => {
        const states = unpack(this.stateAt(from));
        visit(from, states);
        for (let j = from + 1; j <= to; j++) {
          const cp = this.checkpoints.get(j);
          if (cp) unpack(cp).forEach((st, i) => (states[i] = st));
          else if ('symbol' in this.advance(states, j, false)) return;
          visit(j, states);
        }
      },
    };
  }

  step(n = 1): StepRecord[] {
    const added: StepRecord[] = [];
    const w = this.world;
    const s = this.scene.solver;
    const tol = s.driftTolerance;
    if (!this.startChecked && !this._stopped) {
      this.startChecked = true;
      const bad = this.checkStart();
      if (bad) {
        this._stopped = true;
        this._diagnostics.push(findingDiagnostic(bad, 0, s.dt, this.sourceMap));
      }
    }
    for (let k = 0; k < n && !this._stopped; k++) {
      const stepIndex = this._records.length + 1;
      const res = this.advance(this.states, stepIndex, true, this.warm, true);
      if ('symbol' in res) {
        this.stopAt(stepIndex, res);
        break;
      }
      const { out, drift, contact } = res;
      this.warm = res.warm;
      const C = this.constraintViolations(this.states, this.violationBuf);
      const energy = energyOf(w, this.states);
      const bad = checkRecord(w, this.states, { quatDrift: drift, C, energy, t: stepIndex * s.dt });
      if (bad) {
        this.stopAt(stepIndex, bad);
        break;
      }
      const recC = toArray(C, this.recordTemplates.C);
      const lambda = w.nRows <= this.maxRecordRows ? (contact ? Array.from(contact.lambda) : toArray(out.lambda, this.recordTemplates.lambda)) : [];
      const cond = { A: Number.isFinite(out.cond) ? out.cond : null };
      const quatDrift = maxAbs(drift);
      const poses = w.bodies.length <= this.maxRecordBodies ? posesOf(this.states, this.recordTemplates.poses) : [];
      // without contacts a plain literal (a spread, even of {}, copies through the runtime), the same keys in the same order
      const rec: StepRecord = this.contacts
        ? {
            step: stepIndex,
            t: stepIndex * s.dt,
            C: recC,
            lambda,
            cond,
            condEstimated: out.condEstimated,
            rank: out.rank,
            energy,
            quatDrift,
            method: contact ? (contact.mode === 'velocity' ? 'pgs' : 'newton') : out.method,
            ...(contact ? contactRecordFields(this.scene, contact, this.maxRecordContacts) : NO_CONTACT_FIELDS),
            ...(this.contacts.sleep && this.warm.sleep && { asleep: this.contacts.sleep.asleepBodies(this.warm.sleep) }),
            poses,
          }
        : { step: stepIndex, t: stepIndex * s.dt, C: recC, lambda, cond, condEstimated: out.condEstimated, rank: out.rank, energy, quatDrift, method: out.method, poses };
      const cost = recordCost(rec);
      if (this.historyValues + cost > this.historyCap) {
        this.stopFull(stepIndex);
        break;
      }
      this.historyValues += cost;
      // findings of a step only once its record is kept
      if (contact) this._diagnostics.push(...this.contactFindings.afterStep(contact, stepIndex));
      for (let c = 0; c < C.length; c++) {
        const v = C[c];
        if (!(v > Math.max(tol, 10 * this.initialViolation[c])) || this.drifted.has(c)) continue;
        this.drifted.add(c);
        const spec = w.constraints[c].spec;
        this._diagnostics.push({
          severity: 'warning',
          code: Codes.drift,
          message: `Constraint \`${spec.name}\` drifted: |C| = ${fmt(v)} at step ${stepIndex} (t = ${fmt(stepIndex * s.dt)} s), above max(solver.driftTolerance = ${fmt(tol)}, 10·‖C₀‖). ${s.formulation === 'nonlinear' ? 'Position-level joints drift only when Newton stops early: check its convergence (solver.newton)' : `Increase ${s.formulation === 'velocity' ? '`erp`' : '`alpha`/`beta`'}`} or reduce \`dt\`.`,
          range: constraintRange(this.sourceMap, spec.index),
          data: { constraint: spec.name, constraintIndex: spec.index, step: stepIndex, violation: v },
        });
      }
      this._records.push(rec);
      added.push(rec);
      const trigger = this.watch.observe(rec);
      if (trigger) this.explain(trigger);
      if (stepIndex % this.checkpointEvery === 0) {
        this.checkpoints.set(stepIndex, this.packer.pack(this.states));
        if (this.contacts) this.warmAt.set(stepIndex, this.warm);
      }
    }
    return added;
  }

  /** Packed state after step k (0 = initial), re-simulated from the nearest checkpoint when not stored. */
  private stateAt(k: number): ArrayLike<number> {
    return this.replayTo(k).state;
  }

  /** The state after step k and the warm start of the step after it (contacts). */
  private replayTo(k: number): { state: ArrayLike<number>; warm: WarmStart } {
    const exact = this.checkpoints.get(k);
    if (exact) return { state: exact, warm: this.warmAt.get(k) ?? NO_WARM };
    let base = k - (k % this.checkpointEvery);
    while (!this.checkpoints.has(base)) base -= this.checkpointEvery;
    const states = unpack(this.checkpoints.get(base)!);
    let warm = this.warmAt.get(base) ?? NO_WARM;
    for (let j = base + 1; j <= k; j++) {
      const r = this.advance(states, j, false, warm);
      if ('symbol' in r) break;
      warm = r.warm;
    }
    return { state: pack(states), warm };
  }

  snapshotAt(k: number): SystemSnapshot {
    const step = Math.max(0, Math.min(Math.floor(k), this._records.length));
    const w = this.world;
    // Re-take the last step from the state before it: it reproduces the stored state exactly and gives |q|−1 per body.
    let states: BodyState[];
    let drift: Float64Array | undefined;
    let warm: WarmStart = NO_WARM;
    if (step === 0) states = this.states.length && this._records.length === 0 ? this.states.map(cloneState) : unpack(this.initial);
    else {
      const before = this.replayTo(step - 1);
      states = unpack(before.state);
      const r = this.advance(states, step, false, before.warm);
      if (!('symbol' in r)) {
        drift = r.drift;
        warm = r.warm;
      }
    }
    const asm = this.assembleAt(states);
    const out = solveSystem(w, asm, this.scene.solver, { exactCondMaxRows: 1000, wantSpectrum: true, smallSystems: this.smallSystems });
    // contacts: the step from this state (as λ of the acceleration formulation is the step's from it)
    const nap = this.contacts?.nap(states, warm);
    const contact = this.contacts?.step(states, warm, asm, nap?.contacts, out.uPlus, nap);
    if (contact) applyContactStep(w, asm, out, contact);
    else if (nap) holdVelocities(w, nap.hold, out.uPlus, { a: out.a, v: asm.v, h: this.scene.solver.dt });
    const snap = buildSnapshot(w, step, states, asm, out, drift);
    if (this.contacts) addContactSnapshotFields(snap, w, this.scene, contact);
    if (this.contacts?.sleep) Object.assign(snap, this.contacts.sleep.snapshotFields(warm.sleep, this.scene.bodies.map((b) => b.name)));
    // The contact step shown is the next step's (from this state): after the run's last step it has
    // not been checked by the run yet, and may already hold the value that will stop it.
    const bad = contact && checkContactStep(w, contact);
    if (bad) snap.diagnostics = [...snap.diagnostics, findingDiagnostic(bad, step + 1, this.scene.solver.dt, this.sourceMap)];
    return snap;
  }

  result(): SimulationResult {
    return {
      steps: this._records.slice(),
      final: {
        bodies: this.world.bodies.map((b, i) => ({
          name: b.spec.name,
          position: [...this.states[i].p] as Vec3,
          orientation: [...this.states[i].q] as Quat,
          velocity: [...this.states[i].v] as Vec3,
          angularVelocity: [...this.states[i].w] as Vec3,
        })),
      },
      diagnostics: this._diagnostics.slice(),
      stoppedAt: this._stopped && !this._historyFull ? this._records.length + 1 : undefined,
      historyFullAt: this._historyFull ? this._records.length : undefined,
    };
  }
}
