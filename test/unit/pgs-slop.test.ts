// The dead band of hard contacts' targets (`solver.pgs.slop`, src/engine/contact/pgs.ts): within
// |gap| ≤ slop a point's velocity target is 0, so a resting face's corners, whichever side of 0 their
// gaps fall, ask for one rigid motion and projected Gauss–Seidel converges; outside the band the
// targets are as before (closing −gap/h, recovery −erp·gap/h). Sweeps are counted, never timed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseScene, Simulation, stepVelocity } from '../../src/engine';
import { pileParams, pileSceneText } from '../../bench/pile';
import { body, boxInertia, boxPlaneContacts, scene, velocitySettings, worldOf } from './contact-helpers';

const g = 9.81, h = 0.005, m = 1, slop = 1e-5, erp = 0.2;
const e: [number, number, number] = [0.1, 0.1, 0.1];

/** A box on the plane with its bottom face's corners at the given gaps (m), as detection measured them. */
function face(gaps: readonly number[], mu: number) {
  const { world, states } = worldOf(scene([body('box', m, boxInertia(m, e), [0, 0, e[2]])], [], [0, 0, -g], h));
  const cs = boxPlaneContacts(states, 0, e, [0, 0, 1], 0, 0.01, mu);
  assert.equal(cs.length, 4);
  cs.forEach((c, i) => (c.gap = gaps[i]));
  return { world, states, cs };
}

test('a face whose corners straddle gap 0 (±1e-7 m): with the dead band every corner presses and the sweeps converge at once, the face carrying m·g; without it they creep', (t) => {
  const gaps = [-2e-7, 1e-7, -3e-7, -1e-7];
  for (const mu of [0, 0.5]) {
    const { world, states, cs } = face(gaps, mu);
    const run = (s: number) => stepVelocity(world, states, cs, velocitySettings({ pgs: { iterations: 2000, tolerance: 1e-10, slop: s } }), h).report;
    const band = run(slop), kink = run(0);
    t.diagnostic(`μ ${mu}: sweeps with the band ${band.iterations}, without ${kink.iterations} (residual ${kink.residual.toExponential(1)} of scale ${kink.islands[0].scale.toExponential(1)})`);
    assert.ok(band.converged && band.iterations <= 60, `with the band: ${band.iterations} sweeps`);
    assert.ok(!kink.converged, 'without the band Gauss–Seidel creeps along the face');
    let total = 0;
    for (let i = 0; i < 4; i++) {
      assert.equal(band.target[3 * i], 0, `corner ${i}: target`);
      assert.ok(band.R[3 * i] > 0, `corner ${i} presses: ${band.R[3 * i]}`);
      total += band.R[3 * i];
    }
    // targets 0: the box ends the step at rest, so the face carries exactly its weight
    assert.ok(Math.abs(total - m * g) < 1e-8 * m * g, `face force ${total}`);
    for (let i = 0; i < 6; i++) assert.ok(Math.abs(band.uPlus[i]) < 1e-10, `u⁺[${i}] = ${band.uPlus[i]}`);
  }
});

test('outside the band the targets are unchanged: closing −gap/h above it, recovery −erp·gap/h below it; inside it 0 on both sides', () => {
  const cases: [number, number][] = [
    [3 * slop, (-3 * slop) / h],
    [1.5 * slop, (-1.5 * slop) / h],
    [0.5 * slop, 0],
    [-0.5 * slop, 0],
    [-1.5 * slop, (erp * 1.5 * slop) / h],
  ];
  for (const [gap, want] of cases) {
    const { world, states, cs } = face([gap, gap, gap, gap], 0);
    const r = stepVelocity(world, states, cs, velocitySettings({ pgs: { iterations: 200, tolerance: 1e-10 } }), h).report;
    for (let i = 0; i < 4; i++) assert.ok(Math.abs(r.target[3 * i] - want) <= 1e-15, `gap ${gap}: target ${r.target[3 * i]}, want ${want}`);
  }
});

test('the penetration bound: a box started 3·slop deep is pushed out by erp, geometrically, until inside the band, and then stays (penetration in [(1 − erp)·slop, slop])', () => {
  const { world, states: s0 } = worldOf(scene([body('box', m, boxInertia(m, e), [0, 0, e[2] - 3 * slop])], [], [0, 0, -g], h));
  const settings = velocitySettings({ pgs: { iterations: 200, tolerance: 1e-10 } });
  let states = s0, warm: Float64Array | undefined;
  const depth: number[] = [];
  for (let k = 0; k < 20; k++) {
    const cs = boxPlaneContacts(states, 0, e, [0, 0, 1], 0, 0.01, 0.5);
    const r = stepVelocity(world, states, cs, settings, h, { contacts: warm });
    assert.ok(r.report.converged, `step ${k}`);
    states = r.states;
    warm = r.report.R;
    depth.push(e[2] - states[0].p[2]);
  }
  // outside the band each step removes erp of the depth (closed form (1 − erp)^k·3·slop)
  let want = 3 * slop, k = 0;
  while (want > slop) {
    want *= 1 - erp;
    assert.ok(Math.abs(depth[k] - want) < 1e-12, `step ${k}: depth ${depth[k]}, want ${want}`);
    k++;
  }
  assert.ok(depth[k - 1] <= slop && depth[k - 1] >= (1 - erp) * slop);
  // inside it the box is held where it is: no drift, no further push
  for (let j = k; j < depth.length; j++) assert.ok(Math.abs(depth[j] - depth[k - 1]) < 1e-12, `step ${j}: depth ${depth[j]}`);
});

test('the warm friction of a sticking face loses its self-equilibrated part before the sweeps: a radial pattern (no net force, no twist) is dropped, the step converges at rest, the bodies feel the same', () => {
  const mu = 0.5;
  const { world, states, cs } = face([0, 0, 0, 0], mu);
  // warm forces: m·g/4 pressing at each corner, plus an outward friction of 0.2·μ·R_n along the corner's
  // offset from the face centre, expressed on the contact's own tangents (they sum to no force and no moment)
  const centre = [0, 1, 2].map((k) => cs.reduce((a, c) => a + c.point[k], 0) / 4);
  const warm = new Float64Array(12);
  cs.forEach((c, i) => {
    const d = [0, 1, 2].map((k) => c.point[k] - centre[k]);
    const nd = Math.hypot(...d), f = (0.2 * mu * m * g) / 4;
    const t2 = [c.normal[1] * c.t1[2] - c.normal[2] * c.t1[1], c.normal[2] * c.t1[0] - c.normal[0] * c.t1[2], c.normal[0] * c.t1[1] - c.normal[1] * c.t1[0]];
    warm[3 * i] = (m * g) / 4;
    warm[3 * i + 1] = (f * (d[0] * c.t1[0] + d[1] * c.t1[1] + d[2] * c.t1[2])) / nd;
    warm[3 * i + 2] = (f * (d[0] * t2[0] + d[1] * t2[1] + d[2] * t2[2])) / nd;
  });
  const r = stepVelocity(world, states, cs, velocitySettings({ pgs: { iterations: 100, tolerance: 1e-10 } }), h, { contacts: warm }).report;
  assert.ok(r.converged && r.iterations <= 2, `${r.iterations} sweeps`);
  // the box rests on a level face: every friction force is gone, not merely balanced
  for (let i = 0; i < 4; i++) assert.ok(Math.hypot(r.R[3 * i + 1], r.R[3 * i + 2]) < 1e-9, `corner ${i}: friction ${r.R[3 * i + 1]}, ${r.R[3 * i + 2]}`);
  for (let i = 0; i < 6; i++) assert.ok(Math.abs(r.uPlus[i]) < 1e-10, `u⁺[${i}] = ${r.uPlus[i]}`);
});

/** The bench's falling pile of 10 boxes (μ 0.5, dt 0.005), stepped 400 steps; converged steps and sweeps of the last 100. */
function settledPile(slopValue: number) {
  const text = JSON.parse(pileSceneText(pileParams(10), 'velocity'));
  text.solver.pgs = { slop: slopValue };
  const parsed = parseScene(JSON.stringify(text));
  assert.ok(parsed.scene && !parsed.hasErrors);
  const sim = new Simulation(parsed.scene, parsed.sourceMap);
  sim.step(300);
  let converged = 0, sweeps = 0, penetration = 0;
  for (let k = 0; k < 100; k++) {
    sim.step(1);
    const r = sim.records[sim.records.length - 1];
    if (r.pgs?.converged) converged++;
    sweeps += r.pgs?.iterations ?? 0;
    penetration = Math.max(penetration, r.maxPenetration ?? 0);
  }
  return { converged, sweeps: sweeps / 100, penetration };
}

test('the settled pile of 10 boxes (μ 0.5): every step converges to the default 1e-10 in a few sweeps with the band, penetration within it; without it most steps stop at the cap', (t) => {
  const band = settledPile(slop), kink = settledPile(0);
  t.diagnostic(`steps 301–400: with the band ${band.converged} converged, ${band.sweeps} sweeps a step, penetration ${band.penetration.toExponential(2)}; without ${kink.converged}, ${kink.sweeps}, ${kink.penetration.toExponential(2)}`);
  // measured 100 steps in 1 sweep each; without the band 0 of 100, every step at the cap of 100
  assert.equal(band.converged, 100);
  assert.ok(band.sweeps <= 5, `${band.sweeps} sweeps a step`);
  assert.ok(band.penetration <= slop, `penetration ${band.penetration}`);
  assert.ok(kink.converged <= 50 && kink.sweeps >= 50, `without the band: ${kink.converged} converged, ${kink.sweeps} sweeps a step`);
});
