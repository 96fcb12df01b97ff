// The finite checks of the stepping path that prove "nothing is bad" from bounds instead of reading
// every entry (finite.ts, issue 9): A = J·M⁻¹·Jᵀ is bounded by (Σ|J|)²·Σ|M⁻¹|. When that bound
// does not hold, A is searched as before: an A that overflows while J and M⁻¹ do not is still found.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseScene } from '../../src/engine/scene/parse';
import { assemble, buildWorld } from '../../src/engine/assemble';
import { assembleAValues } from '../../src/engine/aPlan';
import { checkAssembly } from '../../src/engine/finite';
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
