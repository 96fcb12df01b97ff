// Narrow phase between round shapes: sphere–sphere, sphere–capsule, capsule–capsule. A capsule is a
// segment swept by a sphere, so every case reduces to the closest points of two segments (points
// are segments of length 0) and one sphere–sphere test. All exact; A's witness point is on A's
// surface, the normal points from B to A.
import { perpendicularBasis } from '../core/math';
import type { Vec3 } from '../types';
import { axisOf, type PosedShape, type RawContact } from './pose';
import type { CapsuleShape, SphereShape } from '../scene/contactSpec';

/** Below this (relative to the sizes involved) two centres or two segments are treated as coincident / parallel. */
const TINY = 1e-12;

/**
 * Contact between the spheres (ca, ra) and (cb, rb), pushed to `out` when gap ≤ margin. When the
 * centres coincide the normal is `fallback` (any unit vector is then a direction of least penetration).
 */
export function spheres(ca: Vec3, ra: number, cb: Vec3, rb: number, margin: number, fallback: Vec3, out: RawContact[]): void {
  const d: Vec3 = [ca[0] - cb[0], ca[1] - cb[1], ca[2] - cb[2]];
  const len = Math.hypot(d[0], d[1], d[2]);
  const gap = len - ra - rb;
  if (!(gap <= margin)) return;
  const n: Vec3 = len > TINY * (ra + rb) ? [d[0] / len, d[1] / len, d[2] / len] : fallback;
  out.push({ pA: [ca[0] - ra * n[0], ca[1] - ra * n[1], ca[2] - ra * n[2]], pB: [cb[0] + rb * n[0], cb[1] + rb * n[1], cb[2] + rb * n[2]], n, gap });
}

/** End points of a capsule's segment in the world. */
export function capsuleEnds(s: PosedShape): [Vec3, Vec3] {
  const L = (s.shape as CapsuleShape).halfLength;
  const a = axisOf(s.R, 2);
  return [
    [s.c[0] - L * a[0], s.c[1] - L * a[1], s.c[2] - L * a[2]],
    [s.c[0] + L * a[0], s.c[1] + L * a[1], s.c[2] + L * a[2]],
  ];
}

/** The point of segment [p, q] closest to x. */
export function closestOnSegment(p: Vec3, q: Vec3, x: Vec3): Vec3 {
  const d: Vec3 = [q[0] - p[0], q[1] - p[1], q[2] - p[2]];
  const dd = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
  let t = dd > 0 ? ((x[0] - p[0]) * d[0] + (x[1] - p[1]) * d[1] + (x[2] - p[2]) * d[2]) / dd : 0;
  t = Math.min(1, Math.max(0, t));
  return [p[0] + t * d[0], p[1] + t * d[1], p[2] + t * d[2]];
}

/**
 * Closest points of segments [p1, q1] and [p2, q2] (Ericson, Real-Time Collision Detection §5.1.9):
 * parameters s, t in [0, 1] and the two points.
 */
export function closestSegmentSegment(p1: Vec3, q1: Vec3, p2: Vec3, q2: Vec3): { s: number; t: number; c1: Vec3; c2: Vec3 } {
  const d1: Vec3 = [q1[0] - p1[0], q1[1] - p1[1], q1[2] - p1[2]];
  const d2: Vec3 = [q2[0] - p2[0], q2[1] - p2[1], q2[2] - p2[2]];
  const r: Vec3 = [p1[0] - p2[0], p1[1] - p2[1], p1[2] - p2[2]];
  const a = d1[0] * d1[0] + d1[1] * d1[1] + d1[2] * d1[2];
  const e = d2[0] * d2[0] + d2[1] * d2[1] + d2[2] * d2[2];
  const f = d2[0] * r[0] + d2[1] * r[1] + d2[2] * r[2];
  const clamp = (v: number): number => Math.min(1, Math.max(0, v));
  let s: number;
  let t: number;
  if (a <= 0 && e <= 0) {
    s = 0;
    t = 0;
  } else if (a <= 0) {
    s = 0;
    t = clamp(f / e);
  } else {
    const c = d1[0] * r[0] + d1[1] * r[1] + d1[2] * r[2];
    if (e <= 0) {
      t = 0;
      s = clamp(-c / a);
    } else {
      const b = d1[0] * d2[0] + d1[1] * d2[1] + d1[2] * d2[2];
      const denom = a * e - b * b;
      s = denom > TINY * a * e ? clamp((b * f - c * e) / denom) : 0;
      t = (b * s + f) / e;
      if (t < 0) {
        t = 0;
        s = clamp(-c / a);
      } else if (t > 1) {
        t = 1;
        s = clamp((b - c) / a);
      }
    }
  }
  return {
    s,
    t,
    c1: [p1[0] + s * d1[0], p1[1] + s * d1[1], p1[2] + s * d1[2]],
    c2: [p2[0] + t * d2[0], p2[1] + t * d2[1], p2[2] + t * d2[2]],
  };
}

export function sphereSphere(a: PosedShape, b: PosedShape, margin: number, out: RawContact[]): void {
  spheres(a.c, (a.shape as SphereShape).radius, b.c, (b.shape as SphereShape).radius, margin, [0, 0, 1], out);
}

/** A sphere, B capsule. */
export function sphereCapsule(a: PosedShape, b: PosedShape, margin: number, out: RawContact[]): void {
  const [p, q] = capsuleEnds(b);
  const x = closestOnSegment(p, q, a.c);
  spheres(a.c, (a.shape as SphereShape).radius, x, (b.shape as CapsuleShape).radius, margin, perpendicularBasis(axisOf(b.R, 2))[0], out);
}

/**
 * Capsule–capsule. Nearly parallel capsules whose segments overlap along their axis touch along a
 * line: two contacts, at the ends of the overlap, so that a capsule lying on another one is
 * supported. Otherwise one contact at the closest points.
 */
export function capsuleCapsule(a: PosedShape, b: PosedShape, margin: number, out: RawContact[]): void {
  const sa = a.shape as CapsuleShape;
  const sb = b.shape as CapsuleShape;
  const [p1, q1] = capsuleEnds(a);
  const [p2, q2] = capsuleEnds(b);
  const da = axisOf(a.R, 2);
  const db = axisOf(b.R, 2);
  const fallback = perpendicularBasis(da)[0];
  const cx = da[1] * db[2] - da[2] * db[1];
  const cy = da[2] * db[0] - da[0] * db[2];
  const cz = da[0] * db[1] - da[1] * db[0];
  if (Math.hypot(cx, cy, cz) < 1e-6) {
    // Parallel: overlap of B's segment projected on A's axis, in A's axial coordinate u.
    const u = (x: Vec3): number => (x[0] - a.c[0]) * da[0] + (x[1] - a.c[1]) * da[1] + (x[2] - a.c[2]) * da[2];
    const u2a = u(p2);
    const u2b = u(q2);
    const lo = Math.max(-sa.halfLength, Math.min(u2a, u2b));
    const hi = Math.min(sa.halfLength, Math.max(u2a, u2b));
    const scale = sa.halfLength + sb.halfLength + sa.radius + sb.radius;
    if (hi - lo > 1e-9 * scale) {
      for (const w of [lo, hi]) {
        const xa: Vec3 = [a.c[0] + w * da[0], a.c[1] + w * da[1], a.c[2] + w * da[2]];
        spheres(xa, sa.radius, closestOnSegment(p2, q2, xa), sb.radius, margin, fallback, out);
      }
      return;
    }
  }
  const { c1, c2 } = closestSegmentSegment(p1, q1, p2, q2);
  spheres(c1, sa.radius, c2, sb.radius, margin, fallback, out);
}
