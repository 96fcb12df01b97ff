// The broad phase's kept sweep order (SweepMemo): over random runs, the pairs found from the last
// step's order are exactly a from-scratch sweep's, whatever moved, tied, joined, left or went NaN;
// and a falling pile simulated with the kept order gives the same contacts as detection from scratch.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rng } from './linalg-fixtures';
import { type Aabb, SweepMemo, sweepAndPrune } from '../../src/engine/collision/broadphase';
import { collisionModel, detectContacts } from '../../src/engine/collision/detect';
import { parseScene, Simulation } from '../../src/engine';

const accept = (i: number, j: number): boolean => (i + 3 * j) % 7 !== 0;

test('a sweep from the kept order finds the same pairs as a fresh sweep, step after step of a random run', () => {
  for (const seed of [1, 2, 3, 4]) {
    const rand = rng(seed);
    const n = 120;
    const centre = Array.from({ length: n }, () => [4 * rand(), 4 * rand(), 4 * rand()]);
    const size = Array.from({ length: n }, () => 0.05 + 0.3 * rand());
    const memo = new SweepMemo();
    let reused = 0;
    let found = 0;
    for (let step = 0; step < 200; step++) {
      // coherent motion, now and then a jump, a stretch along one axis (the sweep axis changes), exact ties
      for (let i = 0; i < n; i++) for (let k = 0; k < 3; k++) centre[i][k] += 0.02 * (rand() - 0.5);
      if (step % 17 === 0) centre[Math.floor(rand() * n)] = [4 * rand(), 4 * rand(), 4 * rand()];
      if (step === 60) for (const c of centre) c[0] *= 5;
      if (step === 120) {
        for (const c of centre) {
          c[0] /= 5;
          c[2] *= 6;
        }
      }
      if (step % 23 === 0) centre[5] = [...centre[9]];
      const boxes: Aabb[] = centre.map((c, i) => ({ lo: [c[0] - size[i], c[1] - size[i], c[2] - size[i]], hi: [c[0] + size[i], c[1] + size[i], c[2] + size[i]] }));
      if (step === 150) boxes[7].lo[1] = NaN;
      // the shapes taking part change now and then (a pose went non-finite, a shape left)
      const ids = [...Array(n).keys()].filter((i) => step % 31 !== 0 || i % 11 !== 0);
      const margin = step % 2 ? 0.01 : 0;
      const fresh = sweepAndPrune(boxes, ids, margin, accept);
      const kept = sweepAndPrune(boxes, ids, margin, accept, memo);
      assert.deepEqual(kept, fresh, `seed ${seed}, step ${step}`);
      if (memo.moves < ids.length) reused++;
      found += fresh.length;
    }
    assert.ok(found > 200 * 5, `only ${found} pairs over the run: too sparse to test anything`);
    // the kept order is used on most steps (otherwise this test would not test it)
    assert.ok(reused > 150, `the kept order was reused on ${reused} of 200 steps`);
  }
});

test('a falling pile: the contacts of every step are the same with the kept order as from scratch', () => {
  const rand = rng(5);
  const bodies = Array.from({ length: 24 }, (_, k) => ({
    name: `box${k}`,
    mass: 1,
    inertia: [0.0067, 0.0067, 0.0067],
    position: [0.26 * (k % 3) + 0.04 * rand(), 0.26 * (Math.floor(k / 3) % 2) + 0.04 * rand(), 0.15 + 0.3 * Math.floor(k / 6) + 0.05 * rand()],
    orientation: [0, 0, Math.sin(rand()), Math.cos(rand())],
    shapes: [{ type: 'box', halfExtents: [0.1, 0.1, 0.1], friction: 0.5 }],
  }));
  const text = JSON.stringify({ gravity: [0, 0, -9.81], solver: { dt: 0.005, steps: 120, formulation: 'velocity' }, world: { shapes: [{ type: 'plane', name: 'ground', friction: 0.5 }] }, bodies });
  const parsed = parseScene(text);
  assert.ok(parsed.scene, JSON.stringify(parsed.diagnostics));
  const sim = new Simulation(parsed.scene, parsed.sourceMap);
  const model = collisionModel(parsed.scene);
  let touching = 0;
  for (let step = 0; step < 120; step++) {
    sim.step(1);
    const k = sim.currentStep;
    const poses = [];
    const packed = sim.records[k - 1].poses;
    for (let i = 0; i < bodies.length; i++) poses.push({ p: packed.slice(7 * i, 7 * i + 3) as [number, number, number], q: packed.slice(7 * i + 3, 7 * i + 7) as [number, number, number, number] });
    const kept = detectContacts(parsed.scene, poses);
    // from scratch: the same detection with the model's kept orders forgotten
    const saved = [...model.sweep.orders];
    model.sweep.orders.fill(undefined);
    const fresh = detectContacts(parsed.scene, poses);
    model.sweep.orders.splice(0, 3, ...saved);
    assert.deepEqual(kept, fresh, `step ${k}`);
    touching = Math.max(touching, kept.length);
  }
  assert.ok(touching > 10, `only ${touching} contacts: the boxes never piled up`);
});
