// Constraint factory: one model per `ConstraintSpec.type` (formulas in docs/formulas.md, "Constraints").
import type { ConstraintSpec } from '../scene/spec';
import type { ConstraintModel, Pose } from './constraint';
import { BallConstraint } from './ball';
import { DistanceConstraint } from './distance';
import { FixedConstraint } from './fixed';
import { HingeConstraint } from './hinge';
import { LockConstraint } from './lock';
import { SliderConstraint } from './slider';
import { CouplerConstraint, couplerExtraBodies } from './coupler';
import { UniversalConstraint } from './universal';
import { ChainConstraint } from './chain';

export type { ConstraintEval, ConstraintModel, Pose } from './constraint';
export { makeEval } from './constraint';
export { classifyJointChain } from '../scene/chainPattern';
export type { ChainJointInput, ChainPattern } from '../scene/chainPattern';
export { BallConstraint, ChainConstraint, CouplerConstraint, DistanceConstraint, FixedConstraint, HingeConstraint, LockConstraint, SliderConstraint, UniversalConstraint };

/** The bodies a constraint involves beyond bodyA and bodyB (only the coupler has any). */
export function extraBodiesOf(spec: ConstraintSpec): string[] {
  return spec.type === 'coupler' ? couplerExtraBodies(spec) : [];
}

/**
 * Build the model of one constraint. `a0`/`b0` are the INITIAL world poses of the two ends (world
 * frame: p = 0, q = identity); they fix the reference quantities (distance rest length when
 * `spec.length` is undefined, q_rel0 of fixed/slider/lock, d0 of lock, the universal joint's angle, the chain's invariants, the
 * coupler's joint references). `extra0` are the initial poses of `extraBodiesOf(spec)`.
 */
export function createConstraint(spec: ConstraintSpec, a0: Pose, b0: Pose, extra0: readonly Pose[] = []): ConstraintModel {
  switch (spec.type) {
    case 'distance':
      return new DistanceConstraint(spec, a0, b0);
    case 'ball':
      return new BallConstraint(spec);
    case 'hinge':
      return new HingeConstraint(spec);
    case 'fixed':
      return new FixedConstraint(spec, a0, b0);
    case 'slider':
      return new SliderConstraint(spec, a0, b0);
    case 'lock':
      return new LockConstraint(spec, a0, b0);
    case 'universal':
      return new UniversalConstraint(spec, a0, b0);
    case 'coupler':
      return new CouplerConstraint(spec, a0, b0, extra0);
    case 'chain':
      return new ChainConstraint(spec, a0, b0);
    default: {
      const never: never = spec.type;
      throw new Error(`unknown constraint type: ${String(never)}`);
    }
  }
}
