// The official MuJoCo WebAssembly build (@mujoco/mujoco, Apache-2.0), loaded lazily, once per process.
// Models are compiled from an in-memory virtual file system (MjVFS) that holds only the files the
// importer read and allowed (see files.ts): MuJoCo never touches the disk or the network.
// Everything MuJoCo computes is copied out into plain data (CompiledModel, MujocoState), and every
// WebAssembly handle is deleted before returning.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { probeLimited } from './limited';
import { snapshotDrives } from './mjDrives';
import { snapshotTendons } from './mjTendons';

/** The parts of the bindings the importer uses (typed here: the package's .d.ts needs ESM resolution). */
export type Num = ArrayLike<number>;
export interface Handle {
  delete(): void;
}
export interface MjModelHandle extends Handle {
  [field: string]: unknown;
}
export interface MjDataHandle extends Handle {
  [field: string]: unknown;
}
interface Enum {
  [name: string]: { value: number };
}
export interface MujocoModule {
  MjVFS: new () => Handle & { addBuffer(name: string, data: Uint8Array): void };
  MjModel: { mj_loadXML(name: string, vfs: Handle): MjModelHandle };
  MjData: new (m: MjModelHandle) => MjDataHandle;
  DoubleBuffer: new (n: number) => Handle & { GetView(): Float64Array };
  mj_forward(m: MjModelHandle, d: MjDataHandle): void;
  mj_step(m: MjModelHandle, d: MjDataHandle): void;
  mj_kinematics(m: MjModelHandle, d: MjDataHandle): void;
  mj_resetData(m: MjModelHandle, d: MjDataHandle): void;
  mj_objectVelocity(m: MjModelHandle, d: MjDataHandle, type: number, id: number, res: Handle, local: number): void;
  mjtObj: Enum;
  mjtJoint: Enum;
  mjtGeom: Enum;
  mjtEq: Enum;
  mjtTrn: Enum;
  mjtWrap: Enum;
  mjtDyn: Enum;
  mjtGain: Enum;
  mjtBias: Enum;
  mjtIntegrator: Enum;
  mjtDisableBit: Enum;
  mjtCone?: Enum;
  mjtEnableBit?: Enum;
  mjtSleepPolicy?: Enum;
}

export interface MujocoRuntime {
  mj: MujocoModule;
  /** Wall time of the first load (fetch + compile + instantiate the WebAssembly), ms. */
  loadMs: number;
  /** Where the module was loaded from. */
  source: string;
  /** Models compiled on this instance so far. */
  uses: number;
  /** True once the instance crashed: it is never used again (loadMujoco makes a fresh one). */
  retired: boolean;
}

/**
 * MuJoCo's WebAssembly stopped (an emscripten abort, a trap such as "memory access out of bounds",
 * a stack overflow in its XML reader, memory exhausted). An aborted instance answers every later
 * call with "Aborted(…)", so the instance that crashed is retired and the next model gets a new one.
 */
export class MujocoCrash extends Error {}

let loading: Promise<MujocoRuntime> | undefined;
/** The instance `loading` resolved to. */
let current: MujocoRuntime | undefined;
let factory: ((opts?: object) => Promise<MujocoModule>) | undefined;

/**
 * MuJoCo's WebAssembly, one instance shared by every model until it crashes (later calls share the
 * promise); after a crash (retireMujoco) the next call instantiates the module again, from the
 * already compiled code, so a hostile model cannot poison the models loaded after it. A bundle ships
 * the package's `mujoco.js` and `mujoco.wasm` in `mujoco/` next to itself (scripts/build.mjs); from
 * sources the npm package is imported. Rejects with a readable message when the module cannot be loaded.
 */
export function loadMujoco(): Promise<MujocoRuntime> {
  loading ??= (async () => {
    const t0 = performance.now();
    const bundled = typeof __dirname === 'string' ? join(__dirname, 'mujoco', 'mujoco.js') : '';
    const source = bundled && existsSync(bundled) ? pathToFileURL(bundled).href : '@mujoco/mujoco';
    try {
      factory ??= ((await import(source)) as { default: (opts?: object) => Promise<MujocoModule> }).default;
      // MuJoCo prints warnings through emscripten's print hooks: keep them off stdout.
      const mj = await factory({ print: () => undefined, printErr: () => undefined });
      current = { mj, loadMs: performance.now() - t0, source, uses: 0, retired: false };
      return current;
    } catch (e) {
      loading = undefined;
      throw new Error(`MuJoCo's WebAssembly could not be loaded from ${source}: ${e instanceof Error ? e.message : String(e)}`);
    }
  })();
  return loading;
}

/** Never use `rt` again: the next loadMujoco() instantiates a fresh module. */
export function retireMujoco(rt: MujocoRuntime): void {
  rt.retired = true;
  if (current === rt) {
    current = undefined;
    loading = undefined;
  }
}

/** A compile error MuJoCo reports normally (the instance is fine), not a crash. Running out of its memory is a crash. */
function isMujocoError(e: unknown): boolean {
  if (!(e instanceof Error) || e.constructor.name === 'RuntimeError') return false;
  return /^(MuJoCo Error|Loading error|XML Error)/.test(e.message) && !/allocate|out of memory|Aborted/i.test(e.message);
}

const describe = (e: unknown): string => (e instanceof Error ? `${e.constructor.name}: ${e.message}` : String(e)).replace(/\s+/g, ' ').slice(0, 300);

/**
 * Run `f` (calls into MuJoCo) on `rt`. Any exception other than MuJoCo's own compile errors retires
 * the instance and is rethrown as MujocoCrash.
 */
export function guarded<T>(rt: MujocoRuntime, f: () => T): T {
  if (rt.retired) throw new MujocoCrash("MuJoCo's WebAssembly instance was discarded after a crash");
  try {
    return f();
  } catch (e) {
    if (e instanceof MujocoCrash || isMujocoError(e)) throw e;
    retireMujoco(rt);
    throw new MujocoCrash(describe(e));
  }
}

/** Delete a WebAssembly handle; a crashed instance cannot free anything, and it is discarded anyway. */
export function release(h: Handle | undefined): void {
  try {
    h?.delete();
  } catch {
    // The instance crashed: its memory goes with it.
  }
}

export interface VfsFile {
  /** Path relative to the model's folder, '/'-separated (the model itself: its file name). */
  name: string;
  data: Uint8Array;
}

/**
 * Compile the model `main` from the given files. MuJoCo's error message on failure; `crashed` when
 * the WebAssembly stopped (the instance is retired then).
 */
export function compileModel(rt: MujocoRuntime, main: string, files: readonly VfsFile[]): { model: MjModelHandle } | { error: string; crashed?: boolean } {
  if (rt.retired) return { error: "MuJoCo's WebAssembly instance was discarded after a crash", crashed: true };
  rt.uses++;
  let vfs: (Handle & { addBuffer(name: string, data: Uint8Array): void }) | undefined;
  try {
    return guarded(rt, () => {
      vfs = new rt.mj.MjVFS();
      for (const f of files) vfs.addBuffer(f.name, f.data);
      return { model: rt.mj.MjModel.mj_loadXML(main, vfs) };
    });
  } catch (e) {
    if (e instanceof MujocoCrash) return { error: e.message, crashed: true };
    const msg = e instanceof Error ? e.message : String(e);
    return { error: msg.replace(/^MuJoCo Error:\s*/, '').replace(/^Loading error:\s*/, '').trim() };
  } finally {
    if (!rt.retired) release(vfs);
  }
}

// ---------------------------------------------------------------------------------------------
// Plain copies of the compiled model. Quaternions are converted to [x, y, z, w] (MuJoCo: w first).

export type { Vec3, Quat, JointType, GeomType, EqType, CompiledBody, CompiledJoint, CompiledGeom, CompiledPair, CompiledEquality, CompiledSite, CompiledKey, CompiledModel } from './compiledModel';
import type { Vec3, Quat, JointType, CompiledModel } from './compiledModel';

function field(m: MjModelHandle, name: string): Num | undefined {
  try {
    return (m[name] as Num | undefined) ?? undefined;
  } catch {
    return undefined;
  }
}
const arr = (m: MjModelHandle, name: string): Num => field(m, name) ?? [];
const v3 = (a: Num, i: number): Vec3 => [a[3 * i], a[3 * i + 1], a[3 * i + 2]];
/** MuJoCo [w, x, y, z] at offset 4i → [x, y, z, w]. */
const q4 = (a: Num, i: number): Quat => [a[4 * i + 1], a[4 * i + 2], a[4 * i + 3], a[4 * i]];
const names = (m: MjModelHandle): string => new TextDecoder().decode(Uint8Array.from(arr(m, 'names'), (x) => x & 0xff));
function nameAt(all: string, adr: number): string {
  if (!(adr >= 0) || adr >= all.length) return '';
  const end = all.indexOf('\0', adr);
  return all.slice(adr, end < 0 ? all.length : end);
}
function enumNames(e: Enum, prefix: string): Map<number, string> {
  const out = new Map<number, string>();
  for (const [k, v] of Object.entries(e)) if (k.startsWith(prefix) && v && typeof v.value === 'number') out.set(v.value, k.slice(prefix.length).toLowerCase());
  return out;
}

/**
 * The vertices of mesh `id`'s convex hull as MuJoCo computed it (mesh_graph: numvert, numface,
 * vert_edgeadr[numvert], vert_globalid[numvert], …), or all its vertices when it has no hull.
 */
function meshHull(m: MjModelHandle, id: number): Vec3[] | undefined {
  if (!(id >= 0)) return undefined;
  const vert = arr(m, 'mesh_vert');
  const adr = arr(m, 'mesh_vertadr')[id];
  const num = arr(m, 'mesh_vertnum')[id];
  const graphadr = arr(m, 'mesh_graphadr')[id] ?? -1;
  const graph = arr(m, 'mesh_graph');
  const ids = graphadr >= 0 ? Array.from({ length: graph[graphadr] }, (_, k) => graph[graphadr + 2 + graph[graphadr] + k]) : Array.from({ length: num }, (_, k) => k);
  return ids.map((k) => v3(vert, adr + k));
}

/** Copy what the importer needs out of a compiled model. */
export function snapshotModel(rt: MujocoRuntime, m: MjModelHandle): CompiledModel {
  return guarded(rt, () => snapshotUnguarded(rt, m));
}

function snapshotUnguarded(rt: MujocoRuntime, m: MjModelHandle): CompiledModel {
  // Each read of a model field goes through the bindings (a new view or copy each time): read every
  // array once, not once per element (that made the import quadratic in the number of bodies and geoms).
  const cache = new Map<string, Num>();
  const arr = (mm: MjModelHandle, name: string): Num => {
    let a = cache.get(name);
    if (a === undefined) cache.set(name, (a = Array.from(field(mm, name) ?? [])));
    return a;
  };
  const optional = new Map<string, Num | undefined>();
  const maybe = (name: string): Num | undefined => {
    if (!optional.has(name)) optional.set(name, field(m, name) && Array.from(field(m, name)!));
    return optional.get(name);
  };
  const all = names(m);
  const n = (f: string) => Number(m[f] ?? 0);
  const jt = enumNames(rt.mj.mjtJoint, 'mjJNT_');
  const gt = enumNames(rt.mj.mjtGeom, 'mjGEOM_');
  const et = enumNames(rt.mj.mjtEq, 'mjEQ_');
  const ot = enumNames(rt.mj.mjtObj, 'mjOBJ_');
  const opt = m.opt as { timestep: number; gravity: Num; disableflags: number; enableflags?: number; integrator: number; cone: number; impratio: number; sleep_tolerance?: number; density?: number; viscosity?: number; wind?: Num };
  const sleepBit = rt.mj.mjtEnableBit?.mjENBL_SLEEP?.value ?? 16;
  const disabled = (bit: string, fallback: number) => (Number(opt.disableflags) & ((rt.mj.mjtDisableBit as Record<string, { value: number } | undefined>)[bit]?.value ?? fallback)) !== 0;
  const nq = n('nq');
  const range = (k: number) => Array.from({ length: k }, (_, i) => i);
  const nameAdr = (f: string) => arr(m, f);
  const jointTypes = Array.from(arr(m, 'jnt_type'), (t) => jt.get(t) ?? '');
  const limited = probeLimited(rt.mj as never, m, jointTypes, arr(m, 'jnt_range'), arr(m, 'jnt_margin'), arr(m, 'jnt_qposadr'));
  return {
    name: nameAt(all, 0),
    nq,
    nv: n('nv'),
    timestep: opt.timestep,
    gravity: v3(opt.gravity, 0),
    contactDisabled: disabled('mjDSBL_CONTACT', 16) || disabled('mjDSBL_CONSTRAINT', 1),
    gravityDisabled: disabled('mjDSBL_GRAVITY', 128),
    fluid: { density: Number(opt.density ?? 0), viscosity: Number(opt.viscosity ?? 0), wind: opt.wind ? v3(opt.wind, 0) : [0, 0, 0] },
    filterParentDisabled: (Number(opt.disableflags) & (rt.mj.mjtDisableBit.mjDSBL_FILTERPARENT?.value ?? 1024)) !== 0,
    cone: Number(opt.cone) === (rt.mj.mjtCone?.mjCONE_ELLIPTIC?.value ?? 1) ? 'elliptic' : 'pyramidal',
    impratio: Number(opt.impratio),
    ...((Number(opt.enableflags ?? 0) & sleepBit) !== 0 ? { sleepTolerance: Number(opt.sleep_tolerance ?? 1e-3) } : {}),
    // exclude_signature = (body1 << 16) + body2
    excludes: Array.from(arr(m, 'exclude_signature'), (sig): [number, number] => [Math.floor(sig / 65536), sig % 65536]),
    pairs: range(n('npair')).map((k) => ({
      geom1: arr(m, 'pair_geom1')[k],
      geom2: arr(m, 'pair_geom2')[k],
      condim: arr(m, 'pair_dim')[k],
      friction: arr(m, 'pair_friction')[5 * k],
      margin: arr(m, 'pair_margin')[k],
      gap: arr(m, 'pair_gap')[k],
      solref: [arr(m, 'pair_solref')[2 * k], arr(m, 'pair_solref')[2 * k + 1]],
      solimp: Array.prototype.slice.call(arr(m, 'pair_solimp'), 5 * k, 5 * k + 5) as number[],
    })),
    qpos0: Array.from(arr(m, 'qpos0')),
    bodies: range(n('nbody')).map((i) => ({
      name: nameAt(all, nameAdr('name_bodyadr')[i]),
      parent: arr(m, 'body_parentid')[i],
      mass: arr(m, 'body_mass')[i],
      inertia: v3(arr(m, 'body_inertia'), i),
      ipos: v3(arr(m, 'body_ipos'), i),
      iquat: q4(arr(m, 'body_iquat'), i),
      jntadr: arr(m, 'body_jntadr')[i],
      jntnum: arr(m, 'body_jntnum')[i],
      geomadr: arr(m, 'body_geomadr')[i],
      geomnum: arr(m, 'body_geomnum')[i],
      weldid: arr(m, 'body_weldid')[i],
      gravcomp: arr(m, 'body_gravcomp')[i] ?? 0,
      mocap: (arr(m, 'body_mocapid')[i] ?? -1) >= 0,
      ...sleepPolicy(arr(m, 'tree_sleep_policy')[arr(m, 'body_treeid')[i] ?? -1], rt.mj.mjtSleepPolicy),
      invweight0: [arr(m, 'body_invweight0')[2 * i] ?? 0, arr(m, 'body_invweight0')[2 * i + 1] ?? 0],
    })),
    joints: range(n('njnt')).map((i) => ({
      name: nameAt(all, nameAdr('name_jntadr')[i]),
      type: (jt.get(arr(m, 'jnt_type')[i]) ?? 'free') as JointType,
      body: arr(m, 'jnt_bodyid')[i],
      qposadr: arr(m, 'jnt_qposadr')[i],
      dofadr: arr(m, 'jnt_dofadr')[i],
      // jnt_limited is a byte array the bindings cannot read: MuJoCo is asked (limited.ts); else lower < upper.
      limited: maybe('jnt_limited') ? maybe('jnt_limited')![i] !== 0 : (limited[i] ?? arr(m, 'jnt_range')[2 * i] < arr(m, 'jnt_range')[2 * i + 1]),
      stiffness: arr(m, 'jnt_stiffness')[i] ?? 0,
      range: [arr(m, 'jnt_range')[2 * i] ?? 0, arr(m, 'jnt_range')[2 * i + 1] ?? 0],
      margin: arr(m, 'jnt_margin')[i] ?? 0,
      ...softLimit(arr, m, i),
    })),
    geoms: range(n('ngeom')).map((i) => ({
      name: nameAt(all, nameAdr('name_geomadr')[i]),
      type: gt.get(arr(m, 'geom_type')[i]) ?? String(arr(m, 'geom_type')[i]),
      body: arr(m, 'geom_bodyid')[i],
      size: v3(arr(m, 'geom_size'), i),
      friction: v3(arr(m, 'geom_friction'), i),
      contype: arr(m, 'geom_contype')[i],
      conaffinity: arr(m, 'geom_conaffinity')[i],
      margin: arr(m, 'geom_margin')[i] ?? 0,
      gap: arr(m, 'geom_gap')[i] ?? 0,
      priority: arr(m, 'geom_priority')[i] ?? 0,
      condim: arr(m, 'geom_condim')[i] ?? 3,
      solref: [arr(m, 'geom_solref')[2 * i] ?? 0.02, arr(m, 'geom_solref')[2 * i + 1] ?? 1],
      solimp: Array.prototype.slice.call(arr(m, 'geom_solimp'), 5 * i, 5 * i + 5) as number[],
      solmix: arr(m, 'geom_solmix')[i] ?? 1,
      ...(maybe('geom_fluid') ? { fluid: Array.prototype.slice.call(maybe('geom_fluid'), 12 * i, 12 * i + 12) as number[] } : {}),
      hull: gt.get(arr(m, 'geom_type')[i]) === 'mesh' ? meshHull(m, arr(m, 'geom_dataid')[i]) : undefined,
    })),
    equalities: range(n('neq')).map((i) => {
      const data = Array.prototype.slice.call(arr(m, 'eq_data'), 11 * i, 11 * i + 11) as number[];
      return {
        name: nameAt(all, nameAdr('name_eqadr')[i]),
        type: et.get(arr(m, 'eq_type')[i]) ?? String(arr(m, 'eq_type')[i]),
        obj1: arr(m, 'eq_obj1id')[i],
        obj2: arr(m, 'eq_obj2id')[i],
        objtype: ot.get(arr(m, 'eq_objtype')[i]) ?? String(arr(m, 'eq_objtype')[i]),
        data,
        // eq_active0 is a byte array too: undefined here, the importer reads `active` from the XML.
        active: maybe('eq_active0')?.[i] !== 0,
        solref: [arr(m, 'eq_solref')[2 * i], arr(m, 'eq_solref')[2 * i + 1]],
        solimp: Array.prototype.slice.call(arr(m, 'eq_solimp'), 5 * i, 5 * i + 5) as number[],
      };
    }),
    sites: range(n('nsite')).map((i) => ({
      name: nameAt(all, nameAdr('name_siteadr')[i]),
      body: arr(m, 'site_bodyid')[i],
      pos: v3(arr(m, 'site_pos'), i),
      quat: q4(arr(m, 'site_quat'), i),
    })),
    keys: range(n('nkey')).map((i) => ({
      name: nameAt(all, nameAdr('name_keyadr')[i]),
      qpos: Array.prototype.slice.call(arr(m, 'key_qpos'), nq * i, nq * i + nq) as number[],
      qvel: Array.prototype.slice.call(arr(m, 'key_qvel'), n('nv') * i, n('nv') * i + n('nv')) as number[],
    })),
    drives: snapshotDrives(
      { arr: (f) => arr(m, f), name: (f, i) => nameAt(all, nameAdr(f)[i]), trn: enumNames(rt.mj.mjtTrn, 'mjTRN_'), dyn: enumNames(rt.mj.mjtDyn, 'mjDYN_'), gain: enumNames(rt.mj.mjtGain, 'mjGAIN_'), bias: enumNames(rt.mj.mjtBias, 'mjBIAS_'), integrators: enumNames(rt.mj.mjtIntegrator, 'mjINT_'), integrator: Number(opt.integrator) },
      { nu: n('nu'), na: n('na'), njnt: n('njnt'), nkey: n('nkey'), qposadr: Array.from(arr(m, 'jnt_qposadr')) },
    ),
    tendons: snapshotTendons({ arr: (f) => arr(m, f), name: (i) => nameAt(all, nameAdr('name_tendonadr')[i]), wrap: enumNames(rt.mj.mjtWrap, 'mjWRAP_') }, n('ntendon')),
    dofDamping: Array.from(arr(m, 'dof_damping')),
    dofArmature: Array.from(arr(m, 'dof_armature')),
    dofFrictionloss: Array.from(arr(m, 'dof_frictionloss')),
    counts: {
      tendons: n('ntendon'),
      actuators: n('nu'),
      sensors: n('nsensor'),
      flexes: n('nflex'),
      pairs: n('npair'),
      excludes: n('nexclude'),
      skins: n('nskin'),
    },
  };
}

/** World-frame kinematics of one state (MuJoCo's mj_forward), per body / joint / geom. */
export interface MujocoState {
  qpos: number[];
  qvel: number[];
  /** Centre of mass and principal inertial frame (ximat, row-major) per body. */
  xipos: Vec3[];
  ximat: number[][];
  /** Body frame. */
  xpos: Vec3[];
  xquat: Quat[];
  xmat: number[][];
  /** Joint anchor and axis (world). */
  xanchor: Vec3[];
  xaxis: Vec3[];
  geomXpos: Vec3[];
  geomXmat: number[][];
  siteXpos: Vec3[];
  /** Velocity of each body's centre of mass: [ω (3), v (3)], world frame (mj_objectVelocity, mjOBJ_BODY). */
  cvel: number[][];
  /** The controls and activations of the keyframe the state came from (absent: zero). */
  ctrl?: number[];
  act?: number[];
}

const mats = (a: Num, k: number): number[][] => Array.from({ length: k }, (_, i) => Array.from({ length: 9 }, (_, j) => a[9 * i + j]));
const vecs = (a: Num, k: number): Vec3[] => Array.from({ length: k }, (_, i) => v3(a, i));

/** Set (qpos, qvel), run mj_forward and copy the kinematics out. */
export function stateOf(rt: MujocoRuntime, m: MjModelHandle, qpos: readonly number[], qvel: readonly number[]): MujocoState {
  return guarded(rt, () => stateOfUnguarded(rt, m, qpos, qvel));
}

function stateOfUnguarded(rt: MujocoRuntime, m: MjModelHandle, qpos: readonly number[], qvel: readonly number[]): MujocoState {
  const d = new rt.mj.MjData(m);
  const res = new rt.mj.DoubleBuffer(6);
  try {
    (d.qpos as Float64Array).set(qpos);
    (d.qvel as Float64Array).set(qvel);
    rt.mj.mj_forward(m, d);
    return readState(rt, m, d, res);
  } finally {
    res.delete();
    d.delete();
  }
}

export function readState(rt: MujocoRuntime, m: MjModelHandle, d: MjDataHandle, res: Handle & { GetView(): Float64Array }): MujocoState {
  const nb = Number(m.nbody), nj = Number(m.njnt), ng = Number(m.ngeom), ns = Number(m.nsite);
  const body = rt.mj.mjtObj.mjOBJ_BODY.value;
  const cvel = Array.from({ length: nb }, (_, i) => {
    rt.mj.mj_objectVelocity(m, d, body, i, res, 0);
    return Array.from(res.GetView());
  });
  const a = (f: string) => d[f] as Num;
  return {
    qpos: Array.from(a('qpos')),
    qvel: Array.from(a('qvel')),
    xipos: vecs(a('xipos'), nb),
    ximat: mats(a('ximat'), nb),
    xpos: vecs(a('xpos'), nb),
    xquat: ((xq) => Array.from({ length: nb }, (_, i) => q4(xq, i)))(Array.from(a('xquat'))),
    xmat: mats(a('xmat'), nb),
    xanchor: vecs(a('xanchor'), nj),
    xaxis: vecs(a('xaxis'), nj),
    geomXpos: vecs(a('geom_xpos'), ng),
    geomXmat: mats(a('geom_xmat'), ng),
    siteXpos: vecs(a('site_xpos'), ns),
    cvel,
  };
}

/** A joint's limit as MuJoCo's soft constraint: jnt_solref, jnt_solimp and dof_invweight0 (its first dof). */
function softLimit(arr: (m: MjModelHandle, name: string) => Num, m: MjModelHandle, i: number): { solref?: [number, number]; solimp?: number[]; invweight0?: number } {
  const ref = arr(m, 'jnt_solref'), imp = arr(m, 'jnt_solimp'), w = arr(m, 'dof_invweight0'), dof = arr(m, 'jnt_dofadr')[i];
  if (ref.length < 2 * (i + 1) || imp.length < 5 * (i + 1)) return {};
  return { solref: [ref[2 * i], ref[2 * i + 1]], solimp: Array.from({ length: 5 }, (_, k) => imp[5 * i + k]), ...(w[dof] > 0 ? { invweight0: w[dof] } : {}) };
}

/** A tree's compiled sleep policy as a body's `sleep` (mjtSleepPolicy: AUTO 0, AUTO_NEVER 1, AUTO_ALLOWED 2, NEVER 3, ALLOWED 4, INIT 5). */
function sleepPolicy(policy: number | undefined, names: Enum | undefined): { sleep?: 'never' | 'allowed' | 'init' } {
  if (policy === undefined) return {};
  const is = (name: string, fallback: number) => policy === (names?.[name]?.value ?? fallback);
  if (is('mjSLEEP_NEVER', 3) || is('mjSLEEP_AUTO_NEVER', 1)) return { sleep: 'never' };
  if (is('mjSLEEP_ALLOWED', 4)) return { sleep: 'allowed' };
  if (is('mjSLEEP_INIT', 5)) return { sleep: 'init' };
  return {};
}
