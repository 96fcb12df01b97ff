// The world (a scene's fixed structure: bodies, constraints, layout, sparsity patterns) and one
// assembly of it: the types every later layer reads. Built by assemble.ts `buildWorld` and `assemble`.
import type { BodyModel } from '../model/body';
import type { JointForces } from '../model/forces';
import type { FluidForces } from '../model/fluid';
import type { Activations } from '../model/activation';
import type { TendonSet } from '../model/tendonForces';
import type { ConstraintEval, ConstraintModel, Pose } from '../model/constraint';
import type { CsrMatrix } from '../linalg/contracts';
import type { SceneSpec } from '../scene/spec';
import type { APlan } from './aPairs';
import type { OmittedA } from './tallOmissions';

/** The static structure of a scene: bodies, constraints, column/row layout, sparsity patterns. */
export interface World {
  scene: SceneSpec;
  bodies: BodyModel[];
  bodyIndex: Map<string, number>;
  /** Body indices owning columns, in column order (column = 6·k). */
  colBodies: number[];
  constraints: ConstraintModel[];
  /** Body index of end A and B per constraint (-1 = world). */
  endA: Int32Array;
  endB: Int32Array;
  /** Body indices of each constraint's `extraBodies` (coupler only; empty otherwise). */
  endX: Int32Array[];
  /** First row of each constraint; rowStart[nc] = nRows. */
  rowStart: Int32Array;
  nCols: number;
  nRows: number;
  /** Per-constraint evaluation buffers (reused every assembly). */
  evals: ConstraintEval[];
  /** J's pattern (rowPtr/colIdx shared by every assembled J) and the value offsets of each row's A/B blocks. */
  jRowPtr: Int32Array;
  jColIdx: Int32Array;
  jOffA: Int32Array; // per row: value offset of end A's 6 entries, -1 if A owns no columns
  jOffB: Int32Array;
  /** Per constraint with extra ends: value offsets of each row's extra-end blocks, rows × extras, -1 if none. */
  jOffX: Int32Array[];
  /** A's pattern and, per body, the constraints touching it with the value offsets of each pair's block. */
  aRowPtr: Int32Array;
  aColIdx: Int32Array;
  /** For each column-owning body (column order): list of [constraint, end(0=A, 1=B, 2+k = extra end k)] whose rows are in A. */
  touching: Array<Array<[number, number]>>;
  /** Set when the rows of tall islands are left out of A (their rows of A are empty): tallOmissions.ts. */
  aOmitted?: OmittedA;
  /** For each column-owning body: offsets (within the A row) of block (ci, cj) for every pair, row-major over touching² (a pair's rows of A are contiguous: row r of c at aRowPtr[rowStart[c]+r] + pairOffset). */
  pairOffset: Int32Array[];
  /** A = J·M⁻¹·Jᵀ as a flat schedule over J's values (aPairs.ts), built from `touching` and `pairOffset`. */
  aPlan: APlan;
  /** Derived on first use and never changed after (`WorldDerived` below): fields instead of WeakMaps keyed by the world. */
  derived?: WorldDerived;
  /** Damping, stiffness and actuators along hinge and slider coordinates (model/forces.ts); absent when no joint has any. */
  forces?: JointForces;
  /** The scene's tendons (model/tendonForces.ts): their lengths, forces and the rows on them; absent when none. */
  tendons?: TendonSet;
  /** The drag of the scene's fluid medium on every moving body (model/fluid.ts); absent without one. */
  fluid?: FluidForces;
  /** The activation state of actuators with activation dynamics (model/activation.ts): the simulation sets its step count. */
  activations?: Activations;
}

/**
 * What is derived from a world once, on first use, and never changed after (its constraints and
 * patterns are fixed by buildWorld), kept on the world object (`World.derived`) instead of in
 * WeakMaps keyed by it (five lookups per step): J's row slots and whether its pattern is
 * runs of 6 (jProducts.ts), and what kkt/kkt.ts adds to this interface: the islands and their solvers.
 */
export interface WorldDerived {
  rowSlots?: Int8Array;
  jRuns?: boolean;
}

/** Everything `assemble_system` produces, plus what the analysis needs. */
export interface Assembly {
  /** Per column-owning body, 1/m and the world inverse inertia (row-major 3×3): 10 numbers each. */
  minvCompact: Float64Array;
  F: Float64Array;
  v: Float64Array;
  J: CsrMatrix;
  /** A = J·M⁻¹·Jᵀ (no compliance), full symmetric storage. */
  A: CsrMatrix;
  C: Float64Array;
  Cdot: Float64Array;
  Jdotv: Float64Array;
  /** Poses of every body (scene order), for constraint forces and drawing. */
  poses: Pose[];
  /** With buffers that have them (AssemblyBuffers a0, Ja0): a₀ = M⁻¹F and J·a₀, as applyMinv and jMulVec give them. */
  a0?: Float64Array;
  Ja0?: Float64Array;
}
