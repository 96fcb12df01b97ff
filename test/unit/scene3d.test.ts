// The 3D view's pure parts (webview/scene3d: math, read, model, describe), in Node: the inertia
// box against closed forms, the symmetric eigen-decomposition on random matrices, the structural
// readers of shapes and contacts, and the drawn frame of a step against the engine's own
// snapshot of that step (world anchors and axes from the recorded poses, the tree's states).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inspectScene, Simulation } from '../../src/engine';
import { rng } from './linalg-fixtures';
import { sceneGeometry } from '../../src/panelModel';
import { constraintAt } from '../../src/extension/logic/tree';
import type { PanelModel } from '../../src/protocol';
import { inertiaBox, niceStep, qmul, quatFromBasis, quatFromY, rotate, symEigen3, unitQuat, type Q4, type V3 } from '../../webview/scene3d/math';
import { readContacts, readShapes } from '../../webview/scene3d/read';
import { frameAt, sceneData } from '../../webview/scene3d/model';
import { arrowScales, glyphUnit, legendInfo } from '../../webview/scene3d/describe';

const close = (a: readonly number[], b: readonly number[], tol: number, msg = ''): void => {
  assert.equal(a.length, b.length, msg);
  for (let i = 0; i < a.length; i++) assert.ok(Math.abs(a[i] - b[i]) <= tol, `${msg} [${i}] ${a[i]} vs ${b[i]} (tol ${tol})`);
};

const randQuat = (r: () => number): Q4 => unitQuat([r() - 0.5, r() - 0.5, r() - 0.5, r() - 0.5]);

test('symEigen3: A·v = λ·v, orthonormal right-handed vectors, on random symmetric matrices', () => {
  const r = rng(7);
  for (let trial = 0; trial < 200; trial++) {
    const a = Array.from({ length: 9 }, () => r() * 4 - 2);
    const m = [a[0], a[1], a[2], a[1], a[4], a[5], a[2], a[5], a[8]];
    const { values, vectors } = symEigen3(m);
    const scale = Math.max(...m.map(Math.abs));
    for (let k = 0; k < 3; k++) {
      const v = vectors[k];
      const Av = [0, 1, 2].map((i) => m[i * 3] * v[0] + m[i * 3 + 1] * v[1] + m[i * 3 + 2] * v[2]);
      close(Av, v.map((x) => values[k] * x), 1e-12 * scale * 10, `trial ${trial} eigenpair ${k}`);
      for (let l = 0; l < 3; l++) assert.ok(Math.abs(vectors[k][0] * vectors[l][0] + vectors[k][1] * vectors[l][1] + vectors[k][2] * vectors[l][2] - (k === l ? 1 : 0)) < 1e-12);
    }
    const [c0, c1, c2] = vectors;
    const cr = [c0[1] * c1[2] - c0[2] * c1[1], c0[2] * c1[0] - c0[0] * c1[2], c0[0] * c1[1] - c0[1] * c1[0]];
    close(cr, c2, 1e-12, 'right-handed');
  }
});

test("inertiaBox: a uniform box's inertia gives back its half-extents, in any orientation (MuJoCo's equivalent box)", () => {
  const r = rng(11);
  for (let trial = 0; trial < 50; trial++) {
    const m = 0.1 + r() * 10;
    const h: V3 = [0.05 + r(), 0.05 + r(), 0.05 + r()];
    const [a, b, c] = h.map((x) => 2 * x);
    const I = [(m * (b * b + c * c)) / 12, (m * (a * a + c * c)) / 12, (m * (a * a + b * b)) / 12];
    // Body-frame inertia of the box rotated by q: R·diag(I)·Rᵀ.
    const q = randQuat(r);
    const cols = [rotate(q, [1, 0, 0]), rotate(q, [0, 1, 0]), rotate(q, [0, 0, 1])];
    const M = Array.from({ length: 9 }, (_, k) => {
      const i = Math.floor(k / 3);
      const j = k % 3;
      return cols.reduce((s, col, n) => s + col[i] * I[n] * col[j], 0);
    });
    const box = inertiaBox(m, M)!;
    // The box (up to the order of its axes) has the same half-extents; its axes are the rotated ones.
    const got = [0, 1, 2].map((k) => ({ h: box.half[k], axis: rotate(box.q, [k === 0 ? 1 : 0, k === 1 ? 1 : 0, k === 2 ? 1 : 0] as V3) }));
    for (let k = 0; k < 3; k++) {
      const match = got.find((g) => Math.abs(Math.abs(g.axis[0] * cols[k][0] + g.axis[1] * cols[k][1] + g.axis[2] * cols[k][2]) - 1) < 1e-9);
      assert.ok(match, `trial ${trial}: an axis of the box is the rotated axis ${k}`);
      assert.ok(Math.abs(match.h - h[k]) < 1e-9 * (1 + h[k]), `trial ${trial}: half-extent ${match.h} vs ${h[k]}`);
    }
  }
  // The double pendulum's slender rods: I = (0.001, 0.0833, 0.0833), m = 1 → ≈ 1 m × 0.077 m × 0.077 m.
  const rod = inertiaBox(1, [0.001, 0.0833, 0.0833])!;
  close(rod.half, [Math.sqrt(1.5 * (0.1666 - 0.001)), Math.sqrt(1.5 * 0.001), Math.sqrt(1.5 * 0.001)], 1e-12);
  assert.equal(inertiaBox(0, [1, 1, 1]), undefined, 'massless');
  assert.equal(inertiaBox(1, [0, 0, 0]), undefined, 'no inertia');
  assert.equal(inertiaBox(1, [NaN, 1, 1]), undefined, 'not finite');
  // Moments violating the triangle inequality: a sliver, not NaN.
  const bad = inertiaBox(1, [3, 1, 1])!;
  assert.ok(bad.half.every((x) => Number.isFinite(x) && x > 0));
});

test('quaternions: quatFromBasis inverts rotate, quatFromY takes +y to the direction', () => {
  const r = rng(3);
  for (let t = 0; t < 100; t++) {
    const q = randQuat(r);
    const q2 = quatFromBasis(rotate(q, [1, 0, 0]), rotate(q, [0, 1, 0]), rotate(q, [0, 0, 1]));
    const v: V3 = [r() - 0.5, r() - 0.5, r() - 0.5];
    close(rotate(q2, v), rotate(q, v), 1e-12);
    const d = rotate(q, [0, 0, 1]);
    close(rotate(quatFromY(d), [0, 1, 0]), d, 1e-12);
    close(rotate(qmul(q, q2), v), rotate(q, rotate(q2, v)), 1e-12, 'qmul composes');
  }
  close(rotate(quatFromY([0, -1, 0]), [0, 1, 0]), [0, -1, 0], 1e-12, 'antiparallel');
  assert.deepEqual([0.07, 0.3, 4, 1, 0].map(niceStep), [0.1, 0.5, 5, 1, 1]);
});

test('readShapes / readContacts: valid items read, malformed ones skipped, the {contact, force} and CLI forms accepted', () => {
  const shapes = readShapes([
    { type: 'sphere', radius: 0.5, position: [1, 2, 3] },
    { type: 'box', halfExtents: [1, 2, 3], orientation: [0, 0, 0, 2] },
    { type: 'capsule', radius: 0.1, halfLength: 0.4 },
    { type: 'plane', normal: [0, 0, 2], offset: 1 },
    { type: 'sphere', radius: -1 },
    { type: 'box', halfExtents: [1, 0, 1] },
    { type: 'cone' },
    null,
    'x',
  ]);
  assert.deepEqual(shapes.map((s) => s.type), ['sphere', 'box', 'capsule', 'plane']);
  assert.deepEqual(shapes[0].position, [1, 2, 3]);
  assert.deepEqual(shapes[1].orientation, [0, 0, 0, 1], 'orientation normalised');
  assert.deepEqual(shapes[3].normal, [0, 0, 1], 'normal normalised');
  assert.deepEqual(readShapes(undefined), []);

  const flat = { point: [0, 0, 0], normal: [0, 0, 2], t1: [1, 0, 0], t2: [0, 1, 0], normalForce: 9.81, frictionForce: [1, 2], state: 'slip', bodyA: 'box', bodyB: -1, gap: -1e-3 };
  const nested = { contact: { point: [1, 0, 0], normal: [0, 0, 1], t1: [1, 0, 0], t2: [0, 1, 0], bodyA: 0, bodyB: -1 }, force: { normalForce: 2, frictionForce: [0, 0], state: 'stick' } };
  const noTangents = { point: [2, 0, 0], normal: [1, 0, 0], normalForce: 1, frictionForce: [3, 4], state: 'weird' };
  const cs = readContacts({ contacts: [flat, nested, noTangents, { point: [0, 0], normal: [0, 0, 1] }, { point: [0, 0, 0], normal: [0, 0, 0] }] });
  assert.equal(cs.length, 3);
  assert.deepEqual(cs[0].normal, [0, 0, 1]);
  assert.deepEqual(cs[0].friction, [1, 2]);
  assert.equal(cs[0].state, 'slip');
  assert.equal(cs[1].state, 'stick');
  assert.equal(cs[1].normalForce, 2);
  assert.equal(cs[2].state, 'unknown');
  assert.equal(cs[2].friction, undefined, 'friction components need the tangents they refer to');
  const [t1, t2] = [cs[2].t1, cs[2].t2];
  close([t1[0] * t2[0] + t1[1] * t2[1] + t1[2] * t2[2], t1[0]], [0, 0], 1e-12, 'a tangent basis of the normal');
  // Forces as a parallel array (Contact[] and ContactForce[] side by side).
  const par = readContacts({ contacts: [nested.contact], contactForces: [{ normalForce: 5, frictionForce: [0.5, 0], state: 'slip' }] });
  assert.equal(par[0].normalForce, 5);
  assert.equal(par[0].state, 'slip');
  assert.deepEqual(par[0].friction, [0.5, 0]);
  assert.deepEqual(readContacts({}), []);
  assert.deepEqual(readContacts(undefined), []);
});

function model(text: string, steps: number, snapshotAt: number[] = []): { m: PanelModel; sim: Simulation } {
  const inspect = inspectScene(text);
  const scene = inspect.parse.scene!;
  const sim = new Simulation(scene, inspect.parse.sourceMap);
  sim.step(steps);
  const m: PanelModel = {
    sceneName: scene.name,
    fileName: 'x.scene.json',
    snapshot: inspect.snapshot!,
    history: [...sim.records],
    plannedSteps: steps,
    dt: scene.solver.dt,
    diagnostics: inspect.diagnostics,
    snapshots: snapshotAt.map((k) => sim.snapshotAt(k)),
    ...sceneGeometry(scene),
  };
  return { m, sim };
}

const GALLERY = JSON.stringify({
  name: 'g',
  solver: { dt: 0.01, alpha: 100, beta: 20, stabilization: 'baumgarte' },
  bodies: [
    { name: 'a', mass: 1, inertia: [0.02, 0.03, 0.04], position: [0, 0, 0], orientation: [0.1, 0.2, 0.3, 0.9], angularVelocity: [1, 2, 3] },
    { name: 'b', mass: 2, inertia: [0.05, 0.02, 0.04], position: [1, 0, 0], velocity: [0, 1, 0], angularVelocity: [-2, 1, 0.5] },
    { name: 'c', mass: 1, inertia: [0.02, 0.02, 0.02], position: [2, 0.5, 0] },
  ],
  constraints: [
    { name: 'h', type: 'hinge', bodyA: 'a', bodyB: 'b', anchorA: [0.5, 0, 0], anchorB: [-0.5, 0, 0], axisA: [0, 0, 1], axisB: [0, 0, 1] },
    { name: 's', type: 'slider', bodyA: 'b', bodyB: 'c', anchorA: [0.5, 0.2, 0], anchorB: [-0.5, -0.3, 0], axisA: [1, 0, 0] },
    { name: 'pin', type: 'distance', bodyA: 'world', bodyB: 'a', anchorA: [0, 0, 1], anchorB: [0, 0, 0.2] },
  ],
});

test("frameAt: world anchors from the recorded poses equal the engine's own anchors of that step; axes follow body A", () => {
  const { m, sim } = model(GALLERY, 40, [25]);
  const data = sceneData(m);
  for (const k of [0, 13, 25, 40]) {
    const f = frameAt(m, data, k);
    const snap = sim.snapshotAt(k);
    assert.equal(f.exact, true);
    snap.constraints.forEach((c, i) => {
      close(f.anchorA[i], c.anchorAWorld, 1e-9, `step ${k} ${c.name} A`);
      close(f.anchorB[i], c.anchorBWorld, 1e-9, `step ${k} ${c.name} B`);
    });
    // The hinge's axis is axisA turned by A's recorded orientation.
    const qa = snap.bodyStates.find((b) => b.name === 'a')!.orientation;
    close(f.axis[0]!, rotate(unitQuat(qa), [0, 0, 1]), 1e-9, `step ${k} hinge axis`);
    assert.equal(f.axis[2], undefined, 'a distance has no axis');
    // Forces only at a step whose snapshot the model carries (0 and 25 here), from that snapshot.
    if (k === 0 || k === 25) close(f.forces![0].forceB, snap.constraints[0].forceB, 0, `step ${k} forces`);
    else assert.equal(f.forces, undefined, `step ${k}: no snapshot, no forces`);
  }
  // Without the scene's local anchors (an older report), they are derived from the snapshot.
  const old = { ...m, sceneConstraints: undefined };
  const f2 = frameAt(old, sceneData(old), 40);
  const snap = sim.snapshotAt(40);
  snap.constraints.forEach((c, i) => close(f2.anchorB[i], c.anchorBWorld, 1e-9, `derived ${c.name}`));
  assert.equal(f2.axis[0], undefined, 'no axis without the scene');
});

test('frameAt: states are the tree\'s (constraintAt), the redundant set holds both rods', () => {
  const rods = JSON.stringify({
    name: 'r',
    solver: { dt: 0.01, alpha: 100, beta: 20, stabilization: 'baumgarte', driftTolerance: 0.01 },
    bodies: [
      { name: 'anchor', mass: 1, inertia: [0.1, 0.1, 0.1], position: [0, 0, 2], fixed: true },
      { name: 'bob', mass: 2, inertia: [0.02, 0.02, 0.02], position: [1.2, 0, 0.4] },
    ],
    constraints: [
      { name: 'rod1', type: 'distance', bodyA: 'anchor', bodyB: 'bob' },
      { name: 'rod2', type: 'distance', bodyA: 'anchor', bodyB: 'bob' },
    ],
  });
  const { m } = model(rods, 30);
  const data = sceneData(m);
  for (const k of [0, 1, 30]) {
    const f = frameAt(m, data, k);
    const rec = k ? m.history[k - 1] : undefined;
    m.snapshot.constraints.forEach((c, i) => assert.equal(f.states[i], constraintAt(c, i, m.snapshot, rec, m.thresholds!).state, `step ${k} ${c.name}`));
    assert.deepEqual([...f.redundantSet].sort(), [0, 1]);
  }
  assert.ok(frameAt(m, data, 0).states.includes('redundant'));
  assert.equal(data.bodies[0].fixed, true);
  assert.ok(data.bodies[1].box, 'the bob has an inertia box');
  // A step past the run: not recorded, drawn with the snapshot's poses and said so.
  const late = frameAt(m, data, 99);
  assert.equal(late.exact, false);
  assert.match(legendInfo(data, late, arrowScales(m, data, late, 0), 0.01, 'all').note, /not recorded/);
});

test('glyph unit and arrow scales: positive, finite, the longest arrow bounded by the scene', () => {
  const { m } = model(GALLERY, 5);
  const data = sceneData(m);
  const f = frameAt(m, data, 0);
  const u = glyphUnit(data, f);
  assert.ok(u > 0 && Number.isFinite(u));
  const s = arrowScales(m, data, f, 0);
  const maxF = Math.max(...m.snapshot.constraints.flatMap((c) => [Math.hypot(...c.forceA), Math.hypot(...c.forceB)]));
  assert.ok(Math.abs(maxF * s.force - s.maxArrow) < 1e-9 * s.maxArrow, 'the largest force is the longest arrow');
  const s10 = arrowScales(m, data, f, 1);
  assert.ok(Math.abs(s10.force / s.force - 10) < 1e-9, 'the user factor multiplies');
  const info = legendInfo(data, f, s, 0.005, 'all');
  assert.ok(info.force && info.force.px > 20 && info.force.px <= 60.0001, `reference arrow ${JSON.stringify(info.force)}`);
  assert.equal(legendInfo(data, f, s, 0.005, 'off').force, undefined);
});

test('legend: a moving body through the floor is named (never just "ok"); one resting on it is not', () => {
  // contacts solved by nothing (acceleration formulation): the ball falls through the plane
  const text = JSON.stringify({
    name: 'fall',
    solver: { dt: 0.01, formulation: 'acceleration' },
    bodies: [
      { name: 'ball', mass: 1, position: [0, 0, 0.1], shapes: [{ type: 'sphere', radius: 0.1 }] },
      { name: 'post', mass: 1, fixed: true, position: [1, 0, -1] },
    ],
    world: { shapes: [{ type: 'plane' }] },
  });
  const { m } = model(text, 30);
  const data = sceneData(m);
  const info = (k: number) => legendInfo(data, frameAt(m, data, k), arrowScales(m, data, frameAt(m, data, k), 0), 0.01, 'all');
  assert.deepEqual(info(0).belowFloor, [], 'at rest on the floor at first');
  assert.deepEqual(info(30).belowFloor, ['ball'], 'after 0.3 s of free fall its centre is 0.34 m below the floor; the fixed post is not named');
});
