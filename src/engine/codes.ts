// The catalogue of diagnostic codes. Codes are a contract (editor, CLI, docs):
// never rename one; add new ones at the end of their group.

export const Codes = {
  // input: syntax and schema
  jsonSyntax: 'CL001-json-syntax',
  schemaType: 'CL002-schema-type',
  unknownField: 'CL003-unknown-field',
  missingField: 'CL004-missing-field',
  invalidValue: 'CL005-invalid-value',
  duplicateKey: 'CL006-duplicate-key',
  // bodies
  duplicateBody: 'CL101-duplicate-body',
  reservedBodyName: 'CL102-reserved-body-name',
  nonPositiveMass: 'CL103-non-positive-mass',
  inertiaNotSpd: 'CL104-inertia-not-spd',
  nonUnitQuaternion: 'CL105-non-unit-quaternion',
  // shapes and contacts (scene format)
  nonPositiveSize: 'CL110-non-positive-size',
  zeroNormal: 'CL111-zero-normal',
  negativeFriction: 'CL112-negative-friction',
  restitutionRange: 'CL113-restitution-out-of-range',
  planeOnBody: 'CL114-plane-on-body',
  unknownShapeType: 'CL115-unknown-shape-type',
  contactsUnsupported: 'CL116-contacts-unsupported',
  // constraints
  unknownBody: 'CL201-unknown-body',
  sameBody: 'CL202-same-body',
  bothFixed: 'CL203-both-fixed',
  zeroLength: 'CL204-zero-length',
  zeroAxis: 'CL205-zero-axis',
  duplicateConstraintName: 'CL206-duplicate-constraint-name',
  emptyLock: 'CL207-empty-lock',
  constraintIgnored: 'CL208-constraint-ignored',
  // analysis of the assembled system
  redundantConstraint: 'CL301-redundant-constraint',
  conflictingConstraints: 'CL302-conflicting-constraints',
  illConditioned: 'CL303-ill-conditioned',
  initialViolation: 'CL304-initial-violation',
  overConstrained: 'CL305-over-constrained',
  singularSystem: 'CL306-singular-system',
  unstableStabilization: 'CL307-unstable-stabilization',
  // simulation
  nonFinite: 'CL401-non-finite',
  drift: 'CL402-drift',
  overflow: 'CL403-overflow',
  divergence: 'CL404-divergence',
  // the engine itself
  internalError: 'CL900-internal-error',
} as const;

export type Code = (typeof Codes)[keyof typeof Codes];

/** One line per code: what it means and what to do. Rendered into docs/diagnostics.md. */
export const CodeDescriptions: Record<Code, string> = {
  [Codes.jsonSyntax]: 'The file is not valid JSON (comments and trailing commas are allowed). Fix the syntax at the range shown.',
  [Codes.schemaType]: 'A value has the wrong type (for example a string where a number is expected).',
  [Codes.unknownField]: 'A field the scene format does not know. It is ignored; check its spelling.',
  [Codes.missingField]: 'A required field is missing (a body needs `name` and `mass`; a constraint needs `type`, `bodyA`, `bodyB`).',
  [Codes.invalidValue]: 'A value is out of its allowed range or not one of the allowed choices.',
  [Codes.duplicateKey]: 'The same key appears twice in one object; the last one wins. Remove one.',
  [Codes.duplicateBody]: 'Two bodies share a name. Constraints refer to bodies by name, so names must be unique.',
  [Codes.reservedBodyName]: '`world` is the fixed world frame and cannot be used as a body name.',
  [Codes.nonPositiveMass]: 'Mass must be a finite number greater than zero. Use `fixed: true` for an immovable body.',
  [Codes.inertiaNotSpd]: 'The inertia tensor must be symmetric positive definite (three positive diagonal values, or a symmetric 3×3 with positive eigenvalues).',
  [Codes.nonUnitQuaternion]: 'The orientation quaternion is not of unit length; it is normalised before use.',
  [Codes.nonPositiveSize]: 'A shape size (sphere or capsule `radius`, capsule `halfLength`, a box `halfExtents` component) must be greater than zero.',
  [Codes.zeroNormal]: 'A plane `normal` has zero length, so it defines no half-space.',
  [Codes.negativeFriction]: 'A shape `friction` coefficient μ must be at least zero.',
  [Codes.restitutionRange]: 'A shape `restitution` e must lie between 0 (no bounce) and 1 (elastic).',
  [Codes.planeOnBody]: 'Planes are infinite and can only be world shapes: move the plane to the top-level `"world": { "shapes": [...] }`.',
  [Codes.unknownShapeType]: 'A shape `type` that is not `sphere`, `box`, `capsule` (or `plane`, in the world).',
  [Codes.contactsUnsupported]: 'The acceleration formulation does not solve contacts: the shapes are ignored. Use the `velocity` or `nonlinear` formulation.',
  [Codes.unknownBody]: 'A constraint names a body that does not exist. Use a body name from `bodies` or `world`.',
  [Codes.sameBody]: 'A constraint connects a body to itself; it constrains nothing.',
  [Codes.bothFixed]: 'Both ends of the constraint are fixed (the world or `fixed: true` bodies); its rows are empty.',
  [Codes.zeroLength]: 'A distance constraint of zero length has a zero Jacobian (d = 0). Use a ball joint instead.',
  [Codes.zeroAxis]: 'A joint axis has zero length.',
  [Codes.duplicateConstraintName]: 'Two constraints share a name; diagnostics and charts would be ambiguous.',
  [Codes.emptyLock]: 'A lock constraint with no axis locked has no rows.',
  [Codes.constraintIgnored]: 'The constraint is left out of the analysis because a body it connects has errors of its own (reported on the body). Fix the body; the constraint comes back.',
  [Codes.redundantConstraint]: 'The constraint rows are linear combinations of earlier rows: A = J·M⁻¹·Jᵀ is singular and λ is not unique. Remove the redundant constraint.',
  [Codes.conflictingConstraints]: 'Redundant constraints ask for incompatible accelerations: no λ satisfies J·a = rhs; the least-squares λ is used.',
  [Codes.illConditioned]: 'κ(A) is above the warning threshold: λ is sensitive to round-off. Check mass ratios and near-parallel constraints.',
  [Codes.initialViolation]: 'The constraint is violated in the initial state (|C| above the tolerance); stabilisation will pull the bodies together at the first steps.',
  [Codes.overConstrained]: 'There are more constraint rows than degrees of freedom, so some rows must be redundant. Remove the constraints CL301/CL302 name, or use types with fewer rows (e.g. a ball joint instead of a fixed joint).',
  [Codes.singularSystem]: 'A = J·M⁻¹·Jᵀ is numerically singular: a constraint has a zero Jacobian row in this configuration and cannot apply any force. Change its geometry (anchors that do not coincide, a non-zero length or axis) or remove it.',
  [Codes.unstableStabilization]: 'The stabilisation gains are too stiff for dt: the constraint error (C, h·Ċ) grows by the spectral radius ρ > 1 of its 2×2 recurrence every step (docs/divergence.md). The message gives the stable range of α and β (or erp) for this dt; the quick fix sets stable gains.',
  [Codes.nonFinite]: 'A NaN or infinity appeared: the message names the first step (0 = the initial state, found by inspect) and the first quantity, with its body or constraint. The run stops there; CL404 explains why it diverged. At step 0 fix the named value; during a run reduce dt or bring the gains into their stable range.',
  [Codes.drift]: 'The constraint violation grew during the run beyond the tolerance. Increase alpha/beta (or erp), or reduce dt.',
  [Codes.overflow]: 'A value beyond ±1e150 appeared: finite but meaningless (its square, an energy or a norm, overflows). Reported and stopped like CL401, at the first step and quantity; at step 0 fix the named value.',
  [Codes.divergence]: 'The run diverged (a value went non-finite or beyond ±1e150, the energy grew without a source, or |C| grew a hundredfold): the step where growth began, the constraints and bodies that grew first and fastest, and the most likely cause with numbers (gains too stiff for dt, no position correction, a conflicting set, an initial violation, a mass or inertia ratio, or a time step too large for the motion). See docs/divergence.md.',
  [Codes.internalError]: 'The engine failed on this input. This is a bug in Constraint Lens: please report it with the scene file.',
};
