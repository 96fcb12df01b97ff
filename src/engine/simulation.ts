// Time stepping (AerisLab `HybridSolver.step`, semi-implicit Euler; or the velocity-level
// Solfec update), with a history that can be scrubbed: every past step can be re-analysed.
import { assemble, buildWorld, poseOf, type World, WORLD_POSE } from './assemble';
import { buildSnapshot, energyOf } from './analysis';
import type { SimulationApi } from './api';
import { Codes } from './codes';
import { bodyRange, constraintRange, formatNumber as fmt } from './findings';
import { type BodyState, cloneState, initialState } from './model/body';
import type { SimulationResult, StepRecord, SystemSnapshot } from './result';
import { emptySourceMap } from './scene/text';
import type { SceneSpec, SourceMap } from './scene/types';
import { solveSystem, type SolveOutput } from './kkt';
import type { Diagnostic, Quat, Vec3 } from './types';
import { firstNonFinite, isFiniteVec, norm2, quatIntegrateInto } from './math';
import { segmentOf } from './offsets';

export interface SimulationOptions {
  /** κ is exact per step up to this many rows per island, estimated above (flagged). Default 200. */
  stepExactCondMaxRows?: number;
  /** Keep per-row λ in the records up to this many rows (default 600), and poses up to this many bodies (default 500). */
  maxRecordRows?: number;
  maxRecordBodies?: number;
}

const STATE_SIZE = 13; // p(3) q(4) v(3) w(3)

function pack(states: BodyState[]): Float64Array {
  const out = new Float64Array(states.length * STATE_SIZE);
  states.forEach((s, i) => out.set([...s.p, ...s.q, ...s.v, ...s.w], i * STATE_SIZE));
  return out;
}
function unpack(buf: Float64Array): BodyState[] {
  const out: BodyState[] = [];
  for (let i = 0; i < buf.length / STATE_SIZE; i++) {
    const o = i * STATE_SIZE;
    out.push({
      p: [buf[o], buf[o + 1], buf[o + 2]],
      q: [buf[o + 3], buf[o + 4], buf[o + 5], buf[o + 6]],
      v: [buf[o + 7], buf[o + 8], buf[o + 9]],
      w: [buf[o + 10], buf[o + 11], buf[o + 12]],
    });
  }
  return out;
}

export class Simulation implements SimulationApi {
  readonly world: World;
  private states: BodyState[];
  private readonly initial: Float64Array;
  private readonly checkpoints = new Map<number, Float64Array>();
  private readonly checkpointEvery: number;
  private readonly stepCondRows: number;
  private readonly maxRecordRows: number;
  private readonly maxRecordBodies: number;
  private _records: StepRecord[] = [];
  private _diagnostics: Diagnostic[] = [];
  private _stopped = false;
  private initialViolation: Float64Array;
  private drifted = new Set<number>();

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
    this.checkpointEvery = Math.max(1, Math.ceil(scene.bodies.length / 200));
    this.stepCondRows = opts.stepExactCondMaxRows ?? 200;
    this.maxRecordRows = opts.maxRecordRows ?? 600;
    this.maxRecordBodies = opts.maxRecordBodies ?? 500;
    this.initialViolation = this.constraintViolations(this.states);
  }

  get currentStep(): number {
    return this._records.length;
  }
  get records(): readonly StepRecord[] {
    return this._records;
  }
  get diagnostics(): Diagnostic[] {
    return this._diagnostics;
  }
  get stopped(): boolean {
    return this._stopped;
  }

  reset(): void {
    this.states = unpack(this.initial);
    this.checkpoints.clear();
    this.checkpoints.set(0, this.initial);
    this._records = [];
    this._diagnostics = [];
    this._stopped = false;
    this.drifted.clear();
  }

  /** ‖C‖₂ per constraint at the given states. */
  private constraintViolations(states: BodyState[]): Float64Array {
    const w = this.world;
    const out = new Float64Array(w.constraints.length);
    for (let c = 0; c < w.constraints.length; c++) {
      const ia = w.endA[c];
      const ib = w.endB[c];
      const pa = ia < 0 ? WORLD_POSE : poseOf(states[ia], w.bodies[ia].column < 0);
      const pb = ib < 0 ? WORLD_POSE : poseOf(states[ib], w.bodies[ib].column < 0);
      const ev = w.evals[c];
      const ex = w.endX[c];
      w.constraints[c].evaluate(pa, pb, ev, ex.length ? Array.from(ex, (i) => poseOf(states[i], w.bodies[i].column < 0)) : undefined);
      out[c] = norm2(ev.C, 0, w.constraints[c].rows);
    }
    return out;
  }

  /** One step from `states` (mutated in place). Returns the solve and per-body |q|−1, or a diagnostic if a value went non-finite. */
  private advance(states: BodyState[], stepIndex: number, analyse: boolean): { out: SolveOutput; drift: Float64Array } | Diagnostic {
    const w = this.world;
    const s = w.scene.solver;
    const asm = assemble(w, states);
    // per step: κ(A) (exact when small, else estimated) but not the scaled κ, which only inspect/snapshots show
    const out = solveSystem(w, asm, s, { exactCondMaxRows: this.stepCondRows, wantSpectrum: analyse, wantScaledCond: false, skipAnalysis: !analyse });
    // A NaN or ∞ anywhere in F, M⁻¹, C, J or A reaches λ or a, or makes the solver give up; only then
    // look for the first bad quantity (scanning every input each step would cost more than the solve).
    if (out.islands.some((i) => i.result && !i.result.ok) || firstNonFinite(out.lambda) >= 0 || firstNonFinite(out.a) >= 0) {
      const bad = this.checkAssembly(asm, stepIndex) ?? this.checkSolve(out, stepIndex);
      if (bad) return bad;
    }
    // semi-implicit Euler: v += a·dt (u⁺), p += v·dt, q = normalize(q + ½(ω,0)⊗q·dt)
    const dt = s.dt;
    const drift = new Float64Array(w.bodies.length);
    for (let i = 0; i < w.bodies.length; i++) {
      const col = w.bodies[i].column;
      if (col < 0) continue;
      const st = states[i];
      for (let d = 0; d < 3; d++) {
        st.v[d] = out.uPlus[col + d];
        st.w[d] = out.uPlus[col + 3 + d];
      }
      for (let d = 0; d < 3; d++) st.p[d] += st.v[d] * dt;
      const q = st.q;
      drift[i] = quatIntegrateInto(q, st.w, dt) - 1;
      // a sum of finite terms is finite unless it overflows: only then look closer
      if (!Number.isFinite(st.p[0] + st.p[1] + st.p[2] + st.v[0] + st.v[1] + st.v[2] + st.w[0] + st.w[1] + st.w[2] + q[0] + q[1] + q[2] + q[3])) {
        const what = !isFiniteVec(st.p) ? 'position' : !isFiniteVec(st.v) ? 'velocity' : !isFiniteVec(st.w) ? 'angular velocity' : !isFiniteVec(q) ? 'orientation' : undefined;
        if (what) return this.nonFinite(stepIndex, `the ${what} of body \`${w.bodies[i].spec.name}\``, bodyRange(this.sourceMap, w.bodies[i].spec.index));
      }
    }
    return { out, drift };
  }

  private nonFinite(step: number, what: string, range: Diagnostic['range']): Diagnostic {
    return {
      severity: 'error',
      code: Codes.nonFinite,
      message: `A non-finite value (NaN or ∞) appeared at step ${step} (t = ${fmt(step * this.scene.solver.dt)} s): first in ${what}. The run stopped there; earlier steps are kept.`,
      range,
      data: { step, quantity: what },
    };
  }

  private checkAssembly(asm: ReturnType<typeof assemble>, step: number): Diagnostic | undefined {
    const w = this.world;
    const sm = this.sourceMap;
    const bodyAtCol = (col: number) => w.bodies[w.colBodies[Math.floor(col / 6)]];
    let i = firstNonFinite(asm.F);
    if (i >= 0) return this.nonFinite(step, `the applied force/torque F of body \`${bodyAtCol(i).spec.name}\``, bodyRange(sm, bodyAtCol(i).spec.index));
    i = firstNonFinite(asm.minvCompact);
    if (i >= 0) {
      const b = bodyAtCol(Math.floor(i / 10) * 6);
      return this.nonFinite(step, `M⁻¹ of body \`${b.spec.name}\``, bodyRange(sm, b.spec.index));
    }
    for (const [name, vec] of [['C', asm.C], ['J', asm.J.values], ['A', asm.A.values]] as const) {
      i = firstNonFinite(vec);
      if (i >= 0) {
        const row = name === 'C' ? i : segmentOf(name === 'J' ? asm.J.rowPtr : asm.A.rowPtr, i);
        const c = segmentOf(w.rowStart, row);
        return this.nonFinite(step, `${name} of constraint \`${w.constraints[c].spec.name}\``, constraintRange(sm, w.constraints[c].spec.index));
      }
    }
    return undefined;
  }

  private checkSolve(out: SolveOutput, step: number): Diagnostic | undefined {
    const w = this.world;
    for (const [name, vec] of [['λ', out.lambda], ['a', out.a]] as const) {
      const i = firstNonFinite(vec);
      if (i < 0) continue;
      if (name === 'λ') {
        const c = segmentOf(w.rowStart, i);
        return this.nonFinite(step, `λ of constraint \`${w.constraints[c].spec.name}\``, constraintRange(this.sourceMap, w.constraints[c].spec.index));
      }
      const b = w.bodies[w.colBodies[Math.floor(i / 6)]];
      return this.nonFinite(step, `the acceleration of body \`${b.spec.name}\``, bodyRange(this.sourceMap, b.spec.index));
    }
    return undefined;
  }

  step(n = 1): StepRecord[] {
    const added: StepRecord[] = [];
    const w = this.world;
    const s = this.scene.solver;
    const tol = s.driftTolerance;
    for (let k = 0; k < n && !this._stopped; k++) {
      const stepIndex = this._records.length + 1;
      const res = this.advance(this.states, stepIndex, true);
      if ('code' in res) {
        this._stopped = true;
        this._diagnostics.push(res);
        // restore the last good state
        this.states = unpack(this.stateAt(this._records.length));
        break;
      }
      const { out, drift } = res;
      const C = this.constraintViolations(this.states);
      C.forEach((v, c) => {
        if (this.drifted.has(c) || !(v > Math.max(tol, 10 * this.initialViolation[c]))) return;
        this.drifted.add(c);
        const spec = w.constraints[c].spec;
        this._diagnostics.push({
          severity: 'warning',
          code: Codes.drift,
          message: `Constraint \`${spec.name}\` drifted: |C| = ${fmt(v)} at step ${stepIndex} (t = ${fmt(stepIndex * s.dt)} s), above max(solver.driftTolerance = ${fmt(tol)}, 10·‖C₀‖). Increase ${s.formulation === 'velocity' ? '`erp`' : '`alpha`/`beta`'} or reduce \`dt\`.`,
          range: constraintRange(this.sourceMap, spec.index),
          data: { constraint: spec.name, constraintIndex: spec.index, step: stepIndex, violation: v },
        });
      });
      const energy = energyOf(w, this.states);
      const rec: StepRecord = {
        step: stepIndex,
        t: stepIndex * s.dt,
        C: Array.from(C),
        lambda: w.nRows <= this.maxRecordRows ? Array.from(out.lambda) : [],
        cond: { A: Number.isFinite(out.cond) ? out.cond : null },
        condEstimated: out.condEstimated,
        rank: out.rank,
        energy,
        quatDrift: drift.reduce((m, x) => Math.max(m, Math.abs(x)), 0),
        method: out.method,
        poses: w.bodies.length <= this.maxRecordBodies ? this.states.flatMap((st) => [...st.p, ...st.q]) : [],
      };
      this._records.push(rec);
      added.push(rec);
      if (stepIndex % this.checkpointEvery === 0) this.checkpoints.set(stepIndex, pack(this.states));
    }
    return added;
  }

  /** Packed state after step k (0 = initial), re-simulated from the nearest checkpoint when not stored. */
  private stateAt(k: number): Float64Array {
    const exact = this.checkpoints.get(k);
    if (exact) return exact;
    let base = k - (k % this.checkpointEvery);
    while (!this.checkpoints.has(base)) base -= this.checkpointEvery;
    const states = unpack(this.checkpoints.get(base)!);
    for (let j = base + 1; j <= k; j++) {
      const r = this.advance(states, j, false);
      if ('code' in r) break;
    }
    return pack(states);
  }

  snapshotAt(k: number): SystemSnapshot {
    const step = Math.max(0, Math.min(Math.floor(k), this._records.length));
    const w = this.world;
    // Re-take the last step from the state before it: it reproduces the stored state exactly and gives |q|−1 per body.
    let states: BodyState[];
    let drift: Float64Array | undefined;
    if (step === 0) states = this.states.length && this._records.length === 0 ? this.states.map(cloneState) : unpack(this.initial);
    else {
      states = unpack(this.stateAt(step - 1));
      const r = this.advance(states, step, false);
      if (!('code' in r)) drift = r.drift;
    }
    const asm = assemble(w, states);
    const out = solveSystem(w, asm, this.scene.solver, { exactCondMaxRows: 1000, wantSpectrum: true });
    return buildSnapshot(w, step, states, asm, out, drift);
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
      stoppedAt: this._stopped ? this._records.length + 1 : undefined,
    };
  }
}
