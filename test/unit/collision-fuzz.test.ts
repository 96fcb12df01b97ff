// Fuzz: random shape specs never make the parser or collision detection throw. Scene-shaped JSON
// with random shapes, world shapes and contact settings parses without an internal error, with
// every range inside the text and every parsed shape valid; collision detection on the result, and
// on random valid shapes with extreme sizes, poses and degenerate alignments, returns only finite
// contacts within the margin, with unit normals.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseScene } from '../../src/engine/scene/parse';
import { Codes } from '../../src/engine/core/codes';
import { detectContacts } from '../../src/engine/collision/detect';
import { collideShapes } from '../../src/engine/collision/narrow';
import type { Contact } from '../../src/engine/collision/contacts';
import type { ShapeSpec } from '../../src/engine/scene/contactSpec';
import type { Range, Vec3 } from '../../src/engine/types';
import { boxSpec, capsuleSpec, place, planeSpec, sphereSpec } from './collision-helpers';

const num = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -10, max: 10 }),
  fc.constantFrom(0, -0, 1, -1, 0.5, 1e308, -1e308, 1e-320, 1e6, 1e-9),
);
const anyJson = fc.jsonValue({ maxDepth: 2 });
const vec = (n: number) => fc.oneof({ weight: 4, arbitrary: fc.array(num, { minLength: n, maxLength: n }) }, { weight: 1, arbitrary: fc.array(num, { maxLength: n + 1 }) }, { weight: 1, arbitrary: anyJson });

const shapeArb = fc.record(
  {
    type: fc.oneof({ weight: 6, arbitrary: fc.constantFrom('sphere', 'box', 'capsule', 'plane') }, { weight: 1, arbitrary: anyJson }),
    name: fc.oneof(fc.string({ maxLength: 3 }), anyJson),
    radius: fc.oneof(num, anyJson),
    halfLength: num,
    halfExtents: vec(3),
    position: vec(3),
    orientation: vec(4),
    normal: vec(3),
    offset: fc.oneof(num, anyJson),
    friction: fc.oneof(num, anyJson),
    restitution: num,
    extra: anyJson,
  },
  { requiredKeys: [] },
);
const small = fc.double({ min: -2, max: 2, noNaN: true });
const positive = fc.double({ min: 0.05, max: 2, noNaN: true });
const v3 = fc.array(small, { minLength: 3, maxLength: 3 });
/** Well-formed shapes, so that enough scenes get through the parser to reach collision detection. */
const validShapeArb = fc.oneof(
  fc.record({ type: fc.constant('sphere'), radius: positive, position: v3 }),
  fc.record({ type: fc.constant('box'), halfExtents: fc.array(positive, { minLength: 3, maxLength: 3 }), orientation: fc.array(small, { minLength: 4, maxLength: 4 }) }),
  fc.record({ type: fc.constant('capsule'), radius: positive, halfLength: positive, friction: positive }),
  fc.record({ type: fc.constant('plane'), normal: v3, offset: small }),
);
const shapesArb = fc.oneof({ weight: 6, arbitrary: fc.array(fc.oneof({ weight: 5, arbitrary: validShapeArb }, { weight: 1, arbitrary: shapeArb }), { maxLength: 4 }) }, { weight: 1, arbitrary: anyJson });
const bodyArb = fc.record(
  {
    name: fc.constantFrom('A', 'B', 'C', 'A'),
    mass: fc.oneof({ weight: 5, arbitrary: fc.constant(1) }, { weight: 1, arbitrary: num }),
    position: fc.oneof({ weight: 4, arbitrary: v3 }, { weight: 1, arbitrary: vec(3) }),
    orientation: fc.oneof({ weight: 4, arbitrary: fc.constant([0, 0, 0, 1]) }, { weight: 1, arbitrary: vec(4) }),
    fixed: fc.boolean(),
    shapes: shapesArb,
  },
  { requiredKeys: ['name', 'mass'] },
);
const settingsArb = fc.record(
  {
    formulation: fc.constantFrom('acceleration', 'velocity', 'nonlinear', 'x'),
    contacts: fc.oneof(fc.record({ enabled: fc.oneof(fc.boolean(), anyJson), margin: fc.oneof(num, anyJson), level: fc.oneof(fc.constantFrom('position', 'velocity'), anyJson), jointedCollide: fc.boolean() }, { requiredKeys: [] }), anyJson),
    newton: fc.oneof(fc.record({ maxIterations: num, tolerance: num, lineSearch: anyJson }, { requiredKeys: [] }), anyJson),
    regularization: fc.oneof(num, anyJson),
    fb: fc.oneof(fc.record({ alpha: num, beta: num }, { requiredKeys: [] }), anyJson),
    pgs: fc.oneof(fc.record({ iterations: num, tolerance: num }, { requiredKeys: [] }), anyJson),
  },
  { requiredKeys: [] },
);
const sceneArb = fc.record(
  {
    solver: settingsArb,
    bodies: fc.array(bodyArb, { maxLength: 3 }),
    world: fc.oneof({ weight: 5, arbitrary: fc.record({ shapes: shapesArb }, { requiredKeys: [] }) }, { weight: 1, arbitrary: anyJson }),
    constraints: fc.constant([{ type: 'ball', bodyA: 'A', bodyB: 'B' }]),
  },
  { requiredKeys: ['bodies'] },
);

function inText(lines: string[], r: Range): boolean {
  const ok = (p: { line: number; character: number }) => p.line >= 0 && p.line < lines.length && p.character >= 0 && p.character <= lines[p.line].length;
  return ok(r.start) && ok(r.end);
}

function checkContacts(cs: readonly Contact[], margin: number, what: string): void {
  for (const c of cs) {
    const all = [...c.point, ...c.normal, c.gap, ...c.t1, ...c.t2, ...c.localA, ...c.localB, c.friction, c.restitution];
    assert.ok(all.every(Number.isFinite), `${what}: non-finite contact ${JSON.stringify(c)}`);
    assert.ok(Math.abs(Math.hypot(...c.normal) - 1) < 1e-9, `${what}: normal not unit`);
    assert.ok(c.gap <= margin + 1e-9 * Math.max(1, Math.abs(c.gap)), `${what}: gap ${c.gap} above the margin ${margin}`);
  }
}

test('fuzz: random shapes, world and contact settings never throw; parsed shapes are valid; detection is finite', () => {
  let withShapes = 0;
  fc.assert(
    fc.property(sceneArb, (doc) => {
      const text = JSON.stringify(doc, null, 1);
      const r = parseScene(text);
      const lines = text.split('\n');
      for (const d of r.diagnostics) {
        assert.notEqual(d.code, Codes.internalError, d.message);
        assert.ok(inText(lines, d.range), `${d.code} range outside the text`);
        for (const f of d.fixes ?? []) for (const e of f.edits) assert.ok(inText(lines, e.range), `${d.code} fix outside the text`);
      }
      const s = r.scene;
      if (!s) return;
      const check = (sh: ShapeSpec, world: boolean): void => {
        assert.ok(sh.friction >= 0 && Number.isFinite(sh.friction) && sh.restitution >= 0 && sh.restitution <= 1);
        assert.ok(Math.abs(Math.hypot(...sh.orientation) - 1) < 1e-12 && sh.position.every(Number.isFinite));
        if (sh.type === 'plane') {
          assert.ok(world, 'a plane on a body');
          assert.ok(Math.abs(Math.hypot(...sh.normal) - 1) < 1e-12 && Number.isFinite(sh.offset));
        } else if (sh.type === 'box') assert.ok(sh.halfExtents.every((h) => h > 0 && Number.isFinite(h)));
        else if (sh.type === 'ellipsoid') assert.ok(sh.radii.every((h) => h > 0 && Number.isFinite(h)));
        else if (sh.type === 'convex') assert.ok(sh.vertices.length >= 4 && sh.vertices.every((v) => v.every(Number.isFinite)));
        else {
          assert.ok(sh.radius > 0 && Number.isFinite(sh.radius));
          if (sh.type === 'capsule' || sh.type === 'cylinder') assert.ok(sh.halfLength > 0 && Number.isFinite(sh.halfLength));
        }
      };
      for (const b of s.bodies) for (const sh of b.shapes) check(sh, false);
      for (const sh of s.world.shapes) check(sh, true);
      const c = s.solver.contacts;
      assert.ok(c.margin >= 0 && Number.isFinite(c.margin));
      if (s.solver.formulation === 'acceleration') assert.equal(c.enabled, false);
      const cs = detectContacts(s, s.bodies.map((b) => ({ p: b.position, q: b.orientation })), { ...c, enabled: true });
      checkContacts(cs, c.margin, 'parsed scene');
      if (s.bodies.some((b) => b.shapes.length > 0)) withShapes++;
    }),
    { numRuns: 400, seed: 10 },
  );
  assert.ok(withShapes >= 40, `only ${withShapes} scenes with parsed shapes: the generator is too weak`);
});

test('fuzz: valid shapes with extreme sizes and poses, coincident centres and exact alignments: finite contacts', () => {
  const size = fc.oneof(fc.double({ min: 1e-6, max: 1e6, noNaN: true }), fc.constantFrom(1e-6, 1, 1e6));
  const coord = fc.oneof(fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.constantFrom(0, 1, -1, 0.5));
  const aligned: [number, number, number, number][] = [[0, 0, 0, 1], [1, 0, 0, 0], [0, Math.SQRT1_2, 0, Math.SQRT1_2], [Math.SQRT1_2, 0, 0, Math.SQRT1_2], [0, 0, Math.SQRT1_2, Math.SQRT1_2]];
  const quat = fc.oneof(
    fc.constantFrom(...aligned),
    fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true })),
  );
  const spec = fc.oneof(
    size.map((r) => sphereSpec(r)),
    fc.tuple(size, size).map(([r, l]) => capsuleSpec(r, l)),
    fc.tuple(size, size, size).map((h) => boxSpec(h as Vec3)),
    fc.tuple(fc.constantFrom<Vec3>([0, 0, 1], [1, 0, 0], [1, 1, 1]), coord).map(([n, d]) => planeSpec(n, d)),
  );
  const posed = fc.record({ spec, c: fc.oneof(fc.tuple(coord, coord, coord), fc.constant([0, 0, 0])), q: quat });
  fc.assert(
    fc.property(posed, posed, fc.constantFrom(0, 0.01, 10), (x, y, margin) => {
      const unit = (q: number[]): [number, number, number, number] => {
        const n = Math.hypot(...q);
        return n > 1e-6 ? (q.map((v) => v / n) as [number, number, number, number]) : [0, 0, 0, 1];
      };
      const a = place(x.spec, x.c as Vec3, unit(x.q), 0);
      const b = place(y.spec, y.c as Vec3, unit(y.q), 1);
      for (const [p, q] of [[a, b], [b, a]]) {
        const cs = collideShapes(p, q, margin);
        assert.ok(cs.length <= 4);
        for (const c of cs) {
          if (![...c.pA, ...c.pB, ...c.n, c.gap].every(Number.isFinite)) continue; // dropped by detectContacts
          assert.ok(Math.abs(Math.hypot(...c.n) - 1) < 1e-9, `normal ${c.n}`);
          assert.ok(c.gap <= margin + 1e-9 * Math.max(1, Math.abs(c.gap)), `gap ${c.gap} > margin ${margin}`);
        }
      }
    }),
    { numRuns: 3000, seed: 3 },
  );
});
