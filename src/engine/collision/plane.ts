// Narrow phase against a world plane (the half-space n·x ≤ offset is solid). In every routine A is
// the other shape and B the plane, so the normal is the plane's normal (from the plane to A).
import type { Vec3 } from '../types';
import { capsuleEnds } from './round';
import { axisOf, rawFromA, type PosedShape, type RawContact } from './pose';
import type { BoxShape, CapsuleShape, PlaneShape, SphereShape } from '../scene/contactSpec';

/** Unit normal and offset (the plane's distance from the origin along it) of a plane; the normal is normalised again in case the spec did not come from the parser. */
function planeOf(b: PosedShape): { n: Vec3; d: number } {
  const p = b.shape as PlaneShape;
  const len = Math.hypot(p.normal[0], p.normal[1], p.normal[2]);
  return { n: [p.normal[0] / len, p.normal[1] / len, p.normal[2] / len], d: p.offset };
}

/** A ball of radius r at c against the plane. */
function ball(c: Vec3, r: number, n: Vec3, d: number, margin: number, out: RawContact[]): void {
  const gap = n[0] * c[0] + n[1] * c[1] + n[2] * c[2] - d - r;
  if (gap <= margin) out.push(rawFromA([c[0] - r * n[0], c[1] - r * n[1], c[2] - r * n[2]], n, gap));
}

/** A sphere, B plane: one contact. */
export function spherePlane(a: PosedShape, b: PosedShape, margin: number, out: RawContact[]): void {
  const { n, d } = planeOf(b);
  ball(a.c, (a.shape as SphereShape).radius, n, d, margin, out);
}

/** A capsule, B plane: up to two contacts, one per end of the segment. */
export function capsulePlane(a: PosedShape, b: PosedShape, margin: number, out: RawContact[]): void {
  const { n, d } = planeOf(b);
  const r = (a.shape as CapsuleShape).radius;
  for (const e of capsuleEnds(a)) ball(e, r, n, d, margin, out);
}

/** A box, B plane: up to four contacts, the deepest corners within the margin (corner order breaks ties). */
export function boxPlane(a: PosedShape, b: PosedShape, margin: number, out: RawContact[]): void {
  const { n, d } = planeOf(b);
  const h = (a.shape as BoxShape).halfExtents;
  const ax = [axisOf(a.R, 0), axisOf(a.R, 1), axisOf(a.R, 2)];
  const corners: { v: Vec3; gap: number; k: number }[] = [];
  for (let k = 0; k < 8; k++) {
    const s = [k & 1 ? 1 : -1, k & 2 ? 1 : -1, k & 4 ? 1 : -1];
    const v: Vec3 = [a.c[0], a.c[1], a.c[2]];
    for (let i = 0; i < 3; i++) for (let r = 0; r < 3; r++) v[r] += s[i] * h[i] * ax[i][r];
    const gap = n[0] * v[0] + n[1] * v[1] + n[2] * v[2] - d;
    if (gap <= margin) corners.push({ v, gap, k });
  }
  // The four deepest, reported in corner order (stable from step to step while the set is).
  const kept = corners.sort((x, y) => x.gap - y.gap || x.k - y.k).slice(0, 4).sort((x, y) => x.k - y.k);
  for (const c of kept) out.push(rawFromA(c.v, n, c.gap));
}
