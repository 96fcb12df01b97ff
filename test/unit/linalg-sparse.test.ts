import { test } from 'node:test';
import assert from 'node:assert/strict';
import { csrAddDiagonal, csrGet, csrMulVec, csrSubmatrix, csrToDense, csrTransposeMulVec } from '../../src/engine/linalg/sparse';
import { randomDense, rng, CsrBuilder, csrFromDense, csrMulDiagTranspose, csrNnz, csrTranspose } from './linalg-fixtures';

function sparsify(a: number[][], rand: () => number, keep = 0.4): number[][] {
  return a.map((r) => r.map((v) => (rand() < keep ? v : 0)));
}

test('CsrBuilder sums duplicates and sorts columns', () => {
  const b = new CsrBuilder(3, 4);
  b.add(2, 3, 1).add(0, 2, 1).add(0, 0, 2).add(0, 2, 0.5).add(2, 1, -1).add(2, 3, 2);
  const m = b.build();
  assert.deepEqual(Array.from(m.rowPtr), [0, 2, 2, 4]);
  assert.deepEqual(Array.from(m.colIdx), [0, 2, 1, 3]);
  assert.deepEqual(Array.from(m.values), [2, 1.5, -1, 3]);
  assert.throws(() => b.add(3, 0, 1), RangeError);
  // Cancelling duplicates are dropped on request.
  const z = new CsrBuilder(1, 2).add(0, 1, 1).add(0, 1, -1).add(0, 0, 4).build(true);
  assert.deepEqual(Array.from(z.colIdx), [0]);
});

test('CsrBuilder handles long rows (sorting path)', () => {
  const rand = rng(3);
  const b = new CsrBuilder(2, 200);
  const dense = [new Array<number>(200).fill(0), new Array<number>(200).fill(0)];
  for (let k = 0; k < 500; k++) {
    const i = Math.floor(rand() * 2);
    const j = Math.floor(rand() * 200);
    const v = rand();
    b.add(i, j, v);
    dense[i][j] += v;
  }
  const m = b.build();
  for (let i = 0; i < 2; i++) for (let p = m.rowPtr[i] + 1; p < m.rowPtr[i + 1]; p++) assert.ok(m.colIdx[p] > m.colIdx[p - 1]);
  const back = csrToDense(m);
  for (let i = 0; i < 2; i++) for (let j = 0; j < 200; j++) assert.ok(Math.abs(back[i][j] - dense[i][j]) < 1e-12);
});

test('dense round trip, products, transpose, get', () => {
  const rand = rng(7);
  const a = sparsify(randomDense(7, 5, rand), rand);
  const m = csrFromDense(a);
  assert.deepEqual(csrToDense(m), a);
  let nz = 0;
  for (const r of a) for (const v of r) if (v !== 0) nz++;
  assert.equal(csrNnz(m), nz);
  const x = [1, -2, 0.5, 3, -1];
  const y = csrMulVec(m, x);
  const yt = csrTransposeMulVec(m, [1, 2, 3, 4, 5, 6, 7]);
  for (let i = 0; i < 7; i++) {
    let s = 0;
    for (let j = 0; j < 5; j++) s += a[i][j] * x[j];
    assert.ok(Math.abs(s - y[i]) < 1e-14);
  }
  for (let j = 0; j < 5; j++) {
    let s = 0;
    for (let i = 0; i < 7; i++) s += a[i][j] * (i + 1);
    assert.ok(Math.abs(s - yt[j]) < 1e-14);
  }
  const t = csrTranspose(m);
  const td = csrToDense(t);
  for (let i = 0; i < 7; i++) for (let j = 0; j < 5; j++) {
    assert.equal(td[j][i], a[i][j]);
    assert.equal(csrGet(m, i, j), a[i][j]);
  }
  const out = new Float64Array(7);
  assert.equal(csrMulVec(m, x, out), out);
});

test('submatrix and added diagonal', () => {
  const rand = rng(11);
  const a = sparsify(randomDense(6, 6, rand), rand, 0.5);
  a[2][2] = 0;
  const m = csrFromDense(a);
  const rows = [4, 1, 2];
  const cols = [5, 0, 2];
  const s = csrToDense(csrSubmatrix(m, rows, cols));
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) assert.equal(s[i][j], a[rows[i]][cols[j]]);
  const d = csrAddDiagonal(m, 0.25);
  const dd = csrToDense(d);
  for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) assert.equal(dd[i][j], a[i][j] + (i === j ? 0.25 : 0));
  for (let i = 0; i < 6; i++) for (let p = d.rowPtr[i] + 1; p < d.rowPtr[i + 1]; p++) assert.ok(d.colIdx[p] > d.colIdx[p - 1]);
});

test('J·D·Jᵀ matches the dense product', () => {
  const rand = rng(5);
  const j = sparsify(randomDense(5, 8, rand), rand, 0.5);
  const d = Array.from({ length: 8 }, () => 0.5 + rand());
  const A = csrToDense(csrMulDiagTranspose(csrFromDense(j), d));
  for (let r = 0; r < 5; r++) for (let c = 0; c < 5; c++) {
    let s = 0;
    for (let k = 0; k < 8; k++) s += j[r][k] * d[k] * j[c][k];
    assert.ok(Math.abs(A[r][c] - s) < 1e-14);
  }
});
