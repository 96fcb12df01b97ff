// The validated scene (format v1), with every default filled in, and where each
// value came from in the source text. Produced by `parseScene` (parse.ts).
import type { ContactSettings, ExcludeSpec, FbSettings, NewtonSettings, PairSpec, PgsSettings, ShapeSpec } from './contactSpec';
import type { Diagnostic, Mat3, Quat, Range, Vec3 } from '../types';

export type Stabilization = 'aerislab' | 'aerislab-oscillator' | 'baumgarte' | 'none';
/** Velocity formulation: semi-implicit Euler, or Solfec's midpoint step (stepping/midpoint.ts). */
export type TimeIntegrator = 'euler' | 'midpoint';
export type Formulation = 'acceleration' | 'velocity' | 'nonlinear';
/** The generalised coordinates of a body: 6 velocity columns (v, ω), or msd-sim's 7 position columns (X, Q). */
export type Coordinates = 'twist' | 'quaternion';
export type SolveMethodSetting = 'auto' | 'cholesky' | 'lu' | 'lstsq';
export type ConstraintType = 'distance' | 'ball' | 'hinge' | 'fixed' | 'slider' | 'lock' | 'universal' | 'coupler' | 'chain';

export const CONSTRAINT_TYPES: readonly ConstraintType[] = ['distance', 'ball', 'hinge', 'fixed', 'slider', 'lock', 'universal', 'coupler', 'chain'];

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

/** The limit and friction-loss fields of a joint inside a constraint (a group's hinge, a chain's joint), as a hinge constraint's. */
export interface JointRowFields {
  limits?: [number, number];
  limitMargin?: number;
  limitSolref?: [number, number];
  limitSolimp?: [number, number, number, number, number];
  limitInvWeight?: number;
  frictionLoss?: number;
}

/** One joint of a `chain` constraint: its axis (unit) and anchor in bodyA's frame at the initial state. */
export interface ChainJointSpec extends JointRowFields {
  type: 'hinge' | 'slider';
  axis: Vec3;
  anchor: Vec3;
  /** Given name (for labels), if any. */
  name?: string;
  /**
   * With a drive, the joint has a coordinate of its own (model/chainCoordinate.ts): its value in the
   * initial state is `drive.coordinate`, and its limits, friction loss, drive and actuators (which name
   * it by `name`, unique among the constraints') act on it as on a lone hinge or slider.
   */
  drive?: JointDriveSpec;
}

export interface SolverSettings {
  dt: number; // default 0.01
  steps: number; // default 100
  alpha: number; // default 0
  beta: number; // default 0
  stabilization: Stabilization; // default 'aerislab'
  formulation: Formulation; // default 'acceleration'
  integrator: TimeIntegrator; // default 'euler' (velocity formulation: 'midpoint' is Solfec's step)
  /** 'quaternion': msd-sim's Lagrange framework in q = [X, Q] per body (src/engine/msd/). Default 'twist'. */
  coordinates: Coordinates;
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
  /** Fraction of the body's weight cancelled by an applied force at its centre of mass (MuJoCo's `gravcomp`; absent: 0). */
  gravityCompensation?: number;
  /**
   * Sleeping islands (`solver.contacts.sleep`): 'never' keeps the body's tree awake; 'allowed' lets it
   * sleep even with an actuator (MuJoCo's `body/sleep`). Absent: the rule of contact/sleep.ts.
   */
  sleep?: 'never' | 'allowed';
  /**
   * The translational inverse weight of the body as a contact sees it (1/kg; MuJoCo's
   * body_invweight0, the articulated body's, not 1/mass): the scale of a soft contact's
   * regularisation (`solver.contacts.soft`). Absent: 1/mass (exact for a free body).
   */
  contactInvWeight?: number;
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
  /**
   * hinge, slider: bounds [lower, upper] of the joint coordinate — bodyB's rotation (rad) or
   * displacement (m) relative to bodyA about/along axisA, 0 in the initial state (as a coupler's
   * joint coordinate) — each a unilateral row of the contact solvers.
   */
  limits?: [number, number];
  /** hinge, slider with `limits`: a bound's row acts once the coordinate is within this distance of it (≥ 0). */
  limitMargin?: number;
  /**
   * hinge, slider with `limits`: the bounds are MuJoCo's soft constraints (velocity formulation), with
   * its `solref` [timeconst, dampratio] and `solimp` [dmin, dmax, width, mid, power] (either given makes
   * them soft; the other takes MuJoCo's default) and the regulariser's scale `limitInvWeight` (MuJoCo's
   * dof_invweight0; absent: the row's own J·M⁻¹·Jᵀ at the step). Absent: hard bounds recovered by erp.
   */
  limitSolref?: [number, number];
  limitSolimp?: [number, number, number, number, number];
  limitInvWeight?: number;
  /** hinge, slider: dry friction of the joint, a row on q̇ bounded by ±frictionLoss (N·m or N; 0: none). */
  frictionLoss?: number;
  /** chain: the hinges and slides from bodyA to bodyB, in the order they act. */
  chain?: ChainJointSpec[];
  /** hinge/slider: the smooth forces along the joint coordinate (model/forces.ts); absent when the joint has none. */
  drive?: JointDriveSpec;
  /**
   * universal (two) or ball (three): the hinges through the joint's point that it stands for, in the
   * order they turn bodyB (MuJoCo's joints of one body), each with its own angle's limits, friction loss
   * and drive; actuators name them like hinge constraints (scene/hingeGroups.ts, model/hingeGroup.ts).
   */
  hinges?: GroupHingeSpec[];
  /** Set by the engine on the hinge it makes of each of `hinges` (scene/hingeGroups.ts), never read from a file. */
  group?: { axes: Vec3[]; index: number; angles0: number[] };
  /** Set by the engine on the hinge or slider it makes of each driven joint of a `chain` (scene/hingeGroups.ts), never read from a file. */
  chainMember?: { joints: ChainJointSpec[]; index: number };
}

/** One hinge of a universal or ball constraint's `hinges`. */
export interface GroupHingeSpec extends JointRowFields {
  /** Its name, unique among the constraints' (actuators' `joint` refers to it). */
  name: string;
  /** Unit axis in bodyB's frame, with every hinge of the group at its zero. */
  axis: Vec3;
  /** The angle at which the hinge's rotation is zero (MuJoCo's qpos0, the joint's `ref`; default 0). */
  zero?: number;
  /** Its angle in the initial state is `drive.coordinate`, on the scale of its limits, springRef and actuators. */
  drive: JointDriveSpec;
}

/**
 * The passive forces of a hinge or slider along its coordinate q (rad or m; the hinge's twist about
 * axisA, the slider's displacement of B's centre of mass along axisA), as MuJoCo's joint attributes:
 *   τ = −stiffness·(q − springRef) − damping·q̇, and `armature` (kg·m²) as rotor inertia about the axis.
 */
export interface JointDriveSpec {
  /** q in the initial state (default 0): springRef and the actuators' lengths are measured on this scale. */
  coordinate: number;
  damping: number;
  stiffness: number;
  springRef: number;
  armature: number;
}

/**
 * An actuator on a hinge or slider (MuJoCo's joint transmission with affine gain and bias):
 *   l = gear·q, l̇ = gear·q̇, force = gain₀·u + gain₁·l·u + gain₂·l̇·u + bias₀ + bias₁·l + bias₂·l̇,
 *   with u = ctrl clamped to ctrlRange and force clamped to forceRange; the joint gets τ = gear·force.
 */
export interface ActuatorSpec {
  /** Index in the file's `actuators` array. */
  index: number;
  name: string;
  /** Name of the hinge or slider constraint it drives (empty when it pulls a tendon). */
  joint: string;
  /** Name of the tendon it pulls instead of a joint (`tendons`; imported models only): l = gear·L. */
  tendon?: string;
  gear: number;
  gain: [number, number, number];
  bias: [number, number, number];
  ctrlRange?: [number, number];
  forceRange?: [number, number];
  ctrl: number;
  /** MuJoCo's activation dynamics (model/activation.ts): the force takes the activation in place of the control. */
  activation?: ActivationSpec;
}

/** An actuator's activation state, as MuJoCo's `dyntype` integrator, filter or filterexact. */
export interface ActivationSpec {
  type: 'integrator' | 'filter' | 'filterexact';
  /** τ (s) of a filter (MuJoCo's dynprm[0]). */
  timeConstant: number;
  /** The activation at the initial state (a keyframe's `act`, else 0). */
  act0: number;
  /** The activation is clamped to this range after each step (MuJoCo's actlimited, actrange). */
  range?: [number, number];
  /** The force takes the activation after this step's update instead of before it (MuJoCo's actearly),
   *  so a filter's force leads by one step. */
  early?: boolean;
}

/**
 * A tendon: a length L over the bodies' poses (model/tendon.ts), with MuJoCo's limits, spring, damping,
 * friction loss and equality on it.
 *   fixed (`joints`):   L = Σ coef·q over hinge and slider constraints' coordinates (their `coordinate` scale)
 *   spatial (`path`):   L = Σ |x_{k+1} − x_k| over points fixed in bodies (MuJoCo's sites; no wrapping)
 */
export interface TendonSpec {
  index: number;
  name: string;
  joints?: { joint: string; coef: number }[];
  /** Points in body frames (`world` for fixed points), in order along the tendon. */
  path?: { body: string; point: Vec3 }[];
  /** [lower, upper] on L (m, or the joints' units), a unilateral row per bound; `limitMargin` as a joint's. */
  limits?: [number, number];
  limitMargin?: number;
  /** Spring −stiffness·(L − springLength) outside the dead band [springLength[0], springLength[1]] (default: L in the initial state). */
  stiffness?: number;
  springLength?: [number, number];
  /** −damping·L̇ (implicit in the velocity formulation, a compliant row; explicit elsewhere). */
  damping?: number;
  /** A box-bounded row on L̇ with this budget (N or N·m). */
  frictionLoss?: number;
  /**
   * MuJoCo's `<equality tendon>`: L − length0 = Σ_k polycoef[k]·(L₂ − otherLength0)^k with L₂ the
   * tendon `other` (absent: the polynomial's constant only), a bilateral row on the lengths; length0
   * and otherLength0 default to the lengths in the initial state.
   */
  equality?: { name: string; length0?: number; polycoef: number[]; other?: string; otherLength0?: number };
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
  /** Actuators on hinge and slider constraints (absent or empty: none). */
  actuators?: ActuatorSpec[];
  /** Tendons (MuJoCo's fixed and site-only spatial tendons; imported models only: model/tendon.ts). */
  tendons?: TendonSpec[];
  /** The medium bodies move through (MuJoCo's density, viscosity and wind: model/fluid.ts); absent: none. */
  fluid?: FluidSpec;
  /** The integrator the source model asked for (an imported model's MuJoCo `<option integrator>`), shown beside the one that runs. */
  requestedIntegrator?: string;
}

/**
 * A fluid medium (MuJoCo's `<option density viscosity wind>`): every moving body feels the drag of
 * model/fluid.ts, by the inertia-box model unless one of its shapes has `fluidEllipsoid`.
 */
export interface FluidSpec {
  /** kg/m³ (≥ 0): quadratic drag, lift and added mass. */
  density: number;
  /** Pa·s (≥ 0): linear (Stokes) drag. */
  viscosity: number;
  /** The medium's velocity (m/s, world frame). */
  wind: Vec3;
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
  /**
   * Optional: complete a diagnostic of the analysis or a run whose subject (its data's
   * constraintIndex / bodyIndex) was defined elsewhere than this text — an imported model's
   * included file: the importer adds the file and line to the message and the file's range to data.
   */
  decorate?(d: Diagnostic): void;
}

/** One category of what an imported model describes and the engine does not simulate (its CL606 note). */
export interface NotSimulatedCategory {
  /** E.g. "actuators", "joint limits", "contacts". */
  category: string;
  /** The elements concerned (names in backquotes) or a count. */
  items: string[];
}

export interface ParseResult {
  /** The scene, possibly with invalid items dropped. Undefined only if nothing usable could be read (e.g. not an object). */
  scene: SceneSpec | undefined;
  /**
   * Imported models: what the model file describes that is not simulated, by category (the CL606
   * note as data, for the CodeLens and the panel header); absent for scene files.
   */
  notSimulated?: NotSimulatedCategory[];
  /** Parse and validation diagnostics (errors and warnings), in source order. */
  diagnostics: Diagnostic[];
  sourceMap: SourceMap;
  /** True when any diagnostic is an error. */
  hasErrors: boolean;
}
