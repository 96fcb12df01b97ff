// The field tables and defaults of scene format v1. The parser (parse.ts) reads exactly these
// fields; test/unit/scene-schema.test.ts checks that schemas/scene.schema.json lists the same ones,
// so the two cannot drift apart.
import type { ConstraintType, SolverSettings } from './spec';
import type { Quat, Vec3 } from '../types';
import { DEFAULT_CONTACTS, DEFAULT_FB, DEFAULT_NEWTON, DEFAULT_PGS, DEFAULT_REGULARIZATION } from './contactFields';

/** Fields of the top-level scene object. */
export const SCENE_FIELDS = ['$schema', 'name', 'gravity', 'fluid', 'solver', 'bodies', 'constraints', 'world', 'actuators', 'tendons'] as const;
/** Fields of the top-level `fluid` (MuJoCo's medium: model/fluid.ts). */
export const FLUID_FIELDS = ['density', 'viscosity', 'wind'] as const;

/** Fields of `solver`. */
export const SOLVER_FIELDS = [
  'dt',
  'steps',
  'alpha',
  'beta',
  'stabilization',
  'formulation',
  'integrator',
  'coordinates',
  'erp',
  'compliance',
  'method',
  'conditionWarning',
  'violationTolerance',
  'driftTolerance',
  'contacts',
  'newton',
  'regularization',
  'fb',
  'pgs',
] as const;

/** Fields of a body. */
export const BODY_FIELDS = [
  'name',
  'mass',
  'inertia',
  'position',
  'orientation',
  'velocity',
  'angularVelocity',
  'force',
  'torque',
  'gravity',
  'gravityCompensation',
  'contactInvWeight',
  'fixed',
  'sleep',
  'shapes',
] as const;
/** A body's sleeping policy (`solver.contacts.sleep`; MuJoCo's `body/sleep`); absent: by the rule of contact/sleep.ts. */
export const BODY_SLEEP = ['never', 'allowed'] as const;

/** The drive fields of a hinge or slider (drives.ts reads them). */
export const DRIVE_FIELDS = ['damping', 'stiffness', 'springRef', 'armature', 'coordinate'] as const;

/** Fields of an actuator (the top-level `actuators`, drives.ts). */
export const ACTUATOR_FIELDS = ['name', 'joint', 'tendon', 'gear', 'gain', 'bias', 'ctrlRange', 'forceRange', 'ctrl', 'activation'] as const;
/** Fields of an actuator's `activation` (scene/activation.ts) and its types (MuJoCo's dyntype). */
export const ACTIVATION_FIELDS = ['type', 'timeConstant', 'act0', 'range', 'early'] as const;
export const ACTIVATION_TYPES = ['integrator', 'filter', 'filterexact'] as const;

/** Fields of a tendon (the top-level `tendons`, tendons.ts), of its joints, path points and equality. */
export const TENDON_FIELDS = ['name', 'joints', 'path', 'limits', 'limitMargin', 'stiffness', 'springLength', 'damping', 'frictionLoss', 'equality'] as const;
export const TENDON_JOINT_FIELDS = ['joint', 'coef'] as const;
export const TENDON_POINT_FIELDS = ['body', 'point'] as const;
export const TENDON_EQUALITY_FIELDS = ['name', 'length0', 'polycoef', 'other', 'otherLength0'] as const;

/** Fields every constraint has. */
export const CONSTRAINT_COMMON_FIELDS = ['name', 'type', 'bodyA', 'bodyB', 'anchorA', 'anchorB'] as const;

/** The additional fields of each constraint type. */
export const CONSTRAINT_TYPE_FIELDS: Readonly<Record<ConstraintType, readonly string[]>> = {
  distance: ['length'],
  ball: ['hinges'],
  hinge: ['axisA', 'axisB', 'limits', 'limitMargin', 'limitSolref', 'limitSolimp', 'limitInvWeight', 'frictionLoss', ...DRIVE_FIELDS],
  fixed: ['relativeOrientation'],
  slider: ['axisA', 'limits', 'limitMargin', 'limitSolref', 'limitSolimp', 'limitInvWeight', 'frictionLoss', ...DRIVE_FIELDS],
  lock: ['linear', 'angular'],
  universal: ['axisA', 'axisB', 'hinges'],
  coupler: ['joints', 'coefficients', 'initial'],
  chain: ['joints'],
};

/** Fields of one joint of a `chain` constraint. */
export const CHAIN_JOINT_FIELDS = ['name', 'type', 'axis', 'anchor', 'limits', 'limitMargin', 'limitSolref', 'limitSolimp', 'limitInvWeight', 'frictionLoss', ...DRIVE_FIELDS] as const;
/** Fields of one of a universal's or ball's `hinges` (groupFields.ts). */
export const GROUP_HINGE_FIELDS = ['name', 'axis', 'zero', 'limits', 'limitMargin', 'limitSolref', 'limitSolimp', 'limitInvWeight', 'frictionLoss', ...DRIVE_FIELDS] as const;
export const CHAIN_JOINT_TYPES = ['hinge', 'slider'] as const;

/** The coupler names the joints it couples instead of two bodies (see CouplingSpec). */
const NO_ENDS: readonly ConstraintType[] = ['coupler'];

/** Every field a constraint of any type may have. */
export const CONSTRAINT_ALL_FIELDS: readonly string[] = [
  ...CONSTRAINT_COMMON_FIELDS,
  ...new Set(Object.values(CONSTRAINT_TYPE_FIELDS).flat()),
];

/** Fields of a constraint of the given type. */
export function constraintFields(type: ConstraintType): readonly string[] {
  const common = NO_ENDS.includes(type) ? ['name', 'type'] : CONSTRAINT_COMMON_FIELDS;
  return [...common, ...CONSTRAINT_TYPE_FIELDS[type]];
}

/** Longest coupler polynomial (c₀ … c₇). */
export const MAX_COUPLER_COEFFICIENTS = 8;

export const STABILIZATIONS = ['aerislab', 'aerislab-oscillator', 'baumgarte', 'none'] as const;
export const FORMULATIONS = ['acceleration', 'velocity', 'nonlinear'] as const;
/** Time stepping of the velocity formulation: semi-implicit Euler, or Solfec's midpoint step. */
export const INTEGRATORS = ['euler', 'midpoint'] as const;
export const COORDINATES = ['twist', 'quaternion'] as const;
export const SOLVE_METHODS = ['auto', 'cholesky', 'lu', 'lstsq'] as const;

export const WORLD = 'world';
export const DEFAULT_SCENE_NAME = 'Untitled scene';
export const DEFAULT_GRAVITY: Readonly<Vec3> = [0, 0, -9.81];
export const DEFAULT_INERTIA_DIAGONAL: Readonly<Vec3> = [1, 1, 1];
export const DEFAULT_ORIENTATION: Readonly<Quat> = [0, 0, 0, 1];
export const DEFAULT_HINGE_AXIS: Readonly<Vec3> = [0, 0, 1];
export const DEFAULT_SLIDER_AXIS: Readonly<Vec3> = [1, 0, 0];

export const DEFAULT_SOLVER: Readonly<SolverSettings> = {
  dt: 0.01,
  steps: 100,
  alpha: 0,
  beta: 0,
  stabilization: 'aerislab',
  formulation: 'acceleration',
  integrator: 'euler',
  coordinates: 'twist',
  erp: 0.2,
  compliance: 0,
  method: 'auto',
  conditionWarning: 1e6,
  violationTolerance: 1e-6,
  driftTolerance: 1e-3,
  // Shared default objects: the parser gives every scene its own copies (contactSettings.ts).
  contacts: DEFAULT_CONTACTS,
  newton: DEFAULT_NEWTON,
  regularization: DEFAULT_REGULARIZATION,
  fb: DEFAULT_FB,
  pgs: DEFAULT_PGS,
};

/** |‖q‖ − 1| above which CL105 is reported. */
export const QUATERNION_TOLERANCE = 1e-9;
/** Relative tolerance of the inertia symmetry check. */
export const INERTIA_SYMMETRY_TOLERANCE = 1e-9;
/** Lengths (distance, axis norm) at or below this are treated as zero. */
export const ZERO_LENGTH = 1e-12;
