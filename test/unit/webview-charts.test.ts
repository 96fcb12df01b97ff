// The history charts' axes and markers without chart.js: automatic log / symmetric log when a
// series spans decades (λ and energy after the chain's blow-up), values under the noise floor read
// as zero, the symlog round-trips, the onset read from CL404 and the window around it.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Codes, inspectScene, Simulation } from '../../src/engine';
import { buildPanelModel } from '../../src/panelModel';
import { axisMode, decadeRange, decadesSpanned, denoise, linearThreshold, onsetWindow, symlog, symlogInverse } from '../../webview/chartScale';
import { DIVERGENCE_CODE, divergenceOnset, forceNoiseFloor } from '../../webview/selectors';
import { initialState, reduce, type PanelState } from '../../webview/store';
import { condReadout, energyPartAt, lambdaAt } from '../../webview/history';
import { formatCond } from '../../src/shared';
import type { StepRecord } from '../../src/protocol';
import { stepCondFacts } from '../../src/extension/logic/shown';

let blown: PanelState;
let records: readonly StepRecord[] = [];
before(() => {
  const text = readFileSync(join(__dirname, '..', '..', 'examples', 'chain.scene.json'), 'utf8');
  const ins = inspectScene(text);
  const sim = new Simulation(ins.parse.scene!, ins.parse.sourceMap);
  sim.step(1240);
  records = sim.records;
  const model = buildPanelModel('chain.scene.json', ins, sim, sim.currentStep)!;
  model.diagnostics = [...model.diagnostics, ...sim.diagnostics];
  blown = reduce(initialState({ report: false }), { type: 'host', message: { type: 'model', model } });
});

test('the panel reads the divergence onset from CL404 (the engine’s code, spelled once in the panel)', () => {
  assert.equal(DIVERGENCE_CODE, Codes.divergence);
  const onset = divergenceOnset(blown);
  assert.ok(onset !== undefined && onset > 700 && onset < 1000, `onset ${onset}`);
  const w = onsetWindow(onset, blown.history.length);
  assert.ok(w.from < onset && w.to === blown.history.length, JSON.stringify(w));
  assert.deepEqual(onsetWindow(5, 6), { from: 0, to: 6 });
});

test('after the blow-up λ and energy span tens of decades: the automatic axis is a symmetric log; before it, linear', () => {
  const h = blown.history;
  const floor = forceNoiseFloor(blown);
  const lambda = Array.from({ length: h.length }, (_, k) => lambdaAt(h, k, 0));
  const energy = Array.from({ length: h.length }, (_, k) => energyPartAt(h, k, 2));
  assert.ok(decadesSpanned(lambda, floor) > 20);
  assert.equal(axisMode('auto', 'signed', lambda, floor), 'symlog');
  assert.equal(axisMode('auto', 'signed', energy, 0), 'symlog');
  assert.equal(axisMode('linear', 'signed', lambda, floor), 'linear', 'the toggle overrides');
  const calm = lambda.slice(0, 600);
  assert.equal(axisMode('auto', 'signed', calm, floor), 'linear');
  assert.equal(axisMode('auto', 'positive', [1, 1e5], 0), 'log');
});

test('noise: λ of ±4e-14 N on the chain reads as zero and is no signal for the axis', () => {
  const floor = forceNoiseFloor(blown);
  assert.ok(floor > 4e-14 && floor < 1e-6, `floor ${floor}`);
  assert.equal(denoise(4e-14, floor), 0);
  assert.equal(denoise(-4e-14, floor), 0);
  assert.equal(denoise(2, floor), 2);
  assert.equal(decadesSpanned([4e-14, -4e-14, 1e-20], floor), 0);
  assert.equal(axisMode('auto', 'signed', [4e-14, -4e-14, 3e-17], floor), 'linear');
});

test('symlog: odd, monotone, linear below its threshold, inverted exactly enough for tooltips', () => {
  const c = linearThreshold([10, 100, 1e60], 1e-9);
  assert.equal(c, 10);
  for (const y of [-1e60, -250, -3, 0, 0.5, 7, 1e5, 6e60]) {
    assert.equal(symlog(-y, c), -symlog(y, c));
    assert.ok(Math.abs(symlogInverse(symlog(y, c), c) - y) <= 1e-9 * Math.max(1, Math.abs(y)));
  }
  assert.ok(symlog(1e60, c) < 62, 'sixty decades fit in a chart');
});

test("the κ chart's readout at a step is the status bar's κ of that step's record (one number, one ≈ rule), also after the blow-up", () => {
  const snap = blown.snapshot!;
  const last = blown.history.length;
  for (const k of [1, 100, 840, last]) {
    const rec = records[k - 1];
    assert.equal(rec.step, k);
    const f = stepCondFacts(snap, rec);
    assert.equal(condReadout(blown.history, k), `step ${k}: κ ${formatCond(f.cond, { estimated: f.condEstimated })}`);
  }
  assert.equal(condReadout(blown.history, 0), undefined, 'step 0 has no record: the chart has no point there');
  assert.equal(condReadout(blown.history, last + 1), undefined);
});

test('a log axis spans whole decades: a κ of 101 ± 0.1 % is drawn flat between 100 and 1000, not magnified into ticks that all read 101', () => {
  assert.deepEqual(decadeRange([100.9, 101, 101.1]), { min: 100, max: 1000 });
  assert.deepEqual(decadeRange([100]), { min: 100, max: 1000 }, 'a power of ten: one decade above it');
  assert.deepEqual(decadeRange([0.003, 0, -1, NaN, Infinity, 2e5]), { min: 1e-3, max: 1e6 }, 'only positive finite values count');
  assert.equal(decadeRange([0, NaN]), undefined);
});
