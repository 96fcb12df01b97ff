// A joint started outside its range, with armature and damping (pgs.ts, `pgs.bilateral: "block"`): the
// limit row shares its Jacobian with the joint's drive row in the block, and visited apart from it in
// maximal coordinates the pair converges at the rate W/(W + Σ_drive) per sweep (1 − 10⁻³ for an armature
// of 1), so such a joint did not converge at all. The limit and friction-loss rows take their step in the
// joints' reduced space (contactReduce.ts) and converge in a few sweeps to the answer row-by-row sweeps
// reach only after tens of thousands.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseScene, Simulation } from '../../src/engine';

/** Two links; the elbow has armature, damping and a range that q = 0 violates by 0.5 rad. */
function elbow(bilateral: 'block' | 'rows', iterations: number, tolerance: number, frictionLoss = 0): string {
  return JSON.stringify({
    name: 'elbow',
    gravity: [0, 0, -9.81],
    solver: { dt: 0.01, formulation: 'velocity', pgs: { iterations, tolerance, bilateral } },
    bodies: [
      { name: 'l1', mass: 1, inertia: [0.01, 0.03, 0.03], position: [0.15, 0, 1] },
      { name: 'l2', mass: 0.2, inertia: [0.001, 0.004, 0.004], position: [0.45, 0, 1] },
    ],
    constraints: [
      { type: 'hinge', name: 'shoulder', bodyA: 'world', bodyB: 'l1', anchorA: [0, 0, 1], anchorB: [-0.15, 0, 0], axisA: [0, 1, 0], axisB: [0, 1, 0] },
      {
        type: 'hinge', name: 'elbow', bodyA: 'l1', bodyB: 'l2', anchorA: [0.15, 0, 0], anchorB: [-0.15, 0, 0], axisA: [0, 1, 0], axisB: [0, 1, 0],
        limits: [0.5, 1.2], armature: 1, damping: 1, ...(frictionLoss ? { frictionLoss } : {}),
      },
    ],
  });
}

function run(text: string, steps: number): Simulation {
  const parse = parseScene(text);
  assert.ok(parse.scene && !parse.hasErrors, JSON.stringify(parse.diagnostics));
  const sim = new Simulation(parse.scene, parse.sourceMap);
  sim.step(steps);
  assert.equal(sim.stopped, false, JSON.stringify(sim.diagnostics));
  return sim;
}

test('a joint started outside its range, with armature: the block converges in a few sweeps to the answer row-by-row sweeps reach only after tens of thousands', () => {
  const block = run(elbow('block', 300, 1e-12), 3);
  for (const r of block.records) assert.ok(r.pgs!.converged && r.pgs!.iterations <= 12, `step ${r.step}: ${r.pgs!.iterations} sweeps, residual ${r.pgs!.residual}`);
  // row by row (the joint's rows apart from the limit) 300 sweeps leave it far off …
  const short = run(elbow('rows', 300, 1e-12), 1);
  assert.ok(!short.records[0].pgs!.converged && short.records[0].pgs!.residual > 1e-3, `rows: residual ${short.records[0].pgs!.residual}`);
  // … and only a very long run reaches the same step
  const long = run(elbow('rows', 200_000, 1e-12), 1);
  assert.ok(long.records[0].pgs!.converged, `rows, long: residual ${long.records[0].pgs!.residual}`);
  const once = run(elbow('block', 300, 1e-12), 1);
  const a = once.records[0].poses, b = long.records[0].poses;
  for (let i = 0; i < a.length; i++) assert.ok(Math.abs(a[i] - b[i]) < 1e-9, `pose[${i}] ${a[i]} vs ${b[i]}`);
  // the limit acts: the elbow opens toward its range, it does not fall further out of it
  const q = (s: Simulation) => s.world.forces!.report.q[0];
  const later = run(elbow('block', 300, 1e-12), 30);
  assert.ok(q(later) > 0.05, `elbow q after 0.3 s: ${q(later)}`);
});

test('friction loss with armature: the same active set, the same answer as a long row-by-row run', () => {
  const once = run(elbow('block', 300, 1e-12, 0.05), 1);
  assert.ok(once.records[0].pgs!.converged && once.records[0].pgs!.iterations <= 12, `${once.records[0].pgs!.iterations} sweeps`);
  const long = run(elbow('rows', 200_000, 1e-12, 0.05), 1);
  assert.ok(long.records[0].pgs!.converged);
  const a = once.records[0].poses, b = long.records[0].poses;
  for (let i = 0; i < a.length; i++) assert.ok(Math.abs(a[i] - b[i]) < 1e-9, `pose[${i}] ${a[i]} vs ${b[i]}`);
});
