// Where and how thick each force arrow is drawn, before any three.js: width grows with the
// magnitude (square-root scale, so a friction a tenth of the weight is still a third as thick), a
// force above the noise floor is never shorter than a few glyph units, and the arrows of contacts
// that sit at (nearly) the same point, or in line along a box edge, are fanned out sideways so that
// one does not hide another.
// Friction arrows start at the normal arrow's base (lifted off the surface by their radius) and
// take a colour of their own (arrows.ts).
// Pure: no DOM, no three.
import { add3, dot3, norm3, scale3, type V3 } from './math';
import type { ContactData } from './read';

/** Shaft radius of the weakest and of the strongest arrow, in glyph units. */
export const RADIUS_MIN = 0.15;
export const RADIUS_MAX = 0.4;
/** Shortest arrow of a force above the noise floor, in glyph units (its head alone is about 1–3). */
export const MIN_LENGTH = { normal: 3, friction: 4, force: 2.5 } as const;
/** Contact points closer than this (glyph units) read as one point on screen: their arrows are fanned out. */
export const COINCIDENT = 1.5;
/** How far sideways (glyph units) the arrows of coincident contacts are moved from their point. */
export const SPREAD = 1.1;

export type ArrowKind = 'normal' | 'friction' | 'hint';

/** One contact arrow as drawn: from `o` along `v` (metres), shaft radius `r`; `id` is the contact's index. */
export interface ArrowSpec {
  kind: ArrowKind;
  id: number;
  o: V3;
  v: V3;
  r: number;
}

/** The arrow sizes of the step shown (the view's Scales, robust.ts's floor). */
export interface ArrowSizing {
  /** Metres of arrow per newton. */
  force: number;
  /** The force that sets that scale (N; 0: none): the widest arrow. */
  maxForce: number;
  /** Below this (N) a force is round-off: no arrow. */
  floor: number;
  /** A contact's own floor (N), above `floor`: its forces below it are a solver's residue (robust.ts's contact floor). */
  contactFloor?: (c: ContactData) => number;
}

/** Shaft radius (m) of an arrow for `mag` against the largest `max`: RADIUS_MIN..RADIUS_MAX glyph units on a square-root scale. */
export function arrowRadius(mag: number, max: number, u: number): number {
  const t = max > 0 && Number.isFinite(mag) ? Math.sqrt(Math.min(1, Math.max(0, mag / max))) : 0;
  return u * (RADIUS_MIN + (RADIUS_MAX - RADIUS_MIN) * t);
}

/** `v` lengthened to at least `min` (a force above the noise floor stays visible however small against the largest). */
export function atLeast(v: V3, min: number): V3 {
  const len = norm3(v);
  return len > 0 && len < min ? scale3(v, min / len) : v;
}

/** Above this many contacts the arrows are not fanned out (the pairwise test would cost more than the frame). */
export const FAN_LIMIT = 2000;

/**
 * Sideways offsets of the contacts' arrows. Two contacts' normal arrows hide each other when their
 * points lie within COINCIDENT glyph units of each other (a mesh's duplicates), or along one line
 * with (nearly) parallel normals closer than the two arrows' lengths and their heads' room (a box
 * edge's contacts: the ground's arrow rises into the one between the boxes). Each such group is
 * spread on a small circle in its tangent plane, in a fixed order (their index), so the fan does
 * not flicker between steps.
 * `reach[i]`: the length of contact i's normal arrow (m).
 */
export function contactOffsets(contacts: readonly ContactData[], u: number, reach: readonly number[] = []): V3[] {
  const eps = COINCIDENT * u;
  const n = contacts.length;
  const out: V3[] = contacts.map(() => [0, 0, 0]);
  if (!(eps > 0) || n < 2 || n > FAN_LIMIT) return out;
  const parent = contacts.map((_, i) => i);
  const root = (i: number): number => (parent[i] === i ? i : (parent[i] = root(parent[i])));
  for (let i = 0; i < n; i++) {
    const a = contacts[i];
    if (!a.point.every(Number.isFinite)) continue;
    for (let j = i + 1; j < n; j++) {
      const b = contacts[j];
      if (!b.point.every(Number.isFinite)) continue;
      const d: V3 = [b.point[0] - a.point[0], b.point[1] - a.point[1], b.point[2] - a.point[2]];
      const along = dot3(d, a.normal);
      const side = Math.sqrt(Math.max(0, dot3(d, d) - along * along));
      const near = Math.hypot(along, side) < eps;
      const inLine = side < eps && Math.abs(dot3(a.normal, b.normal)) > 0.9 && Math.abs(along) < (reach[i] ?? 0) + (reach[j] ?? 0) + eps;
      if (near || inLine) parent[root(j)] = root(i);
    }
  }
  const groups = new Map<number, number[]>();
  contacts.forEach((_, i) => {
    const r = root(i);
    const g = groups.get(r);
    if (g) g.push(i);
    else groups.set(r, [i]);
  });
  for (const g of groups.values()) {
    if (g.length < 2) continue;
    // One tangent basis for the group (its first contact's): the contacts' own bases differ where their normals are opposite.
    const { t1, t2 } = contacts[g[0]];
    g.forEach((i, k) => {
      const a = (2 * Math.PI * k) / g.length;
      out[i] = add3(scale3(t1, SPREAD * u * Math.cos(a)), scale3(t2, SPREAD * u * Math.sin(a)));
    });
  }
  return out;
}

/**
 * The arrows of a step's contacts: the normal force (or, when none is reported or it is round-off,
 * a thin hint of the normal) and the friction force from the same base, with widths by magnitude
 * against the force that sets the scale, a minimum length, and coincident contacts fanned out.
 */
export function contactArrows(contacts: readonly ContactData[], s: ArrowSizing, u: number): ArrowSpec[] {
  const floors = contacts.map((c) => Math.max(s.floor, s.contactFloor?.(c) ?? 0));
  const normalLength = (c: ContactData, id: number): number => (c.normalForce !== undefined && c.normalForce > floors[id] && Number.isFinite(c.normalForce * s.force) ? Math.max(c.normalForce * s.force, u * MIN_LENGTH.normal) : u * MIN_LENGTH.normal);
  const offsets = contactOffsets(contacts, u, contacts.map(normalLength));
  const out: ArrowSpec[] = [];
  contacts.forEach((c, id) => {
    const o = add3(c.point, offsets[id]);
    if (c.normalForce !== undefined && c.normalForce > floors[id]) {
      out.push({ kind: 'normal', id, o, v: atLeast(scale3(c.normal, c.normalForce * s.force), u * MIN_LENGTH.normal), r: arrowRadius(c.normalForce, s.maxForce, u) });
    } else out.push({ kind: 'hint', id, o, v: scale3(c.normal, u * MIN_LENGTH.normal), r: u * RADIUS_MIN });
    const f = c.friction ? Math.hypot(c.friction[0], c.friction[1]) : 0;
    if (c.friction && f > floors[id]) {
      const ft = add3(scale3(c.t1, c.friction[0]), scale3(c.t2, c.friction[1]));
      const r = arrowRadius(f, s.maxForce, u);
      // Lifted by its radius off the surface: a friction arrow lies in the contact plane, half inside the ground tile and the body.
      out.push({ kind: 'friction', id, o: add3(o, scale3(c.normal, r)), v: atLeast(scale3(ft, s.force), u * MIN_LENGTH.friction), r });
    }
  });
  return out;
}
