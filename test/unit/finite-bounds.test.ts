// The finite checks of the stepping path that prove "nothing is bad" from bounds instead of reading
// every entry (nonFinite.ts; reading every entry cost a large part of a step): A = J·M⁻¹·Jᵀ is bounded by (Σ|J|)²·Σ|M⁻¹|, the constraint forces
// J_Xᵀλ by Σ|λ|·(Σ|J| + the blocks of ends without columns). When a bound does not hold, the values are
// searched as before: an A or a force that overflows while its factors do not is still found.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseScene } from '../../src/engine/scene/parse';
import { assemble, assemblyBuffers, buildWorld } from '../../src/engine/assembly/assemble';
import { assembleAValues } from '../../src/engine/assembly/aPairs';
import { checkAssembly, checkSolve, checkSystem } from '../../src/engine/guards/nonFinite';
import { solveSystem, SolveScratch } from '../../src/engine/kkt/kkt';
import { initialState } from '../../src/engine/model/body';
import { chainParams, chainSceneText } from '../../bench/chain';

test('checkAssembly: an A beyond ±1e150 from J and M⁻¹ within it is found (the bound does not hold, A is searched)', () => {
  const scene = parseScene(chainSceneText(chainParams(4))).scene!;
  const world = buildWorld(scene);
  const asm = assemble(world, scene.bodies.map(initialState));
  assert.equal(checkAssembly(world, asm), undefined);
  // J ~ 1e30 and M⁻¹ ~ 1e100 are within ±1e150; A = J·M⁻¹·Jᵀ ~ 1e160 is not
  for (let i = 0; i < asm.minvCompact.length; i++) asm.minvCompact[i] *= 1e100;
  for (let i = 0; i < asm.J.values.length; i++) asm.J.values[i] *= 1e30;
  assembleAValues(world.aPlan, world.aRowPtr, asm.J.values, asm.minvCompact, asm.A.values);
  const f = checkAssembly(world, asm);
  assert.equal(f?.symbol, 'A');
  assert.equal(f?.reason, 'overflow');
  // the same J with M⁻¹ ~ 1e80: A ~ 1e140 passes (the bound fails, the search finds nothing)
  for (let i = 0; i < asm.minvCompact.length; i++) asm.minvCompact[i] *= 1e-20;
  assembleAValues(world.aPlan, world.aRowPtr, asm.J.values, asm.minvCompact, asm.A.values);
  assert.equal(checkAssembly(world, asm), undefined);
});

test('checkSolve: the constraint forces are bounded by Σ|λ|·(Σ|J| + the world ends’ blocks); beyond it they are searched', () => {
  const scene = parseScene(chainSceneText(chainParams(4))).scene!;
  const world = buildWorld(scene);
  const asm = assemble(world, scene.bodies.map(initialState));
  const scratch = new SolveScratch();
  const out = solveSystem(world, asm, scene.solver, { exactCondMaxRows: 12, wantSpectrum: false }, scratch);
  const sJ = asm.J.values.reduce((s, x) => s + Math.abs(x), 0);
  assert.equal(checkSystem(world, asm, out, { bound: scratch.finiteBound }), undefined);
  assert.equal(checkSolve(world, out, true, scratch.finiteBound, sJ), undefined);
  // the pin's world end (constraint 0, end B) is not in J: a huge entry there makes a force overflow
  // although λ and J are moderate, and the bound (which counts that block) sends it to the search
  world.evals[0].JB[0] = 1e149;
  out.lambda[0] = 100;
  const bound = out.lambda.reduce((s, x) => s + Math.abs(x), 0);
  const f = checkSolve(world, out, true, bound, sJ);
  assert.equal(f?.symbol, 'force');
  assert.equal(f?.owner?.index, 0);
  // a block J holds (joint0's end A, row 3): J_X·λ beyond 1e150 with λ and J within it, J and the
  // constraint's own block agreeing as after an assembly — the bound fails and the search finds it
  world.evals[0].JB[0] = -1;
  out.lambda[0] = 0;
  world.evals[1].JA[0] = 10;
  asm.J.values[world.jOffA[3]] = 10;
  out.lambda[3] = 0.5e150;
  const sJ2 = asm.J.values.reduce((s, x) => s + Math.abs(x), 0);
  const g = checkSolve(world, out, true, out.lambda.reduce((s, x) => s + Math.abs(x), 0), sJ2);
  assert.equal(g?.symbol, 'force');
  assert.equal(g?.owner?.index, 1);
});

test('checkAssembly: Σ|x| in four partial sums still finds a NaN, ±∞ or an entry beyond ±1e150 at every position of every array', () => {
  // the chain of 5 links: J has 15·12 values, the arrays' lengths are not all multiples of 4 (the tails count too)
  const scene = parseScene(chainSceneText(chainParams(5))).scene!;
  const world = buildWorld(scene);
  const fresh = () => assemble(world, scene.bodies.map(initialState));
  assert.equal(checkAssembly(world, fresh()), undefined);
  const arrays = (a: ReturnType<typeof fresh>) => ({ F: a.F, 'M⁻¹': a.minvCompact, C: a.C, Ċ: a.Cdot, J̇v: a.Jdotv, J: a.J.values });
  for (const [symbol, n] of Object.entries(arrays(fresh())).map(([s, x]) => [s, x.length] as const)) {
    for (let i = 0; i < n; i++) {
      for (const bad of [NaN, Infinity, -Infinity, 2e150, -2e150]) {
        const asm = fresh();
        arrays(asm)[symbol as keyof ReturnType<typeof arrays>][i] = bad;
        const f = checkAssembly(world, asm);
        // the search in order (F, M⁻¹, C, Ċ, J̇v, J, then A) names the array the bad entry is in
        assert.equal(f?.symbol, symbol, `${symbol}[${i}] = ${bad}`);
        assert.equal(f?.reason, Number.isFinite(bad) ? 'overflow' : 'non-finite', `${symbol}[${i}] = ${bad}`);
      }
    }
  }
});

test('checkSystem with the sums an assembly into stepping buffers formed: the plain sums up to rounding, and a bad J, M⁻¹, F, C, Ċ or J̇v is still found', () => {
  const scene = parseScene(chainSceneText(chainParams(5))).scene!;
  const world = buildWorld(scene);
  const states = scene.bodies.map(initialState);
  states[2].w[1] = 0.7; // a gyroscopic term in F and a nonzero Ċ
  states[3].v[0] = -0.4;
  const still = () => states.forEach((st) => (st.v.fill(0), st.w.fill(0)));
  const into = assemblyBuffers(world);
  const plain = (x: ArrayLike<number>) => Array.from(x).reduce((s, v) => s + Math.abs(v), 0);
  const fresh = () => assemble(world, states, false, into);
  let asm = fresh();
  const close = (a: number, b: number, what: string) => assert.ok(Math.abs(a - b) <= 1e-12 * Math.abs(b) && b > 0, `${what}: ${a} vs ${b}`);
  close(into.absJ, plain(asm.J.values), 'Σ|J|');
  close(into.absM, plain(asm.minvCompact), 'Σ|M⁻¹|');
  close(into.absRest, plain(asm.F) + plain(asm.C) + plain(asm.Cdot) + plain(asm.Jdotv), 'Σ|F, C, Ċ, J̇v|');
  const solve = () => {
    const scratch = new SolveScratch();
    const out = solveSystem(world, asm, scene.solver, { exactCondMaxRows: 12, wantSpectrum: false }, scratch);
    return checkSystem(world, asm, out, { bound: scratch.finiteBound, sums: into });
  };
  assert.equal(solve(), undefined);
  still(); // at rest: a huge J entry leaves Ċ and J·a₀ finite (it multiplies zeros), so J itself is named
  // a bad value in a constraint's evaluation (J, C, J̇v) or a body (F, M⁻¹, Ċ through v) reaches the sums
  const cases: [string, () => void][] = [
    ['J', () => (world.evals[3].JA[4] = 2e150)],
    ['C', () => (world.evals[1].C[2] = Infinity)],
    ['J̇v', () => (world.evals[3].Jdotv[0] = -2e150)],
  ];
  for (const [symbol, spoil] of cases) {
    asm = fresh(); // evaluates the constraints afresh, then one value is spoiled and assembled as evaluated
    spoil();
    asm = assemble(world, states, true, into);
    assert.equal(solve()?.symbol, symbol, symbol);
  }
  const spoilState: [string, () => void, () => void][] = [
    ['F', () => (scene.bodies[1].force[2] = 3e150), () => (scene.bodies[1].force[2] = 0)],
    ['Ċ', () => (states[4].v[1] = 2e150), () => (states[4].v[1] = 0)],
  ];
  for (const [symbol, spoil, undo] of spoilState) {
    spoil();
    asm = fresh();
    assert.equal(solve()?.symbol, symbol, symbol);
    undo();
  }
  const inv = world.bodies[1].invInertia;
  const keep = inv[0];
  inv[0] = Infinity;
  asm = fresh();
  assert.equal(solve()?.symbol, 'M⁻¹', 'M⁻¹');
  inv[0] = keep;
});
