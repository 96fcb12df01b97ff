// Box–box: separating-axis test over the 15 candidate axes (3 face normals per box, 9 edge×edge
// cross products), then a manifold of up to four points. The approach is the classic one of ODE,
// Bullet and MuJoCo (engine_collision_box.c): for a face axis the face of the other (incident) box
// most opposed to the reference normal is clipped against the reference face's side planes
// (Sutherland–Hodgman) and the clipped vertices below the margin become contacts; for an edge
// axis one contact at the closest points of the two supporting edges.
import type { Vec3 } from '../types';
import { closestSegmentSegment } from './round';
import { axisOf, type PosedShape, type RawContact } from './pose';
import type { BoxShape } from '../scene/contactSpec';

const dot = (a: Vec3, b: Vec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

/** A clipped vertex: reference-face coordinates (x, y) and height z above the reference face. */
interface Vert {
  x: number;
  y: number;
  z: number;
}

/** Clip a polygon against sign·(x or y) ≤ limit, interpolating z. */
function clip(poly: Vert[], coord: 'x' | 'y', sign: number, limit: number): Vert[] {
  const out: Vert[] = [];
  for (let k = 0; k < poly.length; k++) {
    const p = poly[k];
    const q = poly[(k + 1) % poly.length];
    const dp = sign * p[coord] - limit;
    const dq = sign * q[coord] - limit;
    if (dp <= 0) out.push(p);
    if ((dp < 0 && dq > 0) || (dp > 0 && dq < 0)) {
      const t = dp / (dp - dq);
      out.push({ x: p.x + t * (q.x - p.x), y: p.y + t * (q.y - p.y), z: p.z + t * (q.z - p.z) });
    }
  }
  return out;
}

const area2 = (a: Vert, b: Vert, c: Vert): number => Math.abs((b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x));

/**
 * At most four of the points, spanning the largest area: the deepest, the farthest from it, the
 * one making the largest triangle with those, and the one adding the most area to that triangle.
 * Returned in their original (polygon) order; ties go to the earlier point.
 */
export function reduceManifold(pts: readonly Vert[]): number[] {
  if (pts.length <= 4) return pts.map((_, i) => i);
  const chosen: number[] = [];
  /** The first point not chosen yet with the largest score (NaN counts as −∞). */
  const pick = (score: (p: Vert) => number): Vert => {
    let best = -1;
    let bestScore = -Infinity;
    pts.forEach((p, i) => {
      if (chosen.includes(i)) return;
      const s = score(p);
      if (best < 0 || s > bestScore) {
        bestScore = Number.isNaN(s) ? -Infinity : s;
        best = i;
      }
    });
    chosen.push(best);
    return pts[best];
  };
  const p1 = pick((p) => -p.z);
  const p2 = pick((p) => (p.x - p1.x) ** 2 + (p.y - p1.y) ** 2);
  const p3 = pick((p) => area2(p1, p2, p));
  const tri = area2(p1, p2, p3);
  pick((p) => area2(p1, p2, p) + area2(p2, p3, p) + area2(p3, p1, p) - tri);
  return chosen.sort((x, y) => x - y);
}

/** A and B boxes: up to four contacts, normal from B to A. */
export function boxBox(a: PosedShape, b: PosedShape, margin: number, out: RawContact[]): void {
  const ha = (a.shape as BoxShape).halfExtents;
  const hb = (b.shape as BoxShape).halfExtents;
  const A = [axisOf(a.R, 0), axisOf(a.R, 1), axisOf(a.R, 2)];
  const B = [axisOf(b.R, 0), axisOf(b.R, 1), axisOf(b.R, 2)];
  const d: Vec3 = [b.c[0] - a.c[0], b.c[1] - a.c[1], b.c[2] - a.c[2]];
  const scale = ha[0] + ha[1] + ha[2] + hb[0] + hb[1] + hb[2];
  const tol = margin + 1e-13 * scale;
  const radius = (h: Vec3, ax: Vec3[], L: Vec3): number => h[0] * Math.abs(dot(ax[0], L)) + h[1] * Math.abs(dot(ax[1], L)) + h[2] * Math.abs(dot(ax[2], L));
  const separation = (L: Vec3): number => Math.abs(dot(L, d)) - radius(ha, A, L) - radius(hb, B, L);

  // Stage 1: the axis of largest separation (negative: least penetration). Faces win ties.
  let face = { sep: -Infinity, code: -1 };
  for (let code = 0; code < 6; code++) {
    const sep = separation(code < 3 ? A[code] : B[code - 3]);
    if (sep > tol) return;
    if (sep > face.sep) face = { sep, code };
  }
  let edge = { sep: -Infinity, L: [0, 0, 0] as Vec3, i: -1, j: -1 };
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      const u = A[i];
      const v = B[j];
      const c: Vec3 = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
      const len = Math.hypot(c[0], c[1], c[2]);
      if (len < 1e-6) continue; // nearly parallel edges: covered by the face axes
      const L: Vec3 = [c[0] / len, c[1] / len, c[2] / len];
      const sep = separation(L);
      if (sep > tol) return;
      if (sep > edge.sep) edge = { sep, L, i, j };
    }
  }
  // An edge axis must beat the best face clearly; one nearly parallel to that face (within ~8°)
  // must beat it by 5 % of the depth, or resting stacks flip between the two by round-off.
  const faceAxis = face.code < 3 ? A[face.code] : B[face.code - 3];
  const margin5 = Math.abs(dot(edge.L, faceAxis)) > 0.99 ? 0.05 * Math.abs(face.sep) : 1e-6 * Math.abs(face.sep);
  if (edge.i >= 0 && edge.sep > face.sep + margin5 + 1e-13 * scale) {
    edgeContact(a, b, A, B, ha, hb, edge.L, edge.i, edge.j, edge.sep, out);
    return;
  }
  faceContacts(a, b, A, B, ha, hb, face.code, face.sep, margin, out);
}

/** Edge–edge: one contact midway between the closest points of the two supporting edges. */
function edgeContact(a: PosedShape, b: PosedShape, A: Vec3[], B: Vec3[], ha: Vec3, hb: Vec3, L0: Vec3, i: number, j: number, gap: number, out: RawContact[]): void {
  // Orient L from B to A.
  const L: Vec3 = dot(L0, [a.c[0] - b.c[0], a.c[1] - b.c[1], a.c[2] - b.c[2]]) >= 0 ? L0 : [-L0[0], -L0[1], -L0[2]];
  // The edge of A along A[i] supporting −L, the edge of B along B[j] supporting +L. A component of L
  // near zero leaves the corner ambiguous: try both and keep the closest pair.
  const edges = (c: Vec3, ax: Vec3[], h: Vec3, along: number, sgn: number): [Vec3, Vec3][] => {
    let corners: Vec3[] = [[...c]];
    for (let k = 0; k < 3; k++) {
      if (k === along) continue;
      const s = sgn * dot(L, ax[k]);
      const signs = Math.abs(s) < 1e-9 ? [1, -1] : [Math.sign(s)];
      corners = corners.flatMap((p) => signs.map((g): Vec3 => [p[0] + g * h[k] * ax[k][0], p[1] + g * h[k] * ax[k][1], p[2] + g * h[k] * ax[k][2]]));
    }
    const e = ax[along];
    const l = h[along];
    return corners.map((p) => [
      [p[0] - l * e[0], p[1] - l * e[1], p[2] - l * e[2]],
      [p[0] + l * e[0], p[1] + l * e[1], p[2] + l * e[2]],
    ]);
  };
  let best: { c1: Vec3; c2: Vec3 } | undefined;
  let bestD = Infinity;
  for (const [p1, q1] of edges(a.c, A, ha, i, -1)) {
    for (const [p2, q2] of edges(b.c, B, hb, j, 1)) {
      const r = closestSegmentSegment(p1, q1, p2, q2);
      const dd = (r.c1[0] - r.c2[0]) ** 2 + (r.c1[1] - r.c2[1]) ** 2 + (r.c1[2] - r.c2[2]) ** 2;
      if (dd < bestD) {
        bestD = dd;
        best = r;
      }
    }
  }
  if (!best) return; // only with non-finite input
  const m: Vec3 = [(best.c1[0] + best.c2[0]) / 2, (best.c1[1] + best.c2[1]) / 2, (best.c1[2] + best.c2[2]) / 2];
  const g = gap / 2;
  out.push({ pA: [m[0] + g * L[0], m[1] + g * L[1], m[2] + g * L[2]], pB: [m[0] - g * L[0], m[1] - g * L[1], m[2] - g * L[2]], n: L, gap });
}

/** Face contact: clip the incident face against the reference face; up to four points. */
function faceContacts(a: PosedShape, b: PosedShape, A: Vec3[], B: Vec3[], ha: Vec3, hb: Vec3, code: number, sep: number, margin: number, out: RawContact[]): void {
  const refIsA = code < 3;
  const k = refIsA ? code : code - 3;
  const [cR, axR, hR, cI, axI, hI] = refIsA ? [a.c, A, ha, b.c, B, hb] : [b.c, B, hb, a.c, A, ha];
  const toI: Vec3 = [cI[0] - cR[0], cI[1] - cR[1], cI[2] - cR[2]];
  const s = dot(toI, axR[k]) >= 0 ? 1 : -1;
  const nR: Vec3 = [s * axR[k][0], s * axR[k][1], s * axR[k][2]]; // outward, towards the incident box
  // Incident face: the one most opposed to nR.
  let m = 0;
  for (let q = 1; q < 3; q++) if (Math.abs(dot(nR, axI[q])) > Math.abs(dot(nR, axI[m]))) m = q;
  const si = dot(nR, axI[m]) > 0 ? -1 : 1;
  const fc: Vec3 = [cI[0] + si * hI[m] * axI[m][0], cI[1] + si * hI[m] * axI[m][1], cI[2] + si * hI[m] * axI[m][2]];
  const u = (m + 1) % 3;
  const v = (m + 2) % 3;
  const x1 = (k + 1) % 3;
  const x2 = (k + 2) % 3;
  const coords = (p: Vec3): Vert => {
    const r: Vec3 = [p[0] - cR[0], p[1] - cR[1], p[2] - cR[2]];
    return { x: dot(r, axR[x1]), y: dot(r, axR[x2]), z: dot(r, nR) - hR[k] };
  };
  let poly: Vert[] = [
    [1, 1],
    [-1, 1],
    [-1, -1],
    [1, -1],
  ].map(([su, sv]) => coords([0, 1, 2].map((r) => fc[r] + su * hI[u] * axI[u][r] + sv * hI[v] * axI[v][r]) as Vec3));
  poly = clip(poly, 'x', 1, hR[x1]);
  poly = clip(poly, 'x', -1, hR[x1]);
  poly = clip(poly, 'y', 1, hR[x2]);
  poly = clip(poly, 'y', -1, hR[x2]);
  const dup = 1e-14 * (hR[x1] ** 2 + hR[x2] ** 2);
  const kept: Vert[] = [];
  for (const p of poly) {
    if (p.z > margin) continue;
    if (kept.some((q) => (q.x - p.x) ** 2 + (q.y - p.y) ** 2 < dup)) continue;
    kept.push(p);
  }
  if (kept.length === 0 || Math.min(...kept.map((p) => p.z)) > sep + 1e-9 * (hR[k] + hI[m])) {
    // The deepest corner of the incident box is not over the reference face (the overlap is an
    // edge or a corner beside it): add that corner, at the separating depth, so that the
    // manifold never understates the penetration.
    const corner: Vec3 = [cI[0], cI[1], cI[2]];
    for (let q = 0; q < 3; q++) {
      const g = dot(nR, axI[q]) > 0 ? -1 : 1;
      for (let r = 0; r < 3; r++) corner[r] += g * hI[q] * axI[q][r];
    }
    kept.push(coords(corner));
  }
  for (const idx of reduceManifold(kept)) {
    const p = kept[idx];
    const onI: Vec3 = [0, 1, 2].map((r) => cR[r] + p.x * axR[x1][r] + p.y * axR[x2][r] + (hR[k] + p.z) * nR[r]) as Vec3;
    const onR: Vec3 = [onI[0] - p.z * nR[0], onI[1] - p.z * nR[1], onI[2] - p.z * nR[2]];
    if (refIsA) out.push({ pA: onR, pB: onI, n: [-nR[0], -nR[1], -nR[2]], gap: p.z });
    else out.push({ pA: onI, pB: onR, n: nR, gap: p.z });
  }
}
