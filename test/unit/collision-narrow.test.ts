// Narrow phase against cases known in closed form: for every pair of shape types, the number of
// contacts, the gap, the normal (from B to A) and the points, to 1e-12.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reduceManifold } from '../../src/engine/collision/boxbox';
import { collideShapes } from '../../src/engine/collision/narrow';
import type { PosedShape, RawContact } from '../../src/engine/collision/pose';
import type { Vec3 } from '../../src/engine/types';
import { about, boxSpec, capsuleSpec, place, planeSpec, sphereSpec } from './collision-helpers';

const TOL = 1e-12;
const X: Vec3 = [1, 0, 0];
const Y: Vec3 = [0, 1, 0];
const Z: Vec3 = [0, 0, 1];
/** A capsule (or box) whose local z axis lies along world x / y. */
const alongX = about(Y, Math.PI / 2);
const alongY = about(X, -Math.PI / 2);

function near(actual: ArrayLike<number>, expected: ArrayLike<number>, what: string, tol = TOL): void {
  assert.equal(actual.length, expected.length, what);
  for (let i = 0; i < expected.length; i++) assert.ok(Math.abs(actual[i] - expected[i]) <= tol, `${what}: [${Array.from(actual)}] vs [${Array.from(expected)}]`);
}

const mid = (c: RawContact): Vec3 => [(c.pA[0] + c.pB[0]) / 2, (c.pA[1] + c.pB[1]) / 2, (c.pA[2] + c.pB[2]) / 2];

const dist = (p: Vec3, q: Vec3): number => Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);

/** Check count, gaps, normals and midpoints (in any order: each expected contact is matched to the nearest one). */
function expectContacts(a: PosedShape, b: PosedShape, margin: number, expected: { gap: number; n: Vec3; point: Vec3 }[]): RawContact[] {
  const got = collideShapes(a, b, margin);
  assert.equal(got.length, expected.length, `count: ${JSON.stringify(got)}`);
  const left = [...got];
  expected.forEach((e) => {
    const k = left.reduce((m, c, i) => (dist(mid(c), e.point) < dist(mid(left[m]), e.point) ? i : m), 0);
    const c = left.splice(k, 1)[0];
    near([c.gap], [e.gap], 'gap');
    near(c.n, e.n, 'normal');
    near(mid(c), e.point, 'point');
    // Witnesses: pA − pB = gap·n.
    near([c.pA[0] - c.pB[0], c.pA[1] - c.pB[1], c.pA[2] - c.pB[2]], [c.gap * c.n[0], c.gap * c.n[1], c.gap * c.n[2]], 'witnesses');
  });
  // The other order: same contacts, normal flipped.
  const swapped = collideShapes(b, a, margin);
  assert.equal(swapped.length, got.length);
  return got;
}

test('plane–sphere: gap, normal = the plane normal, point midway; margin', () => {
  const ground = place(planeSpec(Z, 0));
  expectContacts(place(sphereSpec(0.5), [1, 2, 0.4]), ground, 0, [{ gap: -0.1, n: Z, point: [1, 2, -0.05] }]);
  assert.equal(collideShapes(place(sphereSpec(0.5), [0, 0, 2]), ground, 0).length, 0);
  expectContacts(place(sphereSpec(0.5), [0, 0, 2]), ground, 2, [{ gap: 1.5, n: Z, point: [0, 0, 0.75] }]);
  // A tilted plane with an offset: the half-space n·x ≤ 1.
  const s = Math.SQRT1_2;
  expectContacts(place(sphereSpec(0.2)), place(planeSpec([0, 1, 1], 1)), 0, [{ gap: -1.2, n: [0, s, s], point: [0, 0.4 * s, 0.4 * s] }]);
  // Plane as A: the normal points from the sphere (B) to the plane.
  const c = collideShapes(ground, place(sphereSpec(0.5), [0, 0, 0.4]), 0);
  near(c[0].n, [0, 0, -1], 'flipped');
});

test('plane–box: four corners of a resting face, one corner of a tilted box', () => {
  const ground = place(planeSpec(Z, 0));
  const corners: Vec3[] = [[-0.5, -0.3], [0.5, -0.3], [-0.5, 0.3], [0.5, 0.3]].map(([x, y]) => [x, y, -0.005]);
  expectContacts(place(boxSpec([0.5, 0.3, 0.2]), [0, 0, 0.19]), ground, 0, corners.map((point) => ({ gap: -0.01, n: Z, point })));
  // Standing on a corner: rotate so that the corner (−h, −h, −h) points straight down.
  const q = about([1 / Math.SQRT2, -1 / Math.SQRT2, 0], Math.acos(1 / Math.sqrt(3)));
  const h = 0.5;
  const depth = h * Math.sqrt(3);
  expectContacts(place(boxSpec([h, h, h]), [0, 0, depth - 0.02], q), ground, 0, [{ gap: -0.02, n: Z, point: [0, 0, -0.01] }]);
  // Deep: never more than four.
  assert.equal(collideShapes(place(boxSpec([1, 1, 1]), [0, 0, -5]), ground, 0).length, 4);
});

test('plane–capsule: both ends when lying, one when standing', () => {
  const ground = place(planeSpec(Z, 0));
  expectContacts(place(capsuleSpec(0.1, 0.5), [0, 0, 0.09], alongX), ground, 0, [
    { gap: -0.01, n: Z, point: [-0.5, 0, -0.005] },
    { gap: -0.01, n: Z, point: [0.5, 0, -0.005] },
  ]);
  expectContacts(place(capsuleSpec(0.1, 0.5), [0, 0, 0.58]), ground, 0, [{ gap: -0.02, n: Z, point: [0, 0, -0.01] }]);
});

test('sphere–sphere: overlap, separated within the margin, concentric', () => {
  expectContacts(place(sphereSpec(1)), place(sphereSpec(0.5), [1.2, 0, 0]), 0, [{ gap: -0.3, n: [-1, 0, 0], point: [0.85, 0, 0] }]);
  assert.equal(collideShapes(place(sphereSpec(1)), place(sphereSpec(0.5), [1.6, 0, 0]), 0).length, 0);
  expectContacts(place(sphereSpec(1)), place(sphereSpec(0.5), [0, 1.6, 0]), 0.2, [{ gap: 0.1, n: [0, -1, 0], point: [0, 1.05, 0] }]);
  expectContacts(place(sphereSpec(1), [1, 1, 1]), place(sphereSpec(0.5), [1, 1, 1]), 0, [{ gap: -1.5, n: Z, point: [1, 1, 0.75] }]);
});

test('sphere–capsule: side and end of the capsule', () => {
  const cap = place(capsuleSpec(0.2, 1));
  expectContacts(place(sphereSpec(0.3), [0.4, 0, 0.5]), cap, 0, [{ gap: -0.1, n: X, point: [0.15, 0, 0.5] }]);
  assert.equal(collideShapes(place(sphereSpec(0.3), [0, 0, 1.6]), cap, 0).length, 0);
  expectContacts(place(sphereSpec(0.3), [0, 0, 1.6]), cap, 0.2, [{ gap: 0.1, n: Z, point: [0, 0, 1.25] }]);
});

test('capsule–capsule: crossing (one contact), parallel and overlapping (two)', () => {
  expectContacts(place(capsuleSpec(0.2, 1), [0, 0, 0], alongX), place(capsuleSpec(0.2, 1), [0, 0, 0.35], alongY), 0, [
    { gap: -0.05, n: [0, 0, -1], point: [0, 0, 0.175] },
  ]);
  expectContacts(place(capsuleSpec(0.2, 1), [0, 0, 0], alongX), place(capsuleSpec(0.2, 0.5), [0.8, 0, 0.35], alongX), 0, [
    { gap: -0.05, n: [0, 0, -1], point: [0.3, 0, 0.175] },
    { gap: -0.05, n: [0, 0, -1], point: [1, 0, 0.175] },
  ]);
  // End to end on a common axis.
  expectContacts(place(capsuleSpec(0.5, 1)), place(capsuleSpec(0.5, 1), [0, 0, 2.9]), 0, [{ gap: -0.1, n: [0, 0, -1], point: [0, 0, 1.45] }]);
});

test('sphere–box: face, edge region, centre inside', () => {
  const box = place(boxSpec([1, 1, 1]));
  expectContacts(place(sphereSpec(0.5), [0, 0, 1.4]), box, 0, [{ gap: -0.1, n: Z, point: [0, 0, 0.95] }]);
  expectContacts(place(sphereSpec(0.6), [1.3, 1.4, 0]), box, 0, [{ gap: -0.1, n: [0.6, 0.8, 0], point: [1 - 0.03, 1 - 0.04, 0] }]);
  expectContacts(place(sphereSpec(0.5), [0.1, 0, 0.8]), box, 0, [{ gap: -0.7, n: Z, point: [0.1, 0, 0.65] }]);
  // A rotated box: the face normal is rotated too.
  const q = about(Z, Math.PI / 4);
  const s = Math.SQRT1_2;
  expectContacts(place(sphereSpec(0.5), [1.4 * s, 1.4 * s, 0]), place(boxSpec([1, 1, 1]), [0, 0, 0], q), 0, [{ gap: -0.1, n: [s, s, 0], point: [0.95 * s, 0.95 * s, 0] }]);
});

test('capsule–box: lying on a face (two), standing (one), across an edge (one), through the box (two)', () => {
  const slab = place(boxSpec([1, 1, 0.5]));
  expectContacts(place(capsuleSpec(0.1, 0.5), [0, 0, 0.59], alongX), slab, 0, [
    { gap: -0.01, n: Z, point: [-0.5, 0, 0.495] },
    { gap: -0.01, n: Z, point: [0.5, 0, 0.495] },
  ]);
  expectContacts(place(capsuleSpec(0.1, 0.5), [0.2, 0.3, 1.05]), slab, 0, [{ gap: -0.05, n: Z, point: [0.2, 0.3, 0.475] }]);
  // Hanging over the edge: the contacts stop at the face's border.
  expectContacts(place(capsuleSpec(0.1, 1), [1.5, 0, 0.59], alongX), slab, 0, [
    { gap: -0.01, n: Z, point: [0.5, 0, 0.495] },
    { gap: -0.01, n: Z, point: [1, 0, 0.495] },
  ]);
  const cube = place(boxSpec([1, 1, 1]));
  const s = Math.SQRT1_2;
  const d = Math.hypot(0.05, 0.05);
  // Lying along an edge: both ends; across it: one contact.
  const g = d - 0.1;
  expectContacts(place(capsuleSpec(0.1, 0.5), [1.05, 0, 1.05], alongY), cube, 0, [
    { gap: g, n: [s, 0, s], point: [1 + (g / 2) * s, -0.5, 1 + (g / 2) * s] },
    { gap: g, n: [s, 0, s], point: [1 + (g / 2) * s, 0.5, 1 + (g / 2) * s] },
  ]);
  expectContacts(place(capsuleSpec(0.1, 0.5), [1.05, 0.2, 1.05], about([1, 0, -1].map((v) => v / Math.SQRT2) as Vec3, Math.PI / 2)), cube, 0, [
    { gap: g, n: [s, 0, s], point: [1 + (g / 2) * s, 0.2, 1 + (g / 2) * s] },
  ]);
  // The segment passes through the box near its top: pushed out through the top face.
  expectContacts(place(capsuleSpec(0.1, 2), [0, 0, 0.9], alongX), cube, 0, [
    { gap: -0.2, n: Z, point: [-1, 0, 0.9] },
    { gap: -0.2, n: Z, point: [1, 0, 0.9] },
  ]);
});

test('box–box: resting face (four), rotated on top (four), edge on edge (one), within the margin', () => {
  const base = place(boxSpec([1, 1, 0.5]));
  const corners = (h: number, z: number, q = 0): { gap: number; n: Vec3; point: Vec3 }[] =>
    [[1, 1], [-1, 1], [-1, -1], [1, -1]].map(([sx, sy]) => {
      const x = sx * h;
      const y = sy * h;
      return { gap: -0.01, n: Z, point: [x * Math.cos(q) - y * Math.sin(q), x * Math.sin(q) + y * Math.cos(q), z] as Vec3 };
    });
  expectContacts(place(boxSpec([0.5, 0.5, 0.5]), [0, 0, 0.99]), base, 0, corners(0.5, 0.495));
  expectContacts(place(boxSpec([0.5, 0.5, 0.5]), [0, 0, 0.99], about(Z, Math.PI / 4)), base, 0, corners(0.5, 0.495, Math.PI / 4));
  // The same pair the other way round: B on top of A, normal from B (top) to A (bottom).
  const rev = collideShapes(base, place(boxSpec([0.5, 0.5, 0.5]), [0, 0, 0.99]), 0);
  assert.equal(rev.length, 4);
  for (const c of rev) near(c.n, [0, 0, -1], 'reversed normal');
  // Edge on edge: A's lowest edge (along x) across B's highest edge (along y).
  const e = 0.5 * Math.SQRT2;
  expectContacts(place(boxSpec([0.5, 0.5, 0.5]), [0, 0, 0], about(X, Math.PI / 4)), place(boxSpec([0.5, 0.5, 0.5]), [0, 0, -2 * e + 0.01], about(Y, Math.PI / 4)), 0, [
    { gap: -0.01, n: Z, point: [0, 0, -e + 0.005] },
  ]);
  // Separated by 0.02 with a margin of 0.05: four contacts with gap 0.02; none at margin 0.
  expectContacts(place(boxSpec([0.5, 0.5, 0.5]), [0, 0, 1.02]), base, 0.05, corners(0.5, 0.51).map((c) => ({ ...c, gap: 0.02 })));
  assert.equal(collideShapes(place(boxSpec([0.5, 0.5, 0.5]), [0, 0, 1.02]), base, 0).length, 0);
});

test('box–box: a small box on a large one clips the large face to the small one', () => {
  // A large box resting on a small one: the reference face is chosen by the separating axis; the
  // manifold is the small face's corners either way.
  const got = collideShapes(place(boxSpec([2, 2, 0.5]), [0.3, 0, 0.99]), place(boxSpec([0.5, 0.5, 0.5])), 0);
  assert.equal(got.length, 4);
  const xs = got.map((c) => mid(c)[0]).sort((a, b) => a - b);
  near(xs, [-0.5, -0.5, 0.5, 0.5], 'corners x');
  for (const c of got) near([c.gap], [-0.01], 'gap');
});

test('box–box: an octagonal overlap (two squares at 45°) is reduced to four well-spread points', () => {
  const got = collideShapes(place(boxSpec([0.5, 0.5, 0.5]), [0, 0, 0.99], about(Z, Math.PI / 4)), place(boxSpec([0.5, 0.5, 0.5])), 0);
  assert.equal(got.length, 4);
  for (const c of got) near([c.gap], [-0.01], 'gap');
  // Area of the quadrilateral (shoelace; the points come in polygon order): at least half the octagon's (0.828).
  const p = got.map(mid);
  let area = 0;
  for (let k = 0; k < 4; k++) area += p[k][0] * p[(k + 1) % 4][1] - p[(k + 1) % 4][0] * p[k][1];
  assert.ok(Math.abs(area) / 2 > 0.41, `area ${Math.abs(area) / 2}`);
});

test('manifold reduction keeps the deepest point and the widest spread, in polygon order', () => {
  const hex = Array.from({ length: 6 }, (_, k) => ({ x: Math.cos((k * Math.PI) / 3), y: Math.sin((k * Math.PI) / 3), z: k === 4 ? -0.2 : -0.1 }));
  const kept = reduceManifold(hex);
  assert.equal(kept.length, 4);
  assert.ok(kept.includes(4), 'the deepest');
  assert.ok(kept.includes(1), 'the farthest from the deepest');
  assert.deepEqual(kept, [...kept].sort((a, b) => a - b));
  assert.deepEqual(reduceManifold(hex.slice(0, 3)), [0, 1, 2]);
  // NaN coordinates (non-finite input) never make it throw.
  assert.equal(reduceManifold(hex.map((p) => ({ ...p, x: NaN }))).length, 4);
});
