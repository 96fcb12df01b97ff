// MuJoCo (official WebAssembly builds) on the benchmark chain: N free bodies joined by `<connect>`
// equality constraints, timed per `mj_step`. Two builds while both exist:
//   @mujoco/mujoco (newest, MuJoCo 3.14)  — `MjModel.from_xml_string`
//   mujoco-js      (MuJoCo 3.3.8)         — the XML goes through the wasm file system
// Both are ES modules; the bench is bundled as CommonJS with them external, so they are loaded
// with a dynamic `import()` (kept as a real import() by esbuild for node20).
import { chainJointError, chainMjcf, type ChainParams } from './chain';
import { packageVersion } from './versions';
import type { Peer, PeerChain } from './peer';

/** The parts of the MuJoCo module this file uses (see the packages' .d.ts). */
interface MjOptionLike {
  solver: number;
  jacobian: number;
  integrator: number;
  iterations: number;
  tolerance: number;
}
interface MjModelLike {
  nv: number;
  neq: number;
  opt: MjOptionLike;
  readonly eq_solref: ArrayLike<number>;
  readonly eq_solimp: ArrayLike<number>;
  delete(): void;
}
export interface MjDataLike {
  nefc: number;
  readonly xpos: ArrayLike<number>;
  readonly xquat: ArrayLike<number>;
  readonly solver_niter: ArrayLike<number>;
  delete(): void;
}
export interface MujocoModule {
  FS?: { mkdir(path: string): void; writeFile(path: string, data: string): void; unlink(path: string): void };
  MjModel: { loadFromXML?(path: string): MjModelLike; from_xml_string?(xml: string): MjModelLike };
  MjData: new (m: MjModelLike) => MjDataLike;
  mj_step(m: MjModelLike, d: MjDataLike): void;
  mj_forward(m: MjModelLike, d: MjDataLike): void;
  mj_resetData(m: MjModelLike, d: MjDataLike): void;
  mj_versionString?: () => string;
}

export type MjSolver = 'Newton' | 'CG' | 'PGS';
export type MjJacobian = 'dense' | 'sparse' | 'auto';
export type MujocoBuild = '@mujoco/mujoco' | 'mujoco-js';

const SOLVERS: MjSolver[] = ['PGS', 'CG', 'Newton'];
const JACOBIANS: MjJacobian[] = ['dense', 'sparse', 'auto'];
const INTEGRATORS = ['Euler', 'RK4', 'implicit', 'implicitfast'];

export async function importBuild(build: MujocoBuild): Promise<MujocoModule> {
  // Literal specifiers so that esbuild sees (and keeps external) both packages.
  const mod = (build === '@mujoco/mujoco' ? await import('@mujoco/mujoco') : await import('mujoco-js')) as unknown as {
    default: () => Promise<MujocoModule>;
  };
  const mj = await mod.default();
  if (!mj.MjModel.from_xml_string && mj.FS) {
    try {
      mj.FS.mkdir('/working');
    } catch {
      // already there
    }
  }
  return mj;
}

/**
 * The arena (`<size memory>`). MuJoCo's automatic sizing asks for more than the 2 GB a wasm32
 * heap can have from N ≈ 1000 on (loading fails with "Cannot enlarge memory"); 0.1 MB per link
 * is ample for this chain (N = 3000 with a sparse Jacobian uses well under 300 MB).
 */
export function arenaFor(n: number): string {
  return `${Math.max(64, Math.ceil(n / 10))}M`;
}

export interface MujocoChain extends PeerChain {
  /** Switch solver / Jacobian (model options, changed at run time) and reset the chain. */
  use(solver: MjSolver, jacobian: MjJacobian): void;
  settings(): Record<string, unknown>;
}

export function loadModel(mj: MujocoModule, xml: string, n: number): MjModelLike {
  if (mj.MjModel.from_xml_string) return mj.MjModel.from_xml_string(xml);
  if (!mj.FS || !mj.MjModel.loadFromXML) throw new Error('this MuJoCo build has neither from_xml_string nor a file system');
  const path = `/working/chain${n}.xml`;
  mj.FS.writeFile(path, xml);
  try {
    return mj.MjModel.loadFromXML(path);
  } finally {
    mj.FS.unlink(path);
  }
}

function makeChain(mj: MujocoModule, p: ChainParams, solver: MjSolver, jacobian: MjJacobian): MujocoChain {
  const memory = arenaFor(p.n);
  const model = loadModel(mj, chainMjcf(p, { solver, jacobian, memory }), p.n);
  const data = new mj.MjData(model);
  mj.mj_forward(model, data);
  const reset = () => {
    mj.mj_resetData(model, data);
    mj.mj_forward(model, data);
  };
  return {
    reset,
    use: (s, j) => {
      model.opt.solver = SOLVERS.indexOf(s);
      model.opt.jacobian = JACOBIANS.indexOf(j);
      reset();
    },
    step: () => mj.mj_step(model, data),
    lastStepInfo: () => ({ nefc: data.nefc, iterations: data.solver_niter[0] }),
    jointError: () => {
      const xpos = data.xpos;
      const xquat = data.xquat; // [w, x, y, z] per body; body 0 is the world
      return chainJointError(p, (k) => {
        const b = k + 1;
        return {
          pos: [xpos[3 * b], xpos[3 * b + 1], xpos[3 * b + 2]],
          quatXyzw: [xquat[4 * b + 1], xquat[4 * b + 2], xquat[4 * b + 3], xquat[4 * b]],
        };
      });
    },
    tipZ: () => data.xpos[3 * p.n + 2],
    settings: () => {
      const o = model.opt;
      return {
        solver: SOLVERS[o.solver] ?? String(o.solver),
        jacobian: JACOBIANS[o.jacobian] ?? String(o.jacobian),
        integrator: INTEGRATORS[o.integrator] ?? String(o.integrator),
        iterations: o.iterations,
        tolerance: o.tolerance,
        solref: Array.from(model.eq_solref).slice(0, 2),
        solimp: Array.from(model.eq_solimp).slice(0, 5),
        memory,
      };
    },
    dispose: () => {
      data.delete();
      model.delete();
    },
  };
}

/**
 * Load a MuJoCo build and return it as a peer (main configuration Newton + sparse Jacobian).
 * `variants` adds CG + sparse (N ≤ 1000) and Newton + dense (N ≤ 100).
 */
export async function loadMujocoPeer(build: MujocoBuild, opts: { variants: boolean }): Promise<Peer> {
  const mj = await importBuild(build);
  const mjVersion = mj.mj_versionString ? mj.mj_versionString() : 'unknown';
  const pkg = `${build} ${packageVersion(build) ?? '?'}`;
  let lastSettings: Record<string, unknown> = {};
  const peer: Peer = {
    id: build === '@mujoco/mujoco' ? 'mujoco' : 'mujoco-old',
    label: `MuJoCo ${mjVersion}`,
    version: `MuJoCo ${mjVersion} (${pkg}, WebAssembly, single thread)`,
    describe: () =>
      `mj_step per step. N free bodies (<freejoint/>, explicit <inertial> 1 kg, diag 0.01, no geoms → no contacts), ` +
      `one <connect> equality per joint (soft constraints, default solref/solimp), integrator Euler, timestep 0.005, ` +
      `Newton + sparse Jacobian; <size memory> = max(64, N/10) MB, set explicitly (the automatic arena of the mujoco-js build exceeds the 2 GB wasm heap at N ≈ 1000)`,
    settings: () => lastSettings,
    make: (p) => {
      const c = makeChain(mj, p, 'Newton', 'sparse');
      lastSettings = c.settings();
      return c;
    },
  };
  if (opts.variants) {
    peer.variants = (p) => {
      // Each variant compiles its own model, which takes seconds from N ≈ 1000 on (4 s of CPU at N = 3000).
      if (p.n > 1000) return [];
      const configs: [MjSolver, MjJacobian][] = [['CG', 'sparse']];
      if (p.n <= 100) configs.push(['Newton', 'dense']);
      return configs.map(([s, j]) => ({
        label: `${s}/${j}`,
        make: () => {
          const c = makeChain(mj, p, s, j);
          c.use(s, j);
          return c;
        },
      }));
    };
  }
  return peer;
}
