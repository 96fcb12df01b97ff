import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findDependentRows, minNormSolve, NullSpaceProjector } from '../../src/engine/linalg/redundancy';
import { analyze } from '../../src/engine/linalg/cholesky';
import { chainSystem, denseJDJt, randomDense, rng, CsrBuilder, csrFromDense, csrMulDiagTranspose } from './linalg-fixtures';
import { csrMulVec } from '../../src/engine/linalg/sparse';
import type { CsrMatrix, DependentRow } from '../../src/engine/linalg/contracts';

/** Checks J[row] ≈ Σ c·J[other] for every reported dependency. */
function assertReproduces(J: number[][], dep: DependentRow[], tol = 1e-9) {
  for (const d of dep) {
    const rec = new Array<number>(J[0].length).fill(0);
    for (const { row, coefficient } of d.dependsOn) {
      assert.ok(row < d.row, 'depends only on earlier rows');
      for (let k = 0; k < rec.length; k++) rec[k] += coefficient * J[row][k];
    }
    const scale = Math.max(...J[d.row].map(Math.abs));
    for (let k = 0; k < rec.length; k++) assert.ok(Math.abs(rec[k] - J[d.row][k]) <= tol * scale, `row ${d.row} col ${k}`);
  }
}

/** Planar square: 4 point bodies (x, y) on the corners, 4 edge rods then 2 diagonals. */
function squareWithDiagonals(): number[][] {
  const p = [
    [0, 0],
    [1, 0],
    [1, 1],
    [0, 1],
  ];
  const rods = [
    [0, 1],
    [1, 2],
    [2, 3],
    [3, 0],
    [0, 2],
    [1, 3],
  ];
  return rods.map(([a, b]) => {
    const d = [p[a][0] - p[b][0], p[a][1] - p[b][1]];
    const len = Math.hypot(d[0], d[1]);
    const row = new Array<number>(8).fill(0);
    row[2 * a] = d[0] / len;
    row[2 * a + 1] = d[1] / len;
    row[2 * b] = -d[0] / len;
    row[2 * b + 1] = -d[1] / len;
    return row;
  });
}

test('two identical rows: the later one is dependent with coefficient 1', () => {
  const rand = rng(1);
  const J = randomDense(4, 9, rand);
  J.splice(3, 0, J[1].slice()); // rows 1 and 3 identical
  const A = csrFromDense(denseJDJt(J, Array.from({ length: 9 }, () => 0.5 + rand())));
  const r = findDependentRows(A);
  assert.equal(r.rank, 4);
  assert.equal(r.dependent.length, 1);
  assert.equal(r.dependent[0].row, 3);
  assert.equal(r.dependent[0].dependsOn.length, 1);
  assert.equal(r.dependent[0].dependsOn[0].row, 1);
  assert.ok(Math.abs(r.dependent[0].dependsOn[0].coefficient - 1) < 1e-12);
});

test('planar square with both diagonals: exactly one dependent row, the last', () => {
  const J = squareWithDiagonals();
  const masses = [1, 2, 0.5, 3];
  const minv = masses.flatMap((m) => [1 / m, 1 / m]);
  const A = csrFromDense(denseJDJt(J, minv));
  const r = findDependentRows(A);
  assert.equal(r.dependent.length, 1);
  assert.equal(r.dependent[0].row, 5);
  assert.equal(r.rank, 5);
  assert.ok(r.dependent[0].dependsOn.length >= 2);
  assertReproduces(J, r.dependent);
});

test('combined rows and a zero row are named in file order', () => {
  const rand = rng(2);
  const J = randomDense(5, 12, rand);
  J.push(J[0].map((v, k) => 2 * v - 0.5 * J[3][k])); // row 5 = 2·r0 − 0.5·r3
  J.push(new Array<number>(12).fill(0)); // row 6 = 0
  J.push(J[5].map((v, k) => v + J[4][k])); // row 7 = r5 + r4 (r5 dependent ⇒ over r0, r3, r4)
  J.push(randomDense(1, 12, rand)[0]); // row 8 independent
  const A = csrFromDense(denseJDJt(J, Array.from({ length: 12 }, () => 0.5 + rand())));
  const r = findDependentRows(A);
  assert.deepEqual(
    r.dependent.map((d) => d.row),
    [5, 6, 7],
  );
  assert.deepEqual(r.dependent[1].dependsOn, []);
  assertReproduces(J, r.dependent);
  const c = new Map(r.dependent[0].dependsOn.map((d) => [d.row, d.coefficient]));
  assert.deepEqual([...c.keys()].sort(), [0, 3]);
  assert.ok(Math.abs(c.get(0)! - 2) < 1e-10 && Math.abs(c.get(3)! + 0.5) < 1e-10);
  // Null basis vectors are in the null space of A.
  for (const v of r.nullBasis) {
    const x = new Float64Array(A.rows);
    v.idx.forEach((i, t) => (x[i] = v.val[t]));
    const y = csrMulVec(A, x);
    for (const yi of y) assert.ok(Math.abs(yi) < 1e-10);
  }
});

test('targetRank picks a tolerance that matches the expected rank', () => {
  const J = [
    [1, 0, 0],
    [0, 1, 0],
    [1, 0, 1e-7], // nearly dependent
  ];
  const A = csrFromDense(denseJDJt(J, [1, 1, 1]));
  assert.equal(findDependentRows(A).dependent.length, 1); // pivot ~1e-14 relative
  assert.equal(findDependentRows(A, { targetRank: 3 }).dependent.length, 0);
});

test('large chain with duplicated joints (sparse, in order)', () => {
  const { J, minv } = chainSystem(3000, 4);
  // Duplicate the rows of joints 10 and 2000 at the end of the file, plus one combined row.
  const Jd = csrToDenseRows(J, [30, 31, 32, 6000, 6001, 6002]);
  const b = new CsrBuilder(J.rows + 7, J.cols);
  for (let i = 0; i < J.rows; i++) for (let p = J.rowPtr[i]; p < J.rowPtr[i + 1]; p++) b.add(i, J.colIdx[p], J.values[p]);
  Jd.forEach((row, t) => row.forEach((v, k) => v !== 0 && b.add(J.rows + t, k, v)));
  Jd[0].forEach((v, k) => (v !== 0 || Jd[3][k] !== 0) && b.add(J.rows + 6, k, v - 3 * Jd[3][k]));
  const J2 = b.build();
  const A = csrMulDiagTranspose(J2, minv);
  const r = findDependentRows(A);
  assert.deepEqual(
    r.dependent.map((d) => d.row),
    [9000, 9001, 9002, 9003, 9004, 9005, 9006],
  );
  assert.deepEqual(r.dependent[0].dependsOn.map((d) => d.row), [30]);
  assert.ok(Math.abs(r.dependent[0].dependsOn[0].coefficient - 1) < 1e-9);
  const last = new Map(r.dependent[6].dependsOn.map((d) => [d.row, d.coefficient]));
  assert.deepEqual([...last.keys()], [30, 6000]);
  assert.ok(Math.abs(last.get(30)! - 1) < 1e-9 && Math.abs(last.get(6000)! + 3) < 1e-9);
  // Min-norm solution of a consistent right-hand side: residual ~0 and orthogonal to the null space.
  const y = Float64Array.from({ length: A.rows }, (_, i) => Math.sin(i));
  const rhs = csrMulVec(A, y);
  const { x, nullComponent, projector } = minNormSolve(r, rhs, A.rows);
  assert.ok(nullComponent < 1e-9 * norm(rhs));
  const res = csrMulVec(A, x).map((v, i) => v - rhs[i]);
  assert.ok(norm(res) < 1e-9 * norm(rhs));
  assert.ok(norm(projector.project(x)) < 1e-9 * norm(x));
});

test('NullSpaceProjector is an orthogonal projector', () => {
  const P = new NullSpaceProjector(
    [
      { idx: Int32Array.from([2, 0]), val: Float64Array.from([1, -1]) },
      { idx: Int32Array.from([3, 0, 1]), val: Float64Array.from([1, 0.5, 2]) },
    ],
    4,
  );
  const v = [0.3, -1, 2, 0.7];
  const pv = P.project(v);
  const ppv = P.project(pv);
  for (let i = 0; i < 4; i++) assert.ok(Math.abs(pv[i] - ppv[i]) < 1e-14);
  const w = v.map((x, i) => x - pv[i]); // orthogonal to both basis vectors
  assert.ok(Math.abs(w[2] - w[0]) < 1e-14);
  assert.ok(Math.abs(w[3] + 0.5 * w[0] + 2 * w[1]) < 1e-14);
});

function norm(v: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i] * v[i];
  return Math.sqrt(s);
}

function csrToDenseRows(m: CsrMatrix, rows: number[]): number[][] {
  return rows.map((i) => {
    const r = new Array<number>(m.cols).fill(0);
    for (let p = m.rowPtr[i]; p < m.rowPtr[i + 1]; p++) r[m.colIdx[p]] = m.values[p];
    return r;
  });
}


/** 2D truss: N×N grid of point masses, rods along edges and both diagonals of every cell (shuffled order). */
function braced2dGrid(N: number, seed: number): { J: CsrMatrix; Jd: number[][] } {
  const rand = rng(seed);
  const pts: number[][] = [];
  for (let i = 0; i < N; i++) for (let j = 0; j < N; j++) pts.push([j + 0.1 * rand(), i + 0.1 * rand()]);
  const id = (i: number, j: number) => i * N + j;
  const rods: [number, number][] = [];
  for (let i = 0; i < N; i++)
    for (let j = 0; j < N; j++) {
      if (j + 1 < N) rods.push([id(i, j), id(i, j + 1)]);
      if (i + 1 < N) rods.push([id(i, j), id(i + 1, j)]);
      if (i + 1 < N && j + 1 < N) rods.push([id(i, j), id(i + 1, j + 1)], [id(i, j + 1), id(i + 1, j)]);
    }
  for (let k = rods.length - 1; k > 0; k--) {
    const t = Math.floor(rand() * (k + 1));
    [rods[k], rods[t]] = [rods[t], rods[k]];
  }
  const b = new CsrBuilder(rods.length, 2 * N * N);
  const Jd = rods.map(([a, c]) => {
    const d = [pts[a][0] - pts[c][0], pts[a][1] - pts[c][1]];
    const l = Math.hypot(d[0], d[1]);
    const row = new Array<number>(2 * N * N).fill(0);
    row[2 * a] = d[0] / l;
    row[2 * a + 1] = d[1] / l;
    row[2 * c] = -d[0] / l;
    row[2 * c + 1] = -d[1] / l;
    return row;
  });
  Jd.forEach((row, r) => row.forEach((v, k) => v !== 0 && b.add(r, k, v)));
  return { J: b.build(), Jd };
}

test('AMD-ordered rejection is remapped to file order (same rows as in-order elimination)', () => {
  const { J, Jd } = braced2dGrid(9, 3);
  const A = csrMulDiagTranspose(J);
  const amd = analyze(A, { ordering: 'amd' });
  assert.ok(amd.perm !== null);
  const viaAmd = findDependentRows(A, { symbolic: amd });
  const inOrder = findDependentRows(A, { symbolic: analyze(A, { ordering: 'natural' }) });
  assert.equal(viaAmd.rank, 2 * 81 - 3);
  assert.deepEqual(
    viaAmd.dependent.map((d) => d.row),
    inOrder.dependent.map((d) => d.row),
  );
  assertReproduces(Jd, viaAmd.dependent, 1e-8);
  assertReproduces(Jd, inOrder.dependent, 1e-8);
  // Min-norm solutions agree whichever order produced the null basis.
  const rhs = csrMulVec(A, Float64Array.from({ length: A.rows }, (_, i) => Math.cos(i)));
  const x1 = minNormSolve(viaAmd, rhs, A.rows).x;
  const x2 = minNormSolve(inOrder, rhs, A.rows).x;
  for (let i = 0; i < A.rows; i++) assert.ok(Math.abs(x1[i] - x2[i]) < 1e-8 * (1 + Math.abs(x2[i])));
});
