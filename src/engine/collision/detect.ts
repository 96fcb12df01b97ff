// Contact detection for a scene: which shapes may touch (same body, two static owners, two bodies
// listed in `world.exclude`, shapes whose contype/conaffinity bitmasks do not meet and, unless
// `jointedCollide`, two bodies joined by a constraint never do; the shape pairs of `world.pairs`
// always do, with their own parameters), the broad phase, the narrow phase, and the contacts with
// every field of `Contact` filled in. These are MuJoCo's rules once its parent–child and weld
// exclusions are written out as `exclude` entries (the importer does). Deterministic: contacts come
// in the order of their shape pairs (body shapes in body order, then world shapes), then manifold order.
import { IDENTITY_MAT3, isFiniteVec, mat3TMulVec, perpendicularBasis, quatToMat3 } from '../core/math';
import type { SceneSpec } from '../scene/spec';
import type { Mat3, Vec3 } from '../types';
import { aabbNearPlane, aabbOverlap, planePairs, SweepMemo, sweepAndPrune } from './broadphase';
import { collideShapes } from './narrow';
import { poseShape, type Pose, type PosedShape, type RawContact } from './pose';
import { type Contact } from './contacts';
import { contactSoft, type SoftParams } from './solmix';
import { combineFriction, combineRestitution, type ContactSettings, type PairSpec, type PlaneShape, type ShapeSpec } from '../scene/contactSpec';

/** The collision-relevant, time-independent part of a scene. */
export interface CollisionModel {
  /** Every shape: body shapes in body order, then world shapes. */
  shapes: { shape: ShapeSpec; owner: number; index: number; isStatic: boolean }[];
  /** Pairs of body indices (lower first) joined by at least one constraint. */
  joined: Set<number>;
  /** Pairs of owners (body index + 1; 0 the world) listed in `world.exclude`. */
  excluded: Set<number>;
  /** The explicit pairs of `world.pairs` as shape-index pairs (lower first), with their parameters. */
  explicit: Map<number, { i: number; j: number; pair: PairSpec }>;
  bodyCount: number;
  /** The broad phase's sweep order, kept from one detection to the next (a starting point only: broadphase.ts). */
  sweep: SweepMemo;
}

/** The parameters of one pair of shapes: what a contact between them is made of. */
export interface PairParams {
  /** Distance the solver holds the surfaces apart (MuJoCo's margin; a contact's gap is the distance less this). */
  margin: number;
  /** Detection reaches this much further than `margin` without acting (MuJoCo's gap). */
  gap: number;
  friction: number;
  restitution: number;
  condim: number;
  /** The contact's own soft parameters (collision/solmix.ts), where a shape or the pair has them. */
  soft?: SoftParams;
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
  const ownerOf = (name: string): number | undefined => (name === 'world' ? -1 : byName.get(name));
  const excluded = new Set<number>();
  for (const e of scene.world?.exclude ?? []) {
    const a = ownerOf(e.bodyA);
    const b = ownerOf(e.bodyB);
    if (a !== undefined && b !== undefined) excluded.add(pairKey(a + 1, b + 1, n + 1));
  }
  const shapeIndex = new Map(shapes.map((s, k) => [`${s.owner}\u0000${s.shape.name}`, k]));
  const explicit: CollisionModel['explicit'] = new Map();
  for (const pair of scene.world?.pairs ?? []) {
    const oa = ownerOf(pair.bodyA);
    const ob = ownerOf(pair.bodyB);
    const i = oa === undefined ? undefined : shapeIndex.get(`${oa}\u0000${pair.shapeA}`);
    const j = ob === undefined ? undefined : shapeIndex.get(`${ob}\u0000${pair.shapeB}`);
    if (i === undefined || j === undefined || i === j) continue;
    explicit.set(pairKey(i, j, shapes.length), { i: Math.min(i, j), j: Math.max(i, j), pair });
  }
  const model = { shapes, joined, excluded, explicit, bodyCount: n, sweep: new SweepMemo() };
  cache.set(scene, model);
  return model;
}

/**
 * May shapes i and j of the model touch through the filters (before looking at where they are)?
 * False for the explicit pairs too: candidatePairs adds those separately.
 */
export function mayCollide(model: CollisionModel, i: number, j: number, jointedCollide: boolean): boolean {
  const a = model.shapes[i];
  const b = model.shapes[j];
  if (a.owner === b.owner || (a.isStatic && b.isStatic)) return false;
  if (model.explicit.size && model.explicit.has(pairKey(i, j, model.shapes.length))) return false;
  if (model.excluded.size && model.excluded.has(pairKey(a.owner + 1, b.owner + 1, model.bodyCount + 1))) return false;
  const sa = a.shape;
  const sb = b.shape;
  if (((sa.contype ?? 1) & (sb.conaffinity ?? 1)) === 0 && ((sb.contype ?? 1) & (sa.conaffinity ?? 1)) === 0) return false;
  if (!jointedCollide && a.owner >= 0 && b.owner >= 0 && model.joined.has(pairKey(a.owner, b.owner, model.bodyCount))) return false;
  return true;
}

/** The parameters of the pair (i, j): the explicit pair's where given, else combined from the two shapes. */
export function pairParams(model: CollisionModel, i: number, j: number, settings: ContactSettings): PairParams {
  const a = model.shapes[i].shape;
  const b = model.shapes[j].shape;
  const pa = a.priority ?? 0;
  const pb = b.priority ?? 0;
  const friction = pa > pb ? a.friction : pb > pa ? b.friction : combineFriction(a.friction, b.friction, settings.frictionRule);
  const condim = pa > pb ? (a.condim ?? 3) : pb > pa ? (b.condim ?? 3) : Math.max(a.condim ?? 3, b.condim ?? 3);
  const ex = model.explicit.size ? model.explicit.get(pairKey(i, j, model.shapes.length))?.pair : undefined;
  const soft = contactSoft(a, b, settings, ex);
  const own: PairParams = { margin: (a.margin ?? 0) + (b.margin ?? 0), gap: (a.gap ?? 0) + (b.gap ?? 0), friction, restitution: combineRestitution(a.restitution, b.restitution), condim, ...(soft ? { soft } : {}) };
  if (!ex) return own;
  return { margin: ex.margin ?? own.margin, gap: ex.gap ?? own.gap, friction: ex.friction ?? own.friction, restitution: own.restitution, condim: ex.condim ?? own.condim, ...(soft ? { soft } : {}) };
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

/** How far a shape's own margin and gap reach beyond its surface. */
const reachOf = (s: ShapeSpec): number => (s.margin ?? 0) + (s.gap ?? 0);

/**
 * Candidate pairs (i < j, indices into the model's shapes), sorted: the broad phase. `asleep` (per
 * body, 1 asleep: contact/sleep.ts): a sleeping body's shapes meet only awake bodies' shapes.
 */
export function candidatePairs(model: CollisionModel, posed: readonly (PosedShape | undefined)[], settings: ContactSettings, asleep?: Uint8Array): [number, number][] {
  const margin = Math.max(0, settings.margin);
  const inert = (k: number): boolean => model.shapes[k].isStatic || (asleep !== undefined && asleep[model.shapes[k].owner] === 1);
  const accept = asleep ? (i: number, j: number): boolean => !(inert(i) && inert(j)) && mayCollide(model, i, j, settings.jointedCollide) : (i: number, j: number): boolean => mayCollide(model, i, j, settings.jointedCollide);
  const solids: number[] = [];
  const planes: { index: number; plane: PlaneShape }[] = [];
  posed.forEach((p, i) => {
    if (!p) return;
    if (p.shape.type === 'plane') planes.push({ index: i, plane: p.shape });
    else solids.push(i);
  });
  // Each box grown by its shape's own margin and gap, so that two boxes overlapping within the
  // global margin is exactly "within the pair's reach" (the pair's margin and gap are sums).
  const boxes = posed.map((p) => {
    if (!p) return { lo: [0, 0, 0] as Vec3, hi: [0, 0, 0] as Vec3 };
    const e = p.shape.type === 'plane' ? 0 : reachOf(p.shape);
    return e > 0 ? { lo: [p.lo[0] - e, p.lo[1] - e, p.lo[2] - e] as Vec3, hi: [p.hi[0] + e, p.hi[1] + e, p.hi[2] + e] as Vec3 } : p;
  });
  const movable = solids.filter((i) => !model.shapes[i].isStatic);
  const pairs = [...sweepAndPrune(boxes, solids, margin, accept, model.sweep)];
  for (const { index, plane } of planes) pairs.push(...planePairs(boxes, movable, [{ index, plane }], margin + reachOf(plane), accept));
  for (const { i, j } of model.explicit.values()) {
    const a = posed[i];
    const b = posed[j];
    if (!a || !b || (inert(i) && inert(j))) continue;
    const reach = margin + pairReach(pairParams(model, i, j, settings)) - reachOf(a.shape) - reachOf(b.shape);
    const near = a.shape.type === 'plane' ? b.shape.type !== 'plane' && aabbNearPlane(boxes[j], a.shape, reach) : b.shape.type === 'plane' ? aabbNearPlane(boxes[i], b.shape, reach) : aabbOverlap(boxes[i], boxes[j], reach);
    if (near) pairs.push([i, j]);
  }
  return pairs.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
}

const pairReach = (p: PairParams): number => p.margin + p.gap;

/**
 * All contacts of the scene with the bodies at `states` (one pose per entry of `scene.bodies`):
 * gap ≤ settings.margin. Empty when contacts are disabled. `asleep`: as candidatePairs.
 */
export function detectContacts(scene: SceneSpec, states: readonly Pose[], settings: ContactSettings = scene.solver.contacts, asleep?: Uint8Array): Contact[] {
  if (!settings.enabled) return [];
  const model = collisionModel(scene);
  if (model.shapes.length < 2) return [];
  const { posed, rotations } = poseShapes(model, states);
  const contacts: Contact[] = [];
  for (const [i, j] of candidatePairs(model, posed, settings, asleep)) {
    const a = posed[i]!;
    const b = posed[j]!;
    const params = pairParams(model, i, j, settings);
    for (const raw of collideShapes(a, b, Math.max(0, settings.margin) + pairReach(params))) {
      const c = toContact(raw, a, b, states, rotations, params);
      if (c) contacts.push(c);
    }
  }
  return contacts;
}

/**
 * Fill in a Contact from a raw narrow-phase result; undefined when anything is not finite. With
 * `params`, the gap is the distance less the pair's margin (what the solvers drive to zero), and
 * friction, restitution and condim are the pair's; without, the shapes' combined by default.
 */
export function toContact(raw: RawContact, a: PosedShape, b: PosedShape, states: readonly Pose[], rotations: readonly Mat3[], params?: PairParams): Contact | undefined {
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
    gap: params ? raw.gap - params.margin : raw.gap,
    t1,
    t2,
    localA: local(a, raw.pA),
    localB: local(b, raw.pB),
    // condim 1: a frictionless contact
    friction: params ? (params.condim === 1 ? 0 : params.friction) : combineFriction(a.shape.friction, b.shape.friction),
    restitution: params ? params.restitution : combineRestitution(a.shape.restitution, b.shape.restitution),
    ...(params?.soft ? { soft: params.soft } : {}),
  };
}
