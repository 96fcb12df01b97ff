// Redundant versus conflicting (CL301 / CL302) relative to the problem (kkt/consistency.ts): a
// floating closed loop whose only disagreement is the round-off of its closure is redundant, not
// conflicting; two rods of different lengths on the same line conflict at every scale.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Codes, inspectScene } from '../../src/engine/index';

const codes = (text: string): string[] => inspectScene(text).diagnostics.map((d) => d.code).filter((c) => /^CL30[12]/.test(c));

test('a floating four-hinge loop (tilted, rotated frames, stiff gains): round-off of its closure is redundant, never conflicting', () => {
  // Built from world points, so C is the round-off of the frames (~1e-16), times α = 2500: b and λ are
  // round-off too, and the solvers' test relative to them alone called it conflicting (residual 2.8e-13).
  const text = readFileSync(join(__dirname, '..', 'fixtures', 'roundoff-loop.scene.json'), 'utf8');
  assert.deepEqual(codes(text), [Codes.redundantConstraint]);
});

/** A body on two rods from the same world point along the same line, of lengths L and L·(1 + δ), scaled by s. */
function rods(s: number, delta: number, massScale: number): string {
  return JSON.stringify({
    solver: { alpha: 100, beta: 20 },
    bodies: [{ name: 'B', mass: massScale, inertia: [massScale * s * s, massScale * s * s, massScale * s * s], position: [s, 0, 0] }],
    constraints: [
      { name: 'r1', type: 'distance', bodyA: 'world', bodyB: 'B', length: s },
      { name: 'r2', type: 'distance', bodyA: 'world', bodyB: 'B', length: s * (1 + delta) },
    ],
  });
}

test('two rods of different lengths on one line conflict at any scale (CL302); equal lengths are redundant (CL301)', () => {
  for (const s of [1e-3, 1, 1e3]) {
    for (const m of [1e-6, 1, 1e6]) {
      assert.deepEqual(codes(rods(s, 1e-3, m)), [Codes.conflictingConstraints], `scale ${s}, mass ${m}`);
      assert.deepEqual(codes(rods(s, 0, m)), [Codes.redundantConstraint], `scale ${s}, mass ${m}`);
    }
  }
});

test('CL301 says why λ is not unique: the combination that can be added without changing the motion', () => {
  const d = inspectScene(rods(1, 0, 1)).diagnostics.find((x) => x.code === Codes.redundantConstraint)!;
  assert.match(d.message, /λ is not unique: any multiple of the combination r2\.d − \(1·r1\.d\) of its components can be added to λ without changing the motion/);
  assert.match(d.message, /minimum-norm λ/);
});

test('CL303 names the constraints behind κ: the nearly dependent pair (geometry), or the extremes of A\'s diagonal (scaling)', () => {
  const near = JSON.stringify({
    bodies: [{ name: 'B', mass: 1, position: [1, 0, 0] }, { name: 'C', mass: 1, position: [2, 0, 0] }],
    constraints: [
      { name: 'rod1', type: 'distance', bodyA: 'world', anchorA: [0, 1e-5, 0], bodyB: 'B' },
      { name: 'rod2', type: 'distance', bodyA: 'world', anchorA: [0, -1e-5, 0], bodyB: 'B' },
      { name: 'link', type: 'ball', bodyA: 'B', bodyB: 'C', anchorA: [0.5, 0, 0], anchorB: [-0.5, 0, 0] },
    ],
  }, null, 1);
  const d = inspectScene(near).diagnostics.find((x) => x.code === Codes.illConditioned)!;
  assert.deepEqual([...(d.data as { drivers: string[] }).drivers].sort(), ['rod1', 'rod2']);
  assert.match(d.message, /lies on `rod[12]` \(50 %\), `rod[12]` \(50 %\)/);
  assert.deepEqual(d.related!.map((r) => r.message).sort(), ['`rod1` drives κ', '`rod2` drives κ']);
  // A light body on a heavy one: well conditioned once scaled.
  const ratio = JSON.stringify({
    bodies: [{ name: 'Heavy', mass: 1e4, inertia: [1e4, 1e4, 1e4], position: [1, 0, 0] }, { name: 'Light', mass: 1e-4, inertia: [1e-4, 1e-4, 1e-4], position: [2, 0, 0] }],
    constraints: [
      { name: 'pin', type: 'ball', bodyA: 'world', bodyB: 'Heavy', anchorB: [-1, 0, 0] },
      { name: 'tip', type: 'ball', bodyA: 'Heavy', bodyB: 'Light', anchorA: [0.5, 0, 0], anchorB: [-0.5, 0, 0] },
    ],
  });
  const e = inspectScene(ratio).diagnostics.find((x) => x.code === Codes.illConditioned)!;
  assert.match(e.message, /scaling issue.*The extremes of A's diagonal .* are on `tip` .* and `pin`/);
});

test('Cassie\'s loops (Menagerie, joints only): the plantar-rod connects are redundant (CL301), not conflicting', async () => {
  const { inspectModel, nodeFileAccess } = await import('../../src/import/index');
  const dir = join(__dirname, '..', 'fixtures', 'import', 'public', 'cassie');
  const path = join(dir, 'cassie-joints.xml');
  const r = await inspectModel(path, readFileSync(path, 'utf8'), { files: nodeFileAccess(dir) });
  const found = r.diagnostics.filter((d) => /^CL30[12]/.test(d.code));
  assert.deepEqual(found.map((d) => [d.code, (d.data as { constraint: string }).constraint]), [
    [Codes.redundantConstraint, 'connect0'],
    [Codes.redundantConstraint, 'connect2'],
  ]);
  assert.equal(r.hasErrors, false);
});
