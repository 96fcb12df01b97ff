// The coordinate of one joint of a chain constraint (model/chainCoordinate.ts): its value is MuJoCo's
// qpos for that joint when the bodies are where the chain's joints put them, and its 1×12 Jacobian
// maps the bodies' velocities to that joint's rate: checked against central differences of the chain's
// forward kinematics at random states (two slides, a planar root, two or three hinges whose axes miss,
// a slide across a hinge).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateCoordinate, makeCoordinate, makeCoordinateEval } from '../../src/engine/model/coupler';
import { chainHasCoordinates } from '../../src/engine/model/chainCoordinate';
import type { Pose } from '../../src/engine/model/constraint';
import type { ChainJointSpec } from '../../src/engine/scene/spec';
import { quatConj, quatMul, quatNormalize, quatToMat3 } from '../../src/engine/core/math';
import type { Quat, Vec3 } from '../../src/engine/types';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
}
const unit = (v: Vec3): Vec3 => {
  const n = Math.hypot(...v);
  return [v[0] / n, v[1] / n, v[2] / n];
};
const axisAngle = (b: Vec3, t: number): Quat => [b[0] * Math.sin(t / 2), b[1] * Math.sin(t / 2), b[2] * Math.sin(t / 2), Math.cos(t / 2)];
const rotate = (q: Quat, v: Vec3): Vec3 => {
  const R = quatToMat3(q);
  return [R[0] * v[0] + R[1] * v[1] + R[2] * v[2], R[3] * v[0] + R[4] * v[1] + R[5] * v[2], R[6] * v[0] + R[7] * v[1] + R[8] * v[2]];
};
const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const scl = (a: Vec3, s: number): Vec3 => [a[0] * s, a[1] * s, a[2] * s];

/** A rigid transform x ↦ q·x + t. */
interface Tf {
  q: Quat;
  t: Vec3;
}
const compose = (a: Tf, b: Tf): Tf => ({ q: quatMul(a.q, b.q), t: add(rotate(a.q, b.t), a.t) });
const inverse = (a: Tf): Tf => {
  const qi = quatConj(a.q);
  return { q: qi, t: scl(rotate(qi, a.t), -1) };
};
/** E(δ) = L₁(δ₁)⋯L_n(δ_n) in A's frame: a hinge turns about the line (anchor, axis), a slide moves along its axis. */
function chainMotion(joints: readonly ChainJointSpec[], d: readonly number[]): Tf {
  return joints.reduce<Tf>((acc, j, k) => {
    const L: Tf = j.type === 'hinge' ? { q: axisAngle(j.axis, d[k]), t: sub(j.anchor, rotate(axisAngle(j.axis, d[k]), j.anchor)) } : { q: [0, 0, 0, 1], t: scl(j.axis, d[k]) };
    return compose(acc, L);
  }, { q: [0, 0, 0, 1], t: [0, 0, 0] });
}
const pose = (T: Tf, v: Vec3 = [0, 0, 0], w: Vec3 = [0, 0, 0]): Pose => ({ p: T.t, q: T.q, R: quatToMat3(T.q), v, w });
const randomTf = (r: () => number): Tf => ({ q: quatNormalize([r(), r(), r(), r() + 2]), t: [r(), r(), r()] });

const CHAINS: { joints: ChainJointSpec[]; what: string }[] = [
  { joints: [{ type: 'slider', axis: [1, 0, 0], anchor: [0.1, 0, 0.2] }, { type: 'slider', axis: [0, 0, 1], anchor: [0.1, 0, 0.2] }], what: 'two slides (dm_control ball_in_cup)' },
  { joints: [{ type: 'slider', axis: [1, 0, 0], anchor: [0, 0, 1] }, { type: 'slider', axis: [0, 0, 1], anchor: [0, 0, 1] }, { type: 'hinge', axis: [0, 1, 0], anchor: [0.2, 0, 1] }], what: 'planar root (slide, slide, hinge)' },
  { joints: [{ type: 'hinge', axis: unit([1, 0.2, 0]), anchor: [0, 0.01, 0] }, { type: 'hinge', axis: unit([0.1, 1, 0.3]), anchor: [0.03, -0.02, 0.05] }], what: 'two hinges whose axes miss (humanoid ankle)' },
  { joints: [{ type: 'hinge', axis: [0, 0, 1], anchor: [0.3, 0, 0] }, { type: 'slider', axis: unit([1, 1, 0]), anchor: [0.3, 0, 0] }], what: 'a hinge, then a slide across it' },
  // the middle angle stays within ±1.2 of 0, on the initial state's root (the gimbal lock is at ±π/2)
  { joints: [{ type: 'hinge', axis: [0, 0, 1], anchor: [-0.03, -0.02, 0] }, { type: 'hinge', axis: [1, 0, 0], anchor: [0, -0.05, -0.07] }, { type: 'hinge', axis: unit([0.3, 1, 0]), anchor: [0, 0, 0] }], what: 'three hinges whose axes miss (dm_control dog’s scapula)' },
  { joints: [{ type: 'hinge', axis: [0, 0, 1], anchor: [-0.03, -0.02, 0] }, { type: 'slider', axis: unit([1, 0.5, 0]), anchor: [0, 0, 0] }, { type: 'hinge', axis: [1, 0, 0], anchor: [0, -0.05, -0.07] }, { type: 'hinge', axis: unit([0.3, 1, 0]), anchor: [0, 0, 0] }, { type: 'slider', axis: [0, 0, 1], anchor: [0, 0, 0] }], what: 'three hinges whose axes miss, with two slides among them' },
];

test('chain joint coordinates: the value is each joint’s displacement from the initial state plus its initial qpos', () => {
  const r = rng(11);
  for (const { joints, what } of CHAINS) {
    assert.ok(chainHasCoordinates(joints), what);
    for (let trial = 0; trial < 20; trial++) {
      const A0 = randomTf(r), B0 = randomTf(r), A1 = randomTf(r);
      const d = joints.map(() => 1.2 * r());
      // T_B = T_A·E(δ)·T_A0⁻¹·T_B0
      const B1 = compose(compose(A1, chainMotion(joints, d)), compose(inverse(A0), B0));
      joints.forEach((j, k) => {
        const initial = 0.3 * k - 0.1;
        const c = makeCoordinate({ joint: 'j', kind: j.type, body: 'B', parent: 'A', axis: [0, 0, 1], initial }, pose(B0), pose(A0), 1, 0, { chainMember: { joints, index: k } });
        const o = makeCoordinateEval();
        evaluateCoordinate(c, pose(B1), pose(A1), o);
        assert.ok(Math.abs(o.q - (initial + d[k])) < 1e-10, `${what}, joint ${k}: ${o.q} vs ${initial + d[k]}`);
      });
    }
  }
});

test('chain joint coordinates: the 1×12 Jacobian against central differences of the chain’s kinematics', () => {
  const r = rng(5);
  let worst = 0;
  for (const { joints, what } of CHAINS) {
    for (let trial = 0; trial < 20; trial++) {
      const A0 = randomTf(r), B0 = randomTf(r), A1 = randomTf(r);
      const d = joints.map(() => 1.2 * r());
      const dd = joints.map(() => r());
      const vA: Vec3 = [r(), r(), r()], wA: Vec3 = [r(), r(), r()];
      // the path s ↦ (A(s), δ(s)) with A moving at (vA, ωA) and δ at δ̇; B follows the chain
      const at = (s: number): { A: Tf; B: Tf } => {
        const A: Tf = { q: quatMul(axisAngle(unit(wA), Math.hypot(...wA) * s), A1.q), t: add(A1.t, scl(vA, s)) };
        const B = compose(compose(A, chainMotion(joints, d.map((x, k) => x + s * dd[k]))), compose(inverse(A0), B0));
        return { A, B };
      };
      const h = 1e-5;
      const { A, B } = at(0), Bp = at(h).B, Bm = at(-h).B;
      const vB = scl(sub(Bp.t, Bm.t), 1 / (2 * h));
      const dq = quatMul(Bp.q, quatConj(Bm.q));
      const sg = dq[3] < 0 ? -1 : 1;
      const ang = 2 * Math.atan2(Math.hypot(dq[0], dq[1], dq[2]), sg * dq[3]);
      const wB = scl(unit([sg * dq[0], sg * dq[1], sg * dq[2]]), ang / (2 * h));
      joints.forEach((j, k) => {
        const c = makeCoordinate({ joint: 'j', kind: j.type, body: 'B', parent: 'A', axis: [0, 0, 1], initial: 0 }, pose(B0), pose(A0), 1, 0, { chainMember: { joints, index: k } });
        const o = makeCoordinateEval();
        evaluateCoordinate(c, pose(B, vB, wB), pose(A, vA, wA), o);
        const err = Math.abs(o.qd - dd[k]);
        worst = Math.max(worst, err);
        assert.ok(err < 1e-8, `${what}, joint ${k}: q̇ ${o.qd} vs ${dd[k]}`);
        // the rate is J·u: the blocks reproduce it
        let Ju = 0;
        for (let i = 0; i < 3; i++) Ju += o.jBody[i] * vB[i] + o.jBody[3 + i] * wB[i] + o.jParent[i] * vA[i] + o.jParent[3 + i] * wA[i];
        assert.ok(Math.abs(Ju - o.qd) < 1e-12, what);
        assert.ok(Number.isFinite(o.qdd), what);
      });
    }
  }
  assert.ok(worst > 0, 'the check compared nothing');
});

test('chain joint coordinates: chains whose joints the rotation and translation cannot separate have none', () => {
  const parallel: ChainJointSpec[] = [{ type: 'hinge', axis: [0, 1, 0], anchor: [0, 0, 0] }, { type: 'hinge', axis: [0, 1, 0], anchor: [0.3, 0, 0] }];
  assert.equal(chainHasCoordinates(parallel), false);
  const sameSlides: ChainJointSpec[] = [{ type: 'slider', axis: [1, 0, 0], anchor: [0, 0, 0] }, { type: 'slider', axis: [1, 0, 0], anchor: [0, 0, 0] }];
  assert.equal(chainHasCoordinates(sameSlides), false);
  const coplanar: ChainJointSpec[] = [{ type: 'hinge', axis: [1, 0, 0], anchor: [0, 0, 0] }, { type: 'hinge', axis: [0, 1, 0], anchor: [0, 0, 0.1] }, { type: 'hinge', axis: unit([1, 1, 0]), anchor: [0.1, 0, 0] }];
  assert.equal(chainHasCoordinates(coplanar), false);
  const spanning: ChainJointSpec[] = [...coplanar.slice(0, 2), { type: 'hinge', axis: unit([1, 1, 1]), anchor: [0.1, 0, 0] }];
  assert.equal(chainHasCoordinates(spanning), true);
  assert.equal(chainHasCoordinates([...spanning, { type: 'hinge', axis: [0, 0, 1], anchor: [0, 0, 0] }]), false);
});
