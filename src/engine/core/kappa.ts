// κ(A) as every view shows it: one band classification (with the scene's
// `solver.conditionWarning`), one label per band, one spelling of the number.
// Pure: no vscode, no DOM, no Node APIs.
import { formatNumber } from './format';
import { WORDS } from './words';

/** The engine's default `solver.conditionWarning`. */
export const DEFAULT_CONDITION_WARNING = 1e6;
/**
 * Below this κ, A is well-conditioned. msd-sim's monitoring puts the edge at 100, but well-posed joint
 * chains of a few links with ordinary mass ratios sit at 10²–10³ (the example chain: 176), and below
 * 10³ λ loses fewer than 3 of its 16 digits to round-off, far below what any view prints: reading
 * them as "caution" flagged sound models. The edge is 10³ in every view.
 */
export const WELL_CONDITIONED_BELOW = 1e3;

/**
 * msd-sim's classification with a higher first edge, and the scene's threshold as the ill-conditioned edge:
 * - `none`: no constraint rows — nothing to condition (neutral, not "∞ singular").
 * - `good`: κ < 1000 (or below the threshold when it is lower).
 * - `caution`: 1000 ≤ κ < warning.
 * - `bad`: κ ≥ warning (ill-conditioned; the engine's CL303 fires at the same point).
 * - `singular`: κ infinite or unknown (`null`, NaN) or J rank-deficient.
 */
export type CondBand = 'none' | 'good' | 'caution' | 'bad' | 'singular';

export interface CondContext {
  /** The warning threshold (scene `solver.conditionWarning`, or the extension setting). Not a finite positive number: the default 1e6. */
  warning?: number;
  /** Constraint rows of the system; 0 → `none`. */
  rows?: number;
  /** rank(J) < rows: `singular` whatever κ says. */
  rankDeficient?: boolean;
}

/** The threshold actually used: `warning` when it is a finite positive number (κ ≥ 1, so ≤ 1 flags every system), else the default. */
export function conditionWarning(warning?: number): number {
  return warning !== undefined && Number.isFinite(warning) && warning > 0 ? warning : DEFAULT_CONDITION_WARNING;
}

/** The band edges for a threshold: `caution` from 1000 (at most the threshold), `bad` from the threshold. */
export function condThresholds(warning?: number): { caution: number; bad: number } {
  const w = conditionWarning(warning);
  return { caution: Math.min(WELL_CONDITIONED_BELOW, w), bad: w };
}

/** The one κ band classification (status bar, CodeLens, tree, panel, charts, CLI, engine diagnostics). */
export function condBand(cond: number | null | undefined, ctx: CondContext = {}): CondBand {
  if (ctx.rows === 0) return 'none';
  if (ctx.rankDeficient || cond === null || cond === undefined || Number.isNaN(cond) || cond === Infinity) return 'singular';
  const t = condThresholds(ctx.warning);
  if (cond >= t.bad) return 'bad';
  if (cond >= t.caution) return 'caution';
  return 'good';
}

/** At or above the warning threshold, or singular: what the status bar, tree and CL303 flag. */
export function isIllConditioned(band: CondBand): boolean {
  return band === 'bad' || band === 'singular';
}

export const COND_BAND_LABEL: Record<CondBand, string> = {
  none: WORDS.noConstraints,
  good: 'well-conditioned',
  caution: 'caution',
  bad: 'ill-conditioned',
  singular: WORDS.singular,
};

/** One sentence on a band for tooltips, with the thresholds in use. */
export function condBandDescription(band: CondBand, warning?: number): string {
  const t = condThresholds(warning);
  switch (band) {
    case 'none':
      return 'no constraints: there is no A to condition';
    case 'good':
      return `well-conditioned (κ < ${formatCond(t.caution)})`;
    case 'caution':
      return `caution: ${formatCond(t.caution)} ≤ κ < ${formatCond(t.bad)} (the warning threshold); λ loses up to ${Math.round(Math.log10(t.bad))} digits to round-off`;
    case 'bad':
      return `ill-conditioned: κ ≥ ${formatCond(t.bad)} (the warning threshold); λ is sensitive to round-off`;
    case 'singular':
      return 'singular: A is not invertible, λ is not unique (redundant constraints)';
  }
}

/** How the bands are drawn, for a legend: `< 100 good, < 1e6 caution, ≥ 1e6 ill-conditioned, ∞ singular`. */
export function condBandLegend(warning?: number): string {
  const t = condThresholds(warning);
  return `< ${formatCond(t.caution)} ${COND_BAND_LABEL.good}, < ${formatCond(t.bad)} ${COND_BAND_LABEL.caution}, ≥ ${formatCond(t.bad)} ${COND_BAND_LABEL.bad}, ${WORDS.infinity} ${COND_BAND_LABEL.singular}, ${WORDS.notApplicable} ${COND_BAND_LABEL.none}`;
}

export interface CondFormat {
  /** κ comes from an estimator: prefixed `≈` (finite values only). */
  estimated?: boolean;
  /** Constraint rows; 0 → `–` (no constraints). */
  rows?: number;
}

/** κ as people read it: 3 significant digits, scientific from 1e4 (`176`, `1230`, `1.23e4`), `∞` when singular (`null`/∞), `–` without rows. */
export function formatCond(cond: number | null | undefined, opts: CondFormat = {}): string {
  if (opts.rows === 0) return WORDS.notApplicable;
  if (cond === null || cond === undefined || cond === Infinity) return WORDS.infinity;
  if (Number.isNaN(cond)) return WORDS.nan;
  return `${opts.estimated ? WORDS.estimated : ''}${formatNumber(cond, 3, { sciAbove: 1e4 })}`;
}
