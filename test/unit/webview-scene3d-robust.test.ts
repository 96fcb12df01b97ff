// The 3D view after a blow-up: the chain's run stops at step 1109 with bodies at 1e55 m and forces
// of 1e60 N. Framing, glyph size and arrow scale come from the step shown and leave absurd values
// out, so step 840 (the divergence onset, before any growth) is drawn as it was before the blow-up;
// forces at round-off level (2e-14 N) read as zero.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inspectScene, Simulation } from '../../src/engine';
import { buildPanelModel } from '../../src/panelModel';
import type { PanelModel } from '../../src/protocol';
import { frameAt, frameBounds, recordsRun, sceneData, type SceneData } from '../../webview/scene3d/model';
import { arrowScales, glyphUnit, legendInfo } from '../../webview/scene3d/describe';
import { divergenceOnsetOf, noiseFloor, robustMax } from '../../webview/scene3d/robust';

let model: PanelModel;
let before840: PanelModel;
let sim: Simulation;
const size = (b: { min: number[]; max: number[] }): number => Math.hypot(b.max[0] - b.min[0], b.max[1] - b.min[1], b.max[2] - b.min[2]);

before(() => {
  const text = readFileSync(join(__dirname, '..', '..', 'examples', 'chain.scene.json'), 'utf8');
  const ins = inspectScene(text);
  sim = new Simulation(ins.parse.scene!, ins.parse.sourceMap);
  sim.step(840);
  before840 = buildPanelModel('chain.scene.json', ins, sim, 840)!;
  sim.step(400);
  model = buildPanelModel('chain.scene.json', ins, sim, sim.currentStep)!;
});

test('the fixture blew up: bodies at > 1e50 m in the last step', () => {
  assert.ok(sim.currentStep > 1000 && sim.currentStep < 1240, `stopped at ${sim.currentStep}`);
  const last = sim.records[sim.records.length - 1];
  assert.ok(Math.max(...last.poses.map(Math.abs)) > 1e50);
});

test('the run’s bounds, the fit at step 840 and the glyph size are those of the chain, not of the explosion', () => {
  const data: SceneData = sceneData(model);
  assert.ok(size(data.bounds) < 10, `run bounds ${JSON.stringify(data.bounds)}`);
  const clean = sceneData(before840);
  const f = frameAt(model, data, 840, sim.snapshotAt(840));
  // Fit takes in the steps before the divergence onset (the run's CL404) and the step shown.
  const onset = divergenceOnsetOf(model.diagnostics);
  assert.ok(onset !== undefined && onset > 700 && onset <= 900, `the run's divergence onset: ${onset}`);
  const fit = frameBounds(data, f.poses, recordsRun(model.history), onset);
  assert.ok(size(fit) > 0.5 && size(fit) < 10, `fit at 840 ${JSON.stringify(fit)}`);
  // Without the onset (a live run before its diagnostics): the run's sane bounds, still the chain's.
  const blind = frameBounds(data, f.poses, recordsRun(model.history));
  assert.ok(size(blind) > 0.5 && size(blind) < 10, `fit at 840 without the onset ${JSON.stringify(blind)}`);
  // The view sizes glyphs on the first recorded step (the model's own step is the blown-up one).
  const u = glyphUnit(data, frameAt(model, data, 1));
  const uClean = glyphUnit(clean, frameAt(before840, clean, 840));
  assert.ok(u > 0 && u <= 2 * uClean, `glyph unit ${u} vs ${uClean} before the blow-up`);
  // Every body of step 840 inside the fitted box.
  for (let i = 0; i < data.bodies.length; i++) for (let k = 0; k < 3; k++) assert.ok(f.poses[i * 7 + k] >= fit.min[k] && f.poses[i * 7 + k] <= fit.max[k]);
});

test('arrows at step 840 are scaled by step 840’s forces (legend in newtons of that step, not 1e57 N)', () => {
  const data = sceneData(model);
  const f = frameAt(model, data, 840, sim.snapshotAt(840));
  assert.ok(f.forces, 'the snapshot of 840 carries forces');
  const s = arrowScales(model, data, f, 0);
  const clean = sceneData(before840);
  const sClean = arrowScales(before840, clean, frameAt(before840, clean, 840), 0);
  assert.ok(Math.abs(s.force / sClean.force - 1) < 0.5, `metres per newton ${s.force} vs ${sClean.force} before the blow-up`);
  const info = legendInfo(data, f, s, 0.002, 'all');
  assert.ok(info.force && info.force.value < 1e4, `reference arrow ${JSON.stringify(info.force)}`);
});

test('noise floor: 2e-14 N on a kilogram-scale scene is below it; absurd and non-finite values never set a scale', () => {
  const floor = noiseFloor([1, 1], 1);
  assert.ok(floor.force > 2e-14 && floor.force < 1e-6, `floor ${floor.force}`);
  assert.equal(robustMax([2e-14, -3, NaN, Infinity], floor.force), 0);
  assert.equal(robustMax([1, 5, 1e60], 0, 1e6), 5);
});
