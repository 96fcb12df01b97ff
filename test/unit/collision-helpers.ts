// Shared helpers of the collision tests: shape builders, random poses, and an independent signed
// distance between two convex shapes from their support functions alone.
import { quatFromRotationVector, quatToMat3 } from '../../src/engine/core/math';
import { poseShape, type PosedShape } from '../../src/engine/collision/pose';
import type { ShapeSpec } from '../../src/engine/scene/contactSpec';
import type { Mat3, Quat, Vec3 } from '../../src/engine/types';

const base = { name: 's', index: 0, friction: 0.5, restitution: 0, position: [0, 0, 0] as Vec3, orientation: [0, 0, 0, 1] as Quat };

export const sphereSpec = (radius: number): ShapeSpec => ({ ...base, type: 'sphere', radius });
export const boxSpec = (h: Vec3): ShapeSpec => ({ ...base, type: 'box', halfExtents: h });
export const capsuleSpec = (radius: number, halfLength: number): ShapeSpec => ({ ...base, type: 'capsule', radius, halfLength });
export const planeSpec = (normal: Vec3, offset: number): ShapeSpec => {
  const l = Math.hypot(...normal);
  return { ...base, type: 'plane', normal: [normal[0] / l, normal[1] / l, normal[2] / l], offset };
};

/** A shape placed at c with orientation q (owner `owner`, the world for planes). */
export function place(spec: ShapeSpec, c: Vec3 = [0, 0, 0], q: Quat = [0, 0, 0, 1], owner = 0): PosedShape {
  return poseShape(spec, spec.type === 'plane' ? -1 : owner, 0, c, quatToMat3(q));
}

/** Rotation by `angle` about a unit axis. */
export const about = (axis: Vec3, angle: number): Quat => quatFromRotationVector([axis[0] * angle, axis[1] * angle, axis[2] * angle]);

/** A uniformly random unit quaternion (Shoemake). */
export function randomQuat(rand: () => number): Quat {
  const u1 = rand();
  const u2 = 2 * Math.PI * rand();
  const u3 = 2 * Math.PI * rand();
  const a = Math.sqrt(1 - u1);
  const b = Math.sqrt(u1);
  return [a * Math.sin(u2), a * Math.cos(u2), b * Math.sin(u3), b * Math.cos(u3)];
}

const dot = (a: Vec3, b: Vec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const col = (R: Mat3, j: number): Vec3 => [R[j], R[3 + j], R[6 + j]];

/** Support function h(u) = max over the shape of u·x (not for planes). */
export function support(s: PosedShape, u: Vec3): number {
  const spec = s.shape;
  const un = Math.hypot(...u);
  switch (spec.type) {
    case 'sphere':
      return dot(s.c, u) + spec.radius * un;
    case 'capsule':
      return dot(s.c, u) + spec.halfLength * Math.abs(dot(col(s.R, 2), u)) + spec.radius * un;
    case 'box':
      return dot(s.c, u) + spec.halfExtents.reduce((acc, h, i) => acc + h * Math.abs(dot(col(s.R, i), u)), 0);
    default:
      throw new Error('support of a plane');
  }
}

/** Separation of A from B along the unit direction u (B → A): min over A of u·x − max over B of u·x. */
export function separationAlong(a: PosedShape, b: PosedShape, u: Vec3): number {
  if (b.shape.type === 'plane') {
    const n = b.shape.normal;
    // Only the plane's own normal separates anything from a half-space.
    return Math.abs(dot(u, n) - 1) < 1e-12 ? -support(a, [-n[0], -n[1], -n[2]]) - b.shape.offset : -Infinity;
  }
  if (a.shape.type === 'plane') return separationAlong(b, a, [-u[0], -u[1], -u[2]]);
  return -support(a, [-u[0], -u[1], -u[2]]) - support(b, u);
}

/** Unit directions spread evenly over the sphere (Fibonacci lattice). */
export function sphereDirections(n: number): Vec3[] {
  const out: Vec3[] = [];
  const golden = Math.PI * (3 - Math.sqrt(5));
  for (let i = 0; i < n; i++) {
    const z = 1 - (2 * (i + 0.5)) / n;
    const r = Math.sqrt(1 - z * z);
    out.push([r * Math.cos(golden * i), r * Math.sin(golden * i), z]);
  }
  return out;
}

const DIRECTIONS = sphereDirections(600);

/**
 * max over unit u of separationAlong(a, b, u): the signed distance of two convex shapes (the
 * distance when apart, minus the penetration depth when overlapping), found by sampling the
 * sphere of directions and refining the best by local search. Never above the true value.
 */
export function signedDistance(a: PosedShape, b: PosedShape, hints: Vec3[] = []): number {
  if (a.shape.type === 'plane' || b.shape.type === 'plane') {
    const plane = a.shape.type === 'plane' ? a : b;
    const n = (plane.shape as { normal: Vec3 }).normal;
    return a === plane ? separationAlong(a, b, [-n[0], -n[1], -n[2]]) : separationAlong(a, b, n);
  }
  let best: Vec3 = [0, 0, 1];
  let bestF = -Infinity;
  for (const u of [...hints, ...DIRECTIONS]) {
    const f = separationAlong(a, b, u);
    if (f > bestF) {
      bestF = f;
      best = u;
    }
  }
  // Local search: try small rotations of the best direction, shrinking the step.
  for (let step = 0.05; step > 1e-10; step *= 0.5) {
    let improved = true;
    while (improved) {
      improved = false;
      for (const d of [[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]] as Vec3[]) {
        const v: Vec3 = [best[0] + step * d[0], best[1] + step * d[1], best[2] + step * d[2]];
        const l = Math.hypot(...v);
        const u: Vec3 = [v[0] / l, v[1] / l, v[2] / l];
        const f = separationAlong(a, b, u);
        if (f > bestF + 1e-15) {
          bestF = f;
          best = u;
          improved = true;
        }
      }
    }
  }
  return bestF;
}
