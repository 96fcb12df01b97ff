// Which constraints make A = J·M⁻¹·Jᵀ ill-conditioned (named by CL303): the eigenvector of A's smallest
// eigenvalue is the combination of rows that is nearly dependent, so the constraints carrying most
// of its weight are the ones to look at. When the diagonally scaled A is well conditioned the cause
// is scaling instead, and the rows with the largest and smallest diagonal (the effective inverse
// masses at the extremes) are named. Dense inverse iteration, so only for systems up to MAX_ROWS.
import type { CsrMatrix } from './contracts';

export const CONDITION_DRIVERS_MAX_ROWS = 400;

export interface ConditionDriver {
  constraint: string;
  /** Share of the eigenvector's squared norm on this constraint's rows (0..1), or the diagonal entry. */
  weight: number;
}

export type ConditionDrivers =
  | { cause: 'geometry'; drivers: ConditionDriver[] }
  | { cause: 'scaling'; largest: ConditionDriver; smallest: ConditionDriver };

function denseOf(A: CsrMatrix): Float64Array {
  const n = A.rows, D = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let k = A.rowPtr[i]; k < A.rowPtr[i + 1]; k++) D[i * n + A.colIdx[k]] = A.values[k];
  return D;
}

/** In-place lower Cholesky factor; false when a pivot is not positive. */
function cholesky(D: Float64Array, n: number): boolean {
  for (let j = 0; j < n; j++) {
    let s = D[j * n + j];
    for (let k = 0; k < j; k++) s -= D[j * n + k] * D[j * n + k];
    if (!(s > 0)) return false;
    const d = Math.sqrt(s);
    D[j * n + j] = d;
    for (let i = j + 1; i < n; i++) {
      let t = D[i * n + j];
      for (let k = 0; k < j; k++) t -= D[i * n + k] * D[j * n + k];
      D[i * n + j] = t / d;
    }
  }
  return true;
}

function cholSolve(L: Float64Array, n: number, x: Float64Array): void {
  for (let i = 0; i < n; i++) {
    let s = x[i];
    for (let k = 0; k < i; k++) s -= L[i * n + k] * x[k];
    x[i] = s / L[i * n + i];
  }
  for (let i = n - 1; i >= 0; i--) {
    let s = x[i];
    for (let k = i + 1; k < n; k++) s -= L[k * n + i] * x[k];
    x[i] = s / L[i * n + i];
  }
}

/**
 * The constraints behind κ(A). `rowConstraint[i]` names row i's constraint; `scaledWellConditioned`
 * says the diagonally scaled A is below the warning (the cause is scaling). Undefined when A is too
 * large or not positive definite in floating point.
 */
export function conditionDrivers(A: CsrMatrix, rowConstraint: readonly string[], scaledWellConditioned: boolean): ConditionDrivers | undefined {
  const n = A.rows;
  if (n === 0 || n > CONDITION_DRIVERS_MAX_ROWS || rowConstraint.length !== n) return undefined;
  const D = denseOf(A);
  const diag = Float64Array.from({ length: n }, (_, i) => D[i * n + i]);
  if (scaledWellConditioned) {
    let hi = 0, lo = 0;
    for (let i = 1; i < n; i++) {
      if (diag[i] > diag[hi]) hi = i;
      if (diag[i] < diag[lo]) lo = i;
    }
    return { cause: 'scaling', largest: { constraint: rowConstraint[hi], weight: diag[hi] }, smallest: { constraint: rowConstraint[lo], weight: diag[lo] } };
  }
  // The scaled matrix S·A·S, S = diag(A)^(−1/2): its smallest eigenvector is free of the scaling.
  const s = Float64Array.from(diag, (d) => (d > 0 ? 1 / Math.sqrt(d) : 0));
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) D[i * n + j] *= s[i] * s[j];
  if (!cholesky(D, n)) return undefined;
  // Inverse iteration from a deterministic start with every component non-zero.
  const x = Float64Array.from({ length: n }, (_, i) => 1 + ((i * 7919) % 13) / 13);
  for (let it = 0; it < 30; it++) {
    cholSolve(D, n, x);
    let nn = 0;
    for (let i = 0; i < n; i++) nn += x[i] * x[i];
    const inv = 1 / Math.sqrt(nn);
    if (!Number.isFinite(inv)) return undefined;
    for (let i = 0; i < n; i++) x[i] *= inv;
  }
  const weight = new Map<string, number>();
  for (let i = 0; i < n; i++) weight.set(rowConstraint[i], (weight.get(rowConstraint[i]) ?? 0) + x[i] * x[i]);
  const sorted = [...weight].sort((a, b) => b[1] - a[1]);
  const drivers: ConditionDriver[] = [];
  let sum = 0;
  for (const [constraint, w] of sorted) {
    drivers.push({ constraint, weight: w });
    sum += w;
    if (sum >= 0.9 || drivers.length >= 5) break;
  }
  return { cause: 'geometry', drivers };
}
