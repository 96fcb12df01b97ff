// The validated scene (format v1), with every default filled in, and where each
// value came from in the source text. Produced by `parseScene` (parse.ts).
import type { ContactSettings, ExcludeSpec, FbSettings, NewtonSettings, PairSpec, PgsSettings, ShapeSpec } from '../collision/types';
import type { Diagnostic, Mat3, Quat, Range, Vec3 } from '../types';

export type Stabilization = 'aerislab' | 'baumgarte' | 'none';
export type Formulation = 'acceleration' | 'velocity' | 'nonlinear';
export type SolveMethodSetting = 'auto' | 'cholesky' | 'lu' | 'lstsq';
export type ConstraintType = 'distance' | 'ball' | 'hinge' | 'fixed' | 'slider' | 'lock' | 'universal' | 'coupler';

export const CONSTRAINT_TYPES: readonly ConstraintType[] = ['distance', 'ball', 'hinge', 'fixed', 'slider', 'lock', 'universal', 'coupler'];

/**
 * One joint coordinate of a coupler: the motion of `body` relative to `parent` ("world" allowed)
 * allowed by a hinge or slider constraint — for 'hinge' the rotation angle (rad) about `axis`, for
 * 'slider' the displacement (m) of the centre of mass along `axis` — measured from the initial state,
 * where it equals `initial`.
 */
export interface CoupledJoint {
  /** Name of the hinge or slider constraint this coordinate belongs to. */
  joint: string;
  kind: 'hinge' | 'slider';
  /** The joint's bodyB (the moving side) and bodyA (the reference side). */
  body: string;
  parent: string;
  /** Unit axis in the parent's frame (the joint's axisA). */
  axis: Vec3;
  /** The coordinate's value in the initial state. */
  initial: number;
}

/** coupler: q₁ = c₀ + c₁·q₂ + c₂·q₂² + … (with one joint: q₁ = c₀). */
export interface CouplingSpec {
  joints: [CoupledJoint] | [CoupledJoint, CoupledJoint];
  /** Polynomial coefficients c₀, c₁, … (at least one). */
  coefficients: number[];
}

export interface SolverSettings {
  dt: number; // default 0.01
  steps: number; // default 100
  alpha: number; // default 0
  beta: number; // default 0
  stabilization: Stabilization; // default 'aerislab'
  formulation: Formulation; // default 'acceleration'
  erp: number; // default 0.2 (velocity formulation)
  compliance: number; // default 0 (Σ = compliance·I added to A)
  method: SolveMethodSetting; // default 'auto'
  /** κ(A) above which CL303 is reported. Default 1e6. */
  conditionWarning: number;
  /** |C| above which CL304 (initial violation) is reported and a constraint is shown as violated. Default 1e-6. */
  violationTolerance: number;
  /** During a run, ‖C‖ above max(driftTolerance, 10·‖C₀‖) is reported as drift (CL402). Default 1e-3. */
  driftTolerance: number;
  /** Contact detection (contacts.ts in scene/). `enabled` defaults to "any shape exists", `level` to 'position' for the nonlinear formulation. */
  contacts: ContactSettings;
  /** Nonlinear formulation: Newton's method on h(x⁺) = 0. */
  newton: NewtonSettings;
  /** Nonlinear formulation: regularisation added to the Newton matrix (default 1e-6, as Axion). */
  regularization: number;
  /** Nonlinear formulation: the scaled Fischer–Burmeister function. */
  fb: FbSettings;
  /** Velocity formulation with contacts: projected Gauss–Seidel. */
  pgs: PgsSettings;
}

export interface BodySpec {
  /** Index in the file's `bodies` array. */
  index: number;
  name: string;
  mass: number;
  /** Body-frame inertia, row-major 3×3 (a diagonal given as 3 numbers is expanded). */
  inertia: Mat3;
  position: Vec3;
  /** Unit quaternion [x,y,z,w] (normalised by the parser if it was not). */
  orientation: Quat;
  velocity: Vec3;
  angularVelocity: Vec3;
  force: Vec3;
  torque: Vec3;
  gravity: boolean;
  fixed: boolean;
  /** Collision shapes, in the body's frame (never planes). */
  shapes: ShapeSpec[];
}

export interface ConstraintSpec {
  /** Index in the file's `constraints` array. */
  index: number;
  /** Given name, or `<type><index>` (e.g. `distance0`). */
  name: string;
  type: ConstraintType;
  /** Body names; `"world"` is the fixed world frame. */
  bodyA: string;
  bodyB: string;
  anchorA: Vec3;
  anchorB: Vec3;
  /** distance: the rest length (default: the initial distance between the anchors). */
  length?: number;
  /** hinge: axisA (in A's frame), axisB (in B's frame); slider: axisA. Unit length after parsing. */
  axisA?: Vec3;
  axisB?: Vec3;
  /** lock: which world axes are locked. */
  linear?: [boolean, boolean, boolean];
  angular?: [boolean, boolean, boolean];
  /** fixed: the rest orientation of B relative to A, q_A⁻¹ ⊗ q_B (default: taken from the initial poses). */
  relativeOrientation?: Quat;
  /** coupler: the coupled joint coordinates and the polynomial (bodyA/bodyB are the first joint's body/parent). */
  coupling?: CouplingSpec;
}

export interface WorldSpec {
  shapes: ShapeSpec[];
  exclude?: ExcludeSpec[];
  pairs?: PairSpec[];
}

export interface SceneSpec {
  name: string;
  gravity: Vec3; // default [0,0,-9.81]
  solver: SolverSettings;
  bodies: BodySpec[];
  /** Only constraints valid enough to model (unknown bodies etc. are dropped, with a diagnostic). */
  constraints: ConstraintSpec[];
  /** Shapes fixed in the world frame (planes allowed), body pairs that never touch, explicit shape pairs. */
  world: WorldSpec;
}

/** A JSON path into the scene document, e.g. `['constraints', 2, 'bodyA']`. */
export type JsonPath = (string | number)[];

/** Where things are in the source text. */
export interface SourceMap {
  /** Range of the value at `path`; falls back to the nearest existing ancestor, then to the first character. */
  rangeOf(path: JsonPath): Range;
  /** Range of the property key at `path` (for unknown fields), falling back to `rangeOf`. */
  keyRangeOf(path: JsonPath): Range;
  /** Convert an offset in the text to a position. */
  positionAt(offset: number): { line: number; character: number };
  /** Offset and length of the value node at `path`, if it exists. */
  nodeSpan(path: JsonPath): { offset: number; length: number } | undefined;
  /** The text the map was made from (quick fixes computed after parsing edit it). */
  readonly text?: string;
}

export interface ParseResult {
  /** The scene, possibly with invalid items dropped. Undefined only if nothing usable could be read (e.g. not an object). */
  scene: SceneSpec | undefined;
  /** Parse and validation diagnostics (errors and warnings), in source order. */
  diagnostics: Diagnostic[];
  sourceMap: SourceMap;
  /** True when any diagnostic is an error. */
  hasErrors: boolean;
}
