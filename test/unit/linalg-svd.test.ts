// The capped SVD (src/engine/linalg/svd.ts) against ml-matrix's, and the caps of the SVD and of the
// QL eigenvalue iteration: inputs that made ml-matrix's loop run forever end, and a cap reached is a
// 'not-converged' failure, never a wrong answer given as right.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Matrix, pseudoInverse, SingularValueDecomposition } from 'ml-matrix';
import { jacobiSvd, svdLstsq } from '../../src/engine/linalg/svd';
import { denseLstsqMinNorm, symmetricEigenvaluesFlatInPlace, tridiagonalQL } from '../../src/engine/linalg/dense';
import { randomDense, rng } from './linalg-fixtures';

const sortedDesc = (a: ArrayLike<number>) => Array.from(a).sort((x, y) => y - x);

test('jacobiSvd: singular values and A = U·Σ·Vᵀ match ml-matrix (tall, wide, square, rank-deficient)', () => {
  const rand = rng(11);
  for (const [m, n] of [[1, 1], [3, 3], [7, 4], [4, 7], [12, 12], [30, 9]] as const) {
    const A = randomDense(m, n, rand);
    if (m > 2) A[m - 1] = A[0].map((v, k) => 2 * v - A[1][k]); // a dependent row
    const d = jacobiSvd(A, m, n);
    assert.ok(d.ok, `${m}×${n}`);
    if (!d.ok) continue;
    const ref = new SingularValueDecomposition(new Matrix(A), { autoTranspose: true }).diagonal;
    const got = sortedDesc(d.s);
    const want = sortedDesc(ref);
    assert.equal(got.length, Math.min(m, n));
    for (let k = 0; k < got.length; k++) assert.ok(Math.abs(got[k] - want[k]) <= 1e-12 * want[0], `${m}×${n} σ${k}: ${got[k]} vs ${want[k]}`);
    for (let i = 0; i < m; i++)
      for (let j = 0; j < n; j++) {
        let a = 0;
        for (let k = 0; k < d.s.length; k++) a += d.u[k][i] * d.s[k] * d.v[k][j];
        assert.ok(Math.abs(a - A[i][j]) <= 1e-12 * want[0], `${m}×${n} A[${i}][${j}]`);
      }
  }
});

test('svdLstsq equals pseudoInverse·b on full-rank and rank-deficient systems', () => {
  const rand = rng(12);
  for (const [m, n] of [[5, 3], [3, 5], [6, 6]] as const) {
    const A = randomDense(m, n, rand);
    if (m === n) A[5] = A[0].map((v, k) => v + A[1][k]);
    const b = Array.from({ length: m }, () => rand() - 0.5);
    const ref = pseudoInverse(new Matrix(A)).mmul(Matrix.columnVector(b)).getColumn(0);
    const x = svdLstsq(A, m, n, b);
    assert.ok(x.ok);
    if (!x.ok) continue;
    const scale = Math.max(...ref.map(Math.abs));
    for (let k = 0; k < n; k++) assert.ok(Math.abs(x.x[k] - ref[k]) <= 1e-10 * scale, `${m}×${n} x${k}`);
  }
});

test('the SVD sweep cap: reached → not-converged with the cap named; non-finite → non-finite', () => {
  const A = randomDense(6, 6, rng(13));
  const capped = jacobiSvd(A, 6, 6, { maxSweeps: 1 });
  assert.equal(capped.ok, false);
  assert.equal(!capped.ok && capped.reason, 'not-converged');
  assert.match(!capped.ok ? capped.message : '', /1 Jacobi sweeps \(the iteration cap\)/);
  const ls = denseLstsqMinNorm(A, [1, 2, 3, 4, 5, 6], { maxSweeps: 1 });
  assert.equal(!ls.ok && ls.reason, 'not-converged');
  assert.equal((jacobiSvd([[1, NaN]], 1, 2) as { reason?: string }).reason, 'non-finite');
  // an orthogonal input needs one sweep that rotates nothing
  const I = jacobiSvd([[1, 0], [0, 1]], 2, 2, { maxSweeps: 1 });
  assert.ok(I.ok && I.sweeps === 1);
});

test('inputs with subnormal and near-overflow entries end (ml-matrix looped forever on scaled ones) with finite answers', () => {
  // entries spanning 1e308 … 1e-310: a box-incline Newton matrix a fuzz mutant produced had this spread
  const A = [
    [1e308, 3e307, 0, 1e-310],
    [3e307, 2e307, 5e-320, 0],
    [0, 5e-320, 4e-310, 1e-315],
    [1e-310, 0, 1e-315, 2e-309],
  ];
  const d = jacobiSvd(A, 4, 4);
  assert.ok(d.ok);
  assert.ok(d.ok && d.s.every(Number.isFinite));
  const x = denseLstsqMinNorm(A, [1, 1, 1, 1]);
  assert.ok(x.ok || x.reason === 'not-converged');
  assert.ok(!x.ok || x.x.every(Number.isFinite));
  // b itself subnormal: round-off of the size of b, but an answer
  const tiny = svdLstsq([[5e-324, 5e-324], [5e-324, 5e-324]], 2, 2, [1e-323, 1e-323]);
  assert.ok(tiny.ok && tiny.x.every(Number.isFinite));
  for (const s of [1e-300, 2 ** 53 + 2, 1e300]) {
    const r = svdLstsq([[s, s], [s, s]], 2, 2, [2 * s, 2 * s]);
    assert.ok(r.ok && Math.abs(r.x[0] - 1) < 1e-12 && Math.abs(r.x[1] - 1) < 1e-12, `s = ${s}: ${r.ok && r.x}`);
  }
});

test('the QL iteration cap: reached → false (the caller falls back), enough → true and the eigenvalues', () => {
  const n = 8;
  const d = Float64Array.from({ length: n }, (_, i) => i + 1);
  const e = Float64Array.from({ length: n }, (_, i) => (i + 1 < n ? 0.5 : 0));
  assert.equal(tridiagonalQL(d.slice(), e.slice(), 1), false);
  const dd = d.slice();
  assert.equal(tridiagonalQL(dd, e.slice()), true);
  const a = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    a[i * n + i] = d[i];
    if (i + 1 < n) a[(i + 1) * n + i] = a[i * n + i + 1] = e[i];
  }
  const ref = sortedDesc(symmetricEigenvaluesFlatInPlace(a, n));
  const got = sortedDesc(dd);
  for (let k = 0; k < n; k++) assert.ok(Math.abs(got[k] - ref[k]) < 1e-12 * ref[0]);
});
