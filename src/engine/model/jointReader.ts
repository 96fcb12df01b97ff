// A hinge or slider constraint's joint coordinate read from the bodies' states of a run, for tools
// that put a maximal-coordinate run next to a joint-space simulator's (the MuJoCo comparison reads
// its joints' q and q̇ with it). The coordinate is the one limits and drives act on
// (jointCoordinate.ts): 0 in the scene's initial state, rad or m.
import type { SceneSpec } from '../scene/spec';
import type { Quat, Vec3 } from '../types';
import { quatToMat3 } from '../core/math';
import type { Pose } from './constraint';
import { JointCoordinate } from './jointCoordinate';
import { jointsOf } from '../scene/hingeGroups';

/** One body's state as a run reports it (SimulationResult's final bodies). */
export interface BodyKinematics {
  position: readonly number[];
  orientation: readonly number[];
  velocity: readonly number[];
  angularVelocity: readonly number[];
}

const WORLD: Pose = { p: [0, 0, 0], q: [0, 0, 0, 1], R: [1, 0, 0, 0, 1, 0, 0, 0, 1], v: [0, 0, 0], w: [0, 0, 0] };

const poseOf = (b: BodyKinematics): Pose => {
  const q = [b.orientation[0], b.orientation[1], b.orientation[2], b.orientation[3]] as Quat;
  return { p: [...b.position] as Vec3, q, R: quatToMat3(q), v: [...b.velocity] as Vec3, w: [...b.angularVelocity] as Vec3 };
};

/**
 * The reader of the hinge or slider constraint named `name` (or of a universal's, ball's or chain's joint): given every body's state (scene order),
 * its q (rad or m, 0 in the initial state) and q̇. Undefined when the scene has no such constraint.
 */
export function jointCoordinateReader(scene: SceneSpec, name: string): ((bodies: readonly BodyKinematics[]) => { q: number; qd: number }) | undefined {
  // a hinge or slider constraint, or a joint a universal, ball or chain names inside itself
  const spec = scene.constraints.flatMap(jointsOf).find((c) => c.name === name);
  if (!spec) return undefined;
  const ia = scene.bodies.findIndex((b) => b.name === spec.bodyA);
  const ib = scene.bodies.findIndex((b) => b.name === spec.bodyB);
  if (ib < 0) return undefined;
  const initial = (i: number): Pose =>
    i < 0 ? WORLD : poseOf({ position: scene.bodies[i].position, orientation: scene.bodies[i].orientation, velocity: [0, 0, 0], angularVelocity: [0, 0, 0] });
  const coord = new JointCoordinate(spec, initial(ia), initial(ib));
  return (bodies) => {
    const a = ia < 0 ? WORLD : bodies[ia] ? poseOf(bodies[ia]) : undefined;
    const b = bodies[ib] ? poseOf(bodies[ib]) : undefined;
    if (!a || !b) return { q: NaN, qd: NaN };
    coord.evaluate(a, b);
    return { q: coord.q, qd: coord.qd };
  };
}
