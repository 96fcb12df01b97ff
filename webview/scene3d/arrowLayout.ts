// Where and how thick each force arrow is drawn, before any three.js: width grows with the
// magnitude (square-root scale, so a friction a tenth of the weight is still a third as thick), a
// force above the noise floor is never shorter than a few glyph units, and the arrows of contacts
// that sit at (nearly) the same point are fanned out sideways so that one does not hide another.
// Friction arrows start at the normal arrow's base and take a colour of their own (arrows.ts).
// Pure: no DOM, no three.
import { add3, norm3, scale3, type V3 } from './math';
import type { ContactData } from './read';

/** Shaft radius of the weakest and of the strongest arrow, in glyph units. */
export const RADIUS_MIN = 0.12;
export const RADIUS_MAX = 0.4;
/** Shortest arrow of a force above the noise floor, in glyph units (its head alone is about 1–3). */
export const MIN_LENGTH = { normal: 3, friction: 2.5, force: 2.5 } as const;
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

/**
 * Sideways offsets of the contacts' arrows: contacts whose points lie within COINCIDENT glyph
 * units of each other (a box edge's contacts, a mesh's duplicates) are spread on a small circle in
 * their tangent plane, in a fixed order (their index), so the fan does not flicker between steps.
 */
export function contactOffsets(contacts: readonly ContactData[], u: number): V3[] {
  const eps = COINCIDENT * u;
  const out: V3[] = contacts.map(() => [0, 0, 0]);
  if (!(eps > 0)) return out;
  // Cells of size eps: a contact's neighbours are in its cell or the 26 around it.
  const cells = new Map<string, number[]>();
  const key = (x: number, y: number, z: number): string => `${x},${y},${z}`;
  const cellOf = (p: V3): [number, number, number] => [Math.floor(p[0] / eps), Math.floor(p[1] / eps), Math.floor(p[2] / eps)];
  contacts.forEach((c, i) => {
    if (!c.point.every(Number.isFinite)) return;
    const k = key(...cellOf(c.point));
    const list = cells.get(k);
    if (list) list.push(i);
    else cells.set(k, [i]);
  });
  // Groups by union-find over the pairs closer than eps.
  const parent = contacts.map((_, i) => i);
  const root = (i: number): number => (parent[i] === i ? i : (parent[i] = root(parent[i])));
  contacts.forEach((c, i) => {
    if (!c.point.every(Number.isFinite)) return;
    const [x, y, z] = cellOf(c.point);
    for (let dx = -1; dx <= 1; dx++)
      for (let dy = -1; dy <= 1; dy++)
        for (let dz = -1; dz <= 1; dz++)
          for (const j of cells.get(key(x + dx, y + dy, z + dz)) ?? []) {
            if (j <= i) continue;
            const q = contacts[j].point;
            if (Math.hypot(q[0] - c.point[0], q[1] - c.point[1], q[2] - c.point[2]) < eps) parent[root(j)] = root(i);
          }
  });
  const groups = new Map<number, number[]>();
  contacts.forEach((_, i) => {
    const r = root(i);
    const g = groups.get(r);
    if (g) g.push(i);
    else groups.set(r, [i]);
  });
  for (const g of groups.values()) {
    if (g.length < 2) continue;
    g.forEach((i, k) => {
      const a = (2 * Math.PI * k) / g.length;
      const c = contacts[i];
      out[i] = add3(scale3(c.t1, SPREAD * u * Math.cos(a)), scale3(c.t2, SPREAD * u * Math.sin(a)));
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
  const offsets = contactOffsets(contacts, u);
  const out: ArrowSpec[] = [];
  contacts.forEach((c, id) => {
    const o = add3(c.point, offsets[id]);
    if (c.normalForce !== undefined && c.normalForce > s.floor) {
      out.push({ kind: 'normal', id, o, v: atLeast(scale3(c.normal, c.normalForce * s.force), u * MIN_LENGTH.normal), r: arrowRadius(c.normalForce, s.maxForce, u) });
    } else out.push({ kind: 'hint', id, o, v: scale3(c.normal, u * MIN_LENGTH.normal), r: u * RADIUS_MIN });
    const f = c.friction ? Math.hypot(c.friction[0], c.friction[1]) : 0;
    if (c.friction && f > s.floor) {
      const ft = add3(scale3(c.t1, c.friction[0]), scale3(c.t2, c.friction[1]));
      out.push({ kind: 'friction', id, o, v: atLeast(scale3(ft, s.force), u * MIN_LENGTH.friction), r: arrowRadius(f, s.maxForce, u) });
    }
  });
  return out;
}
