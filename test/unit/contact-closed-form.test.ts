// Contacts through the whole pipeline (scene text → parse → simulate), against answers known in
// closed form, each with a stated tolerance; the measured errors are printed (t.diagnostic).
// The scenes are the examples (examples/*.scene.json) unless written here.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { inspectScene, Simulation, type StepRecord } from '../../src/engine';

const G = 9.81;
const read = (f: string) => readFileSync(join(__dirname, '..', '..', 'examples', f), 'utf8');

function simulation(text: string): Simulation {
  const ins = inspectScene(text);
  assert.equal(ins.hasErrors, false, ins.diagnostics.map((d) => d.message).join('\n'));
  return new Simulation(ins.parse.scene!, ins.parse.sourceMap);
}

/** Σ normal force of a step's contacts between `a` and `b` (names, either order). */
function normalSum(r: StepRecord, a: string, b: string): number {
  let s = 0;
  for (const c of r.contacts ?? []) if ((c.bodyA === a && c.bodyB === b) || (c.bodyA === b && c.bodyB === a)) s += c.normalForce;
  return s;
}
const pos = (r: StepRecord, body: number): number[] => r.poses.slice(7 * body, 7 * body + 3);
const dist = (a: number[], b: number[]) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

for (const [file, forceTol, driftTol] of [
  ['box-on-plane.scene.json', 1e-8, 1e-9],
  ['box-on-plane.velocity.scene.json', 1e-8, 1e-6],
] as const) {
  test(`box resting on the plane (${file}): Σf_n = m·g to ${forceTol}, drift ≤ ${driftTol} m and penetration < 1e-4 m over 1000 steps`, (t) => {
    const sim = simulation(read(file));
    const p0 = sim.scene.bodies[0].position;
    const recs = sim.step(1000);
    assert.equal(recs.length, 1000);
    let force = 0, drift = 0, pen = 0;
    for (const r of recs) {
      force = Math.max(force, Math.abs(normalSum(r, 'box', 'world') / G - 1));
      drift = Math.max(drift, dist(pos(r, 0), p0));
      pen = Math.max(pen, r.maxPenetration!);
      assert.equal(r.contactCount, 4);
    }
    t.diagnostic(`normal force relative error ${force.toExponential(2)}, drift ${drift.toExponential(2)} m, max penetration ${pen.toExponential(2)} m`);
    assert.ok(force <= forceTol, `force error ${force}`);
    assert.ok(drift <= driftTol, `drift ${drift}`);
    assert.ok(pen < 1e-4, `penetration ${pen}`);
    assert.deepEqual(sim.diagnostics, []);
  });
}

for (const [file, creep] of [
  ['box-incline.scene.json', 1e-9],
  ['box-incline.velocity.scene.json', 1e-8], // PGS stops at a residual of 1e-10 m/s while erp pushes the box out
] as const) {
  test(`20° incline (${file}): μ = 0.2 slides with a = g(sin θ − μ cos θ) to 1e-6, μ = 0.5 sticks (|v| ≤ 1e-9 m/s, creep ≤ ${creep} m in 90 steps)`, (t) => {
    const sim = simulation(read(file));
    const plane = sim.scene.world.shapes[0];
    assert.ok(plane.type === 'plane');
    const n = plane.normal; // unit after parsing; the slope points down along −x
    const sin = -n[0], cos = n[2];
    const down = [-cos, 0, -sin];
    const mu = (i: number) => Math.sqrt(sim.scene.bodies[i].shapes[0].friction * plane.friction);
    const expected = G * (sin - mu(0) * cos);
    const recs = sim.step(100);
    const dt = sim.scene.solver.dt;
    const along = (r: StepRecord, i: number) => {
      const p = pos(r, i);
      return p[0] * down[0] + p[1] * down[1] + p[2] * down[2];
    };
    // a from the positions: s(k) quadratic once sliding, a = second difference / h²
    const k0 = 30, k1 = 90;
    const s0 = along(recs[k0], 0), s1 = along(recs[(k0 + k1) / 2], 0), s2 = along(recs[k1], 0);
    const T = ((k1 - k0) / 2) * dt;
    const a = (s2 - 2 * s1 + s0) / (T * T);
    const aErr = Math.abs(a / expected - 1);
    const v = sim.result().final.bodies[1].velocity;
    const stick = Math.hypot(...v);
    // along the slope (the example's rounded pose starts 2e-7 m into the slope: erp pushes it out along n)
    const moved = Math.abs(along(recs[99], 1) - along(recs[9], 1));
    t.diagnostic(`slide: a = ${a.toFixed(10)} vs ${expected.toFixed(10)} (relative error ${aErr.toExponential(2)}); stick: |v| = ${stick.toExponential(2)} m/s, moved ${moved.toExponential(2)} m down the slope from step 10 to 100`);
    assert.ok(aErr <= 1e-6, `slide: a = ${a}, expected ${expected}`);
    assert.ok(stick <= 1e-9, `stick: |v| = ${stick}`);
    assert.ok(moved <= creep, `stick: moved ${moved}`);
    assert.ok(recs.slice(k0).every((r) => r.contacts!.filter((c) => c.bodyA === 'slider').every((c) => c.state === 'slip')));
    assert.ok(recs.slice(k0).every((r) => r.contacts!.filter((c) => c.bodyA === 'sticker').every((c) => c.state === 'stick')));
  });
}

for (const [file, tol] of [
  ['bouncing-ball.velocity.scene.json', 0.02],
  ['bouncing-ball.scene.json', 0.02],
] as const) {
  test(`bouncing ball (${file}): rebound apex e²·h = 0.25 m within ${tol * 100} % (an O(|v|·h) error: the impact falls between steps)`, (t) => {
    const sim = simulation(read(file));
    const e = sim.scene.bodies[0].shapes[0].restitution;
    const r0 = sim.scene.bodies[0].shapes[0].type === 'sphere' ? sim.scene.bodies[0].shapes[0].radius : NaN;
    const h0 = sim.scene.bodies[0].position[2] - r0;
    const recs = sim.step(900); // fall 0.45 s, rise 0.23 s
    const hit = recs.findIndex((r) => normalSum(r, 'ball', 'world') > 0);
    assert.ok(hit > 0, 'the ball hits the ground');
    let apex = 0;
    for (const r of recs.slice(hit)) apex = Math.max(apex, pos(r, 0)[2] - r0);
    const err = apex / (e * e * h0) - 1;
    t.diagnostic(`apex ${apex.toFixed(5)} m vs e²·h = ${(e * e * h0).toFixed(5)} m (relative error ${err.toExponential(2)}), impact at step ${hit + 1}`);
    assert.ok(Math.abs(err) <= tol, `apex ${apex}`);
  });
}

for (const [file, tol] of [
  ['box-stack.scene.json', 1e-8],
  ['box-stack.velocity.scene.json', 5e-5],
] as const) {
  test(`stack of three boxes (${file}): the ground carries 3·m·g, the middle box 2·m·g, to ${tol} (from step 10)`, (t) => {
    const sim = simulation(read(file));
    const recs = sim.step(200);
    let ground = 0, middle = 0, top = 0, first = 0;
    recs.forEach((r, k) => {
      const eg = Math.abs(normalSum(r, 'bottom', 'world') / (3 * G) - 1);
      if (k < 10) first = Math.max(first, eg);
      else {
        ground = Math.max(ground, eg);
        middle = Math.max(middle, Math.abs(normalSum(r, 'bottom', 'middle') / (2 * G) - 1));
        top = Math.max(top, Math.abs(normalSum(r, 'middle', 'top') / G - 1));
      }
    });
    t.diagnostic(`relative errors: ground ${ground.toExponential(2)}, middle ${middle.toExponential(2)}, top ${top.toExponential(2)} (steps 11–200); ground in the first 10 steps ${first.toExponential(2)}`);
    assert.ok(ground <= tol && middle <= tol && top <= tol);
    assert.ok(first <= 2e-3);
  });
}

test('PGS (velocity) and Newton (nonlinear) agree on the normal force of the resting box to 1e-9·m·g', (t) => {
  const a = simulation(read('box-on-plane.scene.json')).step(100);
  const b = simulation(read('box-on-plane.velocity.scene.json')).step(100);
  let worst = 0;
  for (let k = 0; k < 100; k++) worst = Math.max(worst, Math.abs(normalSum(a[k], 'box', 'world') - normalSum(b[k], 'box', 'world')) / G);
  t.diagnostic(`largest difference of Σf_n over 100 steps: ${worst.toExponential(2)}·m·g`);
  assert.ok(worst <= 1e-9);
});

test('nonlinear pendulum through the pipeline: position-level joint |C| < 1e-8 over 1000 steps, small-amplitude period 2π√(L/g) within 1 %', (t) => {
  const L = 1, amp = 0.05;
  const text = JSON.stringify({
    name: 'pendulum',
    solver: { formulation: 'nonlinear', dt: 0.01 },
    bodies: [{ name: 'bob', mass: 1, inertia: [1e-4, 1e-4, 1e-4], position: [L * Math.sin(amp), 0, -L * Math.cos(amp)] }],
    constraints: [{ name: 'rod', type: 'distance', bodyA: 'world', bodyB: 'bob' }],
  });
  const sim = simulation(text);
  const recs = sim.step(1000);
  const C = Math.max(...recs.map((r) => r.C[0]));
  // period from the downward zero crossings of x (linear interpolation)
  const cross: number[] = [];
  for (let k = 1; k < recs.length; k++) {
    const x0 = recs[k - 1].poses[0], x1 = recs[k].poses[0];
    if (x0 > 0 && x1 <= 0) cross.push(recs[k - 1].t + (x0 / (x0 - x1)) * (recs[k].t - recs[k - 1].t));
  }
  assert.ok(cross.length >= 4);
  const T = (cross[cross.length - 1] - cross[0]) / (cross.length - 1);
  const T0 = 2 * Math.PI * Math.sqrt(L / G);
  const err = T / T0 - 1;
  t.diagnostic(`max |C| = ${C.toExponential(2)}, T = ${T.toFixed(5)} s vs 2π√(L/g) = ${T0.toFixed(5)} s (relative error ${err.toExponential(2)}), ${cross.length - 1} periods`);
  assert.ok(C < 1e-8, `|C| = ${C}`);
  assert.ok(Math.abs(err) < 0.01, `period ${T}`);
  assert.ok(recs.every((r) => r.newton!.converged));
});
