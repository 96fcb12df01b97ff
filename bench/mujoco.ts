// MuJoCo (official WebAssembly build, mujoco-js) on the same chain: N free bodies joined by
// `<connect>` equality constraints, timed per `mj_step`.
//
// mujoco-js is an ES module; the bench is bundled as CommonJS with mujoco-js external, so it is
// loaded with a dynamic `import()` (kept as a real import() by esbuild for node20).
import { chainJointError, chainMjcf, type ChainParams } from './chain';

/** The parts of the mujoco-js module this file uses (see node_modules/mujoco-js/dist/mujoco_wasm.d.ts). */
interface MjOptionLike {
  solver: number;
  jacobian: number;
  integrator: number;
  iterations: number;
  tolerance: number;
  ls_iterations: number;
}
interface MjModelLike {
  nbody: number;
  nv: number;
  neq: number;
  opt: MjOptionLike;
  readonly eq_solref: ArrayLike<number>;
  readonly eq_solimp: ArrayLike<number>;
  delete(): void;
}
interface MjDataLike {
  nefc: number;
  readonly xpos: ArrayLike<number>;
  readonly xquat: ArrayLike<number>;
  readonly solver_niter: ArrayLike<number>;
  delete(): void;
}
interface MujocoModule {
  FS: { mkdir(path: string): void; writeFile(path: string, data: string): void; unlink(path: string): void };
  MjModel: { loadFromXML(path: string): MjModelLike };
  MjData: new (m: MjModelLike) => MjDataLike;
  mj_step(m: MjModelLike, d: MjDataLike): void;
  mj_forward(m: MjModelLike, d: MjDataLike): void;
  mj_resetData(m: MjModelLike, d: MjDataLike): void;
  mj_versionString?: () => string;
}

export type MjSolver = 'Newton' | 'CG' | 'PGS';
export type MjJacobian = 'dense' | 'sparse' | 'auto';

let modulePromise: Promise<MujocoModule> | undefined;

/** Load (once) the MuJoCo WebAssembly module. */
export async function loadMujoco(): Promise<MujocoModule> {
  if (!modulePromise) {
    modulePromise = (async () => {
      const mod = (await import('mujoco-js')) as unknown as { default: () => Promise<MujocoModule> };
      const mj = await mod.default();
      try {
        mj.FS.mkdir('/working');
      } catch {
        // already there
      }
      return mj;
    })();
  }
  return modulePromise;
}

export interface MujocoSettings {
  solver: MjSolver;
  jacobian: MjJacobian;
  integrator: string;
  iterations: number;
  tolerance: number;
  /** Of the first equality (all are the same, MuJoCo's defaults). */
  solref: number[];
  solimp: number[];
  /** `<size memory>`: the arena, set explicitly (see `arenaFor`). */
  memory: string;
}

export interface MujocoChain {
  version: string;
  nv: number;
  neq: number;
  /** Settings as MuJoCo reports them (after the last `use`). */
  settings(): MujocoSettings;
  /** Switch solver / Jacobian (model options, changed at run time) and reset the chain to its initial state. */
  use(solver: MjSolver, jacobian: MjJacobian): void;
  step(): void;
  /** Constraint rows and solver iterations of the last step. */
  lastStepInfo(): { nefc: number; iterations: number };
  /** max |x_A − x_B| over the joints (m). */
  jointError(): number;
  /** z of the last link's centre. */
  tipZ(): number;
  dispose(): void;
}

const SOLVERS: MjSolver[] = ['PGS', 'CG', 'Newton'];
const JACOBIANS: MjJacobian[] = ['dense', 'sparse', 'auto'];
const INTEGRATORS = ['Euler', 'RK4', 'implicit', 'implicitfast'];

/**
 * The arena (`<size memory>`). MuJoCo's automatic sizing asks for more than the 2 GB a wasm32
 * heap can have from N ≈ 1000 on (loading fails with "Cannot enlarge memory"); 0.1 MB per link
 * is ample for this chain (N = 3000 with a sparse Jacobian uses well under 300 MB).
 */
export function arenaFor(n: number): string {
  return `${Math.max(64, Math.ceil(n / 10))}M`;
}

/** Load the chain (solver Newton, sparse Jacobian, Euler); `use` switches configurations. */
export async function makeMujocoChain(p: ChainParams, solver: MjSolver = 'Newton', jacobian: MjJacobian = 'sparse'): Promise<MujocoChain> {
  const mj = await loadMujoco();
  const path = `/working/chain${p.n}.xml`;
  const memory = arenaFor(p.n);
  mj.FS.writeFile(path, chainMjcf(p, { solver, jacobian, memory }));
  const model = mj.MjModel.loadFromXML(path);
  mj.FS.unlink(path);
  const data = new mj.MjData(model);
  mj.mj_forward(model, data);
  const settings = (): MujocoSettings => {
    const o = model.opt;
    return {
      solver: SOLVERS[o.solver] ?? (String(o.solver) as MjSolver),
      jacobian: JACOBIANS[o.jacobian] ?? (String(o.jacobian) as MjJacobian),
      integrator: INTEGRATORS[o.integrator] ?? String(o.integrator),
      iterations: o.iterations,
      tolerance: o.tolerance,
      solref: Array.from(model.eq_solref).slice(0, 2),
      solimp: Array.from(model.eq_solimp).slice(0, 5),
      memory,
    };
  };
  return {
    version: mj.mj_versionString ? mj.mj_versionString() : 'unknown',
    nv: model.nv,
    neq: model.neq,
    settings,
    use: (s, j) => {
      model.opt.solver = SOLVERS.indexOf(s);
      model.opt.jacobian = JACOBIANS.indexOf(j);
      mj.mj_resetData(model, data);
      mj.mj_forward(model, data);
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
    dispose: () => {
      data.delete();
      model.delete();
    },
  };
}
