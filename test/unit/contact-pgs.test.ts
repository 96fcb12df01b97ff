// Velocity-level contacts (Solfec local dynamics, projected Gauss–Seidel) against closed-form
// answers, against the engine's own velocity-level bilateral solve, and against Newton.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assemble, type World } from '../../src/engine/assembly/assemble';
import { solveSystem } from '../../src/engine/kkt/kkt';
import { solveContactsPgs, stepVelocity } from '../../src/engine/contact/pgs';
import { stepNonlinear } from '../../src/engine/contact/newton';
import type { BodyState } from '../../src/engine/model/body';
import type { Contact } from '../../src/engine/collision/contacts';
import type { Vec3 } from '../../src/engine/types';
import {
  body, boxInertia, boxOnBoxContacts, boxPlaneContacts, incline, joint, nonlinearSettings, normalSum, scene, spherePlaneContacts, velocitySettings, worldOf,
} from './contact-helpers';

const g = 9.81;

test('PGS bilateral rows reproduce the engine velocity-level solve (chain of ball, hinge and distance joints)', () => {
  const s = scene(
    [
      body('a', 1, [0.1, 0.2, 0.15], [0.5, 0, -0.2], { velocity: [0.3, -0.2, 0.1], angularVelocity: [1, 0.5, -0.3] }),
      body('b', 2, [0.3, 0.1, 0.2], [1.0, 0.1, -0.6], { velocity: [-0.1, 0.4, 0], angularVelocity: [0, 2, 1] }),
      body('c', 0.5, [0.05, 0.05, 0.05], [1.3, 0.4, -1.2]),
    ],
    [
      joint('ball', 'a', 'world', { anchorA: [-0.5, 0, 0.2] }),
      joint('hinge', 'b', 'a', { anchorA: [-0.25, -0.05, 0.2], anchorB: [0.25, 0.05, -0.2], axisA: [0, 1, 0], axisB: [0, 1, 0] }),
      joint('distance', 'c', 'b'),
    ],
  );
  const { world, states } = worldOf(s);
  const asm = assemble(world, states);
  const ref = solveSystem(world, asm, s.solver, { exactCondMaxRows: 100, wantSpectrum: false });
  const rep = solveContactsPgs(world, states, [], velocitySettings({ pgs: { iterations: 5000, tolerance: 1e-13 } }), s.solver.dt);
  assert.ok(rep.converged);
  for (let i = 0; i < ref.uPlus.length; i++) assert.ok(Math.abs(rep.uPlus[i] - ref.uPlus[i]) < 1e-9, `u⁺[${i}] ${rep.uPlus[i]} vs ${ref.uPlus[i]}`);
  for (let i = 0; i < ref.lambda.length; i++) assert.ok(Math.abs(rep.bilateral[i] - ref.lambda[i]) < 1e-6 * Math.max(1, Math.abs(ref.lambda[i])));
});

test('box resting on the ground (PGS): total normal force m·g, no drift over 1000 steps', (t) => {
  const e: Vec3 = [0.2, 0.1, 0.05], m = 2;
  const { world, states: initial } = worldOf(scene([body('box', m, boxInertia(m, e), [0, 0, e[2]])]));
  let states = initial;
  let fErr = 0, pen = 0, its = 0;
  for (let k = 0; k < 1000; k++) {
    const cs = boxPlaneContacts(states, 0, e, [0, 0, 1], 0, 0.01, 0.5);
    const r = stepVelocity(world, states, cs, velocitySettings(), 0.01);
    assert.ok(r.report.converged);
    ({ states } = r);
    fErr = Math.max(fErr, Math.abs(normalSum(cs, r.report.contacts, -1) - m * g) / (m * g));
    pen = Math.max(pen, r.report.maxPenetration);
    its = Math.max(its, r.report.iterations);
  }
  const drift = Math.hypot(states[0].p[0], states[0].p[1], states[0].p[2] - e[2]);
  t.diagnostic(`normal force relative error ${fErr.toExponential(2)}, drift ${drift.toExponential(2)} m, max penetration ${pen.toExponential(2)} m, ≤ ${its} sweeps`);
  assert.ok(fErr < 1e-8);
  assert.ok(drift < 1e-8);
  assert.ok(pen < 1e-4);
});

test('box on a 20° incline (PGS): slides with μ = 0.2 at g(sin θ − μ cos θ), sticks with μ = 0.5', (t) => {
  const step = (world: World, states: BodyState[], cs: Contact[]) => {
    const r = stepVelocity(world, states, cs, velocitySettings(), 0.01);
    return { states: r.states, converged: r.report.converged };
  };
  const slide = incline(step, 0.2, 100);
  const stick = incline(step, 0.5, 100);
  t.diagnostic(`slide: a = ${slide.a.toFixed(12)} vs ${slide.expected.toFixed(12)} (error ${(slide.a - slide.expected).toExponential(2)}); stick: a = ${stick.a.toExponential(2)}`);
  assert.ok(Math.abs(slide.a - slide.expected) < 1e-9 * slide.expected);
  assert.ok(Math.abs(stick.a) < 1e-9);
  assert.equal(slide.unconverged + stick.unconverged, 0);
});

test('ball dropped on the plane with restitution 0.5 (PGS): rebound apex e²·h within 2 %', (t) => {
  const r0 = 0.1, H = 1, e = 0.5, dt = 1e-3;
  const { world, states: initial } = worldOf(scene([body('ball', 1, [0.004, 0.004, 0.004], [0, 0, H + r0])], [], [0, 0, -g], dt));
  let states = initial;
  let bounced = false, apex = 0, impact = 0;
  for (let k = 0; k < 2000; k++) {
    const cs = spherePlaneContacts(states, 0, r0, [0, 0, 1], 0, 0, 0.5, e);
    const r = stepVelocity(world, states, cs, velocitySettings(), dt);
    if (!bounced && cs.length) impact = -states[0].v[2];
    ({ states } = r);
    if (states[0].v[2] > 0) bounced = true;
    if (bounced) apex = Math.max(apex, states[0].p[2] - r0);
    if (bounced && states[0].v[2] < 0) break;
  }
  const rel = (apex - e * e * H) / (e * e * H);
  t.diagnostic(`impact speed ${impact.toFixed(4)} m/s (√(2gh) = ${Math.sqrt(2 * g * H).toFixed(4)}), apex ${apex.toFixed(5)} m vs ${e * e * H} m (relative error ${rel.toExponential(2)})`);
  assert.ok(Math.abs(rel) < 0.02);
});

test('stack of three boxes (PGS, warm-started): the ground carries 3mg', (t) => {
  const e: Vec3 = [0.1, 0.1, 0.1], m = 1;
  const { world, states: initial } = worldOf(scene([0, 1, 2].map((i) => body(`b${i}`, m, boxInertia(m, e), [0, 0, e[2] * (1 + 2 * i)]))));
  let states = initial;
  let warm: Float64Array | undefined;
  let worst = 0, unconverged = 0;
  for (let k = 0; k < 100; k++) {
    const cs = [...boxPlaneContacts(states, 0, e, [0, 0, 1], 0, 0.01, 0.5), ...boxOnBoxContacts(states, 1, e, 0, e, 0.01, 0.5), ...boxOnBoxContacts(states, 2, e, 1, e, 0.01, 0.5)];
    const r = stepVelocity(world, states, cs, velocitySettings(), 0.01, { contacts: warm });
    ({ states } = r);
    warm = r.report.R;
    if (!r.report.converged) unconverged++;
    if (k >= 10) worst = Math.max(worst, Math.abs(normalSum(cs, r.report.contacts, -1) - 3 * m * g) / (3 * m * g));
  }
  t.diagnostic(`ground force relative error ${worst.toExponential(2)} (steps 10–99), ${unconverged}/100 steps not converged in 100 sweeps`);
  assert.ok(worst < 1e-4);
});

test('PGS and Newton agree on the normal force of a box resting on the plane', (t) => {
  const e: Vec3 = [0.2, 0.1, 0.05], m = 2;
  const { world, states } = worldOf(scene([body('box', m, boxInertia(m, e), [0, 0, e[2]], { velocity: [0, 0, -0.05] })]));
  const cs = boxPlaneContacts(states, 0, e, [0, 0, 1], 0, 0.01, 0.5);
  const pgs = stepVelocity(world, states, cs, velocitySettings(), 0.01).report;
  const newton = stepNonlinear(world, states, cs, nonlinearSettings(), 0.01).report;
  const a = normalSum(cs, pgs.contacts, -1), b = normalSum(cs, newton.contacts, -1);
  t.diagnostic(`PGS ${a.toFixed(10)} N, Newton ${b.toFixed(10)} N (m·g + m·0.05/h = ${(m * g + (m * 0.05) / 0.01).toFixed(4)} N)`);
  assert.ok(Math.abs(a - b) < 1e-8 * b);
  // landing at 0.05 m/s: the impulse stops the box in one step (plastic contact)
  assert.ok(Math.abs(b - (m * g + (m * 0.05) / 0.01)) < 1e-6 * b);
});

test('PGS islands: two separate boxes are solved separately', () => {
  const e: Vec3 = [0.1, 0.1, 0.1];
  const { world, states } = worldOf(scene([body('a', 1, boxInertia(1, e), [0, 0, 0.1]), body('b', 3, boxInertia(3, e), [2, 0, 0.1])]));
  const cs = [...boxPlaneContacts(states, 0, e, [0, 0, 1], 0, 0.01, 0.5), ...boxPlaneContacts(states, 1, e, [0, 0, 1], 0, 0.01, 0.5)];
  const rep = solveContactsPgs(world, states, cs, velocitySettings(), 0.01);
  assert.equal(rep.islands.length, 2);
  assert.deepEqual(rep.islands.map((i) => i.contacts.length), [4, 4]);
  assert.ok(Math.abs(normalSum(cs.slice(0, 4), rep.contacts.slice(0, 4), -1) - g) < 1e-8);
  assert.ok(Math.abs(normalSum(cs.slice(4), rep.contacts.slice(4), -1) - 3 * g) < 1e-8);
});
