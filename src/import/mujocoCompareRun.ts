// MuJoCo's own run of a model (mj_step), for the comparison with the exact solve (compare.ts): the
// equality rows (efc_force, efc_pos, R, diagA) after every step, the other rows' counts, warnings,
// and the state (qpos, qvel, centres of mass) for the joint-space comparison.
import type { MujocoTrack } from './compareTrajectory';
import { guarded, readState, type MjModelHandle, type MujocoRuntime, type MujocoState, type Num } from './mujoco';

/** MuJoCo's constraint rows that are not equalities (counts in one state). */
export interface OtherRows {
  friction: number;
  limits: number;
  contacts: number;
}

/** MuJoCo's own run of the model, for the comparison (compare.ts). */
export interface MujocoRun {
  /** Per recorded step: time, per equality the efc rows' force and violation (efc_pos), solver iterations, the state (qpos, qvel, xipos). */
  steps: { t: number; eqForce: number[][]; eqPos: number[][]; eqR: number[][]; eqDiagA: number[][]; iterations: number; other: OtherRows; track: MujocoTrack }[];
  warnings: { name: string; count: number }[];
  /** The state after the run. */
  final: MujocoState;
}

/** Step MuJoCo `steps` times from (qpos, qvel), recording the equality rows after every mj_step (forward at the new state). */
/** `controls`: the keyframe's ctrl and act (absent: zero), so that actuated models run as the engine's does. */
export function runMujoco(rt: MujocoRuntime, m: MjModelHandle, qpos: readonly number[], qvel: readonly number[], steps: number, controls: { ctrl?: readonly number[]; act?: readonly number[] } = {}): MujocoRun {
  return guarded(rt, () => runMujocoUnguarded(rt, m, qpos, qvel, steps, controls));
}

function runMujocoUnguarded(rt: MujocoRuntime, m: MjModelHandle, qpos: readonly number[], qvel: readonly number[], steps: number, controls: { ctrl?: readonly number[]; act?: readonly number[] }): MujocoRun {
  const d = new rt.mj.MjData(m);
  const res = new rt.mj.DoubleBuffer(6);
  try {
    (d.qpos as Float64Array).set(qpos);
    (d.qvel as Float64Array).set(qvel);
    const ctrl = d.ctrl as Float64Array | undefined, act = d.act as Float64Array | undefined;
    if (controls.ctrl && ctrl && controls.ctrl.length === ctrl.length) ctrl.set(controls.ctrl);
    if (controls.act && act && controls.act.length === act.length) act.set(controls.act);
    const neq = Number(m.neq);
    const record = (): MujocoRun['steps'][number] => {
      const nefc = Number(d.nefc);
      const type = d.efc_type as Num, id = d.efc_id as Num;
      const force = d.efc_force as Num, pos = d.efc_pos as Num, R = d.efc_R as Num, diagA = d.efc_diagA as Num;
      const rows = (): number[][] => Array.from({ length: neq }, () => []);
      const eqForce = rows(), eqPos = rows(), eqR = rows(), eqDiagA = rows();
      const other: OtherRows = { friction: 0, limits: 0, contacts: 0 };
      for (let r = 0; r < nefc; r++) {
        // mjtConstraint: 0 equality, 1–2 friction loss, 3–4 limits, 5–7 contacts
        if (type[r] !== 0) {
          if (type[r] <= 2) other.friction++;
          else if (type[r] <= 4) other.limits++;
          else other.contacts++;
          continue;
        }
        eqForce[id[r]].push(force[r]);
        eqPos[id[r]].push(pos[r]);
        eqR[id[r]].push(R[r]);
        eqDiagA[id[r]].push(diagA[r]);
      }
      const niter = d.solver_niter as Num;
      const track = { qpos: Array.from(d.qpos as Num), qvel: Array.from(d.qvel as Num), xipos: Array.from(d.xipos as Num) };
      return { t: Number(d.time), eqForce, eqPos, eqR, eqDiagA, iterations: niter[0] ?? 0, other, track };
    };
    rt.mj.mj_forward(m, d);
    const out: MujocoRun['steps'] = [record()];
    for (let k = 0; k < steps; k++) {
      rt.mj.mj_step(m, d);
      rt.mj.mj_forward(m, d);
      out.push(record());
    }
    // A view into MjData (deleting it would free MjData's memory): read, never delete.
    const warn = d.warning as { size(): number; get(i: number): { number: number } | undefined };
    const labels = ['inertia', 'contactfull', 'cnstrfull', 'badqpos', 'badqvel', 'badqacc', 'badctrl'];
    const warnings: MujocoRun['warnings'] = [];
    for (let i = 0; i < Math.min(warn.size(), labels.length); i++) {
      const w = warn.get(i);
      if (w && w.number > 0) warnings.push({ name: labels[i], count: w.number });
    }
    return { steps: out, warnings, final: readState(rt, m, d, res) };
  } finally {
    res.delete();
    d.delete();
  }
}
