// Issue 8 §6: what the docs promise about defaults and ranges holds, and the messages say what to do:
// a hinge's axisB default, the ranges of CL203 and CL207, CL303's cause when the scaled κ is small,
// CL304 never advising a zero length, CL305, CL306 and CL401/CL403 saying what to change.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Codes, inspectScene, parseScene, simulateScene } from '../../src/engine';

const at = (text: string, needle: string) => {
  const lines = text.split('\n');
  const line = lines.findIndex((l) => l.includes(needle));
  return { line, character: lines[line].indexOf(needle) };
};

test('hinge axisB defaults to axisA carried into B\'s frame at the initial pose: the hinge holds at step 0', () => {
  // bodyB turned 90° about z: axisA = x in the world is −y in B's frame
  const s = Math.SQRT1_2;
  const text = JSON.stringify({
    bodies: [{ name: 'door', mass: 1, position: [0, 0, 0], orientation: [0, 0, s, s] }],
    constraints: [{ name: 'h', type: 'hinge', bodyA: 'world', bodyB: 'door', axisA: [1, 0, 0] }],
  });
  const spec = parseScene(text).scene!.constraints[0];
  assert.ok(Math.abs(spec.axisB![0]) < 1e-15 && Math.abs(spec.axisB![1] + 1) < 1e-15 && Math.abs(spec.axisB![2]) < 1e-15, String(spec.axisB));
  const r = inspectScene(text);
  assert.ok(r.snapshot!.constraints[0].violation < 1e-12, 'no initial violation');
  assert.ok(!r.diagnostics.some((d) => d.code === Codes.initialViolation));
  // unrotated bodies: the same vector; an explicit axisB is kept as given
  assert.deepEqual(parseScene(JSON.stringify({ bodies: [{ name: 'b', mass: 1 }], constraints: [{ type: 'hinge', bodyA: 'world', bodyB: 'b', axisA: [0, 1, 0] }] })).scene!.constraints[0].axisB, [0, 1, 0]);
  assert.deepEqual(parseScene(JSON.stringify({ bodies: [{ name: 'b', mass: 1 }], constraints: [{ type: 'hinge', bodyA: 'world', bodyB: 'b', axisA: [0, 1, 0], axisB: [0, 0, 2] }] })).scene!.constraints[0].axisB, [0, 0, 1]);
});

test('CL203 is reported on bodyB (related: bodyA), CL207 on `linear` (else `angular`, else the type), as docs/diagnostics.md says', () => {
  const t203 = '{\n  "bodies": [{ "name": "a", "mass": 1, "fixed": true }],\n  "constraints": [{ "type": "ball", "bodyA": "world", "bodyB": "a" }]\n}';
  const d203 = parseScene(t203).diagnostics.find((d) => d.code === Codes.bothFixed)!;
  assert.deepEqual(d203.range.start, at(t203, '"a" }]'));
  assert.deepEqual(d203.related![0].range.start, at(t203, '"world"'));
  const t207 = '{\n  "bodies": [{ "name": "a", "mass": 1 }],\n  "constraints": [{ "type": "lock", "bodyA": "world", "bodyB": "a", "linear": [false, false, false] }]\n}';
  const d207 = parseScene(t207).diagnostics.find((d) => d.code === Codes.emptyLock)!;
  assert.deepEqual(d207.range.start, at(t207, '[false'));
  const t207b = '{\n  "bodies": [{ "name": "a", "mass": 1 }],\n  "constraints": [{ "type": "lock", "bodyA": "world", "bodyB": "a" }]\n}';
  assert.deepEqual(parseScene(t207b).diagnostics.find((d) => d.code === Codes.emptyLock)!.range.start, at(t207b, '"lock"'));
});

test('CL303: when the scaled κ is below the threshold the message says the ill-conditioning is a scaling issue', () => {
  // a 1e8 mass ratio on a two-rod chain: κ(A) ≈ 1e8, κ of the Jacobi-scaled A ≈ 1
  const text = JSON.stringify({
    bodies: [
      { name: 'heavy', mass: 1e8, position: [1, 0, 0] },
      { name: 'light', mass: 1, position: [2, 0, 0] },
    ],
    constraints: [
      { type: 'distance', bodyA: 'world', bodyB: 'heavy' },
      { type: 'distance', bodyA: 'heavy', bodyB: 'light' },
    ],
  });
  const r = inspectScene(text);
  const d = r.diagnostics.find((x) => x.code === Codes.illConditioned)!;
  assert.ok(d, JSON.stringify(r.snapshot!.cond));
  assert.ok(r.snapshot!.cond.scaled! < 1e6);
  assert.match(d.message, /below the threshold: the ill-conditioning is a scaling issue/);
  assert.doesNotMatch(d.message, /cause is the geometry/);
});

test('CL304 never advises a zero length: coincident anchors get "move apart or use a ball joint" and no length fix', () => {
  const text = JSON.stringify({
    bodies: [{ name: 'b', mass: 1, position: [0, 0, 0] }],
    constraints: [{ name: 'rod', type: 'distance', bodyA: 'world', bodyB: 'b', length: 1 }],
  });
  const d = inspectScene(text).diagnostics.find((x) => x.code === Codes.initialViolation)!;
  assert.ok(d);
  assert.doesNotMatch(d.message, /set `length` to/);
  assert.match(d.message, /positive length.*ball joint/);
  assert.equal(d.fixes, undefined);
  // anchors apart: the length fix is still offered
  const apart = inspectScene(JSON.stringify({ bodies: [{ name: 'b', mass: 1, position: [2, 0, 0] }], constraints: [{ type: 'distance', bodyA: 'world', bodyB: 'b', length: 1 }] }));
  assert.match(apart.diagnostics.find((x) => x.code === Codes.initialViolation)!.fixes![0].title, /Set `length` to the current distance \(2\)/);
});

test('CL305, CL306 and CL401/CL403 say what to do', () => {
  const over = inspectScene(JSON.stringify({
    bodies: [{ name: 'b', mass: 1, position: [1, 0, 0] }],
    constraints: [{ type: 'fixed', bodyA: 'world', bodyB: 'b' }, { type: 'ball', bodyA: 'world', bodyB: 'b', anchorA: [1, 0, 0] }],
  }));
  assert.match(over.diagnostics.find((x) => x.code === Codes.overConstrained)!.message, /Remove the constraints that CL301\/CL302 name, or use constraint types with fewer rows/);
  const zero = inspectScene(JSON.stringify({
    bodies: [{ name: 'b', mass: 1, position: [0, 0, 0] }],
    constraints: [{ name: 'rod', type: 'distance', bodyA: 'world', bodyB: 'b', length: 1 }],
  }));
  assert.match(zero.diagnostics.find((x) => x.code === Codes.singularSystem)!.message, /Change its geometry .* or remove it/);
  const initial = simulateScene(JSON.stringify({ bodies: [{ name: 'b', mass: 1, angularVelocity: [0, 0, 1e300] }] }));
  const d0 = initial.inspect.diagnostics.find((x) => x.code === Codes.overflow)!;
  assert.match(d0.message, /Give `angularVelocity` a value of physical size/);
  const run = simulateScene(JSON.stringify({
    solver: { dt: 0.01, steps: 20, alpha: 1e100, stabilization: 'baumgarte' },
    bodies: [{ name: 'b', mass: 1, position: [1, 0, 0] }],
    constraints: [{ type: 'distance', bodyA: 'world', bodyB: 'b' }],
  }));
  const dr = run.inspect.diagnostics.find((x) => x.code === Codes.overflow)!;
  assert.match(dr.message, /The run stopped there; step 1 is kept\. .*CL404-divergence.*reduce `solver\.dt` or bring the stabilisation gains into their stable range/);
});
