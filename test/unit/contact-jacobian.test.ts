// The analytic Newton matrix ∂h/∂x of Axion's nonlinear system against central finite differences
// of the residual, block by block, at random states: six bilateral joint types (world and
// body–body ends, a fixed body), contacts between free bodies, the world and a fixed body, friction
// active and inactive; position- and velocity-level rows; fixed-point and exact friction Jacobians.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rng as prng } from './linalg-fixtures';
import { csrToDense } from '../../src/engine/linalg/sparse';
import { perpendicularBasis, quatNormalize } from '../../src/engine/core/math';
import type { Contact } from '../../src/engine/collision/contacts';
import { fischerBurmeister, frictionW, frictionWDerivatives } from '../../src/engine/contact/ncp';
import { NonlinearSystem, type FrozenFriction, type NonlinearSettings } from '../../src/engine/contact/system';
import type { Quat, Vec3 } from '../../src/engine/types';
import { body, joint, nonlinearSettings, scene, worldOf } from './contact-helpers';

type Rng = () => number;
const uni = (r: Rng, lo: number, hi: number) => lo + (hi - lo) * r();
const rvec = (r: Rng, s = 1): Vec3 => [uni(r, -s, s), uni(r, -s, s), uni(r, -s, s)];
const rquat = (r: Rng): Quat => quatNormalize([uni(r, -1, 1), uni(r, -1, 1), uni(r, -1, 1), uni(r, -1, 1)]);
const unit = (v: Vec3): Vec3 => {
  const n = Math.hypot(...v);
  return [v[0] / n, v[1] / n, v[2] / n];
};

function randomContact(r: Rng, a: number, b: number): Contact {
  const n = unit(rvec(r));
  const [t1, t2] = perpendicularBasis(n);
  return {
    bodyA: a, bodyB: b, shapeA: 0, shapeB: 0,
    point: rvec(r), normal: n, gap: uni(r, -0.05, 0.05), t1, t2,
    localA: rvec(r, 0.5), localB: rvec(r, 0.5),
    friction: uni(r, 0.2, 0.9), restitution: uni(r, 0, 0.8),
  };
}

/** A random system: 3 free bodies and a fixed one, one joint of each type, 4 contacts. */
function randomSystem(seed: number, settings: NonlinearSettings) {
  const r = prng(seed);
  const free = (name: string) =>
    body(name, uni(r, 0.5, 3), [uni(r, 0.05, 0.3), uni(r, 0.05, 0.3), uni(r, 0.05, 0.3)], rvec(r, 2), {
      orientation: rquat(r), velocity: rvec(r, 2), angularVelocity: rvec(r, 3), force: rvec(r, 1), torque: rvec(r, 0.5),
    });
  const bodies = [free('b0'), free('b1'), free('b2'), body('f3', 1, [1, 1, 1], rvec(r, 2), { orientation: rquat(r), fixed: true })];
  const a = () => rvec(r, 0.5);
  const constraints = [
    joint('distance', 'b0', 'world', { anchorA: a(), anchorB: a(), length: uni(r, 0.5, 2) }),
    joint('ball', 'b1', 'b0', { anchorA: a(), anchorB: a() }),
    joint('hinge', 'b2', 'b1', { anchorA: a(), anchorB: a(), axisA: unit(rvec(r)), axisB: unit(rvec(r)) }),
    joint('fixed', 'b2', 'f3', { anchorA: a(), anchorB: a() }),
    joint('slider', 'b0', 'b2', { anchorA: a(), anchorB: a(), axisA: unit(rvec(r)) }),
    joint('lock', 'b1', 'world', { anchorA: a(), anchorB: a(), linear: [true, false, true], angular: [false, true, true] }),
  ];
  const { world, states } = worldOf(scene(bodies, constraints, [0, 0, -9.81], 0.01));
  const contacts = [randomContact(r, 0, -1), randomContact(r, 1, 2), randomContact(r, 2, 3), randomContact(r, 0, 1)];
  const sys = new NonlinearSystem(world, states, contacts, settings, 0.01);
  // a random iterate near q⁻: Q not unit, λ_n > 0 (away from the FB kink), friction impulses of either sign
  const x = sys.initialGuess();
  for (let k = 0; k < sys.nb; k++) {
    for (let d = 0; d < 3; d++) x[7 * k + d] += uni(r, -0.05, 0.05);
    const q = rquat(r), s = uni(r, 0.9, 1.1);
    for (let d = 0; d < 4; d++) x[7 * k + 3 + d] = s * q[d];
  }
  for (let i = sys.cu; i < sys.clb; i++) x[i] = uni(r, -2, 2);
  for (let i = sys.clb; i < sys.cln; i++) x[i] = uni(r, -0.5, 0.5);
  for (let i = sys.cln; i < sys.clf; i++) x[i] = uni(r, 0.05, 0.5);
  for (let i = sys.clf; i < sys.N; i++) x[i] = uni(r, -0.1, 0.1);
  return { sys, x, r };
}

/** Largest |J − J_fd| / max(1, |J|) per (row block, column block). */
function compare(sys: NonlinearSystem, x: Float64Array, frAt: (x: Float64Array) => FrozenFriction) {
  const J = csrToDense(sys.jacobian(x, frAt(x), 0));
  const N = sys.N;
  const fd: number[][] = Array.from({ length: N }, () => new Array(N).fill(0));
  const xp = Float64Array.from(x), xm = Float64Array.from(x);
  for (let j = 0; j < N; j++) {
    const e = 1e-6 * Math.max(1, Math.abs(x[j]));
    xp[j] = x[j] + e;
    xm[j] = x[j] - e;
    const hp = sys.residual(xp, frAt(xp)), hm = sys.residual(xm, frAt(xm));
    for (let i = 0; i < N; i++) fd[i][j] = (hp[i] - hm[i]) / (2 * e);
    xp[j] = xm[j] = x[j];
  }
  const errors: Record<string, number> = {};
  let worst = 0;
  for (const rb of sys.rowBlocks)
    for (const cb of sys.colBlocks) {
      let e = 0;
      for (let i = rb.start; i < rb.start + rb.size; i++)
        for (let j = cb.start; j < cb.start + cb.size; j++) e = Math.max(e, Math.abs(J[i][j] - fd[i][j]) / Math.max(1, Math.abs(J[i][j])));
      errors[`${rb.name}/${cb.name}`] = e;
      worst = Math.max(worst, e);
    }
  return { errors, worst, J };
}

const configs: Array<[string, Partial<NonlinearSettings>]> = [
  ['position level, fixed-point friction', { frictionJacobian: 'fixed-point' }],
  ['position level, exact friction', { frictionJacobian: 'exact' }],
  ['velocity level, fixed-point friction', { jointLevel: 'velocity', contactLevel: 'velocity', compliance: 1e-3, frictionJacobian: 'fixed-point' }],
  ['velocity level, exact friction', { jointLevel: 'velocity', contactLevel: 'velocity', frictionJacobian: 'exact', fb: { alpha: 2, beta: 0.5 } }],
];

for (const [name, extra] of configs) {
  test(`∂h/∂x matches central differences at random states (${name})`, (t) => {
    const settings = nonlinearSettings(extra);
    let worst = 0;
    const blockWorst: Record<string, number> = {};
    for (let seed = 1; seed <= 6; seed++) {
      const { sys, x, r } = randomSystem(seed, settings);
      const exact = settings.frictionJacobian === 'exact';
      // fixed point: W frozen at random values, one contact's friction inactive; exact: W(x) everywhere
      const frozen: FrozenFriction = { W: Float64Array.from({ length: sys.nc }, () => uni(r, 0.1, 2)), active: Uint8Array.from([1, 1, 0, 1]) };
      const res = compare(sys, x, exact ? (y) => sys.frozenFriction(y) : () => frozen);
      if (exact) assert.ok(sys.frozenFriction(x).active.every((a) => a === 1), 'all friction rows active');
      worst = Math.max(worst, res.worst);
      for (const [k, v] of Object.entries(res.errors)) blockWorst[k] = Math.max(blockWorst[k] ?? 0, v);
      // the blocks the formulation says are zero are structurally zero
      assert.equal(res.J[0][sys.cq], 0, 'dyn does not depend on q (M̃, J at q⁻)');
    }
    const shown = Object.entries(blockWorst).filter(([, v]) => v > 0).map(([k, v]) => `${k} ${v.toExponential(1)}`);
    t.diagnostic(`worst relative error ${worst.toExponential(2)}; per block: ${shown.join(', ')}`);
    assert.ok(worst < 1e-6, `worst FD error ${worst}`);
  });
}

test('scaled Fischer–Burmeister: zero exactly on the complementarity set, derivatives match differences', () => {
  const out = new Float64Array(3);
  for (const [a, b] of [[0, 2], [3, 0], [0, 0]]) {
    fischerBurmeister(a, b, 1.5, 0.7, out);
    assert.equal(out[0], 0);
  }
  fischerBurmeister(-1, 2, 1, 1, out);
  assert.ok(out[0] < 0);
  const r = prng(7);
  for (let k = 0; k < 50; k++) {
    const a = uni(r, -2, 2), b = uni(r, -2, 2), al = uni(r, 0.1, 3), be = uni(r, 0.1, 3), e = 1e-6;
    fischerBurmeister(a, b, al, be, out);
    const [, da, db] = out;
    const f = (x: number, y: number) => (fischerBurmeister(x, y, al, be, out), out[0]);
    assert.ok(Math.abs(da - (f(a + e, b) - f(a - e, b)) / (2 * e)) < 1e-7);
    assert.ok(Math.abs(db - (f(a, b + e) - f(a, b - e)) / (2 * e)) < 1e-7);
  }
});

test("Axion's friction W: stick gives W = 0, slip gives W = s/‖λ_f‖, derivatives match differences", () => {
  assert.equal(frictionW(0, 0.3, 0.5, 2), 0, 'stick: s = 0 inside the cone');
  assert.ok(Math.abs(frictionW(1.5, 0.5, 0.5, 2) - 1.5 / 0.5) < 1e-15, 'slip on the cone boundary');
  assert.equal(frictionW(1, 0, 0, 2), 2e8, 'no budget: the upper bound');
  const r = prng(11), d = new Float64Array(4), e = 1e-7;
  for (let k = 0; k < 50; k++) {
    const s = uni(r, 0.01, 2), L = uni(r, 0.01, 1), g = uni(r, 0.01, 1) * (k % 2 ? 1 : -0.2), rr = uni(r, 0.5, 3);
    frictionWDerivatives(s, L, g + L, rr, d);
    if (d[0] === 0 || d[0] === 1e8 * rr) continue;
    const W = (s_: number, L_: number, g_: number) => frictionW(s_, L_, g_ + L_, rr);
    assert.ok(Math.abs(d[0] - W(s, L, g)) < 1e-14 * Math.max(1, d[0]));
    const tol = (v: number) => 1e-5 * Math.max(1, Math.abs(v));
    assert.ok(Math.abs(d[1] - (W(s + e, L, g) - W(s - e, L, g)) / (2 * e)) < tol(d[1]));
    assert.ok(Math.abs(d[2] - (W(s, L + e, g) - W(s, L - e, g)) / (2 * e)) < tol(d[2]));
    assert.ok(Math.abs(d[3] - (W(s, L, g + e) - W(s, L, g - e)) / (2 * e)) < tol(d[3]));
  }
});
