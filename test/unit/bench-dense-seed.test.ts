// The benchmark's dense seed path reproduces the seed notebooks' numbers (it is also the reference
// the engine is compared against).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  assembleSystem,
  denseStep,
  luSolve,
  makeBody,
  matMul,
  matMulABt,
  matVec,
  solveKkt,
  type DenseWorld,
} from '../../bench/dense-seed';
import { chainJointError, chainParams, half, linkPosition } from '../../bench/chain';

const G: [number, number, number] = [0, 0, -9.81];

const relClose = (actual: number, expected: number, rel: number, what: string) =>
  assert.ok(Math.abs(actual - expected) <= rel * Math.abs(expected), `${what}: ${actual} vs ${expected}`);

function horizontalRod(): DenseWorld {
  return {
    bodies: [
      makeBody({ name: 'Body_A', mass: 10, inertia: [1, 1, 1], position: [0, 0, 0] }),
      makeBody({ name: 'Body_B', mass: 5, inertia: [0.5, 0.5, 0.5], position: [2, 0, 0] }),
    ],
    constraints: [{ type: 'distance', bodyA: 0, bodyB: 1, anchorA: [0, 0, 0], anchorB: [0, 0, 0], length: 2 }],
    gravity: G,
    alpha: 5,
    beta: 1,
  };
}

function hangingMass(): DenseWorld {
  return {
    bodies: [
      makeBody({ name: 'Ceiling_Anchor', mass: 1e6, inertia: [1e6, 1e6, 1e6], position: [0, 0, 2], gravity: false }),
      makeBody({ name: 'Hanging_Mass', mass: 5, inertia: [0.5, 0.5, 0.5], position: [0, 0, 0] }),
    ],
    constraints: [{ type: 'distance', bodyA: 0, bodyB: 1, anchorA: [0, 0, 0], anchorB: [0, 0, 0], length: 2 }],
    gravity: G,
    alpha: 5,
    beta: 1,
  };
}

test('horizontal rod (walkthrough): M⁻¹, J, F, A = [[1.2]], λ = 0, free fall', () => {
  const sys = assembleSystem(horizontalRod());
  assert.equal(sys.nv, 12);
  assert.equal(sys.m, 1);
  // M⁻¹ diagonal: 1/10 ×3, 1 ×3, 1/5 ×3, 2 ×3
  const diag = Array.from({ length: 12 }, (_, i) => sys.Minv[i * 12 + i]);
  assert.deepEqual(diag, [0.1, 0.1, 0.1, 1, 1, 1, 0.2, 0.2, 0.2, 2, 2, 2]);
  // J = [dᵀ, 0, −dᵀ, 0] with d = p_A − p_B = (−2, 0, 0)
  assert.deepEqual(Array.from(sys.J), [-2, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0]);
  const F = Array.from(sys.F);
  [0, 0, 10 * -9.81, 0, 0, 0, 0, 0, 5 * -9.81, 0, 0, 0].forEach((f, i) => assert.equal(F[i], f));
  assert.deepEqual(Array.from(sys.C), [0]);
  assert.equal(Math.abs(sys.rhs[0]), 0);
  const sol = solveKkt(sys);
  assert.equal(sol.A.length, 1);
  relClose(sol.A[0], 1.2, 1e-15, 'A');
  assert.equal(Math.abs(sol.lambda[0]), 0);
  for (const o of [0, 6]) {
    assert.equal(Math.abs(sol.a[o]) + Math.abs(sol.a[o + 1]), 0);
    relClose(sol.a[o + 2], -9.81, 1e-15, 'a_z');
  }
});

test('hanging mass (walkthrough bonus): λ = −19.62/0.800004 to 1e-12', () => {
  const sys = assembleSystem(hangingMass());
  const sol = solveKkt(sys);
  relClose(sol.A[0], 0.800004, 1e-14, 'A');
  relClose(sol.b[0], -19.62, 1e-14, 'b');
  const expected = -19.62 / 0.800004;
  relClose(expected, -24.5248773756, 1e-11, 'expected λ');
  relClose(sol.lambda[0], expected, 1e-12, 'λ');
  // Force on the hanging mass: Jᵀλ rows 6..8 = −d·λ = (0, 0, −2λ) ≈ +49.05 N upward
  relClose(-2 * sol.lambda[0], 49.05, 1e-5, 'tension');
  // The constraint is satisfied at the acceleration level: J·a = rhs
  const Ja = matVec(sys.J, sys.m, sys.nv, sol.a);
  assert.ok(Math.abs(Ja[0] - sys.rhs[0]) < 1e-12);
});

test('hybrid solver notebook: both bodies under gravity free-fall, λ = 0, rod length kept', () => {
  const world: DenseWorld = {
    bodies: [
      makeBody({ name: 'Anchor', mass: 1000, inertia: [100, 100, 100], position: [0, 0, 2] }),
      makeBody({ name: 'Payload', mass: 5, inertia: [0.5, 0.5, 0.5], position: [0, 0, 0] }),
    ],
    constraints: [{ type: 'distance', bodyA: 0, bodyB: 1, anchorA: [0, 0, 0], anchorB: [0, 0, 0], length: 2 }],
    gravity: G,
    alpha: 5,
    beta: 1,
  };
  for (let k = 0; k < 100; k++) {
    const { sol } = denseStep(world, 0.01);
    assert.ok(Math.abs(sol.lambda[0]) < 1e-9);
  }
  const [A, B] = world.bodies;
  relClose(Math.hypot(A.p[0] - B.p[0], A.p[1] - B.p[1], A.p[2] - B.p[2]), 2, 1e-12, 'distance');
  // 100 semi-implicit Euler steps of free fall: z = z0 − g·dt²·(1+2+…+100)
  relClose(B.p[2], -9.81 * 0.0001 * 5050, 1e-12, 'payload z');
});

test('ball joint rows: J = [I, −[r_A]×, −I, [r_B]×], C = x_A − x_B, world end has no columns', () => {
  const world: DenseWorld = {
    bodies: [
      makeBody({ mass: 1, inertia: [0.01, 0.01, 0.01], position: [0, 0, 0] }),
      makeBody({ mass: 2, inertia: [0.02, 0.02, 0.02], position: [0.1, 0.01, 0], orientation: [0, 0, Math.sin(0.1), Math.cos(0.1)] }),
    ],
    constraints: [
      { type: 'ball', bodyA: 0, bodyB: -1, anchorA: [-0.05, 0, 0], anchorB: [-0.05, 0, 0] },
      { type: 'ball', bodyA: 0, bodyB: 1, anchorA: [0.05, 0, 0], anchorB: [-0.05, 0, 0] },
    ],
    gravity: G,
    alpha: 0,
    beta: 0,
  };
  const sys = assembleSystem(world);
  assert.equal(sys.m, 6);
  // world row: columns 6..11 (body 1) are zero
  for (let r = 0; r < 3; r++) for (let c = 6; c < 12; c++) assert.equal(sys.J[r * 12 + c], 0);
  // row x of the first joint: [1,0,0, 0,r_z,−r_y] with r_A = (−0.05,0,0)
  assert.deepEqual(Array.from(sys.J.subarray(0, 6)), [1, 0, 0, 0, 0, 0]);
  assert.deepEqual(Array.from(sys.J.subarray(12 + 0, 12 + 6)), [0, 1, 0, 0, 0, -0.05]);
  // Ċ = J·v matches a finite difference of C
  world.bodies[0].v = [0.3, -0.2, 0.1];
  world.bodies[0].w = [1, 2, -0.5];
  world.bodies[1].v = [-0.1, 0.4, 0.2];
  world.bodies[1].w = [0.2, -1, 0.7];
  const s0 = assembleSystem(world);
  const Jv = matVec(s0.J, s0.m, s0.nv, s0.v);
  const h = 1e-7;
  const moved: DenseWorld = structuredClone(world);
  for (const b of moved.bodies) {
    for (let k = 0; k < 3; k++) b.p[k] += b.v[k] * h;
    const [qx, qy, qz, qw] = b.q;
    const [wx, wy, wz] = b.w;
    const q = [
      qx + 0.5 * h * (qw * wx + wy * qz - wz * qy),
      qy + 0.5 * h * (qw * wy + wz * qx - wx * qz),
      qz + 0.5 * h * (qw * wz + wx * qy - wy * qx),
      qw - 0.5 * h * (wx * qx + wy * qy + wz * qz),
    ];
    const n = Math.hypot(...q);
    b.q = [q[0] / n, q[1] / n, q[2] / n, q[3] / n];
  }
  const s1 = assembleSystem(moved);
  for (let i = 0; i < 6; i++) assert.ok(Math.abs((s1.C[i] - s0.C[i]) / h - Jv[i]) < 1e-5, `row ${i}`);
});

test('luSolve matches a known system and pivots', () => {
  const A = Float64Array.from([0, 2, 1, 1, 1, 0, 3, 0, 1]);
  const x = luSolve(A, 3, Float64Array.from([5, 3, 6]));
  // solution (1, 2, 1)... check by substitution
  const r = matVec(A, 3, 3, x);
  assert.ok(Math.abs(r[0] - 5) + Math.abs(r[1] - 3) + Math.abs(r[2] - 6) < 1e-14);
  assert.throws(() => luSolve(Float64Array.from([1, 2, 2, 4]), 2, Float64Array.from([1, 2])));
});

test('a short chain: J·a = rhs every step; the seed formulation (no J̇v term) drifts slowly', () => {
  const p = chainParams(5);
  const world: DenseWorld = {
    bodies: Array.from({ length: p.n }, (_, k) =>
      makeBody({ mass: p.mass, inertia: [p.inertia, p.inertia, p.inertia], position: linkPosition(p, k) }),
    ),
    constraints: [
      { type: 'ball', bodyA: 0, bodyB: -1, anchorA: [-half(p), 0, 0], anchorB: [-half(p), 0, 0] },
      ...Array.from({ length: p.n - 1 }, (_, k) => ({
        type: 'ball' as const,
        bodyA: k,
        bodyB: k + 1,
        anchorA: [half(p), 0, 0] as [number, number, number],
        anchorB: [-half(p), 0, 0] as [number, number, number],
      })),
    ],
    gravity: p.gravity,
    alpha: p.alpha,
    beta: p.beta,
  };
  const err = () => chainJointError(p, (k) => ({ pos: world.bodies[k].p, quatXyzw: world.bodies[k].q }));
  assert.ok(err() < 1e-15);
  for (let k = 0; k < 50; k++) {
    const { sys, sol } = denseStep(world, p.dt);
    const Ja = matVec(sys.J, sys.m, sys.nv, sol.a);
    for (let i = 0; i < sys.m; i++) assert.ok(Math.abs(Ja[i] - sys.rhs[i]) < 1e-9, `step ${k} row ${i}`);
    if (k === 9) assert.ok(err() < 1e-3, `joint error after 10 steps ${err()}`);
  }
  assert.ok(world.bodies[p.n - 1].p[2] < -0.05, 'the chain falls');
});

test('dense products: matMul and matMulABt agree with the textbook triple loop (odd sizes too)', () => {
  const r = 5, k = 7, c = 3;
  const P = Float64Array.from({ length: r * k }, (_, i) => Math.sin(i + 1));
  const Q = Float64Array.from({ length: k * c }, (_, i) => Math.cos(i + 2));
  const X = matMul(P, r, k, Q, c);
  const Qt = Float64Array.from({ length: c * k }, (_, i) => Q[(i % k) * c + Math.floor(i / k)]);
  const Y = matMulABt(P, r, k, Qt, c);
  for (let i = 0; i < r; i++)
    for (let j = 0; j < c; j++) {
      let s = 0;
      for (let t = 0; t < k; t++) s += P[i * k + t] * Q[t * c + j];
      assert.ok(Math.abs(X[i * c + j] - s) < 1e-14 && Math.abs(Y[i * c + j] - s) < 1e-14);
    }
});
