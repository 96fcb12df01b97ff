// The coordinate of a hinge or slider constraint: bodyB's rotation angle (rad) or displacement (m)
// relative to bodyA about/along axisA, 0 in the initial state (a hinge of a universal or ball
// constraint's group: its Davenport angle's change, model/hingeGroup.ts). It is the coupler's joint coordinate
// (coupler.ts has the kinematics and docs/formulas.md the derivation), here with its 1×12 Jacobian
// [J_A | J_B] split per end, so that joint limits and friction loss (contact/jointRows.ts) act on it.
//   q̇ = J_A·[v_A; ω_A] + J_B·[v_B; ω_B]   exactly, at any state.
import type { ConstraintSpec } from '../scene/spec';
import type { Pose } from './constraint';
import { evaluateCoordinate, makeCoordinate, makeCoordinateEval, type Coordinate, type CoordinateEval } from './coupler';
import { unitAxis } from './hinge';

export class JointCoordinate {
  readonly kind: 'hinge' | 'slider';
  /** Value (rad or m), rate and the Jacobian blocks of A and B ([v, ω], 6 each) after `evaluate`. */
  q = 0;
  qd = 0;
  /** q̈ at zero acceleration of both bodies (J̇·u): the rate at which q̇ changes as the bodies turn on. */
  qdd = 0;
  readonly JA: Float64Array;
  readonly JB: Float64Array;
  private readonly c: Coordinate;
  private readonly e: CoordinateEval;

  /** `a0`, `b0`: the poses of bodyA and bodyB in the initial state (the world's for "world"). */
  constructor(spec: ConstraintSpec, a0: Pose, b0: Pose) {
    this.kind = spec.type === 'slider' ? 'slider' : 'hinge';
    const axis = unitAxis(spec.axisA);
    this.c = makeCoordinate({ joint: spec.name, kind: this.kind, body: spec.bodyB, parent: spec.bodyA, axis, initial: 0 }, b0, a0, 1, 0, spec);
    this.e = makeCoordinateEval();
    this.JA = this.e.jParent;
    this.JB = this.e.jBody;
  }

  /** q, q̇ and the Jacobian blocks at the poses of A and B (with their velocities). */
  evaluate(a: Pose, b: Pose): void {
    evaluateCoordinate(this.c, b, a, this.e);
    this.q = this.e.q;
    this.qd = this.e.qd;
    this.qdd = this.e.qdd;
  }
}
