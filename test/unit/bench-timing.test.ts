// The benchmark's scheduling and bookkeeping (bench/timing.ts) and the cannon-es peer (pure
// JavaScript, so cheap to run here): what the printed figures rest on. No timing is asserted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { interleavedRounds, median, projectMs, roundsWithin, STANDARD_PLAN, timingOf, type RoundRunner } from '../../bench/timing';
import { chainParams } from '../../bench/chain';
import { loadCannonPeer } from '../../bench/cannon';
import { makeEngineChain } from '../../bench/engine-runner';

test('median of odd and even counts', () => {
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([4, 1, 3, 2]), 2.5);
});

test('projectMs: linear from one size, power law through the last two, exponent clamped to [1, 3]', () => {
  assert.equal(projectMs([], 100), undefined);
  assert.equal(projectMs([{ n: 10, ms: 2 }], 100), 20);
  // quadratic growth from 10 to 20 → ×4 per doubling
  assert.ok(Math.abs(projectMs([{ n: 10, ms: 1 }, { n: 20, ms: 4 }], 40)! - 16) < 1e-9);
  // faster than cubic is clamped to cubic; sub-linear to linear
  assert.ok(Math.abs(projectMs([{ n: 10, ms: 1 }, { n: 20, ms: 100 }], 40)! - 800) < 1e-9);
  assert.ok(Math.abs(projectMs([{ n: 10, ms: 1 }, { n: 20, ms: 1 }], 40)! - 2) < 1e-9);
});

test('roundsWithin: all rounds when unknown, as many as fit, none when one does not fit', () => {
  assert.equal(roundsWithin(undefined, STANDARD_PLAN, 3, 10), 3);
  // 60 steps × 10 ms = 0.6 s per round
  assert.equal(roundsWithin(10, STANDARD_PLAN, 100, 3), 5);
  assert.equal(roundsWithin(10, STANDARD_PLAN, 2, 3), 2);
  assert.equal(roundsWithin(100, STANDARD_PLAN, 3, 5), 0);
});

test('interleavedRounds: rounds alternate between runners, starting with a different one each round', () => {
  const order: string[] = [];
  const runner = (id: string, maxRounds = 10): RoundRunner => ({
    plan: { warmup: 1, steps: 2 },
    maxRounds,
    reset: () => order.push(id),
    step: () => undefined,
  });
  const out = interleavedRounds([runner('a'), runner('b'), runner('c', 2)], { minRounds: 3, maxRounds: 3, minTimedMs: 0 });
  assert.deepEqual(order, ['a', 'b', 'c', 'b', 'c', 'a', 'a', 'b']);
  assert.deepEqual(
    out.map((o) => ('rounds' in o ? o.rounds.length : -1)),
    [3, 3, 2],
  );
  for (const o of out) if ('rounds' in o) for (const r of o.rounds) assert.equal(r.wall.length, 2);
});

test('interleavedRounds: a runner that throws is reported, one that stops early gets no more rounds', () => {
  let calls = 0;
  const throwing: RoundRunner = { plan: { warmup: 0, steps: 3 }, maxRounds: 5, reset: () => undefined, step: () => { throw new Error('boom'); } };
  const stopping: RoundRunner = {
    plan: { warmup: 0, steps: 5 },
    maxRounds: 5,
    reset: () => undefined,
    step: () => void calls++,
    stopped: () => calls >= 2,
  };
  const [a, b] = interleavedRounds([throwing, stopping], { minRounds: 3, maxRounds: 5, minTimedMs: 0 });
  assert.ok('error' in a && a.error instanceof Error && a.error.message === 'boom');
  assert.ok('rounds' in b);
  assert.equal(b.rounds.length, 1);
  assert.equal(b.rounds[0].wall.length, 2);
});

test('timingOf: the lowest per-round median, extremes over all rounds', () => {
  const t = timingOf(
    [
      { wall: [5, 1, 3], cpu: [4, 1, 2] },
      { wall: [2, 2, 9], cpu: [2, 2, 2] },
    ],
    { warmup: 1, steps: 3 },
  );
  assert.equal(t.medianMs, 2);
  assert.equal(t.cpuMedianMs, 2);
  assert.deepEqual(t.roundMedians, [3, 2]);
  assert.equal(t.minMs, 1);
  assert.equal(t.maxMs, 9);
  assert.throws(() => timingOf([{ wall: [], cpu: [] }], STANDARD_PLAN));
});

test('the cannon-es chain and the engine chain fall alike: same tip height after 60 steps to a few cm, joints together', () => {
  const p = chainParams(10);
  const peer = loadCannonPeer();
  const c = peer.make(p);
  for (let k = 0; k < 60; k++) c.step();
  const made = makeEngineChain(p);
  assert.ok(made.ok);
  for (let k = 0; k < 60; k++) made.chain.step();
  const zc = c.tipZ(), ze = made.chain.tipZ();
  // free fall for 0.3 s is 0.44 m; the pinned chain's tip falls about that far
  assert.ok(zc < -0.3 && ze < -0.3, `tips fell: cannon ${zc}, engine ${ze}`);
  assert.ok(Math.abs(zc - ze) < 0.03, `tip heights agree: cannon ${zc}, engine ${ze}`);
  assert.ok(c.jointError() < 0.02, `cannon joints hold: ${c.jointError()}`);
  c.reset();
  assert.equal(c.tipZ(), 0, 'reset puts the chain back');
  c.dispose();
});

test('the engine in its own worker thread (engineIsolated.ts): a round runs there and its chain is the in-process one, step for step', async () => {
  const { makeIsolatedEngineChain, closeEngineWorker } = await import('../../bench/engineIsolated');
  const { join, resolve } = await import('node:path');
  const { mkdtempSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  // a CommonJS shim that loads the TypeScript worker through tsx (the bench runs dist/bench-engine-worker.js)
  const shim = join(mkdtempSync(join(tmpdir(), 'cl-bench-worker-')), 'worker.cjs');
  writeFileSync(shim, `require(${JSON.stringify(require.resolve('tsx/cjs'))});\nrequire(${JSON.stringify(resolve(__dirname, '../../bench/engineWorker.ts'))});\n`);
  const p = chainParams(10);
  const iso = makeIsolatedEngineChain(p, { file: shim });
  try {
    assert.ok(iso.ok);
    const here = makeEngineChain(p);
    assert.ok(here.ok);
    assert.equal(iso.chain.rows, here.chain.rows);
    // a whole round in the worker: reset, 10 warm-up steps, 50 timed ones
    const r = iso.round(STANDARD_PLAN);
    assert.equal(r.wall.length, STANDARD_PLAN.steps);
    assert.equal(r.cpu.length, STANDARD_PLAN.steps);
    assert.ok(r.wall.every((t) => t >= 0 && Number.isFinite(t)));
    here.chain.reset();
    for (let k = 0; k < STANDARD_PLAN.warmup + STANDARD_PLAN.steps; k++) here.chain.step();
    assert.deepEqual(iso.chain.positions(), here.chain.positions());
    assert.equal(iso.chain.jointError(), here.chain.jointError());
    assert.deepEqual(iso.chain.lastStepInfo(), here.chain.lastStepInfo());
    assert.equal(iso.chain.stopped(), undefined);
    // single calls go through too, and the cached answers follow them
    iso.chain.step();
    here.chain.step();
    assert.equal(iso.chain.tipZ(), here.chain.tipZ());
    // the scheduler uses the runner's own round
    const [out] = interleavedRounds([{ plan: { warmup: 1, steps: 3 }, maxRounds: 2, reset: iso.chain.reset, step: iso.chain.step, round: iso.round }], { minRounds: 2, maxRounds: 2, minTimedMs: 0 });
    assert.ok('rounds' in out && out.rounds.length === 2 && out.rounds.every((x) => x.wall.length === 3));
  } finally {
    closeEngineWorker();
  }
});
