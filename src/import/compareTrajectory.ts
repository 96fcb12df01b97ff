// The comparison's joint-space and body-position series (compare.ts): per MuJoCo hinge or slide
// joint its q and q̇ in both runs, per moving body the distance between the two centres of mass,
// with the largest deviation and the step it happens at. MuJoCo's q is its qpos (joints are its
// coordinates); ours is the coordinate of the hinge or slider constraint the joint became
// (jointCoordinateReader, 0 at the initial state) plus MuJoCo's initial qpos, so both start equal.
import { jointCoordinateReader, type BodyKinematics } from '../engine';
import type { MujocoTrajectoryOf } from '../protocol';
import type { ImportedModel } from './model';
import type { ImportedScene } from './types';

export type TrajectoryComparison = MujocoTrajectoryOf<number>;

/** At most this many samples per series (the panel draws them; the maxima use every step). */
export const MAX_SAMPLES = 240;

/** MuJoCo's state per recorded step (t = 0 first): qpos, qvel and the centres of mass (xipos, 3 per body). */
export interface MujocoTrack {
  qpos: readonly number[];
  qvel: readonly number[];
  xipos: readonly number[];
}

/** The steps drawn: every step up to MAX_SAMPLES states, else an even stride with the last step. */
export function sampleSteps(states: number, max = MAX_SAMPLES): number[] {
  if (states <= 0) return [];
  if (states <= max) return Array.from({ length: states }, (_, k) => k);
  const stride = Math.ceil((states - 1) / (max - 1));
  const out: number[] = [];
  for (let k = 0; k < states - 1; k += stride) out.push(k);
  out.push(states - 1);
  return out;
}

/** Largest |a − b| over the steps both have as finite numbers (NaN when one of them is not finite), and its step. */
function maxDeviation(a: readonly number[], b: readonly number[]): { max: number; step: number } {
  let max = 0, step = 0;
  for (let k = 0; k < Math.min(a.length, b.length); k++) {
    const d = Math.abs(a[k] - b[k]);
    if (!(d <= max)) {
      // a non-finite deviation (our run blew up) is the largest there is: keep its first step
      if (Number.isNaN(d)) return { max: NaN, step: k };
      max = d;
      step = k;
    }
  }
  return { max, step };
}

/**
 * A hinge angle read as 2·atan2 lies in (−π, π] around the initial pose: unwrap it onto the branch
 * nearest the previous step, as MuJoCo's qpos of a spinning hinge keeps counting turns.
 */
function unwrap(xs: number[]): number[] {
  let offset = 0;
  for (let k = 1; k < xs.length; k++) {
    const raw = xs[k] + offset;
    const prev = xs[k - 1];
    if (!Number.isFinite(raw) || !Number.isFinite(prev)) {
      xs[k] = raw;
      continue;
    }
    const turns = Math.round((prev - raw) / (2 * Math.PI));
    offset += 2 * Math.PI * turns;
    xs[k] = raw + 2 * Math.PI * turns;
  }
  return xs;
}

/**
 * The series of both runs. `mujoco[k]` and `ours[k]` are the states after step k (0: initial);
 * our run may be shorter (it stopped): its missing steps are NaN.
 */
export function compareTrajectory(model: ImportedModel, scene: ImportedScene, mujoco: readonly MujocoTrack[], ours: readonly (readonly BodyKinematics[])[]): TrajectoryComparison {
  const m = model.compiled;
  const states = mujoco.length;
  const samples = sampleSteps(states);
  const pick = (xs: readonly number[]) => samples.map((k) => xs[k] ?? NaN);
  const joints: TrajectoryComparison['joints'] = [];
  m.joints.forEach((j, i) => {
    if (j.type !== 'hinge' && j.type !== 'slide') return;
    const mq = mujoco.map((s) => s.qpos[j.qposadr]);
    const mqd = mujoco.map((s) => s.qvel[j.dofadr]);
    const jc = model.converted.jointConstraint[i];
    // a joint held with others by a universal, ball or chain has its own coordinate when the engine gives it one
    const own = jc ? undefined : model.converted.ownCoordinate?.get(i);
    const read = jc ? jointCoordinateReader(scene, jc.constraint) : own !== undefined ? jointCoordinateReader(scene, own) : undefined;
    let oq: number[] = [], oqd: number[] = [];
    if (read) {
      const q0 = mq[0];
      const vals = Array.from({ length: states }, (_, k) => (ours[k] ? read(ours[k]) : { q: NaN, qd: NaN }));
      oq = vals.map((v) => q0 + v.q);
      if (j.type === 'hinge') unwrap(oq);
      oqd = vals.map((v) => v.qd);
    }
    const combined = model.converted.combinedInto?.get(i);
    const why = read ? undefined : combined ? `held by a ${combined} constraint with other joints: no single coordinate here` : 'not converted to a hinge or slider constraint here';
    joints.push({
      name: j.name || `joint${i}`,
      type: j.type,
      ...(jc ? { constraint: jc.constraint } : {}),
      ...(why ? { why } : {}),
      mujoco: { q: pick(mq), qd: pick(mqd) },
      ours: { q: read ? pick(oq) : [], qd: read ? pick(oqd) : [] },
      dq: read ? maxDeviation(mq, oq) : { max: NaN, step: 0 },
      dqd: read ? maxDeviation(mqd, oqd) : { max: NaN, step: 0 },
    });
  });
  const bodies: TrajectoryComparison['bodies'] = [];
  scene.bodies.forEach((b, i) => {
    if (b.fixed) return;
    const k = m.bodies.findIndex((x, j) => j > 0 && (x.name.trim() ? x.name : `body${j}`) === b.name);
    if (k < 0) return;
    const error = Array.from({ length: states }, (_, s) => {
      const p = ours[s]?.[i]?.position;
      const x = mujoco[s].xipos;
      return p ? Math.hypot(x[3 * k] - p[0], x[3 * k + 1] - p[1], x[3 * k + 2] - p[2]) : NaN;
    });
    const dev = maxDeviation(error, error.map(() => 0));
    bodies.push({ name: b.name, error: pick(error), max: dev.max, step: dev.step });
  });
  return { samples, joints, bodies };
}
