// A run in quaternion coordinates: every step is msd-sim's WorldModel update of each body,
// ConstraintSolver::solve then SemiImplicitEulerIntegrator::step (state.ts), with the same history,
// records and snapshots as the engine's own runs, so `simulate`, the panel and the CLI read it
// unchanged. Checkpoints every CHECKPOINT steps; `snapshotAt(k)` replays from the nearest one (a step
// is deterministic), so a long run keeps few states.
import type { SimulationApi } from '../api';
import { Codes } from '../core/codes';
import { formatNumber } from '../core/format';
import { bodyRange, constraintRange } from '../analysis/findings';
import type { SimulationResult, StepRecord, SystemSnapshot } from '../result';
import type { SceneSpec, SourceMap } from '../scene/spec';
import type { Diagnostic, Quat, Vec3 } from '../types';
import { buildMsdModel, msdInitialState, type MsdModel } from './model';
import { msdBodyInputs, msdEnergy, msdFirstUnbounded, msdSnapshot } from './system';
import { msdSolve } from './solver';
import { angularVelocity, bodyQuat, cloneMsdState, integrateBody, type MsdState } from './state';

const CHECKPOINT = 64;

export class MsdSimulation implements SimulationApi {
  readonly model: MsdModel;
  private state: MsdState;
  private readonly checkpoints: MsdState[] = [];
  private readonly history: StepRecord[] = [];
  private readonly runDiagnostics: Diagnostic[] = [];
  private stoppedAt: number | undefined;
  /** |C| per row at step 0, and the rows already reported as drifting (CL402). */
  private readonly initialViolation: Float64Array;
  private readonly drifted = new Set<number>();

  constructor(
    readonly scene: SceneSpec,
    readonly sourceMap: SourceMap,
  ) {
    this.model = buildMsdModel(scene, sourceMap);
    this.state = msdInitialState(this.model);
    this.checkpoints.push(cloneMsdState(this.state));
    this.initialViolation = Float64Array.from(
      msdSolve(
        this.model.rows.map((r) => r.row),
        this.state,
        msdBodyInputs(this.model, this.state),
      ).C,
      Math.abs,
    );
  }

  get currentStep(): number {
    return this.history.length;
  }
  get records(): readonly StepRecord[] {
    return this.history;
  }
  get diagnostics(): Diagnostic[] {
    return this.runDiagnostics;
  }
  get stopped(): boolean {
    return this.stoppedAt !== undefined;
  }

  reset(): void {
    this.history.length = 0;
    this.runDiagnostics.length = 0;
    this.stoppedAt = undefined;
    this.drifted.clear();
    this.state = cloneMsdState(this.checkpoints[0]);
    this.checkpoints.length = 1;
  }

  /** One msd-sim step of every body in place; the solve it made and the largest |Q| − 1 before normalising. */
  private advance(s: MsdState): { cond: number; converged: boolean; lambda: Float64Array; drift: number } {
    const bodies = msdBodyInputs(this.model, s);
    const sol = msdSolve(
      this.model.rows.map((r) => r.row),
      s,
      bodies,
    );
    let drift = 0;
    bodies.forEach((b, i) => {
      const f = (o: number): Vec3 => (sol.converged ? [sol.Fc[7 * i + o], sol.Fc[7 * i + o + 1], sol.Fc[7 * i + o + 2]] : [0, 0, 0]);
      const d = integrateBody(s, i, { ...b, constraintForce: f(0), constraintTorque: f(3) }, this.scene.solver.dt);
      drift = Math.max(drift, Math.abs(d));
    });
    return { cond: sol.conditionNumber, converged: sol.converged, lambda: sol.converged ? sol.lambda : new Float64Array(sol.m), drift };
  }

  private poses(s: MsdState): number[] {
    const out: number[] = [];
    let free = 0;
    for (const b of this.scene.bodies) {
      if (b.fixed) out.push(...b.position, ...b.orientation);
      else {
        out.push(s.X[3 * free], s.X[3 * free + 1], s.X[3 * free + 2], ...bodyQuat(s, free));
        free++;
      }
    }
    return out;
  }

  step(n = 1): StepRecord[] {
    const out: StepRecord[] = [];
    const rows = this.model.rows.map((r) => r.row);
    for (let k = 0; k < n && !this.stopped; k++) {
      const r = this.advance(this.state);
      const step = this.history.length + 1;
      const t = step * this.scene.solver.dt;
      // the record's C is the violation after the step, as the engine's records; the state and its
      // solve must stay analysable (snapshotAt) or the run stops here
      const post = msdSolve(rows, this.state, msdBodyInputs(this.model, this.state));
      const bad = msdFirstUnbounded(this.state, post) ?? (Array.from(r.lambda).every((x) => Math.abs(x) <= 1e150) ? undefined : 'λ');
      if (bad) {
        this.stoppedAt = step;
        this.runDiagnostics.push({
          severity: 'error',
          code: Codes.nonFinite,
          message: `Step ${step}: ${bad} has a NaN, an infinity or a value beyond ±1e150 (quaternion coordinates, msd-sim's step). The run stops here; reduce dt or the gains α, β.`,
          range: this.sourceMap.rangeOf(['solver', 'dt']),
          data: { step },
        });
        break;
      }
      const C = post.C;
      const rec: StepRecord = {
        step,
        t,
        C: Array.from(C, Math.abs),
        lambda: Array.from(r.lambda),
        cond: { A: Number.isFinite(r.cond) ? r.cond : null },
        condEstimated: false,
        energy: msdEnergy(this.model, this.state, this.scene.gravity),
        quatDrift: r.drift,
        method: r.converged ? (rows.length ? 'cholesky' : 'none') : 'none',
        poses: this.poses(this.state),
      };
      this.reportDrift(rec);
      this.history.push(rec);
      out.push(rec);
      if (step % CHECKPOINT === 0) this.checkpoints.push(cloneMsdState(this.state));
    }
    return out;
  }

  /** CL402 once per constraint whose |C| passes max(solver.driftTolerance, 10·|C₀|), as the engine's runs. */
  private reportDrift(rec: StepRecord): void {
    const s = this.scene.solver;
    this.model.rows.forEach((info, i) => {
      const tol = Math.max(s.driftTolerance, 10 * this.initialViolation[i]);
      const v = rec.C[i];
      if (!(v > tol) || this.drifted.has(i)) return;
      this.drifted.add(i);
      const body = info.fileIndex < 0 ? this.model.bodies[info.row.kind === 'unit-quaternion' ? info.row.body : 0].spec.index : -1;
      this.runDiagnostics.push({
        severity: 'warning',
        code: Codes.drift,
        message: `Constraint \`${info.constraint}\` drifted: |C| = ${formatNumber(v)} at step ${rec.step} (t = ${formatNumber(rec.t)} s), above max(solver.driftTolerance = ${formatNumber(tol)}, 10·‖C₀‖). In quaternion coordinates b = −J·M⁻¹·F − α·C − β·Ċ has no −J̇·q̇ (msd-sim's ConstraintSolver): increase \`alpha\`/\`beta\` or reduce \`dt\`.`,
        range: body >= 0 ? bodyRange(this.sourceMap, body) : constraintRange(this.sourceMap, info.fileIndex),
        data: { constraint: info.constraint, constraintIndex: info.fileIndex, step: rec.step, violation: v },
      });
    });
  }

  /** The state after step k, replayed from the checkpoint before it. */
  private stateAt(k: number): MsdState {
    const c = Math.min(Math.floor(k / CHECKPOINT), this.checkpoints.length - 1);
    const s = cloneMsdState(this.checkpoints[c]);
    for (let j = c * CHECKPOINT; j < k; j++) this.advance(s);
    return s;
  }

  snapshotAt(k: number): SystemSnapshot {
    if (!(k >= 0 && k <= this.currentStep)) throw new RangeError(`step ${k} is outside 0…${this.currentStep}`);
    const r = msdSnapshot(this.model, this.stateAt(k), k, k * this.scene.solver.dt, this.scene.gravity);
    // every step kept passed the same check (step), step 0 too (inspect): a failure here is a bug
    if (!r.ok) throw new Error(`quaternion coordinates, step ${k}: ${r.message}`);
    const snap = r.snapshot;
    snap.diagnostics = k === 0 ? [...this.model.diagnostics] : [];
    return snap;
  }

  result(): SimulationResult {
    const s = this.state;
    return {
      steps: this.history,
      final: {
        bodies: this.model.bodies.map((b, i) => ({
          name: b.name,
          position: [s.X[3 * i], s.X[3 * i + 1], s.X[3 * i + 2]] as Vec3,
          orientation: bodyQuat(s, i) as Quat,
          velocity: [s.V[3 * i], s.V[3 * i + 1], s.V[3 * i + 2]] as Vec3,
          angularVelocity: angularVelocity(s, i),
        })),
      },
      diagnostics: this.runDiagnostics,
      ...(this.stoppedAt !== undefined ? { stoppedAt: this.stoppedAt } : {}),
    };
  }
}
