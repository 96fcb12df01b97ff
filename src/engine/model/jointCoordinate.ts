// The coordinate of a hinge or slider constraint: bodyB's rotation angle (rad) or displacement (m)
// relative to bodyA about/along axisA, 0 in the initial state. It is the coupler's joint coordinate
// (coupler.ts has the kinematics and docs/formulas.md the derivation), here with its 1×12 Jacobian
// [J_A | J_B] split per end, so that joint limits and friction loss (contact/jointRows.ts) act on it.
//   q̇ = J_A·[v_A; ω_A] + J_B·[v_B; ω_B]   exactly, at any state.
import type { ConstraintSpec } from '../scene/spec';
import type { Quat } from '../types';
import { mat3MulVecInto, quatConj, quatMul } from '../core/math';
import type { Pose } from './constraint';
import { hingeCoordinate, sliderCoordinate, type Coordinate, type CoordinateEval } from './coupler';
import { unitAxis } from './hinge';

export class JointCoordinate {
  readonly kind: 'hinge' | 'slider';
  /** Value (rad or m), rate and the Jacobian blocks of A and B ([v, ω], 6 each) after `evaluate`. */
  q = 0;
  qd = 0;
  readonly JA: Float64Array;
  readonly JB: Float64Array;
  private readonly c: Coordinate;
  private readonly e: CoordinateEval;

  /** `a0`, `b0`: the poses of bodyA and bodyB in the initial state (the world's for "world"). */
  constructor(spec: ConstraintSpec, a0: Pose, b0: Pose) {
    this.kind = spec.type === 'slider' ? 'slider' : 'hinge';
    const axis = unitAxis(spec.axisA);
    const r0: Quat = quatMul(quatConj(a0.q), b0.q);
    const n = [0, 0, 0] as [number, number, number];
    mat3MulVecInto(a0.R, axis, n);
    const d0 = n[0] * (b0.p[0] - a0.p[0]) + n[1] * (b0.p[1] - a0.p[1]) + n[2] * (b0.p[2] - a0.p[2]);
    this.c = {
      joint: { joint: spec.name, kind: this.kind, body: spec.bodyB, parent: spec.bodyA, axis, initial: 0 },
      axis,
      bodySlot: 1,
      parentSlot: 0,
      r0inv: quatConj(r0),
      d0,
    };
    this.e = { q: 0, jBody: new Float64Array(6), jParent: new Float64Array(6), qdd: 0, qd: 0 };
    this.JA = this.e.jParent;
    this.JB = this.e.jBody;
  }

  /** q, q̇ and the Jacobian blocks at the poses of A and B (with their velocities). */
  evaluate(a: Pose, b: Pose): void {
    if (this.kind === 'hinge') hingeCoordinate(this.c, b, a, this.e);
    else sliderCoordinate(this.c, b, a, this.e);
    this.q = this.e.q;
    this.qd = this.e.qd;
  }
}
