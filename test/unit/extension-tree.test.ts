// Unit tests of the scene tree following a run (no vscode): a constraint's state, description and
// tooltip at the current step (a StepRecord over the step-0 snapshot), the header, and the
// throttle of refreshes (fake clock).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Throttle } from '../../src/extension/logic/throttle';
import { fakeTimers } from './fake-timers';
import { constraintAt, constraintAtStep0, constraintDescription, constraintDescriptionAt, constraintTooltip, constraintTooltipAt, stepHeader, type StepFacts, type TreeThresholds } from '../../src/extension/logic/tree';
import { Simulation, inspectScene } from '../../src/engine';
import type { ConstraintReport, IslandReport, RowInfo } from '../../src/engine';

// ---- fixtures --------------------------------------------------------------------------------------
const creport = (over: Partial<ConstraintReport>): ConstraintReport => ({
  name: 'rod',
  type: 'distance',
  fileIndex: 0,
  bodyA: 'A',
  bodyB: 'B',
  firstRow: 0,
  rows: 1,
  violation: 0,
  velocityViolation: 0,
  lambda: [4.2],
  forceA: [0, 0, 0],
  torqueA: [0, 0, 0],
  forceB: [0, 0, 0],
  torqueB: [0, 0, 0],
  status: 'ok',
  anchorAWorld: [0, 0, 0],
  anchorBWorld: [0, 0, 0],
  ...over,
});
const island = (cond: number | null, constraints = ['rod', 'hinge', 'rod2'], rows = 7): IslandReport => ({ bodies: ['A', 'B'], constraints, rows, cond, condEstimated: false, rank: 6, method: 'cholesky' });
const rows: RowInfo[] = [
  { constraint: 'rod', modelIndex: 0, row: 0, label: 'rod.d' },
  ...['x', 'y', 'z', '⊥1', '⊥2'].map((l, i) => ({ constraint: 'hinge', modelIndex: 1, row: i, label: `hinge.${l}` })),
  { constraint: 'rod2', modelIndex: 2, row: 0, label: 'rod2.d' },
];
// step 0: rod ok, hinge (5 rows from row 1) ok, rod2 redundant (row 6)
const rod = creport({ violation: 1e-12, lambda: [4.2] });
const hinge = creport({ name: 'hinge', type: 'hinge', fileIndex: 1, firstRow: 1, rows: 5, lambda: [1, 0, 0, 0, 0], violation: 0 });
const rod2 = creport({ name: 'rod2', fileIndex: 2, firstRow: 6, status: 'redundant', lambda: [0] });
const snap = (cond: number | null) => ({ islands: [island(cond)], rows });
const th: TreeThresholds = { violationTolerance: 1e-6, conditionWarning: 1e6 };
const record = (step: number, C: number[], condA: number | null = 10, lambda = [5, 3, 4, 0, 0, 0, 0.5]): StepFacts => ({ step, t: step * 0.01, C, lambda, cond: { A: condA }, condEstimated: false });

// ---- classification at the current step ---------------------------------------------------------------
test('no record: the step-0 view', () => {
  assert.deepEqual(constraintAt(rod, 0, snap(10), undefined, th), constraintAtStep0(rod, snap(10), 1e6));
  assert.equal(constraintAt(rod, 0, snap(10), undefined, th).step, 0);
  assert.equal(constraintAt(rod2, 2, snap(10), undefined, th).state, 'redundant');
  // a record of another shape (fewer constraints) is ignored rather than misread
  assert.equal(constraintAt(rod2, 2, snap(10), record(5, [0, 0]), th).step, 0);
});

test('ok → violated when ‖C‖ grows past solver.violationTolerance; back to ok when it shrinks', () => {
  const small = constraintAt(rod, 0, snap(10), record(10, [5e-7, 0, 0]), th);
  assert.equal(small.state, 'ok');
  assert.equal(small.step, 10);
  assert.equal(small.violation, 5e-7);
  const big = constraintAt(rod, 0, snap(10), record(120, [2e-3, 0, 0]), th);
  assert.equal(big.state, 'violated');
  assert.equal(big.violation, 2e-3);
  assert.deepEqual(big.lambda, [5]);
  // a constraint violated at step 0 that the run brought back within tolerance is ok again
  assert.equal(constraintAt(creport({ status: 'violated', violation: 1 }), 0, snap(10), record(3, [1e-9, 0, 0]), th).state, 'ok');
  // NaN is not within tolerance
  assert.equal(constraintAt(rod, 0, snap(10), record(3, [NaN, 0, 0]), th).state, 'violated');
  // the tolerance is the one given (the scene's violationTolerance), not a fixed value
  assert.equal(constraintAt(rod, 0, snap(10), record(3, [2e-3, 0, 0]), { ...th, violationTolerance: 1e-2 }).state, 'ok');
});

test('redundant and conflicting stay as at step 0, whatever ‖C‖ does', () => {
  assert.equal(constraintAt(rod2, 2, snap(10), record(50, [0, 0, 1]), th).state, 'redundant');
  assert.equal(constraintAt(rod2, 2, snap(10), record(50, [0, 0, 0]), th).state, 'redundant');
  const conflicting = creport({ name: 'rod2', firstRow: 6, status: 'conflicting' });
  assert.equal(constraintAt(conflicting, 2, snap(10), record(50, [0, 0, 0]), th).state, 'conflicting');
});

test('λ per row comes from the record (the constraint’s rows); not recorded → undefined', () => {
  const at = constraintAt(hinge, 1, snap(10), record(7, [0, 1e-9, 0]), th);
  assert.deepEqual(at.lambda, [3, 4, 0, 0, 0]);
  assert.equal(constraintDescriptionAt(hinge, at), 'hinge · λ‖5‖ · |C| 1e-9');
  const none = constraintAt(hinge, 1, snap(10), record(7, [0, 1e-9, 0], 10, []), th);
  assert.equal(none.lambda, undefined);
  assert.equal(constraintDescriptionAt(hinge, none), 'hinge · λ – · |C| 1e-9');
});

test('ill-conditioned: the step-0 island, while the step’s κ stays at or above the threshold', () => {
  // island ill at step 0, κ still high (or ∞) at the step
  assert.equal(constraintAt(rod, 0, snap(1e7), record(5, [0, 0, 0], 2e7), th).state, 'ill-conditioned');
  assert.equal(constraintAt(rod, 0, snap(null), record(5, [0, 0, 0], null), th).state, 'ill-conditioned');
  // the whole system is now well conditioned: no island can be ill
  assert.equal(constraintAt(rod, 0, snap(1e7), record(5, [0, 0, 0], 1e3), th).state, 'ok');
  // a well-conditioned island stays ok even when κ(A) grows (records keep no per-island κ)
  assert.equal(constraintAt(rod, 0, snap(10), record(5, [0, 0, 0], 1e9), th).state, 'ok');
  // violated wins over ill-conditioned
  assert.equal(constraintAt(rod, 0, snap(1e7), record(5, [1, 0, 0], 2e7), th).state, 'violated');
});

// ---- text ---------------------------------------------------------------------------------------------
test('descriptions: state first unless ok; step 0 keeps the old text', () => {
  assert.equal(constraintDescription(rod), 'distance · λ 4.2 · |C| 1e-12');
  assert.equal(constraintDescriptionAt(rod, constraintAtStep0(rod, snap(10), 1e6)), 'distance · λ 4.2 · |C| 1e-12');
  assert.equal(constraintDescriptionAt(rod, constraintAt(rod, 0, snap(10), record(120, [2e-3, 0, 0]), th)), 'violated · distance · λ 5 · |C| 0.002');
  assert.equal(constraintDescriptionAt(rod2, constraintAt(rod2, 2, snap(10), record(120, [0, 0, 0.25]), th)), 'redundant · distance · λ 0.5 · |C| 0.25');
});

test('tooltips: the step’s λ and ‖C‖ with the tolerance; step 0 unchanged', () => {
  const at = constraintAt(rod, 0, snap(1e7), record(120, [2e-3, 0, 0], 2e7), th);
  const t = constraintTooltipAt(rod, at, snap(1e7), th.violationTolerance);
  assert.match(t, /· violated · step 120 \(t = 1\.2 s\)/);
  assert.match(t, /λ: rod\.d = 5/);
  assert.match(t, /\|C\| = 0\.002 \(tolerance 1e-6\)/);
  assert.doesNotMatch(t, /Ċ/); // records keep no ‖Ċ‖
  assert.match(t, /island κ at step 0 = 1e7/);
  assert.match(t, /κ\(A\) at step 120 = 2e7/);
  const singular = constraintTooltipAt(rod, constraintAt(rod, 0, snap(null), record(3, [0, 0, 0], null), th), snap(null));
  assert.match(singular, /κ\(A\) at step 3 = ∞/);
  const noLambda = constraintTooltipAt(hinge, constraintAt(hinge, 1, snap(10), record(7, [0, 0, 0], 10, []), th), snap(10));
  assert.match(noLambda, /λ: not recorded/);
  // step 0: as before (|Ċ| and the island's κ, no step)
  const t0 = constraintTooltip(creport({ violation: 2e-9 }), 'ok', { islands: [island(12, ['rod'], 1)], rows });
  assert.equal(t0, constraintTooltipAt(creport({ violation: 2e-9 }), { step: 0, state: 'ok', violation: 2e-9, velocityViolation: 0, lambda: [4.2] }, { islands: [island(12, ['rod'], 1)], rows }));
  assert.match(t0, /\|C\| = 2e-9 · \|Ċ\| = 0/);
  assert.match(t0, /island κ = 12 · rank 6\/1/);
  assert.doesNotMatch(t0, /step/);
});

test('header: step and κ (∞ when singular, ≈ when estimated as everywhere, – without rows)', () => {
  assert.equal(stepHeader({ step: 120, cond: 1234.5, condEstimated: false }), 'step 120 · κ 1230');
  assert.equal(stepHeader({ step: 120, cond: 1.2e4, condEstimated: false }), 'step 120 · κ 1.2e4');
  assert.equal(stepHeader({ step: 3, cond: null, condEstimated: false }), 'step 3 · κ ∞');
  assert.equal(stepHeader({ step: 3, cond: null, condEstimated: true }), 'step 3 · κ ∞');
  assert.equal(stepHeader({ step: 3, cond: 5e8, condEstimated: true }), 'step 3 · κ ≈5e8');
  assert.equal(stepHeader({ step: 0, cond: 12, condEstimated: false, rows: 0 }), 'step 0 · κ –');
});

// ---- with the engine: a drifting pendulum, redundant rods -------------------------------------------
const SCENE = JSON.stringify({
  name: 'drift',
  solver: { dt: 0.02, steps: 100, stabilization: 'none' },
  bodies: [
    { name: 'anchor', mass: 1, inertia: [0.1, 0.1, 0.1], position: [0, 0, 2], fixed: true },
    { name: 'bob', mass: 2, inertia: [0.02, 0.02, 0.02], position: [1, 0, 2], velocity: [0, 0, -3] },
  ],
  constraints: [
    { name: 'rod1', type: 'distance', bodyA: 'anchor', bodyB: 'bob' },
    { name: 'rod2', type: 'distance', bodyA: 'anchor', bodyB: 'bob' },
  ],
});

test('engine: an unstabilised run drifts (ok → violated), the redundant rod stays redundant, reset is step 0', () => {
  const r = inspectScene(SCENE);
  const snapshot = r.snapshot!;
  const scene = r.parse.scene!;
  assert.ok(snapshot && scene);
  const t: TreeThresholds = { violationTolerance: scene.solver.violationTolerance, conditionWarning: 1e6 };
  const at = (rec: StepFacts | undefined) => snapshot.constraints.map((c, i) => constraintAt(c, i, snapshot, rec, t).state);
  assert.deepEqual(
    snapshot.constraints.map((c) => c.status),
    ['ok', 'redundant'],
  );
  const step0 = at(undefined);
  assert.equal(step0[1], 'redundant');
  assert.notEqual(step0[0], 'violated');
  const sim = new Simulation(scene, r.parse.sourceMap);
  sim.step(50);
  const last = sim.records[sim.currentStep - 1];
  assert.ok(last.C[0] > scene.solver.violationTolerance, `‖C‖ = ${last.C[0]}`);
  const after = at(last);
  assert.deepEqual(after, ['violated', 'redundant']);
  const view = constraintAt(snapshot.constraints[0], 0, snapshot, last, t);
  assert.equal(view.step, 50);
  assert.equal(view.lambda?.length, 1);
  sim.reset();
  assert.equal(sim.currentStep, 0);
  assert.deepEqual(at(sim.records[sim.currentStep - 1]), step0);
});

// ---- throttle -----------------------------------------------------------------------------------------

test('throttle: a burst runs once after the delay', () => {
  const clock = fakeTimers();
  const runs: number[] = [];
  const th2 = new Throttle(() => runs.push(clock.now()), { intervalMs: 250, delayMs: 50 }, clock);
  th2.trigger();
  th2.trigger();
  clock.advance(20);
  th2.trigger();
  assert.deepEqual(runs, []);
  assert.equal(th2.isPending, true);
  clock.advance(30);
  assert.deepEqual(runs, [50]);
  assert.equal(th2.isPending, false);
});

test('throttle: triggers every 16 ms for 2 s (Play) run at most 4 times a second, and the last one is not lost', () => {
  const clock = fakeTimers();
  const runs: number[] = [];
  const th2 = new Throttle(() => runs.push(clock.now()), { intervalMs: 250, delayMs: 50 }, clock);
  for (let t = 0; t < 2000; t += 16) {
    th2.trigger();
    clock.advance(16);
  }
  clock.advance(1000);
  assert.ok(runs.length >= 7 && runs.length <= 9, `${runs.length} runs`);
  for (let i = 1; i < runs.length; i++) assert.ok(runs[i] - runs[i - 1] >= 250, `runs ${runs[i - 1]} and ${runs[i]}`);
  for (let s = 0; s < 2000; s += 1000) assert.ok(runs.filter((t) => t >= s && t < s + 1000).length <= 4);
  // the last trigger (at ~1984 ms) is covered by a run after it
  assert.ok(runs[runs.length - 1] >= 1984);
});

test('throttle: after a quiet spell, the next run comes after the short delay; cancel and dispose drop it', () => {
  const clock = fakeTimers();
  let n = 0;
  const th2 = new Throttle(() => n++, { intervalMs: 250, delayMs: 50 }, clock);
  th2.trigger();
  clock.advance(50);
  assert.equal(n, 1);
  th2.trigger(); // right after a run (at 50 ms): waits until 250 ms after it
  clock.advance(249);
  assert.equal(n, 1);
  clock.advance(1);
  assert.equal(n, 2);
  clock.advance(5000);
  th2.trigger();
  clock.advance(50);
  assert.equal(n, 3);
  th2.trigger();
  th2.cancel();
  clock.advance(1000);
  assert.equal(n, 3);
  th2.trigger();
  th2.dispose();
  clock.advance(1000);
  assert.equal(n, 3);
});
