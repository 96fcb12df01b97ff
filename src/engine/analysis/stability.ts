// Linear stability of the stabilised constraint error under the engine's integrator (semi-implicit
// Euler: v⁺ = v + h·a, x⁺ = x + h·v⁺). For one constraint row, with J frozen over a step, the error
// e = (C, h·Ċ) follows e⁺ = M·e with a 2×2 M that depends only on the formulation's rhs, the gains
// and h; the run is stable iff the spectral radius ρ(M) < 1. docs/divergence.md derives M for each
// formulation (AerisLab's rhs, Baumgarte, velocity-level erp) and the stable ranges given here.
import { roundSignificant } from '../core/format';
import type { SolverSettings } from '../scene/spec';

/** The recurrence of one constraint row: e⁺ = M·e, e = (C, h·Ċ), M row-major. */
export interface Recurrence {
  /** Which rhs it models. */
  kind: 'aerislab' | 'aerislab-oscillator' | 'baumgarte' | 'none' | 'velocity' | 'implicit';
  /** Dimensionless gains: a = h²·α (or erp), b = h·β (AerisLab: h·(1 + β); AerisLab's oscillator: a = h²·β², b = 2h·α; velocity: 1). */
  a: number;
  b: number;
  M: [number, number, number, number];
  /** Spectral radius of M. */
  rho: number;
}

/**
 * The stable ranges for the scene's dt, each an open interval (lo, hi) of the scene's own gain:
 * alpha for the given beta, beta on its own (acceleration), erp (velocity). `undefined` where a gain
 * does not enter the recurrence.
 */
export interface StableRanges {
  alpha?: { lo: number; hi: number };
  beta?: { lo: number; hi: number };
  erp?: { lo: number; hi: number };
}

/** ρ of a real 2×2 matrix [[p, q], [r, s]]: the larger |eigenvalue| (complex pairs: √det). */
export function spectralRadius2(p: number, q: number, r: number, s: number): number {
  // scale by the largest entry so that huge gains (α = 1e300) cannot overflow tr² or the determinant
  const m = Math.max(Math.abs(p), Math.abs(q), Math.abs(r), Math.abs(s));
  if (!(m > 0) || !Number.isFinite(m)) return m === 0 ? 0 : m;
  if (m !== 1) return m * spectralRadius2(p / m, q / m, r / m, s / m);
  const tr = p + s;
  const det = p * s - q * r;
  const disc = tr * tr - 4 * det;
  if (disc < 0) return Math.sqrt(Math.max(0, det));
  const sq = Math.sqrt(disc);
  return Math.max(Math.abs((tr + sq) / 2), Math.abs((tr - sq) / 2));
}

/** M for the dimensionless gains a, b: C⁺ = (1 − a)·C + (1 − b)·hĊ, hĊ⁺ = −a·C + (1 − b)·hĊ. */
export function recurrenceMatrix(a: number, b: number): [number, number, number, number] {
  return [1 - a, 1 - b, -a, 1 - b];
}

/** The dimensionless gains (a, b) of the scene's formulation, or undefined for an implicit one. */
export function gainsOf(s: Pick<SolverSettings, 'dt' | 'alpha' | 'beta' | 'erp' | 'stabilization' | 'formulation'>): { kind: Recurrence['kind']; a: number; b: number } {
  const h = s.dt;
  if (s.formulation === 'velocity') return { kind: 'velocity', a: s.erp, b: 1 };
  if (s.formulation === 'nonlinear') return { kind: 'implicit', a: 1, b: 1 };
  switch (s.stabilization) {
    case 'aerislab':
      return { kind: 'aerislab', a: h * h * s.alpha, b: h * (1 + s.beta) };
    case 'baumgarte':
      return { kind: 'baumgarte', a: h * h * s.alpha, b: h * s.beta };
    case 'aerislab-oscillator':
      // C̈ + 2α·Ċ + β²·C = 0: Baumgarte's recurrence with the position gain β² and the velocity gain 2α
      return { kind: 'aerislab-oscillator', a: h * h * s.beta * s.beta, b: 2 * h * s.alpha };
    default:
      return { kind: 'none', a: 0, b: 0 };
  }
}

/** The recurrence of the scene's settings with its spectral radius. */
export function recurrenceOf(s: Pick<SolverSettings, 'dt' | 'alpha' | 'beta' | 'erp' | 'stabilization' | 'formulation'>): Recurrence {
  const { kind, a, b } = gainsOf(s);
  const M = recurrenceMatrix(a, b);
  // the implicit (nonlinear) formulation solves C(x⁺) = 0 at the new position: e⁺ ≈ 0
  const rho = kind === 'implicit' ? 0 : spectralRadius2(...M);
  return { kind, a, b, M, rho };
}

/**
 * Jury's conditions for z² − (2 − a − b)·z + (1 − b): ρ < 1 ⇔ a > 0, 0 < b < 2 and a + 2b < 4.
 * (a = 0 leaves an eigenvalue at 1: the error does not grow but is never corrected.)
 */
export function isStable(a: number, b: number): boolean {
  return a > 0 && b > 0 && b < 2 && a + 2 * b < 4;
}

/** The stable ranges of the scene's gains for its dt (see `StableRanges`). */
export function stableRanges(s: Pick<SolverSettings, 'dt' | 'alpha' | 'beta' | 'erp' | 'stabilization' | 'formulation'>): StableRanges {
  const h = s.dt;
  if (s.formulation === 'velocity') return { erp: { lo: 0, hi: 2 } };
  if (s.formulation === 'nonlinear' || s.stabilization === 'none') return {};
  // AerisLab's oscillator: the damping α is the gain on its own (b = 2h·α in (0, 2)), β the one bounded by it (h²·β² < 4 − 4h·α)
  if (s.stabilization === 'aerislab-oscillator') return { alpha: { lo: 0, hi: 1 / h }, beta: { lo: 0, hi: (2 * Math.sqrt(Math.max(0, 1 - h * s.alpha))) / h } };
  // b = h·β (Baumgarte) or h·(1 + β) (AerisLab) must lie in (0, 2); then 0 < h²·α < 4 − 2b.
  const shift = s.stabilization === 'aerislab' ? 1 : 0;
  const b = h * (s.beta + shift);
  const beta = { lo: Math.max(0, -shift), hi: 2 / h - shift };
  const alpha = { lo: 0, hi: Math.max(0, (4 - 2 * b) / (h * h)) };
  return { alpha, beta };
}

/**
 * Gains that make the recurrence stable for this dt: keep β when h·β (AerisLab: h·(1 + β)) is in
 * (0, 2) and choose α for the fastest decay (a double eigenvalue, ρ = √(1 − b) for b ≤ 1, or
 * eigenvalues ±√(b − 1) for b > 1); otherwise set b = ½ (ρ = √½ ≈ 0.71 per step) and α to match.
 * Acceleration formulation only; undefined when nothing needs to change.
 */
export function stableGains(s: Pick<SolverSettings, 'dt' | 'alpha' | 'beta' | 'erp' | 'stabilization' | 'formulation'>): { alpha: number; beta?: number; rho: number } | undefined {
  if (s.formulation !== 'acceleration' || s.stabilization === 'none') return undefined;
  const h = s.dt;
  if (s.stabilization === 'aerislab-oscillator') return oscillatorGains(h, s.alpha);
  const shift = s.stabilization === 'aerislab' ? 1 : 0;
  let b = h * (s.beta + shift);
  let beta: number | undefined;
  if (!(b > 0 && b < 2)) {
    b = 0.5;
    beta = roundGain(b / h - shift);
    b = h * (beta + shift);
  }
  const a = b <= 1 ? (1 - Math.sqrt(1 - b)) ** 2 : 2 - b;
  const alpha = roundGain(a / (h * h));
  const rho = spectralRadius2(...recurrenceMatrix(h * h * alpha, b));
  return { alpha, beta, rho };
}

/** `stableGains` for AerisLab's oscillator: keep α when 2h·α is in (0, 2), else 2h·α = ½; β for the fastest decay. */
function oscillatorGains(h: number, alpha0: number): { alpha: number; beta: number; rho: number } {
  const alpha = 2 * h * alpha0 > 0 && 2 * h * alpha0 < 2 ? alpha0 : roundGain(0.25 / h);
  const b = 2 * h * alpha;
  const beta = roundGain(Math.sqrt(b <= 1 ? (1 - Math.sqrt(1 - b)) ** 2 : 2 - b) / h);
  return { alpha, beta, rho: spectralRadius2(...recurrenceMatrix(h * h * beta * beta, b)) };
}

/** Three significant digits (a value the user can read in the scene), never 0 for a positive gain. */
function roundGain(x: number): number {
  if (!(x > 0)) return 0;
  return roundSignificant(x, 3);
}
