// J's structural zeros (ConstraintModel.rowMasks, issue 9): the entries a constraint type promises to
// write as exact zeros are +0 at every state (not only at axis-aligned ones), and the products that
// skip them (jRuns.ts with row slots, assemble.ts's Ċ) give the full products' values bit for bit
// (Object.is on every number). The A assembly's ball pairs are compared in linalg-block.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assemble, buildWorld, type World } from '../../src/engine/assemble';
import { jMulVec, jTransposeMulVec, rowSlotsOf } from '../../src/engine/jRuns';
import { csrMulVec, csrTransposeMulVec } from '../../src/engine/linalg/sparse';
import { type BodyState, initialState } from '../../src/engine/model/body';
import { parseScene } from '../../src/engine';
import { chainParams, chainSceneText } from '../../bench/chain';
import { rng } from './linalg-fixtures';

/** A chain of every type that declares row masks (ball, hinge, fixed, universal) and a distance rod, turned and moving. */
function mixedText(): string {
  const bodies = Array.from({ length: 6 }, (_, k) => ({ name: `b${k}`, mass: 1 + 0.2 * k, inertia: [0.01, 0.02 + 0.001 * k, 0.015], position: [0.1 * k, 0.02 * k, 0] }));
  const constraints = [
    { name: 'pin', type: 'ball', bodyA: 'world', bodyB: 'b0', anchorA: [-0.05, 0, 0], anchorB: [-0.05, 0, 0] },
    { name: 'h', type: 'hinge', bodyA: 'b0', bodyB: 'b1', anchorA: [0.05, 0, 0], anchorB: [-0.05, 0, 0], axisA: [0, 0, 1] },
    { name: 'u', type: 'universal', bodyA: 'b1', bodyB: 'b2', anchorA: [0.05, 0, 0], anchorB: [-0.05, 0, 0], axisA: [0, 1, 0], axisB: [0, 0, 1] },
    { name: 'f', type: 'fixed', bodyA: 'b2', bodyB: 'b3', anchorA: [0.05, 0, 0], anchorB: [-0.05, 0, 0] },
    { name: 'b', type: 'ball', bodyA: 'b3', bodyB: 'b4', anchorA: [0.05, 0.01, 0], anchorB: [-0.05, 0, 0.02] },
    { name: 'd', type: 'distance', bodyA: 'b4', bodyB: 'b5', anchorA: [0.05, 0, 0], anchorB: [-0.05, 0, 0] },
  ];
  return JSON.stringify({ name: 'mixed', solver: { dt: 0.005, steps: 10 }, bodies, constraints });
}

function worldOf(text: string): World {
  const p = parseScene(text);
  assert.ok(p.scene && !p.hasErrors, 'scene');
  return buildWorld(p.scene);
}

/** States moved, turned and spun away from the scene's (no lever arm stays axis-aligned). */
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

const sameBits = (a: ArrayLike<number>, b: ArrayLike<number>, what: string) => {
  assert.equal(a.length, b.length, `${what}: length`);
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) assert.fail(`${what}[${i}]: ${a[i]} vs ${b[i]}`);
};

const scenes: [string, string][] = [
  ['bench chain 10', chainSceneText(chainParams(10))],
  ['mixed types', mixedText()],
];

test('J structural zeros: every entry outside a row mask is +0 at random states, and the masks cover ball, hinge, fixed and universal rows', () => {
  const world = worldOf(mixedText());
  const declared = world.constraints.filter((c) => c.rowMasks).map((c) => c.spec.type);
  assert.deepEqual(declared, ['ball', 'hinge', 'universal', 'fixed', 'ball']);
  for (const seed of [1, 2, 3, 4]) {
    const asm = assemble(world, randomStates(world, seed));
    let checked = 0;
    for (let c = 0; c < world.constraints.length; c++) {
      const masks = world.constraints[c].rowMasks;
      if (!masks) continue;
      assert.equal(masks.length, world.constraints[c].rows, `${world.constraints[c].spec.name}: one mask a row`);
      const ev = world.evals[c];
      for (let r = 0; r < masks.length; r++)
        for (const block of [ev.JA, ev.JB])
          for (let j = 0; j < 6; j++) {
            const x = block[6 * r + j];
            if ((masks[r] >> j) & 1) continue;
            assert.ok(Object.is(x, 0), `${world.constraints[c].spec.name} row ${r} entry ${j}: ${x}`);
            checked++;
          }
    }
    assert.ok(checked > 50, 'zeros checked');
    // and the rows' other entries are generally nonzero at a turned state (the masks are not too wide)
    assert.ok(asm.J.values.some((x, p) => x !== 0 && p > 0));
  }
});

test('J structural zeros: J·x, Jᵀ·y and Ċ over the masked entries only equal the full products bit for bit', () => {
  for (const [name, text] of scenes) {
    const world = worldOf(text);
    const slots = rowSlotsOf(world);
    assert.ok(slots.some((s) => s >= 0), `${name}: some rows have slots`);
    for (const seed of [1, 2, 3]) {
      const asm = assemble(world, randomStates(world, seed));
      const rand = rng(100 + seed);
      const x = Float64Array.from({ length: world.nCols }, () => rand() - 0.5);
      // y with exact zeros (rows skipped by both kernels) and negative zeros
      const y = Float64Array.from({ length: world.nRows }, (_, i) => (i % 5 === 0 ? 0 : i % 7 === 0 ? -0 : rand() - 0.5));
      sameBits(jMulVec(asm.J, x, undefined, slots), csrMulVec(asm.J, x), `${name} J·x`);
      sameBits(jMulVec(asm.J, x, undefined, slots), jMulVec(asm.J, x), `${name} J·x (runs)`);
      sameBits(jTransposeMulVec(asm.J, y, undefined, slots), csrTransposeMulVec(asm.J, y), `${name} Jᵀ·y`);
      // Ċ: per row, the A block's six products then the B block's (the assembly's order), every entry
      const ref = new Float64Array(world.nRows);
      for (let c = 0; c < world.constraints.length; c++) {
        const ev = world.evals[c];
        const ends = [world.endA[c], world.endB[c]];
        for (let r = 0; r < world.constraints[c].rows; r++) {
          let cd = 0;
          [ev.JA, ev.JB].forEach((block, e) => {
            const col = ends[e] < 0 ? -1 : world.bodies[ends[e]].column;
            if (col < 0) return;
            for (let j = 0; j < 6; j++) cd += block[6 * r + j] * asm.v[col + j];
          });
          ref[world.rowStart[c] + r] = cd;
        }
      }
      sameBits(asm.Cdot, ref, `${name} Ċ`);
    }
  }
});
