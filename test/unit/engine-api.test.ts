// The engine's public API (src/engine/index.ts): what a script can do with it without a scene file.
import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { Codes, emptySourceMap, parseScene, Simulation, type SceneSpec } from '../../src/engine';

test('emptySourceMap: every path maps to the first character, no node exists', () => {
  const sm = emptySourceMap('{ "bodies": [] }');
  const first = { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } };
  assert.deepEqual(sm.rangeOf(['bodies', 0, 'mass']), first);
  assert.deepEqual(sm.keyRangeOf(['bodies']), first);
  assert.equal(sm.nodeSpan(['bodies']), undefined);
  assert.deepEqual(sm.positionAt(5), { line: 0, character: 5 });
  const none = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  assert.deepEqual(emptySourceMap().rangeOf(['constraints', 3]), none);
});

test('a scene built in code runs without a source map; its run diagnostics point at 0:0', () => {
  const parsed = parseScene(JSON.stringify({ bodies: [{ name: 'rocket', mass: 0.5 }] }));
  assert.ok(parsed.scene);
  // Built in code from the parsed defaults, then given a force the file never had.
  const scene: SceneSpec = { ...parsed.scene, bodies: [{ ...parsed.scene.bodies[0], force: [1.7e308, 0, 0] }] };
  const sim = new Simulation(scene);
  assert.equal(sim.step(3).length, 0);
  assert.equal(sim.stopped, true);
  const d = sim.diagnostics.find((x) => x.code === Codes.nonFinite);
  assert.ok(d, JSON.stringify(sim.diagnostics));
  assert.deepEqual(d.range, { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } });
  assert.equal(sim.sourceMap.nodeSpan(['bodies', 0]), undefined);
});
