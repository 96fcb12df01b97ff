// The whole pipeline never throws and never returns NaN silently, on random scenes and on
// randomly mutated example files (fast-check).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { inspectScene, simulateScene, Codes } from '../../src/engine';

const exDir = join(__dirname, '../../examples');
const examples = readdirSync(exDir).filter((f) => f.endsWith('.scene.json')).map((f) => readFileSync(join(exDir, f), 'utf8'));

const num = fc.oneof(fc.double({ min: -10, max: 10, noNaN: true }), fc.constantFrom(0, 1e-12, 1e9, -1e9, 1e300));
const vec = fc.tuple(num, num, num);
const types = ['distance', 'ball', 'hinge', 'fixed', 'slider', 'lock'] as const;

const sceneArb = fc
  .record({
    nb: fc.integer({ min: 1, max: 5 }),
    bodies: fc.array(
      fc.record({
        mass: fc.oneof(fc.double({ min: 1e-3, max: 1e3, noNaN: true }), fc.constantFrom(1e-9, 1e9)),
        position: vec,
        orientation: fc.tuple(num, num, num, num),
        velocity: vec,
        angularVelocity: vec,
        fixed: fc.boolean(),
      }),
      { minLength: 5, maxLength: 5 },
    ),
    constraints: fc.array(
      fc.record({
        type: fc.constantFrom(...types),
        a: fc.integer({ min: -1, max: 4 }),
        b: fc.integer({ min: -1, max: 4 }),
        anchorA: vec,
        anchorB: vec,
        axisA: vec,
        linear: fc.tuple(fc.boolean(), fc.boolean(), fc.boolean()),
      }),
      { maxLength: 6 },
    ),
    formulation: fc.constantFrom('acceleration', 'velocity'),
    stabilization: fc.constantFrom('aerislab', 'baumgarte', 'none'),
    method: fc.constantFrom('auto', 'cholesky', 'lu', 'lstsq'),
    compliance: fc.constantFrom(0, 1e-6),
  })
  .map((r) => {
    const bodies = r.bodies.slice(0, r.nb).map((b, i) => ({ name: `b${i}`, inertia: [0.1, 0.2, 0.3], ...b }));
    const name = (i: number) => (i < 0 || i >= r.nb ? 'world' : `b${i}`);
    return JSON.stringify({
      solver: { dt: 0.01, alpha: 2, beta: 1, formulation: r.formulation, stabilization: r.stabilization, method: r.method, compliance: r.compliance },
      bodies,
      constraints: r.constraints.map((c) => ({ type: c.type, bodyA: name(c.a), bodyB: name(c.b), anchorA: c.anchorA, anchorB: c.anchorB, axisA: c.axisA, linear: c.linear, angular: [true, false, false] })),
    });
  });

const allFinite = (x: ArrayLike<number>) => Array.prototype.every.call(x, (v: number) => Number.isFinite(v));

test('random scenes: no exception, no internal error, and no NaN without a CL401 diagnostic', () => {
  fc.assert(
    fc.property(sceneArb, (text) => {
      const out = simulateScene(text, 5);
      const codes = out.inspect.diagnostics.map((d) => d.code);
      assert.ok(!codes.includes(Codes.internalError), JSON.stringify(out.inspect.diagnostics));
      const s = out.inspect.snapshot;
      if (s) {
        assert.ok(allFinite(s.lambda), `λ must never be NaN: ${Array.from(s.lambda)}`);
      }
      if (out.result) for (const st of out.result.steps) assert.ok(allFinite(st.C) || codes.includes(Codes.nonFinite));
    }),
    { numRuns: 300, seed: 1 },
  );
});

test('mutated example files: inspectScene never throws and every range lies in the text', () => {
  const mutated = fc.tuple(fc.constantFrom(...examples), fc.array(fc.tuple(fc.nat(), fc.nat({ max: 40 }), fc.string({ maxLength: 4 })), { maxLength: 4 })).map(([t, edits]) => {
    let s = t;
    for (const [pos, del, ins] of edits) {
      const p = pos % (s.length + 1);
      s = s.slice(0, p) + ins + s.slice(p + del);
    }
    return s;
  });
  fc.assert(
    fc.property(mutated, (text) => {
      const r = inspectScene(text);
      const lines = text.split(/\r\n|\r|\n/);
      for (const d of r.diagnostics) {
        assert.notEqual(d.code, Codes.internalError, d.message);
        for (const p of [d.range.start, d.range.end]) {
          assert.ok(p.line >= 0 && p.line < Math.max(1, lines.length), `line ${p.line}`);
          assert.ok(p.character >= 0 && p.character <= (lines[p.line]?.length ?? 0) + 1, `char ${p.character}`);
        }
      }
    }),
    { numRuns: 300, seed: 7 },
  );
});
