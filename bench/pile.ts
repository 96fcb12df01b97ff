// The falling pile: N boxes dropped in layers onto a plane, for the contact benchmark. The same
// boxes, poses, masses, friction and time step for the engine (scene JSON, both contact
// formulations) and for MuJoCo (MJCF: free bodies with box geoms and a plane, contacts on).
import { parseScene, Simulation } from '../src/engine';
import { importBuild, loadModel, type MjDataLike } from './mujoco';
import { packageVersion } from './versions';

export interface PileParams {
  n: number;
  /** Box half extent (m), mass (kg), friction μ (every shape; combined μ is the same in both). */
  half: number;
  mass: number;
  friction: number;
  dt: number;
  gravity: [number, number, number];
  /** Bodies: position [x, y, z] and orientation [x, y, z, w]. */
  poses: { p: [number, number, number]; q: [number, number, number, number] }[];
}

/** A small deterministic PRNG (mulberry32), so every contender drops the same pile. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * N boxes (0.2 m cubes, 1 kg) on a side × side grid (side = ⌈√(N/4)⌉), layer after layer 0.3 m
 * apart from 0.15 m up, each shifted by up to ±4 cm, turned about z at random and tilted by up
 * to 0.2 rad, so that they land on edges and corners and pile up.
 */
export function pileParams(n: number, seed = 7): PileParams {
  const r = rng(seed);
  const side = Math.max(1, Math.ceil(Math.sqrt(n / 4)));
  const poses: PileParams['poses'] = [];
  for (let k = 0; k < n; k++) {
    const layer = Math.floor(k / (side * side));
    const i = k % side, j = Math.floor((k % (side * side)) / side);
    const x = (i - (side - 1) / 2) * 0.26 + (r() - 0.5) * 0.08;
    const y = (j - (side - 1) / 2) * 0.26 + (r() - 0.5) * 0.08;
    const z = 0.15 + 0.3 * layer + r() * 0.05;
    // yaw about z, then a tilt about a horizontal axis
    const yaw = r() * 2 * Math.PI, tilt = (r() - 0.5) * 0.4, ax = r() * 2 * Math.PI;
    const qz: [number, number, number, number] = [0, 0, Math.sin(yaw / 2), Math.cos(yaw / 2)];
    const qt: [number, number, number, number] = [Math.cos(ax) * Math.sin(tilt / 2), Math.sin(ax) * Math.sin(tilt / 2), 0, Math.cos(tilt / 2)];
    poses.push({ p: [x, y, z], q: qmul(qt, qz) });
  }
  return { n, half: 0.1, mass: 1, friction: 0.5, dt: 0.005, gravity: [0, 0, -9.81], poses };
}

function qmul(a: number[], b: number[]): [number, number, number, number] {
  const [ax, ay, az, aw] = a, [bx, by, bz, bw] = b;
  return [aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx, aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz];
}

const boxInertia = (p: PileParams): number => (p.mass / 3) * 2 * p.half * p.half;

/** What a contender's pile may set: fields of `solver.pgs` (e.g. `{ acceleration: 'none' }`: plain Gauss–Seidel sweeps), sleeping islands. */
export interface PileOptions {
  pgs?: Record<string, number | string>;
  /** Sleeping islands: `solver.contacts.sleep` in the engine, `<flag sleep="enable"/>` in MuJoCo (default tolerance 1e-3 m/s in both). */
  sleep?: boolean;
}

export function pileSceneText(p: PileParams, formulation: 'velocity' | 'nonlinear', opts: PileOptions = {}): string {
  const I = boxInertia(p);
  return JSON.stringify({
    name: `pile of ${p.n} boxes`,
    gravity: p.gravity,
    solver: { dt: p.dt, steps: 300, formulation, ...(opts.pgs ? { pgs: opts.pgs } : {}), ...(opts.sleep ? { contacts: { sleep: true } } : {}) },
    world: { shapes: [{ type: 'plane', name: 'ground', friction: p.friction }] },
    bodies: p.poses.map((b, k) => ({
      name: `box${k}`,
      mass: p.mass,
      inertia: [I, I, I],
      position: b.p,
      orientation: b.q,
      shapes: [{ type: 'box', halfExtents: [p.half, p.half, p.half], friction: p.friction }],
    })),
  });
}

/** MJCF: the same boxes as free bodies with box geoms (explicit inertial), a ground plane, Euler, default solver (Newton). */
export function pileMjcf(p: PileParams, opts: PileOptions = {}): string {
  const I = boxInertia(p);
  const option = `timestep="${p.dt}" gravity="${p.gravity.join(' ')}" integrator="Euler"`;
  const lines = [
    `<mujoco model="pile${p.n}">`,
    opts.sleep ? `  <option ${option}><flag sleep="enable"/></option>` : `  <option ${option}/>`,
    `  <size memory="${Math.max(64, Math.ceil(p.n / 2))}M"/>`,
    // MuJoCo combines friction by max: equal coefficients give μ in both engines
    `  <default><geom friction="${p.friction} 0.005 0.0001" condim="3"/></default>`,
    '  <worldbody>',
    '    <geom name="ground" type="plane" size="0 0 1"/>',
  ];
  p.poses.forEach((b, k) => {
    const [x, y, z, w] = b.q;
    lines.push(`    <body name="box${k}" pos="${b.p.join(' ')}" quat="${w} ${x} ${y} ${z}">`);
    lines.push('      <freejoint/>');
    lines.push(`      <inertial pos="0 0 0" mass="${p.mass}" diaginertia="${I} ${I} ${I}"/>`);
    lines.push(`      <geom type="box" size="${p.half} ${p.half} ${p.half}"/>`);
    lines.push('    </body>');
  });
  lines.push('  </worldbody>', '</mujoco>');
  return lines.join('\n');
}

/** One contender on the pile: reset, one step, and what the last step did. */
export interface PileRunner {
  reset(): void;
  step(): void;
  /** Contacts (engine: contact points; MuJoCo: ncon), solver iterations and bodies asleep after the last step. */
  last(): { contacts: number; iterations: number; converged: boolean; asleep?: number };
  /** Largest penetration after the last step (m). */
  penetration(): number;
  /** Lowest box centre z (m): the pile has not fallen through the ground when ≥ ~half. */
  lowestZ(): number;
  stopped(): string | undefined;
  dispose(): void;
}

export function makeEnginePile(p: PileParams, formulation: 'velocity' | 'nonlinear', opts: PileOptions = {}): PileRunner {
  const parsed = parseScene(pileSceneText(p, formulation, opts));
  if (!parsed.scene || parsed.hasErrors) throw new Error(`the pile scene was rejected: ${parsed.diagnostics.map((d) => d.message).join('; ')}`);
  const sim = new Simulation(parsed.scene, parsed.sourceMap);
  const last = () => sim.records[sim.records.length - 1];
  return {
    reset: () => sim.reset(),
    step: () => {
      sim.step(1);
    },
    last: () => {
      const r = last();
      if (!r) return { contacts: 0, iterations: 0, converged: true, asleep: 0 };
      return { contacts: r.contactCount ?? 0, iterations: r.newton?.iterations ?? r.pgs?.iterations ?? 0, converged: r.newton?.converged ?? r.pgs?.converged ?? true, asleep: r.asleep ?? 0 };
    },
    penetration: () => last()?.maxPenetration ?? 0,
    lowestZ: () => {
      const r = last();
      let z = Infinity;
      // a record keeps its poses only up to the simulation's maxRecordBodies (500): larger piles read the final state
      if (r && r.poses.length >= 7 * p.n) for (let k = 0; k < p.n; k++) z = Math.min(z, r.poses[7 * k + 2]);
      else if (r) for (const b of sim.result().final.bodies) z = Math.min(z, b.position[2]);
      return z;
    },
    stopped: () => (sim.stopped ? (sim.diagnostics.find((d) => d.severity === 'error')?.message ?? 'stopped') : undefined),
    dispose: () => undefined,
  };
}

interface MjPileData extends MjDataLike {
  ncon: number;
  /** Per tree: ≥ 0 asleep (MuJoCo's sleeping islands). */
  readonly tree_asleep?: ArrayLike<number>;
  /** A vector of handles: each `get` returns one to free with `delete()`, the vector too. */
  readonly contact: { size(): number; get(i: number): { dist: number; delete?(): void } | undefined; delete?(): void } | undefined;
}

/** The pile in MuJoCo 3.14 (`@mujoco/mujoco`, the newest official WebAssembly build). */
export async function makeMujocoPile(p: PileParams, opts: PileOptions = {}): Promise<PileRunner & { version: string }> {
  const mj = await importBuild('@mujoco/mujoco');
  const model = loadModel(mj, pileMjcf(p, opts), p.n);
  const data = new mj.MjData(model) as MjPileData;
  mj.mj_forward(model, data);
  return {
    version: `MuJoCo ${mj.mj_versionString ? mj.mj_versionString() : '?'} (@mujoco/mujoco ${packageVersion('@mujoco/mujoco') ?? '?'})`,
    reset: () => {
      mj.mj_resetData(model, data);
      mj.mj_forward(model, data);
    },
    step: () => mj.mj_step(model, data),
    last: () => {
      // each box is its own tree
      let asleep = 0;
      const ta = opts.sleep ? data.tree_asleep : undefined;
      for (let t = 0; t < (ta?.length ?? 0); t++) if (ta![t] >= 0) asleep++;
      return { contacts: data.ncon, iterations: data.solver_niter[0] ?? 0, converged: true, asleep };
    },
    penetration: () => {
      // MuJoCo's contact distance (negative: penetration)
      let pen = 0;
      const vec = data.contact;
      try {
        for (let i = 0; i < data.ncon; i++) {
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
      let z = Infinity;
      for (let k = 1; k <= p.n; k++) z = Math.min(z, data.xpos[3 * k + 2]);
      return z;
    },
    stopped: () => undefined,
    dispose: () => {
      data.delete();
      model.delete();
    },
  };
}
