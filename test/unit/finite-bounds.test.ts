// The finite checks of the stepping path that prove "nothing is bad" from bounds instead of reading
// every entry (finite.ts, issue 9): A = J·M⁻¹·Jᵀ is bounded by (Σ|J|)²·Σ|M⁻¹|, the constraint forces
// J_Xᵀλ by Σ|λ|·(Σ|J| + the blocks of ends without columns). When a bound does not hold, the values are
// searched as before: an A or a force that overflows while its factors do not is still found.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseScene } from '../../src/engine/scene/parse';
import { assemble, buildWorld } from '../../src/engine/assemble';
import { assembleAValues } from '../../src/engine/aPlan';
import { checkAssembly, checkSolve, checkSystem } from '../../src/engine/finite';
import { solveSystem, SolveScratch } from '../../src/engine/kkt';
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
