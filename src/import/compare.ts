// MuJoCo next to the exact solve, on the same model and initial state (docs/import.md, "Compare").
// Per equality constraint: MuJoCo's efc_force of its rows next to our λ at t = 0, MuJoCo's
// regulariser R (efc_R) and its A's diagonal (efc_diagA, joint space) next to our A's diagonal
// (maximal coordinates), and the violation over a run of both; MuJoCo's solver iterations and warnings.
// Units: connect rows and the weld's position rows are forces (N) at the anchor, world frame; joint
// equalities are the generalised force of the first joint (N·m or N); a weld's rotational rows are
// converted to our convention (our C = 2·vec(q_err) in the world frame; MuJoCo's is
// torquescale·vec(q₂⁻¹q₁·relpose) in body2's frame, so λ = ½·torquescale·R₂·f at the current pose).
import { inspectParsed, Simulation, type BodyKinematics, type SystemSnapshot } from '../engine';
import { compareTrajectory } from './compareTrajectory';
import { mulMV, qmat, qmul, type Mat } from './geometry';
import type { ImportedModel, ModelParseResult } from './model';
import type { MujocoComparisonOf, MujocoEqualityOf } from '../protocol';
import { compileModel, loadMujoco, release } from './mujoco';
import { runMujoco, type MujocoRun } from './mujocoCompareRun';

/** One equality constraint of the comparison: the panel's MujocoEquality with plain numbers. */
export type EqualityComparison = MujocoEqualityOf<number>;

/** The comparison: the panel's MujocoComparison with plain numbers, the model's name and the states' times. */
export interface CompareResult extends MujocoComparisonOf<number> {
  model: string;
  /**
   * Moving bodies whose centre of mass ends below a floor (a world plane) by more than 1 mm in our run
   * but not in MuJoCo's: heights above the plane (m), ours and MuJoCo's. The run has left MuJoCo's world.
   */
  belowFloor: { name: string; ours: number; mujoco: number }[];
  times: number[];
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
    run = runMujoco(rt, compiled.model, model.state.qpos, model.state.qvel, n, { ...(model.state.ctrl ? { ctrl: model.state.ctrl } : {}), ...(model.state.act ? { act: model.state.act } : {}) });
  } finally {
    if (!rt.retired) release(compiled.model);
  }
  const mujocoMs = performance.now() - t0;

  const t1 = performance.now();
  const inspect = inspectParsed('', parse, { wantSpectrum: false });
  const snap = inspect.snapshot;
  const sim = new Simulation(scene, parse.sourceMap);
  // one step at a time: the trajectory comparison reads every body's state (velocities too) after each
  const track: BodyKinematics[][] = [sim.result().final.bodies];
  for (let k = 0; k < n && !sim.stopped; k++) {
    sim.step(1);
    if (!sim.stopped) track.push(sim.result().final.bodies);
  }
  const res = sim.result();
  const oursMs = performance.now() - t1;
  const trajectory = compareTrajectory(model, scene, run.steps.map((s) => s.track), track);

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
  const belowFloor = bodiesBelowFloor(scene, final, m.bodies, run.final.xipos);
  const notes: string[] = [];
  if (belowFloor.length) {
    const list = belowFloor.slice(0, 3).map((b) => `\`${b.name}\` ${fmtM(b.ours)} m (MuJoCo ${fmtM(b.mujoco)} m)`).join(', ');
    notes.push(`Our run has left MuJoCo's: ${belowFloor.length === 1 ? 'a body ends' : `${belowFloor.length} bodies end`} below the floor — height above it ${list}${belowFloor.length > 3 ? ', …' : ''}.`);
  }
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
    trajectory,
    belowFloor,
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
function rotationOfBody2(model: ImportedModel, eq: number): Mat | undefined {
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
function convertRows(type: string, ts: number, rows: number[], R2: Mat | undefined, kind: 'force' | 'position'): number[] {
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

const fmtM = (x: number): string => (Number.isFinite(x) ? x.toFixed(3) : String(x));

/** Bodies below a world plane by more than 1 mm at the end of our run and not in MuJoCo's (see CompareResult.belowFloor). */
function bodiesBelowFloor(
  scene: NonNullable<ModelParseResult['scene']>,
  final: readonly { name: string; position: readonly number[] }[],
  mjBodies: readonly { name: string }[],
  mjXipos: readonly (readonly number[])[],
): CompareResult['belowFloor'] {
  const tol = 1e-3;
  const out: CompareResult['belowFloor'] = [];
  for (const pl of scene.world.shapes) {
    if (pl.type !== 'plane') continue;
    const h = (p: readonly number[]): number => pl.normal[0] * p[0] + pl.normal[1] * p[1] + pl.normal[2] * p[2] - pl.offset;
    final.forEach((b, i) => {
      if (scene.bodies[i]?.fixed || out.some((x) => x.name === b.name)) return;
      const k = mjBodies.findIndex((x, j) => j > 0 && (x.name || `body${j}`) === b.name);
      const mujoco = k >= 0 ? h(mjXipos[k]) : NaN;
      const ours = h(b.position);
      if (!(ours >= -tol) && !(mujoco < -tol)) out.push({ name: b.name, ours, mujoco });
    });
  }
  return out;
}
