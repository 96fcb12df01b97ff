import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Matrix, pseudoInverse, solve as mlSolve, SingularValueDecomposition } from 'ml-matrix';
import { SymmetricSolver } from '../../src/engine/linalg/solve';
import { analyze, factor } from '../../src/engine/linalg/cholesky';
import { estimateInverseNorm1 } from '../../src/engine/linalg/condest';
import { chainSystem, denseJDJt, randomDense, randomSpd, rng, solveSymmetric, CsrBuilder, csrFromDense, csrMulDiagTranspose } from './linalg-fixtures';
import { csrMulVec, csrNorm1, csrToDense } from '../../src/engine/linalg/sparse';

const norm = (v: ArrayLike<number>) => Math.sqrt(Array.from(v).reduce((s, x) => s + x * x, 0));
const relErr = (x: ArrayLike<number>, y: ArrayLike<number>) => {
  let d = 0;
  for (let i = 0; i < x.length; i++) d += (x[i] - y[i]) ** 2;
  return Math.sqrt(d) / Math.max(norm(y), 1e-300);
};
const pinvSolve = (A: number[][], b: ArrayLike<number>) =>
  pseudoInverse(new Matrix(A)).mmul(Matrix.columnVector(Array.from(b))).getColumn(0);
const kappa2 = (A: number[][]) => new SingularValueDecomposition(new Matrix(A)).condition;

/** PSD-singular A = J·D·Jᵀ with duplicated and combined rows in J. */
function singularSystem(seed: number, m = 6, n = 14) {
  const rand = rng(seed);
  const J = randomDense(m, n, rand);
  J.push(J[1].slice()); // duplicate of row 1
  J.push(J[0].map((v, k) => v + 0.5 * J[2][k])); // combination
  const d = Array.from({ length: n }, () => 0.2 + rand());
  return { J, A: denseJDJt(J, d), rand };
}

test('random SPD: Cholesky solution, exact κ₂, rank, spectrum', () => {
  const rand = rng(1);
  for (const n of [1, 3, 12, 40]) {
    const A = randomSpd(n, rand, 0.05);
    const b = Array.from({ length: n }, () => rand() - 0.5);
    const r = solveSymmetric(csrFromDense(A), Float64Array.from(b), { method: 'auto', wantSpectrum: true });
    const ref = mlSolve(new Matrix(A), Matrix.columnVector(b)).getColumn(0);
    assert.equal(r.ok, true);
    assert.equal(r.method, 'cholesky');
    assert.ok(relErr(r.x, ref) < 1e-10);
    assert.equal(r.rank, n);
    assert.deepEqual(r.dependent, []);
    assert.equal(r.consistent, true);
    assert.equal(r.condEstimated, false);
    assert.ok(Math.abs(r.cond / kappa2(A) - 1) < 1e-8, `${r.cond} vs ${kappa2(A)}`);
    assert.ok(r.residualNorm < 1e-12 * (norm(b) + 1));
    assert.equal(r.singularValues!.length, n);
    const sv = new SingularValueDecomposition(new Matrix(A)).diagonal;
    for (let i = 0; i < n; i++) assert.ok(Math.abs(r.singularValues![i] - sv[i]) < 1e-10 * sv[0]);
    // Jacobi-scaled condition number.
    const s = A.map((row, i) => row.map((v, j) => v / Math.sqrt(A[i][i] * A[j][j])));
    assert.ok(Math.abs(r.condScaled / kappa2(s) - 1) < 1e-8);
  }
});

test('PSD-singular J·D·Jᵀ: min-norm least squares equals pseudoInverse·b; dependent rows; cond = ∞', () => {
  for (const seed of [2, 3, 4]) {
    const { J, A, rand } = singularSystem(seed);
    const y = Array.from({ length: A.length }, () => rand() - 0.5);
    const bIn = Float64Array.from(csrMulVec(csrFromDense(A), y)); // consistent
    const bOut = Float64Array.from({ length: A.length }, () => rand() - 0.5); // generic: conflicting
    for (const [b, consistent] of [[bIn, true], [bOut, false]] as const) {
      for (const exactCondMaxRows of [1000, 0]) {
        const r = solveSymmetric(csrFromDense(A), b, { method: 'auto', exactCondMaxRows });
        assert.equal(r.ok, true);
        assert.equal(r.method, 'lstsq');
        assert.ok(relErr(r.x, pinvSolve(A, b)) < 1e-10, `seed ${seed} exact≤${exactCondMaxRows}: ${relErr(r.x, pinvSolve(A, b))}`);
        assert.equal(r.rank, 6);
        assert.deepEqual(
          r.dependent.map((d) => d.row),
          [6, 7],
        );
        assert.equal(r.consistent, consistent);
        assert.equal(r.cond, Infinity);
        assert.equal(r.condEstimated, exactCondMaxRows === 0);
        // Coefficients reproduce the rows of J.
        for (const d of r.dependent) {
          for (let k = 0; k < J[0].length; k++) {
            const rec = d.dependsOn.reduce((s, { row, coefficient }) => s + coefficient * J[row][k], 0);
            assert.ok(Math.abs(rec - J[d.row][k]) < 1e-9);
          }
        }
      }
    }
  }
});

test('forced methods and fallbacks report the method used', () => {
  const rand = rng(5);
  const A = randomSpd(10, rand);
  const b = Float64Array.from({ length: 10 }, () => rand());
  const ref = mlSolve(new Matrix(A), Matrix.columnVector(Array.from(b))).getColumn(0);
  for (const exactCondMaxRows of [1000, 0]) {
    for (const method of ['cholesky', 'lu', 'lstsq'] as const) {
      const r = solveSymmetric(csrFromDense(A), b, { method, exactCondMaxRows });
      assert.equal(r.method, method);
      assert.ok(relErr(r.x, ref) < 1e-10);
    }
  }
  const { A: S } = singularSystem(6);
  const bs = Float64Array.from({ length: S.length }, (_, i) => i);
  for (const method of ['cholesky', 'lu'] as const) {
    for (const exactCondMaxRows of [1000, 0]) {
      const r = solveSymmetric(csrFromDense(S), bs, { method, exactCondMaxRows });
      assert.equal(r.method, 'lstsq');
      assert.ok(relErr(r.x, pinvSolve(S, bs)) < 1e-10);
    }
  }
  // Indefinite nonsingular: auto falls back to LU.
  const ind = [
    [1, 2, 0],
    [2, 1, 0],
    [0, 0, 3],
  ];
  const r = solveSymmetric(csrFromDense(ind), Float64Array.from([3, 3, 3]), { method: 'auto' });
  assert.equal(r.method, 'lu');
  assert.ok(relErr(r.x, [1, 1, 1]) < 1e-12);
  const r2 = solveSymmetric(csrFromDense(ind), Float64Array.from([3, 3, 3]), { method: 'auto', skipAnalysis: true });
  assert.equal(r2.method, 'lu');
  assert.ok(relErr(r2.x, [1, 1, 1]) < 1e-12);
});

test('compliance: solves A+Σ by Cholesky; rank and redundancy judged on A; cond of A+Σ', () => {
  const { A, rand } = singularSystem(7);
  const c = 1e-3;
  const b = Float64Array.from({ length: A.length }, () => rand() - 0.5);
  const Ac = A.map((row, i) => row.map((v, j) => v + (i === j ? c : 0)));
  const ref = mlSolve(new Matrix(Ac), Matrix.columnVector(Array.from(b))).getColumn(0);
  for (const exactCondMaxRows of [1000, 0]) {
    const r = solveSymmetric(csrFromDense(A), b, { method: 'auto', compliance: c, exactCondMaxRows });
    assert.equal(r.method, 'cholesky');
    assert.ok(relErr(r.x, ref) < 1e-10);
    assert.equal(r.rank, 6);
    assert.deepEqual(
      r.dependent.map((d) => d.row),
      [6, 7],
    );
    assert.equal(r.consistent, false);
    assert.ok(Number.isFinite(r.cond));
    if (exactCondMaxRows > 0) assert.ok(Math.abs(r.cond / kappa2(Ac) - 1) < 1e-6);
    assert.ok(r.residualNorm < 1e-10 * norm(b));
  }
});

test('never NaN: non-finite input, zero matrix, empty system', () => {
  const A = csrFromDense([
    [1, 0],
    [0, NaN],
  ]);
  const r = solveSymmetric(A, Float64Array.from([1, 1]), { method: 'auto' });
  assert.equal(r.ok, false);
  assert.equal(r.reason, 'non-finite');
  assert.deepEqual(Array.from(r.x), [0, 0]);
  const Z = csrFromDense([
    [0, 0],
    [0, 0],
  ]);
  for (const opts of [{ method: 'auto' as const }, { method: 'auto' as const, skipAnalysis: true }, { method: 'auto' as const, exactCondMaxRows: 0 }]) {
    const z = solveSymmetric(Z, Float64Array.from([1, 2]), opts);
    assert.ok(z.x.every((v) => v === 0));
    assert.equal(z.method, 'lstsq');
    if (!opts.skipAnalysis) {
      assert.equal(z.rank, 0);
      assert.equal(z.consistent, false);
      assert.equal(z.cond, Infinity);
    }
  }
  const e = solveSymmetric({ rows: 0, cols: 0, rowPtr: new Int32Array(1), colIdx: new Int32Array(0), values: new Float64Array(0) }, new Float64Array(0), { method: 'auto' });
  assert.equal(e.ok, true);
  assert.equal(e.x.length, 0);
  const bad = solveSymmetric(csrFromDense([[1]]), Float64Array.from([Infinity]), { method: 'auto' });
  assert.equal(bad.ok, false);
  assert.equal(bad.reason, 'non-finite');
  assert.equal(bad.x[0], 0);
});

test('block-tridiagonal chain: exact and sparse paths agree; κ estimates within 3×', () => {
  const { A } = chainSystem(40, 9);
  const n = A.rows;
  const b = Float64Array.from({ length: n }, (_, i) => Math.cos(0.3 * i));
  const exact = solveSymmetric(A, b, { method: 'auto' });
  const sparse = solveSymmetric(A, b, { method: 'auto', exactCondMaxRows: 0 });
  const Ad = csrToDense(A);
  const ref = mlSolve(new Matrix(Ad), Matrix.columnVector(Array.from(b))).getColumn(0);
  assert.ok(relErr(exact.x, ref) < 1e-10);
  assert.ok(relErr(sparse.x, ref) < 1e-10);
  assert.equal(sparse.condEstimated, true);
  assert.equal(sparse.rank, n);
  // κ₁ truth vs estimate; κ₂ exact matches ml-matrix.
  const F = factor(A, analyze(A));
  assert.ok(F.ok);
  const invNorm = estimateInverseNorm1(n, (v) => F.solve(v));
  const trueInv = pseudoInverse(new Matrix(Ad)).to2DArray();
  let t1 = 0;
  for (let j = 0; j < n; j++) t1 = Math.max(t1, trueInv.reduce((s, row) => s + Math.abs(row[j]), 0));
  const kappa1 = csrNorm1(A) * t1;
  assert.ok(sparse.cond <= kappa1 * (1 + 1e-8) && sparse.cond >= kappa1 / 3);
  assert.ok(invNorm >= t1 / 3);
  assert.ok(Math.abs(exact.cond / kappa2(Ad) - 1) < 1e-8);
  assert.ok(sparse.condScaled > 0 && Number.isFinite(sparse.condScaled));
});

test('9000×9000 chain (3000 bodies): correct, symbolic reused (its speed: npm run bench)', () => {
  const { A } = chainSystem(3000, 1);
  const n = A.rows;
  const y = Float64Array.from({ length: n }, (_, i) => Math.sin(i));
  const b = csrMulVec(A, y);
  const solver = new SymmetricSolver();
  let r = solver.solve(A, b, { method: 'auto' });
  const sym = solver.symbolicFor(A);
  for (let k = 0; k < 3; k++) r = solver.solve(A, b, { method: 'auto' });
  assert.equal(solver.symbolicFor(A), sym);
  assert.equal(r.method, 'cholesky');
  assert.ok(relErr(r.x, y) < 1e-8);
  assert.ok(r.cond > 1 && Number.isFinite(r.cond) && r.condEstimated);
  assert.equal(r.rank, n);
  const fast = solver.solve(A, b, { method: 'auto', skipAnalysis: true });
  assert.ok(relErr(fast.x, y) < 1e-8);
});

test('large singular chain (duplicated rows): min-norm solution, dependent rows, consistency', () => {
  const { J, minv } = chainSystem(1000, 3);
  const b = new CsrBuilder(J.rows + 3, J.cols);
  for (let i = 0; i < J.rows; i++) for (let p = J.rowPtr[i]; p < J.rowPtr[i + 1]; p++) b.add(i, J.colIdx[p], J.values[p]);
  for (let t = 0; t < 3; t++) for (let p = J.rowPtr[1500 + t]; p < J.rowPtr[1501 + t]; p++) b.add(J.rows + t, J.colIdx[p], 2 * J.values[p]);
  const A = csrMulDiagTranspose(b.build(), minv);
  const n = A.rows;
  const y = Float64Array.from({ length: n }, (_, i) => Math.sin(i));
  const rhs = csrMulVec(A, y);
  const r = solveSymmetric(A, rhs, { method: 'auto' });
  assert.equal(r.method, 'lstsq');
  assert.equal(r.rank, n - 3);
  assert.deepEqual(
    r.dependent.map((d) => [d.row, d.dependsOn.map((e) => e.row), Math.round(d.dependsOn[0].coefficient * 1e9) / 1e9]),
    [
      [3000, [1500], 2],
      [3001, [1501], 2],
      [3002, [1502], 2],
    ],
  );
  assert.equal(r.consistent, true);
  assert.ok(r.residualNorm < 1e-9 * norm(rhs));
  // Minimum norm: x has no component along the null vectors e_k − 2·e_{1500+k}.
  for (let t = 0; t < 3; t++) assert.ok(Math.abs(r.x[3000 + t] - 2 * r.x[1500 + t]) < 1e-9 * norm(r.x));
  const conflicting = Float64Array.from(rhs);
  conflicting[3001] += 1;
  const r2 = solveSymmetric(A, conflicting, { method: 'auto' });
  assert.equal(r2.consistent, false);
  assert.equal(r2.cond, Infinity);
});

test('property: solveSymmetric(J·D·Jᵀ, b) equals pseudoInverse·b', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 1e9 }), fc.integer({ min: 1, max: 7 }), fc.integer({ min: 0, max: 3 }), (seed, m, dup) => {
      const rand = rng(seed);
      const cols = 3 + Math.floor(rand() * 10);
      const J = randomDense(m, cols, rand);
      for (let k = 0; k < dup; k++) {
        const a = Math.floor(rand() * J.length);
        const c = rand() * 4 - 2;
        J.splice(Math.floor(rand() * (J.length + 1)), 0, J[a].map((v) => c * v));
      }
      const A = denseJDJt(J, Array.from({ length: cols }, () => 0.3 + rand()));
      const b = Float64Array.from({ length: A.length }, () => rand() - 0.5);
      const ref = pinvSolve(A, b);
      const Ac = csrFromDense(A);
      const rExact = solveSymmetric(Ac, b, { method: 'auto' });
      const rSparse = solveSymmetric(Ac, b, { method: 'auto', exactCondMaxRows: 0 });
      const rFast = solveSymmetric(Ac, b, { method: 'auto', skipAnalysis: true });
      return [rExact, rSparse, rFast].every((r) => r.ok && relErr(r.x, ref) < 1e-8) && rExact.rank === rSparse.rank;
    }),
    { numRuns: 60, seed: 42 },
  );
});
