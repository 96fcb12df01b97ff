// Rigid bodies: constant properties from the scene, mutable state stepped in time.
import { IDENTITY_MAT3, mat3Inverse } from '../core/math';
import type { BodySpec } from '../scene/spec';
import type { Mat3, Quat, Vec3 } from '../types';

/** The mutable part of a body (world frame). */
export interface BodyState {
  p: Vec3;
  q: Quat;
  v: Vec3;
  w: Vec3;
}

export interface BodyModel {
  spec: BodySpec;
  /** First column in J (6 per body), or -1 for fixed bodies. */
  column: number;
  invMass: number;
  /** Body-frame inertia and its inverse. */
  inertia: Mat3;
  invInertia: Mat3;
}

export function createBodyModel(spec: BodySpec, column: number): BodyModel {
  return {
    spec,
    column,
    invMass: spec.fixed ? 0 : 1 / spec.mass,
    inertia: spec.inertia,
    // The parser guarantees SPD inertia, so the inverse exists; keep a safe identity otherwise.
    invInertia: mat3Inverse(spec.inertia) ?? IDENTITY_MAT3,
  };
}

export function initialState(spec: BodySpec): BodyState {
  return {
    p: [...spec.position] as Vec3,
    q: [...spec.orientation] as Quat,
    v: spec.fixed ? [0, 0, 0] : ([...spec.velocity] as Vec3),
    w: spec.fixed ? [0, 0, 0] : ([...spec.angularVelocity] as Vec3),
  };
}

export const cloneState = (s: BodyState): BodyState => ({
  p: [s.p[0], s.p[1], s.p[2]],
  q: [s.q[0], s.q[1], s.q[2], s.q[3]],
  v: [s.v[0], s.v[1], s.v[2]],
  w: [s.w[0], s.w[1], s.w[2]],
});
