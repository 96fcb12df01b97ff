// The engine's public API types (implemented in pipeline.ts and simulation.ts).
import type { ParseResult, SceneSpec, SourceMap } from './scene/spec';
import type { SimulationResult, StepRecord, SystemSnapshot } from './result';
import type { Diagnostic } from './types';
import type { Limits } from './core/inputLimits';
import type { TimeBudget } from './guards/budget';

export interface InspectOptions {
  /** The engine's limits (src/engine/core/inputLimits.ts); unset entries keep their defaults. */
  limits?: Partial<Limits>;
  /** Compute all singular values of A when exact (default true). */
  wantSpectrum?: boolean;
  /** Time budgets (guards/budget.ts): `inspectMs` here, `stepMs` and `runMs` for a run (CL406). */
  budget?: TimeBudget;
  /**
   * Cap of the exact spectrum's eigenvalue iteration per eigenvalue (default 60, which real matrices
   * never reach). Lowering it exercises what a capped spectrum reports (CL308).
   */
  eigenIterations?: number;
}

export interface InspectResult {
  parse: ParseResult;
  /** The analysed step-0 system; undefined when the scene could not be modelled at all. */
  snapshot?: SystemSnapshot;
  /** Parse, validation and analysis diagnostics together, sorted by position. */
  diagnostics: Diagnostic[];
  hasErrors: boolean;
}

/** A running simulation with its history; every past step can be re-analysed. */
export interface SimulationApi {
  readonly scene: SceneSpec;
  /** Where the scene's items are in its text (an empty map for a scene built in code). */
  readonly sourceMap: SourceMap;
  /** Number of steps taken so far (0 = initial state). */
  readonly currentStep: number;
  /** One record per step taken, history[k] describes the state after step k+1... see `records`. */
  readonly records: readonly StepRecord[];
  /** Take n steps (default 1). Returns the new records. Stops early on NaN/Inf (see `diagnostics`). */
  step(n?: number): StepRecord[];
  /** The analysed system at step k (0 ≤ k ≤ currentStep): recomputed from the stored state. */
  snapshotAt(k: number): SystemSnapshot;
  /** Back to the initial state; history cleared. */
  reset(): void;
  /** Run diagnostics so far (non-finite values, drift). */
  readonly diagnostics: Diagnostic[];
  /** True once the run stopped: a non-finite value, or a full history (then `historyFull` too). */
  readonly stopped: boolean;
  /** True once the history reached its cap (CL405, src/engine/core/inputLimits.ts) and stopped the run. */
  readonly historyFull?: boolean;
  result(): SimulationResult;
}
