// A contact scene without constraints opens on a matrix that has entries (not an empty 0×18 J),
// and a scene with constraints still opens on J.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inspectScene, Simulation } from '../../src/engine';
import { buildPanelModel } from '../../src/panelModel';
import { initialState, reduce } from '../../webview/store';

function opened(name: string, steps: number) {
  const text = readFileSync(join(__dirname, '..', '..', 'examples', `${name}.scene.json`), 'utf8');
  const ins = inspectScene(text);
  const sim = new Simulation(ins.parse.scene!, ins.parse.sourceMap);
  sim.step(steps);
  const model = buildPanelModel(`${name}.scene.json`, ins, sim, steps)!;
  return reduce(initialState({ report: false }), { type: 'host', message: { type: 'model', model } });
}

test('box stack (contacts, no constraints): the first matrix with entries, not J 0×18', () => {
  const s = opened('box-stack', 20);
  const J = s.matrices.find((m) => m.id === 'J');
  assert.ok(J && J.rows === 0, 'the fixture has an empty J');
  const shown = s.matrices.find((m) => m.id === s.matrix)!;
  assert.notEqual(s.matrix, 'J');
  assert.ok(shown.rows > 0 && shown.cols > 0, `${shown.id} ${shown.rows}×${shown.cols}`);
});

test('a chain opens on J as before', () => {
  assert.equal(opened('chain', 5).matrix, 'J');
});
