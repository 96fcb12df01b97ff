// Support functions of the convex shapes: the point of the posed shape farthest along a world
// direction. GJK and EPA (gjk.ts) need nothing else, so every pair of convex shapes is covered by them.
import type { Vec3 } from '../types';
import type { PosedShape } from './pose';

/** The shape's farthest point along world direction d (not necessarily unit), world frame. */
export function support(s: PosedShape, d: Readonly<Vec3>): Vec3 {
  const R = s.R;
  // d in the shape's frame: Rᵀ·d
  const x = R[0] * d[0] + R[3] * d[1] + R[6] * d[2];
  const y = R[1] * d[0] + R[4] * d[1] + R[7] * d[2];
  const z = R[2] * d[0] + R[5] * d[1] + R[8] * d[2];
  const l = localSupport(s, x, y, z);
  return [s.c[0] + R[0] * l[0] + R[1] * l[1] + R[2] * l[2], s.c[1] + R[3] * l[0] + R[4] * l[1] + R[5] * l[2], s.c[2] + R[6] * l[0] + R[7] * l[1] + R[8] * l[2]];
}

const sgn = (v: number): number => (v < 0 ? -1 : 1);

function localSupport(s: PosedShape, x: number, y: number, z: number): Vec3 {
  const shape = s.shape;
  switch (shape.type) {
    case 'sphere': {
      const n = Math.hypot(x, y, z);
      const r = shape.radius;
      return n > 0 ? [(r * x) / n, (r * y) / n, (r * z) / n] : [0, 0, r];
    }
    case 'capsule': {
      const n = Math.hypot(x, y, z);
      const r = shape.radius;
      const e = n > 0 ? [(r * x) / n, (r * y) / n, (r * z) / n] : [0, 0, r];
      return [e[0], e[1], e[2] + sgn(z) * shape.halfLength];
    }
    case 'box': {
      const h = shape.halfExtents;
      return [sgn(x) * h[0], sgn(y) * h[1], sgn(z) * h[2]];
    }
    case 'cylinder': {
      const n = Math.hypot(x, y);
      const r = shape.radius;
      return n > 0 ? [(r * x) / n, (r * y) / n, sgn(z) * shape.halfLength] : [r, 0, sgn(z) * shape.halfLength];
    }
    case 'ellipsoid': {
      // maximise p·d on (p/a)² + … = 1: p = A²d / ‖A d‖
      const [a, b, c] = shape.radii;
      const n = Math.hypot(a * x, b * y, c * z);
      return n > 0 ? [(a * a * x) / n, (b * b * y) / n, (c * c * z) / n] : [0, 0, c];
    }
    case 'convex': {
      const v = shape.vertices;
      let best = 0;
      let most = -Infinity;
      for (let k = 0; k < v.length; k++) {
        const p = v[k][0] * x + v[k][1] * y + v[k][2] * z;
        if (p > most) {
          most = p;
          best = k;
        }
      }
      return [v[best][0], v[best][1], v[best][2]];
    }
    default:
      return [0, 0, 0];
  }
}
