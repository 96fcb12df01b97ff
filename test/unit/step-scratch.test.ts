// The stepping path's buffer reuse (no allocation per step): Simulation.step solves into a scratch (kkt.ts
// SolveScratch), keeps |q|−1 and ‖C‖ in reused buffers and packs checkpoints into blocks. Its
// records must hold exactly what the fresh path (snapshots, which replay from the checkpoints and
// solve into fresh arrays) gives, and nothing a caller keeps may change afterwards.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseScene, Simulation } from '../../src/engine';
import { assemble, buildWorld } from '../../src/engine/assembly/assemble';
import { jMulVec, jRunsOf, jTransposeMulVec, rowSlotsOf } from '../../src/engine/assembly/jProducts';
import { csrMulVec, csrTransposeMulVec } from '../../src/engine/linalg/sparse';
import { solveSystem, SolveScratch } from '../../src/engine/kkt/kkt';
import { checkAssembly, checkSolve } from '../../src/engine/guards/nonFinite';
import { type BodyState, initialState } from '../../src/engine/model/body';
import { CheckpointPacker, pack, unpack } from '../../src/engine/stepping/packedStates';
import type { SceneSpec } from '../../src/engine/scene/spec';
import { chainParams, chainSceneText } from '../../bench/chain';

const example = (f: string) => fs.readFileSync(path.join(__dirname, '../../examples', f), 'utf8');
function withSolver(text: string, solver: Record<string, unknown>): string {
  const j = JSON.parse(text);
  Object.assign(j.solver, solver);
  return JSON.stringify(j);
}

const SCENES: [string, string][] = [
  ['bench chain, 10 links', chainSceneText(chainParams(10))],
  ['velocity formulation', example('velocity-pendulum.scene.json')],
  ['dependent rows (lstsq)', example('redundant-rods.scene.json')],
  ['compliance', withSolver(chainSceneText(chainParams(6)), { compliance: 1e-6 })],
  ['world-anchored payload', example('hybrid-anchor-payload.scene.json')],
];

function sceneOf(text: string): { scene: SceneSpec; sim: Simulation } {
  const p = parseScene(text);
  assert.ok(p.scene && !p.hasErrors);
  return { scene: p.scene, sim: new Simulation(p.scene, p.sourceMap) };
}

for (const [name, text] of SCENES) {
  test(`step records equal the fresh path's numbers (${name})`, () => {
    const { sim } = sceneOf(text);
    const recs = sim.step(30);
    assert.equal(recs.length, 30);
    const kept = JSON.stringify(recs);
    let before = sim.snapshotAt(0);
    for (let k = 1; k <= recs.length; k++) {
      const rec = recs[k - 1];
      const snap = sim.snapshotAt(k);
      // λ of step k is the solve from the state after step k − 1
      assert.deepEqual(rec.lambda, Array.from(before.lambda), `λ at step ${k}`);
      assert.equal(rec.method, before.method, `method at step ${k}`);
      assert.deepEqual(rec.C, snap.constraints.map((c) => c.violation), `‖C‖ at step ${k}`);
      assert.deepEqual(rec.energy, snap.energy, `energy at step ${k}`);
      assert.equal(rec.quatDrift, Math.max(...snap.bodyStates.map((b) => Math.abs(b.quatDrift))), `|q|−1 at step ${k}`);
      assert.deepEqual(rec.poses, snap.bodyStates.flatMap((b) => [...b.position, ...b.orientation]), `poses at step ${k}`);
      before = snap;
    }
    // later steps reuse the buffers: the records kept so far do not change
    sim.step(20);
    assert.equal(JSON.stringify(recs), kept);
    assert.equal(JSON.stringify(sim.records.slice(0, 30)), kept);
  });
}

test('solveSystem with a scratch gives the fresh output; fresh outputs are never overwritten', () => {
  for (const [name, text] of SCENES) {
    const { scene } = sceneOf(text);
    const world = buildWorld(scene);
    const states = scene.bodies.map(initialState);
    const moved = states.map((s) => ({ ...s, p: [s.p[0] + 0.01, s.p[1] - 0.02, s.p[2] + 0.005] as typeof s.p, v: [0.1, -0.2, 0.3] as typeof s.v }));
    const opts = { exactCondMaxRows: 12, wantSpectrum: true, wantScaledCond: false };
    const fresh1 = solveSystem(world, assemble(world, states), scene.solver, opts);
    const copy1 = structuredClone(fresh1);
    const scratch = new SolveScratch();
    const s1 = solveSystem(world, assemble(world, states), scene.solver, opts, scratch);
    assert.deepEqual(s1, fresh1, name);
    assert.ok(scratch.finiteBound <= 1e150, name);
    const fresh2 = solveSystem(world, assemble(world, moved), scene.solver, opts);
    const s2 = solveSystem(world, assemble(world, moved), scene.solver, opts, scratch);
    assert.deepEqual(s2, fresh2, name);
    if (world.nRows > 0) {
      assert.equal(s2.lambda, s1.lambda, `${name}: the scratch's λ buffer is reused`);
    }
    assert.deepEqual(fresh1, copy1, `${name}: a fresh output is not touched by later solves`);
  }
});

test('the one-pass finite checks: a false alarm near ±1e150 still finds nothing, a bad entry is still found in order', () => {
  const { scene } = sceneOf(chainSceneText(chainParams(4)));
  const world = buildWorld(scene);
  const asm = assemble(world, scene.bodies.map(initialState));
  assert.equal(checkAssembly(world, asm), undefined);
  // Σ|x| passes 1e150 though no entry does: the search runs and finds nothing
  asm.F[0] = 0.9e150;
  asm.F[1] = -0.9e150;
  asm.C[0] = 0.9e150;
  assert.equal(checkAssembly(world, asm), undefined);
  asm.C[2] = NaN;
  assert.equal(checkAssembly(world, asm)?.symbol, 'C');
  asm.F[4] = 1.1e150;
  const f = checkAssembly(world, asm);
  assert.equal(f?.symbol, 'F');
  assert.equal(f?.reason, 'overflow');

  const ok = assemble(world, scene.bodies.map(initialState));
  const scratch = new SolveScratch();
  const out = solveSystem(world, ok, scene.solver, { exactCondMaxRows: 12, wantSpectrum: false }, scratch);
  assert.equal(checkSolve(world, out, true, scratch.finiteBound), undefined);
  // without a bound (NaN) every vector is searched: the same answer, and a bad λ is found
  assert.equal(checkSolve(world, out), undefined);
  out.lambda[3] = Infinity;
  assert.equal(checkSolve(world, out)?.symbol, 'λ');
  // a force J_Xᵀλ beyond 1e150 although λ and J are not: found per constraint (the second one here)
  out.lambda[3] = 0.5e150;
  world.evals[1].JA[0] = 10;
  const force = checkSolve(world, out, true, 1);
  assert.equal(force?.symbol, 'force');
  assert.equal(force?.owner?.index, 1);
  world.evals[1].JA[0] = 0.1;
  assert.equal(checkSolve(world, out, true, 1), undefined);
});

test('world-derived data on the world: made once per world, the same products as the general kernels', () => {
  const p = parseScene(chainSceneText(chainParams(5)));
  assert.ok(p.scene);
  const w1 = buildWorld(p.scene);
  const w2 = buildWorld(p.scene);
  const s1 = rowSlotsOf(w1);
  assert.equal(rowSlotsOf(w1), s1, 'made once');
  assert.notEqual(rowSlotsOf(w2), s1, 'per world');
  assert.equal(jRunsOf(w1), true, "the chain's J is runs of 6");
  const states = p.scene.bodies.map(initialState);
  const asm = assemble(w1, states);
  solveSystem(w1, asm, p.scene.solver, { exactCondMaxRows: 0, wantSpectrum: false, skipAnalysis: true });
  assert.ok(w1.derived?.solvers, 'the solvers kept on the world');
  const x = Float64Array.from({ length: w1.nCols }, (_, i) => Math.sin(i + 1));
  const y = Float64Array.from({ length: w1.nRows }, (_, i) => Math.cos(i + 1));
  for (const runs of [true, undefined]) {
    assert.deepStrictEqual(jMulVec(asm.J, x, undefined, s1, runs), csrMulVec(asm.J, x));
    assert.deepStrictEqual(jTransposeMulVec(asm.J, y, undefined, s1, runs), csrTransposeMulVec(asm.J, y));
  }
  // told a pattern is not runs, the kernels take the general path (the same numbers)
  assert.deepStrictEqual(jMulVec(asm.J, x, undefined, undefined, false), csrMulVec(asm.J, x));
});

test('checkpoints: small ones are fresh plain arrays, large ones views into blocks; each holds pack()’s numbers and no later pack changes it', () => {
  for (const n of [1, 10, 78, 79, 300]) {
    const states: BodyState[] = Array.from({ length: n }, (_, i) => ({ p: [i, -i, 0.5], q: [0, 0, Math.sin(i), Math.cos(i)], v: [1e-3 * i, 0, -0], w: [0, 2, -i] }));
    const packer = new CheckpointPacker();
    const kept: { got: ArrayLike<number>; want: Float64Array }[] = [];
    for (let k = 0; k < 70; k++) {
      for (const st of states) st.p[0] += 0.25; // a new state per checkpoint
      kept.push({ got: packer.pack(states), want: pack(states) });
    }
    assert.equal(Array.isArray(kept[0].got), 13 * n <= 1024, `n = ${n}: plain array up to 1024 numbers`);
    for (const [k, { got, want }] of kept.entries()) {
      assert.equal(got.length, want.length);
      for (let i = 0; i < want.length; i++) assert.ok(Object.is(got[i], want[i]), `n = ${n}, checkpoint ${k}[${i}]`);
      assert.deepEqual(unpack(got), unpack(want));
    }
    assert.notEqual(kept[0].got, kept[1].got);
  }
});
