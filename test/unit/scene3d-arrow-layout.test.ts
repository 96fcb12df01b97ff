// The contact arrows' layout (webview/scene3d/arrowLayout.ts): width by magnitude on a square-root
// scale, a minimum length for a force above the noise floor and none below it, friction from the
// normal arrow's base, and the arrows of coincident contacts fanned out in their tangent plane.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { arrowRadius, contactArrows, contactOffsets, COINCIDENT, MIN_LENGTH, RADIUS_MAX, RADIUS_MIN, SPREAD } from '../../webview/scene3d/arrowLayout';
import type { ContactData } from '../../webview/scene3d/read';
import type { V3 } from '../../webview/scene3d/math';
import { CONTACT_NOISE_RELATIVE, contactWeight, STANDARD_GRAVITY } from '../../webview/scene3d/robust';

const len = (v: V3): number => Math.hypot(v[0], v[1], v[2]);
const dist = (a: V3, b: V3): number => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

function contact(point: V3, normalForce?: number, friction?: [number, number]): ContactData {
  return { point, normal: [0, 0, 1], t1: [1, 0, 0], t2: [0, 1, 0], normalForce, friction, state: 'stick', bodyA: 0, bodyB: -1 } as unknown as ContactData;
}

test('radius: RADIUS_MIN..RADIUS_MAX glyph units on a square-root scale of |F| / the largest force', () => {
  const u = 0.01;
  assert.equal(arrowRadius(0, 100, u), u * RADIUS_MIN);
  assert.ok(Math.abs(arrowRadius(100, 100, u) - u * RADIUS_MAX) < 1e-15);
  assert.ok(Math.abs(arrowRadius(400, 100, u) - u * RADIUS_MAX) < 1e-15, 'clamped above the largest');
  // A quarter of the largest force: half-way between the two radii (sqrt(1/4) = 1/2).
  assert.ok(Math.abs(arrowRadius(25, 100, u) - u * (RADIUS_MIN + RADIUS_MAX) / 2) < 1e-15);
  assert.equal(arrowRadius(5, 0, u), u * RADIUS_MIN, 'no scale force: the thinnest');
  assert.equal(arrowRadius(NaN, 100, u), u * RADIUS_MIN);
});

test('box on the ground: widths ordered by magnitude, friction at the normal arrow\'s base, minimum length above the floor only', () => {
  const u = 0.02;
  const sizing = { force: 0.001, maxForce: 100, floor: 1e-9 };
  const cs = [contact([0, 0, 0], 100, [3, 0]), contact([1, 0, 0], 40, [1e-3, 0]), contact([0, 1, 0], 5, [1e-12, 0]), contact([1, 1, 0], 1e-13)];
  const a = contactArrows(cs, sizing, u);
  const of = (id: number, kind: string) => a.find((x) => x.id === id && x.kind === kind);
  // Normal arrows: thicker for a larger force.
  assert.ok(of(0, 'normal')!.r > of(1, 'normal')!.r && of(1, 'normal')!.r > of(2, 'normal')!.r);
  assert.ok(Math.abs(len(of(0, 'normal')!.v) - 0.1) < 1e-12, 'the largest force is |F|·scale long');
  assert.ok(Math.abs(len(of(2, 'normal')!.v) - u * MIN_LENGTH.normal) < 1e-12, '5 N × 1 mm/N is 5 mm: lengthened to the minimum');
  // Friction starts where the normal arrow does, thinner than the normal arrow of the same contact.
  const lift = of(0, 'friction')!.o.map((x, i) => x - of(0, 'normal')!.o[i]) as V3;
  assert.deepEqual(lift, [0, 0, of(0, 'friction')!.r], 'lifted off the surface by its radius, along the normal');
  assert.ok(of(0, 'friction')!.r < of(0, 'normal')!.r);
  assert.ok(Math.abs(len(of(1, 'friction')!.v) - u * MIN_LENGTH.friction) < 1e-12, 'a 1 mN friction is drawn at the minimum length');
  assert.deepEqual(of(1, 'friction')!.v.map(Math.sign), [1, 0, 0], 'along t1');
  assert.equal(of(2, 'friction'), undefined, 'friction below the noise floor: no arrow');
  assert.equal(of(3, 'normal'), undefined, 'normal force below the floor: no force arrow');
  assert.equal(of(3, 'hint')!.r, u * RADIUS_MIN, 'but a thin hint of the normal');
  // Contacts a box width apart are not moved.
  for (const x of a) assert.deepEqual(x.kind === 'friction' ? [x.o[0], x.o[1]] : x.o, x.kind === 'friction' ? [cs[x.id].point[0], cs[x.id].point[1]] : cs[x.id].point);
});

test('coincident contacts: fanned out on a circle of SPREAD glyph units in the tangent plane; separate ones untouched', () => {
  const u = 0.01;
  const e = COINCIDENT * u * 0.3;
  const cs = [contact([0, 0, 0], 10), contact([e, 0, 0], 10), contact([0, e, 0], 10), contact([0.5, 0, 0], 10)];
  const off = contactOffsets(cs, u);
  for (let i = 0; i < 3; i++) {
    assert.ok(Math.abs(len(off[i]) - SPREAD * u) < 1e-12, `contact ${i} moved by SPREAD glyph units`);
    assert.ok(Math.abs(off[i][2]) < 1e-15, 'sideways: in the tangent plane');
  }
  assert.deepEqual(off[3], [0, 0, 0]);
  const a = contactArrows(cs, { force: 0.001, maxForce: 10, floor: 0 }, u);
  const bases = a.filter((x) => x.id < 3).map((x) => x.o);
  for (let i = 0; i < 3; i++) for (let j = i + 1; j < 3; j++) assert.ok(dist(bases[i], bases[j]) > 2 * RADIUS_MAX * u, `arrows ${i} and ${j} do not overlap: ${dist(bases[i], bases[j])}`);
  // A chain of near points (each within the threshold of the next) is one group; a point that is not finite is left alone.
  const chain = [contact([0, 0, 0]), contact([e, 0, 0]), contact([2 * e, 0, 0]), contact([NaN, 0, 0])];
  const o2 = contactOffsets(chain, u);
  assert.ok(o2.slice(0, 3).every((o) => len(o) > 0));
  assert.deepEqual(o2[3], [0, 0, 0]);
});

test('contacts in line along a box edge (the ground\'s arrow rising into the one between two boxes) are fanned out only when their arrows meet', () => {
  const u = 0.01;
  const edge = [contact([0.1, 0.1, 0], 7), contact([0.1, 0.1, 0.2], 4)];
  // 7 N and 4 N at 20 mm/N: 0.14 m and 0.08 m, together longer than the 0.2 m between the points.
  const a = contactArrows(edge, { force: 0.02, maxForce: 7, floor: 0 }, u);
  const [n0, n1] = [a.find((x) => x.kind === 'normal' && x.id === 0)!, a.find((x) => x.kind === 'normal' && x.id === 1)!];
  assert.ok(Math.hypot(n0.o[0] - n1.o[0], n0.o[1] - n1.o[1]) > 2 * RADIUS_MAX * u, 'side by side, not on one line');
  assert.equal(n0.o[2], 0);
  assert.equal(n1.o[2], 0.2);
  // At 5 mm/N the arrows (35 mm, 20 mm) stop short of each other: left on their points.
  const b = contactArrows(edge, { force: 0.005, maxForce: 7, floor: 0 }, u).filter((x) => x.kind === 'normal');
  for (const x of b) assert.deepEqual(x.o, edge[x.id].point);
  // Side by side on the ground (a box's four corners): never grouped, whatever the arrows' lengths.
  assert.deepEqual(contactOffsets([contact([0, 0, 0], 7), contact([0.2, 0, 0], 7)], u, [10, 10]), [[0, 0, 0], [0, 0, 0]]);
});

test('a contact\'s own floor: a solver\'s leftover friction on resting boxes reads as none, a real one is drawn', () => {
  const u = 0.02;
  // Two 1 kg boxes, one on the other (bodies 0 and 1), and the lower on the ground (-1, the world).
  const bodies = [{ name: 'bottom', mass: 1 }, { name: 'top', mass: 1 }, { name: 'ground', fixed: true, mass: 5 }];
  const between = { ...contact([0, 0, 0.2], 9.8, [1e-7, 4e-6]), bodyA: 1, bodyB: 0 } as ContactData;
  const real = { ...contact([0, 0, 0.2], 9.8, [3e-3, 0]), bodyA: 'top', bodyB: 'bottom' } as ContactData;
  const ground = { ...contact([0, 0, 0], 19.6, [1e-5, 0]), bodyA: 0, bodyB: 2 } as ContactData;
  assert.ok(Math.abs(contactWeight(bodies, between) - 2 * STANDARD_GRAVITY) < 1e-12);
  assert.ok(Math.abs(contactWeight(bodies, ground) - STANDARD_GRAVITY) < 1e-12, 'a fixed body weighs nothing here');
  assert.equal(contactWeight(bodies, { bodyA: 'nobody', bodyB: -1 }), 0);
  const contactFloor = (c: ContactData): number => CONTACT_NOISE_RELATIVE * contactWeight(bodies, c);
  const a = contactArrows([between, real, ground], { force: 0.01, maxForce: 19.6, floor: 1e-9, contactFloor }, u);
  assert.deepEqual(a.filter((x) => x.kind === 'friction').map((x) => x.id), [1], 'only the 3 mN friction is drawn');
  assert.ok(len(a.find((x) => x.kind === 'friction')!.v) >= u * MIN_LENGTH.friction - 1e-15, 'at the minimum length');
  assert.deepEqual(a.filter((x) => x.kind === 'normal').map((x) => x.id), [0, 1, 2], 'the normals are far above their floors');
  // without the contact's floor the leftovers were drawn as short arrows
  assert.equal(contactArrows([between, real, ground], { force: 0.01, maxForce: 19.6, floor: 1e-9 }, u).filter((x) => x.kind === 'friction').length, 3);
});
