// Contact detection for a scene: which shapes may touch (same body, two static owners and, unless
// `jointedCollide`, two bodies joined by a constraint never do), the broad phase, the narrow phase,
// and the contacts with every field of `Contact` filled in. Deterministic: contacts come in the
// order of their shape pairs (body shapes in body order, then world shapes), then manifold order.
import { IDENTITY_MAT3, isFiniteVec, mat3TMulVec, perpendicularBasis, quatToMat3 } from '../core/math';
import type { SceneSpec } from '../scene/spec';
import type { Mat3, Vec3 } from '../types';
import { planePairs, sweepAndPrune } from './broadphase';
import { collideShapes } from './narrow';
import { poseShape, type Pose, type PosedShape, type RawContact } from './pose';
import { type Contact } from './contacts';
import { combineFriction, combineRestitution, type ContactSettings, type PlaneShape, type ShapeSpec } from '../scene/contactSpec';

/** The collision-relevant, time-independent part of a scene. */
export interface CollisionModel {
  /** Every shape: body shapes in body order, then world shapes. */
  shapes: { shape: ShapeSpec; owner: number; index: number; isStatic: boolean }[];
  /** Pairs of body indices (lower first) joined by at least one constraint. */
  joined: Set<number>;
  bodyCount: number;
}

const cache = new WeakMap<SceneSpec, CollisionModel>();

const pairKey = (i: number, j: number, n: number): number => (i < j ? i * n + j : j * n + i);

/** The collision model of a scene (computed once per scene object). */
export function collisionModel(scene: SceneSpec): CollisionModel {
  const hit = cache.get(scene);
  if (hit) return hit;
  const shapes: CollisionModel['shapes'] = [];
  scene.bodies.forEach((b, owner) => (b.shapes ?? []).forEach((shape, index) => shapes.push({ shape, owner, index, isStatic: b.fixed })));
  (scene.world?.shapes ?? []).forEach((shape, index) => shapes.push({ shape, owner: -1, index, isStatic: true }));
  const byName = new Map(scene.bodies.map((b, i) => [b.name, i]));
  const n = scene.bodies.length;
  const joined = new Set<number>();
  for (const c of scene.constraints) {
    const a = byName.get(c.bodyA);
    const b = byName.get(c.bodyB);
    if (a !== undefined && b !== undefined && a !== b) joined.add(pairKey(a, b, n));
  }
  const model = { shapes, joined, bodyCount: n };
  cache.set(scene, model);
  return model;
}

/** May shapes i and j of the model touch at all (before looking at where they are)? */
export function mayCollide(model: CollisionModel, i: number, j: number, jointedCollide: boolean): boolean {
  const a = model.shapes[i];
  const b = model.shapes[j];
  if (a.owner === b.owner || (a.isStatic && b.isStatic)) return false;
  if (!jointedCollide && a.owner >= 0 && b.owner >= 0 && model.joined.has(pairKey(a.owner, b.owner, model.bodyCount))) return false;
  return true;
}

/** Every shape of the model placed with the given body poses; undefined for a shape whose pose is not finite. */
export function poseShapes(model: CollisionModel, states: readonly Pose[]): { posed: (PosedShape | undefined)[]; rotations: Mat3[] } {
  const rotations = states.map((s) => quatToMat3(s.q));
  const posed = model.shapes.map((s) => {
    const p = s.owner >= 0 ? states[s.owner].p : ([0, 0, 0] as Vec3);
    const R = s.owner >= 0 ? rotations[s.owner] : IDENTITY_MAT3;
    const ps = poseShape(s.shape, s.owner, s.index, p, R);
    return isFiniteVec(ps.c) && isFiniteVec(ps.R) ? ps : undefined;
  });
  return { posed, rotations };
}

/** Candidate pairs (i < j, indices into the model's shapes), sorted: the broad phase. */
export function candidatePairs(model: CollisionModel, posed: readonly (PosedShape | undefined)[], settings: ContactSettings): [number, number][] {
  const margin = Math.max(0, settings.margin);
  const accept = (i: number, j: number): boolean => mayCollide(model, i, j, settings.jointedCollide);
  const solids: number[] = [];
  const planes: { index: number; plane: PlaneShape }[] = [];
  posed.forEach((p, i) => {
    if (!p) return;
    if (p.shape.type === 'plane') planes.push({ index: i, plane: p.shape });
    else solids.push(i);
  });
  const boxes = posed.map((p) => p ?? { lo: [0, 0, 0] as Vec3, hi: [0, 0, 0] as Vec3 });
  const movable = solids.filter((i) => !model.shapes[i].isStatic);
  const pairs = [...sweepAndPrune(boxes, solids, margin, accept), ...planePairs(boxes, movable, planes, margin, accept)];
  return pairs.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
}

/**
 * All contacts of the scene with the bodies at `states` (one pose per entry of `scene.bodies`):
 * gap ≤ settings.margin. Empty when contacts are disabled.
 */
export function detectContacts(scene: SceneSpec, states: readonly Pose[], settings: ContactSettings = scene.solver.contacts): Contact[] {
  if (!settings.enabled) return [];
  const model = collisionModel(scene);
  if (model.shapes.length < 2) return [];
  const { posed, rotations } = poseShapes(model, states);
  const contacts: Contact[] = [];
  for (const [i, j] of candidatePairs(model, posed, settings)) {
    const a = posed[i]!;
    const b = posed[j]!;
    for (const raw of collideShapes(a, b, Math.max(0, settings.margin))) {
      const c = toContact(raw, a, b, states, rotations);
      if (c) contacts.push(c);
    }
  }
  return contacts;
}

/** Fill in a Contact from a raw narrow-phase result; undefined when anything is not finite. */
export function toContact(raw: RawContact, a: PosedShape, b: PosedShape, states: readonly Pose[], rotations: readonly Mat3[]): Contact | undefined {
  if (!isFiniteVec(raw.pA) || !isFiniteVec(raw.pB) || !isFiniteVec(raw.n) || !Number.isFinite(raw.gap)) return undefined;
  const n = raw.n;
  const [t1, t2] = perpendicularBasis(n);
  const local = (s: PosedShape, p: Vec3): Vec3 => {
    if (s.owner < 0) return [p[0], p[1], p[2]];
    const o = states[s.owner].p;
    return mat3TMulVec(rotations[s.owner], [p[0] - o[0], p[1] - o[1], p[2] - o[2]]);
  };
  return {
    bodyA: a.owner,
    bodyB: b.owner,
    shapeA: a.index,
    shapeB: b.index,
    point: [(raw.pA[0] + raw.pB[0]) / 2, (raw.pA[1] + raw.pB[1]) / 2, (raw.pA[2] + raw.pB[2]) / 2],
    normal: [n[0], n[1], n[2]],
    gap: raw.gap,
    t1,
    t2,
    localA: local(a, raw.pA),
    localB: local(b, raw.pB),
    friction: combineFriction(a.shape.friction, b.shape.friction),
    restitution: combineRestitution(a.shape.restitution, b.shape.restitution),
  };
}
