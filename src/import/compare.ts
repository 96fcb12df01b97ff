// MuJoCo next to the exact solve, on the same model and initial state (docs/import.md, "Compare").
// Per equality constraint: MuJoCo's efc_force of its rows next to our λ at t = 0, MuJoCo's
// regulariser R (efc_R) and its A's diagonal (efc_diagA, joint space) next to our A's diagonal
// (maximal coordinates), and the violation over a run of both; MuJoCo's solver iterations and warnings.
// Units: connect rows and the weld's position rows are forces (N) at the anchor, world frame; joint
// equalities are the generalised force of the first joint (N·m or N); a weld's rotational rows are
// converted to our convention (our C = 2·vec(q_err) in the world frame; MuJoCo's is
// torquescale·vec(q₂⁻¹q₁·relpose) in body2's frame, so λ = ½·torquescale·R₂·f at the current pose).
import { inspectParsed, Simulation, type SystemSnapshot } from '../engine';
import { mulMV, qmat, qmul } from './geometry';
import type { ImportedModel, ModelParseResult } from './index';
import { compileModel, loadMujoco, release } from './mujoco';
import { runMujoco, type MujocoRun } from './mujocoRun';

export interface EqualityComparison {
  /** MuJoCo's name (or `<type><id>`) and our constraint's name. */
  name: string;
  type: string;
  constraint?: string;
  rows: string[];
  /** At t = 0. */
  mujocoForce: number[];
  ourLambda: number[];
  mujocoR: number[];
  mujocoDiagA: number[];
  ourDiagA: number[];
  solref: [number, number];
  solimp: number[];
  /** ‖C‖ per recorded step (our units for both), and its maximum and final value. */
  violation: { mujoco: number[]; ours: number[]; mujocoMax: number; oursMax: number; mujocoFinal: number; oursFinal: number };
}

export interface CompareResult {
  model: string;
  keyframe?: string;
  steps: number;
  dt: number;
  times: number[];
  equalities: EqualityComparison[];
  solver: { iterationsMin: number; iterationsMax: number; iterationsMean: number; warnings: { name: string; count: number }[] };
  /**
   * MuJoCo's constraint rows that are not equalities — contacts, joint limits, friction loss — as the most
   * rows in one state and the number of states with any. Our engine simulates none of them here.
   */
  otherRows: Record<'contacts' | 'limits' | 'friction', { max: number; states: number }>;
  /** Distance between MuJoCo's and our centre of mass of each body after the run. */
  bodies: { name: string; distance: number }[];
  /** Our run stopped early (non-finite value) at this step. */
  stoppedAt?: number;
  timing: { wasmLoadMs: number; mujocoMs: number; oursMs: number };
  notes: string[];
}

const norm = (x: number[]) => Math.sqrt(x.reduce((s, v) => s + v * v, 0));

/** Run MuJoCo and our engine for `steps` steps from the model's initial state and put them side by side. */
export async function compareWithMujoco(parse: ModelParseResult, steps?: number): Promise<CompareResult> {
  const model = parse.model;
  const scene = parse.scene;
  if (!model || !scene) throw new Error('the model could not be converted; see its diagnostics');
  const rt = await loadMujoco();
  const n = Math.max(0, Math.floor(steps ?? scene.solver.steps));
  const compiled = compileModel(rt, model.mainName, [...model.vfs].map(([name, data]) => ({ name, data })));
  if ('error' in compiled) throw new Error(`MuJoCo: ${compiled.error}`);
  let run: MujocoRun;
  const t0 = performance.now();
  try {
    run = runMujoco(rt, compiled.model, model.state.qpos, model.state.qvel, n);
  } finally {
    if (!rt.retired) release(compiled.model);
  }
  const mujocoMs = performance.now() - t0;

  const t1 = performance.now();
  const inspect = inspectParsed('', parse, { wantSpectrum: false });
  const snap = inspect.snapshot;
  const sim = new Simulation(scene, parse.sourceMap);
  if (n > 0) sim.step(n);
  const res = sim.result();
  const oursMs = performance.now() - t1;

  const m = model.compiled;
  const equalities = m.equalities.map((e, i): EqualityComparison => {
    const ci = model.converted.equalityConstraint[i];
    const c = ci !== undefined ? scene.constraints[ci] : undefined;
    const report = c && snap ? snap.constraints.find((r) => r.fileIndex === ci) : undefined;
    const rows = report ? snap!.rows.slice(report.firstRow, report.firstRow + report.rows).map((r) => r.label) : [];
    const first = run.steps[0];
    const ts = e.type === 'weld' && e.objtype === 'body' ? e.data[10] : 1;
    const f0 = convertRows(e.type, ts, first.eqForce[i] ?? [], rotationOfBody2(model, i), 'force');
    const mjViol = run.steps.map((s) => norm(convertRows(e.type, ts, s.eqPos[i] ?? [], undefined, 'position')));
    const ours = c ? [report?.violation ?? 0, ...res.steps.map((s) => s.C[ci!] ?? NaN)] : [];
    return {
      name: e.name || `${e.type}${i}`,
      type: e.type,
      constraint: c?.name,
      rows,
      mujocoForce: f0,
      ourLambda: report?.lambda ?? [],
      mujocoR: first.eqR[i] ?? [],
      mujocoDiagA: first.eqDiagA[i] ?? [],
      ourDiagA: report && snap ? diagOf(snap, report.firstRow, report.rows) : [],
      solref: e.solref,
      solimp: e.solimp,
      violation: {
        mujoco: mjViol,
        ours,
        mujocoMax: Math.max(0, ...mjViol),
        oursMax: Math.max(0, ...ours.filter(Number.isFinite)),
        mujocoFinal: mjViol[mjViol.length - 1] ?? 0,
        oursFinal: ours[ours.length - 1] ?? 0,
      },
    };
  });
  const iters = run.steps.slice(1).map((s) => s.iterations);
  const final = res.final.bodies;
  const bodies = final.map((b) => {
    const mj = m.bodies.findIndex((x, k) => k > 0 && (x.name.trim() ? x.name : `body${k}`) === b.name);
    const p = mj >= 0 ? run.final.xipos[mj] : undefined;
    return { name: b.name, distance: p ? Math.hypot(p[0] - b.position[0], p[1] - b.position[1], p[2] - b.position[2]) : NaN };
  });
  const notes: string[] = [];
  if (m.equalities.some((e, i) => model.converted.equalityConstraint[i] === undefined)) notes.push('Equalities without a constraint here are not simulated by us (see the diagnostics).');
  if (scene.constraints.some((c) => c.type === 'coupler' && !m.equalities.some((_, i) => model.converted.equalityConstraint[i] === c.index))) {
    notes.push('Couplers added from URDF <mimic> tags that MuJoCo did not compile: MuJoCo runs without them.');
  }
  return {
    model: model.path,
    keyframe: model.keyframe,
    steps: n,
    dt: m.timestep,
    times: run.steps.map((s) => s.t),
    equalities,
    solver: {
      iterationsMin: iters.length ? Math.min(...iters) : 0,
      iterationsMax: iters.length ? Math.max(...iters) : 0,
      iterationsMean: iters.length ? iters.reduce((a, b) => a + b, 0) / iters.length : 0,
      warnings: run.warnings,
    },
    otherRows: {
      contacts: tally(run, 'contacts'),
      limits: tally(run, 'limits'),
      friction: tally(run, 'friction'),
    },
    bodies,
    stoppedAt: res.stoppedAt,
    timing: { wasmLoadMs: rt.loadMs, mujocoMs, oursMs },
    notes,
  };
}

const tally = (run: MujocoRun, k: 'contacts' | 'limits' | 'friction') => ({
  max: Math.max(0, ...run.steps.map((s) => s.other[k])),
  states: run.steps.filter((s) => s.other[k] > 0).length,
});

/** Rotation of the weld's body2 at the initial state (for converting its rotational rows). */
function rotationOfBody2(model: ImportedModel, eq: number): number[] | undefined {
  const e = model.compiled.equalities[eq];
  if (e.type !== 'weld') return undefined;
  if (e.objtype === 'site') {
    const site = model.compiled.sites[e.obj2];
    return site ? qmat(qmul(model.state.xquat[site.body], site.quat)) : undefined;
  }
  return qmat(model.state.xquat[e.obj2]);
}

/**
 * MuJoCo's rows of one equality in our units. Weld rotational rows: a force f_rot becomes the
 * world-frame λ = ½·ts·R₂·f_rot; a position error e_rot (ts·vec, body2 frame) becomes 2·e_rot/ts.
 */
function convertRows(type: string, ts: number, rows: number[], R2: number[] | undefined, kind: 'force' | 'position'): number[] {
  if (type !== 'weld' || rows.length !== 6) return [...rows];
  const rot: [number, number, number] = [rows[3], rows[4], rows[5]];
  if (kind === 'position') return [...rows.slice(0, 3), ...rot.map((x) => (ts !== 0 ? (2 * x) / ts : 0))];
  const w = R2 ? mulMV(R2, rot) : rot;
  return [...rows.slice(0, 3), ...w.map((x) => 0.5 * ts * x)];
}

/** Diagonal entries of A for rows [r0, r0 + n). */
function diagOf(snap: SystemSnapshot, r0: number, n: number): number[] {
  const A = snap.A;
  const out: number[] = [];
  // A left out (a tall island: tallIsland.ts): its diagonal is not shown (NaN, "not formed").
  if (!A) return Array.from({ length: n }, () => NaN);
  for (let r = r0; r < r0 + n; r++) {
    let v = 0;
    for (let k = A.rowPtr[r]; k < A.rowPtr[r + 1]; k++) if (A.colIdx[k] === r) v = A.values[k];
    out.push(v);
  }
  return out;
}
