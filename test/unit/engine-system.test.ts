// Assembly, solve, analysis and stepping checked against independent dense computations (ml-matrix)
// and against hand-derived cases: redundancy, conflicts, islands, formulations, NaN detection.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Matrix, solve as mlSolve } from 'ml-matrix';
import { inspectScene, simulateScene, Simulation, parseScene, Codes } from '../../src/engine';
import { blockDiagonalCsr, csrToDense as csrRows } from '../../src/shared';

const example = (name: string) => readFileSync(join(__dirname, '../../examples', name), 'utf8');
const maxAbsDiff = (a: number[][], b: number[][]) => Math.max(0, ...a.flatMap((r, i) => r.map((x, j) => Math.abs(x - b[i][j]))));

/** A moving scene with every constraint type, rotated bodies and velocities (a stress test for assembly). */
function mixedScene(stabilization: string, formulation = 'acceleration'): string {
  return JSON.stringify({
    name: 'mixed',
    solver: { dt: 0.01, alpha: 3, beta: 0.5, stabilization, formulation, erp: 0.3 },
    bodies: [
      { name: 'a', mass: 2, inertia: [0.3, 0.2, 0.4], position: [0, 0, 1], orientation: [0.1, 0.2, 0.05, 0.97], velocity: [0.1, -0.2, 0.3], angularVelocity: [0.5, -0.3, 0.2] },
      { name: 'b', mass: 1.5, inertia: [[0.2, 0.01, 0], [0.01, 0.3, 0.02], [0, 0.02, 0.25]], position: [1, 0.2, 1.1], orientation: [-0.1, 0.3, 0.1, 0.94], velocity: [0, 0.4, -0.1], angularVelocity: [-0.2, 0.6, 0.1] },
      { name: 'c', mass: 3, inertia: [0.5, 0.5, 0.5], position: [1.1, 1.2, 0.9], angularVelocity: [0.1, 0.1, -0.4], force: [1, 0, 0], torque: [0, 0.2, 0] },
      { name: 'd', mass: 1, inertia: [0.1, 0.1, 0.1], position: [2, 1, 1], velocity: [0.3, 0, 0] },
      { name: 'e', mass: 0.5, inertia: [0.05, 0.06, 0.07], position: [3, 1, 1.2] },
    ],
    constraints: [
      { type: 'distance', bodyA: 'world', bodyB: 'a', anchorA: [0, 0, 2], anchorB: [0.1, 0, 0.2] },
      { type: 'ball', bodyA: 'a', bodyB: 'b', anchorA: [0.5, 0.1, 0], anchorB: [-0.5, -0.1, 0] },
      { type: 'hinge', bodyA: 'b', bodyB: 'c', anchorA: [0.05, 0.5, 0], anchorB: [0, -0.6, 0.1], axisA: [0, 0, 1], axisB: [0.1, 0, 1] },
      { type: 'slider', bodyA: 'c', bodyB: 'd', anchorA: [0.3, 0, 0], anchorB: [-0.5, 0, 0], axisA: [1, 0, 0] },
      { type: 'fixed', bodyA: 'd', bodyB: 'e', anchorA: [0.5, 0, 0.1], anchorB: [-0.5, 0, -0.1] },
      { type: 'lock', bodyA: 'e', bodyB: 'world', linear: [false, true, false], angular: [true, false, false] },
    ],
  });
}

test('block-sparse assembly and KKT solve equal a dense solve of the full KKT system (every type, every stabilisation)', () => {
  for (const stab of ['aerislab', 'baumgarte', 'none']) {
    const r = inspectScene(mixedScene(stab));
    assert.equal(r.hasErrors, false, JSON.stringify(r.diagnostics.filter((d) => d.severity === 'error')));
    const s = r.snapshot!;
    const n = s.J.cols;
    const m = s.J.rows;
    assert.equal(n, 30);
    assert.equal(m, 1 + 3 + 5 + 5 + 6 + 2);
    const Minv = new Matrix(csrRows(blockDiagonalCsr(s.MinvBlocks, 6)));
    const J = new Matrix(csrRows(s.J));
    const Adense = J.mmul(Minv).mmul(J.transpose());
    assert.ok(maxAbsDiff(csrRows(s.A!), Adense.to2DArray()) < 1e-12, 'A = J·M⁻¹·Jᵀ');
    // full KKT: [M −Jᵀ; J 0] [a; λ] = [F; rhs]
    const M = new Matrix(csrRows(blockDiagonalCsr(s.MinvBlocks, 6))).to2DArray();
    const Mfull = new Matrix(M.length, M.length);
    for (let k = 0; k < n / 6; k++) {
      const blk = new Matrix(6, 6);
      for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) blk.set(i, j, M[k * 6 + i][k * 6 + j]);
      const inv = mlSolve(blk, Matrix.eye(6));
      for (let i = 0; i < 6; i++) for (let j = 0; j < 6; j++) Mfull.set(k * 6 + i, k * 6 + j, inv.get(i, j));
    }
    const K = new Matrix(n + m, n + m);
    K.setSubMatrix(Mfull, 0, 0);
    K.setSubMatrix(J.transpose().mul(-1), 0, n);
    K.setSubMatrix(J, n, 0);
    const rhs = Matrix.columnVector([...s.F, ...s.rhs]);
    const x = mlSolve(K, rhs).to1DArray();
    for (let i = 0; i < n; i++) assert.ok(Math.abs(x[i] - s.a[i]) < 1e-9 * (1 + Math.abs(x[i])), `${stab}: a[${i}] ${s.a[i]} vs ${x[i]}`);
    for (let i = 0; i < m; i++) assert.ok(Math.abs(x[n + i] - s.lambda[i]) < 1e-8 * (1 + Math.abs(x[n + i])), `${stab}: λ[${i}] ${s.lambda[i]} vs ${x[n + i]}`);
    // rhs formulas
    for (let i = 0; i < m; i++) {
      const expected =
        stab === 'aerislab' ? -(1 + 0.5) * s.Cdot[i] - 3 * s.C[i] : stab === 'baumgarte' ? s.rhs[i] /* checked via J̇v below */ : s.rhs[i];
      assert.ok(Math.abs(s.rhs[i] - expected) < 1e-12);
    }
    // Ċ = J·v
    const Jv = J.mmul(Matrix.columnVector(Array.from(s.v))).to1DArray();
    for (let i = 0; i < m; i++) assert.ok(Math.abs(Jv[i] - s.Cdot[i]) < 1e-12);
    assert.ok(s.residual < 1e-9, `residual ${s.residual}`);
    assert.equal(s.method, 'cholesky');
    assert.equal(s.islands.length, 1);
  }
});

test('baumgarte and none use J̇v: rhs(none) = −J̇v and rhs(baumgarte) = rhs(none) − β·Ċ − α·C', () => {
  const none = inspectScene(mixedScene('none')).snapshot!;
  const bg = inspectScene(mixedScene('baumgarte')).snapshot!;
  for (let i = 0; i < none.rhs.length; i++) assert.ok(Math.abs(bg.rhs[i] - (none.rhs[i] - 0.5 * bg.Cdot[i] - 3 * bg.C[i])) < 1e-12);
  assert.ok(none.rhs.some((x) => Math.abs(x) > 1e-6), 'a moving scene has non-zero J̇v');
});

test('velocity formulation: W = h·J·M⁻¹·Jᵀ, B = J·(u + h·M⁻¹F), (W)·R = −B − (erp/h)·C, u⁺ satisfies J·u⁺ = −(erp/h)·C', () => {
  const s = inspectScene(mixedScene('aerislab', 'velocity')).snapshot!;
  assert.ok(s.W && s.B && s.R);
  const h = 0.01;
  const A = csrRows(s.A!);
  const W = csrRows(s.W!);
  assert.ok(maxAbsDiff(W, A.map((r) => r.map((x) => h * x))) < 1e-15);
  const J = new Matrix(csrRows(s.J));
  const free = Array.from(s.v, (v, i) => v + h * s.a0[i]);
  const B = J.mmul(Matrix.columnVector(free)).to1DArray();
  for (let i = 0; i < B.length; i++) assert.ok(Math.abs(B[i] - s.B![i]) < 1e-12);
  const uPlus = Array.from(s.v, (v, i) => v + h * s.a[i]);
  const U = J.mmul(Matrix.columnVector(uPlus)).to1DArray();
  for (let i = 0; i < U.length; i++) assert.ok(Math.abs(U[i] + (0.3 / h) * s.C[i]) < 1e-9, `U[${i}]`);
  assert.deepEqual(Array.from(s.R!), Array.from(s.lambda));
});

test('two identical rods: the later one is named redundant with coefficient 1; minimum-norm λ splits the load', () => {
  const r = inspectScene(example('redundant-rods.scene.json'));
  const s = r.snapshot!;
  assert.equal(s.rank.J, 1);
  assert.equal(s.cond.A, null);
  assert.equal(s.consistent, true);
  assert.equal(s.method, 'lstsq');
  assert.deepEqual(s.redundant, [{ constraint: 'rod2', row: 0, dependsOn: [{ constraint: 'rod1', row: 0, coefficient: 1 }] }]);
  assert.ok(Math.abs(s.lambda[0] - s.lambda[1]) < 1e-12 * Math.abs(s.lambda[0]));
  assert.ok(s.residual < 1e-9);
  const d = r.diagnostics.find((x) => x.code === Codes.redundantConstraint)!;
  assert.ok(d, 'CL301 reported');
  assert.match(d.message, /rod2/);
  assert.equal(d.related?.length, 1);
  assert.ok(d.fixes?.[0].title.includes('Remove'));
  assert.equal(s.constraints[1].status, 'redundant');
});

test('planar square with both diagonals: exactly one redundant row, the last diagonal, with coefficients that reproduce it', () => {
  const s = inspectScene(example('square-diagonals.scene.json')).snapshot!;
  assert.equal(s.rank.J, 5);
  assert.equal(s.redundant.length, 1);
  assert.equal(s.redundant[0].constraint, 'diagonal2');
  assert.equal(s.redundant[0].dependsOn.length, 5);
  const J = csrRows(s.J);
  const recon = J[0].map((_, j) => s.redundant[0].dependsOn.reduce((acc, d) => acc + d.coefficient * J[s.rows.findIndex((r) => r.constraint === d.constraint)][j], 0));
  for (let j = 0; j < recon.length; j++) assert.ok(Math.abs(recon[j] - J[5][j]) < 1e-9, `column ${j}`);
  assert.equal(s.consistent, true);
});

test('conflicting rods: inconsistent redundancy, least-squares λ, CL302 error', () => {
  const r = inspectScene(example('conflicting-rods.scene.json'));
  const s = r.snapshot!;
  assert.equal(s.consistent, false);
  assert.ok(s.residual > 1e-3);
  assert.ok(r.diagnostics.some((d) => d.code === Codes.conflictingConstraints && d.severity === 'error'));
  assert.ok(r.diagnostics.some((d) => d.code === Codes.initialViolation));
  assert.equal(r.hasErrors, true);
});

test('islands: two separate pendulums are solved separately, each with its own size and conditioning', () => {
  const text = JSON.stringify({
    bodies: [
      { name: 'p1', mass: 1, position: [1, 0, 0] },
      { name: 'p2', mass: 1000, position: [0, 5, -1] },
    ],
    constraints: [
      { type: 'ball', bodyA: 'world', bodyB: 'p1', anchorB: [-1, 0, 0] },
      { type: 'distance', bodyA: 'world', bodyB: 'p2', anchorA: [0, 5, 0] },
    ],
  });
  const s = inspectScene(text).snapshot!;
  assert.equal(s.islands.length, 2);
  assert.deepEqual(s.islands.map((i) => i.rows), [3, 1]);
  assert.deepEqual(s.islands.map((i) => i.bodies), [['p1'], ['p2']]);
  // global κ from the union of the islands' spectra
  const sv = Array.from(s.singularValues!);
  assert.equal(sv.length, 4);
  assert.ok(Math.abs(s.cond.A! - sv[0] / sv[3]) < 1e-9 * s.cond.A!);
});

test('ill-conditioning: a 1e-9 mass ratio raises CL303 with κ and the scaled κ', () => {
  const text = JSON.stringify({
    bodies: [
      { name: 'heavy', mass: 1e9, position: [0, 0, 0] },
      { name: 'light', mass: 1, position: [1, 0, 0] },
      { name: 'tiny', mass: 1e-3, position: [2, 0, 0] },
    ],
    constraints: [
      { type: 'distance', bodyA: 'heavy', bodyB: 'light' },
      { type: 'distance', bodyA: 'light', bodyB: 'tiny' },
      { type: 'distance', bodyA: 'world', bodyB: 'heavy', anchorA: [0, 0, 1] },
    ],
  });
  const r = inspectScene(text);
  assert.ok(r.snapshot!.cond.A! > 1e6);
  const d = r.diagnostics.find((x) => x.code === Codes.illConditioned);
  assert.ok(d, JSON.stringify(r.diagnostics.map((x) => x.code)));
  assert.ok(r.snapshot!.cond.scaled! < r.snapshot!.cond.A!);
});

test('over-constrained: more rows than DOFs is reported', () => {
  const text = JSON.stringify({
    bodies: [{ name: 'b', mass: 1 }],
    constraints: [
      { type: 'fixed', bodyA: 'world', bodyB: 'b' },
      { type: 'ball', bodyA: 'world', bodyB: 'b', anchorA: [0, 0, 0] },
    ],
  });
  const r = inspectScene(text);
  assert.ok(r.diagnostics.some((d) => d.code === Codes.overConstrained));
  assert.ok(r.diagnostics.some((d) => d.code === Codes.redundantConstraint));
});

test('a force of 1.7e308 is caught at step 0 by inspect (CL403 on F of the body, an error) and no run starts', () => {
  const text = JSON.stringify({ bodies: [{ name: 'rocket', mass: 0.5, force: [1.7e308, 0, 0] }], solver: { steps: 10 } });
  const out = simulateScene(text);
  const d = out.inspect.diagnostics.find((x) => x.code === Codes.overflow)!;
  assert.ok(d, JSON.stringify(out.inspect.diagnostics));
  assert.equal(d.severity, 'error');
  assert.match(d.message, /initial state \(step 0\)/);
  assert.match(d.message, /applied force\/torque F .* of body `rocket`/);
  assert.deepEqual(d.data, { step: 0, quantity: 'F', owner: { kind: 'body', name: 'rocket', index: 0 }, value: 1.7e308, reason: 'overflow' });
  assert.equal(out.result, undefined);
  assert.equal(out.inspect.hasErrors, true);
});

test('a run that overflows stops at the first step and quantity (CL403), with the divergence explained (CL404)', () => {
  // α = 1e100 with dt = 0.01: ρ ≈ h²α, so the rod's error is multiplied by ~1e96 per step
  const text = JSON.stringify({
    solver: { dt: 0.01, steps: 50, alpha: 1e100, beta: 1, stabilization: 'baumgarte' },
    bodies: [{ name: 'bob', mass: 1, position: [1, 0, 0] }],
    constraints: [{ name: 'rod', type: 'distance', bodyA: 'world', bodyB: 'bob' }],
  });
  const out = simulateScene(text);
  const d = out.inspect.diagnostics.find((x) => x.code === Codes.overflow)!;
  assert.ok(d, JSON.stringify(out.inspect.diagnostics));
  const step = d.data!.step as number;
  assert.equal(out.result!.stoppedAt, step);
  assert.equal(out.result!.steps.length, step - 1);
  for (const r of out.result!.steps) for (const x of [...r.C, ...r.lambda, r.energy.total]) assert.ok(Math.abs(x) <= 1e150, `step ${r.step}: ${x}`);
  // step 1 moves the bob by ~1e-3 (gravity); step 2's rhs α·C ≈ 5e93 throws it ~5e89 m away: C = ½(|d|² − L²) ≈ 1e179
  assert.equal(step, 2);
  assert.equal(d.data!.quantity, '|C|');
  const why = out.inspect.diagnostics.find((x) => x.code === Codes.divergence)!;
  assert.ok(why);
  assert.equal(why.data!.cause, 'gains');
  assert.ok(out.inspect.diagnostics.some((x) => x.code === Codes.unstableStabilization), 'inspect warns before the run');
});

test('drift: without stabilisation a pendulum drifts and CL402 is reported once, with the step', () => {
  const text = JSON.stringify({
    solver: { dt: 0.02, steps: 200, stabilization: 'none', driftTolerance: 1e-4 },
    bodies: [{ name: 'bob', mass: 1, position: [1, 0, 0], velocity: [0, 0, -2] }],
    constraints: [{ name: 'rod', type: 'distance', bodyA: 'world', bodyB: 'bob' }],
  });
  const out = simulateScene(text);
  const ds = out.inspect.diagnostics.filter((x) => x.code === Codes.drift);
  assert.equal(ds.length, 1);
  assert.match(ds[0].message, /step \d+/);
});

test('history: snapshotAt(k) reproduces the state the run had at step k (checkpoints + re-simulation)', () => {
  const p = parseScene(example('chain.scene.json'));
  const sim = new Simulation(p.scene!, p.sourceMap);
  sim.step(30);
  const s10 = sim.snapshotAt(10);
  const rec10 = sim.records[9];
  assert.equal(s10.step, 10);
  s10.bodyStates.forEach((b, i) => {
    for (let d = 0; d < 3; d++) assert.equal(b.position[d], rec10.poses[i * 7 + d]);
  });
  const s30 = sim.snapshotAt(30);
  assert.equal(s30.step, 30);
  assert.ok(s30.bodyStates[9].position[2] < 0, 'the chain falls');
  sim.reset();
  assert.equal(sim.currentStep, 0);
  assert.deepEqual(sim.snapshotAt(0).bodyStates[0].position, [0.05, 0, 0]);
});

test('every example inspects and runs without internal errors', () => {
  for (const f of ['chain', 'double-pendulum', 'hanging-mass', 'horizontal-rod', 'hybrid-anchor-payload', 'redundant-rods', 'square-diagonals', 'conflicting-rods', 'velocity-pendulum']) {
    const out = simulateScene(example(`${f}.scene.json`), 50);
    assert.ok(!out.inspect.diagnostics.some((d) => d.code === Codes.internalError), `${f}: ${JSON.stringify(out.inspect.diagnostics)}`);
    assert.ok(out.result, f);
    for (const s of out.result!.steps) for (const c of s.C) assert.ok(Number.isFinite(c), f);
  }
});

test('double pendulum: energy is nearly conserved and hinge constraints hold (baumgarte)', () => {
  const out = simulateScene(example('double-pendulum.scene.json'), 400);
  const st = out.result!.steps;
  const e0 = st[0].energy.total;
  const e1 = st[st.length - 1].energy.total;
  // semi-implicit Euler on a chaotic system: a few per cent in 2 s, not an explosion
  assert.ok(Math.abs(e1 - e0) < 0.05 * Math.abs(e0), `energy ${e0} → ${e1}`);
  for (const s of st) for (const c of s.C) assert.ok(c < 2e-2, `|C| = ${c}`);
});
