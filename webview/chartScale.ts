// The axes of the history charts, as pure functions (tested in Node, no chart.js): tick labels
// that tell neighbours apart, and when a series needs a logarithmic axis to be read.
import { formatNumber as fmt } from '../src/shared';

/** The fewest significant digits (2 to 6) at which every pair of neighbouring values is printed differently. */
export function distinctDigits(values: readonly number[]): number {
  for (let d = 2; d < 6; d++) {
    let ok = true;
    for (let i = 1; i < values.length && ok; i++) ok = fmt(values[i], d) !== fmt(values[i - 1], d);
    if (ok) return d;
  }
  return 6;
}

/** How a history chart's y axis is drawn; `auto` picks from the data (`autoAxis`). */
export type AxisChoice = 'auto' | 'linear' | 'log';
export type AxisMode = 'linear' | 'log' | 'symlog';
/** Positive series (‖C‖, κ, drift) go on a log axis; signed ones (λ, energy) on a symmetric log axis. */
export type SeriesKind = 'positive' | 'signed';

/** A range that spans at least this many decades is read on a log (or symlog) axis. */
export const AUTO_LOG_DECADES = 3;

/**
 * Decades between the typical magnitude (the median of |y| above the noise floor) and the largest:
 * 0 when there is nothing above the floor. After a blow-up λ goes from 1e2 to 1e60: 58 decades.
 */
export function decadesSpanned(values: readonly number[], floor: number): number {
  const abs = values.map(Math.abs).filter((x) => Number.isFinite(x) && x > floor);
  if (abs.length === 0) return 0;
  abs.sort((a, b) => a - b);
  const median = abs[Math.floor((abs.length - 1) / 2)];
  return Math.log10(abs[abs.length - 1] / median);
}

/** The axis a choice gives for a series of this kind and values. */
export function axisMode(choice: AxisChoice, kind: SeriesKind, values: readonly number[], floor: number): AxisMode {
  const logMode: AxisMode = kind === 'positive' ? 'log' : 'symlog';
  if (choice === 'linear') return 'linear';
  if (choice === 'log') return logMode;
  return decadesSpanned(values, floor) >= AUTO_LOG_DECADES ? logMode : 'linear';
}

/** The symlog's linear threshold: a tenth of the typical magnitude, never below the noise floor. */
export function linearThreshold(values: readonly number[], floor: number): number {
  const abs = values.map(Math.abs).filter((x) => Number.isFinite(x) && x > floor);
  if (abs.length === 0) return Math.max(floor, Number.MIN_VALUE);
  abs.sort((a, b) => a - b);
  return Math.max(floor, abs[Math.floor(abs.length / 2)] / 10, Number.MIN_VALUE);
}

/**
 * A log axis's range in whole decades around the positive finite values (undefined: none). A κ of
 * 101 ± 0.1 % on an axis fitted to its data reads "101, 101, 101" and draws round-off as a signal;
 * from 100 to 1000 it is the flat line it is.
 */
export function decadeRange(values: readonly number[]): { min: number; max: number } | undefined {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    if (!(Number.isFinite(v) && v > 0)) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (lo === Infinity) return undefined;
  const a = Math.floor(Math.log10(lo));
  const b = Math.max(a + 1, Math.ceil(Math.log10(hi)));
  return { min: Math.pow(10, a), max: Math.pow(10, b) };
}

/** The symmetric log: sign(y)·log10(1 + |y|/c), linear near zero, logarithmic beyond c. */
export const symlog = (y: number, c: number): number => Math.sign(y) * Math.log10(1 + Math.abs(y) / c);
export const symlogInverse = (t: number, c: number): number => Math.sign(t) * c * (Math.pow(10, Math.abs(t)) - 1);

/** A value below the noise floor reads as zero (λ of ±4e-14 N is round-off, not a signal). */
export const denoise = (y: number, floor: number): number => (Math.abs(y) < floor ? 0 : y);

/** Steps the charts show when zoomed to the divergence onset: as many steps before the onset as after it to the run's end (at least 20). */
export function onsetWindow(onset: number, end: number): { from: number; to: number } {
  const span = Math.max(20, end - onset);
  return { from: Math.max(0, onset - span), to: Math.max(onset + 1, Math.min(end, onset + span)) };
}
