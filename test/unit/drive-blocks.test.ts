// The drive blocks of PGS (contact/driveBlocks.ts): W_blk + Σ_blk formed from the rows' ends and the
// per-body inverse masses, factored, and one visit solving the block's equations exactly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeDriveBlock, visitDriveBlock, type RowEnd } from '../../src/engine/contact/driveBlocks';

/** A deterministic pseudo-random sequence in [−1, 1). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 31) - 1;
}

/** Two bodies' compact inverse masses: 1/m and a symmetric positive definite 3×3 each. */
function minvOf(r: () => number): Float64Array {
  const out = new Float64Array(20);
  for (let b = 0; b < 2; b++) {
    out[10 * b] = 1 / (1 + Math.abs(r()));
    const L = Array.from({ length: 9 }, () => r());
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) {
      let s = i === j ? 0.5 : 0;
      for (let k = 0; k < 3; k++) s += L[3 * i + k] * L[3 * j + k];
      out[10 * b + 1 + 3 * i + j] = s;
    }
  }
  return out;
}

/** Dense h·J·M⁻¹·Jᵀ from 12-wide rows (body 0 then body 1). */
function denseW(J: number[][], minv: Float64Array, h: number): number[][] {
  const Minv = (b: number, x: number[]) => {
    const o = 10 * b;
    return [minv[o] * x[0], minv[o] * x[1], minv[o] * x[2], ...[0, 1, 2].map((i) => minv[o + 1 + 3 * i] * x[3] + minv[o + 2 + 3 * i] * x[4] + minv[o + 3 + 3 * i] * x[5])];
  };
  return J.map((a) => J.map((b) => {
    let s = 0;
    for (let e = 0; e < 2; e++) {
      const y = Minv(e, b.slice(6 * e, 6 * e + 6));
      for (let k = 0; k < 6; k++) s += a[6 * e + k] * y[k];
    }
    return h * s;
  }));
}

test('a drive block solves (W_blk + Σ_blk)·ΔR = −(U + Σ·R − target) in one visit', () => {
  const r = rng(7);
  const minv = minvOf(r);
  const h = 0.01;
  const J = Array.from({ length: 6 }, () => Array.from({ length: 12 }, () => r()));
  const ends = (row: number): RowEnd[] => [{ slot: 0, J: J[row], o: 0 }, { slot: 1, J: J[row], o: 6 }];
  const sigma = Float64Array.from([0, 0, 0, 0, 0, 0.3]);
  const blk = makeDriveBlock([0, 1, 2, 3, 4, 5], sigma, ends, minv, h);
  assert.ok(blk);
  // U = J·u with u updated by h·M⁻¹·Jᵀ·ΔR, as pgs.ts keeps it
  const u = new Float64Array(12).map(() => r());
  const Uof = (row: number) => J[row].reduce((s, x, k) => s + x * u[k], 0);
  const apply = (row: number, dR: number) => {
    for (let e = 0; e < 2; e++) {
      const o = 10 * e, x = J[row].slice(6 * e, 6 * e + 6).map((v) => h * dR * v);
      for (let k = 0; k < 3; k++) u[6 * e + k] += minv[o] * x[k];
      for (let i = 0; i < 3; i++) u[6 * e + 3 + i] += minv[o + 1 + 3 * i] * x[3] + minv[o + 2 + 3 * i] * x[4] + minv[o + 3 + 3 * i] * x[5];
    }
  };
  const R = new Float64Array(6).map(() => r());
  const target = new Float64Array(6).map(() => r());
  const W = denseW(J, minv, h);
  visitDriveBlock(blk, Uof, R, target, apply, new Float64Array(6));
  // after the visit every row of the block holds: U + Σ·R = target
  for (let i = 0; i < 6; i++) assert.ok(Math.abs(Uof(i) + sigma[i] * R[i] - target[i]) < 1e-12, `row ${i}: ${Uof(i) + sigma[i] * R[i] - target[i]}`);
  // and the block's diagonal is the dense W's plus Σ
  for (let i = 0; i < 6; i++) assert.ok(Math.abs(blk.diag[i] - W[i][i] - sigma[i]) < 1e-12 * (1 + W[i][i]));
});

test('dependent rows make no block (the scalar sweeps take them)', () => {
  const r = rng(3);
  const minv = minvOf(r);
  const a = Array.from({ length: 12 }, () => r());
  const J = [a, a.map((x) => 2 * x)];
  const ends = (row: number): RowEnd[] => [{ slot: 0, J: J[row], o: 0 }, { slot: 1, J: J[row], o: 6 }];
  assert.equal(makeDriveBlock([0, 1], new Float64Array(2), ends, minv, 0.01), undefined);
  // with compliance on the second row the block is positive definite again
  assert.ok(makeDriveBlock([0, 1], Float64Array.from([0, 0.5]), ends, minv, 0.01));
});
