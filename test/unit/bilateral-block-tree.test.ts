// The joints' block (bilateralBlock.ts) on a tree of bodies: rows couple only through a shared body,
// so W's graph is chordal and leaves-first elimination has no fill. The factor must hold exactly W's
// nonzeros, solve as a dense solve does, and reuse its ordering and pattern (the symbolic analysis)
// on the next step's W (same pattern, other numbers, or fewer nonzeros) instead of analysing again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { solveDense } from './linalg-reference';
import { BilateralBlock, blockAnalyses } from '../../src/engine/contact/bilateralBlock';

/** W = J·M⁻¹·Jᵀ of a tree of `bodies` (body 0 the root) with `per` rows per joint, rows root first. */
function treeBlock(bodies: number, per: number, seed: number): { W: Float64Array; n: number } {
  let s = seed;
  const rnd = () => ((s = (s * 16807) % 2147483647) / 2147483647) - 0.5;
  const parent = [-1];
  for (let b = 1; b < bodies; b++) parent.push(Math.floor((b * 0.618 * 7) % b));
  const nu = 6 * bodies, n = per * (bodies - 1);
  const J = new Float64Array(n * nu);
  for (let b = 1; b < bodies; b++) {
    for (let k = 0; k < per; k++) {
      const r = per * (b - 1) + k;
      for (let c = 0; c < 6; c++) {
        J[r * nu + 6 * b + c] = rnd();
        J[r * nu + 6 * parent[b] + c] = rnd();
      }
    }
  }
  const minv = Float64Array.from({ length: nu }, () => 1 + Math.abs(rnd()));
  const W = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      let v = i === j ? 1e-6 : 0;
      for (let c = 0; c < nu; c++) v += J[i * nu + c] * minv[c] * J[j * nu + c];
      W[i * n + j] = v;
    }
  }
  return { W, n };
}

const blockOf = (W: Float64Array, n: number) =>
  new BilateralBlock(n, (j, out) => {
    for (let i = 0; i < n; i++) out[i] = W[i * n + j];
  });

function check(blk: BilateralBlock, W: Float64Array, n: number): void {
  const b = Float64Array.from({ length: n }, (_, i) => Math.cos(1.3 * i));
  const x = new Float64Array(n);
  blk.solve(b, x);
  const ref = solveDense(W, b, n);
  const scale = Math.max(...ref.map(Math.abs));
  for (let i = 0; i < n; i++) assert.ok(Math.abs(x[i] - ref[i]) < 1e-9 * scale, `x[${i}] ${x[i]} vs ${ref[i]}`);
}

test('bilateral block: a tree of bodies factors with no fill, root-first rows or not', () => {
  const { W, n } = treeBlock(14, 5, 7);
  let lower = 0;
  for (let i = 0; i < n; i++) for (let j = 0; j < i; j++) if (W[i * n + j] !== 0) lower++;
  const blk = blockOf(W, n);
  assert.equal(blk.dependentRows, 0);
  assert.equal(blk.factorNonzeros, lower, 'the factor holds exactly W’s nonzeros below the diagonal');
  check(blk, W, n);
});

test('bilateral block: the next step’s block reuses the symbolic analysis (counted)', () => {
  const first = treeBlock(11, 5, 3);
  const before = blockAnalyses();
  check(blockOf(first.W, first.n), first.W, first.n);
  assert.equal(blockAnalyses(), before + 1, 'a new pattern is analysed once');
  // other numbers on the same pattern (the next step): no new analysis, the solve still exact
  for (const seed of [5, 9, 13]) {
    const next = treeBlock(11, 5, seed);
    check(blockOf(next.W, next.n), next.W, next.n);
  }
  // a nonzero that happens to be exactly zero this step lies inside the kept pattern
  const sparser = Float64Array.from(first.W);
  const n = first.n;
  sparser[7 * n + 3] = sparser[3 * n + 7] = 0;
  check(blockOf(sparser, n), sparser, n);
  assert.equal(blockAnalyses(), before + 1, 'the kept analysis is reused');
  // a coupling outside the kept pattern (a loop) needs a new analysis, and is solved exactly
  const looped = Float64Array.from(first.W);
  looped[(n - 1) * n + 2] = looped[2 * n + n - 1] = 0.01;
  check(blockOf(looped, n), looped, n);
  assert.equal(blockAnalyses(), before + 2);
});

test('bilateral block: a robot stepping analyses its joints’ block once, not once a step (counted)', async () => {
  const { readFileSync } = await import('node:fs');
  const { dirname, join } = await import('node:path');
  const { loadModel, nodeFileAccess } = await import('../../src/import/index');
  const { Simulation } = await import('../../src/engine');
  const file = join(__dirname, '..', 'fixtures', 'import', 'public', 'humanoid', 'humanoid.xml');
  const parse = await loadModel(file, readFileSync(file, 'utf8'), { files: nodeFileAccess(dirname(file)) });
  assert.ok(parse.scene);
  const sim = new Simulation(parse.scene, parse.sourceMap);
  sim.step(5);
  const before = blockAnalyses();
  // 120 steps of MuJoCo's humanoid falling: its joints' block is formed and factored every step
  // (on each step's numbers), its ordering and pattern are not
  sim.step(120);
  assert.equal(sim.stopped, false);
  assert.ok(blockAnalyses() - before <= 2, `${blockAnalyses() - before} analyses in 120 steps`);
});

test('bilateral block: a right side with few nonzeros solves through their tree reach only, to the same bits', () => {
  const { W, n } = treeBlock(14, 5, 11);
  const blk = blockOf(W, n);
  const full = new Float64Array(n), part = new Float64Array(n);
  // a contact's column: nonzero on the rows of one joint (a leaf's, a middle body's, the root's)
  for (const first of [0, 5 * 6, n - 5]) {
    const b = new Float64Array(n);
    const nz = Int32Array.from({ length: 5 }, (_, k) => first + k);
    for (const i of nz) b[i] = Math.sin(0.7 * i + 0.3);
    blk.solve(b, full);
    part.fill(NaN);
    blk.solveFrom(b, nz, nz.length, part);
    for (let i = 0; i < n; i++) assert.ok(Object.is(part[i], full[i]), `x[${i}] ${part[i]} vs ${full[i]}`);
    const ref = solveDense(W, b, n);
    const scale = Math.max(...ref.map(Math.abs));
    for (let i = 0; i < n; i++) assert.ok(Math.abs(part[i] - ref[i]) < 1e-9 * scale);
  }
});
