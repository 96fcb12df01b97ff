// The contact solvers carry a coupler's extra ends (its rows act on bodies beyond bodyA and bodyB):
// a gear pair of two wheels hinged to the world, q₁ = −2·q₂, driven by a torque τ on wheel 2. The
// closed form: α₂ = τ / (I₂ + 4·I₁), α₁ = −2·α₂. PGS (velocity level) and Newton (position and velocity
// level joints) must give ω after n steps from rest as n·h·α to solver tolerance and keep q₁ = −2·q₂.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stepNonlinear } from '../../src/engine/contact/newton';
import { stepVelocity } from '../../src/engine/contact/pgs';
import type { ConstraintSpec, CoupledJoint } from '../../src/engine/scene/spec';
import { body, joint, nonlinearSettings, scene, velocitySettings, worldOf } from './contact-helpers';

const I1 = 0.3, I2 = 0.5, TAU = 1.2, H = 0.01, STEPS = 20;
const ALPHA2 = TAU / (I2 + 4 * I1);

function gear() {
  const hinge = (b: string, x: number) => joint('hinge', 'world', b, { anchorA: [x, 0, 0], axisA: [0, 0, 1], axisB: [0, 0, 1] });
  const coordinate = (j: string, b: string): CoupledJoint => ({ joint: j, kind: 'hinge', body: b, parent: 'world', axis: [0, 0, 1], initial: 0 });
  const s = scene(
    [body('w1', 1, [I1, I1, I1], [0, 0, 0], { gravity: false }), body('w2', 1, [I2, I2, I2], [1, 0, 0], { gravity: false, torque: [0, 0, TAU] })],
    [hinge('w1', 0), hinge('w2', 1)],
    [0, 0, 0],
    H,
  );
  // scene() names the hinges hinge0 and hinge1; the coupler's second joint is on w2, an extra end.
  const coupler: ConstraintSpec = {
    index: 2,
    name: 'gear',
    type: 'coupler',
    bodyA: 'w1',
    bodyB: 'world',
    anchorA: [0, 0, 0],
    anchorB: [0, 0, 0],
    coupling: { joints: [coordinate('hinge0', 'w1'), coordinate('hinge1', 'w2')], coefficients: [0, -2] },
  };
  s.constraints.push(coupler);
  return worldOf(s);
}

/** Runs `step` from rest and checks ω and the coupling against the closed form. */
function check(label: string, step: (w: ReturnType<typeof gear>['world'], st: ReturnType<typeof gear>['states']) => ReturnType<typeof gear>['states'], tol: number): void {
  const { world, states: s0 } = gear();
  assert.deepEqual(Array.from(world.endX[2]), [1], `${label}: wheel 2 is the coupler's extra end`);
  let states = s0;
  for (let n = 0; n < STEPS; n++) states = step(world, states);
  const w1 = states[0].w[2], w2 = states[1].w[2];
  const expect2 = STEPS * H * ALPHA2;
  assert.ok(Math.abs(w2 - expect2) < tol * expect2, `${label}: ω₂ = ${w2}, closed form ${expect2}`);
  assert.ok(Math.abs(w1 + 2 * w2) < tol * expect2, `${label}: ω₁ = −2·ω₂ (${w1} vs ${w2})`);
  // angles about z from the quaternions (rotation about z only)
  const angle = (q: readonly number[]) => 2 * Math.atan2(q[2], q[3]);
  const q1 = angle(states[0].q), q2 = angle(states[1].q);
  assert.ok(Math.abs(q1 + 2 * q2) < tol * Math.abs(q2), `${label}: q₁ = −2·q₂ (${q1} vs ${q2})`);
}

test('PGS (velocity level) transmits a torque through a coupler with an extra end', () => {
  const settings = velocitySettings({ pgs: { iterations: 2000, tolerance: 1e-14 } });
  let warm: { bilateral?: ArrayLike<number> } | undefined;
  check('pgs', (world, states) => {
    const r = stepVelocity(world, states, [], settings, H, warm);
    warm = { bilateral: r.report.bilateral };
    return r.states;
  }, 1e-6);
});

test('Newton (nonlinear system) transmits it too, with position- and velocity-level joints', () => {
  for (const jointLevel of ['position', 'velocity'] as const) {
    const settings = nonlinearSettings({ jointLevel, regularization: 0, newton: { maxIterations: 30, tolerance: 1e-13, lineSearch: true } });
    check(`newton/${jointLevel}`, (world, states) => stepNonlinear(world, states, [], settings, H).states, 1e-6);
  }
});
