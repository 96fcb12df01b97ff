// W is the Delassus operator h·J·M⁻¹·Jᵀ exactly as Solfec's local dynamics define it (seed
// solfec-local-dynamics.rst, eq. W0); A is J·M⁻¹·Jᵀ exactly (AerisLab). The compliance Σ = c·I is
// reported beside them (`compliance`) and only enters the matrix solved. And tall islands: A (and W)
// not formed, with the reason, while rank, redundancy and λ still come out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inspectScene } from '../../src/engine';
import { blockDiagonalCsr, csrToDense } from '../../src/shared';
import { inspectJson } from '../../src/cli/json';
import { tallSceneText } from '../../bench/tall';

/** Two bodies in a chain (ball + distance), an off-diagonal inertia, a given formulation and compliance. */
function scene(formulation: 'velocity' | 'acceleration', compliance: number): string {
  return JSON.stringify({
    solver: { dt: 0.02, formulation, compliance, erp: 0.2 },
    bodies: [
      { name: 'A', mass: 2, inertia: [[0.3, 0.01, 0], [0.01, 0.2, 0], [0, 0, 0.25]], position: [1, 0, 0], orientation: [0, 0, 0.3826834, 0.9238795] },
      { name: 'B', mass: 0.5, inertia: [0.05, 0.06, 0.07], position: [2, 0.5, 0] },
    ],
    constraints: [
      { name: 'pin', type: 'ball', bodyA: 'world', bodyB: 'A', anchorA: [0, 0, 0], anchorB: [-1, 0, 0] },
      { name: 'rod', type: 'distance', bodyA: 'A', bodyB: 'B', anchorA: [0.5, 0, 0], anchorB: [0, -0.2, 0] },
    ],
  });
}

/** J·M⁻¹·Jᵀ from the snapshot's own J and M⁻¹ (dense, independent of the engine's assembly). */
function jmj(J: number[][], Minv: number[][]): number[][] {
  const m = J.length, n = Minv.length;
  const JM = J.map((row) => Array.from({ length: n }, (_, j) => row.reduce((s, x, k) => s + x * Minv[k][j], 0)));
  return Array.from({ length: m }, (_, i) => Array.from({ length: m }, (_, j) => JM[i].reduce((s, x, k) => s + x * J[j][k], 0)));
}

const close = (a: number[][], b: number[][], tol: number, what: string) => {
  for (let i = 0; i < a.length; i++) for (let j = 0; j < a[i].length; j++) assert.ok(Math.abs(a[i][j] - b[i][j]) <= tol * (1 + Math.abs(b[i][j])), `${what}[${i}][${j}]: ${a[i][j]} vs ${b[i][j]}`);
};

const mulVec = (M: number[][], x: ArrayLike<number>) => M.map((row) => row.reduce((s, v, j) => s + v * x[j], 0));

test('velocity formulation: W = h·J·M⁻¹·Jᵀ exactly, Σ beside it; R solves (W + Σ)·R = b', () => {
  const c = 1e-3;
  const r = inspectScene(scene('velocity', c));
  assert.equal(r.hasErrors, false, JSON.stringify(r.diagnostics));
  const s = r.snapshot!;
  const J = csrToDense(s.J);
  const Minv = csrToDense(blockDiagonalCsr(s.MinvBlocks, 6));
  const h = 0.02;
  const W = csrToDense(s.W!);
  close(W, jmj(J, Minv).map((row) => row.map((x) => h * x)), 1e-13, 'W');
  close(csrToDense(s.A!), jmj(J, Minv), 1e-13, 'A');
  assert.equal(s.compliance, c);
  // the matrix solved is W + Σ: (W + c·I)·R = b
  const WR = mulVec(W, s.R!);
  WR.forEach((x, i) => assert.ok(Math.abs(x + c * s.R![i] - s.b[i]) < 1e-10 * (1 + Math.abs(s.b[i])), `row ${i}`));
  // and not W·R = b (Σ matters here, so a W with Σ folded in would be caught above)
  assert.ok(WR.some((x, i) => Math.abs(x - s.b[i]) > 1e-8));
  // inspect --json: W and A without Σ, compliance beside them
  const json = JSON.parse(inspectJson(s, r.diagnostics));
  close(json.W, W, 0, 'json W');
  assert.equal(json.compliance, c);
  assert.equal(json.omitted, undefined);
});

test('acceleration formulation: A = J·M⁻¹·Jᵀ exactly (no Σ); λ solves (A + Σ)·λ = b; no W', () => {
  const c = 1e-2;
  const s = inspectScene(scene('acceleration', c)).snapshot!;
  const A = csrToDense(s.A!);
  close(A, jmj(csrToDense(s.J), csrToDense(blockDiagonalCsr(s.MinvBlocks, 6))), 1e-13, 'A');
  assert.equal(s.W, undefined);
  assert.equal(s.compliance, c);
  mulVec(A, s.lambda).forEach((x, i) => assert.ok(Math.abs(x + c * s.lambda[i] - s.b[i]) < 1e-10 * (1 + Math.abs(s.b[i])), `row ${i}`));
  // without compliance, Σ = 0 and nothing changes
  assert.equal(inspectScene(scene('acceleration', 0)).snapshot!.compliance, 0);
});

test('tall island past the dense budget: A and W not formed (omitted.A says why); rank, redundancy and λ still exact', () => {
  const r = inspectScene(tallSceneText(600));
  const s = r.snapshot!;
  assert.equal(s.A, undefined);
  assert.match(s.omitted!.A!, /not formed for the 600 rows of a tall island on 6 velocity columns/);
  assert.equal(s.rank.J, 6);
  assert.equal(s.redundant.length, 594);
  // λ is the minimum-norm solution of A·λ = b: check A·λ = b through J and M⁻¹ (consistent system)
  const J = csrToDense(s.J);
  const Minv = csrToDense(blockDiagonalCsr(s.MinvBlocks, 6));
  const MJl = mulVec(Minv, J[0].map((_, k) => J.reduce((acc, row, i) => acc + row[k] * s.lambda[i], 0)));
  const Al = mulVec(J, MJl);
  Al.forEach((x, i) => assert.ok(Math.abs(x - s.b[i]) < 1e-8 * (1 + Math.abs(s.b[i])), `row ${i}: ${x} vs ${s.b[i]}`));
  // the first 500 redundant constraints one by one, the other 94 in one more diagnostic
  const redundant = r.diagnostics.filter((d) => d.code === 'CL301-redundant-constraint');
  assert.equal(redundant.length, 501);
  assert.match(redundant[500].message, /^94 more constraints, from `d506` on, are redundant too/);
  const json = JSON.parse(inspectJson(s, r.diagnostics));
  assert.equal(json.A, undefined);
  assert.equal(json.omitted.A, s.omitted!.A);
  // the velocity formulation leaves W out with A
  const v = JSON.parse(tallSceneText(600));
  v.solver = { formulation: 'velocity' };
  const sv = inspectScene(JSON.stringify(v)).snapshot!;
  assert.equal(sv.W, undefined);
  assert.ok(sv.omitted?.A);
});

test('a small tall island is still formed: A shown, same rank and redundancy', () => {
  const s = inspectScene(tallSceneText(100)).snapshot!;
  assert.equal(s.omitted, undefined);
  assert.equal(s.A!.rows, 100);
  assert.equal(s.rank.J, 6);
  assert.equal(s.redundant.length, 94);
});
