// The report of a MuJoCo run (`report --solver mujoco`): its history is the run's elements by name with
// MuJoCo's own ‖λ‖ and violation per step, κ and rank of MuJoCo's system of each step (the seam's
// analysis, the same as the system read again from a checkpoint), the blow-up's diagnostics, and a
// model the panel accepts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyseSystem, Codes } from '../../src/engine';
import { loadModel, nodeFileAccess } from '../../src/import/index';
import { solveWithMujoco } from '../../src/import/mujocoSolver';
import { mujocoReportModel } from '../../src/mujocoPanelModel';
import { decodeFromJson, encodeForJson, isPanelModel, type PanelModel } from '../../src/protocol';
import { csrToDense } from '../../src/shared/csr';
import { FIXTURES } from './import-helpers';

async function reportOf(name: string, steps: number, keyframe?: string) {
  const path = join(FIXTURES, name);
  const parse = await loadModel(path, readFileSync(path, 'utf8'), { files: nodeFileAccess(FIXTURES) });
  const out = await solveWithMujoco(parse, steps, keyframe ? { keyframe } : {});
  assert.ok(out.run && out.snapshot, out.diagnostics.map((d) => d.message).join('\n'));
  const model = mujocoReportModel(out.run, { sceneName: name, fileName: name, snapshot: out.snapshot, diagnostics: out.diagnostics, plannedSteps: steps, conditionWarning: 1e6, generator: 'test' });
  return { ...out, run: out.run, model };
}

test('MuJoCo report: the four-bar’s history is MuJoCo’s records by element, κ and rank of each step’s own system', async () => {
  const { run, model } = await reportOf('four-bar.xml', 40);
  try {
    assert.equal(model.history.length, 40);
    assert.deepEqual(model.history.map((r) => r.step), Array.from({ length: 40 }, (_, i) => i + 1));
    assert.deepEqual(model.historyColumns, { constraints: ['close'], rows: ['close'] });
    for (const k of [1, 17, 33, 40]) {
      const rec = run.records[k], h = model.history[k - 1];
      assert.equal(h.t, rec.t);
      assert.equal(h.C[0], rec.elementViolation[0]);
      assert.equal(h.lambda[0], rec.elementLambda[0]);
      assert.equal(h.energy.total, rec.energy.total);
      // the one-pass analysis equals the system read again from its checkpoint
      const an = analyseSystem(run.systemAt(k), { wantSpectrum: false });
      assert.ok(an.ok);
      assert.equal(h.rank, an.rank.J);
      assert.equal(h.cond.A, Number.isFinite(an.cond.A) ? an.cond.A : null);
    }
    // the four-bar's closing connect is one redundant row in the plane: A is singular at every step
    assert.ok(model.history.every((h) => h.cond.A === null && h.rank === 2));
    assert.equal(model.mujocoRun?.integrator, run.integrator);
    assert.equal(model.mujocoRun?.iterations.length, 40);
    assert.equal(model.dt, run.timestep);
    // every step is small: all are embedded with their matrices, the last one is shown
    assert.deepEqual(model.snapshots?.map((s) => s.step), Array.from({ length: 41 }, (_, i) => i));
    assert.equal(model.snapshot.step, 40);
    const again = run.snapshotAt(40).snapshot;
    assert.deepEqual(csrToDense(model.snapshot.J), csrToDense(again.J));
    assert.deepEqual(Array.from(model.snapshot.lambda), Array.from(again.lambda));
    const back = decodeFromJson(encodeForJson(model));
    assert.ok(isPanelModel(back));
  } finally {
    run.dispose();
  }
});

test('MuJoCo report: the gear blow-up ends at its non-finite step with CL701 at the onset, named in the model', async () => {
  const { run, model } = await reportOf('mujoco/gear-blowup.xml', 400, 'start');
  try {
    const last = run.currentStep;
    assert.ok(last < 400, `the run stops at the blow-up (ran ${last})`);
    assert.equal(model.history.length, last);
    assert.equal(model.mujocoRun?.nonFiniteAt, last);
    const blow = model.diagnostics.find((d) => d.code === Codes.mujocoBlowUp);
    assert.ok(blow, model.diagnostics.map((d) => d.code).join(', '));
    const onset = (blow.data as { step: number }).step;
    assert.ok(onset >= 1 && onset <= last);
    assert.match(blow.message, new RegExp(`step ${onset}\\b`));
    // energy is MuJoCo's, and it grew: the record at the end is far above the start
    assert.ok(!(Math.abs(model.history[last - 1].energy.total) <= 100 * Math.abs(model.history[0].energy.total) + 1e-9));
    const back = decodeFromJson(encodeForJson(model)) as PanelModel;
    assert.ok(isPanelModel(back));
    assert.equal(back.history.length, last);
  } finally {
    run.dispose();
  }
});

test('the extension’s MuJoCo worker: a request for the gear chain answers CL701 on the joint’s line and the run’s panel model', async () => {
  const { handleMujoco } = await import('../../src/extension/mujocoWorker');
  const path = join(FIXTURES, 'mujoco/gear-blowup.xml');
  const text = readFileSync(path, 'utf8');
  const res = await handleMujoco({ id: 7, path, fileName: 'gear-blowup.xml', text, steps: 300 });
  assert.ok(res.ok, res.ok ? '' : res.error);
  assert.ok(res.kind === 'run');
  assert.equal(res.id, 7);
  assert.ok(res.steps > 0 && res.steps < 300);
  const blow = res.diagnostics.find((d) => d.code === Codes.mujocoBlowUp);
  assert.ok(blow);
  assert.equal(blow.range.start.line, text.split('\n').findIndex((l) => l.includes('<joint name="j1"')));
  assert.ok(res.model && isPanelModel(res.model));
  assert.equal(res.model.history.length, res.steps);
});
