// msd-sim's rigid-body state and its integration, as danielnewman09/MSD-CPP writes them in
// msd-sim/src/Physics/RigidBody/InertialState.cpp (the ω ⇄ Q̇ conversions) and
// msd-sim/src/Physics/Integration/SemiImplicitEulerIntegrator.cpp (`step`, in the version that
// solves the Lagrange constraints, commits a8342d0 and 5488d79 of ticket 0031).
//
// msd-sim keeps Q̇ itself in the state (not ω), in Eigen's coefficient order (x, y, z, w) like the
// quaternion's own coefficients; the engine's quaternions are [x, y, z, w] too, so both arrays are
// stored here exactly as msd-sim stores them.
import type { Mat3, Quat, Vec3 } from '../types';
import { quatToMat3 } from '../core/math';

/** The state of the free bodies, 3 or 4 numbers per body in body order (InertialState's fields). */
export interface MsdState {
  /** Positions X (3 per body). */
  X: Float64Array;
  /** Velocities Ẋ (3 per body). */
  V: Float64Array;
  /** Quaternions Q as Eigen's coeffs(): (x, y, z, w) (4 per body). */
  Q: Float64Array;
  /** Quaternion rates Q̇ in the same (x, y, z, w) order (4 per body). */
  Qdot: Float64Array;
}

export function cloneMsdState(s: MsdState): MsdState {
  return { X: Float64Array.from(s.X), V: Float64Array.from(s.V), Q: Float64Array.from(s.Q), Qdot: Float64Array.from(s.Qdot) };
}

const quatAt = (Q: ArrayLike<number>, i: number): Quat => [Q[4 * i], Q[4 * i + 1], Q[4 * i + 2], Q[4 * i + 3]];

/** InertialState::omegaToQuaternionRate: Q̇ = ½·Q ⊗ [0, ω], returned as (x, y, z, w). */
export function omegaToQuaternionRate(w: Vec3, q: Quat): Quat {
  const qx = q[0], qy = q[1], qz = q[2], qw = q[3];
  const wx = w[0], wy = w[1], wz = w[2];
  return [0.5 * (qw * wx + qy * wz - qz * wy), 0.5 * (qw * wy - qx * wz + qz * wx), 0.5 * (qw * wz + qx * wy - qy * wx), 0.5 * (-qx * wx - qy * wy - qz * wz)];
}

/** InertialState::quaternionRateToOmega: the vector part of 2·Q̄ ⊗ Q̇ (Q̇ in (x, y, z, w) order). */
export function quaternionRateToOmega(qd: ArrayLike<number>, q: Quat): Vec3 {
  const qx = q[0], qy = q[1], qz = q[2], qw = q[3];
  const dx = qd[0], dy = qd[1], dz = qd[2], dw = qd[3];
  return [2 * (qw * dx - qx * dw - qy * dz + qz * dy), 2 * (qw * dy + qx * dz - qy * dw - qz * dx), 2 * (qw * dz - qx * dy + qy * dx - qz * dw)];
}

/** Body i's quaternion and its rate. */
export function bodyQuat(s: MsdState, i: number): Quat {
  return quatAt(s.Q, i);
}

/** ω of body i (world frame), from its stored Q̇. */
export function angularVelocity(s: MsdState, i: number): Vec3 {
  return quaternionRateToOmega(s.Qdot.subarray(4 * i, 4 * i + 4), quatAt(s.Q, i));
}

/**
 * AssetInertial::getInverseInertiaTensorWorld: R·I⁻¹·Rᵀ with R = Q.toRotationMatrix() (the world
 * model hands this to the integrator and the solver from 5488d79 on).
 */
export function inverseInertiaWorld(invBody: Mat3, q: Quat): Mat3 {
  const R = quatToMat3(q);
  const out = new Array<number>(9).fill(0) as Mat3;
  for (let r = 0; r < 3; r++)
    for (let c = 0; c < 3; c++) {
      let s = 0;
      for (let k = 0; k < 3; k++) for (let l = 0; l < 3; l++) s += R[3 * r + k] * invBody[3 * k + l] * R[3 * c + l];
      out[3 * r + c] = s;
    }
  return out;
}

/** Per body: what one SemiImplicitEulerIntegrator::step needs besides the state. */
export interface MsdStepInput {
  mass: number;
  /** The world-frame inverse inertia the step was solved with. */
  invInertia: Mat3;
  /** External force and torque (world frame). */
  force: Vec3;
  torque: Vec3;
  /** The constraint force and torque of ConstraintSolver::solve (zero when it did not converge). */
  constraintForce: Vec3;
  constraintTorque: Vec3;
}

const mul3 = (m: Mat3, v: ArrayLike<number>): Vec3 => [
  m[0] * v[0] + m[1] * v[1] + m[2] * v[2],
  m[3] * v[0] + m[4] * v[1] + m[5] * v[2],
  m[6] * v[0] + m[7] * v[1] + m[8] * v[2],
];

/**
 * SemiImplicitEulerIntegrator::step for body i, in place: v += a·dt, X += v·dt (the new v),
 * ω = 2·Q̄⊗Q̇, ω += α·dt, Q̇ = ½·Q⊗[0, ω], Q += Q̇·dt, then Q.normalize() (msd-sim normalises as well
 * as constraining). Returns |Q| − 1 before the normalisation.
 */
export function integrateBody(s: MsdState, i: number, inp: MsdStepInput, dt: number): number {
  const m = inp.mass;
  const tauFree = mul3(inp.invInertia, inp.torque);
  const tauC = mul3(inp.invInertia, inp.constraintTorque);
  for (let k = 0; k < 3; k++) {
    const a = inp.force[k] / m + inp.constraintForce[k] / m;
    s.V[3 * i + k] += a * dt;
    s.X[3 * i + k] += s.V[3 * i + k] * dt;
  }
  const q = quatAt(s.Q, i);
  const w = angularVelocity(s, i);
  for (let k = 0; k < 3; k++) w[k] += (tauFree[k] + tauC[k]) * dt;
  const qd = omegaToQuaternionRate(w, q);
  for (let k = 0; k < 4; k++) {
    s.Qdot[4 * i + k] = qd[k];
    s.Q[4 * i + k] += qd[k] * dt;
  }
  // Eigen's normalize(): divide by the norm (left alone when it is 0)
  const n = Math.sqrt(s.Q[4 * i] ** 2 + s.Q[4 * i + 1] ** 2 + s.Q[4 * i + 2] ** 2 + s.Q[4 * i + 3] ** 2);
  if (n > 0) for (let k = 0; k < 4; k++) s.Q[4 * i + k] /= n;
  return n - 1;
}
