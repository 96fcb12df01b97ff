// Cylinders, ellipsoids and convex hulls against a world plane (A the shape, B the plane, normal
// the plane's). Several points for the flat-bottomed shapes so that a standing one rests on a
// patch rather than a point, as MuJoCo's plane colliders do (at most four per pair).
import type { Vec3 } from '../types';
import { axisOf, rawFromA, type PosedShape, type RawContact } from './pose';
import { support } from './support';
import type { CylinderShape, ConvexShape, PlaneShape } from '../scene/contactSpec';

function planeOf(b: PosedShape): { n: Vec3; d: number } {
  const p = b.shape as PlaneShape;
  const len = Math.hypot(p.normal[0], p.normal[1], p.normal[2]);
  return { n: [p.normal[0] / len, p.normal[1] / len, p.normal[2] / len], d: p.offset };
}

/** Keep at most four points: the deepest, then each time the one farthest from those kept. */
function spread(points: { v: Vec3; gap: number }[], n: Vec3, out: RawContact[]): void {
  if (!points.length) return;
  const kept = [points.reduce((x, y) => (y.gap < x.gap ? y : x))];
  while (kept.length < 4 && kept.length < points.length) {
    let best: { v: Vec3; gap: number } | undefined;
    let far = 1e-12;
    for (const p of points) {
      if (kept.includes(p)) continue;
      const dmin = Math.min(...kept.map((k) => Math.hypot(p.v[0] - k.v[0], p.v[1] - k.v[1], p.v[2] - k.v[2])));
      if (dmin > far) {
        far = dmin;
        best = p;
      }
    }
    if (!best) break;
    kept.push(best);
  }
  for (const p of kept) out.push(rawFromA(p.v, n, p.gap));
}

/** A ellipsoid, B plane: one contact, the ellipsoid's deepest point. */
export function ellipsoidPlane(a: PosedShape, b: PosedShape, margin: number, out: RawContact[]): void {
  const { n, d } = planeOf(b);
  const p = support(a, [-n[0], -n[1], -n[2]]);
  const gap = n[0] * p[0] + n[1] * p[1] + n[2] * p[2] - d;
  if (gap <= margin) out.push(rawFromA(p, n, gap));
}

/** A cylinder, B plane: the deepest rim point of each cap and the rim points a quarter turn either side. */
export function cylinderPlane(a: PosedShape, b: PosedShape, margin: number, out: RawContact[]): void {
  const { n, d } = planeOf(b);
  const s = a.shape as CylinderShape;
  const x = axisOf(a.R, 0), y = axisOf(a.R, 1), z = axisOf(a.R, 2);
  // the rim direction (in the cap's plane) pointing most into the plane
  const nx = -(n[0] * x[0] + n[1] * x[1] + n[2] * x[2]);
  const ny = -(n[0] * y[0] + n[1] * y[1] + n[2] * y[2]);
  const l = Math.hypot(nx, ny);
  const c0 = l > 1e-12 ? nx / l : 1;
  const s0 = l > 1e-12 ? ny / l : 0;
  const points: { v: Vec3; gap: number }[] = [];
  for (const h of [-s.halfLength, s.halfLength]) {
    for (const [c, sn] of [[c0, s0], [-s0, c0], [s0, -c0], [-c0, -s0]]) {
      const v: Vec3 = [0, 0, 0];
      for (let i = 0; i < 3; i++) v[i] = a.c[i] + h * z[i] + s.radius * (c * x[i] + sn * y[i]);
      const gap = n[0] * v[0] + n[1] * v[1] + n[2] * v[2] - d;
      if (gap <= margin) points.push({ v, gap });
    }
  }
  spread(points, n, out);
}

/** A convex hull, B plane: its vertices within the margin, at most four spread out. */
export function convexPlane(a: PosedShape, b: PosedShape, margin: number, out: RawContact[]): void {
  const { n, d } = planeOf(b);
  const points: { v: Vec3; gap: number }[] = [];
  for (const p of (a.shape as ConvexShape).vertices) {
    const v: Vec3 = [0, 0, 0];
    for (let i = 0; i < 3; i++) v[i] = a.c[i] + a.R[3 * i] * p[0] + a.R[3 * i + 1] * p[1] + a.R[3 * i + 2] * p[2];
    const gap = n[0] * v[0] + n[1] * v[1] + n[2] * v[2] - d;
    if (gap <= margin) points.push({ v, gap });
  }
  spread(points, n, out);
}
