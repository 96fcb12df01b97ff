// Real robots with contacts in `npm run bench`: public models shipped in the repository with their
// licences (test/fixtures/import/public), imported as a user opens them (no options), stepped by the
// engine (Simulation.step, the import's own contact solver) and by MuJoCo's mj_step on the same
// model and initial state, in the same run. Each: reset, untimed steps, then timed steps, per-step
// medians; the engine's solver convergence and both engines' penetration are reported with them.
//   humanoid   MuJoCo's humanoid from its initial standing pose: it falls onto the floor (contacts
//              come and go, then the body lies on the floor)
//   ant        Gymnasium's ant dropped from its initial height: it lands on its legs and stays at rest
import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Simulation } from '../src/engine';
import { loadModel, nodeFileAccess } from '../src/import/index';
import { compileModel, loadMujoco, release, type MujocoRuntime } from '../src/import/mujoco';
import type { PileRunner } from './pile';
import { timeRunner, type PileTiming } from './pileBench';

export interface RobotCase {
  name: string;
  /** Relative to the repository root. */
  file: string;
  what: string;
  untimed: number;
  timed: number;
}

export const ROBOTS: RobotCase[] = [
  { name: 'humanoid', file: 'test/fixtures/import/public/humanoid/humanoid.xml', what: 'falls onto the floor from standing (steps 101–400 timed)', untimed: 100, timed: 300 },
  { name: 'ant', file: 'test/fixtures/import/public/ant/ant.xml', what: 'lands on its legs, then at rest (steps 201–400 timed)', untimed: 200, timed: 200 },
];

export interface RobotResult {
  name: string;
  what: string;
  timed: number;
  engine: PileTiming;
  mujoco: PileTiming;
  /** The engine's contact formulation on this import (the solver users get). */
  formulation?: string;
}

interface Loaded {
  sim: Simulation;
  rootIdx: number;
  rootName: string;
  qpos: ArrayLike<number>;
  qvel: ArrayLike<number>;
  mainName: string;
  vfs: Map<string, Uint8Array>;
}

async function load(root: string, c: RobotCase): Promise<Loaded> {
  const path = join(root, c.file);
  const parse = await loadModel(path, readFileSync(path, 'utf8'), { files: nodeFileAccess(dirname(path)) });
  if (!parse.scene || !parse.model) throw new Error(`import failed: ${parse.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message).join('; ')}`);
  const rootIdx = parse.scene.bodies.findIndex((b) => !b.fixed);
  return { sim: new Simulation(parse.scene, parse.sourceMap), rootIdx, rootName: parse.scene.bodies[rootIdx]?.name ?? '', qpos: parse.model.state.qpos, qvel: parse.model.state.qvel, mainName: parse.model.mainName, vfs: parse.model.vfs as Map<string, Uint8Array> };
}

function engineRunner(l: Loaded): PileRunner {
  const { sim, rootIdx } = l;
  const last = () => sim.records[sim.records.length - 1];
  return {
    reset: () => sim.reset(),
    step: () => {
      sim.step(1);
    },
    last: () => {
      const r = last();
      if (!r) return { contacts: 0, iterations: 0, converged: true };
      return { contacts: r.contactCount ?? 0, iterations: r.newton?.iterations ?? r.pgs?.iterations ?? 0, converged: r.newton?.converged ?? r.pgs?.converged ?? true };
    },
    penetration: () => last()?.maxPenetration ?? 0,
    lowestZ: () => last()?.poses[7 * rootIdx + 2] ?? NaN,
    stopped: () => (sim.stopped ? (sim.diagnostics.find((d) => d.severity === 'error')?.message ?? 'stopped') : undefined),
    dispose: () => undefined,
  };
}

interface MjRobotData {
  qpos: Float64Array;
  qvel: Float64Array;
  xipos: Float64Array;
  ncon: number;
  solver_niter: ArrayLike<number>;
  contact: { get(i: number): { dist: number; delete?(): void } | undefined; delete?(): void } | undefined;
  delete(): void;
}

function mujocoRunner(rt: MujocoRuntime, l: Loaded): PileRunner {
  const compiled = compileModel(rt, l.mainName, [...l.vfs].map(([name, data]) => ({ name, data })));
  if ('error' in compiled) throw new Error(`MuJoCo: ${compiled.error}`);
  const m = compiled.model;
  const mj = rt.mj as unknown as Record<string, (...a: unknown[]) => void> & { MjData: new (m: unknown) => MjRobotData };
  const d = new mj.MjData(m);
  // the root body's index in MuJoCo, by its name
  const M = m as unknown as Record<string, ArrayLike<number>> & { nbody: number };
  const names = new TextDecoder().decode(Uint8Array.from(M.names, (x) => x & 0xff));
  const nameOf = (b: number) => names.slice(M.name_bodyadr[b], names.indexOf('\0', M.name_bodyadr[b]));
  const rootBody = Array.from({ length: Number(M.nbody) }, (_, b) => b).find((b) => b > 0 && nameOf(b) === l.rootName) ?? 1;
  const reset = () => {
    mj.mj_resetData(m, d);
    d.qpos.set(l.qpos);
    d.qvel.set(l.qvel);
    mj.mj_forward(m, d);
  };
  reset();
  return {
    reset,
    step: () => mj.mj_step(m, d),
    last: () => ({ contacts: d.ncon, iterations: d.solver_niter[0] ?? 0, converged: true }),
    penetration: () => {
      let pen = 0;
      const vec = d.contact;
      try {
        for (let i = 0; i < d.ncon; i++) {
          const c = vec?.get(i);
          pen = Math.max(pen, -(c?.dist ?? 0));
          c?.delete?.();
        }
      } catch {
        return NaN;
      } finally {
        vec?.delete?.();
      }
      return pen;
    },
    lowestZ: () => {
      // mj_step leaves xipos at the step's start: the positions after it need kinematics
      mj.mj_kinematics(m, d);
      return d.xipos[3 * rootBody + 2];
    },
    stopped: () => undefined,
    dispose: () => {
      d.delete();
      release(m);
    },
  };
}

function guard(f: () => PileTiming): PileTiming {
  try {
    return f();
  } catch (e) {
    return { ok: false, reason: e instanceof Error ? e.message : String(e) };
  }
}

/** MuJoCo's mj_step on a model file (compiled by MuJoCo from the same file, the import's initial state), for robotStep.ts. */
export async function mujocoStepper(path: string): Promise<{ reset(): void; step(): void }> {
  const l = await load(dirname(path), { name: path, what: path, file: basename(path), untimed: 0, timed: 0 });
  const mr = mujocoRunner(await loadMujoco(), l);
  return { reset: () => mr.reset(), step: () => mr.step() };
}

export async function runRobotBench(root: string, rounds: number, log: (s: string) => void): Promise<RobotResult[]> {
  const out: RobotResult[] = [];
  let rt: MujocoRuntime | undefined;
  for (const c of ROBOTS) {
    log(`robot ${c.name}: engine… `);
    let l: Loaded;
    try {
      l = await load(root, c);
    } catch (e) {
      const reason = e instanceof Error ? e.message : String(e);
      out.push({ name: c.name, what: c.what, timed: c.timed, engine: { ok: false, reason }, mujoco: { ok: false, reason } });
      log('n/a\n');
      continue;
    }
    const engine = guard(() => timeRunner(engineRunner(l), c.untimed, c.timed, rounds));
    log(`${engine.ok ? `${engine.medianMs!.toFixed(2)} ms` : 'n/a'}; MuJoCo… `);
    let mujoco: PileTiming;
    try {
      rt ??= await loadMujoco();
      const mr = mujocoRunner(rt, l);
      mujoco = guard(() => timeRunner(mr, c.untimed, c.timed, rounds));
      mr.dispose();
    } catch (e) {
      mujoco = { ok: false, reason: e instanceof Error ? e.message : String(e) };
    }
    log(`${mujoco.ok ? `${mujoco.medianMs!.toFixed(3)} ms` : 'n/a'}\n`);
    out.push({ name: c.name, what: c.what, timed: c.timed, engine, mujoco, formulation: l.sim.scene.solver.formulation ?? 'velocity' });
  }
  return out;
}

export function robotTables(results: RobotResult[], table: (h: string[], rows: string[][]) => string): string {
  const ms = (t: PileTiming, clock: 'wall' | 'cpu'): number | undefined => (t.ok ? (clock === 'wall' ? t.medianMs : t.cpuMedianMs) : undefined);
  const cell = (t: PileTiming, clock: 'wall' | 'cpu') => {
    const v = ms(t, clock);
    return v === undefined ? 'n/a' : v.toFixed(v < 1 ? 3 : 2);
  };
  const ratio = (clock: 'wall' | 'cpu', r: RobotResult) => {
    const x = ms(r.engine, clock), y = ms(r.mujoco, clock);
    return x !== undefined && y !== undefined && y > 0 ? `${(x / y).toFixed(x / y < 10 ? 1 : 0)}×` : '—';
  };
  const conv = (t: PileTiming, timed: number) => (t.ok ? `${((100 * (timed - t.unconverged!)) / timed).toFixed(0)} %` : '—');
  const lines = [
    'Robots with contacts (public models shipped in test/fixtures/import/public), per-step median, ms, wall clock / CPU time of the process',
    table(
      ['robot', 'engine', 'MuJoCo 3.14', 'engine/MuJoCo', 'steps converged', 'sweeps mean/max', 'contacts engine / MuJoCo', 'max penetration engine / MuJoCo (m)', 'root z after engine / MuJoCo (m)'],
      results.map((r) => [
        `${r.name} (${r.formulation ?? '?'})`,
        `${cell(r.engine, 'wall')} / ${cell(r.engine, 'cpu')}`,
        `${cell(r.mujoco, 'wall')} / ${cell(r.mujoco, 'cpu')}`,
        `${ratio('wall', r)} / ${ratio('cpu', r)}`,
        conv(r.engine, r.timed),
        r.engine.ok ? `${r.engine.iterations!.toFixed(1)}/${r.engine.maxIterations}` : (r.engine.reason ?? 'n/a'),
        `${r.engine.ok ? r.engine.contacts!.toFixed(1) : '–'} / ${r.mujoco.ok ? r.mujoco.contacts!.toFixed(1) : (r.mujoco.reason ?? '–')}`,
        `${r.engine.ok ? r.engine.penetration!.toExponential(1) : '–'} / ${r.mujoco.ok ? r.mujoco.penetration!.toExponential(1) : '–'}`,
        `${r.engine.ok ? r.engine.lowestZ!.toFixed(3) : '–'} / ${r.mujoco.ok ? r.mujoco.lowestZ!.toFixed(3) : '–'}`,
      ]),
    ),
    ...results.map((r) => `  ${r.name}: ${r.what}`),
    '  engine: Simulation.step(1) of the import (its contact solver and defaults); MuJoCo: mj_step on the model MuJoCo compiles from the same file, same initial state.',
    '  Contacts: the engine counts contact points, MuJoCo ncon. Steps converged: by the solver’s own default tolerance (MuJoCo’s are not counted).',
  ];
  return lines.join('\n');
}
