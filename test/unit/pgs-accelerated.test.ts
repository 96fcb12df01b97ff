// Projected Gauss–Seidel's accelerated and block variants (src/engine/contact/pgs.ts): the same
// answers as plain sweeps and as closed forms, and the sweeps they take counted (never timed).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stepVelocity, type VelocitySettings } from '../../src/engine/contact/pgs';
import { Codes, parseScene, Simulation } from '../../src/engine';
import { pileParams, pileSceneText } from '../../bench/pile';
import type { BodyState } from '../../src/engine/model/body';
import type { Vec3 } from '../../src/engine/types';
import { body, boxInertia, boxOnBoxContacts, boxPlaneContacts, normalSum, scene, spherePlaneContacts, velocitySettings, worldOf } from './contact-helpers';

const g = 9.81, h = 0.005;
const e: Vec3 = [0.1, 0.1, 0.1];

/** A stack of n boxes resting face on face, stepped `steps` times, each step warm-started from the last. */
function runStack(n: number, mu: number, extra: Partial<VelocitySettings>, tolerance: number, steps: number, acceleration?: 'nncg' | 'none') {
  const { world, states: initial } = worldOf(scene(Array.from({ length: n }, (_, i) => body(`b${i}`, 1, boxInertia(1, e), [0, 0, e[2] * (1 + 2 * i)])), [], [0, 0, -g], h));
  const settings = velocitySettings({ pgs: { iterations: 5000, tolerance, acceleration }, ...extra });
  let states: BodyState[] = initial;
  let warm: Float64Array | undefined;
  const sweeps: number[] = [], converged: boolean[] = [], ground: number[] = [];
  for (let k = 0; k < steps; k++) {
    const cs = [...boxPlaneContacts(states, 0, e, [0, 0, 1], 0, 0.01, mu)];
    for (let i = 1; i < n; i++) cs.push(...boxOnBoxContacts(states, i, e, i - 1, e, 0.01, mu));
    const r = stepVelocity(world, states, cs, settings, h, { contacts: warm });
    states = r.states;
    warm = r.report.R;
    sweeps.push(r.report.iterations);
    converged.push(r.report.converged);
    ground.push(normalSum(cs, r.report.contacts, -1));
  }
  return { sweeps, converged, ground, states };
}

test('NNCG (the default) and momentum: a cold 10-box stack (frictionless) converges to the default tolerance in fewer sweeps than plain Gauss–Seidel, to the same answer', (t) => {
  const plain = runStack(10, 0, {}, 1e-10, 3, 'none');
  const fast = runStack(10, 0, { momentum: true }, 1e-10, 3);
  const cg = runStack(10, 0, {}, 1e-10, 3);
  t.diagnostic(`sweeps plain ${plain.sweeps.join(' ')}, momentum ${fast.sweeps.join(' ')}, NNCG ${cg.sweeps.join(' ')}`);
  assert.ok(plain.converged.every(Boolean) && fast.converged.every(Boolean) && cg.converged.every(Boolean));
  // measured 920, 497 and 210: Gauss–Seidel's rate on a 10-layer chain, and the two accelerations' gains on it
  assert.ok(fast.sweeps[0] <= 600, `momentum: ${fast.sweeps[0]} sweeps`);
  assert.ok(fast.sweeps[0] < 0.7 * plain.sweeps[0], `momentum ${fast.sweeps[0]} vs plain ${plain.sweeps[0]}`);
  assert.ok(cg.sweeps[0] < 0.35 * plain.sweeps[0] && cg.sweeps[0] < fast.sweeps[0], `NNCG ${cg.sweeps[0]} vs plain ${plain.sweeps[0]}, momentum ${fast.sweeps[0]}`);
  // warm-started steps start at the answer
  for (const s of [...plain.sweeps.slice(1), ...fast.sweeps.slice(1), ...cg.sweeps.slice(1)]) assert.ok(s <= 2, `warm step: ${s} sweeps`);
  for (const f of [...plain.ground, ...fast.ground, ...cg.ground]) assert.ok(Math.abs(f - 10 * g) < 1e-8 * 10 * g, `ground force ${f}`);
  for (let i = 0; i < 10; i++) {
    assert.ok(Math.abs(fast.states[i].p[2] - plain.states[i].p[2]) < 1e-10);
    assert.ok(Math.abs(cg.states[i].p[2] - plain.states[i].p[2]) < 1e-10);
  }
});

test('NNCG and momentum with friction: a cold 5-box stack (μ 0.5) converges to 1e-6 in fewer sweeps, warm steps in one', (t) => {
  const plain = runStack(5, 0.5, {}, 1e-6, 3, 'none');
  const fast = runStack(5, 0.5, { momentum: true }, 1e-6, 3);
  const cg = runStack(5, 0.5, {}, 1e-6, 3);
  t.diagnostic(`sweeps plain ${plain.sweeps.join(' ')}, momentum ${fast.sweeps.join(' ')}, NNCG ${cg.sweeps.join(' ')}`);
  assert.ok(plain.converged.every(Boolean) && fast.converged.every(Boolean) && cg.converged.every(Boolean));
  // measured 3171, 1666 and 235
  assert.ok(fast.sweeps[0] < 0.7 * plain.sweeps[0], `momentum ${fast.sweeps[0]} vs plain ${plain.sweeps[0]}`);
  assert.ok(cg.sweeps[0] < 0.2 * plain.sweeps[0], `NNCG ${cg.sweeps[0]} vs plain ${plain.sweeps[0]}`);
  for (const s of [...fast.sweeps.slice(1), ...cg.sweeps.slice(1)]) assert.ok(s <= 2, `warm step: ${s} sweeps`);
  for (const f of [...fast.ground, ...cg.ground]) assert.ok(Math.abs(f - 5 * g) < 1e-5 * 5 * g, `ground force ${f}`);
});

test('block Gauss–Seidel on one sticking contact is the exact LCP answer: a ball starting to roll down a slope (N = m·g·cosθ, f = (2/7)·m·g·sinθ)', () => {
  const m = 2, r = 0.1, I = 0.4 * m * r * r, th = 0.3, mu = 0.5;
  assert.ok((2 / 7) * Math.tan(th) < mu, 'rolling needs less than μ·N: the contact sticks');
  const gv: Vec3 = [g * Math.sin(th), 0, -g * Math.cos(th)];
  const { world, states } = worldOf(scene([body('ball', m, [I, I, I], [0, 0, r])], [], gv, h));
  const cs = spherePlaneContacts(states, 0, r, [0, 0, 1], 0, 0.01, mu);
  for (const extra of [{ block: true }, { block: true, momentum: true }, {}]) {
    const rep = stepVelocity(world, states, cs, velocitySettings({ pgs: { iterations: 100, tolerance: 1e-10 }, ...extra }), h).report;
    assert.ok(rep.converged, JSON.stringify(extra));
    // the block step solves the contact's 3×3 system at once: the second sweep only confirms it
    if (extra.block) assert.ok(rep.iterations <= 2, `${JSON.stringify(extra)}: ${rep.iterations} sweeps`);
    const Rn = rep.R[0], Rt = Math.hypot(rep.R[1], rep.R[2]);
    assert.ok(Math.abs(Rn - m * g * Math.cos(th)) < 1e-9 * m * g, `${JSON.stringify(extra)}: R_n ${Rn}`);
    assert.ok(Math.abs(Rt - (2 / 7) * m * g * Math.sin(th)) < 1e-9 * m * g, `${JSON.stringify(extra)}: R_t ${Rt}`);
    assert.equal(rep.contacts[0].state, 'stick');
  }
});

/** A box resting on the plane, its bottom face's four corners at the given gaps (m). */
function tiltedFace(gaps: [number, number, number, number], mu: number) {
  const { world, states } = worldOf(scene([body('box', 1, boxInertia(1, e), [0, 0, e[2]])], [], [0, 0, -g], h));
  const cs = boxPlaneContacts(states, 0, e, [0, 0, 1], 0, 0.01, mu);
  assert.equal(cs.length, 4);
  // the gaps as detection measured them: the targets are then those of no rigid motion when they straddle 0
  cs.forEach((c, i) => (c.gap = gaps[i]));
  return { world, states, cs };
}

test('a frictionless face whose targets no rigid motion meets (its corners straddle gap 0, no dead band): the pivot reaches the complementarity answer, one corner unloaded; without it the sweeps creep', (t) => {
  // slop 0: the targets keep their kink at gap 0 (with the default dead band they are all 0: pgs-slop.test.ts)
  const gaps: [number, number, number, number] = [-2e-7, 1e-7, -3e-7, -1e-7];
  // (with friction at the edge of its cones the pivot would change velocities, and it leaves the face to the sweeps)
  {
    const mu = 0;
    const { world, states, cs } = tiltedFace(gaps, mu);
    const run = (pivot: boolean) => stepVelocity(world, states, cs, velocitySettings({ pgs: { iterations: 2000, tolerance: 1e-10, slop: 0 }, pivot }), h).report;
    const on = run(true), off = run(false);
    t.diagnostic(`μ ${mu}: sweeps with the pivot ${on.iterations}, without ${off.iterations} (residual ${off.residual.toExponential(1)})`);
    // measured 25 sweeps; without the pivot 2000 leave a residual of 2e-5 m/s
    assert.ok(on.converged && on.iterations <= 50, `with the pivot: ${on.iterations} sweeps`);
    assert.ok(!off.converged, 'without the pivot Gauss–Seidel creeps along the face');
    // the complementarity answer: R ≥ 0, U − t ≥ 0, R·(U − t) = 0, exactly one corner open
    let open = 0, total = 0;
    for (let i = 0; i < 4; i++) {
      const Rn = on.R[3 * i], gapV = on.U[3 * i] - on.target[3 * i];
      assert.ok(Rn >= 0 && gapV > -1e-10, `corner ${i}: R ${Rn}, U − t ${gapV}`);
      assert.ok(Math.abs(Rn * gapV) < 1e-9, `corner ${i}: R·(U − t) ${Rn * gapV}`);
      if (Rn === 0) open++;
      total += Rn;
    }
    assert.equal(open, 1);
    // the box is carried: the face's forces hold at least its weight (the recovery pushes it up besides)
    assert.ok(total >= g, `face force ${total}`);
  }
});

test('solver.pgs.acceleration from the scene: "none" gives plain sweeps, the default NNCG; on the falling pile of 10 boxes NNCG converges more steps in fewer sweeps; a wrong value is named with its range and a fix', () => {
  const run = (acceleration?: string) => {
    const parsed = parseScene(pileSceneText(pileParams(10), 'velocity', acceleration ? { pgs: { acceleration } } : undefined));
    assert.ok(parsed.scene && !parsed.hasErrors);
    assert.equal(parsed.scene.solver.pgs.acceleration, acceleration);
    const sim = new Simulation(parsed.scene, parsed.sourceMap);
    sim.step(150);
    let sweeps = 0, converged = 0;
    for (const r of sim.records.slice(100)) {
      sweeps += r.pgs!.iterations;
      if (r.pgs!.converged) converged++;
    }
    return { sweeps, converged, z: sim.result().final.bodies.map((b) => b.position[2]) };
  };
  const cg = run(), plain = run('none');
  // measured over steps 101–150: NNCG 50 of 50 converged in 629 sweeps, plain 31 in 2393
  assert.ok(cg.converged >= 48 && cg.converged > plain.converged && cg.sweeps < 0.4 * plain.sweeps, `NNCG ${cg.converged} steps, ${cg.sweeps} sweeps; plain ${plain.converged}, ${plain.sweeps}`);
  // the same pile either way: every box ends on the ground or on another (centres at 0.1 m + 0.2 m·layer)
  for (const zs of [cg.z, plain.z]) for (const z of zs) assert.ok(Math.abs(z / 0.2 - 0.5 - Math.round(z / 0.2 - 0.5)) < 1e-3, `box centre at ${z}`);
  const text = pileSceneText(pileParams(10), 'velocity', { pgs: { acceleration: 'ncg' } });
  const bad = parseScene(text);
  const d = bad.diagnostics.find((x) => x.code === Codes.invalidValue);
  assert.ok(d, 'the wrong value is reported');
  assert.match(d.message, /`solver\.pgs\.acceleration` "ncg" is not allowed\. Use one of: "nncg", "none"/);
  const lines = text.split('\n');
  assert.match(lines[d.range.start.line].slice(d.range.start.character, d.range.end.character), /^"ncg"$/);
  assert.equal(d.fixes?.[0]?.title, 'Change to `nncg`');
});
