// What the engine produces: the analysed system of one step, and a run's history.
// Plain data (typed arrays and numbers): it is posted to the webview and embedded in reports.
import type { CsrMatrix, DependentRow, SolveMethod } from './linalg/types';
import type { Diagnostic, Quat, Vec3 } from './types';
import type { Formulation, Stabilization } from './scene/types';

export type { CsrMatrix, DependentRow, SolveMethod };

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
export interface SystemSnapshot {
  step: number;
  t: number;
  formulation: Formulation;
  stabilization: Stabilization;
  /** Names of the bodies owning columns, in column order (6 columns each). */
  bodies: string[];
  /** Column labels of J, e.g. `Body_A.vx` … `Body_A.ωz`. */
  columnLabels: string[];
  rows: RowInfo[];
  /** M⁻¹ as per-body 6×6 blocks (row-major, 36 numbers each, in column order). */
  MinvBlocks: Float64Array;
  J: CsrMatrix;
  /** A = J·M⁻¹·Jᵀ (+Σ), symmetric, full storage. */
  A: CsrMatrix;
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
  /** Velocity formulation only: W = h·J·M⁻¹·Jᵀ (+Σ), the free velocity B, the reactions R. */
  W?: CsrMatrix;
  B?: Float64Array;
  R?: Float64Array;
  method: SolveMethod | 'none';
  cond: { A: number | null; scaled: number | null };
  condEstimated: boolean;
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
}

/** One step of a run, as kept in the history (cheap: no matrices). */
export interface StepRecord {
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
  method: SolveMethod | 'none';
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
}
