// Time budgets (src/engine/guards/budget.ts, CL406) with an injected clock: every reading advances
// it by a fixed amount, so what is over budget is decided by the number of clock readings, never by
// how fast this machine is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Codes, inspectScene, simulateScene, stepWithinBudget } from '../../src/engine';
import { parseBudget, DEFAULT_BUDGET } from '../../src/cli/args';

const PENDULUM = readFileSync(join(__dirname, '../../examples/pendulum-ground.scene.json'), 'utf8');

/** A clock that advances `tick` ms at every reading. */
const ticking = (tick: number) => {
  let t = 0;
  return () => (t += tick);
};

test('inspect over its budget: CL406 warning naming the slowest phase, the total and the budget; within it, nothing', () => {
  const over = inspectScene(PENDULUM, { budget: { inspectMs: 100, now: ticking(60) } });
  const d = over.diagnostics.filter((x) => x.code === Codes.timeBudget);
  assert.equal(d.length, 1);
  assert.equal(d[0].severity, 'warning');
  assert.match(d[0].message, /^Inspect took \d+ ms, more than its time budget of 100 ms: the slowest phase was /);
  assert.ok((d[0].data?.ms as number) > 100);
  assert.equal(d[0].data?.budget, 100);
  const phases = (d[0].data?.phases as { phase: string }[]).map((p) => p.phase);
  assert.ok(phases.includes('parsing') && phases.includes('detecting and solving the contacts'), phases.join(', '));
  assert.equal(over.hasErrors, false, 'a budget is a warning: the results are complete');
  assert.ok(over.snapshot);
  const within = inspectScene(PENDULUM, { budget: { inspectMs: 1e9, now: ticking(60) } });
  assert.equal(within.diagnostics.filter((x) => x.code === Codes.timeBudget).length, 0);
  assert.equal(inspectScene(PENDULUM).diagnostics.filter((x) => x.code === Codes.timeBudget).length, 0, 'no budget, no check');
});

test('a step over its budget ends the run after it, with CL406 naming the step, its time and the budget', () => {
  const out = simulateScene(PENDULUM, 50, undefined, { budget: { stepMs: 5, now: ticking(10) } });
  assert.equal(out.result?.steps.length, 1);
  const d = out.inspect.diagnostics.filter((x) => x.code === Codes.timeBudget);
  assert.equal(d.length, 1);
  assert.deepEqual([d[0].data?.phase, d[0].data?.step, d[0].data?.ms, d[0].data?.budget], ['step', 1, 10, 5]);
  assert.match(d[0].message, /^Step 1 \(t = 0\.005 s\) took 10 ms, more than the time budget of 5 ms per step: the run stops after it \(step 1 is kept\)/);
});

test('a run over its budget stops after the step that crossed it; steps within budget run to the end', () => {
  const out = simulateScene(PENDULUM, 50, undefined, { budget: { stepMs: 100, runMs: 95, now: ticking(10) } });
  // each step costs two readings 10 ms apart: 10 ms per step, over 95 ms at step 10
  assert.equal(out.result?.steps.length, 10);
  const d = out.inspect.diagnostics.find((x) => x.code === Codes.timeBudget)!;
  assert.deepEqual([d.data?.phase, d.data?.step, d.data?.ms, d.data?.budget], ['run', 10, 100, 95]);
  const full = simulateScene(PENDULUM, 50, undefined, { budget: { stepMs: 100, runMs: 1e6, now: ticking(10) } });
  assert.equal(full.result?.steps.length, 50);
  assert.equal(full.inspect.diagnostics.filter((x) => x.code === Codes.timeBudget).length, 0);
});

test('stepWithinBudget without a budget or clock takes the steps as one call', () => {
  const calls: number[] = [];
  const run = { currentStep: 0, stopped: false, step: (n = 1) => calls.push(n) };
  assert.equal(stepWithinBudget(run, 7, undefined, ''), undefined);
  assert.deepEqual(calls, [7]);
});

test('the CLI budget: defaults, name=MS pairs, 0 turns one off, anything else is a usage error', () => {
  assert.deepEqual(DEFAULT_BUDGET, { inspectMs: 10_000, stepMs: 5_000, runMs: 0 });
  assert.deepEqual(parseBudget('step=250,run=0'), { inspectMs: 10_000, stepMs: 250, runMs: 0 });
  assert.deepEqual(parseBudget('inspect=1.5'), { inspectMs: 1.5, stepMs: 5_000, runMs: 0 });
  for (const bad of ['foo=1', 'step', 'step=-1', 'step=1e3', '']) assert.throws(() => parseBudget(bad), /--budget/);
});
