// One κ for one step: the panel's header and spectrum card (webview selectors), the status bar and
// CodeLens (logic/shown + format) and the tree's header print the same κ with the same `≈` at every
// step of a run, including after the chain's blow-up; the history chart's log ticks tell neighbours apart.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inspectScene, type SimulationApi } from '../../src/engine';
import type { Log } from '../../src/extension/analyzer';
import { statusText } from '../../src/extension/logic/format';
import { SceneStore, type SceneState } from '../../src/extension/logic/sceneStore';
import { shownCondFacts } from '../../src/extension/logic/shown';
import { stepHeader } from '../../src/extension/logic/tree';
import { buildPanelModel } from '../../src/panelModel';
import { formatCond, kappaOf, RUN_EXACT_COND_MAX_ROWS } from '../../src/shared';
import { initialState, reduce, type PanelState } from '../../webview/store';
import { shownCondition } from '../../webview/selectors';
import { condAt } from '../../webview/history';
import { distinctDigits } from '../../webview/chartScale';
import { formatNumber } from '../../src/shared';

interface Uri {
  path: string;
  toString(): string;
}
const log: Log = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };

function hostScene(name: string, steps: number): { s: SceneState<Uri>; sim: SimulationApi; store: SceneStore<Uri> } {
  const text = readFileSync(join(__dirname, '..', '..', 'examples', `${name}.scene.json`), 'utf8');
  const store = new SceneStore<Uri>(() => {}, log);
  const s = store.stateFor({ path: `/w/${name}.scene.json`, toString: () => `file:///w/${name}.scene.json` });
  store.storeResult(s, 1, inspectScene(text), text);
  const r = store.ready(s);
  assert.ok(r);
  r.sim.step(steps);
  store.stepped(s, true);
  return { s, sim: r.sim, store };
}

/** The panel at step k, as the host feeds it: the model with the run's records, then the snapshot of k. */
function panelAt(s: SceneState<Uri>, sim: SimulationApi, k: number): PanelState {
  const model = buildPanelModel('chain.scene.json', s.result!, sim, sim.currentStep)!;
  let p = reduce(initialState({ report: false }), { type: 'host', message: { type: 'model', model } });
  p = reduce(p, { type: 'goToStep', step: k });
  p = reduce(p, { type: 'snapshotRequested', step: k });
  return reduce(p, { type: 'host', message: { type: 'snapshot', snapshot: sim.snapshotAt(k) } });
}

describe('one κ for one step', () => {
  let chain: { s: SceneState<Uri>; sim: SimulationApi; store: SceneStore<Uri> };
  before(() => {
    chain = hostScene('chain', 1000);
  });

  test('the extension keeps κ exact per step for islands up to RUN_EXACT_COND_MAX_ROWS rows (the chain: 30 rows, no ≈)', () => {
    assert.ok(RUN_EXACT_COND_MAX_ROWS >= 30);
    assert.ok(chain.sim.records.every((r) => !r.condEstimated), 'no record of the chain is an estimate');
  });

  for (const k of [0, 1, 100, 500, 840, 900, 1000]) {
    test(`step ${k}: header, spectrum, status bar, CodeLens, tree and chart print the same κ`, () => {
      const { s, sim, store } = chain;
      store.showStep(s, k);
      const facts = shownCondFacts(s)!;
      assert.equal(facts.step, k);
      const bar = statusText(facts);
      const p = panelAt(s, sim, k);
      assert.equal(p.snapshot?.step, k, 'the snapshot of the step is there: the header could have used its exact κ');
      const head = shownCondition(p)!;
      const headText = formatCond(head.cond, { estimated: head.estimated, rows: p.snapshot!.rank.rows });
      assert.ok(bar.startsWith(`κ ${headText} · `), `status bar "${bar}" vs header "${headText}"`);
      assert.ok(stepHeader({ step: facts.step, cond: facts.cond, condEstimated: facts.condEstimated, rows: facts.rows }).endsWith(`κ ${headText}`));
      if (k > 0) {
        assert.equal(head.source, 'record');
        assert.equal(formatCond(condAt(p.history, k - 1)), headText, 'the history chart plots the same value at x = k');
      }
    });
  }

  test('the rule itself: the record of the step first, a snapshot only of that very step, nothing for another step', () => {
    const rec = { step: 5, cond: { A: 45.2 }, condEstimated: true };
    const snap = { step: 5, cond: { A: 25.9 }, condEstimated: false };
    assert.deepEqual(kappaOf(5, { record: rec, snapshot: snap }), { step: 5, cond: 45.2, estimated: true, source: 'record' });
    assert.deepEqual(kappaOf(5, { snapshot: snap }), { step: 5, cond: 25.9, estimated: false, source: 'snapshot' });
    assert.equal(kappaOf(6, { record: rec, snapshot: snap }), undefined);
    assert.deepEqual(kappaOf(0, { record: rec, snapshot: { ...snap, step: 0 } }), { step: 0, cond: 25.9, estimated: false, source: 'snapshot' });
  });
});

describe('log axis ticks', () => {
  test('a κ axis inside one decade reads distinct labels', () => {
    const ticks = [7000, 8000, 9000, 10000, 11000, 12000, 13000, 14000, 15000];
    const d = distinctDigits(ticks);
    const labels = ticks.map((t) => formatNumber(t, d));
    assert.equal(new Set(labels).size, labels.length, labels.join(', '));
    const close = [14500, 14600, 14700, 14800, 14900, 15000];
    const d2 = distinctDigits(close);
    assert.equal(new Set(close.map((t) => formatNumber(t, d2))).size, close.length);
    assert.equal(distinctDigits([1, 10, 100]), 2, 'powers of ten keep 2 digits');
  });
});
