// What the engine produces: the analysed system of one step, and a run's history.
// Plain data (typed arrays and numbers): it is posted to the webview and embedded in reports.
import type { CsrMatrix, DependentRow, SolveMethod } from './linalg/contracts';
import type { Diagnostic, Quat, Vec3 } from './types';
import type { Formulation, Stabilization } from './scene/spec';
import type { ContactState } from './collision/contacts';
import type { IntegratorInfo } from './model/integrator';
import type { DriveReport } from './model/forces';

export type { DriveReport };


export type { CsrMatrix, DependentRow, SolveMethod };

/**
 * The method that produced a step: a linear solve of the KKT system, or a contact solver; a MuJoCo
 * step names the solver its model asks for ('cg': MuJoCo's conjugate gradient).
 */
export type StepMethod = SolveMethod | 'none' | 'pgs' | 'newton' | 'cg';

/**
 * One contact of a step (contacts detected at the state before the step, forces of the step):
 * who touches whom, where, and what the contact solver found. Forces are impulses / h.
 */
export interface ContactReport {
  /** Body names; `world` for world shapes. */
  bodyA: string;
  bodyB: string;
  /** Shape names (given, or `<type><index>`). */
  shapeA: string;
  shapeB: string;
  /** World contact point (midway between the surfaces), unit normal from B to A, tangents (t1, t2, n right-handed). */
  point: Vec3;
  normal: Vec3;
  t1: Vec3;
  t2: Vec3;
  /** Signed gap at detection (m; negative: penetration). */
  gap: number;
  normalForce: number;
  /** Friction force along t1, t2. */
  frictionForce: [number, number];
  state: ContactState;
  /**
   * ‖f_t‖ / (μ·f_n): ≤ 1 inside the Coulomb cone. Always finite: 0 when f_t = 0, and
   * CONE_RATIO_MAX (1e6) when f_t ≠ 0 without any friction budget (μ·f_n = 0) or above it.
   */
  coneRatio: number;
}

/** Residual norms of the blocks of Axion's nonlinear system. */
export interface NewtonBlocks {
  dyn: number;
  kin: number;
  b: number;
  n: number;
  f: number;
}

/** Newton's method on one step (nonlinear formulation), as kept in the history. */
export interface NewtonStepReport {
  iterations: number;
  converged: boolean;
  /** ‖h‖₂ at every iterate x₀ … x_final (iterations + 1 numbers). */
  residuals: number[];
  /** Block norms at the final iterate. */
  blocks: NewtonBlocks;
  /** Line-search step length α of each iteration. */
  stepLengths: number[];
  /** The linear solver: the least robust one any iteration needed ('none' without iterations). */
  method: 'schur-cr' | 'sparse-lu' | 'dense-lu' | 'dense-lstsq' | 'failed' | 'none';
  /** κ₁ estimate of the last Newton matrix; null when singular. */
  cond: number | null;
}

/** Newton on the analysed step: the history's fields plus the per-iteration blocks and the Newton matrix. */
export interface NewtonSnapshot extends NewtonStepReport {
  /** Block norms at every iterate (iterations + 1 entries). */
  blockResiduals: NewtonBlocks[];
  /** The Newton matrix ∂h/∂x (+ the regularisation on the λ diagonal) of the last iteration. */
  matrix: CsrMatrix;
  /** Row blocks (dyn, kin, b, n, f) and column blocks (q, u, λb, λn, λf): name, first index, size. */
  rowBlocks: { name: string; start: number; size: number }[];
  colBlocks: { name: string; start: number; size: number }[];
  rowLabels: string[];
  colLabels: string[];
  /** The largest |h_i| at the final iterate: its block, the row label and what owns it. */
  worst: { block: string; label: string; value: number; owner: string };
}

/** Projected Gauss–Seidel on one step (velocity formulation with contacts). */
export interface PgsStepReport {
  /** Largest sweep count over the islands. */
  iterations: number;
  /** ‖r‖₂ of the rows' natural-map residuals at their last visit (m/s). */
  residual: number;
  converged: boolean;
  /** In a snapshot: the acceleration the sweeps actually took (`solver.pgs.acceleration`): NNCG's conjugate steps, Nesterov's momentum, or none. */
  acceleration?: 'nncg' | 'nesterov' | 'none';
}

/** The contact part of a step record or snapshot (velocity formulation with contacts, nonlinear formulation). */
export interface ContactStepFields {
  /** The step's contacts (a record keeps at most `maxRecordContacts` of them; see `contactCount`). */
  contacts?: ContactReport[];
  /** How many contacts the step had (also when `contacts` was left out of a record). */
  contactCount?: number;
  /** max over contacts of |min(gap or velocity target, normal impulse)| (m or m/s; 0 without contacts). */
  complementarity?: number;
  /** Largest penetration max(0, −gap) after the step (m). */
  maxPenetration?: number;
  pgs?: PgsStepReport;
  /** Joint limits and friction loss solved in the step (velocity formulation): the rows it included, with their forces. */
  jointRows?: JointRowReport[];
  /** With sleeping islands (`solver.contacts.sleep`): the bodies asleep at the end of the step. */
  asleep?: number;
  /** A snapshot with sleeping islands: the names of the bodies asleep (records keep only their count). */
  sleeping?: string[];
}

/** One joint-limit or friction-loss row of a step (contact/jointRows.ts). */
export interface JointRowReport {
  /** `knee.limit` or `knee.frictionloss`. */
  name: string;
  /** The hinge or slider constraint, or the tendon (`tendon`). */
  constraint: string;
  /** The row is on a tendon's length (`constraint` names the tendon; q is its length). */
  tendon?: boolean;
  kind: 'limit' | 'frictionloss';
  side?: 'lower' | 'upper';
  /** The joint coordinate at the start of the step (rad or m, 0 in the initial state). */
  q: number;
  /** limit: the bound (rad or m); friction loss: the friction budget (N·m or N). */
  bound: number;
  /** limit: distance to the bound minus the margin at the start of the step (negative: passed). */
  gap?: number;
  /** The row's force (N·m or N): a limit's ≥ 0, pushing away from its bound; friction loss's within ±bound. */
  force: number;
  /** The row's velocity after the step: q̇ away from the bound (limit), q̇ (friction loss). */
  velocity: number;
  /** limit: 'open' (no force) or 'active'; friction loss: 'stick' (|force| below the budget) or 'slip'. */
  state: 'open' | 'active' | 'stick' | 'slip';
}

/** One row of J: which constraint it belongs to and its row within that constraint. */
export interface RowInfo {
  constraint: string;
  /**
   * Index of the constraint among the modelled ones, i.e. in `SystemSnapshot.constraints` (not its
   * index in the file's `constraints` array: that is `ConstraintReport.fileIndex`, and
   * `constraintIndex` in diagnostics' data).
   */
  modelIndex: number;
  /** Row within the constraint (0-based). */
  row: number;
  /** Label, e.g. `rod.d`, `hinge1.x`, `hinge1.⊥1`. */
  label: string;
}

export interface RedundantRow {
  constraint: string;
  row: number;
  dependsOn: { constraint: string; row: number; coefficient: number }[];
}

export interface ConstraintReport {
  name: string;
  type: string;
  /** Index in the file's constraints array (for source ranges). */
  fileIndex: number;
  bodyA: string;
  bodyB: string;
  /** First row of this constraint in J. */
  firstRow: number;
  rows: number;
  /** ‖C‖₂ and ‖Ċ‖₂ over the constraint's rows. */
  violation: number;
  velocityViolation: number;
  lambda: number[];
  /** Force and torque (world frame, about the body's centre of mass) applied to each end: J_Xᵀλ. */
  forceA: Vec3;
  torqueA: Vec3;
  forceB: Vec3;
  torqueB: Vec3;
  /** 'ok' | 'redundant' | 'violated' | 'conflicting' */
  status: 'ok' | 'redundant' | 'violated' | 'conflicting';
  /** World positions of the two anchor points (for drawing). */
  anchorAWorld: Vec3;
  anchorBWorld: Vec3;
}

export interface BodyReport {
  name: string;
  /** Index of the first column in J (6 per body), or -1 for fixed bodies. */
  column: number;
  fixed: boolean;
  mass: number;
  position: Vec3;
  orientation: Quat;
  velocity: Vec3;
  angularVelocity: Vec3;
  /** |q| − 1 before normalisation of the last step (0 at step 0). */
  quatDrift: number;
}

export interface IslandReport {
  bodies: string[];
  constraints: string[];
  rows: number;
  cond: number | null; // null = infinite
  condEstimated: boolean;
  rank: number;
  method: SolveMethod | 'none';
}

export interface Energy {
  kinetic: number;
  potential: number;
  total: number;
}

/** The analysed system at one step (the CLI's `inspect --json`, the panel's matrices). */
export interface SystemSnapshot extends ContactStepFields {
  step: number;
  t: number;
  formulation: Formulation;
  /** The integrator that runs and the one the source model asked for (model/integrator.ts); absent in snapshots made before it existed. */
  integrator?: IntegratorInfo;
  /** Driven hinges and sliders at this state (model/forces.ts): coordinate, rate and generalised force; actuators' clamped control and force. Absent without any. */
  drives?: DriveReport;
  stabilization: Stabilization;
  /** Names of the bodies owning columns, in column order (6 columns each). */
  bodies: string[];
  /** Column labels of J, e.g. `Body_A.vx` … `Body_A.ωz`. */
  columnLabels: string[];
  rows: RowInfo[];
  /** M⁻¹ as per-body 6×6 blocks (row-major, 36 numbers each, in column order); empty when `Minv` holds it. */
  MinvBlocks: Float64Array;
  /**
   * Who produced the system (system/contract.ts): absent for the engine's own steps; MuJoCo or a trace
   * file otherwise, whose M⁻¹ is a general matrix (`Minv`, and `M` when the producer gave M).
   */
  producer?: { kind: 'engine' | 'mujoco' | 'trace'; name: string; method?: string };
  Minv?: CsrMatrix;
  M?: CsrMatrix;
  /** The producer's per-row regularisation R (it solved (A + R)·λ = b), and κ(A + R). */
  Rdiag?: Float64Array;
  condAR?: number | null;
  J: CsrMatrix;
  /**
   * A = J·M⁻¹·Jᵀ exactly (never with Σ: that is `compliance`, beside it), symmetric, full storage.
   * Absent when a tall island's block would be too large to form (`omitted.A` says why).
   */
  A?: CsrMatrix;
  /** Σ = compliance·I (`solver.compliance`): the matrix solved is A + Σ (velocity: W + Σ). Shown beside A and W, not folded in. */
  compliance: number;
  /** Matrices not formed, with the reason (A and W of tall islands: src/engine/assembly/tallOmissions.ts). */
  omitted?: { A?: string };
  F: Float64Array;
  v: Float64Array;
  rhs: Float64Array;
  a0: Float64Array;
  b: Float64Array;
  lambda: Float64Array;
  /** Accelerations (acceleration formulation) — for the velocity formulation, (u⁺ − u)/h. */
  a: Float64Array;
  C: Float64Array;
  Cdot: Float64Array;
  /** Jᵀλ (generalised constraint force). */
  constraintForce: Float64Array;
  /** Velocity formulation only: W = h·J·M⁻¹·Jᵀ (the Delassus operator, Solfec; Σ is `compliance`, not in W; absent with A), the free velocity B, the reactions R. */
  W?: CsrMatrix;
  B?: Float64Array;
  R?: Float64Array;
  method: StepMethod;
  cond: { A: number | null; scaled: number | null };
  condEstimated: boolean;
  /** Present when A was small enough for its exact spectrum but the eigenvalue iteration reached its cap: κ is then the factorisation's estimate (CL308). */
  spectrumCapped?: true;
  /** Singular values of A, descending (when computed exactly), and the rank tolerance. */
  singularValues?: Float64Array;
  rankTolerance: number;
  rank: { J: number; rows: number; dofs: number };
  redundant: RedundantRow[];
  /** null when A is nonsingular; otherwise whether the redundancy is consistent. */
  consistent: boolean | null;
  /** ‖J·a − rhs‖₂ (acceleration) or ‖U − target‖ (velocity). */
  residual: number;
  constraints: ConstraintReport[];
  bodyStates: BodyReport[];
  energy: Energy;
  islands: IslandReport[];
  diagnostics: Diagnostic[];
  /** Nonlinear formulation: Newton's method on the step from this state. */
  newton?: NewtonSnapshot;
}

/** One step of a run, as kept in the history (cheap: no matrices). */
export interface StepRecord extends ContactStepFields {
  step: number;
  t: number;
  /** Per constraint ‖C‖₂ (same order as snapshot.constraints). */
  C: number[];
  /** Per row λ. */
  lambda: number[];
  cond: { A: number | null };
  condEstimated: boolean;
  /** Numerical rank of A at this step (as SystemSnapshot.rank.J at step 0); absent in records made before it was kept. */
  rank?: number;
  energy: Energy;
  /** max over bodies of ||q|−1| before normalisation. */
  quatDrift: number;
  method: StepMethod;
  /** Nonlinear formulation: Newton's method on this step. */
  newton?: NewtonStepReport;
  /** Body positions and orientations after the step, flattened [p(3), q(4)] per body in scene order (fixed bodies too). */
  poses: number[];
}

export interface SimulationResult {
  steps: StepRecord[];
  final: {
    bodies: { name: string; position: Vec3; orientation: Quat; velocity: Vec3; angularVelocity: Vec3 }[];
  };
  /** Run diagnostics (non-finite values, drift). */
  diagnostics: Diagnostic[];
  /** Stopped early at this step (NaN/Inf), if it did. */
  stoppedAt?: number;
  /** The history reached its cap (CL405) after this many steps and the run stopped there. */
  historyFullAt?: number;
}
