// The scene format's `tendons` (docs/scene-format.md "Tendons") and actuators with `tendon`: what is
// read, the defaults, and the diagnostics on bad references and shapes, each on the offending name.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Codes, parseScene, Simulation } from '../../src/engine';

const scene = (tendons: string, actuators = '') => `{
  "solver": { "formulation": "velocity" },
  "bodies": [ { "name": "arm", "mass": 1, "position": [0.5, 0, 1] }, { "name": "ball", "mass": 0.5, "position": [0.3, 0, 0.6] } ],
  "constraints": [ { "name": "knee", "type": "hinge", "bodyA": "world", "bodyB": "arm", "anchorA": [0, 0, 1], "anchorB": [-0.5, 0, 0], "axisA": [0, 1, 0], "axisB": [0, 1, 0] },
                   { "name": "rod", "type": "distance", "bodyA": "world", "bodyB": "ball", "anchorA": [0, 0, 2], "anchorB": [0, 0, 0] } ],
  "tendons": ${tendons}${actuators ? `, "actuators": ${actuators}` : ''}
}`;

test('tendons: a fixed and a spatial tendon are read with their fields and defaults', () => {
  const r = parseScene(
    scene(
      '[ { "name": "f", "joints": [ { "joint": "knee", "coef": 2 } ], "limits": [-1, 1], "limitMargin": 0.01, "stiffness": 3, "damping": 0.5, "frictionLoss": 0.2 }, { "path": [ { "body": "world", "point": [0, 0, 1] }, { "body": "ball" } ], "limits": [0, 0.6], "equality": { "polycoef": [0.05] } } ]',
      '[ { "name": "pull", "tendon": "f", "gear": 2 } ]',
    ),
  );
  assert.deepEqual(r.diagnostics, []);
  assert.deepEqual(r.scene?.tendons, [
    { index: 0, name: 'f', joints: [{ joint: 'knee', coef: 2 }], limits: [-1, 1], limitMargin: 0.01, stiffness: 3, damping: 0.5, frictionLoss: 0.2 },
    { index: 1, name: 'tendon1', path: [{ body: 'world', point: [0, 0, 1] }, { body: 'ball', point: [0, 0, 0] }], limits: [0, 0.6], equality: { name: 'tendon1.equality', polycoef: [0.05] } },
  ]);
  assert.deepEqual(r.scene?.actuators?.map((a) => [a.name, a.joint, a.tendon, a.gear]), [['pull', '', 'f', 2]]);
  // the spring's dead band and the equality's reference default to the initial lengths: nothing moves the arm at rest but gravity
  const sim = new Simulation(r.scene!);
  sim.step();
  const L = sim.world.tendons?.report.L;
  assert.ok(L && Math.abs(L[1] - Math.hypot(0.3, 0.4)) < 1e-12, `${L?.[1]}`);
});

test('tendons: unknown joints, bodies and tendons are CL216 on the name; both or neither of joints and path is an error', () => {
  const cases: [string, string, string][] = [
    ['[ { "name": "f", "joints": [ { "joint": "rod" } ] } ]', '', '"rod"'],
    ['[ { "name": "s", "path": [ { "body": "world" }, { "body": "bal" } ] } ]', '', '"bal"'],
    ['[ { "name": "f", "joints": [ { "joint": "knee" } ], "equality": { "other": "g" } } ]', '', '"g"'],
    ['[ { "name": "f", "joints": [ { "joint": "knee" } ] } ]', '[ { "tendon": "h" } ]', '"h"'],
  ];
  for (const [t, a, at] of cases) {
    const text = scene(t, a);
    const r = parseScene(text);
    const d = r.diagnostics.find((x) => x.code === Codes.tendonReference);
    assert.ok(d, `${t} ${a}: ${JSON.stringify(r.diagnostics)}`);
    const offset = text.lastIndexOf(at);
    const line = text.slice(0, offset).split('\n').length - 1;
    assert.equal(d.range.start.line, line, d.message);
  }
  for (const t of ['[ { "name": "x" } ]', '[ { "name": "x", "joints": [ { "joint": "knee" } ], "path": [ { "body": "world" }, { "body": "arm" } ] } ]']) {
    const r = parseScene(scene(t));
    assert.ok(r.diagnostics.some((d) => d.code === Codes.invalidValue && /either `joints`/.test(d.message)), JSON.stringify(r.diagnostics));
    assert.deepEqual(r.scene?.tendons, []);
  }
  const both = parseScene(scene('[ { "name": "f", "joints": [ { "joint": "knee" } ] } ]', '[ { "joint": "knee", "tendon": "f" } ]'));
  assert.ok(both.diagnostics.some((d) => d.code === Codes.invalidValue && /both a `joint` and a `tendon`/.test(d.message)));
  // in another formulation the rows are not solved: CL210 on the first of them
  const acc = parseScene(scene('[ { "name": "f", "joints": [ { "joint": "knee" } ], "frictionLoss": 1, "equality": { "polycoef": [0] } } ]').replace('"velocity"', '"acceleration"'));
  assert.deepEqual(acc.diagnostics.map((d) => [d.code, d.severity]), [[Codes.jointRowsNotSolved, 'warning']]);
  assert.match(acc.diagnostics[0].message, /`frictionLoss`, `equality` are rows only the velocity formulation solves/);
  const bad = parseScene(scene('[ { "name": "f", "joints": [ { "joint": "knee" } ], "limits": [1, -1], "damping": -1 } ]'));
  assert.deepEqual(bad.diagnostics.map((d) => d.code).sort(), [Codes.invalidValue, Codes.invalidValue].sort());
});

test('tendons in quaternion coordinates: CL117 says they are not simulated', async () => {
  const { inspectScene } = await import('../../src/engine');
  const text = scene('[ { "name": "f", "path": [ { "body": "world" }, { "body": "ball" } ], "stiffness": 1 } ]').replace('"formulation": "velocity"', '"coordinates": "quaternion"');
  const r = inspectScene(text);
  assert.ok(r.diagnostics.some((d) => d.code === Codes.quaternionCoordinates && /tendons are not simulated/.test(d.message)), JSON.stringify(r.diagnostics.map((d) => d.message)));
});
