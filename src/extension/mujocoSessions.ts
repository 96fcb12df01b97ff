// The MuJoCo worker's live sessions (one per model whose inspector is switched to MuJoCo): a MujocoRun
// kept open between requests, so Step, Run and Play take MuJoCo's next mj_steps where the last request
// left off instead of running from the initial state again. Each `step` request works for at most its
// time budget and answers with the new records as the panel's history (one column per run element);
// the analysis of a step's whole system (J, M⁻¹, A, κ, rank, redundancy) is made only for the steps
// the panel shows (`snapshot`), read again from the run's checkpoints. Node only (files from disk).
import { dirname } from 'node:path';
import { analyseSystem, Codes, type Diagnostic, type StepRecord } from '../engine';
import { loadModel, nodeFileAccess, type ModelParseResult } from '../import';
import type { AnalysedStep, MujocoRun } from '../import/mujocoRun';
import { runDiagnostics, solveWithMujoco } from '../import/mujocoSolver';
import { mujocoRecord, mujocoRunInfo, withRecordBodies, withSceneBodies, type StepAnalysis } from '../mujocoPanelModel';
import { sceneGeometry } from '../panelModel';
import type { PanelModel } from '../protocol';
import type { MujocoOpenRequest, MujocoSnapshotRequest, MujocoStepRequest, MujocoWorkerResponse } from './logic/mujocoWorkerProtocol';

interface Session {
  parse: ModelParseResult;
  run: MujocoRun;
  step0: AnalysedStep;
  /** The import's own diagnostics (the findings on the run follow them). */
  imported: Diagnostic[];
  /** κ and rank of the steps analysed while stepping (a sample of the steps). */
  analysed: Map<number, StepAnalysis>;
  /** κ estimated (mujocoCondition.ts) on the steps between the samples, when affordable (see ESTIMATE_SHARE). */
  estimated: Map<number, number>;
  /** The latest analysed or estimated step's κ as of the records already sent (a step with neither holds it, as an estimate). */
  held?: StepAnalysis;
  /** Time spent stepping, analysing and estimating, and the steps, analyses and estimates it covers. */
  cost: { stepMs: number; steps: number; analysisMs: number; analyses: number; estimateMs: number; estimates: number };
}

/**
 * The history's κ is analysed exactly on a sample of the steps: the next step is analysed whenever the
 * analyses so far have cost at most this fraction of the time spent stepping (which steps depends on
 * the machine): the step's whole system (A of nefc × nefc, its eigenvalues, rank, redundancy) costs tens
 * of mj_steps on a robot, and a run to a blow-up must stay about as fast as MuJoCo alone. The steps
 * between have ‖λ‖, violation and energy exactly, and any step's full analysis comes when the panel
 * shows it.
 */
const ANALYSIS_SHARE = 0.05;

/**
 * A step between the samples gets its own A's κ estimated (mujocoCondition.ts: a few eigenvalue
 * iterations on A, warm-started from the last step's) whenever the estimates so far have cost at most
 * this fraction of the stepping: one step in 30 to 80 on the small models, where mj_step takes 10 µs
 * and an estimate (MuJoCo's M through the bindings, the Lanczos runs) about as long as 7 of them.
 * Together with the samples' share the session adds at most 15 % to the lens's own cost per step:
 * on a model whose mj_step takes 10 µs, a larger share took the session past 2× mj_step.
 */
const ESTIMATE_SHARE = 0.1;

/**
 * About this long passes between two looks at the clock (and at the analyses' shares): a small model's
 * mj_step takes 10 µs, and looking after every few steps cost it a fifth of its time in the session's
 * own bookkeeping; a robot's takes long enough that it is looked at after every step.
 */
const CLOCK_MS = 0.25;
/** At most this many steps between two looks, whatever the steps cost so far. */
const MAX_STEPS_PER_CLOCK = 64;

export class MujocoSessions {
  private readonly sessions = new Map<string, Session>();

  /** Open `key` (closing what it held) at the initial state: the panel's model of step 0, no history. */
  async open(m: MujocoOpenRequest): Promise<MujocoWorkerResponse> {
    const t0 = performance.now();
    this.close(m.key);
    const parse = await loadModel(m.path, m.text, { files: nodeFileAccess(dirname(m.path)), ...(m.keyframe ? { keyframe: m.keyframe } : {}) });
    const out = await solveWithMujoco(parse, 0, m.keyframe ? { keyframe: m.keyframe } : {});
    if (!out.run || !out.snapshot || !out.step0) return { id: m.id, ok: true, kind: 'open', diagnostics: out.diagnostics, ms: performance.now() - t0 };
    const run = out.run;
    this.sessions.set(m.key, { parse, run, step0: out.step0, imported: parse.diagnostics.filter((d) => d.code !== Codes.notSimulated), analysed: new Map(), estimated: new Map(), cost: { stepMs: 0, steps: 0, analysisMs: 0, analyses: 0, estimateMs: 0, estimates: 0 } });
    const names = run.elements.map((e) => e.name);
    const model: PanelModel = {
      sceneName: parse.scene?.name ?? m.fileName,
      fileName: m.fileName,
      // the converted scene's bodies and shapes, posed by the records' poses (MuJoCo's, as the scene's bodies)
      snapshot: parse.scene ? withSceneBodies(out.snapshot, parse.scene) : out.snapshot,
      history: [],
      steps: 0,
      plannedSteps: m.plannedSteps,
      dt: run.timestep,
      conditionWarning: m.conditionWarning,
      diagnostics: out.diagnostics,
      sceneBodies: [],
      ...(parse.scene ? { ...sceneGeometry(parse.scene), sceneConstraints: [] } : {}),
      historyColumns: { constraints: names, rows: names },
      mujocoRun: mujocoRunInfo(run),
      solver: 'mujoco',
    };
    return { id: m.id, ok: true, kind: 'open', diagnostics: out.diagnostics, model, ms: performance.now() - t0 };
  }

  /** Take up to m.steps more steps within m.budgetMs; the records they left as the panel's history. */
  step(m: MujocoStepRequest): MujocoWorkerResponse {
    const t0 = performance.now();
    const s = this.sessions.get(m.key);
    if (!s) return { id: m.id, ok: false, error: `no MuJoCo session for ${m.key}` };
    const run = s.run;
    const from = run.currentStep + 1;
    const target = Math.min(run.currentStep + m.steps, m.maxSteps);
    while (run.currentStep < target && !run.stopped) {
      // the next step's κ when the analyses (or the estimates) so far have cost no more than their share
      // of the stepping, read from the data the step leaves (no second mj_forward)
      const analyse = s.cost.analysisMs <= ANALYSIS_SHARE * s.cost.stepMs;
      const estimate = !analyse && s.cost.estimateMs <= ESTIMATE_SHARE * s.cost.stepMs;
      const perClock = s.cost.steps > 0 ? Math.floor((CLOCK_MS * s.cost.steps) / Math.max(1e-9, s.cost.stepMs)) : 1;
      const n = analyse || estimate ? 1 : Math.max(1, Math.min(MAX_STEPS_PER_CLOCK, perClock, target - run.currentStep));
      const t = performance.now();
      run.step(n);
      const t1 = performance.now();
      s.cost.stepMs += t1 - t;
      s.cost.steps += n;
      if (analyse && run.currentStep > 0) this.analyseLast(s);
      else if (estimate && run.currentStep > 0) {
        const k = run.estimateLastCond();
        if (k !== undefined) s.estimated.set(run.currentStep, k);
        s.cost.estimateMs += performance.now() - t1;
        s.cost.estimates++;
      }
      if (performance.now() - t0 >= m.budgetMs) break;
    }
    const width = run.elements.length;
    const records: StepRecord[] = [];
    const rows: number[] = [];
    for (let k = from; k <= run.currentStep; k++) {
      // a step between two samples shows its own A's estimated κ (≈ in every view), else the latest
      // sampled or estimated κ, never an unknown that would read as singular; its λ, violation and
      // energy are exact all the same (and its rank is left out: a rank is only given for the steps
      // whose system was analysed)
      // (most steps have neither: the maps are looked in only while they hold anything)
      const exact = s.analysed.size > 0 ? s.analysed.get(k) : undefined;
      const est = exact || s.estimated.size === 0 ? undefined : s.estimated.get(k);
      if (exact) s.held = exact;
      else if (est !== undefined) s.held = { cond: Number.isFinite(est) ? est : null, condEstimated: true };
      const an = exact ?? (s.held ? { cond: s.held.cond, condEstimated: true } : undefined);
      if (s.analysed.size > 0) s.analysed.delete(k);
      if (s.estimated.size > 0) s.estimated.delete(k);
      records.push(mujocoRecord(run, k, width, an));
      rows.push(run.columns.nefc(k));
    }
    const stopped = run.stopped || run.currentStep >= m.maxSteps;
    const diagnostics = m.findings || (stopped && records.length > 0) ? [...s.imported, ...runDiagnostics(s.parse, run, s.step0)] : undefined;
    return {
      id: m.id,
      ok: true,
      kind: 'step',
      from,
      records,
      rows,
      columns: run.elements.map((e) => e.name),
      total: run.currentStep,
      stopped,
      // the iterations of the new steps only (the host appends them): a long run's would cross again with every answer
      info: mujocoRunInfo(run, from),
      ...(diagnostics ? { diagnostics } : {}),
      ms: performance.now() - t0,
    };
  }

  /** The analysed system of a step taken (the one the step solved, as `inspect --solver mujoco` gives it). */
  snapshot(m: MujocoSnapshotRequest): MujocoWorkerResponse {
    const t0 = performance.now();
    const s = this.sessions.get(m.key);
    if (!s) return { id: m.id, ok: false, error: `no MuJoCo session for ${m.key}` };
    const k = Math.min(m.step, s.run.currentStep);
    const a = k === 0 ? s.step0 : s.run.snapshotAt(k);
    // the bodies as MuJoCo has them at the step (poses and velocities), as step 0 has the converted scene's
    const scene = s.parse.scene;
    const snapshot = k > 0 && scene ? withRecordBodies(a.snapshot, scene, { poses: s.run.columns.posesOf(k), velocities: s.run.columns.velocitiesOf(k) }) : a.snapshot;
    return { id: m.id, ok: true, kind: 'snapshot', snapshot, ms: performance.now() - t0 };
  }

  /** κ and rank of the step just taken (the system it solved). */
  private analyseLast(s: Session): void {
    const t = performance.now();
    const sys = s.run.lastSystem();
    const a = analyseSystem(sys, { wantSpectrum: false });
    s.cost.analysisMs += performance.now() - t;
    s.cost.analyses++;
    const an = a.ok ? a : undefined;
    s.analysed.set(s.run.currentStep, an ? { cond: Number.isFinite(an.cond.A) ? an.cond.A : null, condEstimated: an.condEstimated, rank: an.rank.J } : { cond: null, condEstimated: false });
  }

  close(key: string): void {
    this.sessions.get(key)?.run.dispose();
    this.sessions.delete(key);
  }

  get size(): number {
    return this.sessions.size;
  }
}
