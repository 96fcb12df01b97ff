// What MuJoCo's compiled model says about the forces along joints: actuators (transmission, dynamics,
// gain, bias, gear, control and force ranges), spring references, keyframe controls and the
// integrator. Read from the bindings through `DriveFields` (mujoco.ts), so this file imports nothing
// of the importer's and the conversion (actuators.ts) can use its types.
type Num = ArrayLike<number>;

/** How the bindings' arrays and names are read (mujoco.ts provides it). */
export interface DriveFields {
  arr(name: string): Num;
  /** Name of object `i` from its `name_*adr` array. */
  name(adrField: string, i: number): string;
  /** Lower-case enum names by value (e.g. mjtTrn → 'joint'). */
  trn: Map<number, string>;
  dyn: Map<number, string>;
  gain: Map<number, string>;
  bias: Map<number, string>;
  integrators: Map<number, string>;
  integrator: number;
}

export interface CompiledActuator {
  name: string;
  /** 'joint', 'tendon', 'site', … (MuJoCo's mjtTrn, lower case). */
  trntype: string;
  /** The transmission's target id (a joint id for 'joint'). */
  target: number;
  dyntype: string;
  gaintype: string;
  biastype: string;
  /** gainprm and biasprm (10 numbers each). */
  gainprm: number[];
  biasprm: number[];
  /** gear[0] (the scalar of a joint transmission) and all six. */
  gear: number[];
  /** ctrlrange / forcerange when limited (lower < upper: the byte flags are unreadable in the bindings). */
  ctrlRange?: [number, number];
  forceRange?: [number, number];
  /** dynprm[0]: a filter's time constant τ (s). */
  timeConstant: number;
  /** actrange when limited (lower < upper, as ctrlRange). */
  actRange?: [number, number];
  /** Its first activation's index in MuJoCo's act (−1: none). */
  actAdr: number;
}

export interface CompiledDrives {
  actuators: CompiledActuator[];
  /** Per joint: the spring reference of its first qpos (qpos_spring). */
  springRef: number[];
  /** Per keyframe: its ctrl (nu numbers) and its act (na numbers). */
  keyCtrl: number[][];
  keyAct: number[][];
  /** Per joint: the actuator force range (jnt_actfrcrange) when lower < upper. */
  actuatorForceRange: ([number, number] | undefined)[];
  /** MuJoCo's `<option integrator>` in lower case: 'euler', 'rk4', 'implicit', 'implicitfast'. */
  integrator: string;
}

const range = (a: Num, i: number): [number, number] | undefined => (a[2 * i] < a[2 * i + 1] ? [a[2 * i], a[2 * i + 1]] : undefined);

export function snapshotDrives(f: DriveFields, counts: { nu: number; na: number; njnt: number; nkey: number; qposadr: readonly number[] }): CompiledDrives {
  const { nu, njnt, nkey, na } = counts;
  const ids = (n: number) => Array.from({ length: n }, (_, i) => i);
  const trn = f.arr('actuator_trntype'), trnid = f.arr('actuator_trnid');
  const dyn = f.arr('actuator_dyntype'), gt = f.arr('actuator_gaintype'), bt = f.arr('actuator_biastype');
  const gp = f.arr('actuator_gainprm'), bp = f.arr('actuator_biasprm'), gear = f.arr('actuator_gear');
  const cr = f.arr('actuator_ctrlrange'), fr = f.arr('actuator_forcerange');
  const dp = f.arr('actuator_dynprm'), ar = f.arr('actuator_actrange'), aadr = f.arr('actuator_actadr'), keyAct = f.arr('key_act');
  const slice = (a: Num, from: number, n: number) => Array.from({ length: n }, (_, k) => a[from + k] ?? 0);
  const spring = f.arr('qpos_spring'), keyCtrl = f.arr('key_ctrl'), afr = f.arr('jnt_actfrcrange');
  return {
    actuators: ids(nu).map((i) => ({
      name: f.name('name_actuatoradr', i),
      trntype: f.trn.get(trn[i]) ?? String(trn[i]),
      target: trnid[2 * i],
      dyntype: f.dyn.get(dyn[i]) ?? String(dyn[i]),
      gaintype: f.gain.get(gt[i]) ?? String(gt[i]),
      biastype: f.bias.get(bt[i]) ?? String(bt[i]),
      gainprm: slice(gp, 10 * i, 10),
      biasprm: slice(bp, 10 * i, 10),
      gear: slice(gear, 6 * i, 6),
      ...(range(cr, i) ? { ctrlRange: range(cr, i) } : {}),
      ...(range(fr, i) ? { forceRange: range(fr, i) } : {}),
      timeConstant: dp[10 * i] ?? 0,
      ...(range(ar, i) ? { actRange: range(ar, i) } : {}),
      actAdr: aadr[i] ?? -1,
    })),
    springRef: ids(njnt).map((j) => spring[counts.qposadr[j]] ?? 0),
    keyCtrl: ids(nkey).map((k) => slice(keyCtrl, nu * k, nu)),
    keyAct: ids(nkey).map((k) => slice(keyAct, na * k, na)),
    actuatorForceRange: ids(njnt).map((j) => range(afr, j)),
    integrator: f.integrators.get(f.integrator) ?? String(f.integrator),
  };
}
