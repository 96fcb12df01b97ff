// The joints' block (bilateralBlock.ts) factors sparsely, in an order of its own: on a sparse SPD matrix
// whose factor fills in in the model's order (a row coupled back to an early one) and with a dependent row, the solve
// must still be W⁻¹·b on the independent rows, as a dense solve gives it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { solveDense } from './linalg-reference';
import { BilateralBlock } from '../../src/engine/contact/bilateralBlock';

test('bilateral block: envelope Cholesky with fill-in solves as a dense solve does', () => {
  const n = 14;
  const W = new Float64Array(n * n);
  const couple = (i: number, j: number, v: number) => {
    W[i * n + j] = v;
    W[j * n + i] = v;
  };
  for (let i = 0; i < n; i++) W[i * n + i] = 4 + 0.1 * i;
  for (let i = 0; i + 1 < n; i++) couple(i, i + 1, -1 + 0.05 * i);
  // long couplings: the factor fills in between them and the diagonal
  couple(11, 2, 0.7);
  couple(13, 5, -0.4);
  const blk = new BilateralBlock(n, (j, out) => {
    for (let i = 0; i < n; i++) out[i] = W[i * n + j];
  });
  assert.equal(blk.dependentRows, 0);
  const b = Float64Array.from({ length: n }, (_, i) => Math.sin(i + 1));
  const x = new Float64Array(n);
  blk.solve(b, x);
  const ref = solveDense(W, b, n);
  for (let i = 0; i < n; i++) assert.ok(Math.abs(x[i] - ref[i]) < 1e-13, `x[${i}] ${x[i]} vs ${ref[i]}`);
});

test('bilateral block: a row equal to an earlier one is dependent and takes no correction', () => {
  // rows 0..3 a chain, row 4 a copy of row 1 (a redundant loop row): W is singular
  const J = [
    [1, 0, 0, 0, 0],
    [1, -1, 0, 0, 0],
    [0, 1, -1, 0, 0],
    [0, 0, 1, -1, 0.5],
    [1, -1, 0, 0, 0],
  ];
  const n = J.length;
  const W = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) W[i * n + j] = J[i].reduce((s, v, k) => s + v * J[j][k], 0);
  const blk = new BilateralBlock(n, (j, out) => {
    for (let i = 0; i < n; i++) out[i] = W[i * n + j];
  });
  assert.equal(blk.dependentRows, 1);
  const b = Float64Array.from([0.3, -0.2, 0.5, 0.1, -0.2]);
  const x = new Float64Array(n);
  blk.solve(b, x);
  assert.equal(x[4], 0);
  // the independent rows solve their own 4×4 system
  const W4 = new Float64Array(16);
  for (let i = 0; i < 4; i++) for (let j = 0; j < 4; j++) W4[i * 4 + j] = W[i * n + j];
  const ref = solveDense(W4, b.subarray(0, 4), 4);
  for (let i = 0; i < 4; i++) assert.ok(Math.abs(x[i] - ref[i]) < 1e-12, `x[${i}] ${x[i]} vs ${ref[i]}`);
});
