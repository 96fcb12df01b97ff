// The bilateral rows of a PGS island as one block per sweep (`solver.pgs.bilateral: "block"`,
// contact/bilateralBlock.ts): the factor solves W·x = b as a dense solve does and drops dependent rows;
// with the block, PGS reaches the engine's exact velocity-level solve in one sweep where row by row
// it needs hundreds on a chain with a large mass ratio, and a box resting on the ground under a
// hinge chain still carries the chain's weight.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Matrix, solve } from 'ml-matrix';
import { assemble } from '../../src/engine/assembly/assemble';
import { solveSystem } from '../../src/engine/kkt/kkt';
import { solveContactsPgs } from '../../src/engine/contact/pgs';
import { BilateralBlock } from '../../src/engine/contact/bilateralBlock';
import { body, boxInertia, boxPlaneContacts, joint, normalSum, scene, spherePlaneContacts, velocitySettings, worldOf } from './contact-helpers';
import { rng as prng } from './linalg-fixtures';

test('BilateralBlock: x = W⁻¹b as ml-matrix solves it; a row that repeats earlier ones is dependent and gets 0', () => {
  const rng = prng(7);
  const n = 9, m = 14;
  const J = Matrix.rand(n, m, { random: rng }).sub(0.5);
  const W = J.mmul(J.transpose()).add(Matrix.eye(n).mul(1e-3));
  const b = Array.from({ length: n }, () => rng() - 0.5);
  const block = new BilateralBlock(n, (j, out) => out.set(W.getColumn(j)));
  const x = new Float64Array(n);
  block.solve(b, x);
  const ref = solve(W, Matrix.columnVector(b)).getColumn(0);
  assert.equal(block.dependentRows, 0);
  for (let i = 0; i < n; i++) assert.ok(Math.abs(x[i] - ref[i]) < 1e-9 * Math.max(1, Math.abs(ref[i])), `x[${i}] ${x[i]} vs ${ref[i]}`);
  // row 3 = row 0 + row 1 (a redundant loop row): W is singular; the independent rows' system is solved
  const Jd = J.clone();
  Jd.setRow(3, J.getRow(0).map((v, k) => v + J.getRow(1)[k]));
  const Wd = Jd.mmul(Jd.transpose());
  const dep = new BilateralBlock(n, (j, out) => out.set(Wd.getColumn(j)));
  assert.equal(dep.dependentRows, 1);
  const bd = Wd.mmul(Matrix.columnVector(Array.from({ length: n }, () => rng() - 0.5))).getColumn(0); // consistent right side
  dep.solve(bd, x);
  assert.equal(x[3], 0);
  const r = Wd.mmul(Matrix.columnVector([...x])).getColumn(0).map((v, i) => v - bd[i]);
  assert.ok(Math.max(...r.map(Math.abs)) < 1e-9, `residual ${Math.max(...r.map(Math.abs))}`);
});

test('PGS with the block: a chain with a mass ratio of 10⁴ reaches the exact velocity-level solve in one sweep; row by row it has not after 200', () => {
  const s = scene(
    [
      body('a', 10, boxInertia(10, [0.05, 0.05, 0.5]), [0, 0, -0.5], { angularVelocity: [0, 1, 0] }),
      body('b', 0.001, boxInertia(0.001, [0.05, 0.05, 0.5]), [0, 0, -1.5], { velocity: [0.2, 0, 0] }),
      body('c', 1, boxInertia(1, [0.05, 0.05, 0.5]), [0, 0, -2.5]),
    ],
    [
      joint('hinge', 'a', 'world', { anchorA: [0, 0, 0.5], axisA: [0, 1, 0], axisB: [0, 1, 0] }),
      joint('hinge', 'b', 'a', { anchorA: [0, 0, 0.5], anchorB: [0, 0, -0.5], axisA: [0, 1, 0], axisB: [0, 1, 0] }),
      joint('ball', 'c', 'b', { anchorA: [0, 0, 0.5], anchorB: [0, 0, -0.5] }),
    ],
  );
  const { world, states } = worldOf(s);
  const ref = solveSystem(world, assemble(world, states), s.solver, { exactCondMaxRows: 100, wantSpectrum: false });
  const run = (bilateral: 'rows' | 'block', iterations: number) => solveContactsPgs(world, states, [], velocitySettings({ pgs: { iterations, tolerance: 1e-9, bilateral } }), s.solver.dt);
  const block = run('block', 200);
  assert.ok(block.converged && block.iterations <= 2, `block: ${block.iterations} sweeps`);
  for (let i = 0; i < ref.uPlus.length; i++) assert.ok(Math.abs(block.uPlus[i] - ref.uPlus[i]) < 1e-9, `u⁺[${i}] ${block.uPlus[i]} vs ${ref.uPlus[i]}`);
  const rows = run('rows', 200);
  assert.ok(!rows.converged, `row by row converged in ${rows.iterations} sweeps`);
});

test('PGS with the block and contacts: a box on the ground under a two-link hinge chain carries the chain and itself (Σ R_n = (m_box + m_chain)·g at rest)', () => {
  const g = 9.81;
  const s = scene(
    [
      body('box', 2, boxInertia(2, [0.25, 0.25, 0.1]), [0, 0, 0.1]),
      body('l1', 0.5, boxInertia(0.5, [0.02, 0.02, 0.2]), [0, 0, 0.4]),
      body('l2', 0.01, boxInertia(0.01, [0.02, 0.02, 0.2]), [0, 0, 0.8]),
    ],
    [
      joint('hinge', 'l1', 'box', { anchorA: [0, 0, -0.2], anchorB: [0, 0, 0.1], axisA: [0, 1, 0], axisB: [0, 1, 0] }),
      joint('hinge', 'l2', 'l1', { anchorA: [0, 0, -0.2], anchorB: [0, 0, 0.2], axisA: [0, 1, 0], axisB: [0, 1, 0] }),
    ],
  );
  const { world, states } = worldOf(s);
  const contacts = boxPlaneContacts(states, 0, [0.25, 0.25, 0.1], [0, 0, 1], 0, 0.01, 0.5);
  const rep = solveContactsPgs(world, states, contacts, velocitySettings({ pgs: { iterations: 500, tolerance: 1e-10, bilateral: 'block' } }), s.solver.dt);
  assert.ok(rep.converged, `residual ${rep.residual} after ${rep.iterations}`);
  const total = normalSum(contacts, rep.contacts, -1);
  assert.ok(Math.abs(total - 2.51 * g) < 1e-6, `Σ R_n ${total}`);
});

test('PGS with the block: the feet of light legs under a heavy torso step in the joints\' reduced space (a few sweeps), at the fixed point row-by-row sweeps reach', (t) => {
  const g = 9.81;
  const leg = (name: string, x: number) => body(name, 0.05, boxInertia(0.05, [0.02, 0.02, 0.15]), [x, 0, 0.2]);
  const s = scene(
    [leg('left', -0.2), leg('right', 0.2), body('torso', 10, boxInertia(10, [0.3, 0.1, 0.05]), [0, 0, 0.4])],
    [
      joint('hinge', 'left', 'torso', { anchorA: [0, 0, 0.15], anchorB: [-0.2, 0, -0.05], axisA: [0, 1, 0], axisB: [0, 1, 0] }),
      joint('hinge', 'right', 'torso', { anchorA: [0, 0, 0.15], anchorB: [0.2, 0, -0.05], axisA: [0, 1, 0], axisB: [0, 1, 0] }),
    ],
  );
  const { world, states } = worldOf(s);
  // each leg ends in a point foot: a sphere of radius 0.2 about the leg's centre touches the floor at the leg's bottom
  const contacts = [0, 1].flatMap((i) => spherePlaneContacts(states, i, 0.2, [0, 0, 1], 0, 0.01, 0.8));
  assert.equal(contacts.length, 2);
  const run = (bilateral: 'rows' | 'block', iterations: number) => solveContactsPgs(world, states, contacts, velocitySettings({ pgs: { iterations, tolerance: 1e-10, bilateral } }), s.solver.dt);
  const block = run('block', 300);
  t.diagnostic(`sweeps: block ${block.iterations}`);
  assert.ok(block.converged && block.iterations <= 10, `block: ${block.iterations} sweeps, residual ${block.residual}`);
  const W = 10.1 * g;
  assert.ok(Math.abs(normalSum(contacts, block.contacts, -1) - W) < 1e-8 * W, `Σ R_n ${normalSum(contacts, block.contacts, -1)}`);
  const rows300 = run('rows', 300);
  assert.ok(!rows300.converged, `row by row converged in ${rows300.iterations} sweeps`);
  const rows = run('rows', 100000);
  t.diagnostic(`sweeps: row by row ${rows.iterations}`);
  assert.ok(rows.converged, `row by row: residual ${rows.residual} after ${rows.iterations}`);
  for (let i = 0; i < rows.uPlus.length; i++) assert.ok(Math.abs(block.uPlus[i] - rows.uPlus[i]) < 1e-8, `u⁺[${i}] ${block.uPlus[i]} vs ${rows.uPlus[i]}`);
});

test('PGS with the block: an island of 300 bilateral rows (a 60-link hinge chain, dm_control\'s dog has 287) is still one block and reaches the exact solve in a sweep or two', () => {
  const n = 60;
  const bodies = Array.from({ length: n }, (_, k) => {
    // masses alternating over four decades, as a spine and a tail of small vertebrae do
    const m = k % 2 === 0 ? 1 : 1e-4;
    return body(`l${k}`, m, boxInertia(m, [0.02, 0.02, 0.1]), [0, 0, -0.1 - 0.2 * k], k === n - 1 ? { velocity: [0.3, 0, 0] } : {});
  });
  const joints = bodies.map((_, k) =>
    joint('hinge', `l${k}`, k === 0 ? 'world' : `l${k - 1}`, { anchorA: [0, 0, 0.1], ...(k === 0 ? {} : { anchorB: [0, 0, -0.1] }), axisA: [0, 1, 0], axisB: [0, 1, 0] }),
  );
  const s = scene(bodies, joints);
  const { world, states } = worldOf(s);
  const ref = solveSystem(world, assemble(world, states), s.solver, { exactCondMaxRows: 0, wantSpectrum: false });
  const block = solveContactsPgs(world, states, [], velocitySettings({ pgs: { iterations: 200, tolerance: 1e-9, bilateral: 'block' } }), s.solver.dt);
  assert.ok(block.converged && block.iterations <= 2, `block: ${block.iterations} sweeps`);
  for (let i = 0; i < ref.uPlus.length; i++) assert.ok(Math.abs(block.uPlus[i] - ref.uPlus[i]) < 1e-8, `u⁺[${i}] ${block.uPlus[i]} vs ${ref.uPlus[i]}`);
});
