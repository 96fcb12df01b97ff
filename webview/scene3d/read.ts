// Structural readers for optional data the 3D view draws when present: contact shapes (on bodies
// and the world) and contacts with their forces (on a step record or a snapshot). Anything
// malformed is skipped, never thrown on: the data may come from an older or newer engine.
// Pure: no DOM, no three.
import { finite3, norm3, unit3, unitQuat, cross3, type Q4, type V3 } from './math';

type ShapeKind = 'sphere' | 'box' | 'capsule' | 'plane';

export interface ShapeData {
  type: ShapeKind;
  name: string;
  /** Pose in the owner's frame (the body's, or the world's). */
  position: V3;
  orientation: Q4;
  radius: number;
  halfExtents: V3;
  halfLength: number;
  /** Plane: unit normal and offset (n·x ≤ offset is solid). */
  normal: V3;
  offset: number;
}

export type ContactState = 'open' | 'stick' | 'slip' | 'unknown';

export interface ContactData {
  point: V3;
  /** Unit normal from B to A. */
  normal: V3;
  t1: V3;
  t2: V3;
  gap?: number;
  /** Normal force (impulse/h) and friction force along t1, t2, when a solver reported them. */
  normalForce?: number;
  friction?: [number, number];
  state: ContactState;
  /** ‖f_t‖ / (μ·f_n) when reported (≤ 1 inside the Coulomb cone). */
  coneRatio?: number;
  /** Body names or scene indices (-1: world), as given; shape names when given. */
  bodyA?: string | number;
  bodyB?: string | number;
  shapeA?: string;
  shapeB?: string;
}

const isObj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null;
const num = (x: unknown): number | undefined => (typeof x === 'number' && Number.isFinite(x) ? x : undefined);
const pos = (x: unknown): number | undefined => {
  const n = num(x);
  return n !== undefined && n > 0 ? n : undefined;
};
const v3 = (x: unknown): V3 | undefined => (finite3(x) ? [x[0], x[1], x[2]] : undefined);

/** At most this many shapes per owner and contacts per step are drawn. */
const MAX_SHAPES = 10_000;
const MAX_CONTACTS = 50_000;

/** The shapes of a body or of the world (ShapeSpec[] of src/engine/collision/types.ts), validated. */
export function readShapes(x: unknown): ShapeData[] {
  if (!Array.isArray(x)) return [];
  const out: ShapeData[] = [];
  for (const s of x.slice(0, MAX_SHAPES)) {
    if (!isObj(s) || typeof s.type !== 'string') continue;
    const base = {
      name: typeof s.name === 'string' ? s.name : `${s.type}${out.length}`,
      position: v3(s.position) ?? ([0, 0, 0] as V3),
      orientation: unitQuat(Array.isArray(s.orientation) ? (s.orientation as number[]) : undefined),
      radius: 0,
      halfExtents: [0, 0, 0] as V3,
      halfLength: 0,
      normal: [0, 0, 1] as V3,
      offset: 0,
    };
    if (s.type === 'sphere') {
      const r = pos(s.radius);
      if (r !== undefined) out.push({ ...base, type: 'sphere', radius: r });
    } else if (s.type === 'box') {
      const h = v3(s.halfExtents);
      if (h && h.every((c) => c > 0)) out.push({ ...base, type: 'box', halfExtents: h });
    } else if (s.type === 'capsule') {
      const r = pos(s.radius);
      const l = num(s.halfLength);
      if (r !== undefined && l !== undefined && l >= 0) out.push({ ...base, type: 'capsule', radius: r, halfLength: l });
    } else if (s.type === 'plane') {
      const n = v3(s.normal);
      if (n && norm3(n) > 0) out.push({ ...base, type: 'plane', normal: unit3(n), offset: num(s.offset) ?? 0 });
    }
  }
  return out;
}

/** Two unit vectors completing n to a right-handed basis (t1, t2, n). */
function tangentBasis(n: V3): [V3, V3] {
  const a: V3 = Math.abs(n[0]) < 0.57 ? [1, 0, 0] : Math.abs(n[1]) < 0.57 ? [0, 1, 0] : [0, 0, 1];
  const t1 = unit3(cross3(a, n));
  return [t1, cross3(n, t1)];
}

const STATES: readonly ContactState[] = ['open', 'stick', 'slip'];

/**
 * Contacts of a step, from `contacts` on a record or a snapshot: each item either flat
 * (Contact and ContactForce fields together, or the CLI's JSON: point, normal, gap,
 * normalForce, frictionForce [t1, t2], state) or `{ contact, force }`; forces may also come as a
 * parallel `contactForces` array. Tangents default to a basis of the normal (friction is then
 * drawn only when the tangents were given).
 */
export function readContacts(holder: unknown): ContactData[] {
  const list = isObj(holder) ? holder.contacts : undefined;
  if (!Array.isArray(list)) return [];
  const forces = isObj(holder) && Array.isArray(holder.contactForces) ? (holder.contactForces as unknown[]) : [];
  const out: ContactData[] = [];
  list.slice(0, MAX_CONTACTS).forEach((raw, i) => {
    if (!isObj(raw)) return;
    const item = isObj(forces[i]) ? { ...raw, force: forces[i] } : raw;
    const c = isObj(item.contact) ? { ...item.contact, ...(isObj(item.force) ? item.force : {}) } : isObj(item.force) ? { ...item, ...item.force } : item;
    const point = v3(c.point);
    const n0 = v3(c.normal);
    if (!point || !n0 || !(norm3(n0) > 0)) return;
    const normal = unit3(n0);
    const t1g = v3(c.t1);
    const t2g = v3(c.t2);
    const [t1, t2] = t1g && t2g ? [unit3(t1g), unit3(t2g)] : tangentBasis(normal);
    const ff = Array.isArray(c.frictionForce) && c.frictionForce.length >= 2 ? [num(c.frictionForce[0]), num(c.frictionForce[1])] : undefined;
    const friction: [number, number] | undefined = ff && ff[0] !== undefined && ff[1] !== undefined && t1g && t2g ? [ff[0], ff[1]] : undefined;
    const state = STATES.includes(c.state as ContactState) ? (c.state as ContactState) : 'unknown';
    const who = (x: unknown): string | number | undefined => (typeof x === 'string' || (typeof x === 'number' && Number.isInteger(x)) ? x : undefined);
    const shape = (x: unknown): string | undefined => (typeof x === 'string' ? x : undefined);
    out.push({ point, normal, t1, t2, gap: num(c.gap), normalForce: num(c.normalForce), friction, state, coneRatio: num(c.coneRatio), bodyA: who(c.bodyA), bodyB: who(c.bodyB), shapeA: shape(c.shapeA), shapeB: shape(c.shapeB) });
  });
  return out;
}
