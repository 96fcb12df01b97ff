// Number formatting and the κ colour bands.

/** Compact number: 4 significant digits, exponent for very small/large values, ∞/NaN symbols. */
export function fmt(x: number | null | undefined, digits = 4): string {
  if (x === null || x === undefined) return '∞';
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? '∞' : '−∞';
  if (x === 0) return '0';
  const a = Math.abs(x);
  let s: string;
  if (a >= 1e5 || a < 1e-3) s = x.toExponential(Math.max(0, digits - 2)).replace(/\.?0+e/, 'e').replace('e+', 'e');
  else s = String(Number(x.toPrecision(digits)));
  return s.replace(/^-/, '−');
}

/** Shorter, for heatmap cells. */
export const fmtCell = (x: number): string => fmt(x, 3);

/** The exact value (shortest round-trip representation). */
export function fmtExact(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? 'Infinity' : '-Infinity';
  return String(x);
}

export type CondBand = 'good' | 'caution' | 'bad' | 'singular';

/** κ < 1e2 good, < 1e6 caution, above ill-conditioned, null/∞ singular. */
export function condBand(k: number | null | undefined): CondBand {
  if (k === null || k === undefined || !Number.isFinite(k)) return 'singular';
  if (k < 1e2) return 'good';
  if (k < 1e6) return 'caution';
  return 'bad';
}

export const condBandLabel: Record<CondBand, string> = {
  good: 'well-conditioned',
  caution: 'caution',
  bad: 'ill-conditioned',
  singular: 'singular',
};

export function fmtCond(k: number | null | undefined, estimated = false): string {
  if (k === null || k === undefined || !Number.isFinite(k)) return '∞';
  return (estimated ? '≈' : '') + (k >= 1e3 ? k.toExponential(1).replace('e+', 'e') : String(Number(k.toPrecision(3))));
}

export const fmtVec = (v: readonly number[] | undefined): string => (v ? `[${v.map((x) => fmt(x, 3)).join(', ')}]` : '—');

export const norm3 = (v: readonly number[] | undefined): number => (v ? Math.hypot(v[0] ?? 0, v[1] ?? 0, v[2] ?? 0) : 0);

export function fmtTime(t: number): string {
  if (!Number.isFinite(t)) return String(t);
  return `${Number(t.toFixed(6))} s`;
}

/** Escape a label for CSV. */
export const csvCell = (s: string): string => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
