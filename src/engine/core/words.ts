// The words and units every view uses for the same thing. Pure: no vscode, no DOM, no Node APIs.

export const WORDS = {
  /** An infinite value, e.g. κ of a singular A. */
  infinity: '∞',
  nan: 'NaN',
  /** Not applicable (κ of a system without constraint rows). */
  notApplicable: '–',
  /** A value that is not there (no vector, no λ recorded). */
  absent: '—',
  /** Prefix of an estimated value (κ from the Hager–Higham estimator). */
  estimated: '≈',
  singular: 'singular',
  noConstraints: 'no constraints',
} as const;

/** SI units of the quantities the views show. */
export const UNITS = {
  time: 's',
  length: 'm',
  angle: 'rad',
  mass: 'kg',
  force: 'N',
  torque: 'N·m',
  energy: 'J',
  velocity: 'm/s',
  angularVelocity: 'rad/s',
  acceleration: 'm/s²',
  angularAcceleration: 'rad/s²',
} as const;

export type Unit = (typeof UNITS)[keyof typeof UNITS];

/** `3 errors`, `1 error`. */
export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
