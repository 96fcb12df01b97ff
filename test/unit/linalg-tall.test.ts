import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Matrix, SingularValueDecomposition, pseudoInverse } from 'ml-matrix';
import { isTall, solveTall } from '../../src/engine/linalg/tall';
import { rng } from './linalg-fixtures';
import { parseScene } from '../../src/engine/scene/parse';
import { assemble, buildWorld } from '../../src/engine/assembly/assemble';
import { initialState } from '../../src/engine/model/body';
import { solveSystem } from '../../src/engine/kkt/kkt';
import { SymmetricSolver } from '../../src/engine/linalg/solve';
import { islandsOf } from '../../src/engine/kkt/kkt';
import { islandIsTall } from '../../src/engine/kkt/tallIsland';

/** A tall m×k G of rank r: r random independent rows spread over the file, the rest random combinations of earlier rows. */
function tallSystem(m: number, k: number, r: number, seed: number): number[][] {
  const rand = rng(seed);
  const rows: number[][] = [];
  const indep: number[] = [];
  for (let i = 0; i < m; i++) {
    const fresh = indep.length < r && (i % Math.floor(m / r) === 0 || m - i <= r - indep.length);
    if (fresh || indep.length === 0) {
      rows.push(Array.from({ length: k }, () => 2 * rand() - 1));
      indep.push(i);
    } else {
      const row = new Array<number>(k).fill(0);
      for (const j of indep) {
        const c = rand() < 0.5 ? 0 : 2 * rand() - 1;
        for (let t = 0; t < k; t++) row[t] += c * rows[j][t];
      }
      rows.push(row);
    }
  }
  return rows;
}

const flat = (G: number[][]) => Float64Array.from(G.flat());

for (const [m, k, r, seed] of [
  [80, 6, 6, 1],
  [120, 12, 9, 2],
  [200, 18, 18, 3],
  [90, 6, 3, 4],
] as const) {
  test(`tall ${m}×${k} of rank ${r}: rank, spectrum, dependencies and λ against ml-matrix`, () => {
    const G = tallSystem(m, k, r, seed);
    const Gm = new Matrix(G);
    const A = Gm.mmul(Gm.transpose());
    const svd = new SingularValueDecomposition(A, { autoTranspose: true });
    const sv = svd.diagonal;
    const tol = m * 2 ** -52 * sv[0];
    const rankRef = sv.filter((s) => s > tol).length;
    const rand = rng(seed + 100);
    const bCons = Array.from(A.mmul(Matrix.columnVector(Array.from({ length: m }, () => rand() - 0.5))).to1DArray());
    const res = solveTall(flat(G), m, k, bCons, { wantSpectrum: true });
    assert.equal(res.ok, true);
    assert.equal(res.rank, rankRef);
    assert.equal(res.rank, r);
    assert.equal(res.cond, Infinity);
    assert.equal(res.consistent, true);
    // spectrum
    for (let i = 0; i < m; i++) assert.ok(Math.abs(res.singularValues![i] - (i < rankRef ? sv[i] : 0)) <= 1e-10 * sv[0], `σ${i}`);
    // dependencies: m − r rows, each reproduced by its coefficients on earlier independent rows
    assert.equal(res.dependent.length, m - r);
    const depSet = new Set(res.dependent.map((d) => d.row));
    for (const d of res.dependent) {
      const rec = new Array<number>(k).fill(0);
      for (const { row, coefficient } of d.dependsOn) {
        assert.ok(row < d.row && !depSet.has(row), 'an earlier independent row');
        for (let t = 0; t < k; t++) rec[t] += coefficient * G[row][t];
      }
      const scale = Math.max(1, ...G[d.row].map(Math.abs));
      for (let t = 0; t < k; t++) assert.ok(Math.abs(rec[t] - G[d.row][t]) <= 1e-9 * scale, `row ${d.row}`);
    }
    // minimum-norm λ = A⁺·b
    const ref = pseudoInverse(A).mmul(Matrix.columnVector(bCons)).to1DArray();
    const rn = Math.sqrt(ref.reduce((s, x) => s + x * x, 0));
    for (let i = 0; i < m; i++) assert.ok(Math.abs(res.x[i] - ref[i]) <= 1e-8 * rn, `λ${i}`);
    // a b outside range(A) is reported as inconsistent
    const bBad = bCons.map((x, i) => x + (i === m - 1 ? 1 : 0));
    assert.equal(solveTall(flat(G), m, k, bBad).consistent, false);
    // with compliance: (A + c·I)·λ = b exactly, κ = (σ_max + c)/c
    const c = 1e-3;
    const rc = solveTall(flat(G), m, k, bBad, { compliance: c });
    const Ac = A.add(Matrix.eye(m).mul(c));
    const y = Ac.mmul(Matrix.columnVector(Array.from(rc.x))).to1DArray();
    const nrm = (v: number[]) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));
    const resid = nrm(y.map((v, i) => v - bBad[i]));
    assert.ok(resid <= 1e-12 * ((sv[0] + c) * nrm(Array.from(rc.x)) + nrm(bBad)), `compliant residual ${resid}`);
    assert.ok(rc.residualNorm <= 1e-12 * ((sv[0] + c) * nrm(Array.from(rc.x)) + nrm(bBad)));
    assert.ok(Math.abs(rc.cond - (sv[0] + c) / c) <= 1e-9 * rc.cond);
    assert.ok(Number.isFinite(rc.condScaled) && rc.condScaled >= 1);
  });
}

test('the tall rule: ≥ 64 rows and ≥ 4× the columns', () => {
  assert.equal(isTall(63, 6), false);
  assert.equal(isTall(64, 6), true);
  assert.equal(isTall(100, 30), false);
  assert.equal(isTall(120, 30), true);
});

test('a scene with 100 distance rods on one body: the tall path gives what the symmetric solver gives on A', () => {
  const cons = Array.from({ length: 100 }, (_, i) => {
    const t = i * 2.4, z = 1 - (2 * (i + 0.5)) / 100, s = Math.sqrt(1 - z * z);
    return { name: `d${i}`, type: 'distance', bodyA: 'world', bodyB: 'B', anchorA: [3 * s * Math.cos(t), 3 * s * Math.sin(t), 3 * z], anchorB: [0.1 * Math.cos(i), 0.1 * Math.sin(i), 0.02 * ((i % 7) - 3)] };
  });
  const text = JSON.stringify({ bodies: [{ name: 'B', mass: 2, inertia: [1, 2, 3], position: [0, 0, 0], orientation: [0.9, 0.1, 0.3, 0.2] }], constraints: cons });
  const p = parseScene(text);
  assert.ok(p.scene, JSON.stringify(p.diagnostics));
  const world = buildWorld(p.scene);
  const asm = assemble(world, p.scene.bodies.map(initialState));
  assert.ok(islandIsTall(islandsOf(world)[0]));
  const out = solveSystem(world, asm, p.scene.solver, { exactCondMaxRows: 1000, wantSpectrum: true });
  const b = out.b;
  const ref = new SymmetricSolver().solve(asm.A, b, { method: 'auto', exactCondMaxRows: 1000, wantSpectrum: true });
  assert.equal(out.rank, ref.rank);
  assert.equal(out.rank, 6);
  assert.deepEqual(out.dependent.map((d) => d.row), ref.dependent.map((d) => d.row));
  assert.equal(out.consistent, ref.consistent);
  assert.equal(out.cond, Infinity);
  const ln = Math.sqrt(ref.x.reduce((s, x) => s + x * x, 0));
  for (let i = 0; i < 100; i++) assert.ok(Math.abs(out.lambda[i] - ref.x[i]) <= 1e-7 * ln, `λ${i}`);
  for (let i = 0; i < 6; i++) assert.ok(Math.abs(out.singularValues![i] - ref.singularValues![i]) <= 1e-10 * ref.singularValues![0]);
});
