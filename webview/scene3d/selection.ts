// What the 3D view selects: a body, a constraint or a contact of the shown step. Contacts are
// renumbered every step, so a contact is named by its ends (`bottom/bottomBox–world/ground`, the
// engine's contactTitle) and, when that pair touches at several points, its ordinal (`#2`); a
// selected contact follows the same pair's nearest point from step to step. Also: where a target
// is in the world, and the keyboard order (bodies, constraints, then the step's contacts).
// Pure: no DOM, no three.
import type { V3 } from './math';
import { poseOf, type Frame, type SceneData } from './model';
import type { ContactData } from './read';

/** A selection by name, as the panel and tests see it. */
export interface Selection3D {
  body?: string;
  constraint?: string;
  /** A contact of the shown step: `bodyA/shapeA–bodyB/shapeB`, with ` #k` when the pair touches at several points. */
  contact?: string;
}

type TargetKind = 'body' | 'constraint' | 'contact';

export interface Target {
  kind: TargetKind;
  /** Body or constraint index in scene order; contact index in the frame's contacts. */
  index: number;
}

/** The name of one end of a contact: a body name, `world` for the world (index −1 or a missing body). */
function endName(data: SceneData, who: string | number | undefined): string {
  if (typeof who === 'string') return who;
  if (typeof who === 'number' && who >= 0) return data.bodies[who]?.name ?? `#${who}`;
  return 'world';
}

/** `A/shapeA–B/shapeB` (the shape parts only when known). */
export function contactPair(data: SceneData, c: ContactData): string {
  const end = (who: string | number | undefined, shape: string | undefined): string => `${endName(data, who)}${shape ? `/${shape}` : ''}`;
  return `${end(c.bodyA, c.shapeA)}–${end(c.bodyB, c.shapeB)}`;
}

/** The contact's name at its step: its pair, with `#k` (1-based) when the pair touches at more than one point. */
export function contactName(data: SceneData, contacts: readonly ContactData[], k: number): string {
  const pair = contactPair(data, contacts[k]);
  let n = 0;
  let ord = 0;
  contacts.forEach((c, j) => {
    if (contactPair(data, c) !== pair) return;
    n++;
    if (j <= k) ord = n;
  });
  return n > 1 ? `${pair} #${ord}` : pair;
}

/** The contact of `frame` called `name` (as contactName gives it), or -1. */
export function findContact(data: SceneData, frame: Frame, name: string): number {
  const m = /^(.*) #(\d+)$/.exec(name);
  const pair = m ? m[1] : name;
  const ord = m ? Number(m[2]) : 1;
  let seen = 0;
  for (let k = 0; k < frame.contacts.length; k++) {
    if (contactPair(data, frame.contacts[k]) !== pair) continue;
    if (++seen === ord) return k;
  }
  return -1;
}

/** The contact of `frame` on the same pair as `prev` nearest to its point (a selected contact across steps), or -1. */
export function followContact(data: SceneData, frame: Frame, prev: ContactData): number {
  const pair = contactPair(data, prev);
  let best = -1;
  let bd = Infinity;
  frame.contacts.forEach((c, k) => {
    if (contactPair(data, c) !== pair) return;
    const d = Math.hypot(c.point[0] - prev.point[0], c.point[1] - prev.point[1], c.point[2] - prev.point[2]);
    if (d < bd) [bd, best] = [d, k];
  });
  return best;
}

/** The name the rest of the product uses for a target. */
export function targetName(data: SceneData, frame: Frame, t: Target): string {
  if (t.kind === 'body') return data.bodies[t.index].name;
  if (t.kind === 'constraint') return data.constraints[t.index].name;
  return contactName(data, frame.contacts, t.index);
}

/** Where a target is drawn: a body's centre, a constraint's anchors' midpoint, a contact's point. */
export function targetPoint(data: SceneData, frame: Frame, t: Target): V3 | undefined {
  if (t.kind === 'body') return t.index < data.bodies.length ? poseOf(frame.poses, t.index).p : undefined;
  if (t.kind === 'contact') return frame.contacts[t.index]?.point;
  const a = frame.anchorA[t.index];
  const b = frame.anchorB[t.index];
  return a && b ? [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2, (a[2] + b[2]) / 2] : undefined;
}

/** The target a selection names (a constraint before a body before a contact of the shown step). */
export function resolveSelection(data: SceneData, frame: Frame, sel: { body?: string; constraint?: string; contact?: string }): Target | undefined {
  if (sel.constraint !== undefined && data.constraintIndex.has(sel.constraint)) return { kind: 'constraint', index: data.constraintIndex.get(sel.constraint)! };
  if (sel.body !== undefined && data.bodyIndex.has(sel.body)) return { kind: 'body', index: data.bodyIndex.get(sel.body)! };
  const k = sel.contact !== undefined ? findContact(data, frame, sel.contact) : -1;
  return k >= 0 ? { kind: 'contact', index: k } : undefined;
}

export const sameTarget = (a: Target | undefined, b: Target | undefined): boolean => a?.kind === b?.kind && a?.index === b?.index;

/** The next target in keyboard order (bodies, constraints, contacts) from `cur`; undefined past either end. */
export function nextTarget(data: SceneData, frame: Frame, cur: Target | undefined, dir: 1 | -1): Target | undefined {
  const nb = data.bodies.length;
  const nc = data.constraints.length;
  const n = nb + nc + frame.contacts.length;
  const at = !cur ? (dir > 0 ? -1 : n) : cur.kind === 'body' ? cur.index : cur.kind === 'constraint' ? nb + cur.index : nb + nc + cur.index;
  const next = at + dir;
  if (next < 0 || next >= n) return undefined;
  if (next < nb) return { kind: 'body', index: next };
  if (next < nb + nc) return { kind: 'constraint', index: next - nb };
  return { kind: 'contact', index: next - nb - nc };
}
