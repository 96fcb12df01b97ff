// What a Simulation may be told beside its scene: record sizes, the κ path, the history cap.
import type { Limits } from '../core/inputLimits';

export interface SimulationOptions {
  /**
   * κ of each step's record is exact (eigenvalues) up to this many rows per island and a Hager–Higham
   * κ₁ estimate from the step's Cholesky factor above (the record's `condEstimated` says which).
   * Default 12 (below that the eigenvalues cost about what the estimate's solves do); step 0
   * (`inspectScene`) and `snapshotAt` always give the exact spectrum up to 1000 rows, and the
   * divergence analysis exact κ up to 200 rows.
   */
  stepExactCondMaxRows?: number;
  /** Keep per-row λ in the records up to this many rows (default 600), and poses up to this many bodies (default 500). */
  maxRecordRows?: number;
  maxRecordBodies?: number;
  /** Keep a step's contacts in its record up to this many (default 256); `contactCount` always says how many there were. */
  maxRecordContacts?: number;
  /** The engine's limits (src/engine/core/inputLimits.ts); a run uses `history`, the cap on the numbers its records keep (CL405). */
  limits?: Partial<Limits>;
  /**
   * Small islands take the skyline path of smallSolve.ts (default true; bit-identical to the
   * reference solver); false: every solve through the reference (the tests compare the two).
   */
  smallSystems?: boolean;
}
