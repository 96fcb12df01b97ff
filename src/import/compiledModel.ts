// The plain copies of MuJoCo's compiled model that the importer reads (mujoco.ts fills them). Quaternions
// are [x, y, z, w] (MuJoCo: w first).
import type { CompiledDrives } from './mjDrives';
import type { CompiledTendon } from './mjTendons';

export type Vec3 = [number, number, number];
export type Quat = [number, number, number, number];
export type JointType = 'free' | 'ball' | 'slide' | 'hinge';
export type GeomType = 'plane' | 'hfield' | 'sphere' | 'capsule' | 'ellipsoid' | 'cylinder' | 'box' | 'mesh' | 'sdf' | string;
export type EqType = 'connect' | 'weld' | 'joint' | 'tendon' | 'flex' | string;

export interface CompiledBody {
  name: string;
  parent: number;
  mass: number;
  /** Principal moments of inertia, in the inertial frame (ipos, iquat) of the body frame. */
  inertia: Vec3;
  ipos: Vec3;
  iquat: Quat;
  jntadr: number;
  jntnum: number;
  geomadr: number;
  geomnum: number;
  /** Id of the body this one is welded to (0: the world). */
  weldid: number;
  gravcomp: number;
  /** MuJoCo's body_invweight0 [translation, rotation] (1/kg, 1/(kg·m²)) at qpos0: the articulated body's mean inverse weight. */
  invweight0: [number, number];
  mocap: boolean;
  /** Its tree's sleep policy as compiled (tree_sleep_policy): 'never' (NEVER, AUTO_NEVER), 'allowed' (ALLOWED), 'init' (INIT); absent: auto. */
  sleep?: 'never' | 'allowed' | 'init';
}
export interface CompiledJoint {
  name: string;
  type: JointType;
  body: number;
  qposadr: number;
  dofadr: number;
  limited: boolean;
  stiffness: number;
  /** jnt_range (qpos units: rad or m) and jnt_margin: a limit's row acts within the margin of a bound. */
  range: [number, number];
  margin: number;
  /** jnt_solref, jnt_solimp (the limit's soft constraint) and dof_invweight0 of its first dof (absent where not read). */
  solref?: [number, number];
  solimp?: number[];
  invweight0?: number;
}
export interface CompiledGeom {
  name: string;
  type: GeomType;
  body: number;
  size: Vec3;
  friction: Vec3;
  contype: number;
  conaffinity: number;
  margin: number;
  gap: number;
  priority: number;
  condim: number;
  /** MuJoCo's geom_solref [timeconst, dampratio] and geom_solimp (5); absent where not read. */
  solref?: [number, number];
  solimp?: number[];
  /** MuJoCo's geom_solmix (the weight of its solref/solimp against the other geom's). */
  solmix: number;
  /**
   * MuJoCo's geom_fluid: [fluidshape (0 none, 1 ellipsoid), blunt, slender, angular drag, Kutta lift,
   * Magnus lift, then the compiled virtual masses and inertias]; absent where not read.
   */
  fluid?: number[];
  /** Mesh geoms: the vertices of MuJoCo's convex hull of the mesh, in the geom frame (else undefined). */
  hull?: Vec3[];
}
/** An explicit contact pair (`<pair>`). */
export interface CompiledPair {
  geom1: number;
  geom2: number;
  condim: number;
  /** Sliding friction (the first of pair_friction's five). */
  friction: number;
  margin: number;
  gap: number;
  /** pair_solref and pair_solimp (a pair's own, not its geoms'). */
  solref: [number, number];
  solimp: number[];
}
export interface CompiledEquality {
  name: string;
  type: EqType;
  obj1: number;
  obj2: number;
  /** 'body' | 'site' | 'joint' | … (MuJoCo's eq_objtype). */
  objtype: string;
  /** eq_data (11 numbers; quaternions inside it stay w-first as MuJoCo stores them). */
  data: number[];
  /** eq_active0 (true when the bindings cannot read it; the XML's `active` attribute decides then). */
  active: boolean;
  solref: [number, number];
  solimp: number[];
}
export interface CompiledSite {
  name: string;
  body: number;
  pos: Vec3;
  quat: Quat;
}
export interface CompiledKey {
  name: string;
  qpos: number[];
  qvel: number[];
}
export interface CompiledModel {
  name: string;
  nq: number;
  nv: number;
  timestep: number;
  gravity: Vec3;
  /** `<flag contact="disable"/>` or `<flag constraint="disable"/>`: MuJoCo computes no contacts. */
  contactDisabled: boolean;
  /** `<flag gravity="disable"/>`: MuJoCo applies no gravity (opt.gravity is kept as written). */
  gravityDisabled: boolean;
  /** `<option density viscosity wind>`: the medium of MuJoCo's fluid forces (density and viscosity 0: none). */
  fluid: { density: number; viscosity: number; wind: Vec3 };
  /** `<flag filterparent="disable"/>`: parent and child bodies may collide. */
  filterParentDisabled: boolean;
  /** `<option cone>`: MuJoCo's friction cone (default pyramidal). */
  cone: 'pyramidal' | 'elliptic';
  /** `<option impratio>`: the ratio of a contact's normal regulariser to its friction's (default 1). */
  impratio: number;
  /** `<flag sleep="enable"/>`: `<option sleep_tolerance>` (m/s); absent when sleeping is off. */
  sleepTolerance?: number;
  /** `<exclude>`d body pairs (body ids, lower first). */
  excludes: [number, number][];
  pairs: CompiledPair[];
  qpos0: number[];
  bodies: CompiledBody[];
  joints: CompiledJoint[];
  geoms: CompiledGeom[];
  equalities: CompiledEquality[];
  sites: CompiledSite[];
  keys: CompiledKey[];
  /** Per dof: damping, armature, frictionloss (for the "not simulated" note). */
  dofDamping: number[];
  dofArmature: number[];
  dofFrictionloss: number[];
  counts: { tendons: number; actuators: number; sensors: number; flexes: number; pairs: number; excludes: number; skins: number };
  /** Actuators, spring references, keyframe controls and the integrator (mjDrives.ts). */
  drives: CompiledDrives;
  /** Tendons (mjTendons.ts). */
  tendons: CompiledTendon[];
}

/** A model array; some byte arrays (mjtByte) are not readable in this build of the bindings: undefined then. */
