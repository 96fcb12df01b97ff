// The 3×3 block kernels of the sparse solve path (faster than scalar loops; blockLdl.ts, blockKernels.ts, aPairs.ts's
// unrolled 3×3 pairs) against the scalar reference paths: the block LDLᵀ against cholesky.ts's scalar
// factor (L, D, pivots, failures, solves) and ml-matrix; the residual and the 3×3 pairs of A bit for
// bit against the general loops; and whole solves (λ, κ estimate, rank, residual) of every example
// scene and of ball chains and trees with the block kernels on and off.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Matrix, solve as mlSolve } from 'ml-matrix';
import { analyze, factor, type Factor } from '../../src/engine/linalg/cholesky';
import { blockPlanOf, factorBlocked, useBlockKernels } from '../../src/engine/linalg/blockLdl';
import { blockResidual, symmetricNorm1 } from '../../src/engine/linalg/blockKernels';
import { csrMulVec, csrNorm1, csrToDense } from '../../src/engine/linalg/sparse';
import type { CsrMatrix } from '../../src/engine/linalg/contracts';
import { assembleAValues } from '../../src/engine/assembly/aPairs';
import { assemble, buildWorld, type World } from '../../src/engine/assembly/assemble';
import { solveSystem } from '../../src/engine/kkt/kkt';
import { type BodyState, initialState } from '../../src/engine/model/body';
import { parseScene, Simulation } from '../../src/engine';
import type { SceneSpec } from '../../src/engine/scene/spec';
import { chainParams, chainSceneText } from '../../bench/chain';
import { chainSystem, csrFromDense, rng } from './linalg-fixtures';

/** A tree of `n` bodies joined by ball joints: body k > 0 hangs from body ⌊(k−1)/b⌋ (b children a body), body 0 from the world. */
function ballTreeText(n: number, b: number): string {
  const bodies = Array.from({ length: n }, (_, k) => ({ name: `t${k}`, mass: 0.5 + (k % 3) * 0.3, inertia: [0.01 + 0.002 * (k % 4), 0.02, 0.015], position: [0.1 * k, 0.05 * (k % 5), 0] }));
  const constraints = [{ name: 'pin', type: 'ball', bodyA: 'world', bodyB: 't0', anchorA: [0, 0, 0.05] }];
  for (let k = 1; k < n; k++) constraints.push({ name: `j${k}`, type: 'ball', bodyA: `t${Math.floor((k - 1) / b)}`, bodyB: `t${k}`, anchorA: [0.05, 0.01 * (k % 3), 0] });
  return JSON.stringify({ name: 'ball tree', solver: { dt: 0.005, steps: 10 }, bodies, constraints });
}

function parsed(text: string) {
  const p = parseScene(text);
  assert.ok(p.scene && !p.hasErrors, JSON.stringify(p.diagnostics.filter((d) => d.severity === 'error')));
  return { scene: p.scene, sourceMap: p.sourceMap };
}
const sceneOf = (text: string): SceneSpec => parsed(text).scene;

/** Body states moved and turned away from the scene's (so that A is not the initial, axis-aligned one). */
function randomStates(world: World, seed: number): BodyState[] {
  const rand = rng(seed);
  return world.scene.bodies.map((spec) => {
    const s = initialState(spec);
    for (let d = 0; d < 3; d++) {
      s.p[d] += 0.05 * (rand() - 0.5);
      s.v[d] = rand() - 0.5;
      s.w[d] = 2 * (rand() - 0.5);
    }
    const q = [rand() - 0.5, rand() - 0.5, rand() - 0.5, 1];
    const nq = Math.hypot(...q);
    for (let d = 0; d < 4; d++) s.q[d] = q[d] / nq;
    return s;
  });
}

/** A of ball chains and trees: the assembled engine systems and the fixtures' synthetic chains. */
function blockSystems(): { name: string; A: CsrMatrix }[] {
  const out: { name: string; A: CsrMatrix }[] = [];
  for (const nb of [1, 2, 7, 60]) out.push({ name: `fixture chain ${nb}`, A: chainSystem(nb, nb + 2).A });
  for (const [name, text] of [
    ['bench chain 25', chainSceneText(chainParams(25))],
    ['binary tree 31', ballTreeText(31, 2)],
    ['star-ish tree 20 (5 children a body)', ballTreeText(20, 5)],
  ] as const) {
    const world = buildWorld(sceneOf(text));
    for (const seed of [1, 2]) out.push({ name: `${name} seed ${seed}`, A: assemble(world, randomStates(world, seed)).A });
  }
  return out;
}

function sameBits(a: ArrayLike<number>, b: ArrayLike<number>, what: string): void {
  assert.equal(a.length, b.length, `${what}: length`);
  for (let i = 0; i < a.length; i++) assert.ok(Object.is(a[i], b[i]), `${what}[${i}]: ${a[i]} vs ${b[i]}`);
}

const relErr = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let num = 0, den = 0;
  for (let i = 0; i < a.length; i++) {
    num = Math.max(num, Math.abs(a[i] - b[i]));
    den = Math.max(den, Math.abs(b[i]));
  }
  return num / Math.max(den, 1e-300);
};

function sameFactor(G: Factor, F: Factor, what: string): void {
  assert.deepEqual(Array.from(G.Li), Array.from(F.Li), `${what}: Li`);
  assert.ok(relErr(G.Lx, F.Lx) <= 1e-12, `${what}: Lx ${relErr(G.Lx, F.Lx)}`);
  for (let k = 0; k < F.D.length; k++) assert.ok(Math.abs(G.D[k] - F.D[k]) <= 1e-12 * Math.abs(F.D[k]), `${what}: D[${k}] ${G.D[k]} vs ${F.D[k]}`);
  assert.equal(G.negativePivots, F.negativePivots, `${what}: negative pivots`);
  assert.ok(Math.abs(G.minPivotRatio - F.minPivotRatio) <= 1e-12 * Math.abs(F.minPivotRatio), `${what}: min pivot ratio`);
}

test('block LDLᵀ = the scalar LDLᵀ (L, D, pivots, solves; bit for bit on these chains and trees), and its solves = ml-matrix', () => {
  const rand = rng(4);
  for (const { name, A } of blockSystems()) {
    const sym = analyze(A, { ordering: 'natural' });
    assert.ok(blockPlanOf(sym), `${name}: a block plan`);
    for (const shift of [0, 0.25]) {
      const F = factor(A, sym, { shift, onSmallPivot: 'stop' });
      const G = factorBlocked(A, sym, { shift, onSmallPivot: 'stop' });
      assert.ok(F.ok && G && G.ok, `${name}: both factor`);
      sameFactor(G, F, `${name} shift ${shift}`);
      // where the scalar path visits the columns of each row in ascending order (a chain's path-shaped
      // elimination tree, and these trees), every sum is taken in the same order: the same numbers bit for bit
      sameBits(G.Lx, F.Lx, `${name}: Lx`);
      sameBits(G.D, F.D, `${name}: D`);
      assert.ok(Object.is(G.minPivotRatio, F.minPivotRatio));
      const bb = Float64Array.from({ length: A.rows }, () => rand() - 0.5);
      sameBits(G.solve(bb), F.solve(bb), `${name}: solve`);
      const M = new Matrix(csrToDense(A)).add(Matrix.eye(A.rows).mul(shift));
      for (let rep = 0; rep < 2; rep++) {
        const b = Float64Array.from({ length: A.rows }, () => rand() - 0.5);
        const x: Float64Array = G.solve(b);
        assert.ok(relErr(x, F.solve(b)) <= 1e-12, `${name}: solve vs scalar ${relErr(x, F.solve(b))}`);
        const ref = mlSolve(M, Matrix.columnVector(Array.from(b))).getColumn(0);
        assert.ok(relErr(x, ref) <= 1e-9, `${name}: solve vs ml-matrix ${relErr(x, ref)}`);
        // in place (out = b) as the condition estimate's callers may do
        const y = Float64Array.from(b);
        G.solve(y, y);
        assert.deepEqual(Array.from(y), Array.from(x));
      }
    }
  }
});

test("block LDLᵀ in 'indefinite' mode, and its stops ('stop' on an indefinite or singular matrix) at the scalar path's step", () => {
  for (const { name, A } of blockSystems()) {
    const n = A.rows;
    const sym = analyze(A, { ordering: 'natural' });
    // A − σ·I with σ half the mean diagonal: indefinite (A's smallest eigenvalues are far below its mean diagonal)
    const diag: number[] = [];
    for (let i = 0; i < n; i++) for (let p = A.rowPtr[i]; p < A.rowPtr[i + 1]; p++) if (A.colIdx[p] === i) diag.push(A.values[p]);
    const sigma = -0.5 * diag.reduce((a, b) => a + b, 0) / n;
    const Fi = factor(A, sym, { shift: sigma, onSmallPivot: 'indefinite' });
    const Gi = factorBlocked(A, sym, { shift: sigma, onSmallPivot: 'indefinite' });
    assert.ok(Gi);
    assert.equal(Gi.ok, Fi.ok, `${name}: indefinite mode`);
    if (Fi.ok && Gi.ok) sameFactor(Gi, Fi, `${name} indefinite`);
    if (n > 3) {
      const Fs = factor(A, sym, { shift: sigma, onSmallPivot: 'stop' });
      const Gs = factorBlocked(A, sym, { shift: sigma, onSmallPivot: 'stop' });
      assert.ok(!Fs.ok && Gs && !Gs.ok, `${name}: stop mode refuses A − σI`);
      assert.equal(Gs.step, Fs.step);
      assert.equal(Gs.reason, Fs.reason);
    }
    // a block row of zeros (the pattern kept): singular at its first row
    const K = Math.floor(n / 6);
    const Z = { ...A, values: A.values.slice() };
    for (let i = 0; i < n; i++)
      for (let p = A.rowPtr[i]; p < A.rowPtr[i + 1]; p++) if (Math.floor(i / 3) === K || Math.floor(A.colIdx[p] / 3) === K) Z.values[p] = 0;
    const Fz = factor(Z, sym, { onSmallPivot: 'stop', reuse: true });
    const Gz = factorBlocked(Z, sym, { onSmallPivot: 'stop', reuse: true });
    assert.ok(!Fz.ok && Gz && !Gz.ok, `${name}: singular`);
    assert.equal(Gz.step, 3 * K);
    assert.equal(Gz.step, Fz.step);
    assert.equal(Gz.reason, 'singular');
    assert.ok(Gz.message.startsWith(`pivot ${3 * K + 1} of ${n} (row ${3 * K}) is `), Gz.message);
    // a stopped factorisation leaves no trace: the next one with the same symbolic equals a fresh one
    const after = factorBlocked(A, sym, { onSmallPivot: 'stop', reuse: true });
    const fresh = factorBlocked(A, analyze(A, { ordering: 'natural' }), { onSmallPivot: 'stop' });
    assert.ok(after && after.ok && fresh && fresh.ok);
    assert.deepEqual(Array.from(after.Lx), Array.from(fresh.Lx));
    assert.deepEqual(Array.from(after.D), Array.from(fresh.D));
  }
});

test('block factors: reuse writes the symbolic’s buffers only, a factor made without reuse is never overwritten', () => {
  const A1 = chainSystem(12, 1).A;
  const A2 = chainSystem(12, 2).A;
  const sym = analyze(A1, { ordering: 'natural' });
  const kept = factorBlocked(A1, sym);
  assert.ok(kept && kept.ok);
  const Lx = kept.Lx.slice();
  const D = kept.D.slice();
  const F2 = factorBlocked(A2, sym, { reuse: true });
  const F3 = factorBlocked(A1, sym, { reuse: true });
  const F4 = factorBlocked(A2, sym);
  assert.ok(F2 && F2.ok && F3 && F3.ok && F4 && F4.ok);
  assert.deepEqual(Array.from(kept.Lx), Array.from(Lx));
  assert.deepEqual(Array.from(kept.D), Array.from(D));
  assert.equal(F2.Lx, F3.Lx, 'reuse writes the symbolic’s buffer');
  assert.notEqual(F4.Lx, F3.Lx);
  assert.notEqual(kept.Lx, F3.Lx);
});

test('no block plan where the scalar path must stay: AMD ordering, rows not in 3×3 blocks, the reject mode, the kernels switched off', () => {
  const A = chainSystem(20, 3).A;
  assert.equal(blockPlanOf(analyze(A, { ordering: 'amd' })), null);
  // hinge chains: 5 rows a joint
  const hinge = JSON.stringify({
    name: 'hinges',
    solver: { dt: 0.005, steps: 1 },
    bodies: Array.from({ length: 6 }, (_, k) => ({ name: `h${k}`, mass: 1, inertia: [0.01, 0.01, 0.01], position: [0.1 * k, 0, 0] })),
    constraints: Array.from({ length: 6 }, (_, k) => ({ name: `j${k}`, type: 'hinge', bodyA: k ? `h${k - 1}` : 'world', bodyB: `h${k}`, anchorA: [k ? 0.05 : 0, 0, 0], anchorB: [-0.05, 0, 0], axisA: [0, 1, 0] })),
  });
  const world = buildWorld(sceneOf(hinge));
  const H = assemble(world, randomStates(world, 1)).A;
  assert.equal(blockPlanOf(analyze(H, { ordering: 'natural' })), null);
  // a 3-multiple size whose blocks are not whole (a random sparse pattern)
  const rand = rng(8);
  const d: number[][] = Array.from({ length: 9 }, (_, i) => Array.from({ length: 9 }, (_, j) => (i === j ? 10 : 0)));
  d[4][0] = d[0][4] = rand();
  assert.equal(blockPlanOf(analyze(csrFromDense(d), { ordering: 'natural' })), null);
  const sym = analyze(A, { ordering: 'natural' });
  assert.equal(factorBlocked(A, sym, { onSmallPivot: 'reject' }), null);
  const was = useBlockKernels(false);
  try {
    assert.equal(factorBlocked(A, sym), null);
  } finally {
    useBlockKernels(was);
  }
  assert.ok(factorBlocked(A, sym));
});

test('block residual = the scalar residual bit for bit; the symmetric row-sum norm = csrNorm1 bit for bit (NaN kept)', () => {
  const rand = rng(6);
  for (const { name, A } of blockSystems()) {
    const n = A.rows;
    const x = Float64Array.from({ length: n }, () => rand() - 0.5);
    const b = Float64Array.from({ length: n }, () => rand() - 0.5);
    for (const shift of [0, 1e-3]) {
      const r = new Float64Array(n);
      const norm = blockResidual(A, shift, x, b, r);
      const Ax = csrMulVec(A, x);
      let s = 0;
      for (let i = 0; i < n; i++) {
        const ri = b[i] - Ax[i] - shift * x[i];
        assert.ok(Object.is(r[i], ri), `${name}: r[${i}]`);
        s += ri * ri;
      }
      assert.ok(Object.is(norm, Math.sqrt(s)), `${name}: ‖r‖`);
    }
    const n1 = csrNorm1(A);
    assert.ok(Object.is(symmetricNorm1(A), n1), `${name}: ‖A‖₁`);
    const bad = { ...A, values: A.values.slice() };
    bad.values[bad.values.length >> 1] = NaN;
    assert.ok(Number.isNaN(symmetricNorm1(bad)));
  }
});

test('A = J·M⁻¹·Jᵀ: the unrolled 3×3 pairs give the general loop’s values bit for bit (chains, trees, a hinge/ball mix)', () => {
  const mixed = JSON.parse(ballTreeText(9, 2));
  mixed.constraints[3] = { name: 'h', type: 'hinge', bodyA: 't1', bodyB: 't4', anchorA: [0.05, 0, 0], axisA: [0, 0, 1] };
  for (const text of [chainSceneText(chainParams(12)), ballTreeText(31, 2), ballTreeText(20, 5), JSON.stringify(mixed)]) {
    const world = buildWorld(sceneOf(text));
    for (const seed of [1, 2, 3]) {
      const asm = assemble(world, randomStates(world, seed));
      const ref = assembleAValues(world.aPlan, world.aRowPtr, asm.J.values, asm.minvCompact, new Float64Array(asm.A.values.length), false);
      assert.deepEqual(Array.from(asm.A.values), Array.from(ref));
    }
  }
});

function scenes(): [string, string][] {
  const out: [string, string][] = [];
  for (const dir of [path.join(__dirname, '../../examples'), '/work/shared/examples']) {
    if (!fs.existsSync(dir)) continue;
    for (const f of fs.readdirSync(dir).sort()) if (f.endsWith('.scene.json')) out.push([`${path.basename(dir)}/${f}`, fs.readFileSync(path.join(dir, f), 'utf8')]);
  }
  out.push(['bench chain 40', chainSceneText(chainParams(40))], ['binary tree 31', ballTreeText(31, 2)], ['tree 20 (5 children a body)', ballTreeText(20, 5)]);
  return out;
}


test('every example scene and ball chains and trees: λ, κ estimate, rank, residual, method with the block kernels = the scalar path bit for bit', () => {
  for (const [name, text] of scenes()) {
    const { scene, sourceMap } = parsed(text);
    const world = buildWorld(scene);
    // states along a run, the initial ones and random ones
    const sim = new Simulation(scene, sourceMap, { stepExactCondMaxRows: 0 });
    const states: BodyState[][] = [randomStates(world, 1), scene.bodies.map(initialState)];
    for (let s = 0; s < 3 && !sim.stopped; s++) {
      sim.step(5);
      states.push(sim.result().final.bodies.map((b, i) => ({ ...initialState(scene.bodies[i]), p: [...b.position], q: [...b.orientation], v: [...b.velocity], w: [...b.angularVelocity] })));
    }
    for (const st of states) {
      const asm = assemble(world, st);
      const solveWith = (on: boolean) => {
        const was = useBlockKernels(on);
        try {
          // exact κ off: the sparse path (factor, refinement, κ estimate) for every island, as the stepping path at N > 12 rows
          return solveSystem(buildWorld(scene), asm, scene.solver, { exactCondMaxRows: 0, wantSpectrum: false, wantScaledCond: true });
        } finally {
          useBlockKernels(was);
        }
      };
      const ref = solveWith(false);
      const got = solveWith(true);
      assert.equal(got.method, ref.method, name);
      assert.equal(got.rank, ref.rank, name);
      assert.equal(got.condEstimated, ref.condEstimated, name);
      assert.deepEqual(got.dependent.map((d) => d.row), ref.dependent.map((d) => d.row), name);
      sameBits(got.lambda, ref.lambda, `${name}: λ`);
      sameBits(got.uPlus, ref.uPlus, `${name}: u⁺`);
      assert.ok(Object.is(got.cond, ref.cond), `${name}: κ ${got.cond} vs ${ref.cond}`);
      assert.ok(Object.is(got.condScaled, ref.condScaled), `${name}: scaled κ ${got.condScaled} vs ${ref.condScaled}`);
      assert.ok(Object.is(got.residual, ref.residual), `${name}: residual ${got.residual} vs ${ref.residual}`);
    }
  }
});

test('the world’s evaluation buffers: packed views with makeEval’s lengths, none overlapping another', () => {
  const mixed = JSON.parse(ballTreeText(9, 2));
  mixed.constraints[3] = { name: 'h', type: 'hinge', bodyA: 't1', bodyB: 't4', anchorA: [0.05, 0, 0], axisA: [0, 0, 1] };
  mixed.constraints.push({ name: 'd', type: 'distance', bodyA: 't2', bodyB: 't7' });
  const world = buildWorld(sceneOf(JSON.stringify(mixed)));
  const seen: [number, number][] = [];
  world.evals.forEach((ev, c) => {
    const r = world.constraints[c].rows;
    assert.deepEqual([ev.C.length, ev.JA.length, ev.JB.length, ev.Jdotv.length, ev.JX.length], [r, 6 * r, 6 * r, r, world.endX[c].length]);
    for (const a of [ev.C, ev.JA, ev.JB, ev.Jdotv, ...ev.JX]) seen.push([a.byteOffset, a.byteOffset + a.byteLength]);
  });
  seen.sort((x, y) => x[0] - y[0]);
  for (let i = 1; i < seen.length; i++) assert.ok(seen[i][0] >= seen[i - 1][1], 'views overlap');
});
