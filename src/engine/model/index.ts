// Constraint factory: one model per `ConstraintSpec.type` (formulas in docs/formulas.md, "Constraints").
import type { ConstraintSpec } from '../scene/types';
import type { ConstraintModel, Pose } from './constraint';
import { BallConstraint } from './ball';
import { DistanceConstraint } from './distance';
import { FixedConstraint } from './fixed';
import { HingeConstraint } from './hinge';
import { LockConstraint } from './lock';
import { SliderConstraint } from './slider';

export type { ConstraintEval, ConstraintModel, Pose } from './constraint';
export { makeEval } from './constraint';
export { BallConstraint, DistanceConstraint, FixedConstraint, HingeConstraint, LockConstraint, SliderConstraint };

/**
 * Build the model of one constraint. `a0`/`b0` are the INITIAL world poses of the two ends (world
 * frame: p = 0, q = identity); they fix the reference quantities (distance rest length when
 * `spec.length` is undefined, q_rel0 of fixed/slider/lock, d0 of lock).
 */
export function createConstraint(spec: ConstraintSpec, a0: Pose, b0: Pose): ConstraintModel {
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
    default: {
      const never: never = spec.type;
      throw new Error(`unknown constraint type: ${String(never)}`);
    }
  }
}
