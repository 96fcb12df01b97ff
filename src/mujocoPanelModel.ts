// MuJoCo's run as the panel's model (the report of `report --solver mujoco`, the panel with MuJoCo as
// the solver): the history's columns are the run's elements — every equality, limit, friction loss that
// had rows at some step and the step's contacts as one — because MuJoCo's rows come and go from step
// to step, so the shown step's constraints cannot name them; `historyColumns` does. κ and rank per step
// come from the seam's analysis of MuJoCo's own system of that step.
import type { Diagnostic, SceneSpec, StepRecord, SystemSnapshot } from './engine';
import { analysedStep, type MujocoRun, type MujocoStepRecord } from './import/mujocoRun';
import type { MujocoRunInfo, PanelModel } from './protocol';
import { reportSnapshotSteps } from './report';

/** What the seam's analysis gives a record (absent: the step was not analysed, or could not be). */
export interface StepAnalysis {
  cond: number | null;
  condEstimated: boolean;
  rank?: number;
}

/**
 * Step k of a run as a history record: ‖λ‖ and max |violation| of each run element (0 where it had no
 * rows at the step), energy and MuJoCo's time; `width` columns (the run's elements when the history was
 * made). Read straight from the run's columns.
 */
export function mujocoRecord(run: MujocoRun, k: number, width: number, an?: StepAnalysis): StepRecord {
  const cols = run.columns;
  const C = new Array<number>(width).fill(0), lambda = new Array<number>(width).fill(0);
  // read from the columns' storage in place (a live session makes one record per step: no views made)
  const e = cols.elementsOf(k);
  for (let i = e.start; i < e.end; i++) {
    const id = e.ids[i];
    if (id >= width) continue;
    C[id] = e.violation[i];
    lambda[id] = e.lambda[i];
  }
  const potential = cols.potential(k), kinetic = cols.kinetic(k);
  // poseData: the run finishes its last step's bodies before they are read (mujocoRun.ts)
  const poses = cols.poseData(), stride = cols.poseStride, o = k * stride;
  const p = new Array<number>(stride);
  for (let i = 0; i < stride; i++) p[i] = poses[o + i];
  const rec: StepRecord = {
    step: k,
    t: cols.t(k),
    C,
    lambda,
    cond: { A: an ? an.cond : null },
    condEstimated: an?.condEstimated ?? false,
    energy: { potential, kinetic, total: potential + kinetic },
    quatDrift: 0,
    // MuJoCo's own solver on the step (the engine's records name theirs)
    method: run.solverMethod,
    poses: p,
  };
  if (an?.rank !== undefined) rec.rank = an.rank;
  return rec;
}

/**
 * The step-0 snapshot of a MuJoCo run with the converted scene's bodies as its body states: that scene
 * is MuJoCo's initial state (centres of mass, principal axes, velocities), so the 3D view draws step 0
 * where MuJoCo starts. Column −1: MuJoCo's J has a column per degree of freedom, no 6-column blocks.
 * The later steps' poses come with their records (mujocoRecord).
 */
export function withSceneBodies(snapshot: SystemSnapshot, scene: SceneSpec): SystemSnapshot {
  const bodyStates = scene.bodies.map((b) => ({ name: b.name, column: -1, fixed: b.fixed, mass: b.mass, position: [...b.position] as typeof b.position, orientation: [...b.orientation] as typeof b.orientation, velocity: [...b.velocity] as typeof b.velocity, angularVelocity: [...b.angularVelocity] as typeof b.angularVelocity, quatDrift: 0 }));
  return { ...snapshot, bodyStates };
}

/**
 * The snapshot of a later step k with the converted scene's bodies as MuJoCo has them in its record of
 * step k: the poses and velocities of the state that step solved from (the kinematics mj_step leaves),
 * as withSceneBodies gives step 0 the initial state's.
 */
export function withRecordBodies(snapshot: SystemSnapshot, scene: SceneSpec, rec: Pick<MujocoStepRecord, 'poses' | 'velocities'>): SystemSnapshot {
  const p = rec.poses, v = rec.velocities;
  const bodyStates = scene.bodies.map((b, i) => ({
    name: b.name,
    column: -1,
    fixed: b.fixed,
    mass: b.mass,
    position: [p[7 * i], p[7 * i + 1], p[7 * i + 2]] as typeof b.position,
    orientation: [p[7 * i + 3], p[7 * i + 4], p[7 * i + 5], p[7 * i + 6]] as typeof b.orientation,
    velocity: [v[6 * i], v[6 * i + 1], v[6 * i + 2]] as typeof b.velocity,
    angularVelocity: [v[6 * i + 3], v[6 * i + 4], v[6 * i + 5]] as typeof b.angularVelocity,
    quatDrift: 0,
  }));
  return { ...snapshot, bodyStates };
}

/** The run's facts the panel shows beside the charts (integrator, time step, iterations, warnings); `iterations` of steps `from`… */
export function mujocoRunInfo(run: MujocoRun, from = 1): MujocoRunInfo {
  const cols = run.columns;
  const warnings = new Map<string, number[]>();
  for (const k of cols.warnedSteps()) for (const w of cols.warnings(k)) warnings.set(w.name, [...(warnings.get(w.name) ?? []), k]);
  const n = run.currentStep;
  // `from` > 1: the iterations of steps from… only (a live session's answer: the host has the earlier ones)
  const lo = Math.max(1, from);
  const iterations = new Array<number>(Math.max(0, n - lo + 1));
  for (let k = lo; k <= n; k++) iterations[k - lo] = cols.iterations(k);
  return {
    integrator: run.integrator,
    timestep: run.timestep,
    iterations,
    // the columns keep the run's maximum: a live session asks after every batch of a long run
    maxIterations: cols.maxIterations,
    warnings: [...warnings].map(([name, steps]) => ({ name, firstStep: steps[0], count: steps.length })),
    ...(run.stopped && cols.nonFinite(n) ? { nonFiniteAt: n } : {}),
    ...(run.failure ? { failure: run.failure } : {}),
  };
}

export interface MujocoModelOptions {
  sceneName: string;
  fileName: string;
  /** The step-0 snapshot (solveWithMujoco's). */
  snapshot: SystemSnapshot;
  diagnostics: readonly Diagnostic[];
  /** Run N Steps' default. */
  plannedSteps: number;
  conditionWarning: number;
  generator?: string;
}

/**
 * The report's model of a MuJoCo run: every step analysed in one pass over the run (κ and rank in the
 * history), the snapshots of the steps reportSnapshotSteps picks embedded with their spectra, the last
 * one shown. `progress` hears each analysed step (a long run's report takes a while).
 */
export function mujocoReportModel(run: MujocoRun, o: MujocoModelOptions, progress?: (done: number, total: number) => void): PanelModel {
  const n = run.currentStep;
  const width = run.elements.length;
  const wanted = new Set(reportSnapshotSteps(n, o.snapshot.rank.rows, o.snapshot.rank.dofs));
  const snapshots: SystemSnapshot[] = wanted.has(0) ? [o.snapshot] : [];
  const history: StepRecord[] = [];
  run.forEachSystem(1, n, (sys) => {
    const k = sys.step;
    const full = wanted.has(k);
    const a = analysedStep(sys, { wantSpectrum: full });
    if (full) snapshots.push(a.snapshot);
    const an = a.analysis;
    history.push(mujocoRecord(run, k, width, an ? { cond: Number.isFinite(an.cond.A) ? an.cond.A : null, condEstimated: an.condEstimated, rank: an.rank.J } : undefined));
    progress?.(k, n);
  });
  const shown = snapshots[snapshots.length - 1] ?? o.snapshot;
  for (const s of snapshots) s.diagnostics = o.diagnostics.filter((d) => (d.data as { step?: unknown } | undefined)?.step === s.step);
  const names = run.elements.map((e) => e.name);
  return {
    sceneName: o.sceneName,
    fileName: o.fileName,
    snapshot: shown,
    history,
    steps: n,
    plannedSteps: o.plannedSteps,
    dt: run.timestep,
    conditionWarning: o.conditionWarning,
    diagnostics: [...o.diagnostics],
    sceneBodies: [],
    snapshots,
    historyColumns: { constraints: names, rows: names },
    mujocoRun: mujocoRunInfo(run),
    ...(o.generator ? { generator: o.generator } : {}),
  };
}
