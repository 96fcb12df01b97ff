// Exactness tests of the constraint models: Jacobians and J̇v against finite differences along the
// true rigid-body motion (ṗ = v, q̇ = ½ω⊗q, world-frame ω), reference capture, and the seed rows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Quat, Vec3 } from '../../src/engine/types';
import type { ConstraintSpec, ConstraintType, CoupledJoint } from '../../src/engine/scene/spec';
import { CONSTRAINT_TYPES } from '../../src/engine/scene/spec';
import { IDENTITY_QUAT, quatFromRotationVector, quatMul, quatNormalize, quatToMat3 } from '../../src/engine/core/math';
import { makeEval, type ConstraintEval, type ConstraintModel, type Pose } from '../../src/engine/model/constraint';
import { createConstraint } from '../../src/engine/model/index';
import { rng as prng } from './linalg-fixtures';
import { CHAIN_SHAPES, randomChain } from './chain-helpers';

// ---------------------------------------------------------------- helpers

type Rng = () => number;
const uni = (rng: Rng, lo: number, hi: number): number => lo + (hi - lo) * rng();
const rvec = (rng: Rng, s = 1): Vec3 => [uni(rng, -s, s), uni(rng, -s, s), uni(rng, -s, s)];
function gauss(rng: Rng): number {
  return Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
}
const rquat = (rng: Rng): Quat => quatNormalize([gauss(rng), gauss(rng), gauss(rng), gauss(rng)]);
function runit(rng: Rng): Vec3 {
  const v: Vec3 = [gauss(rng), gauss(rng), gauss(rng)];
  const n = Math.hypot(...v);
  return [v[0] / n, v[1] / n, v[2] / n];
}

function pose(p: Vec3, q: Quat, v: Vec3 = [0, 0, 0], w: Vec3 = [0, 0, 0]): Pose {
  return { p: [...p] as Vec3, q: [...q] as Quat, R: quatToMat3(q), v: [...v] as Vec3, w: [...w] as Vec3 };
}
const randomPose = (rng: Rng): Pose => pose(rvec(rng, 2), rquat(rng), rvec(rng, 1.5), rvec(rng, 1.5));

/** The pose after moving for time t with constant v, ω: p + t v, exp(tω) ⊗ q. Velocities unchanged. */
function advance(x: Pose, t: number): Pose {
  const p: Vec3 = [x.p[0] + t * x.v[0], x.p[1] + t * x.v[1], x.p[2] + t * x.v[2]];
  const q = quatMul(quatFromRotationVector([t * x.w[0], t * x.w[1], t * x.w[2]]), x.q);
  return pose(p, q, x.v, x.w);
}

function spec(type: ConstraintType, extra: Partial<ConstraintSpec> = {}): ConstraintSpec {
  return { index: 0, name: `${type}0`, type, bodyA: 'A', bodyB: 'B', anchorA: [0, 0, 0], anchorB: [0, 0, 0], ...extra };
}

function randomSpec(type: ConstraintType, rng: Rng): ConstraintSpec {
  const lin: [boolean, boolean, boolean] = [rng() < 0.6, rng() < 0.6, rng() < 0.6];
  const ang: [boolean, boolean, boolean] = [rng() < 0.6, rng() < 0.6, rng() < 0.6];
  if (!lin.some(Boolean) && !ang.some(Boolean)) lin[0] = true;
  // Two-body couplers (both coordinates between A and B, e.g. a screw); four-body ones: constraints-coupler.test.ts.
  const joint = (k: number): CoupledJoint => ({
    joint: `j${k}`,
    kind: k === 0 || rng() < 0.5 ? 'hinge' : 'slider',
    body: k === 0 || rng() < 0.5 ? 'A' : 'B',
    parent: 'B',
    axis: runit(rng),
    initial: uni(rng, -1, 1),
  });
  const j0 = joint(0), j1 = joint(1);
  if (j1.body === 'B') j1.parent = 'A';
  return spec(type, {
    anchorA: rvec(rng, 1),
    anchorB: rvec(rng, 1),
    length: type === 'distance' && rng() < 0.5 ? uni(rng, 0.5, 3) : undefined,
    axisA: runit(rng),
    axisB: runit(rng),
    linear: lin,
    angular: ang,
    chain: type === 'chain' ? randomChain(rng, CHAIN_SHAPES[Math.floor(rng() * CHAIN_SHAPES.length)]) : undefined,
    coupling: type === 'coupler' ? { joints: [j0, j1], coefficients: [uni(rng, -1, 1), uni(rng, -2, 2), uni(rng, -1, 1), uni(rng, -0.5, 0.5)] } : undefined,
  });
}

function evalAt(m: ConstraintModel, a: Pose, b: Pose): ConstraintEval {
  const out = makeEval(m.rows);
  m.evaluate(a, b, out);
  return out;
}

/** J·[vA;ωA] + J·[vB;ωB], row by row. */
function jv(m: ConstraintModel, e: ConstraintEval, a: Pose, b: Pose): number[] {
  const va = [...a.v, ...a.w], vb = [...b.v, ...b.w];
  const r: number[] = [];
  for (let i = 0; i < m.rows; i++) {
    let s = 0;
    for (let c = 0; c < 6; c++) s += e.JA[i * 6 + c] * va[c] + e.JB[i * 6 + c] * vb[c];
    r.push(s);
  }
  return r;
}

const maxAbs = (x: ArrayLike<number>): number => {
  let m = 0;
  for (let i = 0; i < x.length; i++) m = Math.max(m, Math.abs(x[i]));
  return m;
};
const maxDiff = (x: ArrayLike<number>, y: ArrayLike<number>): number => {
  let m = 0;
  for (let i = 0; i < x.length; i++) m = Math.max(m, Math.abs(x[i] - y[i]));
  return m;
};

const H = 1e-5;

/** Central FD of C along the motion (≈ Ċ). */
function fdC(m: ConstraintModel, a: Pose, b: Pose): number[] {
  const p = evalAt(m, advance(a, H), advance(b, H)).C, n = evalAt(m, advance(a, -H), advance(b, -H)).C;
  return Array.from(p, (x, i) => (x - n[i]) / (2 * H));
}
/** Central FD of J·v along the motion with v, ω held constant (≈ J̇v). */
function fdJv(m: ConstraintModel, a: Pose, b: Pose): number[] {
  const ap = advance(a, H), bp = advance(b, H), an = advance(a, -H), bn = advance(b, -H);
  const p = jv(m, evalAt(m, ap, bp), ap, bp), n = jv(m, evalAt(m, an, bn), an, bn);
  return p.map((x, i) => (x - n[i]) / (2 * H));
}
/** Second central difference of C along the motion (≈ C̈ = J̇v since a = 0), a coarser independent check. */
function fd2C(m: ConstraintModel, a: Pose, b: Pose): number[] {
  const h = 1e-4;
  const p = evalAt(m, advance(a, h), advance(b, h)).C, n = evalAt(m, advance(a, -h), advance(b, -h)).C;
  const c = evalAt(m, a, b).C;
  return Array.from(c, (x, i) => (p[i] - 2 * x + n[i]) / (h * h));
}

/** The orientation error's scalar part for fixed-type rows is near 0 (180° off): hemisphere flip zone. */
function nearFlip(a: Pose, b: Pose, a0: Pose, b0: Pose): boolean {
  const qrel = quatMul([-a0.q[0], -a0.q[1], -a0.q[2], a0.q[3]], b0.q);
  const e = quatMul(quatMul(a.q, qrel), [-b.q[0], -b.q[1], -b.q[2], b.q[3]]);
  return Math.abs(e[3]) < 1e-2;
}

const N_STATES = 60;
const EXPECTED_ROWS: Record<ConstraintType, number> = { distance: 1, ball: 3, hinge: 5, fixed: 6, slider: 5, lock: -1, universal: 4, coupler: 1, chain: -1 };

interface Case {
  m: ConstraintModel;
  a: Pose;
  b: Pose;
}

function* randomCases(type: ConstraintType, seed: number): Generator<Case> {
  const rng = prng(seed);
  let produced = 0;
  while (produced < N_STATES) {
    const s = randomSpec(type, rng);
    const a0 = randomPose(rng), b0 = randomPose(rng);
    const a = randomPose(rng), b = randomPose(rng);
    if (nearFlip(a, b, a0, b0)) continue;
    produced++;
    yield { m: createConstraint(s, a0, b0), a, b };
  }
}

// ---------------------------------------------------------------- exactness, every type

for (const [ti, type] of CONSTRAINT_TYPES.entries()) {
  test(`${type}: rows, labels and buffers are consistent`, () => {
    for (const { m, a, b } of randomCases(type, 100 + ti)) {
      if (EXPECTED_ROWS[type] > 0) assert.equal(m.rows, EXPECTED_ROWS[type]);
      assert.equal(m.rowLabels.length, m.rows);
      assert.equal(m.spec.type, type);
      const e = evalAt(m, a, b);
      for (const arr of [e.C, e.JA, e.JB, e.Jdotv]) for (const x of arr) assert.ok(Number.isFinite(x), 'non-finite output');
    }
  });

  test(`${type}: Ċ = JA·[vA;ωA] + JB·[vB;ωB] (FD of C, ${N_STATES} random states)`, () => {
    let worst = 0;
    for (const { m, a, b } of randomCases(type, 200 + ti)) {
      const e = evalAt(m, a, b);
      const an = jv(m, e, a, b), fd = fdC(m, a, b);
      const err = maxDiff(an, fd) / (1 + maxAbs(an));
      worst = Math.max(worst, err);
      assert.ok(err < 1e-7, `${type}: |Jv − FD| rel ${err.toExponential(2)}; J·v=${an} fd=${fd}`);
    }
    assert.ok(worst < 1e-7, 'worst relative error');
  });

  test(`${type}: J̇v matches FD of J·v along the motion and the second difference of C`, () => {
    for (const { m, a, b } of randomCases(type, 300 + ti)) {
      const e = evalAt(m, a, b);
      const fd = fdJv(m, a, b);
      const err = maxDiff(e.Jdotv, fd) / (1 + maxAbs(fd));
      assert.ok(err < 1e-7, `${type}: |J̇v − FD| rel ${err.toExponential(2)}; J̇v=${Array.from(e.Jdotv)} fd=${fd}`);
      const fd2 = fd2C(m, a, b);
      const err2 = maxDiff(e.Jdotv, fd2) / (1 + maxAbs(fd2));
      assert.ok(err2 < 1e-5, `${type}: |J̇v − C̈_FD| rel ${err2.toExponential(2)}`);
    }
  });

  test(`${type}: the FD checks catch a sign-flipped Jacobian column and a zeroed J̇v`, () => {
    let caughtJ = 0, caughtJd = 0, n = 0;
    for (const { m, a, b } of randomCases(type, 400 + ti)) {
      n++;
      const e = evalAt(m, a, b);
      const fd = fdC(m, a, b);
      // Flip the column of JA or JB (linear or angular) with the largest contribution to J·v.
      const vel = [...a.v, ...a.w, ...b.v, ...b.w];
      let best = -1, bestMag = 0;
      for (let c = 0; c < 12; c++) {
        const J = c < 6 ? e.JA : e.JB;
        for (let r = 0; r < m.rows; r++) {
          const mag = Math.abs(J[r * 6 + (c % 6)] * vel[c]);
          if (mag > bestMag) [best, bestMag] = [c, mag];
        }
      }
      if (best >= 0 && bestMag > 1e-3) {
        const J = best < 6 ? e.JA : e.JB;
        for (let r = 0; r < m.rows; r++) J[r * 6 + (best % 6)] *= -1;
        const err = maxDiff(jv(m, e, a, b), fd);
        assert.ok(err > 1e-4, `flipped column ${best} not detected (err ${err})`);
        caughtJ++;
      }
      const fdd = fdJv(m, a, b);
      if (maxAbs(fdd) > 1e-3) {
        assert.ok(maxDiff(new Float64Array(m.rows), fdd) > 1e-4, 'zeroed J̇v not detected');
        caughtJd++;
      }
    }
    assert.ok(caughtJ >= n * 0.9, `only ${caughtJ}/${n} sign flips exercised`);
    assert.ok(caughtJd >= n * 0.9, `only ${caughtJd}/${n} J̇v checks exercised`);
  });
}

test('the angular FD check also catches the transposed (wrong-sign [v]×) orientation Jacobian', () => {
  // A classic mistake: J_A,ang = sI + [v]× instead of sI − [v]×. Needs a sizeable orientation error.
  let caught = 0;
  for (const { m, a, b } of randomCases('fixed', 8)) {
    const e = evalAt(m, a, b);
    for (let r = 3; r < 6; r++)
      for (let c = 3; c < 6; c++) if (c - 3 !== r - 3) e.JA[r * 6 + c] *= -1; // off-diagonal = ±v terms
    const err = maxDiff(jv(m, e, a, b), fdC(m, a, b));
    if (err > 1e-4) caught++;
  }
  assert.ok(caught >= N_STATES * 0.9, `only caught ${caught}`);
});

// ---------------------------------------------------------------- reference capture

test('C = 0 in the initial configuration for fixed, slider (angular rows), lock, and distance without length', () => {
  const rng = prng(11);
  for (let i = 0; i < N_STATES; i++) {
    const a0 = randomPose(rng), b0 = randomPose(rng);
    for (const type of ['fixed', 'slider', 'lock', 'distance'] as const) {
      const s = randomSpec(type, rng);
      if (type === 'distance') s.length = undefined;
      const m = createConstraint(s, a0, b0);
      const e = evalAt(m, a0, b0);
      const rows = type === 'fixed' ? [3, 4, 5] : type === 'slider' ? [2, 3, 4] : [...Array(m.rows).keys()];
      for (const r of rows) assert.ok(Math.abs(e.C[r]) < 1e-12, `${type} row ${m.rowLabels[r]}: C = ${e.C[r]}`);
    }
  }
});

test('fixed and ball are 0 when the anchors coincide initially; hinge when the axes are aligned too', () => {
  const rng = prng(12);
  for (let i = 0; i < N_STATES; i++) {
    const a0 = randomPose(rng);
    const qB = rquat(rng);
    const anchorA = rvec(rng), anchorB = rvec(rng);
    const xA = evalPoint(a0, anchorA);
    const RB = quatToMat3(qB);
    const rB: Vec3 = [0, 1, 2].map((k) => RB[k * 3] * anchorB[0] + RB[k * 3 + 1] * anchorB[1] + RB[k * 3 + 2] * anchorB[2]) as Vec3;
    const b0 = pose([xA[0] - rB[0], xA[1] - rB[1], xA[2] - rB[2]], qB);
    // Hinge: choose axisB so that R_B·axisB = R_A·axisA.
    const axisA = runit(rng);
    const aw = [0, 1, 2].map((k) => a0.R[k * 3] * axisA[0] + a0.R[k * 3 + 1] * axisA[1] + a0.R[k * 3 + 2] * axisA[2]);
    const axisB = [0, 1, 2].map((k) => RB[k] * aw[0] + RB[3 + k] * aw[1] + RB[6 + k] * aw[2]) as Vec3; // R_Bᵀ·a
    for (const type of ['ball', 'fixed', 'hinge'] as const) {
      const m = createConstraint(spec(type, { anchorA, anchorB, axisA, axisB }), a0, b0);
      assert.ok(maxAbs(evalAt(m, a0, b0).C) < 1e-12, `${type}`);
    }
  }
});

function evalPoint(x: Pose, anchor: Vec3): Vec3 {
  const R = x.R;
  return [0, 1, 2].map((k) => x.p[k] + R[k * 3] * anchor[0] + R[k * 3 + 1] * anchor[1] + R[k * 3 + 2] * anchor[2]) as Vec3;
}

test('fixed: hemisphere handling — C is continuous in q_B → −q_B and small for small errors', () => {
  const rng = prng(13);
  for (let i = 0; i < 20; i++) {
    const a0 = randomPose(rng), b0 = randomPose(rng);
    const m = createConstraint(spec('fixed'), a0, b0);
    const theta = rvec(rng, 0.1);
    const a = pose(a0.p, quatMul(quatFromRotationVector(theta), a0.q));
    const qBneg: Quat = [-b0.q[0], -b0.q[1], -b0.q[2], -b0.q[3]];
    const e1 = evalAt(m, a, pose(b0.p, b0.q)), e2 = evalAt(m, a, pose(b0.p, qBneg));
    assert.ok(maxDiff(e1.C, e2.C) < 1e-14, 'C jumps under q_B → −q_B');
    // A world-frame rotation θ of A gives C_ang = 2 sin(|θ|/2) θ/|θ| ≈ θ.
    const t = Math.hypot(...theta), k = (2 * Math.sin(t / 2)) / t;
    for (let j = 0; j < 3; j++) assert.ok(Math.abs(e1.C[3 + j] - k * theta[j]) < 1e-12, `C_ang[${j}] ≠ 2 sin(|θ|/2) θ̂`);
  }
});

// ---------------------------------------------------------------- seed rows and semantics

test('seed: AerisLab walkthrough distance row (A at origin, B at (2,0,0), L = 2)', () => {
  const a = pose([0, 0, 0], IDENTITY_QUAT), b = pose([2, 0, 0], IDENTITY_QUAT);
  for (const length of [2, undefined]) {
    const m = createConstraint(spec('distance', { length }), a, b);
    assert.deepEqual(m.rowLabels, ['d']);
    const e = evalAt(m, a, b);
    assert.equal(e.C[0], 0);
    assert.deepEqual(Array.from(e.JA).map((x) => x + 0), [-2, 0, 0, 0, 0, 0]);
    assert.deepEqual(Array.from(e.JB).map((x) => x + 0), [2, 0, 0, 0, 0, 0]);
    assert.equal(e.Jdotv[0], 0);
  }
});

test('seed: hanging mass (A at (0,0,2), B at origin) → JB = [0,0,−2,0,0,0]', () => {
  const a = pose([0, 0, 2], IDENTITY_QUAT), b = pose([0, 0, 0], IDENTITY_QUAT);
  const m = createConstraint(spec('distance', { length: 2 }), a, b);
  const e = evalAt(m, a, b);
  assert.equal(e.C[0], 0);
  assert.deepEqual(Array.from(e.JA).map((x) => x + 0), [0, 0, 2, 0, 0, 0]);
  assert.deepEqual(Array.from(e.JB).map((x) => x + 0), [0, 0, -2, 0, 0, 0]);
  // A swinging pendulum: B moving sideways at 1 m/s → C̈ = |ḋ|² = 1 (centripetal term).
  const e2 = evalAt(m, a, pose([0, 0, 0], IDENTITY_QUAT, [1, 0, 0]));
  assert.equal(e2.Jdotv[0], 1);
});

test('distance with L undefined uses the initial anchor distance', () => {
  const a0 = pose([1, 2, 3], IDENTITY_QUAT), b0 = pose([1, 2, 0], IDENTITY_QUAT);
  const m = createConstraint(spec('distance', { anchorA: [0, 0, 1] }), a0, b0);
  assert.equal(evalAt(m, a0, b0).C[0], 0);
  assert.equal(evalAt(m, pose([1, 2, 4], IDENTITY_QUAT), b0).C[0], 0.5 * (25 - 16));
});

test('allowed motions have J·v = 0: hinge spin about its axis, slider translation along its axis', () => {
  const rng = prng(14);
  for (let i = 0; i < 20; i++) {
    const a = randomPose(rng);
    a.v = [0, 0, 0];
    a.w = [0, 0, 0];
    const axisA = runit(rng), anchorA = rvec(rng);
    const axW = [0, 1, 2].map((k) => a.R[k * 3] * axisA[0] + a.R[k * 3 + 1] * axisA[1] + a.R[k * 3 + 2] * axisA[2]) as Vec3;
    const xA = evalPoint(a, anchorA);
    // B rotates about the hinge line through x_A with rate 1.3: v_B = ω×(p_B − x_A).
    const qB = rquat(rng), RB = quatToMat3(qB), anchorB = rvec(rng);
    const rB = [0, 1, 2].map((k) => RB[k * 3] * anchorB[0] + RB[k * 3 + 1] * anchorB[1] + RB[k * 3 + 2] * anchorB[2]);
    const pB: Vec3 = [xA[0] - rB[0], xA[1] - rB[1], xA[2] - rB[2]];
    const axisB = [0, 1, 2].map((k) => RB[k] * axW[0] + RB[3 + k] * axW[1] + RB[6 + k] * axW[2]) as Vec3;
    const w: Vec3 = [1.3 * axW[0], 1.3 * axW[1], 1.3 * axW[2]];
    const off: Vec3 = [pB[0] - xA[0], pB[1] - xA[1], pB[2] - xA[2]];
    const vB: Vec3 = [w[1] * off[2] - w[2] * off[1], w[2] * off[0] - w[0] * off[2], w[0] * off[1] - w[1] * off[0]];
    const b = pose(pB, qB, vB, w);
    const hinge = createConstraint(spec('hinge', { anchorA, anchorB, axisA, axisB }), a, b);
    const eh = evalAt(hinge, a, b);
    assert.ok(maxAbs(eh.C) < 1e-12, 'hinge C ≠ 0');
    assert.ok(maxAbs(jv(hinge, eh, a, b)) < 1e-12, 'hinge J·v ≠ 0 for spin about the axis');
    assert.ok(maxAbs(fdC(hinge, a, b)) < 1e-8, 'hinge FD of C ≠ 0');
    // Slider: B translates along A's axis (orientation fixed).
    const b2 = pose(pB, qB, [2 * axW[0], 2 * axW[1], 2 * axW[2]]);
    const slider = createConstraint(spec('slider', { anchorA, anchorB, axisA }), a, b2);
    const es = evalAt(slider, a, b2);
    assert.ok(maxAbs(es.C) < 1e-12, 'slider C ≠ 0');
    assert.ok(maxAbs(jv(slider, es, a, b2)) < 1e-12, 'slider J·v ≠ 0 for translation along the axis');
    // ... but a sideways velocity is seen by the ⊥ rows.
    const b3 = pose(pB, qB, [1, -1, 0.5]);
    assert.ok(maxAbs(jv(slider, evalAt(slider, a, b3), a, b3).slice(0, 2)) > 1e-3, 'slider ⊥ rows blind to sideways motion');
  }
});

test('lock: masks select rows and labels; all-locked lock = fixed with the offset d0', () => {
  const rng = prng(15);
  const a0 = randomPose(rng), b0 = randomPose(rng);
  const m = createConstraint(spec('lock', { anchorA: [0.1, 0.2, 0.3], linear: [true, false, true], angular: [false, true, false] }), a0, b0);
  assert.equal(m.rows, 3);
  assert.deepEqual([...m.rowLabels], ['x', 'z', 'θy']);
  const none = createConstraint(spec('lock', { linear: [false, false, false], angular: [false, false, false] }), a0, b0);
  assert.equal(none.rows, 0);
  none.evaluate(a0, b0, makeEval(0));
  const all = createConstraint(spec('lock', { anchorA: [0.1, 0.2, 0.3], linear: [true, true, true], angular: [true, true, true] }), a0, b0);
  const fixed = createConstraint(spec('fixed', { anchorA: [0.1, 0.2, 0.3] }), a0, b0);
  assert.deepEqual([...all.rowLabels], [...fixed.rowLabels]);
  const a = randomPose(rng), b = randomPose(rng);
  const el = evalAt(all, a, b), ef = evalAt(fixed, a, b), e0 = evalAt(fixed, a0, b0);
  assert.ok(maxDiff(el.JA, ef.JA) === 0 && maxDiff(el.JB, ef.JB) === 0 && maxDiff(el.Jdotv, ef.Jdotv) === 0, 'lock J/J̇v ≠ fixed');
  for (let i = 0; i < 3; i++) assert.ok(Math.abs(el.C[i] - (ef.C[i] - e0.C[i])) < 1e-12, `lock C[${i}] ≠ fixed C − d0`);
  for (let i = 3; i < 6; i++) assert.equal(el.C[i], ef.C[i]);
  // Masked rows are exactly the selected rows of the full lock.
  const em = evalAt(m, a, b);
  [0, 2, 4].forEach((src, r) => {
    assert.equal(em.C[r], el.C[src]);
    assert.equal(em.Jdotv[r], el.Jdotv[src]);
    for (let c = 0; c < 6; c++) assert.equal(em.JA[r * 6 + c], el.JA[src * 6 + c]);
  });
});

test('world / fixed-body end (v = ω = 0, identity pose) needs no special case', () => {
  const world = pose([0, 0, 0], IDENTITY_QUAT);
  const rng = prng(16);
  for (const type of CONSTRAINT_TYPES) {
    for (let i = 0; i < 10; i++) {
      const b = randomPose(rng);
      const m = createConstraint(randomSpec(type, rng), world, b);
      const e = evalAt(m, world, b);
      const err = maxDiff(jv(m, e, world, b), fdC(m, world, b));
      assert.ok(err < 1e-7 * (1 + maxAbs(e.C)), `${type}`);
    }
  }
});

test('evaluate never throws on degenerate input (coincident anchors, NaN state)', () => {
  const z = pose([0, 0, 0], IDENTITY_QUAT);
  const nan = pose([NaN, 0, 0], [NaN, 0, 0, 1]);
  for (const type of CONSTRAINT_TYPES) {
    const m = createConstraint(spec(type, { axisA: [0, 0, 0] }), z, z);
    const e = makeEval(m.rows);
    m.evaluate(z, z, e);
    assert.ok(maxAbs(e.C) === 0 || type === 'distance', `${type}: C ≠ 0 at coincident anchors`);
    assert.doesNotThrow(() => m.evaluate(nan, z, e));
  }
});

test('evaluate writes into the given buffers and repeats itself exactly (no state carried between calls)', () => {
  // Its speed is measured by `npm run bench`, never here.
  const rng = prng(17);
  const a = randomPose(rng), b = randomPose(rng);
  for (const type of CONSTRAINT_TYPES) {
    const m = createConstraint(randomSpec(type, rng), a, b);
    const e = makeEval(m.rows);
    const arrays = [e.C, e.JA, e.JB, e.Jdotv];
    m.evaluate(a, b, e);
    const first = arrays.map((x) => Array.from(x));
    for (let i = 0; i < 1000; i++) m.evaluate(a, b, e);
    [e.C, e.JA, e.JB, e.Jdotv].forEach((x, k) => assert.strictEqual(x, arrays[k], `${type}: evaluate replaced a buffer`));
    arrays.forEach((x, k) => assert.deepEqual(Array.from(x), first[k], `${type}: the 1001st evaluation differs from the first`));
  }
});
