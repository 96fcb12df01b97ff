// JSON as every export writes it (`inspect --json`, `simulate --json`, Export Step Data): JSON has
// no NaN or ∞, so non-finite numbers are the strings `"NaN"`, `"Infinity"`, `"-Infinity"` — the
// same spelling as in CSV. Pure: no vscode, no DOM, no Node APIs.
import { exactNumber } from './number';

/** A number for JSON: finite numbers as they are, non-finite ones as `"NaN"`, `"Infinity"`, `"-Infinity"`. */
export function jsonNumber(x: number): number | string {
  return Number.isFinite(x) ? x : exactNumber(x);
}

/**
 * κ(A) for JSON: `"Infinity"` when singular (the engine's `null`), `null` when there are no
 * constraint rows (κ is not defined), else the number.
 */
export function jsonCond(cond: number | null, rows: number): number | string | null {
  if (rows === 0) return null;
  return jsonNumber(cond ?? Infinity);
}

/** Characters JSON.stringify leaves raw that a terminal may act on: DEL, C1 controls, bidi controls, U+2028/9. */
const RAW_UNSAFE = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;

/**
 * `JSON.stringify` with the export conventions: non-finite numbers spelled as strings (see
 * `jsonNumber`), typed arrays as arrays, and the characters JSON leaves raw that a terminal could
 * act on (C1 controls, bidi overrides) written as `\uXXXX` escapes — the same string values,
 * safe to print.
 */
export function stringifyJson(value: unknown, space?: number): string {
  const text = JSON.stringify(
    value,
    (_k, v: unknown) => {
      if (typeof v === 'number') return jsonNumber(v);
      if (ArrayBuffer.isView(v) && !(v instanceof DataView)) return Array.from(v as unknown as ArrayLike<number>, jsonNumber);
      return v;
    },
    space,
  );
  return text.replace(RAW_UNSAFE, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
