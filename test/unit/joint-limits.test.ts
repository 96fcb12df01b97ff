// Joint limits and friction loss inside the engine: the joint coordinate's Jacobian against central
// finite differences at random states (hinge and slider, world and body–body ends), the limit and
// friction rows' Jacobians and activation, the scene fields (ranges, checks, CL210), and closed forms
// of the velocity formulation: a slider pushed against its bound, friction loss against a torque.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assemble, buildWorld } from '../../src/engine/assembly/assemble';
import { checkContactStep } from '../../src/engine/guards/nonFiniteContacts';
import { initialState } from '../../src/engine/model/body';
import { contactMode, ContactStepper, NO_WARM } from '../../src/engine/contact/stepContacts';
import { JointRows } from '../../src/engine/contact/jointRows';
import { JointCoordinate } from '../../src/engine/model/jointCoordinate';
import { quatMul, quatNormalize, quatToMat3 } from '../../src/engine/core/math';
import type { Pose } from '../../src/engine/model/constraint';
import { Codes, parseScene, Simulation } from '../../src/engine';
import type { Quat, Vec3 } from '../../src/engine/types';
import { rng as prng } from './linalg-fixtures';
import { body, joint, scene, worldOf } from './contact-helpers';

type Rng = () => number;
const uni = (r: Rng, lo: number, hi: number) => lo + (hi - lo) * r();
const rvec = (r: Rng, s = 1): Vec3 => [uni(r, -s, s), uni(r, -s, s), uni(r, -s, s)];
const rquat = (r: Rng): Quat => quatNormalize([uni(r, -1, 1), uni(r, -1, 1), uni(r, -1, 1), uni(r, -1, 1)]);
const unit = (v: Vec3): Vec3 => {
  const n = Math.hypot(...v);
  return [v[0] / n, v[1] / n, v[2] / n];
};
const pose = (p: Vec3, q: Quat, v: Vec3 = [0, 0, 0], w: Vec3 = [0, 0, 0]): Pose => ({ p, q, R: quatToMat3(q), v, w });
/** The pose moved for time t with its velocities: p + t·v, exp(t·ω) ⊗ q (world-frame ω). */
function moved(a: Pose, t: number): Pose {
  const wn = Math.hypot(...a.w);
  const th = wn * t;
  const ax = wn > 0 ? unit(a.w) : ([1, 0, 0] as Vec3);
  const s = Math.sin(th / 2);
  const q = quatMul([ax[0] * s, ax[1] * s, ax[2] * s, Math.cos(th / 2)], a.q);
  return pose([a.p[0] + t * a.v[0], a.p[1] + t * a.v[1], a.p[2] + t * a.v[2]], q, a.v, a.w);
}
const dot6 = (J: Float64Array, a: Pose) => J[0] * a.v[0] + J[1] * a.v[1] + J[2] * a.v[2] + J[3] * a.w[0] + J[4] * a.w[1] + J[5] * a.w[2];

for (const type of ['hinge', 'slider'] as const) {
  test(`${type} coordinate: q̇ = J_A·u_A + J_B·u_B against central differences at random states (body–body and world ends)`, () => {
    const r = prng(type === 'hinge' ? 11 : 12);
    let worst = 0;
    for (let trial = 0; trial < 40; trial++) {
      const worldEnd = trial % 2 === 0;
      const a0 = worldEnd ? pose([0, 0, 0], [0, 0, 0, 1]) : pose(rvec(r), rquat(r));
      const b0 = pose(rvec(r), rquat(r));
      const spec = { ...joint(type, worldEnd ? 'world' : 'A', 'B'), axisA: unit(rvec(r)) };
      const c = new JointCoordinate(spec, a0, b0);
      c.evaluate(a0, b0);
      assert.ok(Math.abs(c.q) < 1e-14, `q = 0 in the initial state (${c.q})`);
      // a state away from the initial one, with velocities
      const a = worldEnd ? a0 : pose(rvec(r), rquat(r), rvec(r, 2), rvec(r, 3));
      const b = pose(rvec(r), rquat(r), rvec(r, 2), rvec(r, 3));
      c.evaluate(a, b);
      const analytic = dot6(c.JA, a) + dot6(c.JB, b);
      assert.ok(Math.abs(analytic - c.qd) < 1e-12 * Math.max(1, Math.abs(c.qd)), 'q̇ is J·u');
      const e = 1e-6;
      c.evaluate(moved(a, e), moved(b, e));
      const qp = c.q;
      c.evaluate(moved(a, -e), moved(b, -e));
      const fd = (qp - c.q) / (2 * e);
      const err = Math.abs(fd - analytic) / Math.max(1, Math.abs(analytic));
      worst = Math.max(worst, err);
    }
    assert.ok(worst < 1e-7, `largest relative error ${worst}`);
  });
}

test('hinge coordinate: B turned by θ about the axis through the anchor reads θ; slider moved by d along the axis reads d', () => {
  const axis = unit([1, 2, -0.5]);
  const a0 = pose([0, 0, 0], [0, 0, 0, 1]);
  const b0 = pose([0.3, -0.2, 0.1], rquat(prng(3)));
  const hinge = new JointCoordinate({ ...joint('hinge', 'world', 'B'), axisA: axis }, a0, b0);
  for (const th of [-2.5, -0.4, 0.7, 3]) {
    const s = Math.sin(th / 2);
    const rot: Quat = [axis[0] * s, axis[1] * s, axis[2] * s, Math.cos(th / 2)];
    hinge.evaluate(a0, pose(b0.p, quatMul(rot, b0.q)));
    assert.ok(Math.abs(hinge.q - th) < 1e-12, `θ = ${th}: q = ${hinge.q}`);
  }
  const slider = new JointCoordinate({ ...joint('slider', 'world', 'B'), axisA: axis }, a0, b0);
  slider.evaluate(a0, pose([b0.p[0] + 0.25 * axis[0], b0.p[1] + 0.25 * axis[1], b0.p[2] + 0.25 * axis[2]], b0.q));
  assert.ok(Math.abs(slider.q - 0.25) < 1e-15);
});

test('limit and friction rows: ±J_q, force bounds, included when the step can reach the bound or the row pushed, warm starts clamped', () => {
  const r = prng(5);
  const qa = rquat(r), qb = rquat(r);
  const s = scene(
    [body('A', 1, [0.1, 0.2, 0.3], [0, 0, 1], { orientation: qa }), body('B', 2, [0.2, 0.1, 0.3], [0.5, 0, 1], { orientation: qb })],
    [{ ...joint('hinge', 'A', 'B', { anchorA: [0.25, 0, 0], anchorB: [-0.25, 0, 0], axisA: [0, 1, 0] }), limits: [-0.001, 1], limitMargin: 0.0005, frictionLoss: 2 }],
  );
  const { world, states } = worldOf(s);
  const rows = JointRows.of(world)!;
  assert.deepEqual(rows.info.map((i) => `${i.name}:${i.side ?? ''}:${i.bound}`), ['hinge0.limit:lower:-0.001', 'hinge0.limit:upper:1', 'hinge0.frictionloss::2']);
  const asm = assemble(world, states);
  const h = 0.01;
  const coord = new JointCoordinate(s.constraints[0], pose([0, 0, 1], qa), pose([0.5, 0, 1], qb));
  coord.evaluate(pose([0, 0, 1], qa), pose([0.5, 0, 1], qb));
  // at rest, 0.5 mm from the lower bound's margin: left out unless the step closes it or it pushed before
  assert.deepEqual(rows.rows(states, asm, h, 0.2).rows.map((x) => x.key), [2]);
  const J = [...coord.JA, ...coord.JB];
  const n2 = J.reduce((a, x) => a + x * x, 0);
  const closing = Float64Array.from(J, (x) => (-0.1 * x) / n2); // q̇ = −0.1 after the step solved without the rows
  assert.deepEqual(rows.rows(states, asm, h, 0.2, undefined, closing).rows.map((x) => x.key), [0, 2]);
  const step = rows.rows(states, asm, h, 0.2, [5, 7, 9]);
  assert.deepEqual(step.rows.map((x) => x.key), [0, 1, 2]);
  const [lower, upper, fric] = step.rows;
  for (let i = 0; i < 6; i++) {
    assert.equal(lower.JA[i], coord.JA[i]);
    assert.equal(lower.JB[i], coord.JB[i]);
    assert.equal(upper.JA[i], -coord.JA[i]);
    assert.equal(upper.JB[i], -coord.JB[i]);
    assert.equal(fric.JB[i], coord.JB[i]);
  }
  assert.ok(Math.abs(step.gap[0] - 0.0005) < 1e-15 && Math.abs(step.gap[1] - (1 - 0.0005)) < 1e-15);
  assert.deepEqual([lower.lo, lower.hi, lower.R0, upper.R0], [0, Infinity, 5, 7]);
  assert.ok(Math.abs(lower.target - -0.0005 / h) < 1e-12, 'an open bound may be reached, not passed');
  assert.deepEqual([fric.lo, fric.hi, fric.target, fric.R0], [-2, 2, 0, 2]);
  // past the bound (q = 0 below a lower bound at 0.001): always included, recovered at erp/h of the penetration
  const s2 = { ...s, constraints: [{ ...s.constraints[0], limits: [0.001, 1] as [number, number] }] };
  const w2 = worldOf(s2);
  const past = JointRows.of(w2.world)!.rows(w2.states, assemble(w2.world, w2.states), h, 0.2);
  assert.equal(past.rows[0].key, 0);
  assert.ok(Math.abs(past.rows[0].target - (0.2 * 0.0015) / h) < 1e-12, `target ${past.rows[0].target}`);
});

const sliderScene = (extra: Record<string, unknown>, force: number, formulation = 'velocity') =>
  JSON.stringify({
    gravity: [0, 0, 0],
    solver: { dt: 0.01, steps: 50, formulation },
    bodies: [{ name: 'cart', mass: 2, inertia: [0.1, 0.1, 0.1], position: [0, 0, 0], force: [force, 0, 0] }],
    constraints: [{ name: 'rail', type: 'slider', bodyA: 'world', bodyB: 'cart', axisA: [1, 0, 0], ...extra }],
  });

test('velocity formulation: a slider pushed against its bound stops on it with the row holding the push; friction loss holds below its budget and slips above it', () => {
  const push = parseScene(sliderScene({ limits: [-1, 0.05] }, 4));
  assert.deepEqual(push.diagnostics, []);
  const sim = new Simulation(push.scene!);
  for (let k = 0; k < 50; k++) sim.step();
  const last = sim.records[49];
  assert.ok(Math.abs(last.poses[0] - 0.05) < 1e-12, `x = ${last.poses[0]}`);
  assert.equal(last.jointRows?.[0].name, 'rail.limit');
  assert.ok(Math.abs(last.jointRows![0].force - 4) < 1e-9);
  for (const r of sim.records) assert.ok(r.poses[0] <= 0.05 + 1e-12);

  const hold = new Simulation(parseScene(sliderScene({ frictionLoss: 5 }, 4)).scene!);
  for (let k = 0; k < 50; k++) hold.step();
  assert.equal(hold.records[49].poses[0], 0);
  assert.equal(hold.records[49].jointRows?.[0].state, 'stick');
  assert.ok(Math.abs(hold.records[49].jointRows![0].force + 4) < 1e-9);

  // above the budget: a = (F − f)/m exactly, x = ½·a·t² on the semi-implicit Euler grid
  const slip = new Simulation(parseScene(sliderScene({ frictionLoss: 3 }, 4)).scene!);
  for (let k = 0; k < 50; k++) slip.step();
  const a = (4 - 3) / 2, h = 0.01, n = 50;
  assert.ok(Math.abs(slip.records[49].poses[0] - (a * h * h * n * (n + 1)) / 2) < 1e-12, `x = ${slip.records[49].poses[0]}`);
  assert.equal(slip.records[49].jointRows?.[0].state, 'slip');

  // on the joint's own scale: coordinate 0.3 at the start, so the bound 0.35 is 0.05 ahead, as above
  const shifted = parseScene(sliderScene({ limits: [-0.7, 0.35], coordinate: 0.3 }, 4));
  assert.deepEqual(shifted.diagnostics, []);
  const sh = new Simulation(shifted.scene!);
  for (let k = 0; k < 50; k++) sh.step();
  assert.ok(Math.abs(sh.records[49].poses[0] - 0.05) < 1e-12, `x = ${sh.records[49].poses[0]}`);
  assert.ok(Math.abs(sh.records[49].jointRows![0].q - 0.35) < 1e-12 && sh.records[49].jointRows![0].bound === 0.35);
});

test('scene fields: limits, limitMargin and frictionLoss on hinges and sliders, with their checks and ranges', () => {
  const bad = parseScene(sliderScene({ limits: [0.2, -0.1], limitMargin: -1, frictionLoss: 'x' }, 0));
  const codes = bad.diagnostics.map((d) => [d.code, (d.data as { path?: unknown[] }).path?.join('.')]);
  assert.deepEqual(codes, [
    [Codes.invalidValue, 'constraints.0.limits'],
    [Codes.invalidValue, 'constraints.0.limitMargin'],
    [Codes.schemaType, 'constraints.0.frictionLoss'],
  ]);
  assert.match(bad.diagnostics[0].message, /lower ≤ upper/);
  const text = sliderScene({ limits: [0, 1, 2] }, 0);
  const three = parseScene(text);
  assert.equal(three.diagnostics[0].code, Codes.schemaType);
  assert.equal(three.diagnostics[0].range.start.character, text.indexOf('[0,1,2]'));
  // a hinge's angle wraps at ±π: limits reaching it are dropped with CL210
  const hingeText = sliderScene({}, 0).replace('"type":"slider","bodyA":"world","bodyB":"cart","axisA":[1,0,0]', '"type":"hinge","bodyA":"world","bodyB":"cart","limits":[-4,1]');
  const wrap = parseScene(hingeText);
  assert.deepEqual(wrap.diagnostics.map((d) => [d.code, d.severity]), [[Codes.jointRowsNotSolved, 'warning']]);
  assert.match(wrap.diagnostics[0].message, /reach ±π/);
  assert.equal(wrap.scene?.constraints[0].limits, undefined);
  // the same bounds around a coordinate of −2 are within ±π of it: kept
  const around = parseScene(hingeText.replace('"limits":[-4,1]', '"limits":[-4,1],"coordinate":-2'));
  assert.deepEqual(around.diagnostics, []);
  assert.deepEqual(around.scene?.constraints[0].limits, [-4, 1]);
  // a ball joint has no limits: an unknown field
  const ball = parseScene(sliderScene({}, 0).replace('"type":"slider"', '"type":"ball","limits":[0,1]'));
  assert.equal(ball.diagnostics[0].code, Codes.unknownField);
});

test('CL210: the acceleration and nonlinear formulations do not solve joint rows, on the field', () => {
  for (const formulation of ['acceleration', 'nonlinear']) {
    const text = sliderScene({ frictionLoss: 3, limits: [-1, 1] }, 0, formulation);
    const p = parseScene(text);
    assert.equal(p.diagnostics.length, 1, JSON.stringify(p.diagnostics));
    const d = p.diagnostics[0];
    assert.equal(d.code, Codes.jointRowsNotSolved);
    assert.equal(d.severity, 'warning');
    assert.equal(d.range.start.character, text.indexOf('[-1,1]'));
    assert.match(d.message, new RegExp(`${formulation} formulation does not solve joint limits and friction loss`));
  }
  assert.deepEqual(parseScene(sliderScene({ frictionLoss: 0 }, 0, 'acceleration')).diagnostics, []);
});

test('finite checks: a NaN or 1e200 in a joint row is found on its constraint', () => {
  const scene = parseScene(sliderScene({ frictionLoss: 3, limits: [0, 1] }, 4)).scene!;
  const world = buildWorld(scene);
  const states = scene.bodies.map(initialState);
  const cs = new ContactStepper(world, scene, contactMode(scene)!).step(states, NO_WARM, assemble(world, states))!;
  assert.deepEqual(cs.jointRows?.map((r) => r.name), ['rail.limit', 'rail.frictionloss']);
  assert.equal(checkContactStep(world, cs), undefined);
  for (const [field, symbol, value] of [['force', 'λ', NaN], ['q', 'q', 1e200], ['velocity', 'q̇', -Infinity]] as const) {
    const bad = { ...cs, jointRows: cs.jointRows!.map((r, i) => (i === 1 ? { ...r, [field]: value } : r)) };
    const f = checkContactStep(world, bad);
    assert.equal(f?.symbol, symbol);
    assert.equal(f?.owner?.name, 'rail');
    assert.match(f!.quantity, /joint row rail\.frictionloss/);
  }
});
