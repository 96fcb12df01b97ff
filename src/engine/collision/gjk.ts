// One contact between two convex shapes given only their support functions: GJK for the distance
// and witness points of separated shapes, EPA (expanding polytope) for the depth and normal of
// overlapping ones. Used for every pair that has no dedicated routine (cylinders, ellipsoids,
// convex hulls against anything but a plane), as MuJoCo uses its convex collider for them.
import type { Vec3 } from '../types';
import type { PosedShape, RawContact } from './pose';
import { support } from './support';

/** A point of the Minkowski difference A − B with the support points it came from. */
interface Vert {
  w: Vec3;
  a: Vec3;
  b: Vec3;
}

const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: Vec3, b: Vec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: Vec3, b: Vec3): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const neg = (a: Vec3): Vec3 => [-a[0], -a[1], -a[2]];

function vert(A: PosedShape, B: PosedShape, d: Vec3): Vert {
  const a = support(A, d);
  const b = support(B, neg(d));
  return { w: sub(a, b), a, b };
}

/** Closest point to the origin on a simplex: the sub-simplex that holds it and its barycentric weights. */
interface Closest {
  verts: Vert[];
  lambda: number[];
  p: Vec3;
}

const combo = (vs: readonly Vert[], l: readonly number[], key: 'w' | 'a' | 'b'): Vec3 => {
  const out: Vec3 = [0, 0, 0];
  vs.forEach((v, k) => {
    for (let i = 0; i < 3; i++) out[i] += l[k] * v[key][i];
  });
  return out;
};

function closestSegment(A: Vert, B: Vert): Closest {
  const ab = sub(B.w, A.w);
  const den = dot(ab, ab);
  const t = den > 0 ? Math.min(1, Math.max(0, -dot(A.w, ab) / den)) : 0;
  if (t <= 0) return { verts: [A], lambda: [1], p: A.w };
  if (t >= 1) return { verts: [B], lambda: [1], p: B.w };
  const vs = [A, B];
  const l = [1 - t, t];
  return { verts: vs, lambda: l, p: combo(vs, l, 'w') };
}

/** Ericson's closest point on a triangle to the origin (regions by barycentric tests). */
function closestTriangle(A: Vert, B: Vert, C: Vert): Closest {
  const a = A.w, b = B.w, c = C.w;
  const ab = sub(b, a), ac = sub(c, a), ap = neg(a);
  const d1 = dot(ab, ap), d2 = dot(ac, ap);
  if (d1 <= 0 && d2 <= 0) return { verts: [A], lambda: [1], p: a };
  const bp = neg(b);
  const d3 = dot(ab, bp), d4 = dot(ac, bp);
  if (d3 >= 0 && d4 <= d3) return { verts: [B], lambda: [1], p: b };
  const vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return closestSegment(A, B);
  const cp = neg(c);
  const d5 = dot(ab, cp), d6 = dot(ac, cp);
  if (d6 >= 0 && d5 <= d6) return { verts: [C], lambda: [1], p: c };
  const vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return closestSegment(A, C);
  const va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) return closestSegment(B, C);
  const den = va + vb + vc;
  if (!(Math.abs(den) > 0)) return closestSegment(A, B);
  const v = vb / den, w = vc / den;
  const vs = [A, B, C];
  const l = [1 - v - w, v, w];
  return { verts: vs, lambda: l, p: combo(vs, l, 'w') };
}

/** Closest point on a tetrahedron; undefined when the origin is inside (the shapes overlap). */
function closestTetra(v: readonly Vert[]): Closest | undefined {
  const faces: [number, number, number, number][] = [[0, 1, 2, 3], [0, 1, 3, 2], [0, 2, 3, 1], [1, 2, 3, 0]];
  let best: Closest | undefined;
  let outside = false;
  for (const [i, j, k, o] of faces) {
    const n = cross(sub(v[j].w, v[i].w), sub(v[k].w, v[i].w));
    const sOrigin = -dot(n, v[i].w);
    const sOther = dot(n, sub(v[o].w, v[i].w));
    // the origin and the fourth vertex on opposite sides of this face: the origin is outside it
    if (sOrigin * sOther < 0) {
      outside = true;
      const c = closestTriangle(v[i], v[j], v[k]);
      if (!best || dot(c.p, c.p) < dot(best.p, best.p)) best = c;
    }
  }
  return outside ? best : undefined;
}

const MAX_ITER = 64;

/**
 * One contact between convex shapes A and B when their distance is at most `margin`: normal from B
 * to A, witness points on each surface, gap (negative when they overlap).
 */
export function gjkContact(A: PosedShape, B: PosedShape, margin: number, out: RawContact[]): void {
  const scale = Math.max(1e-9, Math.hypot(A.hi[0] - A.lo[0], A.hi[1] - A.lo[1], A.hi[2] - A.lo[2]), Math.hypot(B.hi[0] - B.lo[0], B.hi[1] - B.lo[1], B.hi[2] - B.lo[2]));
  const eps = 1e-10 * scale;
  let d: Vec3 = sub(A.c, B.c);
  if (!(dot(d, d) > 0)) d = [1, 0, 0];
  let simplex: Vert[] = [vert(A, B, neg(d))];
  let closest: Closest = { verts: simplex, lambda: [1], p: simplex[0].w };
  for (let it = 0; it < MAX_ITER; it++) {
    const v = closest.p;
    const vv = dot(v, v);
    if (vv <= eps * eps) return epa(A, B, simplex, margin, scale, out);
    const w = vert(A, B, neg(v));
    const dist = Math.sqrt(vv);
    // lower bound on the distance: beyond the margin, no contact
    if (dot(v, w.w) / dist > margin) return;
    if (vv - dot(v, w.w) <= 1e-12 * vv || simplex.some((s) => s.w[0] === w.w[0] && s.w[1] === w.w[1] && s.w[2] === w.w[2])) break;
    simplex = [...closest.verts, w];
    const next = simplex.length === 2 ? closestSegment(simplex[0], simplex[1]) : simplex.length === 3 ? closestTriangle(simplex[0], simplex[1], simplex[2]) : closestTetra(simplex);
    if (!next) return epa(A, B, simplex, margin, scale, out);
    if (dot(next.p, next.p) >= vv) break;
    closest = next;
    simplex = next.verts;
  }
  const pA = combo(closest.verts, closest.lambda, 'a');
  const pB = combo(closest.verts, closest.lambda, 'b');
  const diff = sub(pA, pB);
  const gap = Math.hypot(diff[0], diff[1], diff[2]);
  if (!(gap > 0) || gap > margin) {
    if (!(gap > 0)) epa(A, B, closest.verts, margin, scale, out);
    return;
  }
  out.push({ pA, pB, n: [diff[0] / gap, diff[1] / gap, diff[2] / gap], gap });
}

interface Face {
  v: [Vert, Vert, Vert];
  n: Vec3;
  d: number;
}

/**
 * The face (a, b, c) wound so that its normal points away from `inside`, a point inside the polytope
 * (the origin itself may lie on the boundary when the shapes just touch); d: the origin's distance.
 */
function face(a: Vert, b: Vert, c: Vert, inside: Vec3): Face | undefined {
  const n = cross(sub(b.w, a.w), sub(c.w, a.w));
  const l = Math.hypot(n[0], n[1], n[2]);
  if (!(l > 0)) return undefined;
  const u: Vec3 = [n[0] / l, n[1] / l, n[2] / l];
  if (dot(u, sub(a.w, inside)) < 0) return { v: [a, c, b], n: neg(u), d: -dot(u, a.w) };
  return { v: [a, b, c], n: u, d: dot(u, a.w) };
}

/** Grow a simplex that holds the origin into a tetrahedron (touching shapes leave a flat one). */
function fullSimplex(A: PosedShape, B: PosedShape, s: Vert[]): Vert[] | undefined {
  const dirs: Vec3[] = [[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]];
  const out = [...s];
  while (out.length < 4) {
    let added = false;
    for (const base of dirs) {
      let d = base;
      if (out.length === 2) d = cross(sub(out[1].w, out[0].w), base);
      if (out.length === 3) d = cross(sub(out[1].w, out[0].w), sub(out[2].w, out[0].w));
      if (!(dot(d, d) > 0)) continue;
      for (const dd of [d, neg(d)]) {
        const w = vert(A, B, dd);
        const far = out.every((x) => Math.hypot(...sub(x.w, w.w)) > 1e-12);
        const offPlane = out.length < 3 || Math.abs(dot(d, sub(w.w, out[0].w))) > 1e-12 * Math.sqrt(dot(d, d));
        if (far && offPlane) {
          out.push(w);
          added = true;
          break;
        }
      }
      if (added) break;
    }
    if (!added) return undefined;
  }
  return out;
}

function epa(A: PosedShape, B: PosedShape, s: Vert[], margin: number, scale: number, out: RawContact[]): void {
  const t = fullSimplex(A, B, s);
  if (!t) return;
  const inside: Vec3 = [0, 1, 2].map((i) => (t[0].w[i] + t[1].w[i] + t[2].w[i] + t[3].w[i]) / 4) as Vec3;
  let faces: Face[] = [];
  for (const [i, j, k] of [[0, 1, 2], [0, 3, 1], [0, 2, 3], [1, 3, 2]]) {
    const f = face(t[i], t[j], t[k], inside);
    if (f) faces.push(f);
  }
  if (faces.length < 4) return;
  const tol = 1e-9 * scale;
  let best = faces[0];
  for (let it = 0; it < 512; it++) {
    best = faces.reduce((x, y) => (y.d < x.d ? y : x));
    const w = vert(A, B, best.n);
    if (dot(w.w, best.n) - best.d <= tol) break;
    // remove the faces that see w, keep the horizon edges, and fan new faces to w
    const edges: [Vert, Vert][] = [];
    const keep: Face[] = [];
    for (const f of faces) {
      if (dot(f.n, sub(w.w, f.v[0].w)) > 0) {
        for (const [p, q] of [[f.v[0], f.v[1]], [f.v[1], f.v[2]], [f.v[2], f.v[0]]] as [Vert, Vert][]) {
          const twin = edges.findIndex(([x, y]) => x === q && y === p);
          if (twin >= 0) edges.splice(twin, 1);
          else edges.push([p, q]);
        }
      } else keep.push(f);
    }
    if (keep.length === faces.length) break;
    for (const [p, q] of edges) {
      const f = face(p, q, w, inside);
      if (f) keep.push(f);
    }
    faces = keep;
    if (!faces.length) return;
  }
  // the origin's projection on the closest face, in barycentric coordinates
  const [a, b, c] = best.v;
  const p: Vec3 = [best.n[0] * best.d, best.n[1] * best.d, best.n[2] * best.d];
  const v0 = sub(b.w, a.w), v1 = sub(c.w, a.w), v2 = sub(p, a.w);
  const d00 = dot(v0, v0), d01 = dot(v0, v1), d11 = dot(v1, v1), d20 = dot(v2, v0), d21 = dot(v2, v1);
  const den = d00 * d11 - d01 * d01;
  if (!(Math.abs(den) > 0)) return;
  const lv = (d11 * d20 - d01 * d21) / den;
  const lw = (d00 * d21 - d01 * d20) / den;
  const l = [1 - lv - lw, lv, lw];
  const pA = combo([a, b, c], l, 'a');
  const pB = combo([a, b, c], l, 'b');
  const gap = -best.d;
  if (gap > margin) return;
  // A − B ∋ best.n·d points from B's deepest into A: the normal from B to A is −best.n
  out.push({ pA, pB, n: neg(best.n), gap });
}
