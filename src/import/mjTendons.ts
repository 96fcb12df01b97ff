// What MuJoCo's compiled model says about its tendons: the path (MuJoCo's wraps: joints of a fixed
// tendon; sites, wrapping geoms and pulleys of a spatial one), limits, spring, damping, friction loss,
// the length at qpos0. Read from the bindings through `TendonFields` (mujoco.ts provides it), so this
// file imports nothing of the importer's. `tendon_limited` is a byte array the bindings cannot read:
// the conversion (tendons.ts) takes a tendon as limited when its range is not empty.
type Num = ArrayLike<number>;

export interface TendonFields {
  arr(name: string): Num;
  /** Name of tendon `i` (name_tendonadr). */
  name(i: number): string;
  /** Lower-case wrap type names by value (mjtWrap: 'joint', 'site', 'sphere', 'cylinder', 'pulley'). */
  wrap: Map<number, string>;
}

export interface CompiledWrap {
  /** 'joint', 'site', 'sphere', 'cylinder', 'pulley' (MuJoCo's mjtWrap, lower case). */
  type: string;
  /** The joint, site or geom id (−1 for a pulley). */
  obj: number;
  /** A joint's coefficient, a pulley's divisor, a wrapping geom's side site. */
  prm: number;
}

export interface CompiledTendon {
  name: string;
  wraps: CompiledWrap[];
  range: [number, number];
  margin: number;
  stiffness: number;
  damping: number;
  frictionloss: number;
  armature: number;
  /** The spring's dead band [lower, upper] (tendon_lengthspring). */
  lengthspring: [number, number];
  /** The length at qpos0 (tendon_length0): tendon equalities measure from it. */
  length0: number;
}

export function snapshotTendons(f: TendonFields, ntendon: number): CompiledTendon[] {
  const adr = f.arr('tendon_adr'), num = f.arr('tendon_num');
  const wt = f.arr('wrap_type'), wo = f.arr('wrap_objid'), wp = f.arr('wrap_prm');
  const range = f.arr('tendon_range'), margin = f.arr('tendon_margin'), stiff = f.arr('tendon_stiffness');
  const damp = f.arr('tendon_damping'), fl = f.arr('tendon_frictionloss'), arm = f.arr('tendon_armature');
  const ls = f.arr('tendon_lengthspring'), l0 = f.arr('tendon_length0');
  return Array.from({ length: ntendon }, (_, i) => ({
    name: f.name(i),
    wraps: Array.from({ length: num[i] ?? 0 }, (_, k) => {
      const w = (adr[i] ?? 0) + k;
      return { type: f.wrap.get(wt[w]) ?? String(wt[w]), obj: wo[w], prm: wp[w] ?? 0 };
    }),
    range: [range[2 * i] ?? 0, range[2 * i + 1] ?? 0],
    margin: margin[i] ?? 0,
    stiffness: stiff[i] ?? 0,
    damping: damp[i] ?? 0,
    frictionloss: fl[i] ?? 0,
    armature: arm[i] ?? 0,
    lengthspring: [ls[2 * i] ?? 0, ls[2 * i + 1] ?? 0],
    length0: l0[i] ?? 0,
  }));
}
