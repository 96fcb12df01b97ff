// Axion's nonlinear formulation against closed-form answers: quadratic convergence of Newton on a
// smooth case, simple and double pendulums (position-level joints do not drift; small-amplitude
// periods), a box resting on the ground, a box on a 20° incline sliding and sticking, a stack of
// three boxes, and a velocity-level bounce.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeEval } from '../../src/engine/model/constraint';
import { statePose } from '../../src/engine/contact/rigid';
import { stepNonlinear, type NewtonReport } from '../../src/engine/contact/newton';
import type { NonlinearSettings } from '../../src/engine/contact/system';
import type { BodyState } from '../../src/engine/model/body';
import type { World } from '../../src/engine/assembly/assemble';
import type { Quat, Vec3 } from '../../src/engine/types';
import {
  body, boxInertia, boxOnBoxContacts, boxPlaneContacts, incline, joint, nonlinearSettings, normalSum, scene, spherePlaneContacts, worldOf,
} from './contact-helpers';

const g = 9.81;

/** Largest |C| of the world's constraints at the given states (the engine's own models). */
function maxViolation(world: World, states: BodyState[]): number {
  let m = 0;
  world.constraints.forEach((c, i) => {
    const ev = makeEval(c.rows);
    c.evaluate(statePose(states, world.endA[i]), statePose(states, world.endB[i]), ev);
    for (let r = 0; r < c.rows; r++) m = Math.max(m, Math.abs(ev.C[r]));
  });
  return m;
}

/** Times of downward zero crossings of x(t) (linear interpolation between steps). */
function crossings(xs: number[], dt: number): number[] {
  const out: number[] = [];
  for (let k = 1; k < xs.length; k++) if (xs[k - 1] > 0 && xs[k] <= 0) out.push((k - 1 + xs[k - 1] / (xs[k - 1] - xs[k])) * dt);
  return out;
}

test('Newton converges quadratically near the solution (pendulum step, no regularisation)', (t) => {
  const L = 1;
  const s = scene([body('bob', 1, [1e-3, 1e-3, 1e-3], [L * Math.sin(0.8), 0, -L * Math.cos(0.8)], { velocity: [1.5, 0.4, 0.9] })], [
    joint('distance', 'bob', 'world', { length: L }),
  ]);
  const { world, states } = worldOf(s);
  const { report } = stepNonlinear(world, states, [], nonlinearSettings({ regularization: 0, newton: { maxIterations: 20, tolerance: 1e-14, lineSearch: true } }), 0.01);
  const r = report.residuals;
  t.diagnostic(`‖h‖ per iteration: ${r.map((x) => x.toExponential(2)).join(', ')}`);
  const ratios: string[] = [];
  let checked = 0;
  for (let k = 0; k + 1 < r.length; k++) {
    if (r[k + 1] < 1e-13) break; // round-off level
    ratios.push((r[k + 1] / (r[k] * r[k])).toExponential(2));
    assert.ok(r[k + 1] <= 10 * r[k] * r[k], `r${k + 1} = ${r[k + 1]} vs r${k}² = ${r[k] * r[k]}`);
    checked++;
  }
  t.diagnostic(`r_{k+1}/r_k²: ${ratios.join(', ')}`);
  assert.ok(checked >= 2, 'at least two quadratic steps observed');
  assert.ok(report.converged);
  assert.ok(report.stepLengths.every((a) => a === 1), 'full Newton steps near the solution');
});

test('simple pendulum (distance rod): |C| < 1e-8 over 1000 steps, period within 1 % of 2π√(L/g)', (t) => {
  const L = 1, th = 0.05, dt = 0.01;
  const s = scene([body('bob', 1, [1e-3, 1e-3, 1e-3], [L * Math.sin(th), 0, -L * Math.cos(th)])], [joint('distance', 'bob', 'world', { length: L })], [0, 0, -g], dt);
  const { world, states: initial } = worldOf(s);
  let states = initial;
  let maxC = 0, warm: Float64Array | undefined;
  const xs: number[] = [states[0].p[0]];
  for (let k = 0; k < 1000; k++) {
    const r = stepNonlinear(world, states, [], nonlinearSettings(), dt, { bilateral: warm });
    assert.ok(r.report.converged, `step ${k} converged`);
    ({ states } = r);
    warm = r.report.bilateral;
    maxC = Math.max(maxC, Math.abs(Math.hypot(...states[0].p) - L), maxViolation(world, states));
    xs.push(states[0].p[0]);
  }
  const c = crossings(xs, dt);
  const T = 2 * Math.PI * Math.sqrt(L / g);
  const err = Math.max(...c.slice(1).map((x, i) => Math.abs(x - c[i] - T) / T));
  t.diagnostic(`max |C| = ${maxC.toExponential(2)}, ${c.length - 1} periods, worst relative period error ${err.toExponential(2)}`);
  assert.ok(maxC < 1e-8);
  assert.ok(c.length >= 4);
  assert.ok(err < 0.01);
});

test('double pendulum (ball joints): |C| < 1e-8 over 1000 steps, both normal-mode periods within 1 %', (t) => {
  const L = 1, dt = 0.01, I = 1e-4;
  const qy = (a: number): Quat => [0, Math.sin(a / 2), 0, Math.cos(a / 2)];
  for (const mode of [1, -1]) {
    // equal point masses and lengths: ω² = (g/L)(2 ∓ √2), θ₂ = ±√2·θ₁
    const t1 = 0.03, t2 = mode * Math.SQRT2 * t1;
    const x1 = L * Math.sin(t1), z1 = -L * Math.cos(t1);
    const s = scene(
      [
        body('b1', 1, [I, I, I], [x1, 0, z1], { orientation: qy(-t1) }),
        body('b2', 1, [I, I, I], [x1 + L * Math.sin(t2), 0, z1 - L * Math.cos(t2)], { orientation: qy(-t2) }),
      ],
      [joint('ball', 'b1', 'world', { anchorA: [0, 0, L] }), joint('ball', 'b2', 'b1', { anchorA: [0, 0, L] })],
      [0, 0, -g],
      dt,
    );
    const { world, states: initial } = worldOf(s);
    let states = initial;
    let maxC = 0, warm: Float64Array | undefined;
    const xs: number[] = [states[0].p[0]];
    for (let k = 0; k < 1000; k++) {
      const r = stepNonlinear(world, states, [], nonlinearSettings(), dt, { bilateral: warm });
      assert.ok(r.report.converged);
      ({ states } = r);
      warm = r.report.bilateral;
      maxC = Math.max(maxC, maxViolation(world, states));
      xs.push(states[0].p[0]);
    }
    const c = crossings(xs, dt);
    const T = (2 * Math.PI) / Math.sqrt((g / L) * (2 - mode * Math.SQRT2));
    const err = Math.max(...c.slice(1).map((x, i) => Math.abs(x - c[i] - T) / T));
    t.diagnostic(`mode ${mode > 0 ? 'slow' : 'fast'}: max |C| = ${maxC.toExponential(2)}, T = ${T.toFixed(4)} s, ${c.length - 1} periods, worst relative error ${err.toExponential(2)}`);
    assert.ok(maxC < 1e-8);
    assert.ok(c.length >= 4);
    assert.ok(err < 0.01);
  }
});

test('box resting on the ground: total normal force m·g, no drift over 1000 steps, penetration < 1e-4 m', (t) => {
  const e: Vec3 = [0.2, 0.1, 0.05], m = 2;
  const s = scene([body('box', m, boxInertia(m, e), [0, 0, e[2]])]);
  const { world, states: initial } = worldOf(s);
  let states = initial;
  let fErr = 0, pen = 0, its = 0;
  for (let k = 0; k < 1000; k++) {
    const cs = boxPlaneContacts(states, 0, e, [0, 0, 1], 0, 0.01, 0.5);
    const r = stepNonlinear(world, states, cs, nonlinearSettings(), 0.01);
    assert.ok(r.report.converged);
    ({ states } = r);
    fErr = Math.max(fErr, Math.abs(normalSum(cs, r.report.contacts, -1) - m * g) / (m * g));
    pen = Math.max(pen, r.report.maxPenetration);
    its = Math.max(its, r.report.iterations);
    assert.ok(r.report.contacts.every((c) => c.state === 'stick'));
  }
  const drift = Math.hypot(states[0].p[0], states[0].p[1], states[0].p[2] - e[2]);
  t.diagnostic(`normal force relative error ${fErr.toExponential(2)}, drift ${drift.toExponential(2)} m, max penetration ${pen.toExponential(2)} m, ≤ ${its} iterations`);
  assert.ok(fErr < 1e-8);
  assert.ok(drift < 1e-9);
  assert.ok(pen < 1e-4);
});

for (const fj of ['exact', 'fixed-point'] as const) {
  test(`box on a 20° incline, Newton (${fj} friction Jacobian): slides with μ = 0.2 at g(sin θ − μ cos θ), sticks with μ = 0.5`, (t) => {
    const settings: NonlinearSettings = nonlinearSettings({ frictionJacobian: fj });
    const step = (world: World, states: BodyState[], cs: ReturnType<typeof boxPlaneContacts>) => {
      const r = stepNonlinear(world, states, cs, settings, 0.01);
      return { states: r.states, converged: r.report.converged };
    };
    const slide = incline(step, 0.2, 100);
    const stick = incline(step, 0.5, 100);
    t.diagnostic(`slide: a = ${slide.a.toFixed(10)} vs ${slide.expected.toFixed(10)} (error ${(slide.a - slide.expected).toExponential(2)}), ${slide.unconverged}/100 steps not converged to 1e-10`);
    t.diagnostic(`stick: a = ${stick.a.toExponential(2)}, ${stick.unconverged}/100 steps not converged`);
    assert.ok(Math.abs(slide.a - slide.expected) < (fj === 'exact' ? 1e-9 : 1e-6) * slide.expected);
    assert.ok(Math.abs(stick.a) < 1e-9);
    assert.ok(Math.abs(slide.normalSpeed) < 1e-9 && Math.abs(stick.normalSpeed) < 1e-9);
    assert.equal(stick.unconverged, 0);
    if (fj === 'exact') assert.equal(slide.unconverged, 0);
  });
}

test('stack of three boxes (Newton): the ground carries 3mg, each box the weight above it', (t) => {
  const e: Vec3 = [0.1, 0.1, 0.1], m = 1;
  const s = scene([0, 1, 2].map((i) => body(`b${i}`, m, boxInertia(m, e), [0, 0, e[2] * (1 + 2 * i)])));
  const { world, states: initial } = worldOf(s);
  let states = initial;
  let worst = 0, its = 0;
  let last: NewtonReport | undefined;
  for (let k = 0; k < 100; k++) {
    const cs = [...boxPlaneContacts(states, 0, e, [0, 0, 1], 0, 0.01, 0.5), ...boxOnBoxContacts(states, 1, e, 0, e, 0.01, 0.5), ...boxOnBoxContacts(states, 2, e, 1, e, 0.01, 0.5)];
    const r = stepNonlinear(world, states, cs, nonlinearSettings({ frictionJacobian: 'exact' }), 0.01);
    assert.ok(r.report.converged);
    ({ states } = r);
    last = r.report;
    const mg = m * g;
    worst = Math.max(worst, Math.abs(normalSum(cs, r.report.contacts, -1) - 3 * mg) / (3 * mg), Math.abs(normalSum(cs, r.report.contacts, 0) - 2 * mg) / (2 * mg), Math.abs(normalSum(cs, r.report.contacts, 1) - mg) / mg);
    its = Math.max(its, r.report.iterations);
  }
  t.diagnostic(`worst relative error of the three contact loads ${worst.toExponential(2)}, ≤ ${its} Newton iterations, linear solver ${last!.linearSolvers.join('/')}`);
  assert.ok(worst < 1e-6);
  assert.ok(Math.abs(states[2].p[2] - 5 * e[2]) < 1e-9);
});

test('velocity-level contact with restitution (Newton, Υ = 0): a ball dropped from 1 m rebounds to e²·1 m within 2 %', (t) => {
  const r0 = 0.1, H = 1, e = 0.5, dt = 1e-3;
  const s = scene([body('ball', 1, [0.004, 0.004, 0.004], [0, 0, H + r0])], [], [0, 0, -g], dt);
  const { world, states: initial } = worldOf(s);
  let states = initial;
  let bounced = false, apex = 0;
  for (let k = 0; k < 2000; k++) {
    const cs = spherePlaneContacts(states, 0, r0, [0, 0, 1], 0, 0, 0.5, e);
    const r = stepNonlinear(world, states, cs, nonlinearSettings({ contactLevel: 'velocity', erp: 0 }), dt);
    assert.ok(r.report.converged);
    ({ states } = r);
    if (states[0].v[2] > 0) bounced = true;
    if (bounced) apex = Math.max(apex, states[0].p[2] - r0);
    if (bounced && states[0].v[2] < 0) break;
  }
  const rel = (apex - e * e * H) / (e * e * H);
  t.diagnostic(`apex ${apex.toFixed(5)} m vs e²h = ${e * e * H} m (relative error ${rel.toExponential(2)})`);
  assert.ok(Math.abs(rel) < 0.02);
});

test('rows without a free body (fixed–world contact and joint) carry no impulse and do not disturb Newton', () => {
  const e: Vec3 = [0.2, 0.1, 0.05], m = 2;
  const s = scene([body('box', m, boxInertia(m, e), [0, 0, e[2]]), body('post', 1, [1, 1, 1], [3, 0, e[2] - 0.01], { fixed: true })], [
    joint('ball', 'post', 'world', { anchorB: [1, 1, 1] }),
  ]);
  const { world, states } = worldOf(s);
  const cs = [...boxPlaneContacts(states, 0, e, [0, 0, 1], 0, 0.01, 0.5), ...boxPlaneContacts(states, 1, e, [0, 0, 1], 0, 0.01, 0.5)];
  assert.equal(cs.length, 8);
  for (const fj of ['exact', 'fixed-point'] as const) {
    const r = stepNonlinear(world, states, cs, nonlinearSettings({ frictionJacobian: fj }), 0.01);
    assert.ok(r.report.converged);
    assert.ok(Number.isFinite(r.report.cond));
    assert.equal(r.report.bilateral[0], 0);
    for (const f of r.report.contacts.slice(4)) assert.deepEqual([f.normalForce, f.state], [0, 'open']);
    assert.ok(Math.abs(normalSum(cs.slice(0, 4), r.report.contacts.slice(0, 4), -1) - m * g) < 1e-8 * m * g);
    assert.deepEqual(r.states[1], states[1]);
  }
});

test('an unconverged step names the block and the owner of its largest residual', () => {
  const s = scene([body('a', 1, [0.1, 0.1, 0.1], [0, 0, -1]), body('b', 1, [0.1, 0.1, 0.1], [0, 0, -2.1])], [
    joint('ball', 'a', 'world', { anchorA: [0, 0, 1] }),
    joint('ball', 'b', 'a', { anchorA: [0, 0, 1] }), // violated by 0.1 m
  ]);
  const { world, states } = worldOf(s);
  const r = stepNonlinear(world, states, [], nonlinearSettings({ newton: { maxIterations: 0, tolerance: 1e-10, lineSearch: true } }), 0.01);
  assert.equal(r.report.iterations, 0);
  assert.equal(r.report.converged, false);
  assert.equal(r.report.worst.block, 'b');
  assert.deepEqual(r.report.worst.owner, { kind: 'constraint', index: 1 });
  assert.ok(Math.abs(r.report.worst.value - 0.1) < 1e-2);
  const ok = stepNonlinear(world, states, [], nonlinearSettings(), 0.01);
  assert.ok(ok.report.converged && ok.report.blocks.b < 1e-10, 'Newton closes the 0.1 m gap within the step');
});
