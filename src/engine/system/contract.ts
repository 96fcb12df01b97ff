// The seam between whatever produced a constrained system and everything that analyses or shows it.
//
// Three kinds of producer hand the same data to the same analysis, diagnostics and views: the engine's
// own steps (maximal coordinates, M⁻¹ as 6×6 blocks per body), MuJoCo's constraint system (joint space,
// efc_J and the mass matrix of the tree) and a trace file written by someone's own solver (any
// coordinates). What they share is the algebra of one step: rows J (m × n) acting on n degrees of
// freedom with mass M, forces λ on those rows, and the right-hand side b of A·λ = b with
// A = J·M⁻¹·Jᵀ (+ R when the producer regularises its rows).
import type { CsrMatrix } from '../linalg/contracts';
import type { ContactReport } from '../result';

/** One row of J, named so that every view and diagnostic can say which element it belongs to. */
export interface SystemRow {
  /** The element the row belongs to (a constraint, an equality, a joint's limit, a contact). */
  constraint: string;
  /** Its kind as the producer names it (`hinge`, `equality`, `limit`, `contact`, `friction` …). */
  type: string;
  /** Index of the row among its element's rows (0-based, in the producer's order). */
  row: number;
  /** Label shown beside the row (e.g. `rod.d`, `hinge1.⊥1`, `floor/box#2.n`). */
  label: string;
}

/**
 * The mass of the degrees of freedom, in whichever form the producer has it:
 * - `blocks`: block-diagonal M⁻¹ (the engine: one 6×6 block per free body, row-major, in column order);
 * - `M` or `Minv`: a symmetric n × n matrix (MuJoCo's `mj_fullM` is `M`; a trace may log either).
 */
export type SystemMass =
  | { kind: 'blocks'; blockSize: number; Minv: Float64Array }
  | { kind: 'M'; matrix: CsrMatrix }
  | { kind: 'Minv'; matrix: CsrMatrix };

/** One iteration of the producer's solver (Newton, CG, PGS sweeps …), as far as it reports it. */
export interface SystemIteration {
  /** Residual or gradient norm after the iteration. */
  residual: number;
  /** Condition number the producer itself computed (e.g. Axion's logged cond(A)), when it did. */
  cond?: number;
  /** Objective improvement, line-search step or any other scalar the producer reports, by name. */
  values?: Record<string, number>;
}

/** The constrained system of one step, as any producer gives it. */
export interface ConstrainedSystem {
  /** Who produced it: `engine`, `mujoco` or `trace`, and the method or file it came from. */
  producer: { kind: 'engine' | 'mujoco' | 'trace'; name: string; method?: string };
  /** Step index (0 = the initial state) and its time. */
  step: number;
  t: number;
  /** One label per degree of freedom (a column of J). */
  dofLabels: string[];
  /** One entry per row of J. */
  rows: SystemRow[];
  /** m × n, CSR. */
  J: CsrMatrix;
  mass: SystemMass;
  /** The producer's forces on the rows (m), when it solved for them. */
  lambda?: Float64Array;
  /** The right-hand side of (A + R)·λ = b (m), when the producer defines it. */
  b?: Float64Array;
  /** Per-row regularisation or compliance R (m, diagonal): the producer solved (A + R)·λ = b. */
  R?: Float64Array;
  /** Constraint violation per row (m), in the producer's units. */
  C?: Float64Array;
  /** The step's contacts, when the producer reports them. */
  contacts?: ContactReport[];
  /** The producer's solver iterations on this step. */
  iterations?: SystemIteration[];
}

/** What a producer knows that the views want besides the algebra: nothing else is required. */
export interface SystemSource {
  /** Number of steps available (a trace: its steps; a run: the steps taken so far). */
  readonly steps: number;
  /** The system at step k (0 ≤ k < steps). */
  systemAt(k: number): ConstrainedSystem;
}
