// Narrow phase of round shapes against a box: sphere–box and capsule–box, worked out in the box's
// frame. A is the sphere or capsule, B the box; the normal points from the box to A.
import type { Vec3 } from '../types';
import { closestSegmentSegment } from './round';
import { rawFromA, type PosedShape, type RawContact } from './pose';
import type { BoxShape, CapsuleShape, SphereShape } from '../scene/contactSpec';

/** A box's frame: world ↔ local. */
class BoxFrame {
  readonly h: Vec3;
  constructor(private readonly b: PosedShape) {
    this.h = (b.shape as BoxShape).halfExtents;
  }
  /** Rᵀ·(x − c). */
  local(x: Vec3): Vec3 {
    const R = this.b.R;
    const d0 = x[0] - this.b.c[0];
    const d1 = x[1] - this.b.c[1];
    const d2 = x[2] - this.b.c[2];
    return [R[0] * d0 + R[3] * d1 + R[6] * d2, R[1] * d0 + R[4] * d1 + R[7] * d2, R[2] * d0 + R[5] * d1 + R[8] * d2];
  }
  /** R·v. */
  dir(v: Vec3): Vec3 {
    const R = this.b.R;
    return [R[0] * v[0] + R[1] * v[1] + R[2] * v[2], R[3] * v[0] + R[4] * v[1] + R[5] * v[2], R[6] * v[0] + R[7] * v[1] + R[8] * v[2]];
  }
  /** c + R·v. */
  world(v: Vec3): Vec3 {
    const w = this.dir(v);
    return [this.b.c[0] + w[0], this.b.c[1] + w[1], this.b.c[2] + w[2]];
  }
  /** The point of the box closest to the local point x. */
  clamp(x: Vec3): Vec3 {
    const h = this.h;
    return [Math.min(h[0], Math.max(-h[0], x[0])), Math.min(h[1], Math.max(-h[1], x[1])), Math.min(h[2], Math.max(-h[2], x[2]))];
  }
}

const dist2 = (a: Vec3, b: Vec3): number => (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 + (a[2] - b[2]) ** 2;

/** A sphere, B box: one contact (outside: closest point; centre inside: the face of least penetration). */
export function sphereBox(a: PosedShape, b: PosedShape, margin: number, out: RawContact[]): void {
  const r = (a.shape as SphereShape).radius;
  const f = new BoxFrame(b);
  const x = f.local(a.c);
  const q = f.clamp(x);
  const d = Math.sqrt(dist2(x, q));
  const h = f.h;
  if (d > 1e-12 * (h[0] + h[1] + h[2])) {
    const gap = d - r;
    if (gap > margin) return;
    const n = f.dir([(x[0] - q[0]) / d, (x[1] - q[1]) / d, (x[2] - q[2]) / d]);
    out.push(rawFromA([a.c[0] - r * n[0], a.c[1] - r * n[1], a.c[2] - r * n[2]], n, gap));
    return;
  }
  // Centre inside (or on) the box: push out through the nearest face.
  let k = 0;
  for (let i = 1; i < 3; i++) if (h[i] - Math.abs(x[i]) < h[k] - Math.abs(x[k])) k = i;
  const s = x[k] >= 0 ? 1 : -1;
  const nl: Vec3 = [0, 0, 0];
  nl[k] = s;
  const n = f.dir(nl);
  const gap = -(h[k] - Math.abs(x[k])) - r;
  if (gap <= margin) out.push(rawFromA([a.c[0] - r * n[0], a.c[1] - r * n[1], a.c[2] - r * n[2]], n, gap));
}

/**
 * Parameter t in [0, 1] of the point of segment P0 + t·D closest to the box, and its squared
 * distance. The squared distance is a convex piecewise quadratic in t whose pieces end where the
 * segment crosses a face plane x_i = ±h_i; each piece is minimised exactly.
 */
function segmentBoxClosest(P0: Vec3, D: Vec3, f: BoxFrame): { t: number; d2: number } {
  const h = f.h;
  const ts = [0, 1];
  for (let i = 0; i < 3; i++) {
    if (D[i] === 0) continue;
    for (const s of [-1, 1]) {
      const t = (s * h[i] - P0[i]) / D[i];
      if (t > 0 && t < 1) ts.push(t);
    }
  }
  ts.sort((x, y) => x - y);
  const at = (t: number): Vec3 => [P0[0] + t * D[0], P0[1] + t * D[1], P0[2] + t * D[2]];
  let best = { t: 0, d2: Infinity };
  const consider = (t: number): void => {
    const p = at(t);
    const d2 = dist2(p, f.clamp(p));
    if (d2 < best.d2) best = { t, d2 };
  };
  for (let k = 0; k + 1 < ts.length; k++) {
    const t0 = ts[k];
    const t1 = ts[k + 1];
    consider(t0);
    // On this piece each axis is either inside its slab or outside on a fixed side.
    const m = at((t0 + t1) / 2);
    let A = 0;
    let B = 0;
    for (let i = 0; i < 3; i++) {
      const side = m[i] > h[i] ? h[i] : m[i] < -h[i] ? -h[i] : undefined;
      if (side === undefined) continue;
      A += D[i] * D[i];
      B += 2 * D[i] * (P0[i] - side);
    }
    if (A > 0) consider(Math.min(t1, Math.max(t0, -B / (2 * A))));
  }
  consider(1);
  return best;
}

/**
 * Contacts of the capsule segment on face k (outward normal s·e_k) of the box: the ends of the
 * part of the segment above the face (clipped to the face's rectangle), each with its height above
 * the face minus the radius. Returns false when nothing was emitted.
 */
function faceContacts(P0: Vec3, D: Vec3, r: number, k: number, s: number, f: BoxFrame, margin: number, out: RawContact[]): boolean {
  const h = f.h;
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 3 && lo <= hi; i++) {
    if (i === k) continue;
    if (D[i] === 0) {
      if (Math.abs(P0[i]) > h[i]) return false;
      continue;
    }
    const ta = (-h[i] - P0[i]) / D[i];
    const tb = (h[i] - P0[i]) / D[i];
    lo = Math.max(lo, Math.min(ta, tb));
    hi = Math.min(hi, Math.max(ta, tb));
  }
  if (lo > hi) return false;
  const len = Math.hypot(D[0], D[1], D[2]);
  const ts = (hi - lo) * len > 1e-9 * (h[0] + h[1] + h[2] + len) ? [lo, hi] : [(lo + hi) / 2];
  const nl: Vec3 = [0, 0, 0];
  nl[k] = s;
  const n = f.dir(nl);
  let emitted = false;
  for (const t of ts) {
    const p: Vec3 = [P0[0] + t * D[0], P0[1] + t * D[1], P0[2] + t * D[2]];
    const gap = s * p[k] - h[k] - r;
    if (gap > margin) continue;
    const w = f.world(p);
    out.push(rawFromA([w[0] - r * n[0], w[1] - r * n[1], w[2] - r * n[2]], n, gap));
    emitted = true;
  }
  return emitted;
}

/**
 * Contacts of a segment lying parallel to the box edge along axis j (the closest feature): the
 * ends of the part of the segment beside the edge. Returns false when the segment is not parallel
 * to the edge or nothing was emitted.
 */
function edgeContacts(P0: Vec3, D: Vec3, r: number, j: number, f: BoxFrame, margin: number, out: RawContact[]): boolean {
  const h = f.h;
  const len = Math.hypot(D[0], D[1], D[2]);
  if (!(len > 0) || Math.abs(D[j]) < len * (1 - 1e-12)) return false;
  const ta = (-h[j] - P0[j]) / D[j];
  const tb = (h[j] - P0[j]) / D[j];
  const lo = Math.max(0, Math.min(ta, tb));
  const hi = Math.min(1, Math.max(ta, tb));
  if (lo > hi) return false;
  const ts = (hi - lo) * len > 1e-9 * (h[0] + h[1] + h[2] + len) ? [lo, hi] : [(lo + hi) / 2];
  let emitted = false;
  for (const t of ts) {
    const p: Vec3 = [P0[0] + t * D[0], P0[1] + t * D[1], P0[2] + t * D[2]];
    const q = f.clamp(p);
    const d = Math.sqrt(dist2(p, q));
    if (!(d > 0) || d - r > margin) continue;
    const n = f.dir([(p[0] - q[0]) / d, (p[1] - q[1]) / d, (p[2] - q[2]) / d]);
    const w = f.world(p);
    out.push(rawFromA([w[0] - r * n[0], w[1] - r * n[1], w[2] - r * n[2]], n, d - r));
    emitted = true;
  }
  return emitted;
}

/**
 * A capsule, B box. Separated segment: the exact closest points (one contact, or two when the
 * segment lies parallel to the closest face or edge). Segment inside the box: separating-axis test over the box's face
 * normals and the segment × box-edge directions (exact penetration depth of the segment–box pair),
 * then the same face contacts, or one contact between the segment and the box edge.
 */
export function capsuleBox(a: PosedShape, b: PosedShape, margin: number, out: RawContact[]): void {
  const cap = a.shape as CapsuleShape;
  const r = cap.radius;
  const f = new BoxFrame(b);
  const h = f.h;
  const cl = f.local(a.c);
  const ax = f.local([a.c[0] + a.R[2], a.c[1] + a.R[5], a.c[2] + a.R[8]]);
  const u: Vec3 = [ax[0] - cl[0], ax[1] - cl[1], ax[2] - cl[2]];
  const L = cap.halfLength;
  const P0: Vec3 = [cl[0] - L * u[0], cl[1] - L * u[1], cl[2] - L * u[2]];
  const D: Vec3 = [2 * L * u[0], 2 * L * u[1], 2 * L * u[2]];
  const scale = h[0] + h[1] + h[2] + L;

  const near = segmentBoxClosest(P0, D, f);
  if (near.d2 > (1e-12 * scale) ** 2) {
    const d = Math.sqrt(near.d2);
    const gap = d - r;
    if (gap > margin) return;
    const S: Vec3 = [P0[0] + near.t * D[0], P0[1] + near.t * D[1], P0[2] + near.t * D[2]];
    const Q = f.clamp(S);
    const outside = [0, 1, 2].filter((i) => Math.abs(S[i]) > h[i]);
    if (outside.length === 1) {
      const k = outside[0];
      if (faceContacts(P0, D, r, k, S[k] > 0 ? 1 : -1, f, margin, out)) return;
    }
    if (outside.length === 2 && edgeContacts(P0, D, r, 3 - outside[0] - outside[1], f, margin, out)) return;
    const n = f.dir([(S[0] - Q[0]) / d, (S[1] - Q[1]) / d, (S[2] - Q[2]) / d]);
    const w = f.world(S);
    out.push(rawFromA([w[0] - r * n[0], w[1] - r * n[1], w[2] - r * n[2]], n, gap));
    return;
  }

  // The segment meets the box: least overlap over the candidate axes (faces preferred on ties).
  const P1: Vec3 = [P0[0] + D[0], P0[1] + D[1], P0[2] + D[2]];
  // axis: 0..2 the box's face normals, 3..5 the segment × box edge k − 3.
  let best = { depth: Infinity, n: [0, 0, 1] as Vec3, axis: 0 };
  const test = (v: Vec3, axis: number): void => {
    const hb = h[0] * Math.abs(v[0]) + h[1] * Math.abs(v[1]) + h[2] * Math.abs(v[2]);
    const p0 = v[0] * P0[0] + v[1] * P0[1] + v[2] * P0[2];
    const p1 = v[0] * P1[0] + v[1] * P1[1] + v[2] * P1[2];
    const up = hb - Math.min(p0, p1); // push the capsule along +v
    const down = Math.max(p0, p1) + hb; // along −v
    const depth = Math.min(up, down);
    const better = axis < 3 ? depth < best.depth : depth < best.depth * (1 - 1e-9) - 1e-15 * scale;
    if (better) best = { depth, n: up <= down ? v : [-v[0], -v[1], -v[2]], axis };
  };
  for (let k = 0; k < 3; k++) test(k === 0 ? [1, 0, 0] : k === 1 ? [0, 1, 0] : [0, 0, 1], k);
  const dl = Math.hypot(D[0], D[1], D[2]);
  for (let k = 0; k < 3 && dl > 0; k++) {
    const e: Vec3 = [0, 0, 0];
    e[k] = 1;
    const c: Vec3 = [D[1] * e[2] - D[2] * e[1], D[2] * e[0] - D[0] * e[2], D[0] * e[1] - D[1] * e[0]];
    const cn = Math.hypot(c[0], c[1], c[2]);
    if (cn > 1e-6 * dl) test([c[0] / cn, c[1] / cn, c[2] / cn], 3 + k);
  }
  const gap = -best.depth - r;
  const nl = best.n;
  if (best.axis < 3) {
    // Face contacts, unless the deepest part of the segment is beside the face (then they would
    // understate the penetration).
    const k = best.axis;
    const face: RawContact[] = [];
    if (faceContacts(P0, D, r, k, nl[k] > 0 ? 1 : -1, f, margin, face) && Math.min(...face.map((c) => c.gap)) <= gap + 1e-9 * scale) {
      out.push(...face);
      return;
    }
  }
  // One contact: for an edge axis, at the segment point closest to the supporting box edge; for a
  // face, at the deepest end of the segment.
  let S: Vec3;
  if (best.axis >= 3) {
    const k = best.axis - 3;
    const corner: Vec3 = [Math.sign(nl[0]) * h[0], Math.sign(nl[1]) * h[1], Math.sign(nl[2]) * h[2]];
    const e0: Vec3 = [...corner];
    const e1: Vec3 = [...corner];
    e0[k] = -h[k];
    e1[k] = h[k];
    S = closestSegmentSegment(P0, P1, e0, e1).c1;
  } else {
    const d0 = nl[0] * P0[0] + nl[1] * P0[1] + nl[2] * P0[2];
    const d1 = nl[0] * P1[0] + nl[1] * P1[1] + nl[2] * P1[2];
    S = d0 <= d1 ? P0 : P1;
  }
  const n = f.dir(nl);
  const w = f.world(S);
  out.push(rawFromA([w[0] - r * n[0], w[1] - r * n[1], w[2] - r * n[2]], n, gap));
}
