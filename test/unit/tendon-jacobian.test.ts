// The tendon's Jacobian (model/tendon.ts) against finite differences of its length, at random poses
// and velocities: L̇ = J·u exactly (the analytic rate), and (L(x + ε·u) − L(x − ε·u))/2ε → J·u as ε → 0,
// for a spatial tendon through points on several bodies (two on one body, one on the world) and a fixed
// tendon over a hinge and a slider (their coordinates from jointCoordinate.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TendonLength, type TendonCoordinate } from '../../src/engine/model/tendon';
import { JointCoordinate } from '../../src/engine/model/jointCoordinate';
import type { Pose } from '../../src/engine/model/constraint';
import type { ConstraintSpec } from '../../src/engine/scene/spec';
import { quatIntegrateInto, quatToMat3 } from '../../src/engine/core/math';
import type { Quat, Vec3 } from '../../src/engine/types';

/** A small deterministic generator (tests must not depend on Math.random). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32 - 0.5;
  };
}

interface Body {
  p: Vec3;
  q: Quat;
  v: Vec3;
  w: Vec3;
}

function randomBody(r: () => number): Body {
  const q: Quat = [r(), r(), r(), r() + 1];
  const n = Math.hypot(...q);
  return { p: [r(), r(), r()], q: q.map((x) => x / n) as Quat, v: [r(), r(), r()], w: [2 * r(), 2 * r(), 2 * r()] };
}

const poseOf = (b: Body): Pose => ({ p: b.p, q: b.q, R: quatToMat3(b.q), v: b.v, w: b.w });
const WORLD: Pose = { p: [0, 0, 0], q: [0, 0, 0, 1], R: quatToMat3([0, 0, 0, 1]), v: [0, 0, 0], w: [0, 0, 0] };

/** The body moved along its velocity by t (p + t·v, q turned by ω·t). */
function moved(b: Body, t: number): Body {
  const q: Quat = [...b.q];
  quatIntegrateInto(q, b.w, t);
  return { p: [b.p[0] + t * b.v[0], b.p[1] + t * b.v[1], b.p[2] + t * b.v[2]], q, v: b.v, w: b.w };
}

/** J·u over the tendon's bodies. */
function jDotU(len: TendonLength, bodies: readonly Body[]): number {
  let s = 0;
  len.bodies.forEach((b, e) => {
    if (b < 0) return;
    const u = [...bodies[b].v, ...bodies[b].w];
    for (let c = 0; c < 6; c++) s += len.J[6 * e + c] * u[c];
  });
  return s;
}

function check(name: string, make: () => TendonLength, bodies: Body[]): void {
  const len = make();
  const at = (bs: readonly Body[]) => (i: number) => (i < 0 ? WORLD : poseOf(bs[i]));
  len.evaluate(at(bodies));
  const Ju = jDotU(len, bodies);
  assert.ok(Math.abs(len.Ld - Ju) <= 1e-12 * (1 + Math.abs(Ju)), `${name}: L̇ ${len.Ld} vs J·u ${Ju}`);
  let prev = Infinity;
  for (const eps of [1e-3, 1e-4, 1e-5]) {
    const a = make(), b = make();
    a.evaluate(at(bodies.map((x) => moved(x, eps))));
    b.evaluate(at(bodies.map((x) => moved(x, -eps))));
    const fd = (a.L - b.L) / (2 * eps);
    const err = Math.abs(fd - Ju);
    assert.ok(err < 1e-6 * (1 + Math.abs(Ju)) || err < prev / 50, `${name}: ε ${eps}: FD ${fd} vs J·u ${Ju}`);
    prev = err;
  }
  assert.ok(prev < 1e-8 * (1 + Math.abs(Ju)), `${name}: FD error ${prev}`);
}

test('spatial tendon: L̇ = J·u and J matches finite differences of L (points on three bodies and the world)', () => {
  const r = rng(7);
  for (let trial = 0; trial < 20; trial++) {
    const bodies = [randomBody(r), randomBody(r), randomBody(r)];
    const points = [
      { body: -1, local: [r(), r(), r() + 2] as Vec3 },
      { body: 0, local: [r(), r(), r()] as Vec3 },
      { body: 1, local: [r(), r(), r()] as Vec3 },
      { body: 1, local: [r() + 1, r(), r()] as Vec3 },
      { body: 2, local: [r(), r(), r()] as Vec3 },
      { body: 0, local: [r(), r() - 1, r()] as Vec3 },
    ];
    check(`spatial ${trial}`, () => new TendonLength([], points), bodies);
  }
});

test('fixed tendon: L = Σ coef·q over a hinge and a slider, L̇ = J·u, J matches finite differences', () => {
  const r = rng(11);
  for (let trial = 0; trial < 20; trial++) {
    const bodies = [randomBody(r), randomBody(r), randomBody(r)];
    const hinge = { name: 'h', type: 'hinge', bodyA: 'a', bodyB: 'b', axisA: [r(), r(), 1] } as unknown as ConstraintSpec;
    const slider = { name: 's', type: 'slider', bodyA: 'b', bodyB: 'c', axisA: [1, r(), r()], drive: { coordinate: 0.3, damping: 0, stiffness: 0, springRef: 0, armature: 0 } } as unknown as ConstraintSpec;
    // the coordinates' zero at a reference pose near the evaluated one
    const ref = bodies.map((b) => moved(b, 0.2));
    const coordinate = (spec: ConstraintSpec, a: number, b: number): TendonCoordinate => {
      const c = new JointCoordinate(spec, a < 0 ? WORLD : poseOf(ref[a]), poseOf(ref[b]));
      const offset = spec.drive?.coordinate ?? 0;
      const out = {
        endA: a,
        endB: b,
        q: 0,
        qd: 0,
        JA: c.JA,
        JB: c.JB,
        evaluate(pa: Pose, pb: Pose) {
          c.evaluate(pa, pb);
          out.q = c.q + offset;
          out.qd = c.qd;
        },
      };
      return out;
    };
    const make = () =>
      new TendonLength(
        [
          { coordinate: coordinate(hinge, 0, 1), coef: 0.7 },
          { coordinate: coordinate(slider, 1, 2), coef: -1.3 },
          { coordinate: coordinate({ ...hinge, name: 'w' }, -1, 0), coef: 0.4 },
        ],
        [],
      );
    check(`fixed ${trial}`, make, bodies);
  }
});
