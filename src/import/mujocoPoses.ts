// The engine's body poses read out of MuJoCo's data: the converted scene puts each massive body at its
// centre of mass (xipos) oriented along its principal axes (xquat ⊗ iquat, normalised as convert.ts
// does), so the same formula on any later state of MuJoCo's run gives the poses the engine's records
// carry (7 per scene body: p, then q as [x, y, z, w]), and at the initial state exactly the scene's own.
import type { ImportedModel } from './model';
import type { Quat } from './mujoco';
import { hypot4 } from './geometry';

/** For each scene body, the MuJoCo body it stands for (the massive one; massless bodies merged into it come after). */
export function sceneBodyIds(model: ImportedModel): Int32Array {
  const sceneOf = model.converted.sceneOf;
  const out = new Int32Array(model.converted.scene.bodies.length).fill(-1);
  for (let b = 1; b < sceneOf.length; b++) {
    const i = sceneOf[b];
    if (i >= 0 && out[i] < 0) out[i] = b;
  }
  return out;
}

/**
 * Write the scene bodies' poses from MuJoCo's xipos (3 per body) and xquat (4 per body, w first) into
 * `out` (7 per scene body, from `offset`). `iquat` per MuJoCo body as the compiled model holds it.
 */
export function posesInto(out: Float64Array, ids: Int32Array, iquat: readonly Quat[], xipos: ArrayLike<number>, xquat: ArrayLike<number>, offset = 0): Float64Array {
  for (let i = 0; i < ids.length; i++) {
    const b = ids[i];
    const o = offset + i * 7;
    out[o] = xipos[3 * b];
    out[o + 1] = xipos[3 * b + 1];
    out[o + 2] = xipos[3 * b + 2];
    // xquat ⊗ iquat (Hamilton, [x, y, z, w]) then normalised as qnormalize does, written out in place: this runs on every
    // step of a run, and the arrays qmul and qnormalize return would cost more than the arithmetic
    const ax = xquat[4 * b + 1], ay = xquat[4 * b + 2], az = xquat[4 * b + 3], aw = xquat[4 * b];
    const c = iquat[b];
    const bx = c[0], by = c[1], bz = c[2], bw = c[3];
    const x = aw * bx + ax * bw + ay * bz - az * by;
    const y = aw * by - ax * bz + ay * bw + az * bx;
    const z = aw * bz + ax * by - ay * bx + az * bw;
    const w = aw * bw - ax * bx - ay * by - az * bz;
    const n = hypot4(x, y, z, w);
    if (n > 0) {
      out[o + 3] = x / n;
      out[o + 4] = y / n;
      out[o + 5] = z / n;
      out[o + 6] = w / n;
    } else {
      out[o + 3] = 0;
      out[o + 4] = 0;
      out[o + 5] = 0;
      out[o + 6] = 1;
    }
  }
  return out;
}

/**
 * Write the scene bodies' velocities from MuJoCo's cvel into `out` (6 per scene body: the centre of
 * mass's linear velocity, then the angular velocity, both in world coordinates, as the engine's
 * BodyState holds them). cvel is (ω, v) of each body at the centre of mass of its tree
 * (subtree_com of body_rootid) in world axes, so the velocity at the body's own centre xipos is
 * v + ω × (xipos − subtree_com[root]). Read with xipos of the same kinematics (after mj_step both are
 * of the state the step started from, as the poses).
 */
export function velocitiesInto(out: Float64Array, ids: Int32Array, rootId: ArrayLike<number>, cvel: ArrayLike<number>, xipos: ArrayLike<number>, subtreeCom: ArrayLike<number>, offset = 0): Float64Array {
  for (let i = 0; i < ids.length; i++) {
    const b = ids[i];
    const o = offset + i * 6;
    const r = rootId[b];
    const wx = cvel[6 * b], wy = cvel[6 * b + 1], wz = cvel[6 * b + 2];
    const dx = xipos[3 * b] - subtreeCom[3 * r], dy = xipos[3 * b + 1] - subtreeCom[3 * r + 1], dz = xipos[3 * b + 2] - subtreeCom[3 * r + 2];
    out[o] = cvel[6 * b + 3] + (wy * dz - wz * dy);
    out[o + 1] = cvel[6 * b + 4] + (wz * dx - wx * dz);
    out[o + 2] = cvel[6 * b + 5] + (wx * dy - wy * dx);
    out[o + 3] = wx;
    out[o + 4] = wy;
    out[o + 5] = wz;
  }
  return out;
}
