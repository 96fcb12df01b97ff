// Magnitudes checked where a scene's numbers are read (src/engine/scene/ranges.ts): coordinates beyond
// 1e15 m and masses beyond 1e12 kg are CL005 on the value, before any numerics. The case that made
// `simulate` spin: a second ground plane at 2⁵³ + 1 m under a pendulum, nonlinear formulation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Codes, inspectScene, simulateScene } from '../../src/engine';

const PENDULUM = readFileSync(join(__dirname, '../../examples/pendulum-ground.scene.json'), 'utf8');

const textAt = (text: string, r: { start: { line: number; character: number }; end: { line: number; character: number } }) => text.split('\n')[r.start.line].slice(r.start.character, r.end.character);

test('a second ground plane at 9007199254740993 m: CL005 on its offset, and the run goes on without it', () => {
  const text = PENDULUM.replace('"offset": 0.15}]', '"offset": 0.15}, {"type": "plane", "name": "ground2", "normal": [0, 0, 1], "offset": 9007199254740993}]');
  assert.notEqual(text, PENDULUM);
  const out = simulateScene(text, 50);
  const d = out.inspect.diagnostics.filter((x) => x.code === Codes.invalidValue);
  assert.equal(d.length, 1);
  assert.equal(textAt(text, d[0].range), '9007199254740993');
  assert.match(d[0].message, /`offset` of shape `ground2` of the world must be within ±1e15 m/);
  assert.deepEqual(d[0].data?.path, ['world', 'shapes', 1, 'offset']);
  assert.equal(out.result?.steps.length, 50, 'the rest of the scene runs');
  assert.ok(!out.inspect.diagnostics.some((x) => x.code === Codes.divergence || x.code === Codes.nonFinite));
});

test('positions, anchors and sizes beyond ±1e15 m, masses beyond 1e12 kg: CL005 on the value; at the limits: accepted', () => {
  const cases: [string, string, RegExp][] = [
    ['"position": [0.8, 0, 1.0]', '"position": [0.8, -2e15, 1.0]', /Component 1 of `position` of body `bob` must be within ±1e15 m/],
    ['"anchorA": [0, 0, 1.0]', '"anchorA": [0, 0, 1e16]', /Component 2 of `anchorA` of constraint `rod` must be within ±1e15 m/],
    ['"radius": 0.1', '"radius": 3e15', /`radius` of shape `ball` of body `bob` must be within ±1e15 m/],
    ['"mass": 1,', '"mass": 2e12,', /`mass` of body `bob` must be within ±1e12 kg/],
  ];
  for (const [from, to, message] of cases) {
    const text = PENDULUM.replace(from, to);
    assert.notEqual(text, PENDULUM, from);
    const r = inspectScene(text);
    const d = r.diagnostics.filter((x) => x.code === Codes.invalidValue);
    assert.equal(d.length, 1, `${to}: ${r.diagnostics.map((x) => x.code).join(', ')}`);
    assert.match(d[0].message, message);
    assert.equal(r.hasErrors, true);
    // the limit itself is accepted
    const edge = inspectScene(PENDULUM.replace(from, to.replace(/-?\d+e\d+/, (m) => (m.startsWith('-') ? '-1e15' : m.endsWith('e12') ? '1e12' : '1e15'))));
    assert.equal(edge.diagnostics.filter((x) => x.code === Codes.invalidValue).length, 0, `${to} at the limit`);
  }
});
