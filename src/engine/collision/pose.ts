// Shapes placed in the world: the pose of a shape from its owner's pose, its world AABB, and the
// raw contact the narrow-phase routines produce. Rotation matrices are row-major; column j of R is
// the shape's local axis j in world coordinates.
import { IDENTITY_MAT3, mat3Mul, mat3MulVec, quatToMat3 } from '../core/math';
import type { Mat3, Quat, Vec3 } from '../types';
import type { ShapeSpec } from '../scene/contactSpec';

/** The pose of a body (or of the world: origin, identity). */
export interface Pose {
  p: Vec3;
  q: Quat;
}

/** A shape in the world frame. */
export interface PosedShape {
  shape: ShapeSpec;
  /** Owner: index in the scene's `bodies` array, or -1 for the world. */
  owner: number;
  /** Index in the owner's `shapes` array. */
  index: number;
  /** World centre and rotation of the shape (planes: unused, origin and identity). */
  c: Vec3;
  R: Mat3;
  /** World axis-aligned bounding box (planes: infinite). */
  lo: Vec3;
  hi: Vec3;
}

/**
 * What a narrow-phase routine reports: the witness points on A's and B's surfaces (world frame),
 * the unit normal from B to A and the signed gap, with pA − pB = gap·n.
 */
export interface RawContact {
  pA: Vec3;
  pB: Vec3;
  n: Vec3;
  gap: number;
}

/** Column j of a row-major rotation: the owner-frame direction of local axis j. */
export const axisOf = (R: Readonly<Mat3>, j: number): Vec3 => [R[j], R[3 + j], R[6 + j]];

/** Place a shape given its owner's position and rotation matrix. */
export function poseShape(shape: ShapeSpec, owner: number, index: number, p: Readonly<Vec3>, Rb: Readonly<Mat3>): PosedShape {
  if (shape.type === 'plane') {
    const inf = Number.POSITIVE_INFINITY;
    return { shape, owner, index, c: [0, 0, 0], R: [...IDENTITY_MAT3] as Mat3, lo: [-inf, -inf, -inf], hi: [inf, inf, inf] };
  }
  const off = mat3MulVec(Rb as Mat3, shape.position);
  const c: Vec3 = [p[0] + off[0], p[1] + off[1], p[2] + off[2]];
  const R = mat3Mul(Rb as Mat3, quatToMat3(shape.orientation));
  if (shape.type === 'convex') {
    // the hull need not be centred on the shape's origin: its exact AABB from the vertices
    const lo: Vec3 = [Infinity, Infinity, Infinity];
    const hi: Vec3 = [-Infinity, -Infinity, -Infinity];
    for (const v of shape.vertices) {
      for (let i = 0; i < 3; i++) {
        const w = c[i] + R[3 * i] * v[0] + R[3 * i + 1] * v[1] + R[3 * i + 2] * v[2];
        if (w < lo[i]) lo[i] = w;
        if (w > hi[i]) hi[i] = w;
      }
    }
    return { shape, owner, index, c, R, lo, hi };
  }
  const e = extent(shape, R);
  return { shape, owner, index, c, R, lo: [c[0] - e[0], c[1] - e[1], c[2] - e[2]], hi: [c[0] + e[0], c[1] + e[1], c[2] + e[2]] };
}

/** Half widths of the world AABB of a non-plane shape centred at the origin with rotation R. */
function extent(shape: ShapeSpec, R: Readonly<Mat3>): Vec3 {
  switch (shape.type) {
    case 'sphere':
      return [shape.radius, shape.radius, shape.radius];
    case 'capsule': {
      const r = shape.radius;
      const L = shape.halfLength;
      return [Math.abs(R[2]) * L + r, Math.abs(R[5]) * L + r, Math.abs(R[8]) * L + r];
    }
    case 'cylinder': {
      const L = shape.halfLength;
      const r = shape.radius;
      const out: Vec3 = [0, 0, 0];
      for (let i = 0; i < 3; i++) {
        const a = R[i * 3 + 2];
        out[i] = Math.abs(a) * L + r * Math.sqrt(Math.max(0, 1 - a * a));
      }
      return out;
    }
    case 'ellipsoid': {
      const [a, b, c] = shape.radii;
      const out: Vec3 = [0, 0, 0];
      for (let i = 0; i < 3; i++) out[i] = Math.hypot(R[i * 3] * a, R[i * 3 + 1] * b, R[i * 3 + 2] * c);
      return out;
    }
    case 'box': {
      const h = shape.halfExtents;
      const out: Vec3 = [0, 0, 0];
      for (let i = 0; i < 3; i++) out[i] = Math.abs(R[i * 3]) * h[0] + Math.abs(R[i * 3 + 1]) * h[1] + Math.abs(R[i * 3 + 2]) * h[2];
      return out;
    }
    default:
      return [Infinity, Infinity, Infinity];
  }
}

/** A contact from A's witness point, the normal (B → A) and the gap: pB = pA − gap·n. */
export function rawFromA(pA: Vec3, n: Vec3, gap: number): RawContact {
  return { pA, pB: [pA[0] - gap * n[0], pA[1] - gap * n[1], pA[2] - gap * n[2]], n, gap };
}

/** The same contact seen from the other side: A and B exchanged, the normal flipped. */
export const swapRaw = (c: RawContact): RawContact => ({ pA: c.pB, pB: c.pA, n: [-c.n[0], -c.n[1], -c.n[2]], gap: c.gap });
