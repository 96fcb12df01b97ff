// Three hinges whose axes span space as a chain (model/chainRotation.ts): the Davenport decomposition
// (model/hingeGroup.ts `groupAngles`) recovers the angles of random rotations on either root of the
// middle angle's equation; the three translation rows are zero wherever the hinges put B and see any
// other displacement; J against central differences of C and J̇·u against central differences of J·u
// at states on and off the chain's motion, for general axes (dm_control's dog's scapula among them), with
// none, one or two slides among the hinges.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Quat, Vec3 } from '../../src/engine/types';
import type { ChainJointSpec, ConstraintSpec } from '../../src/engine/scene/spec';
import { quatFromRotationVector, quatMul, quatNormalize, quatToMat3, mat3MulVec } from '../../src/engine/core/math';
import { makeEval, type ConstraintEval, type Pose } from '../../src/engine/model/constraint';
import { ChainConstraint } from '../../src/engine/model/chain';
import { groupAngles, middleBranch, wrapAngle } from '../../src/engine/model/hingeGroup';
import { rng as prng } from './linalg-fixtures';

type Rng = () => number;
const gauss = (rng: Rng): number => Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
const unit = (v: Vec3): Vec3 => {
  const n = Math.hypot(...v);
  return [v[0] / n, v[1] / n, v[2] / n];
};
const runit = (rng: Rng): Vec3 => unit([gauss(rng), gauss(rng), gauss(rng)]);
const rvec = (rng: Rng, s: number): Vec3 => [s * (2 * rng() - 1), s * (2 * rng() - 1), s * (2 * rng() - 1)];
const rquat = (rng: Rng): Quat => quatNormalize([gauss(rng), gauss(rng), gauss(rng), gauss(rng)]);
const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a: Vec3, b: Vec3): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const dot = (a: Vec3, b: Vec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const pose = (p: Vec3, q: Quat, v: Vec3 = [0, 0, 0], w: Vec3 = [0, 0, 0]): Pose => ({ p, q, R: quatToMat3(q), v, w });
const conj = (q: Quat): Quat => [-q[0], -q[1], -q[2], q[3]];
const rot = (a: Vec3, t: number): Quat => quatFromRotationVector([a[0] * t, a[1] * t, a[2] * t]);

/** Axes that span space, not too close to one plane. */
function randomAxes(rng: Rng): Vec3[] {
  for (;;) {
    const axes = [runit(rng), runit(rng), runit(rng)];
    if (Math.abs(dot(axes[0], cross(axes[1], axes[2]))) > 0.2) return axes;
  }
}

test('three-axis Davenport decomposition: the angles of random rotations Rot(b₁,θ₁)·Rot(b₂,θ₂)·Rot(b₃,θ₃), either root', () => {
  const rng = prng(7);
  let worst = 0, roots = 0;
  for (let k = 0; k < 400; k++) {
    const axes = randomAxes(rng);
    const theta = [3 * (2 * rng() - 1), 3 * (2 * rng() - 1), 3 * (2 * rng() - 1)];
    const X = quatToMat3(axes.reduce<Quat>((q, b, i) => quatMul(q, rot(b, theta[i])), [0, 0, 0, 1]));
    const branch = middleBranch(axes, theta[1]);
    const got = groupAngles(axes, branch, X);
    got.forEach((t, i) => (worst = Math.max(worst, Math.abs(wrapAngle(t - theta[i])))));
    // the other root is the same rotation by other angles (none of them nearly equal: not at the gimbal lock)
    const other = groupAngles(axes, -branch, X);
    const Y = quatToMat3(axes.reduce<Quat>((q, b, i) => quatMul(q, rot(b, other[i])), [0, 0, 0, 1]));
    const far = Math.abs(wrapAngle(other[1] - theta[1])) > 1e-3;
    if (far) {
      roots++;
      assert.ok(Math.max(...X.map((x, i) => Math.abs(x - Y[i]))) < 1e-9, 'the other root is another rotation');
    }
  }
  assert.ok(worst < 1e-9, `angles off by ${worst}`);
  assert.ok(roots > 300, `only ${roots} second roots checked`);
});

const spec = (chain: ChainJointSpec[]): ConstraintSpec => ({ index: 0, name: 'c', type: 'chain', bodyA: 'A', bodyB: 'B', anchorA: [0, 0, 0], anchorB: [0, 0, 0], chain });

/** B where the hinges (axes and anchors in A's frame at the reference) put it for angles δ, A at `a`. */
function reach(joints: readonly ChainJointSpec[], d: readonly number[], a: Pose, a0: Pose, b0: Pose): Pose {
  let q: Quat = [0, 0, 0, 1];
  let t: Vec3 = [0, 0, 0];
  joints.forEach((j, k) => {
    if (j.type === 'slider') {
      t = add(t, mat3MulVec(quatToMat3(q), [j.axis[0] * d[k], j.axis[1] * d[k], j.axis[2] * d[k]]));
      return;
    }
    const r = rot(j.axis, d[k]);
    t = add(t, mat3MulVec(quatToMat3(q), sub(j.anchor, mat3MulVec(quatToMat3(r), j.anchor))));
    q = quatMul(q, r);
  });
  // T_B = T_A·E·T_A0⁻¹·T_B0
  const qr = quatMul(conj(a0.q), b0.q), pr = mat3MulVec(quatToMat3(conj(a0.q)), sub(b0.p, a0.p));
  const qE = quatMul(q, qr), pE = add(t, mat3MulVec(quatToMat3(q), pr));
  return pose(add(a.p, mat3MulVec(a.R, pE)), quatNormalize(quatMul(a.q, qE)));
}

const DOG: ChainJointSpec[] = [
  { type: 'hinge', axis: [0, 0, 1], anchor: [-0.03, -0.02, 0] },
  { type: 'hinge', axis: [1, 0, 0], anchor: [0, -0.05, -0.07] },
  { type: 'hinge', axis: unit([0.3, 1, 0]), anchor: [0, 0, 0] },
];

/** The middle angle at which the first and last axes turn parallel (the roots meet there and at it + π). */
const lockAngle = ([b1, b2, b3]: readonly Vec3[]): number => Math.atan2(dot(b1, cross(b2, b3)), dot(b1, b3) - dot(b1, b2) * dot(b2, b3));

/** Chains and states: the dog's scapula and random general axes, with angles on the initial root. */
function* cases(seed: number, n: number): Generator<{ m: ChainConstraint; joints: ChainJointSpec[]; a: Pose; b: Pose; off: boolean }> {
  const rng = prng(seed);
  for (let k = 0; k < n; k++) {
    const joints = k % 3 === 0 ? [...DOG] : randomAxes(rng).map((axis): ChainJointSpec => ({ type: 'hinge', axis, anchor: rvec(rng, 0.5) }));
    // one or two slides among the hinges in a third of the chains each
    for (let s = 0; s < k % 3; s++) joints.splice(Math.floor(rng() * (joints.length + 1)), 0, { type: 'slider', axis: runit(rng), anchor: [0, 0, 0] });
    const hinges = joints.flatMap((j, i) => (j.type === 'hinge' ? [i] : []));
    const axes = hinges.map((i) => joints[i].axis);
    const a0 = pose(rvec(rng, 1), rquat(rng)), b0 = pose(rvec(rng, 1), rquat(rng));
    let d = joints.map(() => 0);
    do d = d.map(() => 2 * (2 * rng() - 1));
    while (middleBranch(axes, d[hinges[1]]) !== middleBranch(axes, 0) || Math.abs(Math.sin(d[hinges[1]] - lockAngle(axes))) < 0.2);
    const a = pose(rvec(rng, 1), rquat(rng), rvec(rng, 1.5), rvec(rng, 1.5));
    let b = reach(joints, d, a, a0, b0);
    const off = k % 2 === 1;
    // half of the states off the chain's motion by a few millimetres and milliradians
    if (off) b = pose(add(b.p, rvec(rng, 5e-3)), quatNormalize(quatMul(quatFromRotationVector(rvec(rng, 5e-3)), b.q)));
    b = pose(b.p, b.q, rvec(rng, 1.5), rvec(rng, 1.5));
    yield { m: new ChainConstraint(spec(joints), a0, b0), joints, a, b, off };
  }
}

function evalAt(m: ChainConstraint, a: Pose, b: Pose): ConstraintEval {
  const o = makeEval(m.rows);
  m.evaluate(a, b, o);
  return o;
}
const advance = (x: Pose, t: number): Pose => pose(add(x.p, [t * x.v[0], t * x.v[1], t * x.v[2]]), quatMul(quatFromRotationVector([t * x.w[0], t * x.w[1], t * x.w[2]]), x.q), x.v, x.w);
const jv = (e: ConstraintEval, a: Pose, b: Pose): number[] =>
  Array.from(e.C, (_, i) => i).map((i) => [...a.v, ...a.w].reduce((s, x, c) => s + e.JA[i * 6 + c] * x, 0) + [...b.v, ...b.w].reduce((s, x, c) => s + e.JB[i * 6 + c] * x, 0));

test('three hinges whose axes miss (and slides): C = 0 where the joints put B, and a displacement they do not make is seen', () => {
  for (const { m, joints, a, b, off } of cases(3, 60)) {
    assert.equal(m.pattern.kind, 'rotation');
    assert.equal(m.rows, 3 - joints.filter((j) => j.type === 'slider').length);
    const C = Array.from(evalAt(m, a, b).C, Math.abs);
    if (off) assert.ok(Math.max(...C) > 1e-4, `an off-chain state reads C = ${C}`);
    else assert.ok(Math.max(...C) < 1e-12, `C = ${C} on the chain's motion`);
  }
  // a pure turn of B about any axis through any point keeps C = 0 only where the hinges allow it: a
  // turn about the last hinge's line does
  const id = pose([0, 0, 0], [0, 0, 0, 1]);
  const m = new ChainConstraint(spec(DOG), id, id);
  const turned = reach(DOG, [0, 0, 0.4], id, id, id);
  assert.ok(Math.max(...Array.from(evalAt(m, id, turned).C, Math.abs)) < 1e-15);
  const shifted = pose([1e-3, 0, 0], [0, 0, 0, 1]);
  assert.ok(Math.abs(evalAt(m, id, shifted).C[0] - 1e-3) < 1e-12, 'a translation is the residual itself');
});

test('three hinges whose axes miss (and slides): J against central differences of C, J̇·u against central differences of J·u (on and off the motion)', () => {
  let worstJ = 0, worstJd = 0;
  for (const { m, a, b } of cases(4, 90)) {
    const e = evalAt(m, a, b);
    // near the gimbal lock C curves fast: h small enough that the difference's own error is far below the tolerance
    const h = 1e-6;
    const Cp = evalAt(m, advance(a, h), advance(b, h)).C, Cm = evalAt(m, advance(a, -h), advance(b, -h)).C;
    const an = jv(e, a, b);
    const fd = an.map((_, i) => (Cp[i] - Cm[i]) / (2 * h));
    const scale = 1 + Math.max(...an.map(Math.abs));
    an.forEach((x, i) => (worstJ = Math.max(worstJ, Math.abs(x - fd[i]) / scale)));
    const ap = advance(a, h), bp = advance(b, h), am = advance(a, -h), bm = advance(b, -h);
    const jp = jv(evalAt(m, ap, bp), ap, bp), jm = jv(evalAt(m, am, bm), am, bm);
    const fdd = jp.map((x, i) => (x - jm[i]) / (2 * h));
    const sd = 1 + Math.max(...fdd.map(Math.abs));
    fdd.forEach((x, i) => (worstJd = Math.max(worstJd, Math.abs(e.Jdotv[i] - x) / sd)));
  }
  assert.ok(worstJ < 1e-7, `|J·u − Ċ_FD| relative ${worstJ}`);
  assert.ok(worstJd < 1e-6, `|J̇·u − FD| relative ${worstJd}`);
});

test('three hinges whose axes miss: the FD check sees a wrong angular block (the rotation\'s share of the translation)', () => {
  let seen = 0;
  for (const { m, a, b } of cases(5, 30)) {
    const e = evalAt(m, a, b);
    // drop the part of the angular block that the hinges' lever arms give (keep only g_v×D on B)
    const D = sub(b.p, a.p);
    for (let i = 0; i < m.rows; i++) {
      const gv: Vec3 = [e.JB[i * 6], e.JB[i * 6 + 1], e.JB[i * 6 + 2]];
      const g = cross(gv, D);
      for (let k = 0; k < 3; k++) {
        e.JB[i * 6 + 3 + k] = g[k];
        e.JA[i * 6 + 3 + k] = 0;
      }
    }
    const h = 1e-5;
    const Cp = evalAt(m, advance(a, h), advance(b, h)).C, Cm = evalAt(m, advance(a, -h), advance(b, -h)).C;
    const err = Math.max(...jv(e, a, b).map((x, i) => Math.abs(x - (Cp[i] - Cm[i]) / (2 * h))));
    if (err > 1e-4) seen++;
  }
  assert.ok(seen >= 27, `only ${seen} of 30 wrong blocks seen`);
});
