// The angle of a hinge of a universal's or ball's group (model/hingeGroup.ts): its value is MuJoCo's
// qpos for that joint (the Davenport angle of the relative rotation about the group's axes), its 1×12
// Jacobian and its zero-acceleration q̈ = J̇·u are checked against central differences at random
// states, off the universal's manifold as well (the two-hinge angles are functions of any rotation).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateCoordinate, makeCoordinate, makeCoordinateEval } from '../../src/engine/model/coupler';
import type { Pose } from '../../src/engine/model/constraint';
import { quatMul, quatNormalize, quatToMat3 } from '../../src/engine/core/math';
import type { Quat, Vec3 } from '../../src/engine/types';

/** A deterministic generator (no flaky draws). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32) * 2 - 1;
}
const unit = (v: Vec3): Vec3 => {
  const n = Math.hypot(...v);
  return [v[0] / n, v[1] / n, v[2] / n];
};
const axisAngle = (b: Vec3, t: number): Quat => [b[0] * Math.sin(t / 2), b[1] * Math.sin(t / 2), b[2] * Math.sin(t / 2), Math.cos(t / 2)];
const pose = (p: Vec3, q: Quat, v: Vec3 = [0, 0, 0], w: Vec3 = [0, 0, 0]): Pose => ({ p, q, R: quatToMat3(q), v, w });
/** q turned by the world rotation vector r. */
function turn(q: Quat, r: Vec3): Quat {
  const a = Math.hypot(...r);
  return a > 0 ? quatNormalize(quatMul(axisAngle(unit(r), a), q)) : q;
}

const GROUPS: { axes: Vec3[]; what: string }[] = [
  { axes: [[1, 0, 0], [0, 0, 1]], what: 'two orthogonal hinges' },
  { axes: [unit([2, 1, 1]), unit([0, -1, 1])], what: 'two oblique hinges (dm_control shoulder)' },
  { axes: [[1, 0, 0], [0, 0, 1], [0, 1, 0]], what: 'three orthogonal hinges (hip x, z, y)' },
  { axes: [unit([1, 0.3, 0]), unit([0.2, 0.1, 1]), unit([-0.1, 1, 0.4])], what: 'three oblique hinges' },
];

test('group hinge angles: the value is the angle of the hinge that MuJoCo applies in sequence', () => {
  const r = rng(7);
  for (const { axes, what } of GROUPS) {
    for (let trial = 0; trial < 20; trial++) {
      const angles0 = axes.map(() => 0.8 * r());
      const angles = axes.map(() => 1.2 * r());
      const parent0: Quat = quatNormalize([r(), r(), r(), r() + 2]);
      const off: Quat = quatNormalize([r(), r(), r(), r() + 2]);
      // R_B = R_P·R_off·Π Rot(b_k, θ_k); the initial state has θ⁰
      const chain = (th: number[]): Quat => axes.reduce((q, b, k) => quatMul(q, axisAngle(b, th[k])), [0, 0, 0, 1] as Quat);
      const body0 = quatMul(quatMul(parent0, off), chain(angles0));
      const parent1: Quat = quatNormalize([r(), r(), r(), r() + 2]);
      const body1 = quatMul(quatMul(parent1, off), chain(angles));
      axes.forEach((_, k) => {
        const initial = 0.3 * k - 0.1;
        const c = makeCoordinate({ joint: 'j', kind: 'hinge', body: 'B', parent: 'A', axis: [0, 0, 1], initial }, pose([0, 0, 0], body0), pose([1, 0, 0], parent0), 1, 0, { group: { axes, index: k, angles0 } });
        const o = makeCoordinateEval();
        evaluateCoordinate(c, pose([0, 1, 0], body1), pose([1, 2, 0], parent1), o);
        assert.ok(Math.abs(o.q - (initial + angles[k] - angles0[k])) < 1e-10, `${what}, hinge ${k}: ${o.q} vs ${initial + angles[k] - angles0[k]}`);
      });
    }
  }
});

test('group hinge angles: the 1×12 Jacobian and J̇·u against central differences', () => {
  const r = rng(11);
  const eps = 1e-6;
  for (const { axes, what } of GROUPS) {
    for (let trial = 0; trial < 20; trial++) {
      const angles0 = axes.map(() => 0.5 * r());
      const body0: Quat = quatNormalize([r(), r(), r(), r() + 2]);
      const parent0: Quat = quatNormalize([r(), r(), r(), r() + 2]);
      // any relative rotation near the initial one (for two hinges: off the universal's manifold too)
      const body: Quat = turn(body0, [0.6 * r(), 0.6 * r(), 0.6 * r()]);
      const parent: Quat = turn(parent0, [0.4 * r(), 0.4 * r(), 0.4 * r()]);
      const wB: Vec3 = [2 * r(), 2 * r(), 2 * r()], wP: Vec3 = [2 * r(), 2 * r(), 2 * r()];
      axes.forEach((_, k) => {
        const c = makeCoordinate({ joint: 'j', kind: 'hinge', body: 'B', parent: 'A', axis: [0, 0, 1], initial: 0 }, pose([0, 0, 0], body0), pose([0, 0, 0], parent0), 1, 0, { group: { axes, index: k, angles0 } });
        const at = (qb: Quat, qp: Quat, vb: Vec3 = wB, vp: Vec3 = wP) => {
          const o = makeCoordinateEval();
          evaluateCoordinate(c, pose([0.2, 0.1, 0], qb, [1, 2, 3], vb), pose([0, 0, 0.5], qp, [-1, 0, 2], vp), o);
          return o;
        };
        const o = at(body, parent);
        for (let i = 0; i < 3; i++) {
          const d: Vec3 = [0, 0, 0];
          d[i] = eps;
          const m: Vec3 = [0, 0, 0];
          m[i] = -eps;
          const fdB = (at(turn(body, d), parent).q - at(turn(body, m), parent).q) / (2 * eps);
          const fdP = (at(body, turn(parent, d)).q - at(body, turn(parent, m)).q) / (2 * eps);
          assert.ok(Math.abs(fdB - o.jBody[3 + i]) < 1e-7, `${what}, hinge ${k}: ∂q/∂θ_B[${i}] ${o.jBody[3 + i]} vs ${fdB}`);
          assert.ok(Math.abs(fdP - o.jParent[3 + i]) < 1e-7, `${what}, hinge ${k}: ∂q/∂θ_A[${i}] ${o.jParent[3 + i]} vs ${fdP}`);
          assert.equal(o.jBody[i], 0);
          assert.equal(o.jParent[i], 0);
        }
        const rate = o.jBody[3] * (wB[0] - wP[0]) + o.jBody[4] * (wB[1] - wP[1]) + o.jBody[5] * (wB[2] - wP[2]);
        assert.ok(Math.abs(o.qd - rate) < 1e-12, 'q̇ = J·u');
        // J̇·u: q̇ at the poses turned on by ω·t, the velocities held
        const t = 1e-5;
        const ahead = at(turn(body, [wB[0] * t, wB[1] * t, wB[2] * t]), turn(parent, [wP[0] * t, wP[1] * t, wP[2] * t])).qd;
        const behind = at(turn(body, [-wB[0] * t, -wB[1] * t, -wB[2] * t]), turn(parent, [-wP[0] * t, -wP[1] * t, -wP[2] * t])).qd;
        const fd = (ahead - behind) / (2 * t);
        assert.ok(Math.abs(fd - o.qdd) < 1e-5 * Math.max(1, Math.abs(fd)), `${what}, hinge ${k}: J̇·u ${o.qdd} vs ${fd}`);
      });
    }
  }
});
