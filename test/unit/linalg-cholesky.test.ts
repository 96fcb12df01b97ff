import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CholeskyDecomposition, Matrix, solve } from 'ml-matrix';
import { analyze, factor, type Factor } from '../../src/engine/linalg/cholesky';
import { amdOrdering } from '../../src/engine/linalg/ordering';
import { chainSystem, randomSpd, rng, CsrBuilder, csrFromDense } from './linalg-fixtures';
import { csrMulVec, csrToDense } from '../../src/engine/linalg/sparse';
import type { CsrMatrix } from '../../src/engine/linalg/contracts';
import { isPermutation, minimumDegreeOrdering } from './linalg-reference';

/** Dense lower-triangular Cholesky factor (in the factor's elimination order) from L, D. */
function denseCholeskyOf(F: Factor): number[][] {
  const n = F.n;
  const { Lp } = F.symbolic;
  const L: number[][] = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : 0)));
  for (let j = 0; j < n; j++) for (let p = Lp[j]; p < Lp[j + 1]; p++) L[F.Li[p]][j] = F.Lx[p];
  return L.map((r) => r.map((v, j) => v * Math.sqrt(F.D[j])));
}

function permuted(A: number[][], perm: ArrayLike<number> | null): number[][] {
  if (!perm) return A;
  return Array.from(perm, (pi) => Array.from(perm, (pj) => A[pi][pj]));
}

/** Random sparse SPD: random sparse symmetric pattern, diagonally dominant. */
function randomSparseSpd(n: number, density: number, rand: () => number): CsrMatrix {
  const b = new CsrBuilder(n, n);
  const row = new Float64Array(n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < i; j++)
      if (rand() < density) {
        const v = rand() - 0.5;
        b.add(i, j, v).add(j, i, v);
        row[i] += Math.abs(v);
        row[j] += Math.abs(v);
      }
  for (let i = 0; i < n; i++) b.add(i, i, row[i] + 0.5 + rand());
  return b.build();
}

/** Arrow matrix: dense first row/column + diagonal (natural order fills completely). */
function arrow(n: number): CsrMatrix {
  const b = new CsrBuilder(n, n);
  for (let i = 0; i < n; i++) b.add(i, i, n + 1);
  for (let i = 1; i < n; i++) b.add(0, i, 1).add(i, 0, 1);
  return b.build();
}

test('sparse LDLᵀ equals the dense Cholesky (natural and minimum-degree orderings)', () => {
  const rand = rng(1);
  for (const [n, dens] of [[1, 1], [6, 1], [40, 0.15], [80, 0.05]] as const) {
    const A = n <= 6 ? csrFromDense(randomSpd(n, rand)) : randomSparseSpd(n, dens, rand);
    const Ad = csrToDense(A);
    for (const ordering of ['natural', 'amd'] as const) {
      const S = analyze(A, { ordering });
      const F = factor(A, S);
      assert.ok(F.ok && F.dependent.length === 0);
      const Lref = new CholeskyDecomposition(new Matrix(permuted(Ad, S.perm))).lowerTriangularMatrix.to2DArray();
      const L = denseCholeskyOf(F);
      for (let i = 0; i < n; i++) for (let j = 0; j <= i; j++) assert.ok(Math.abs(L[i][j] - Lref[i][j]) < 1e-10 * Math.abs(Lref[0][0]), `${ordering} ${i},${j}`);
      const b = Array.from({ length: n }, () => rand() - 0.5);
      const x = F.solve(b);
      const ref = solve(new Matrix(Ad), Matrix.columnVector(b)).getColumn(0);
      for (let i = 0; i < n; i++) assert.ok(Math.abs(x[i] - ref[i]) < 1e-10 * Math.max(1, Math.abs(ref[i])));
    }
  }
});

test('minimum degree: valid permutation, no more fill than natural (arrow, random sparse)', () => {
  const rand = rng(2);
  for (const A of [arrow(60), randomSparseSpd(150, 0.03, rand), chainSystem(50).A]) {
    const perm = minimumDegreeOrdering(A);
    assert.ok(isPermutation(perm, A.rows));
    const nat = analyze(A, { ordering: 'natural' });
    const md = analyze(A, { ordering: 'amd' });
    assert.ok(md.lnz <= nat.lnz, `md ${md.lnz} > natural ${nat.lnz}`);
    const auto = analyze(A);
    assert.ok(auto.lnz <= Math.min(md.lnz, nat.lnz));
  }
  const a = arrow(60);
  assert.equal(analyze(a, { ordering: 'natural' }).lnz, (59 * 60) / 2);
  assert.equal(analyze(a, { ordering: 'amd' }).lnz, 59);
  assert.equal(analyze(a).ordering, 'amd');
  // The block-tridiagonal chain is fill-free in natural order: 'auto' keeps it.
  assert.equal(analyze(chainSystem(100).A).ordering, 'natural');
  assert.ok(!isPermutation([0, 0, 1], 3));
});

test('symbolic analysis is reusable across values with the same pattern', () => {
  const { A } = chainSystem(30, 3);
  const S = analyze(A);
  const A2 = { ...A, values: A.values.map((v, p) => v * (1 + 0.1 * Math.sin(p))) };
  // keep it symmetric: scale symmetric pairs equally
  const d = csrToDense(A2);
  for (let i = 0; i < d.length; i++) for (let j = 0; j < i; j++) d[j][i] = d[i][j];
  for (let i = 0; i < d.length; i++) d[i][i] = Math.abs(d[i][i]) + 10;
  const A3 = csrFromDense(d);
  assert.deepEqual(A3.colIdx, A.colIdx);
  const F = factor(A3, S);
  assert.ok(F.ok);
  const b = Array.from({ length: A.rows }, (_, i) => Math.cos(i));
  const x = F.solve(b);
  const r = csrMulVec(A3, x);
  for (let i = 0; i < A.rows; i++) assert.ok(Math.abs(r[i] - b[i]) < 1e-10);
});

test('zero and negative pivots are detected', () => {
  const S = (A: CsrMatrix) => analyze(A, { ordering: 'natural' });
  const indef = csrFromDense([[1, 2], [2, 1]]);
  const f1 = factor(indef, S(indef));
  assert.equal(f1.ok, false);
  assert.equal(f1.step, 1);
  assert.equal(f1.reason, 'indefinite');
  const f1b = factor(indef, S(indef), { onSmallPivot: 'indefinite' });
  assert.ok(f1b.ok && f1b.negativePivots === 1);
  const x = f1b.solve([3, 3]);
  assert.ok(Math.abs(x[0] - 1) < 1e-14 && Math.abs(x[1] - 1) < 1e-14);
  const sing = csrFromDense([[1, 1], [1, 1]]);
  const f2 = factor(sing, S(sing));
  assert.equal(f2.ok, false);
  assert.equal(f2.reason, 'singular');
  const zeroRow = csrFromDense([[2, 0], [0, 0]]);
  const f4 = factor(zeroRow, S(zeroRow));
  assert.equal(f4.ok, false);
  assert.equal(f4.step, 1);
  // With a shift (compliance) the singular matrix factors.
  const f3 = factor(sing, S(sing), { shift: 0.5 });
  assert.ok(f3.ok);
  const y = f3.solve([1, 0]);
  const A = [[1.5, 1], [1, 1.5]];
  assert.ok(Math.abs(A[0][0] * y[0] + A[0][1] * y[1] - 1) < 1e-14 && Math.abs(A[1][0] * y[0] + A[1][1] * y[1]) < 1e-14);
});

test('AMD (quotient graph) vs exact minimum degree vs natural on a 2D mesh', () => {
  // 25×25 grid Laplacian-like SPD matrix (5-point stencil).
  const N = 25;
  const b = new CsrBuilder(N * N, N * N);
  const id = (i: number, j: number) => i * N + j;
  for (let i = 0; i < N; i++)
    for (let j = 0; j < N; j++) {
      b.add(id(i, j), id(i, j), 4.5);
      if (i + 1 < N) b.add(id(i, j), id(i + 1, j), -1).add(id(i + 1, j), id(i, j), -1);
      if (j + 1 < N) b.add(id(i, j), id(i, j + 1), -1).add(id(i, j + 1), id(i, j), -1);
    }
  const A = b.build();
  const amd = analyze(A, { ordering: 'amd' });
  assert.ok(isPermutation(amd.perm!, A.rows));
  const nat = analyze(A, { ordering: 'natural' });
  const md = minimumDegreeOrdering(A);
  assert.ok(isPermutation(md, A.rows));
  assert.ok(amd.lnz < nat.lnz, `amd ${amd.lnz} natural ${nat.lnz}`);
  const F = factor(A, amd);
  assert.ok(F.ok);
  const rhs = Array.from({ length: A.rows }, (_, i) => Math.sin(i));
  const x = F.solve(rhs);
  const r = csrMulVec(A, x);
  for (let i = 0; i < A.rows; i++) assert.ok(Math.abs(r[i] - rhs[i]) < 1e-10);
});

test('property: AMD gives a valid permutation and a correct factorisation on random sparse SPD', () => {
  const rand = rng(77);
  for (let trial = 0; trial < 40; trial++) {
    const n = 1 + Math.floor(rand() * 40);
    const A = randomSparseSpd(n, rand() * 0.3, rand);
    const perm = amdOrdering(A);
    assert.ok(isPermutation(perm, n), `trial ${trial}`);
    const F = factor(A, analyze(A, { ordering: 'amd' }));
    assert.ok(F.ok);
    const b = Array.from({ length: n }, () => rand() - 0.5);
    const r = csrMulVec(A, F.solve(b));
    for (let i = 0; i < n; i++) assert.ok(Math.abs(r[i] - b[i]) < 1e-10);
  }
});
