// Which κ(A) a view shows for a step, chosen in one place so that the panel's header, its spectrum
// card, the history chart, the status bar, the CodeLens and the tree print the same number with the
// same `≈`. A run's step k is its record: the κ of the A that step k solved with, the value the
// history chart plots at k. Step 0 (no record) is the initial analysis. A snapshot re-analysed at
// step k (`snapshotAt`) is the state after the step, one solve later, and may be exact where the
// record is an estimate: it is never the headline number for k ≥ 1, so a view that has it and a
// view that has only the records cannot disagree. Pure: no vscode, no DOM, no Node APIs.

/**
 * Runs shown in the extension keep κ exact (eigenvalues) per step up to this many rows per island,
 * so chains and robots of a few dozen joints show κ₂ everywhere, without `≈`; above, the engine's
 * κ₁ estimate (marked `≈` in every view). The eigenvalues of a 64-row island cost about half a
 * millisecond a step, small against a frame.
 */
export const RUN_EXACT_COND_MAX_ROWS = 64;

/** What a snapshot or a run's record says of κ, and of which step. */
export interface KappaSource {
  readonly step: number;
  readonly cond: { readonly A: number | null };
  readonly condEstimated: boolean;
}

/** The κ a view shows for a step, with where it came from. */
export interface StepKappa {
  /** The step it belongs to (0: the initial analysis). */
  step: number;
  /** null: singular. */
  cond: number | null;
  /** An estimate (printed with `≈`). */
  estimated: boolean;
  /** `record`: the run's record of the step; `snapshot`: a snapshot of the step (step 0, or no record at hand). */
  source: 'record' | 'snapshot';
}

/** Where a view looks for κ: the run's record of the step and any snapshot it holds (used only when it is of the step). */
export interface KappaInputs {
  readonly record?: KappaSource;
  readonly snapshot?: KappaSource;
}

/**
 * κ(A) of `step` as every view shows it: the run's record of the step when there is one (k ≥ 1),
 * else a snapshot of that very step (step 0: the initial analysis), else undefined (not known yet).
 */
export function kappaOf(step: number, at: KappaInputs): StepKappa | undefined {
  const { record, snapshot } = at;
  if (step > 0 && record && record.step === step) return { step, cond: record.cond.A, estimated: record.condEstimated, source: 'record' };
  if (snapshot && snapshot.step === step) return { step, cond: snapshot.cond.A, estimated: snapshot.condEstimated, source: 'snapshot' };
  return undefined;
}
