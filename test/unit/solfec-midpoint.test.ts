// Solfec's midpoint time stepping (the seed solfec-local-dynamics.rst, equations q1, u2, UHu2, q2;
// Solfec's bod.c BODY_Dynamic_Step_Begin / BODY_Dynamic_Step_End) as the velocity formulation's
// `solver.integrator: "midpoint"`: one step against the seed's formulas to 1e-12, and a pendulum's
// energy and period against closed forms, beside semi-implicit Euler.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Codes, inspectScene, simulateScene } from '../../src/engine';

const G = 9.81;
const L = 1;

/** A point pendulum: a 1 kg bob on a rod of length L from the world's origin, released at θ0 (rotation decoupled: the rod acts at its centre). */
function pendulum(integrator: 'euler' | 'midpoint', dt: number, steps: number, theta0: number, extra: { velocity?: number[]; erp?: number } = {}): string {
  return JSON.stringify({
    name: 'pendulum',
    gravity: [0, 0, -G],
    solver: { dt, steps, formulation: 'velocity', erp: extra.erp ?? 0.2, integrator },
    bodies: [{ name: 'bob', mass: 1, inertia: [1e-3, 1e-3, 1e-3], position: [L * Math.sin(theta0), 0, -L * Math.cos(theta0)], velocity: extra.velocity ?? [0, 0, 0] }],
    constraints: [{ name: 'rod', type: 'distance', bodyA: 'world', bodyB: 'bob', anchorA: [0, 0, 0], length: L }],
  });
}

function run(text: string) {
  const r = simulateScene(text);
  assert.ok(r.result, JSON.stringify(r.inspect.diagnostics));
  assert.equal(r.result.stoppedAt, undefined);
  return r.result;
}

/** Complete elliptic integral of the first kind by the arithmetic–geometric mean: K(k) = π / (2·AGM(1, √(1 − k²))). */
function ellipticK(k: number): number {
  let a = 1, b = Math.sqrt(1 - k * k);
  for (let i = 0; i < 30; i++) [a, b] = [(a + b) / 2, Math.sqrt(a * b)];
  return Math.PI / (2 * a);
}

/** Mean period from the upward zero crossings of x(t) (linear interpolation between steps). */
function period(xs: number[], dt: number): { T: number; n: number } {
  const crossings: number[] = [];
  for (let k = 1; k < xs.length; k++) if (xs[k - 1] < 0 && xs[k] >= 0) crossings.push((k - 1 + xs[k - 1] / (xs[k - 1] - xs[k])) * dt);
  const n = crossings.length - 1;
  return { T: (crossings[n] - crossings[0]) / n, n };
}

test('one midpoint step is the seed\'s q1, u2 (U = B + W·R), q2, to 1e-12', () => {
  const h = 0.01, erp = 0.2;
  const p0 = [0.6, 0, -0.8], u0 = [0.7, 0.3, 0.5];
  const text = pendulum('midpoint', h, 1, Math.asin(0.6), { velocity: u0, erp });
  const res = run(text);
  // q^{t+h/2} = q^t + (h/2)·u^t
  const pm = p0.map((x, i) => x + (h / 2) * u0[i]);
  const dm = Math.hypot(...pm);
  // the engine's distance row (model/distance.ts, AerisLab's convention): C = ½(|d|² − L²), H = J = dᵀ, at q^{t+h/2}
  const H = pm.slice();
  const Cm = 0.5 * (dm * dm - L * L);
  // B = H·(u^t + h·M⁻¹·f(q^{t+h/2})), W = h·H·M⁻¹·Hᵀ (m = 1)
  const free = u0.map((x, i) => x + h * (i === 2 ? -G : 0));
  const B = H.reduce((s, x, i) => s + x * free[i], 0);
  const W = h * H.reduce((s, x) => s + x * x, 0);
  // the target: U = −(1 − erp)·V − (2·erp/h)·C(q^{t+h/2}), V = H·u^t (kkt.ts; erp = 0 is Solfec's FIXPNT rule U = −V)
  const V = H.reduce((s, x, i) => s + x * u0[i], 0);
  const U = -(1 - erp) * V - ((2 * erp) / h) * Cm;
  const R = (U - B) / W;
  // u^{t+h} = u^t + h·M⁻¹·f + h·M⁻¹·Hᵀ·R; q^{t+h} = q^{t+h/2} + (h/2)·u^{t+h}
  const u1 = free.map((x, i) => x + h * H[i] * R);
  const p1 = pm.map((x, i) => x + (h / 2) * u1[i]);
  const fin = res.final.bodies[0];
  for (let i = 0; i < 3; i++) {
    assert.ok(Math.abs(fin.velocity[i] - u1[i]) <= 1e-12 * Math.max(1, Math.abs(u1[i])), `u[${i}] ${fin.velocity[i]} vs ${u1[i]}`);
    assert.ok(Math.abs(fin.position[i] - p1[i]) <= 1e-12 * Math.max(1, Math.abs(p1[i])), `q[${i}] ${fin.position[i]} vs ${p1[i]}`);
  }
  assert.ok(Math.abs(res.steps[0].lambda[0] - R) <= 1e-12 * Math.abs(R), `R ${res.steps[0].lambda[0]} vs ${R}`);
  // inspect shows the system at the step's state q^t (its W = h·|d|²/m with |d| = L); the step assembles it at q^{t+h/2}
  const snap = inspectScene(text).snapshot!;
  assert.ok(Math.abs(snap.W!.values[0] - h) <= 1e-15, `W(q^t) ${snap.W!.values[0]}`);
  assert.ok(Math.abs(W - h * dm * dm) <= 1e-15 * W, "W at q^{t+h/2} is h·|d_mid|²");
  assert.match(snap.integrator!.runs, /^midpoint, velocity level \(Solfec/);
});

test('the default stays semi-implicit Euler: the same scene without `integrator` steps q + h·u⁺ from H at q^t', () => {
  const h = 0.01;
  const text = pendulum('euler', h, 1, Math.asin(0.6), { velocity: [0.7, 0.3, 0.5] });
  const plain = JSON.parse(text);
  delete plain.solver.integrator;
  const a = run(text).final.bodies[0], b = run(JSON.stringify(plain)).final.bodies[0];
  assert.deepEqual(a, b);
  assert.match(inspectScene(JSON.stringify(plain)).snapshot!.integrator!.runs, /^semi-implicit Euler, velocity level/);
});

// Energy: E = ½m|u|² + m·g·z. Midpoint: ΔE = h·λ·(U + V)/2 exactly over a step (the gravity work
// m·g·h·(u + u⁺)/2 is what the average velocity moves; the reaction's work is λ·H·(u + u⁺)·h/2), and
// for this row U + V = −(2·erp/h)·(C(q^{t+h/2}) − (h/2)·V) = −(2·erp/h)·(n·d − L)·2L vanishes with the
// invariant n_mid·d^t = L it keeps from a start on the circle at rest: E is constant to round-off.
// Semi-implicit Euler conserves a modified energy E + O(h) instead: for the linearised pendulum
// (ω = √(g/L)) E oscillates with relative amplitude h·ω/2 about its start, never drifting.
test('pendulum energy over 10 periods: midpoint constant to round-off, semi-implicit Euler swings by ≈ h·ω/2', () => {
  const theta0 = 0.5;
  const omega = Math.sqrt(G / L);
  const Eamp = G * L * (1 - Math.cos(theta0)); // the swing's energy above its lowest point (m = 1)
  for (const h of [0.01, 0.005]) {
    const steps = Math.round((10 * 2 * Math.PI) / omega / h) + 50;
    const dev = (integrator: 'euler' | 'midpoint') => {
      const res = run(pendulum(integrator, h, steps, theta0));
      const E = res.steps.map((s) => s.energy.total);
      const E0 = -G * L * Math.cos(theta0);
      return Math.max(...E.map((e) => Math.abs(e - E0))) / Eamp;
    };
    const mid = dev('midpoint');
    const eul = dev('euler');
    assert.ok(mid < 1e-12, `midpoint: max |ΔE|/E = ${mid} at h = ${h}`);
    const theory = (h * omega) / 2;
    assert.ok(eul > 0.5 * theory && eul < 3 * theory, `Euler: max |ΔE|/E = ${eul}, h·ω/2 = ${theory} at h = ${h}`);
  }
});

// Period: T = 4·√(L/g)·K(sin(θ0/2)) exactly. The midpoint step is Störmer–Verlet in the unconstrained
// coordinates: its phase error per step is (h·ω)³/24, so the period is long by the factor 1 + (h·ω)²/24.
test('pendulum period over 10 periods: midpoint within (h·ω)²/24 (+ the amplitude\'s share) of 4·√(L/g)·K(sin θ0/2)', () => {
  const theta0 = 0.5;
  const exact = 4 * Math.sqrt(L / G) * ellipticK(Math.sin(theta0 / 2));
  const omega = Math.sqrt(G / L);
  for (const h of [0.01, 0.005]) {
    const steps = Math.round((11 * exact) / h); // upward crossings at ¾T, 1¾T, …, 10¾T
    const res = run(pendulum('midpoint', h, steps, theta0));
    const xs = res.steps.map((s) => s.poses[0]);
    const { T, n } = period(xs, h);
    assert.equal(n, 10);
    const rel = Math.abs(T - exact) / exact;
    // the bound: Verlet's (h·ω)²/24 at the small-amplitude frequency, twice over for the amplitude's
    // stiffening (ω_eff ≤ ω) and the interpolated crossings (their error is O(h²) too)
    assert.ok(rel < 2 * ((h * omega) ** 2) / 24, `T = ${T} vs ${exact}: rel ${rel}, bound ${(2 * (h * omega) ** 2) / 24}`);
  }
});

test('midpoint in another formulation: CL620 says it runs only in the velocity formulation; the step stays semi-implicit Euler', () => {
  const text = JSON.stringify({
    solver: { dt: 0.01, integrator: 'midpoint' },
    bodies: [{ name: 'bob', mass: 1, position: [1, 0, 0] }],
    constraints: [{ name: 'rod', type: 'distance', bodyA: 'world', bodyB: 'bob', length: 1 }],
  });
  const r = inspectScene(text);
  const d = r.diagnostics.find((x) => x.code === Codes.integrator);
  assert.ok(d, JSON.stringify(r.diagnostics));
  assert.equal(d.severity, 'information');
  assert.deepEqual(d.data?.path, ['solver', 'integrator']);
  assert.equal(r.snapshot!.integrator!.runs, 'semi-implicit Euler');
  const bad = inspectScene(text.replace('"midpoint"', '"midpiont"'));
  const e = bad.diagnostics.find((x) => x.code === Codes.invalidValue);
  assert.ok(e && /euler.*midpoint/.test(e.message), JSON.stringify(bad.diagnostics));
});

// A rigid bob on a ball joint (the rod's rotation is the body's own: three rows, the angular columns
// in play). With a spherical inertia the gyroscopic term ω×(I·ω) is zero and the midpoint step is
// second order in its energy error (halving h divides it by about 4), where semi-implicit Euler's
// error is first order and far larger at both steps.
test('rigid pendulum on a ball joint: midpoint energy error second order and under a tenth of Euler\'s', () => {
  const dev = (integrator: 'euler' | 'midpoint', h: number) => {
    const res = run(
      JSON.stringify({
        name: 'ball pendulum',
        solver: { dt: h, steps: Math.round(20 / h), formulation: 'velocity', erp: 0.2, integrator },
        bodies: [{ name: 'bob', mass: 2, inertia: [0.02, 0.02, 0.02], position: [1, 0, 1], velocity: [0, 1, 0] }],
        constraints: [{ name: 'pivot', type: 'ball', bodyA: 'world', bodyB: 'bob', anchorA: [0, 0, 1], anchorB: [-1, 0, 0] }],
      }),
    );
    const E = res.steps.map((s) => s.energy.total);
    return Math.max(...E.map((e) => Math.abs(e - E[0])));
  };
  const [m1, m2, e1, e2] = [dev('midpoint', 0.01), dev('midpoint', 0.005), dev('euler', 0.01), dev('euler', 0.005)];
  assert.ok(m1 / m2 > 3, `midpoint: ${m1} at h = 0.01, ${m2} at h = 0.005 (second order: ratio ≈ 4)`);
  assert.ok(m1 < e1 / 10 && m2 < e2 / 10, `midpoint ${m1}, ${m2} vs Euler ${e1}, ${e2}`);
});

test('simulate --json names the integrator that runs', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'cl-midpoint-')), 'pendulum.scene.json');
  writeFileSync(file, pendulum('midpoint', 0.01, 3, 0.5));
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(__dirname, '../../src/cli.ts'), 'simulate', file, '--json'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.match(out.integrator.runs, /^midpoint, velocity level \(Solfec/);
  assert.equal(out.steps.length, 3);
});
