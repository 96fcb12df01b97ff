import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EigenvalueDecomposition, Matrix, pseudoInverse, solve } from 'ml-matrix';
import { denseLstsqMinNorm, denseSolveLU, halfBandwidth, symmetricBandEigenvalues, symmetricEigenvaluesAuto, symmetricEigenvaluesFlatInPlace } from '../../src/engine/linalg/dense';
import { denseJDJt, randomDense, randomSpd, rng, csrFromDense } from './linalg-fixtures';
import { denseSolveCholesky, matrixRank, symmetricEigenvalues, singularValues } from './linalg-reference';

const relErr = (x: ArrayLike<number>, y: ArrayLike<number>) => {
  let d = 0;
  let s = 0;
  for (let i = 0; i < x.length; i++) {
    d += (x[i] - y[i]) ** 2;
    s += y[i] ** 2;
  }
  return Math.sqrt(d) / Math.max(Math.sqrt(s), 1e-300);
};

test('symmetric eigenvalues match ml-matrix (descending), dense and CSR input', () => {
  const rand = rng(1);
  for (const n of [1, 2, 3, 8, 40]) {
    const B = randomDense(n, n, rand);
    const A = B.map((r, i) => r.map((v, j) => v + B[j][i]));
    const ref = new EigenvalueDecomposition(new Matrix(A), { assumeSymmetric: true }).realEigenvalues.sort((a, b) => b - a);
    const ev = symmetricEigenvalues(A);
    const ev2 = symmetricEigenvalues(csrFromDense(A));
    for (let i = 0; i < n; i++) {
      assert.ok(Math.abs(ev[i] - ref[i]) < 1e-12 * Math.max(1, Math.abs(ref[0])), `n=${n} i=${i}`);
      assert.ok(Math.abs(ev2[i] - ref[i]) < 1e-12 * Math.max(1, Math.abs(ref[0])));
      if (i > 0) assert.ok(ev[i] <= ev[i - 1]);
    }
  }
  // Diagonal and already-tridiagonal inputs.
  assert.deepEqual(Array.from(symmetricEigenvalues([[1, 0, 0], [0, 3, 0], [0, 0, 2]])), [3, 2, 1]);
  assert.equal(symmetricEigenvalues([]).length, 0);
});

test('PSD eigenvalues equal the singular values', () => {
  const rand = rng(2);
  const J = randomDense(6, 10, rand);
  const A = denseJDJt(J, new Array<number>(10).fill(1));
  const ev = symmetricEigenvalues(A);
  const sv = singularValues(A);
  for (let i = 0; i < 6; i++) assert.ok(Math.abs(ev[i] - sv[i]) < 1e-12 * sv[0]);
});

test('Cholesky / LU solves match ml-matrix; failures return null', () => {
  const rand = rng(3);
  for (const n of [1, 5, 30]) {
    const A = randomSpd(n, rand);
    const b = Array.from({ length: n }, () => rand() - 0.5);
    const ref = solve(new Matrix(A), Matrix.columnVector(b)).getColumn(0);
    const ch = denseSolveCholesky(A, b);
    const lu = denseSolveLU(A, b);
    assert.ok(ch.ok && lu.ok);
    assert.ok(relErr(ch.x, ref) < 1e-10);
    assert.ok(relErr(lu.x, ref) < 1e-10);
  }
  const indefinite = denseSolveCholesky([[1, 2], [2, 1]], [1, 1]);
  assert.equal(indefinite.ok, false);
  assert.equal(indefinite.reason, 'indefinite');
  assert.ok(denseSolveLU([[1, 2], [2, 1]], [1, 1]).ok);
  const singular = denseSolveLU([[1, 2], [2, 4]], [1, 1]);
  assert.equal(singular.ok, false);
  assert.equal(singular.reason, 'singular');
});

test('minimum-norm least squares equals pseudoInverse·b (rectangular and singular)', () => {
  const rand = rng(4);
  const J = randomDense(4, 7, rand);
  J.push(J[0].map((v, k) => v + 2 * J[1][k])); // dependent row
  const b = [1, 2, 3, 4, 5];
  const ref = pseudoInverse(new Matrix(J)).mmul(Matrix.columnVector(b)).getColumn(0);
  const x = denseLstsqMinNorm(J, b);
  assert.ok(x.ok);
  assert.ok(relErr(x.x, ref) < 1e-10);
  const A = denseJDJt(J, new Array<number>(7).fill(2));
  const refA = pseudoInverse(new Matrix(A)).mmul(Matrix.columnVector(b)).getColumn(0);
  const xA = denseLstsqMinNorm(A, b);
  assert.ok(xA.ok);
  assert.ok(relErr(xA.x, refA) < 1e-10);
});

test('matrixRank follows numpy (tall, wide, dependent rows, zero)', () => {
  const rand = rng(5);
  const J = randomDense(5, 9, rand);
  assert.equal(matrixRank(J), 5);
  const Jt = J[0].map((_, j) => J.map((r) => r[j]));
  assert.equal(matrixRank(Jt), 5);
  J.push(J[2].slice());
  J.push(J[0].map((v, k) => v - J[3][k]));
  assert.equal(matrixRank(J), 5);
  assert.equal(matrixRank(csrFromDense(J)), 5);
  assert.equal(matrixRank([[0, 0], [0, 0]]), 0);
  assert.equal(matrixRank([[1, 0], [0, 1e-20]]), 1);
  assert.equal(matrixRank([[1, 0], [0, 1e-20]], 1e-30), 2);
});

test('band reduction (Givens, bulge chasing) matches Householder on banded and dense matrices', () => {
  const rand = rng(9);
  for (const [n, kd] of [[1, 0], [5, 1], [30, 2], [60, 5], [25, 24]] as const) {
    const a = new Float64Array(n * n);
    for (let i = 0; i < n; i++)
      for (let j = Math.max(0, i - kd); j <= i; j++) {
        const v = i === j ? 4 + rand() : rand() - 0.5;
        a[i * n + j] = v;
        a[j * n + i] = v;
      }
    assert.equal(halfBandwidth(a, n), kd);
    const ref = symmetricEigenvaluesFlatInPlace(a.slice(), n).sort();
    const band = symmetricBandEigenvalues(a, n, kd).sort();
    const auto = symmetricEigenvaluesAuto(a.slice(), n).sort();
    for (let i = 0; i < n; i++) {
      assert.ok(Math.abs(band[i] - ref[i]) < 1e-12 * Math.abs(ref[n - 1]), `n=${n} kd=${kd}`);
      assert.ok(Math.abs(auto[i] - ref[i]) < 1e-12 * Math.abs(ref[n - 1]));
    }
  }
});

test('denseLstsqMinNorm: a NaN or infinite entry is a non-finite failure (never handed to the uncapped SVD); huge magnitudes scale out exactly', () => {
  for (const bad of [NaN, Infinity, -Infinity]) {
    const r = denseLstsqMinNorm([[1, bad], [2, 3]], [1, 1]);
    assert.equal(r.ok, false);
    assert.equal(!r.ok && r.reason, 'non-finite');
    const rb = denseLstsqMinNorm([[1, 0], [0, 1]], [bad, 1]);
    assert.equal(!rb.ok && rb.reason, 'non-finite');
  }
  // A singular 2×2 at 2⁵³ + 2, 1e-300 and 1e200: the minimum-norm solution of [[s, s], [s, s]]·x = [2s, 2s] is x = [1, 1].
  for (const s of [2 ** 53 + 2, 1e-300, 1e200]) {
    const r = denseLstsqMinNorm([[s, s], [s, s]], [2 * s, 2 * s]);
    assert.ok(r.ok);
    assert.ok(r.ok && Math.abs(r.x[0] - 1) < 1e-12 && Math.abs(r.x[1] - 1) < 1e-12, String(r.ok && r.x));
  }
});
