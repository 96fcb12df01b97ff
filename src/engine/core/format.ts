// The one number formatter of Constraint Lens: the CLI's text output, the status bar, CodeLens,
// tree, panel and report all spell a number through `formatNumber`; machine outputs (CSV, JSON,
// "copy exact value") through `exactNumber`. Pure TypeScript: no vscode, no DOM, no Node APIs.
import { WORDS, type Unit } from './words';

/** Significant digits when the caller does not say. */
export const DEFAULT_DIGITS = 4;

/** Where fixed notation gives way to scientific notation (on the value after rounding). */
export interface Notation {
  /** Non-zero |x| below this is scientific. Default 1e-3 (clamped to ≥ 1e-6, where fixed would need exponents). */
  sciBelow?: number;
  /** |x| at or above this is scientific. Default 1e5 (clamped to ≤ 1e21). */
  sciAbove?: number;
}

const SCI_BELOW = 1e-3;
const SCI_ABOVE = 1e5;

/**
 * A number for people: `digits` significant digits (1–17, default 4) in both notations, fixed
 * notation for 1e-3 ≤ |x| < 1e5 after rounding (so 99999.5 → `1e5`, 0.00099996 → `0.001`),
 * otherwise scientific with the mantissa's trailing zeros dropped and no `+` (`1.235e-4`, `2.5e7`).
 * The sign is ASCII `-` (copyable into code); −0 and 0 are `0`; NaN is `NaN`; ±∞ is `∞` / `-∞`.
 * Never throws, never returns an empty string. Pass a number, not a callback index:
 * `xs.map((x) => formatNumber(x))`, not `xs.map(formatNumber)`.
 */
export function formatNumber(x: number, digits: number = DEFAULT_DIGITS, notation: Notation = {}): string {
  if (Number.isNaN(x)) return WORDS.nan;
  if (x === Infinity) return WORDS.infinity;
  if (x === -Infinity) return `-${WORDS.infinity}`;
  if (x === 0) return '0';
  const d = Math.min(17, Math.max(1, Math.round(Number.isFinite(digits) ? digits : DEFAULT_DIGITS)));
  const below = Math.max(1e-6, notation.sciBelow ?? SCI_BELOW);
  const above = Math.min(1e21, notation.sciAbove ?? SCI_ABOVE);
  // Round once, in scientific form: the exponent is the one of the rounded value, and rounding
  // the largest double up (1.7976931348623157e308 → 1.798e308) stays a string, not Infinity.
  const sci = x.toExponential(d - 1);
  const rounded = Math.abs(Number(sci));
  if (rounded >= below && rounded < above) return String(Number(x.toPrecision(d)));
  const [mantissa, exponent] = sci.split('e');
  const m = mantissa.includes('.') ? mantissa.replace(/\.?0+$/, '') : mantissa;
  return `${m}e${exponent.replace('+', '')}`;
}

/**
 * The exact value, for machines (CSV, JSON, "copy exact value"): the shortest round-trip decimal
 * (`String(x)`), with the one spelling of non-finite values used in every CSV and JSON output:
 * `NaN`, `Infinity`, `-Infinity` (read back by `Number()` in JavaScript, `float()` in Python, pandas
 * and numpy). −0 is `0`.
 */
export function exactNumber(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  return String(x);
}

/** x rounded to `digits` significant digits, as a number (a value a person can read back in the scene). */
export function roundSignificant(x: number, digits: number): number {
  return Number(x.toPrecision(digits));
}

/** Scientific notation with `fractionDigits` after the point and no `+` in the exponent (`2.50e5`): a count in a message. */
export function scientific(x: number, fractionDigits: number): string {
  return x.toExponential(fractionDigits).replace('e+', 'e');
}

/** A vector `[1, -0.5, 2.5e-7]` (`—` when absent). */
export function formatVec(v: ArrayLike<number> | undefined, digits = 3): string {
  if (!v) return WORDS.absent;
  return `[${Array.from(v, (x) => formatNumber(x, digits)).join(', ')}]`;
}

/**
 * Simulated time: fixed notation to the microsecond with trailing zeros dropped (`0.125 s`,
 * `12 s`), so consecutive steps stay distinguishable; outside ±1e15 s or non-finite, `formatNumber`.
 */
export function formatTime(t: number): string {
  if (!Number.isFinite(t) || Math.abs(t) >= 1e15) return `${formatNumber(t)} s`;
  const r = Number(t.toFixed(6));
  return `${r === 0 ? 0 : r} s`;
}

/** A value with its unit: `9.81 N`, `-0.5 N·m`, `∞ J`. */
export function formatQuantity(x: number, unit: Unit, digits = DEFAULT_DIGITS): string {
  return `${formatNumber(x, digits)} ${unit}`;
}
