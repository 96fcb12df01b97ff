import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inverse, Matrix } from 'ml-matrix';
import { analyze, factor } from '../../src/engine/linalg/cholesky';
import { estimateInverseNorm1 } from '../../src/engine/linalg/condest';
import { chainSystem, randomSpd, rng, csrFromDense } from './linalg-fixtures';
import { csrToDense } from '../../src/engine/linalg/sparse';
import type { CsrMatrix } from '../../src/engine/linalg/contracts';
import { condest1 } from './linalg-reference';

function norm1(a: number[][]): number {
  let mx = 0;
  for (let j = 0; j < a.length; j++) {
    let s = 0;
    for (let i = 0; i < a.length; i++) s += Math.abs(a[i][j]);
    mx = Math.max(mx, s);
  }
  return mx;
}

function trueKappa1(A: CsrMatrix): number {
  const d = csrToDense(A);
  return norm1(d) * norm1(inverse(new Matrix(d)).to2DArray());
}

test('Hager–Higham κ₁ estimate is within a factor 3 of the true κ₁ (never above it)', () => {
  const rand = rng(1);
  const cases: CsrMatrix[] = [chainSystem(40, 2).A, chainSystem(60, 5).A];
  for (const n of [5, 20, 50]) cases.push(csrFromDense(randomSpd(n, rand, 0.01)));
  // Ill-conditioned: graded diagonal scaling of an SPD matrix.
  const g = randomSpd(30, rand, 0.05).map((r, i) => r.map((v, j) => v * 10 ** ((i + j) / 10)));
  cases.push(csrFromDense(g));
  for (const A of cases) {
    const F = factor(A, analyze(A));
    assert.ok(F.ok);
    const est = condest1(A, (v) => F.solve(v));
    const k = trueKappa1(A);
    assert.ok(est <= k * (1 + 1e-8), `estimate ${est} above true ${k}`);
    assert.ok(est >= k / 3, `estimate ${est} below true/3 ${k / 3}`);
  }
});

test('estimateInverseNorm1 on diagonal and empty systems', () => {
  const d = [1, 1e-3, 5];
  assert.ok(Math.abs(estimateInverseNorm1(3, (v) => v.map((x, i) => x / d[i])) - 1e3) < 1e-9);
  assert.equal(estimateInverseNorm1(0, (v) => v), 0);
});
