// The per-step hot path (what a long run spends its time in): κ estimated per step from the step's own factor (exact at
// step 0, on demand and for tiny islands), allocation-light helpers whose results must not change.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseScene, Simulation } from '../../src/engine';
import { hypot2, quatNorm } from '../../src/engine/core/math';
import { analyze, factor, type Factor } from '../../src/engine/linalg/cholesky';
import { chainSystem, randomSpd, rng, csrFromDense } from './linalg-fixtures';
import { chainParams, chainSceneText } from '../../bench/chain';

function simOf(text: string, opts = {}): Simulation {
  const p = parseScene(text);
  assert.ok(p.scene && !p.hasErrors);
  return new Simulation(p.scene, p.sourceMap, opts);
}

test('per step κ: the Hager–Higham estimate above 12 rows, flagged, bracketing the exact κ₂; everything else identical', () => {
  const text = chainSceneText(chainParams(10)); // 30 rows, one island
  const est = simOf(text);
  const exact = simOf(text, { stepExactCondMaxRows: 1000 });
  const a = est.step(40);
  const b = exact.step(40);
  const n = 30;
  for (let k = 0; k < a.length; k++) {
    assert.equal(a[k].condEstimated, true, `step ${k + 1} flags its estimate`);
    assert.equal(b[k].condEstimated, false);
    const ke = a[k].cond.A!;
    const kx = b[k].cond.A!;
    // κ₁ and κ₂ of an SPD n×n matrix are within a factor n of each other; Hager's ‖A⁻¹‖₁ is a lower
    // bound that is usually exact, and on this chain the estimate stays within 3× of κ₂.
    assert.ok(ke >= kx / n && ke <= n * kx, `step ${k + 1}: ${ke} vs exact ${kx}`);
    assert.ok(ke / kx < 3 && kx / ke < 3, `step ${k + 1}: ${ke} vs exact ${kx}`);
    // the estimate changes κ only: λ, C, energy, rank, method and the poses are the same numbers
    const { cond: _c1, condEstimated: _e1, ...restA } = a[k];
    const { cond: _c2, condEstimated: _e2, ...restB } = b[k];
    assert.deepEqual(restA, restB);
  }
  // step 0 and the on-demand analysis of any step keep the exact spectrum
  for (const k of [0, 17, 40]) {
    const s = est.snapshotAt(k);
    assert.equal(s.condEstimated, false);
    assert.equal(s.singularValues?.length, n);
    const sv = s.singularValues!;
    assert.ok(Math.abs(s.cond.A! - sv[0] / sv[n - 1]) <= 1e-12 * s.cond.A!);
    // record k+1 solved the system assembled at the state after step k: the exact run has the same κ₂
    if (k < 40) assert.ok(Math.abs(s.cond.A! - b[k].cond.A!) <= 1e-12 * s.cond.A!, `${s.cond.A} vs ${b[k].cond.A}`);
  }
});

test('per step κ stays exact for islands of at most 12 rows (e.g. the examples’ pendulums)', () => {
  const text = fs.readFileSync(path.join(__dirname, '../../examples/double-pendulum.scene.json'), 'utf8');
  const recs = simOf(text).step(5);
  assert.ok(recs.length === 5 && recs.every((r) => !r.condEstimated && r.cond.A !== null));
});

test('hypot2 and quatNorm: √(sum of squares) to an ulp or two of Math.hypot, and safe at the extremes', () => {
  const r = rng(7);
  for (let i = 0; i < 2000; i++) {
    const e = Math.floor(r() * 40) - 20;
    const a = (r() - 0.5) * 10 ** e;
    const b = (r() - 0.5) * 10 ** (e + Math.floor(r() * 6) - 3);
    const h = Math.hypot(a, b);
    assert.ok(Math.abs(hypot2(a, b) - h) <= 4e-16 * h, `${a}, ${b}`);
    const q = [a, b, (r() - 0.5) * 10 ** e, (r() - 0.5) * 10 ** e];
    const hq = Math.hypot(...q);
    assert.ok(Math.abs(quatNorm(q) - hq) <= 6e-16 * hq, q.join(', '));
  }
  for (const [a, b] of [[1e200, 3e200], [3e-200, -4e-200], [1e-170, 0], [0, 0], [5e153, 5e153]]) assert.equal(hypot2(a, b), Math.hypot(a, b));
  assert.equal(hypot2(NaN, 1), Math.hypot(NaN, 1));
  assert.equal(hypot2(Infinity, NaN), Infinity);
  assert.equal(quatNorm([1e300, 0, 0, 1e300]), Math.hypot(1e300, 0, 0, 1e300));
  assert.equal(quatNorm([0, 0, 0, 0]), 0);
  assert.equal(quatNorm([0, 0, 0, 1]), 1);
});

test('factor reuses its scratch per symbolic analysis: repeated, interleaved and after a failed factorisation, the same factor as a fresh analysis', () => {
  const same = (F: Factor, G: Factor) => {
    assert.deepEqual(Array.from(F.Lx), Array.from(G.Lx));
    assert.deepEqual(Array.from(F.D), Array.from(G.D));
  };
  const { A } = chainSystem(40);
  const sym = analyze(A);
  const first = factor(A, sym);
  assert.ok(first.ok);
  // an indefinite matrix of the same pattern stops half-way and leaves the scratch dirty
  const bad = { ...A, values: A.values.map((v, p) => (p % 7 === 0 ? -v : v)) };
  assert.equal(factor(bad, sym).ok, false);
  const again = factor(A, sym);
  assert.ok(again.ok);
  same(again as Factor, factor(A, analyze(A)) as Factor);
  same(again as Factor, first as Factor);
  // a rejecting factorisation in between (its own rejection mask), then strict again
  const rej = factor(A, sym, { onSmallPivot: 'reject' });
  assert.equal(rej.dependent.length, 0);
  same(factor(A, sym) as Factor, first as Factor);
  // a dense random SPD matrix
  const M = csrFromDense(randomSpd(12, rng(3)));
  const s2 = analyze(M);
  const f1 = factor(M, s2);
  factor({ ...M, values: M.values.map((v) => -v) }, s2);
  same(factor(M, s2) as Factor, f1 as Factor);
});
