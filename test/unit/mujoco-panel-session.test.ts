// The inspector's MuJoCo switch: the host's session (logic/mujocoPanelSession.ts) driven against the
// MuJoCo worker's own handler in this thread. Step, Run, Play and Reset take MuJoCo's steps where the
// last request left off, the records equal a one-shot run's, a step's snapshot is MuJoCo's system of
// that step, Play stops at the blow-up with CL701 on the joint's line, and a Reset drops what was in flight.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Codes, type Diagnostic } from '../../src/engine';
import { handleMujoco } from '../../src/extension/mujocoWorker';
import { MujocoPanelSession, type MujocoPanelHooks } from '../../src/extension/logic/mujocoPanelSession';
import { isMujocoWorkerRequest, type MujocoRequestBody } from '../../src/extension/logic/mujocoWorkerProtocol';
import { isPanelModel, isWebviewMessage } from '../../src/protocol';
import { csrToDense } from '../../src/shared/csr';
import { FIXTURES } from './import-helpers';

let ids = 0;

function session(file: string, opts: { keyframe?: string; maxSteps?: number } = {}) {
  const path = join(FIXTURES, 'mujoco', file);
  const text = readFileSync(path, 'utf8');
  const log = { models: 0, settled: 0, running: [] as boolean[], diagnostics: [] as (readonly Diagnostic[])[], errors: [] as string[], requests: [] as string[] };
  const hooks: MujocoPanelHooks = {
    request: (m: MujocoRequestBody) => {
      const r = { ...m, id: ++ids };
      assert.ok(isMujocoWorkerRequest(r), JSON.stringify(m));
      log.requests.push(m.kind ?? 'run');
      return handleMujoco(r);
    },
    source: () => ({ path, fileName: file, text, ...(opts.keyframe ? { keyframe: opts.keyframe } : {}), plannedSteps: 10, conditionWarning: 1e8, maxSteps: opts.maxSteps ?? 100_000 }),
    playRate: () => 1e6,
    modelChanged: () => void log.models++,
    stepped: (settled) => void (settled && log.settled++),
    running: (r) => void log.running.push(r),
    diagnostics: (ds) => void log.diagnostics.push(ds),
    error: (m) => void log.errors.push(m),
  };
  return { s: new MujocoPanelSession(`test:${file}:${ids}`, hooks), log, text };
}

const until = async (cond: () => boolean, what: string): Promise<void> => {
  for (let i = 0; i < 2000 && !cond(); i++) await new Promise((r) => setTimeout(r, 5));
  assert.ok(cond(), `timed out waiting for ${what}`);
};

test('the header switch and the worker requests are validated', () => {
  assert.ok(isWebviewMessage({ type: 'solver', solver: 'mujoco' }));
  assert.ok(isWebviewMessage({ type: 'solver', solver: 'engine' }));
  assert.ok(!isWebviewMessage({ type: 'solver', solver: 'bullet' }));
  assert.ok(isMujocoWorkerRequest({ id: 1, kind: 'step', key: 'k', steps: 3, budgetMs: 40, maxSteps: 10 }));
  assert.ok(!isMujocoWorkerRequest({ id: 1, kind: 'step', key: 'k', steps: -1, budgetMs: 40, maxSteps: 10 }));
  assert.ok(!isMujocoWorkerRequest({ id: 1, kind: 'step', key: 'k', steps: 1, budgetMs: 0, maxSteps: 10 }));
  assert.ok(isMujocoWorkerRequest({ id: 1, kind: 'snapshot', key: 'k', step: 0 }));
  assert.ok(!isMujocoWorkerRequest({ id: 1, kind: 'snapshot', key: 'k', step: 1.5 }));
  assert.ok(!isMujocoWorkerRequest({ id: 1, kind: 'open', key: 'k', path: 'a', fileName: 'a', text: '' }));
  assert.ok(!isMujocoWorkerRequest({ id: 1, kind: 'nope', key: 'k' }));
});

test('Step and Run take MuJoCo’s next steps where the last left off; records and snapshots equal a one-shot run’s', async () => {
  const { s, log } = session('servo-damping.xml');
  try {
    assert.ok(await s.open());
    const m0 = s.model();
    assert.ok(m0 && isPanelModel(m0));
    assert.equal(m0.solver, 'mujoco');
    assert.equal(m0.steps, 0);
    assert.equal(m0.snapshot.step, 0);
    assert.equal(log.models, 1);
    assert.equal(await s.step(1), 1);
    assert.equal(await s.step(9), 9);
    assert.equal(s.total, 10);
    assert.deepEqual(s.records.map((r) => r.step), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    assert.ok(log.settled >= 2);
    assert.deepEqual(log.running.slice(0, 2), [true, false]);
    // the same 10 steps in one go (the Run with MuJoCo command's worker request)
    const path = join(FIXTURES, 'mujoco', 'servo-damping.xml');
    const once = await handleMujoco({ id: ++ids, kind: 'run', path, fileName: 'servo-damping.xml', text: readFileSync(path, 'utf8'), steps: 10 });
    assert.ok(once.ok && once.kind === 'run' && once.model);
    const ref = once.model;
    assert.deepEqual(s.model()?.historyColumns, ref.historyColumns);
    for (let k = 0; k < 10; k++) {
      assert.equal(s.records[k].t, ref.history[k].t);
      assert.deepEqual(s.records[k].lambda, ref.history[k].lambda);
      assert.deepEqual(s.records[k].C, ref.history[k].C);
      assert.equal(s.records[k].energy.total, ref.history[k].energy.total);
    }
    // every record names MuJoCo's own solver (the model's default, Newton), as the engine's name theirs
    assert.deepEqual([...new Set(s.records.map((r) => r.method))], ['newton']);
    assert.equal(ref.history[0].method, 'newton');
    // the solver's iterations per step and their largest, answered in two batches, are the one-shot run's
    const info = s.model()?.mujocoRun, refInfo = ref.mujocoRun;
    assert.ok(info && refInfo);
    assert.deepEqual(info.iterations, refInfo.iterations);
    assert.equal(info.iterations.length, 10);
    assert.equal(info.maxIterations, refInfo.maxIterations);
    assert.ok(info.maxIterations >= Math.max(...refInfo.iterations));
    // κ is analysed on a sample of the steps while stepping (step 1 at least; the ones with a rank), each
    // equal to the report's κ of that step's own system; MuJoCo's steps are the same with or without the
    // analysis (above); the steps between hold the latest sample's κ as an estimate
    const sampled = s.records.filter((r) => r.rank !== undefined);
    assert.ok(sampled.some((r) => r.step === 1));
    for (const r of sampled) assert.equal(r.cond.A, ref.history[r.step - 1].cond.A, `κ of step ${r.step}`);
    for (const r of sampled) assert.equal(r.rank, ref.history[r.step - 1].rank);
    // step 10's system as the panel asks for it, against the report's embedded snapshot of step 10
    const snap = await s.snapshot(10);
    const refSnap = ref.snapshots?.find((x) => x.step === 10);
    assert.ok(snap && refSnap);
    assert.deepEqual(snap.rows.map((r) => r.label ?? r), refSnap.rows.map((r) => r.label ?? r));
    assert.deepEqual([...csrToDense(snap.J)], [...csrToDense(refSnap.J)]);
    assert.equal(snap.cond.A, refSnap.cond.A);
    assert.equal(snap.rank.J, refSnap.rank.J);
    assert.deepEqual(log.errors, []);
  } finally {
    s.dispose();
  }
});

test('Play runs to the blow-up and stops there, with CL701 on the culprit joint’s line naming the step; Reset starts over', async () => {
  const { s, log, text } = session('gear-blowup.xml', { keyframe: 'start' });
  try {
    assert.ok(await s.open());
    assert.ok(s.playPause());
    assert.ok(s.running);
    await until(() => !s.running, 'Play to stop');
    assert.ok(s.stopped);
    const n = s.total;
    assert.ok(n > 1 && n < 100_000, `stopped at ${n}`);
    const ds = log.diagnostics[log.diagnostics.length - 1];
    const blow = ds.find((d) => d.code === Codes.mujocoBlowUp);
    assert.ok(blow, ds.map((d) => d.code).join(','));
    assert.equal(blow.range.start.line, text.split('\n').findIndex((l) => l.includes('<joint name="j1"')));
    assert.match(blow.message, /step \d+/);
    assert.equal(s.model()?.mujocoRun?.nonFiniteAt, n);
    // a stopped run takes no more steps
    assert.equal(await s.step(1), 0);
    assert.ok(!s.playPause());
    const models = log.models;
    await s.reset();
    assert.equal(s.total, 0);
    assert.ok(!s.stopped);
    assert.equal(log.models, models + 1);
    assert.equal(await s.step(3), 3);
  } finally {
    s.dispose();
  }
});

test('Pause stops Play at once and asks for MuJoCo’s findings; a Reset drops the steps that were in flight', async () => {
  const { s, log } = session('servo-damping.xml');
  try {
    assert.ok(await s.open());
    const before = log.diagnostics.length;
    assert.ok(s.playPause());
    await until(() => s.total > 20, 'some steps');
    assert.ok(!s.playPause());
    assert.ok(!s.running);
    await until(() => log.diagnostics.length > before, 'the findings after Pause');
    const paused = s.total;
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(s.total, paused, 'no steps after Pause');
    // Run, then Reset before it is done: what the run's requests bring back after the Reset is dropped
    const run = s.step(5000);
    await s.reset();
    await run;
    assert.equal(s.total, 0);
    assert.deepEqual(log.errors, []);
  } finally {
    s.dispose();
  }
});

test('a record names the solver the model asks MuJoCo for: CG and PGS as such, Newton by default', async () => {
  const path = join(FIXTURES, 'mujoco', 'servo-damping.xml');
  const text = readFileSync(path, 'utf8');
  for (const [solver, method] of [['CG', 'cg'], ['PGS', 'pgs'], ['Newton', 'newton']] as const) {
    const res = await handleMujoco({ id: ++ids, kind: 'run', path, fileName: 'servo-damping.xml', text: text.replace('integrator="Euler"', `integrator="Euler" solver="${solver}"`), steps: 5 });
    assert.ok(res.ok && res.kind === 'run' && res.model, solver);
    assert.deepEqual([...new Set(res.model.history.map((r) => r.method))], [method], solver);
  }
});
