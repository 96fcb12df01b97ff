// The seed notebooks' numbers (AerisLab walkthrough and HybridSolver), to 1e-12 relative.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inspectScene, simulateScene } from '../../src/engine';
import { csrToDense as csrRows } from '../../src/shared';

const example = (name: string) => readFileSync(join(__dirname, '../../examples', name), 'utf8');

function close(actual: number, expected: number, rel = 1e-12, what = '') {
  const err = Math.abs(actual - expected);
  const scale = Math.max(Math.abs(expected), 1e-300);
  assert.ok(err <= rel * scale || err === 0, `${what}: ${actual} vs ${expected} (rel err ${err / scale})`);
}

test('horizontal rod: J, C, rhs, A = [[1.2]], λ = 0, free fall (walkthrough sections 1–7)', () => {
  const r = inspectScene(example('horizontal-rod.scene.json'));
  assert.equal(r.hasErrors, false, JSON.stringify(r.diagnostics));
  const s = r.snapshot!;
  assert.deepEqual(s.bodies, ['Body_A', 'Body_B']);
  assert.deepEqual(csrRows(s.J).map((r) => r.map((x) => x + 0)), [[-2, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0]]);
  assert.deepEqual(Array.from(s.C, (x) => x + 0), [0]);
  assert.deepEqual(Array.from(s.rhs, (x) => x + 0), [0]);
  close(csrRows(s.A!)[0][0], 1.2, 1e-12, 'A');
  assert.equal(Math.abs(s.lambda[0]) < 1e-12, true, `λ = ${s.lambda[0]}`);
  for (const k of [2, 8]) close(s.a[k], -9.81, 1e-12, `a_z[${k}]`);
  for (const k of [0, 1, 3, 4, 5, 6, 7, 9, 10, 11]) assert.ok(Math.abs(s.a[k]) < 1e-12);
  // M⁻¹ blocks: [I/m, R·I⁻¹·Rᵀ]
  assert.equal(s.MinvBlocks[0], 0.1);
  assert.equal(s.MinvBlocks[3 * 6 + 3], 1);
  assert.equal(s.MinvBlocks[36], 0.2);
  assert.equal(s.MinvBlocks[36 + 3 * 6 + 3], 2);
  // F = [m·g, 0]
  close(s.F[2], -98.1, 1e-12, 'F_z(A)');
  close(s.F[8], -49.05, 1e-12, 'F_z(B)');
  assert.equal(s.method, 'cholesky');
  assert.equal(s.rank.J, 1);
  close(s.cond.A!, 1, 1e-12, 'κ of a 1×1 A');
});

test('hanging mass: A = 0.800004, b = −19.62, λ = −24.5248773756…, rod force +49.0497… N (walkthrough bonus)', () => {
  const r = inspectScene(example('hanging-mass.scene.json'));
  assert.equal(r.hasErrors, false, JSON.stringify(r.diagnostics));
  const s = r.snapshot!;
  const A = 4 * (1e-6 + 0.2);
  close(csrRows(s.A!)[0][0], A, 1e-12, 'A');
  close(csrRows(s.A!)[0][0], 0.800004, 1e-12, 'A');
  close(s.b[0], -19.62, 1e-12, 'b');
  close(s.lambda[0], -19.62 / A, 1e-12, 'λ');
  close(s.lambda[0], -24.524877375613, 1e-12, 'λ (seed digits)');
  // force on the hanging mass = J_Bᵀ λ, linear part
  const rod = s.constraints[0];
  assert.equal(rod.forceB[0], 0);
  assert.equal(rod.forceB[1], 0);
  close(rod.forceB[2], 49.049754751, 1e-10, 'F_z on Hanging_Mass (seed digits given to 11 places)');
  close(rod.forceB[2], (2 * 19.62) / A, 1e-12, 'F_z on Hanging_Mass');
  close(s.constraintForce[8], rod.forceB[2], 1e-15, 'Jᵀλ');
  // a_z(Hanging_Mass) ≈ −4.9e−5
  close(s.a[8], -9.81 + (0.2 * 2 * 19.62) / A, 1e-9, 'a_z');
  assert.ok(Math.abs(s.a[8] + 4.9e-5) < 1e-6, `a_z = ${s.a[8]}`);
  assert.equal(s.method, 'cholesky');
});

test('hybrid anchor + payload: A = [[0.804]], λ = 0, distance still 2 m after 100 steps (HybridSolver notebook)', () => {
  const text = example('hybrid-anchor-payload.scene.json');
  const r = inspectScene(text);
  close(csrRows(r.snapshot!.A!)[0][0], 0.804, 1e-12, 'A');
  assert.ok(Math.abs(r.snapshot!.lambda[0]) < 1e-12);
  const sim = simulateScene(text, 100);
  assert.equal(sim.result!.steps.length, 100);
  const [a, p] = sim.result!.final.bodies;
  const d = Math.hypot(a.position[0] - p.position[0], a.position[1] - p.position[1], a.position[2] - p.position[2]);
  close(d, 2, 1e-12, 'distance after 100 steps');
  // the pair free-falls: z(t) = z0 − g·dt²·n(n+1)/2 with semi-implicit Euler
  const n = 100, dt = 0.01;
  close(p.position[2], -9.81 * dt * dt * (n * (n + 1)) / 2, 1e-12, 'payload z (semi-implicit Euler free fall)');
  for (const s of sim.result!.steps) assert.ok(Math.abs(s.C[0]) < 1e-9);
});
