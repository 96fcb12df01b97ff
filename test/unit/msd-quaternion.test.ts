// msd-sim's Lagrange framework in quaternion coordinates (src/engine/msd/), checked against
// danielnewman09/MSD-CPP's own tests (msd-sim/test/Physics/Constraints/ConstraintTest.cpp, ticket
// 0031, commit a8342d0) with the exact numbers their scenes give, the seed's equations
// (shared/seeds/msd-sim-lagrange-framework.md: C = QᵀQ − 1, J = [0, 0, 0, 2Q]; C = |X|² − d²,
// J = [2X, 0]; A = J·M⁻¹·Jᵀ, b = −J·M⁻¹·F − α·C − β·Ċ), closed forms, and finite differences of J.
import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { evaluateRow, jacobianRow, type MsdRow } from '../../src/engine/msd/constraints';
import { lltInPlace, msdSolve, svdConditionNumber, type MsdBodyInput } from '../../src/engine/msd/solver';
import { cloneMsdState, integrateBody, omegaToQuaternionRate, quaternionRateToOmega, type MsdState } from '../../src/engine/msd/state';
import { quatMul } from '../../src/engine/core/math';
import type { Mat3, Quat, Vec3 } from '../../src/engine/types';

const I3: Mat3 = [1, 0, 0, 0, 1, 0, 0, 0, 1];
const close = (a: number, b: number, tol = 1e-12, what = ''): void => assert.ok(Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);
const closeAll = (a: ArrayLike<number>, b: ArrayLike<number>, tol = 1e-12, what = ''): void => {
  assert.equal(a.length, b.length, `${what}: length`);
  for (let i = 0; i < a.length; i++) close(a[i], b[i], tol, `${what}[${i}]`);
};

/** ConstraintTest.cpp's createDefaultState, one body; Q as (x, y, z, w). */
function state(X: Vec3 = [0, 0, 0], Q: Quat = [0, 0, 0, 1], V: Vec3 = [0, 0, 0], Qdot: Quat = [0, 0, 0, 0]): MsdState {
  return { X: Float64Array.from(X), V: Float64Array.from(V), Q: Float64Array.from(Q), Qdot: Float64Array.from(Qdot) };
}
const unit = (body = 0, alpha = 10, beta = 10): MsdRow => ({ kind: 'unit-quaternion', body, alpha, beta });
const dist = (length: number, a = 0, b = -1, point: Vec3 = [0, 0, 0], alpha = 10, beta = 10): MsdRow => ({ kind: 'distance', a, b, point, length, alpha, beta });
const denseRow = (row: MsdRow, s: MsdState, n: number): number[] => {
  const out = new Array<number>(n).fill(0);
  for (const e of jacobianRow(row, s)) out[e.col] = e.value;
  return out;
};
const body = (mass = 1, invInertia: Mat3 = I3, force: Vec3 = [0, 0, 0], torque: Vec3 = [0, 0, 0]): MsdBodyInput => ({ mass, invInertia, force, torque });

test('UnitQuaternionConstraintTest: Evaluate_UnitQuaternion_ReturnsZero, Evaluate_NonUnitQuaternion_ReturnsViolation, Jacobian_CorrectStructure', () => {
  assert.equal(evaluateRow(unit(), state()), 0);
  // w = x = y = z = 1: |Q|² = 4, C = 3
  assert.equal(evaluateRow(unit(), state([0, 0, 0], [1, 1, 1, 1])), 3);
  // (0.5, 0.5, 0.5, 0.5) normalised: J = [0 0 0, 2w 2x 2y 2z] = [0 0 0 1 1 1 1]
  closeAll(denseRow(unit(), state([0, 0, 0], [0.5, 0.5, 0.5, 0.5]), 7), [0, 0, 0, 1, 1, 1, 1], 0, 'J');
  // the columns are (w, x, y, z) although Q is stored (x, y, z, w)
  assert.deepEqual(denseRow(unit(), state([0, 0, 0], [0.1, 0.2, 0.3, 0.9]), 7), [0, 0, 0, 1.8, 0.2, 0.4, 0.6]);
});

test('DistanceConstraintTest: Evaluate at, inside and outside the target; Jacobian_CorrectStructure', () => {
  assert.equal(evaluateRow(dist(5), state([3, 4, 0])), 0);
  assert.equal(evaluateRow(dist(10), state([3, 4, 0])), -75);
  assert.equal(evaluateRow(dist(3), state([3, 4, 0])), 16);
  assert.deepEqual(denseRow(dist(5), state([1, 2, 3]), 7), [2, 4, 6, 0, 0, 0, 0]);
});

test('ConstraintSolverTest: EmptyConstraintSet_ReturnsZeroForces (converged, no λ, zero forces, κ = 1)', () => {
  const r = msdSolve([], state(), [body(1, I3, [0, 0, -9.81])]);
  assert.equal(r.converged, true);
  assert.equal(r.lambda.length, 0);
  assert.deepEqual(Array.from(r.Fc), [0, 0, 0, 0, 0, 0, 0]);
  assert.equal(r.conditionNumber, 1);
});

test('ConstraintSolverTest: SingleQuaternionConstraint_Converges and ConditionNumber_WellConditioned: A = [4], λ = 0, κ = 1', () => {
  const r = msdSolve([unit()], state(), [body(1, I3, [0, 0, -9.81])]);
  assert.equal(r.converged, true);
  assert.deepEqual(Array.from(r.A), [4]);
  closeAll(r.lambda, [0], 0, 'λ');
  assert.equal(r.conditionNumber, 1);
  const w = msdSolve([unit()], state([3, 4, 0]), [body(1, I3)]);
  assert.ok(w.converged && w.conditionNumber < 100);
});

test('ConstraintSolverTest: MultipleConstraints_Converges: X = (3, 4, 0), A = diag(4, 100), b = 0, λ = 0, κ = 25', () => {
  const r = msdSolve([unit(), dist(5)], state([3, 4, 0]), [body(1, I3, [0, 0, -9.81])]);
  assert.equal(r.converged, true);
  assert.equal(r.lambda.length, 2);
  closeAll(r.A, [4, 0, 0, 100], 0, 'A');
  closeAll(r.b, [0, 0], 0, 'b');
  closeAll(r.lambda, [0, 0], 0, 'λ');
  close(r.conditionNumber, 25, 1e-12, 'κ');
});

test('M⁻¹ as assembleConstraintMatrix builds it: (1/m)·I₃, the 3×3 inverse inertia on columns 3–5, 1 at (6, 6)', () => {
  const inv: Mat3 = [0.5, 0.1, 0, 0.1, 0.25, 0.05, 0, 0.05, 0.2];
  const r = msdSolve([unit()], state(), [body(4, inv)]);
  const B = r.MinvBlocks;
  for (let i = 0; i < 7; i++)
    for (let j = 0; j < 7; j++) {
      const want = i < 3 ? (i === j ? 0.25 : 0) : i < 6 ? (j >= 3 && j < 6 ? inv[3 * (i - 3) + j - 3] : 0) : j === 6 ? 1 : 0;
      assert.equal(B[7 * i + j], want, `M⁻¹(${i}, ${j})`);
    }
  // hence A of the unit-quaternion row: 4·[Q_w Q_x Q_y]·I⁻¹·[Q_w Q_x Q_y]ᵀ + 4·Q_z²
  const q: Quat = [0.2, -0.4, 0.5, Math.sqrt(1 - 0.04 - 0.16 - 0.25)];
  const a = msdSolve([unit()], state([0, 0, 0], q), [body(4, inv)]).A[0];
  const u = [q[3], q[0], q[1]];
  let quad = 0;
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) quad += u[i] * inv[3 * i + j] * u[j];
  close(a, 4 * quad + 4 * q[2] * q[2], 1e-14, 'A');
});

test('closed form: a body hanging at X = (0, 0, −d) under gravity: λ = −m·g/(2d), F_c = Jᵀλ = (0, 0, m·g)', () => {
  const m = 3, g = 9.81, d = 2;
  const r = msdSolve([unit(), dist(d)], state([0, 0, -d]), [body(m, I3, [0, 0, -m * g])]);
  close(r.A[3], (4 * d * d) / m, 1e-14, 'A_dd');
  close(r.b[1], -(2 * d * m * g) / m, 1e-14, 'b = −J·M⁻¹·F');
  close(r.lambda[1], (-m * g) / (2 * d), 1e-14, 'λ');
  closeAll(Array.from(r.Fc.subarray(0, 3)), [0, 0, m * g], 1e-14, 'F_c');
  assert.equal(r.lambda[0], 0);
});

test('b = −J·M⁻¹·F − α·C − β·Ċ with Ċ = J·q̇, q̇ = [Ẋ, Q̇ as msd-sim stores it]', () => {
  const X: Vec3 = [1.2, -0.7, 3.1], V: Vec3 = [0.3, 0.9, -0.4], F: Vec3 = [2, -1, -30], tau: Vec3 = [0.4, -0.2, 0.1];
  const q: Quat = [0.1, -0.3, 0.2, 0.9], qd: Quat = [0.05, -0.02, 0.07, 0.01];
  const m = 2.5, inv: Mat3 = [0.8, 0, 0, 0, 0.6, 0, 0, 0, 0.4], alpha = 7, beta = 3, d = 3;
  const s = state(X, q, V, qd);
  const r = msdSolve([unit(0, alpha, beta), dist(d, 0, -1, [0, 0, 0], alpha, beta)], s, [body(m, inv, F, tau)]);
  const nq = q[0] ** 2 + q[1] ** 2 + q[2] ** 2 + q[3] ** 2;
  // unit row: J = 2·(w, x, y, z) on columns 3–6; q̇ there is (Q̇x, Q̇y, Q̇z, Q̇w); M⁻¹·F there is (I⁻¹τ, 0)
  const Jq = [2 * q[3], 2 * q[0], 2 * q[1], 2 * q[2]];
  const cdotQ = Jq[0] * qd[0] + Jq[1] * qd[1] + Jq[2] * qd[2] + Jq[3] * qd[3];
  const mf = [inv[0] * tau[0], inv[4] * tau[1], inv[8] * tau[2], 0];
  const bQ = -(Jq[0] * mf[0] + Jq[1] * mf[1] + Jq[2] * mf[2]) - alpha * (nq - 1) - beta * cdotQ;
  close(r.C[0], nq - 1, 1e-15, 'C unit');
  close(r.Cdot[0], cdotQ, 1e-15, 'Ċ unit');
  close(r.b[0], bQ, 1e-13, 'b unit');
  const x2 = X[0] ** 2 + X[1] ** 2 + X[2] ** 2;
  const cdotD = 2 * (X[0] * V[0] + X[1] * V[1] + X[2] * V[2]);
  const bD = -(2 * (X[0] * F[0] + X[1] * F[1] + X[2] * F[2])) / m - alpha * (x2 - d * d) - beta * cdotD;
  close(r.Cdot[1], cdotD, 1e-15, 'Ċ distance');
  close(r.b[1], bD, 1e-13, 'b distance');
  // λ solves A·λ = b, and F_c = Jᵀ·λ
  const Al = [r.A[0] * r.lambda[0] + r.A[1] * r.lambda[1], r.A[2] * r.lambda[0] + r.A[3] * r.lambda[1]];
  closeAll(Al, r.b, 1e-12, 'A·λ');
});

test('finite differences: every row of J is ∂C/∂q (unit quaternion at a non-unit Q, distance to a point, between two bodies)', () => {
  const s = state([0.4, -1.3, 2.2], [0.3, -0.5, 0.7, 1.1]);
  const two: MsdState = { X: Float64Array.from([0.4, -1.3, 2.2, -0.9, 0.6, 1.7]), V: new Float64Array(6), Q: Float64Array.from([0.3, -0.5, 0.7, 1.1, 0, 0, 0, 1]), Qdot: new Float64Array(8) };
  const cases: [MsdRow, MsdState][] = [
    [unit(), s],
    [dist(2.5, 0, -1, [0.5, 0.25, -1]), s],
    [dist(1.5, 0, 1), two],
    [dist(1.5, 1, 0), two],
    [unit(1), two],
  ];
  const h = 1e-6;
  for (const [row, st] of cases) {
    const nb = st.X.length / 3, J = denseRow(row, st, 7 * nb);
    for (let k = 0; k < nb; k++)
      for (let c = 0; c < 7; c++) {
        // column c of body k: X_c for c < 3; Q_w, Q_x, Q_y, Q_z for c = 3 … 6 (stored at 3, 0, 1, 2)
        const [arr, idx] = c < 3 ? [st.X, 3 * k + c] : [st.Q, 4 * k + [3, 0, 1, 2][c - 3]];
        const plus = cloneMsdState(st), minus = cloneMsdState(st);
        (arr === st.X ? plus.X : plus.Q)[idx] += h;
        (arr === st.X ? minus.X : minus.Q)[idx] -= h;
        const fd = (evaluateRow(row, plus) - evaluateRow(row, minus)) / (2 * h);
        close(J[7 * k + c], fd, 1e-8, `${row.kind} ∂C/∂q[${7 * k + c}]`);
      }
  }
});

test('InertialState: Q̇ = ½·Q ⊗ [0, ω] stored (x, y, z, w), and ω = 2·Q̄ ⊗ Q̇ inverts it for a unit Q', () => {
  const q: Quat = [0.2, -0.4, 0.5, Math.sqrt(0.55)];
  const w: Vec3 = [0.3, -1.1, 0.7];
  const qd = omegaToQuaternionRate(w, q);
  const ref = quatMul(q, [w[0], w[1], w[2], 0]).map((x) => 0.5 * x);
  closeAll(qd, ref, 1e-15, 'Q̇');
  closeAll(quaternionRateToOmega(qd, q), w, 1e-14, 'ω');
});

test('SemiImplicitEulerIntegrator::step by hand: v += a·dt, X += v·dt, ω += I⁻¹(τ + τ_c)·dt, Q += Q̇·dt, normalise', () => {
  const q: Quat = [0.1, 0.2, -0.1, Math.sqrt(0.94)];
  const w0: Vec3 = [0.4, -0.2, 0.9];
  const s = state([1, 2, 3], q, [0.5, -0.5, 0.25], omegaToQuaternionRate(w0, q));
  const inv: Mat3 = [0.5, 0, 0, 0, 0.25, 0, 0, 0, 0.2];
  const inp = { mass: 2, invInertia: inv, force: [0, 0, -19.62] as Vec3, torque: [0.1, 0.3, -0.2] as Vec3, constraintForce: [1, 0, 2] as Vec3, constraintTorque: [0, 0.4, 0] as Vec3 };
  const dt = 0.016;
  const drift = integrateBody(s, 0, inp, dt);
  const v = [0.5 + (0 / 2 + 1 / 2) * dt, -0.5, 0.25 + (-19.62 / 2 + 2 / 2) * dt];
  closeAll(s.V, v, 1e-15, 'v');
  closeAll(s.X, [1 + v[0] * dt, 2 + v[1] * dt, 3 + v[2] * dt], 1e-15, 'X');
  const w: Vec3 = [w0[0] + 0.5 * 0.1 * dt, w0[1] + 0.25 * (0.3 + 0.4) * dt, w0[2] + 0.2 * -0.2 * dt];
  const qd = omegaToQuaternionRate(w, q);
  closeAll(s.Qdot, qd, 1e-14, 'Q̇');
  const raw = q.map((x, k) => x + qd[k] * dt);
  const n = Math.hypot(...raw);
  closeAll(s.Q, raw.map((x) => x / n), 1e-15, 'Q');
  close(drift, n - 1, 1e-15, '|Q| − 1 before normalising');
});

test('msd-sim\'s layout as coded: a spinning free body gets a unit-quaternion force from Ċ = J·q̇ with Q̇ in (x, y, z, w) order', () => {
  // identity Q, ω = (0.1, 0.2, 0.3): Q̇ = (0.05, 0.1, 0.15, 0); J·q̇ = 2·Q_w·Q̇_x = 0.1 (the true Ċ = 2Q·Q̇ is 0)
  const s = state([0, 0, 0], [0, 0, 0, 1], [0, 0, 0], omegaToQuaternionRate([0.1, 0.2, 0.3], [0, 0, 0, 1]));
  const inv: Mat3 = [0.6, 0, 0, 0, 0.6, 0, 0, 0, 0.6];
  const r = msdSolve([unit(0, 10, 10)], s, [body(10, inv)]);
  close(r.Cdot[0], 0.1, 1e-15, 'Ċ');
  close(r.b[0], -1, 1e-14, 'b = −β·Ċ');
  close(r.A[0], 4 * 0.6, 1e-15, 'A');
  close(r.lambda[0], -1 / 2.4, 1e-14, 'λ');
  // extractConstraintForces: torque = F_c[3..5] = (2λ, 0, 0)
  closeAll(Array.from(r.Fc.subarray(3, 6)), [-2 / 2.4, 0, 0], 1e-14, 'τ_c');
});

test('LLT as Eigen: fails on a pivot ≤ 0 (singular or indefinite A), κ of a singular A is ∞', () => {
  assert.equal(lltInPlace(Float64Array.from([4, 2, 2, 1]), 2), false);
  assert.equal(lltInPlace(Float64Array.from([1, 2, 2, 1]), 2), false);
  assert.equal(svdConditionNumber(Float64Array.from([4, 2, 2, 1]), 2), Infinity);
  // two distance rows to the same point: A singular, no constraint force (converged = false)
  const r = msdSolve([dist(5), dist(5)], state([3, 4, 0]), [body(1, I3, [0, 0, -9.81])]);
  assert.equal(r.converged, false);
  assert.equal(r.lambda.length, 0);
  assert.deepEqual(Array.from(r.Fc), [0, 0, 0, 0, 0, 0, 0]);
});
