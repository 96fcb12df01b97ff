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
  // constraints
  unknownBody: 'CL201-unknown-body',
  sameBody: 'CL202-same-body',
  bothFixed: 'CL203-both-fixed',
  zeroLength: 'CL204-zero-length',
  zeroAxis: 'CL205-zero-axis',
  duplicateConstraintName: 'CL206-duplicate-constraint-name',
  emptyLock: 'CL207-empty-lock',
  couplerJoint: 'CL208-coupler-joint',
  // analysis of the assembled system
  redundantConstraint: 'CL301-redundant-constraint',
  conflictingConstraints: 'CL302-conflicting-constraints',
  illConditioned: 'CL303-ill-conditioned',
  initialViolation: 'CL304-initial-violation',
  overConstrained: 'CL305-over-constrained',
  singularSystem: 'CL306-singular-system',
  // simulation
  nonFinite: 'CL401-non-finite',
  drift: 'CL402-drift',
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
  [Codes.unknownBody]: 'A constraint names a body that does not exist. Use a body name from `bodies` or `world`.',
  [Codes.sameBody]: 'A constraint connects a body to itself; it constrains nothing.',
  [Codes.bothFixed]: 'Both ends of the constraint are fixed (the world or `fixed: true` bodies); its rows are empty.',
  [Codes.zeroLength]: 'A distance constraint of zero length has a zero Jacobian (d = 0). Use a ball joint instead.',
  [Codes.zeroAxis]: 'A joint axis has zero length.',
  [Codes.duplicateConstraintName]: 'Two constraints share a name; diagnostics and charts would be ambiguous.',
  [Codes.emptyLock]: 'A lock constraint with no axis locked has no rows.',
  [Codes.couplerJoint]: 'A coupler names a constraint that is not a valid hinge or slider (or the same joint twice). Name the hinge or slider constraints whose coordinates it couples.',
  [Codes.redundantConstraint]: 'The constraint rows are linear combinations of earlier rows: A = J·M⁻¹·Jᵀ is singular and λ is not unique. Remove the redundant constraint.',
  [Codes.conflictingConstraints]: 'Redundant constraints ask for incompatible accelerations: no λ satisfies J·a = rhs; the least-squares λ is used.',
  [Codes.illConditioned]: 'κ(A) is above the warning threshold: λ is sensitive to round-off. Check mass ratios and near-parallel constraints.',
  [Codes.initialViolation]: 'The constraint is violated in the initial state (|C| above the tolerance); stabilisation will pull the bodies together at the first steps.',
  [Codes.overConstrained]: 'There are more constraint rows than degrees of freedom, so some rows must be redundant.',
  [Codes.singularSystem]: 'A = J·M⁻¹·Jᵀ is numerically singular.',
  [Codes.nonFinite]: 'A NaN or infinity appeared during the run; the message names the step and the first quantity that went bad.',
  [Codes.drift]: 'The constraint violation grew during the run beyond the tolerance. Increase alpha/beta (or erp), or reduce dt.',
  [Codes.internalError]: 'The engine failed on this input. This is a bug in Constraint Lens: please report it with the scene file.',
};
