// The κ estimate of the steps between a MuJoCo run's exact samples (src/import/mujocoCondition.ts):
// on matrices with known eigenvalues it is λmax/λmin, ∞ on a singular one, and never above κ₂; on
// MuJoCo's own systems (welds, soft equalities, contacts, Euler with damping, implicitfast) it equals
// the exact analysis of the same step's system (every eigenvalue of A) to 1e-6, ∞ where that is ∞.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyseSystem } from '../../src/engine';
import { loadModel, nodeFileAccess } from '../../src/import';
import { loadMujoco } from '../../src/import/mujoco';
import { cond2Estimate, formDenseA } from '../../src/import/mujocoCondition';
import { MujocoRun } from '../../src/import/mujocoRun';
import { FIXTURES } from './import-helpers';

/** Q·diag(ev)·Qᵀ with Q a product of Givens rotations (a dense orthogonal matrix, no library). */
function withEigenvalues(ev: number[], seed: number): Float64Array {
  const n = ev.length;
  const Q = new Float64Array(n * n);
  for (let i = 0; i < n; i++) Q[i * n + i] = 1;
  let r = seed;
  const rand = () => ((r = (r * 1103515245 + 12345) % 2147483648) / 2147483648);
  for (let p = 0; p < 3 * n; p++) {
    const i = Math.floor(rand() * n), j = (i + 1 + Math.floor(rand() * (n - 1))) % n;
    const a = rand() * 2 * Math.PI, c = Math.cos(a), s = Math.sin(a);
    for (let k = 0; k < n; k++) {
      const x = Q[k * n + i], y = Q[k * n + j];
      Q[k * n + i] = c * x - s * y;
      Q[k * n + j] = s * x + c * y;
    }
  }
  const A = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) for (let k = 0; k < n; k++) A[i * n + j] += Q[i * n + k] * ev[k] * Q[j * n + k];
  return A;
}

test('cond2Estimate: λmax/λmin of matrices with known spectra (clusters included), ∞ when singular', () => {
  const big = Array.from({ length: 40 }, (_, i) => 1 + i * 0.25);
  big[7] = 0.01;
  big[20] = 55;
  big[21] = 55.0001;
  for (const [ev, seed] of [[[1, 2, 3, 4, 5], 1], [[1e-3, 1, 1, 1, 7, 7.5, 8, 100], 2], [[2, 2, 2], 3], [[554.1408, 554.1234, 477.46, 1.91, 1.75, 1.6456], 4], [big, 5]] as const) {
    const A = withEigenvalues([...ev], seed);
    const want = Math.max(...ev) / Math.min(...ev);
    const got = cond2Estimate(A, ev.length);
    assert.ok(Math.abs(got - want) <= 1e-6 * want, `${ev.length} rows: ${got} vs ${want}`);
  }
  assert.equal(cond2Estimate(withEigenvalues([0, 1, 2, 3], 5), 4), Infinity);
  assert.equal(cond2Estimate(withEigenvalues([1e-17, 1, 2, 3], 6), 4), Infinity, 'below n·ε·λmax, as the exact rule');
  const zeroRow = new Float64Array([2, 0, 0, 0, 0, 0, 0, 0, 3]);
  assert.equal(cond2Estimate(zeroRow, 3), Infinity);
});

test('formDenseA: J·M⁻¹·Jᵀ', () => {
  // M = [[4, 1], [1, 3]], M⁻¹ = [[3, −1], [−1, 4]]/11; J = [[1, 2], [0, 1], [3, −1]]
  const A = formDenseA(new Float64Array([1, 2, 0, 1, 3, -1]), 3, new Float64Array([4, 1, 1, 3]), 2);
  assert.ok(A);
  const J = [[1, 2], [0, 1], [3, -1]], Mi = [[3 / 11, -1 / 11], [-1 / 11, 4 / 11]];
  for (let i = 0; i < 3; i++)
    for (let j = 0; j < 3; j++) {
      let s = 0;
      for (let a = 0; a < 2; a++) for (let b = 0; b < 2; b++) s += J[i][a] * Mi[a][b] * J[j][b];
      assert.ok(Math.abs(A[i * 3 + j] - s) < 1e-14, `A[${i}][${j}]`);
    }
  assert.equal(formDenseA(new Float64Array([1, 0]), 1, new Float64Array([1, 0, 0, 0]), 2), undefined, 'M not positive definite');
});

test('the estimate on MuJoCo’s systems equals the exact analysis of the same step', async () => {
  const rt = await loadMujoco();
  let finite = 0, infinite = 0;
  for (const file of ['weld-offset.xml', 'solref-clamp.xml', 'ball-rest.xml', 'servo-damping.xml', 'servo-implicit.xml', 'box-stack.xml']) {
    const path = join(FIXTURES, 'mujoco', file);
    const parse = await loadModel(path, readFileSync(path, 'utf8'), { files: nodeFileAccess(join(FIXTURES, 'mujoco')) });
    assert.ok(parse.model, file);
    const run = MujocoRun.open(rt, parse.model);
    assert.ok(!('error' in run), file);
    try {
      for (let k = 1; k <= 60 && !run.stopped; k++) {
        run.step(1);
        const est = run.estimateLastCond();
        const an = analyseSystem(run.lastSystem(), { wantSpectrum: false });
        if (!an.ok || an.rank.rows === 0) {
          assert.equal(est, undefined, `${file} step ${k}: no estimate where the analysis has no rows (${an.ok ? 'no rows' : an.message})`);
          continue;
        }
        assert.ok(est !== undefined, `${file} step ${k}`);
        if (!Number.isFinite(an.cond.A)) {
          assert.equal(est, Infinity, `${file} step ${k}: singular`);
          infinite++;
        } else {
          assert.ok(Math.abs(est - an.cond.A) <= 1e-6 * an.cond.A, `${file} step ${k}: ${est} vs ${an.cond.A}`);
          finite++;
        }
      }
    } finally {
      run.dispose();
    }
  }
  assert.ok(finite > 50 && infinite > 0, `${finite} finite, ${infinite} singular compared`);
});
