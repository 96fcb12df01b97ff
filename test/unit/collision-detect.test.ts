// detectContacts on whole scenes: the broad phase finds exactly the pairs a brute-force loop finds
// (random scenes of 300 shapes), the filtering rules (same body, static pairs, jointed bodies),
// every field of Contact, determinism, and no NaN from non-finite poses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rng } from './linalg-fixtures';
import { mat3MulVec, quatToMat3 } from '../../src/engine/core/math';
import { aabbNearPlane, aabbOverlap } from '../../src/engine/collision/broadphase';
import { candidatePairs, collisionModel, detectContacts, mayCollide, poseShapes, toContact } from '../../src/engine/collision/detect';
import { collideShapes } from '../../src/engine/collision/narrow';
import type { Pose } from '../../src/engine/collision/pose';
import type { ContactSettings, ShapeSpec } from '../../src/engine/scene/contactSpec';
import { DEFAULT_SOLVER } from '../../src/engine/scene/fields';
import { parseScene } from '../../src/engine/scene/parse';
import type { BodySpec, ConstraintSpec, SceneSpec } from '../../src/engine/scene/spec';
import type { Quat, Vec3 } from '../../src/engine/types';
import { boxSpec, capsuleSpec, planeSpec, randomQuat, sphereSpec } from './collision-helpers';

const settings = (over: Partial<ContactSettings> = {}): ContactSettings => ({ enabled: true, margin: 0, level: 'velocity', jointedCollide: false, penetrationTolerance: 1e-3, ...over });

function body(index: number, position: Vec3, shapes: ShapeSpec[], extra: Partial<BodySpec> = {}): BodySpec {
  return {
    index,
    name: `b${index}`,
    mass: 1,
    inertia: [1, 0, 0, 0, 1, 0, 0, 0, 1],
    position,
    orientation: [0, 0, 0, 1],
    velocity: [0, 0, 0],
    angularVelocity: [0, 0, 0],
    force: [0, 0, 0],
    torque: [0, 0, 0],
    gravity: true,
    fixed: false,
    shapes: shapes.map((s, i) => ({ ...s, index: i, name: `${s.type}${i}` })),
    ...extra,
  };
}

function scene(bodies: BodySpec[], world: ShapeSpec[] = [], constraints: ConstraintSpec[] = []): SceneSpec {
  return {
    name: 't',
    gravity: [0, 0, -9.81],
    solver: { ...DEFAULT_SOLVER, contacts: settings() },
    bodies,
    constraints,
    world: { shapes: world.map((s, i) => ({ ...s, index: i, name: `${s.type}${i}` })) },
  };
}

const ball = (a: string, b: string, index = 0): ConstraintSpec => ({ index, name: `c${index}`, type: 'ball', bodyA: a, bodyB: b, anchorA: [0, 0, 0], anchorB: [0, 0, 0] });
const posesOf = (s: SceneSpec): Pose[] => s.bodies.map((b) => ({ p: b.position, q: b.orientation }));

/** A random scene of about `shapes` shapes on ~shapes/3 bodies (some fixed, some jointed), world boxes and two planes. */
function randomScene(rand: () => number, shapes: number): { scene: SceneSpec; poses: Pose[] } {
  const bodies: BodySpec[] = [];
  let count = 0;
  const extent = 6;
  const randomShape = (): ShapeSpec => {
    const t = Math.floor(rand() * 3);
    const s = 0.1 + 0.4 * rand();
    const spec = t === 0 ? sphereSpec(s) : t === 1 ? capsuleSpec(0.5 * s, s) : boxSpec([s, 0.5 * s + 0.1 * rand(), s * rand() + 0.05]);
    return { ...spec, position: [rand() - 0.5, rand() - 0.5, rand() - 0.5], orientation: randomQuat(rand), friction: rand(), restitution: rand() };
  };
  while (count < shapes - 6) {
    const n = 1 + Math.floor(rand() * 4);
    const p: Vec3 = [extent * (2 * rand() - 1), extent * (2 * rand() - 1), extent * rand()];
    bodies.push(body(bodies.length, p, Array.from({ length: n }, randomShape), { fixed: rand() < 0.1, orientation: randomQuat(rand) }));
    count += n;
  }
  const world: ShapeSpec[] = [planeSpec([0, 0, 1], 0), planeSpec([1, 0, 0.2], -4)];
  for (let k = 0; k < 4; k++) world.push({ ...randomShape(), position: [extent * (2 * rand() - 1), extent * (2 * rand() - 1), extent * rand()] });
  const constraints: ConstraintSpec[] = [];
  for (let k = 0; k < bodies.length / 3; k++) {
    const i = Math.floor(rand() * bodies.length);
    const j = Math.floor(rand() * bodies.length);
    if (i !== j) constraints.push(ball(bodies[i].name, bodies[j].name, constraints.length));
  }
  constraints.push(ball(bodies[0].name, 'world', constraints.length));
  const s = scene(bodies, world, constraints);
  return { scene: s, poses: posesOf(s) };
}

test('broad phase = brute force on random scenes of 300 shapes (same pair set), and no contact is lost', () => {
  for (const seed of [1, 2, 3]) {
    const rand = rng(seed);
    const { scene: s, poses } = randomScene(rand, 300);
    const model = collisionModel(s);
    assert.ok(model.shapes.length >= 295, `${model.shapes.length} shapes`);
    const { posed, rotations } = poseShapes(model, poses);
    const configs = [settings(), settings({ margin: 0.05 }), settings({ jointedCollide: true, margin: 0.2 })];
    for (const cfg of configs) {
      const fast = candidatePairs(model, posed, cfg);
      const brute: [number, number][] = [];
      for (let i = 0; i < posed.length; i++) {
        for (let j = i + 1; j < posed.length; j++) {
          if (!mayCollide(model, i, j, cfg.jointedCollide)) continue;
          const a = posed[i]!;
          const b = posed[j]!;
          const pa = a.shape.type === 'plane';
          const pb = b.shape.type === 'plane';
          const near = pa && pb ? false : pa ? aabbNearPlane(b, a.shape as never, cfg.margin) : pb ? aabbNearPlane(a, b.shape as never, cfg.margin) : aabbOverlap(a, b, cfg.margin);
          if (near) brute.push([i, j]);
        }
      }
      assert.deepEqual(fast, brute, `seed ${seed}, ${JSON.stringify(cfg)}`);
      assert.ok(brute.length > 20, `only ${brute.length} candidate pairs: the scene is too sparse to test anything`);
      assert.ok(brute.length < (posed.length * posed.length) / 20, 'the scene is too dense for a sweep to matter');
      // Every pair that touches at all (over all pairs) is among the candidates: same contacts
      // (one configuration per seed: the all-pairs narrow phase is slow).
      if (cfg !== configs[seed - 1]) continue;
      const all = [];
      for (let i = 0; i < posed.length; i++) {
        for (let j = i + 1; j < posed.length; j++) {
          if (!mayCollide(model, i, j, cfg.jointedCollide)) continue;
          for (const raw of collideShapes(posed[i]!, posed[j]!, cfg.margin)) all.push(toContact(raw, posed[i]!, posed[j]!, poses, rotations));
        }
      }
      const got = detectContacts(s, poses, cfg);
      assert.ok(got.length > 5, `only ${got.length} contacts`);
      assert.deepEqual(got, all);
    }
  }
});

test('filtering: same body, two static owners, jointed bodies (unless jointedCollide), world joints do not filter', () => {
  const two = [sphereSpec(0.5), sphereSpec(0.5)];
  const s = scene(
    [
      body(0, [0, 0, 0.4], two), // two overlapping spheres on one body, resting in the ground
      body(1, [0.8, 0, 0.4], [sphereSpec(0.5)]), // overlaps body 0
      body(2, [5, 0, 0.4], [sphereSpec(0.5)], { fixed: true }), // fixed, in the ground
      body(3, [5.8, 0, 0.4], [sphereSpec(0.5)], { fixed: true }), // fixed, overlapping the other fixed one
    ],
    [planeSpec([0, 0, 1], 0), sphereSpec(0.5)], // the world sphere at the origin overlaps body 0
    [ball('b0', 'b1'), ball('b0', 'world', 1)],
  );
  const pairs = (cfg: ContactSettings): string[] => [...new Set(detectContacts(s, posesOf(s), cfg).map((c) => `${c.bodyA}:${c.shapeA}-${c.bodyB}:${c.shapeB}`))];
  // `A:shape-B:shape`, B = -1 for the world. Never: b0's two spheres with each other, the fixed
  // bodies with each other or with the world. The b0–world joint does not stop b0 from touching
  // world shapes; b0–b1 are jointed, so they touch only with jointedCollide.
  const withWorld = ['0:0--1:0', '0:0--1:1', '0:1--1:0', '0:1--1:1', '1:0--1:0', '1:0--1:1'];
  assert.deepEqual(pairs(settings()), withWorld);
  assert.deepEqual(pairs(settings({ jointedCollide: true })), ['0:0-1:0', ...withWorld.slice(0, 2), '0:1-1:0', ...withWorld.slice(2)]);
  assert.deepEqual(pairs(settings({ enabled: false })), []);
});

test('contact fields: indices, unit normal, right-handed orthonormal tangents, witnesses in the owners\' frames, combined μ and e', () => {
  const rand = rng(11);
  const { scene: s, poses } = randomScene(rand, 120);
  // Move the bodies around so that the local points are not trivial.
  const moved = poses.map((p) => ({ p: [p.p[0] + rand() - 0.5, p.p[1] + rand() - 0.5, p.p[2]] as Vec3, q: randomQuat(rand) as Quat }));
  const contacts = detectContacts(s, moved, settings({ margin: 0.01, jointedCollide: true }));
  assert.ok(contacts.length > 10);
  const shapeOf = (owner: number, i: number): ShapeSpec => (owner < 0 ? s.world.shapes[i] : s.bodies[owner].shapes[i]);
  const toWorld = (owner: number, x: Vec3): Vec3 => {
    if (owner < 0) return x;
    const r = mat3MulVec(quatToMat3(moved[owner].q), x);
    return [moved[owner].p[0] + r[0], moved[owner].p[1] + r[1], moved[owner].p[2] + r[2]];
  };
  const dot = (a: Vec3, b: Vec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  for (const c of contacts) {
    assert.ok(c.bodyA >= 0 && c.bodyA < s.bodies.length, 'A is a body');
    assert.ok(c.bodyB >= -1 && c.bodyB !== c.bodyA);
    if (c.bodyB >= 0) assert.ok(c.bodyA < c.bodyB, 'A has the lower body index');
    assert.ok(!(c.bodyB < 0 ? true : s.bodies[c.bodyB].fixed) || !s.bodies[c.bodyA].fixed, 'not two static owners');
    assert.ok(c.gap <= 0.01 + 1e-12);
    for (const v of [c.normal, c.t1, c.t2]) assert.ok(Math.abs(dot(v, v) - 1) < 1e-12, 'unit');
    assert.ok(Math.abs(dot(c.normal, c.t1)) < 1e-12 && Math.abs(dot(c.normal, c.t2)) < 1e-12 && Math.abs(dot(c.t1, c.t2)) < 1e-12, 'orthogonal');
    const cr: Vec3 = [c.t1[1] * c.t2[2] - c.t1[2] * c.t2[1], c.t1[2] * c.t2[0] - c.t1[0] * c.t2[2], c.t1[0] * c.t2[1] - c.t1[1] * c.t2[0]];
    for (let k = 0; k < 3; k++) assert.ok(Math.abs(cr[k] - c.normal[k]) < 1e-12, 't1 × t2 = n');
    const wa = toWorld(c.bodyA, c.localA);
    const wb = toWorld(c.bodyB, c.localB);
    for (let k = 0; k < 3; k++) {
      assert.ok(Math.abs(wa[k] - (c.point[k] + (c.gap / 2) * c.normal[k])) < 1e-9, 'A witness = point + gap/2·n');
      assert.ok(Math.abs(wb[k] - (c.point[k] - (c.gap / 2) * c.normal[k])) < 1e-9, 'B witness = point − gap/2·n');
    }
    const sa = shapeOf(c.bodyA, c.shapeA);
    const sb = shapeOf(c.bodyB, c.shapeB);
    assert.equal(c.friction, Math.sqrt(sa.friction * sb.friction));
    assert.equal(c.restitution, Math.max(sa.restitution, sb.restitution));
  }
  // Deterministic: the same call again gives the same list, a fresh scene object too.
  assert.deepEqual(detectContacts(s, moved, settings({ margin: 0.01, jointedCollide: true })), contacts);
  assert.deepEqual(detectContacts({ ...s }, moved, settings({ margin: 0.01, jointedCollide: true })), contacts);
});

test('a box resting on the ground plane from a parsed scene: four contacts, normal up, the body\'s settings', () => {
  const r = parseScene(`{ "solver": { "formulation": "nonlinear" },
    "world": { "shapes": [ { "type": "plane", "friction": 0.64 } ] },
    "bodies": [ { "name": "Crate", "mass": 2, "position": [0, 0, 0.2499],
      "shapes": [ { "type": "box", "halfExtents": [0.5, 0.25, 0.25], "friction": 0.25, "restitution": 0.3 } ] } ] }`);
  assert.deepEqual(r.diagnostics, []);
  const s = r.scene!;
  assert.deepEqual(s.solver.contacts, { enabled: true, margin: 0, level: 'position', jointedCollide: false, penetrationTolerance: 1e-3, frictionRule: 'geometric' });
  const cs = detectContacts(s, posesOf(s));
  assert.equal(cs.length, 4);
  for (const c of cs) {
    assert.deepEqual([c.bodyA, c.shapeA, c.bodyB, c.shapeB], [0, 0, -1, 0]);
    assert.deepEqual(c.normal, [0, 0, 1]);
    assert.ok(Math.abs(c.gap + 1e-4) < 1e-12);
    assert.ok(Math.abs(c.friction - 0.4) < 1e-15);
    assert.equal(c.restitution, 0.3);
    assert.ok(Math.abs(Math.abs(c.localA[0]) - 0.5) < 1e-15 && Math.abs(c.localA[2] + 0.25) < 1e-15);
    assert.equal(c.localB[2], 0);
  }
  // The acceleration formulation ignores shapes: contacts disabled.
  const acc = parseScene('{ "world": { "shapes": [ { "type": "plane" } ] }, "bodies": [ { "name": "A", "mass": 1, "shapes": [ { "type": "sphere", "radius": 1 } ] } ] }');
  assert.equal(acc.scene!.solver.contacts.enabled, false);
  assert.deepEqual(detectContacts(acc.scene!, posesOf(acc.scene!)), []);
});

test('non-finite poses give no contact for that body and never NaN', () => {
  const s = scene([body(0, [0, 0, 0.4], [sphereSpec(0.5)]), body(1, [0.5, 0, 0.25], [boxSpec([0.3, 0.3, 0.3])])], [planeSpec([0, 0, 1], 0)]);
  const poses = posesOf(s);
  poses[0] = { p: [NaN, 0, 0], q: [0, 0, 0, 1] };
  const cs = detectContacts(s, poses);
  assert.ok(cs.length >= 1);
  for (const c of cs) {
    assert.equal(c.bodyA, 1);
    assert.ok([...c.point, ...c.normal, c.gap, ...c.localA, ...c.localB].every(Number.isFinite));
  }
  poses[1] = { p: [0, 0, 0], q: [Infinity, 0, 0, 1] };
  assert.deepEqual(detectContacts(s, poses), []);
});
