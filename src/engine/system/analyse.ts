// The analysis every producer's system gets: A = J·M⁻¹·Jᵀ (and A + R), κ₂ and the spectrum, the rank,
// redundant rows with their coefficients, whether b is consistent, λ (the producer's, else the
// minimum-norm least-squares one) and the producer's residual. The same linear algebra as the
// engine's own steps (SymmetricSolver), so a system reads the same whoever produced it.
import { CholeskyDecomposition, Matrix } from 'ml-matrix';
import { SymmetricSolver } from '../linalg/solve';
import { csrAddDiagonal, csrMulVec, csrToDenseFlat } from '../linalg/sparse';
import type { CsrMatrix, SolveMethod } from '../linalg/contracts';
import type { RedundantRow } from '../result';
import type { ConstrainedSystem, SystemMass } from './contract';

/** Dense work above which A is not formed (m·n or n² numbers): a clear failure instead of exhausting memory. */
export const SYSTEM_DENSE_LIMIT = 16_000_000;

export interface SystemAnalysisOptions {
  /** Up to this many rows κ₂ and the rank are exact (eigenvalues); above, estimated. Default 1000. */
  exactCondMaxRows?: number;
  /** Keep all singular values of A when exact (default true). */
  wantSpectrum?: boolean;
  /** Cap of the exact spectrum's eigenvalue iteration (SolverOptions.eigenIterations). */
  eigenIterations?: number;
}

/** What the analysis of one system found (no field is NaN: a singular matrix has κ = Infinity). */
export interface SystemAnalysis {
  ok: true;
  /** A = J·M⁻¹·Jᵀ (m × m, symmetric, full storage). */
  A: CsrMatrix;
  /** A + R, when the producer regularises its rows. */
  AR?: CsrMatrix;
  cond: { A: number; AR?: number };
  condEstimated: boolean;
  /** The exact spectrum's eigenvalue iteration reached its cap: κ is the factorisation's estimate. */
  spectrumCapped?: true;
  /** Singular values of A, descending (exact path only). */
  singularValues?: Float64Array;
  /** The rank tolerance (n·ε·σ_max on the exact path, the relative pivot tolerance otherwise). */
  rankTolerance: number;
  rank: { J: number; rows: number; dofs: number };
  /** Rows that are combinations of earlier rows, named (J[row] = Σ coefficient·J[dependsOn]). */
  redundant: RedundantRow[];
  /** For a singular A and a given b: true when b is in A's range; null when A is nonsingular or b unknown. */
  consistent: boolean | null;
  /** The producer's λ when it has one, else the minimum-norm least-squares solution of (A + R)·λ = b (zeros without b). */
  lambda: Float64Array;
  lambdaSource: 'producer' | 'least-squares' | 'none';
  /** ‖(A + R)·λ − b‖₂ of that λ (NaN never: 0 without b). */
  residual: number;
  /** How the analysis solved A (or A + R). */
  method: SolveMethod;
}

export interface SystemAnalysisFailure {
  ok: false;
  /** Stable reason: the system is inconsistent in size, not finite, its M not positive definite, or too large. */
  reason: 'shape' | 'non-finite' | 'mass' | 'too-large';
  message: string;
}

/** Dense row-major Jᵀ (n × m) of a CSR J (m × n). */
function denseJt(J: CsrMatrix): Float64Array {
  const out = new Float64Array(J.cols * J.rows);
  for (let i = 0; i < J.rows; i++)
    for (let p = J.rowPtr[i]; p < J.rowPtr[i + 1]; p++) out[J.colIdx[p] * J.rows + i] = J.values[p];
  return out;
}

/** M⁻¹·Jᵀ as a dense n × m row-major array, or the reason it cannot be formed. */
function minvJt(J: CsrMatrix, mass: SystemMass): Float64Array | SystemAnalysisFailure {
  const n = J.cols, m = J.rows;
  const Jt = denseJt(J);
  if (mass.kind === 'blocks') {
    const k = mass.blockSize;
    if (k <= 0 || n % k !== 0 || mass.Minv.length !== (n / k) * k * k)
      return { ok: false, reason: 'shape', message: `M⁻¹ has ${mass.Minv.length} numbers, not ${n / k} blocks of ${k}×${k} for ${n} columns` };
    const out = new Float64Array(n * m);
    for (let b = 0; b < n / k; b++) {
      const base = b * k * k;
      for (let r = 0; r < k; r++)
        for (let c = 0; c < k; c++) {
          const w = mass.Minv[base + r * k + c];
          if (w === 0) continue;
          const dst = (b * k + r) * m, src = (b * k + c) * m;
          for (let j = 0; j < m; j++) out[dst + j] += w * Jt[src + j];
        }
    }
    return out;
  }
  const M = mass.matrix;
  if (M.rows !== n || M.cols !== n) return { ok: false, reason: 'shape', message: `${mass.kind} is ${M.rows}×${M.cols}, J has ${n} columns` };
  const flat = csrToDenseFlat(M);
  if (mass.kind === 'Minv') {
    const out = new Float64Array(n * m);
    for (let i = 0; i < n; i++)
      for (let l = 0; l < n; l++) {
        const w = flat[i * n + l];
        if (w === 0) continue;
        for (let j = 0; j < m; j++) out[i * m + j] += w * Jt[l * m + j];
      }
    return out;
  }
  const rows: number[][] = [];
  for (let i = 0; i < n; i++) rows.push(Array.from(flat.subarray(i * n, (i + 1) * n)));
  const chol = new CholeskyDecomposition(new Matrix(rows));
  if (!chol.isPositiveDefinite()) return { ok: false, reason: 'mass', message: 'M is not symmetric positive definite (Cholesky failed)' };
  const rhs: number[][] = [];
  for (let i = 0; i < n; i++) rhs.push(Array.from(Jt.subarray(i * m, (i + 1) * m)));
  const X = chol.solve(new Matrix(rhs));
  const out = new Float64Array(n * m);
  for (let i = 0; i < n; i++) for (let j = 0; j < m; j++) out[i * m + j] = X.get(i, j);
  return out;
}

/**
 * M⁻¹ of a joint-space M (SPD, as analyseSystem checked) as a dense CSR matrix, for the views that show
 * it: M⁻¹·Iᵀ through the same Cholesky the analysis uses.
 */
export function massInverse(M: CsrMatrix): CsrMatrix | undefined {
  const n = M.rows;
  const I: CsrMatrix = { rows: n, cols: n, rowPtr: Int32Array.from({ length: n + 1 }, (_, i) => i), colIdx: Int32Array.from({ length: n }, (_, i) => i), values: new Float64Array(n).fill(1) };
  const X = minvJt(I, { kind: 'M', matrix: M });
  return X instanceof Float64Array ? denseToCsr(X, n) : undefined;
}

/** A = J·X with X = M⁻¹Jᵀ (dense n × m), symmetrised, as CSR without structural zeros. */
function formA(J: CsrMatrix, X: Float64Array): CsrMatrix {
  const m = J.rows;
  const dense = new Float64Array(m * m);
  for (let i = 0; i < m; i++)
    for (let p = J.rowPtr[i]; p < J.rowPtr[i + 1]; p++) {
      const w = J.values[p], src = J.colIdx[p] * m;
      for (let j = 0; j < m; j++) dense[i * m + j] += w * X[src + j];
    }
  // round-off makes J·M⁻¹·Jᵀ slightly unsymmetric; the analysis assumes a symmetric matrix
  for (let i = 0; i < m; i++)
    for (let j = i + 1; j < m; j++) {
      const s = 0.5 * (dense[i * m + j] + dense[j * m + i]);
      dense[i * m + j] = s;
      dense[j * m + i] = s;
    }
  return denseToCsr(dense, m);
}

/** A square dense row-major matrix as CSR, keeping the diagonal and every non-zero. */
function denseToCsr(dense: Float64Array, m: number): CsrMatrix {
  const rowPtr = new Int32Array(m + 1);
  const cols: number[] = [], vals: number[] = [];
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < m; j++) {
      const v = dense[i * m + j];
      if (v !== 0 || i === j) {
        cols.push(j);
        vals.push(v);
      }
    }
    rowPtr[i + 1] = cols.length;
  }
  return { rows: m, cols: m, rowPtr, colIdx: Int32Array.from(cols), values: Float64Array.from(vals) };
}

const allFinite = (x: ArrayLike<number> | undefined): boolean => {
  if (!x) return true;
  for (let i = 0; i < x.length; i++) if (!Number.isFinite(x[i])) return false;
  return true;
};

function shapeProblem(s: ConstrainedSystem): string | undefined {
  const { J } = s;
  const m = J.rows, n = J.cols;
  if (J.rowPtr.length !== m + 1 || J.colIdx.length !== J.rowPtr[m] || J.values.length !== J.rowPtr[m]) return `J's CSR arrays do not describe a ${m}×${n} matrix`;
  if (s.rows.length !== m) return `${s.rows.length} row names for ${m} rows of J`;
  if (s.dofLabels.length !== n) return `${s.dofLabels.length} degree-of-freedom names for ${n} columns of J`;
  for (const [name, v] of [['λ', s.lambda], ['b', s.b], ['R', s.R], ['C', s.C]] as const)
    if (v && v.length !== m) return `${name} has ${v.length} entries for ${m} rows`;
  return undefined;
}

/**
 * Analyse one step's system. Never throws for bad data: a system whose sizes disagree, with a NaN or
 * infinite entry, whose M is not positive definite or too large to form A gets a failure naming why.
 */
export function analyseSystem(s: ConstrainedSystem, opts: SystemAnalysisOptions = {}): SystemAnalysis | SystemAnalysisFailure {
  const shape = shapeProblem(s);
  if (shape) return { ok: false, reason: 'shape', message: shape };
  const m = s.J.rows, n = s.J.cols;
  if (m * n > SYSTEM_DENSE_LIMIT || n * n > SYSTEM_DENSE_LIMIT || m * m > SYSTEM_DENSE_LIMIT)
    return { ok: false, reason: 'too-large', message: `${m} rows × ${n} degrees of freedom is above the analysis limit (${SYSTEM_DENSE_LIMIT} dense numbers)` };
  const massValues = s.mass.kind === 'blocks' ? s.mass.Minv : s.mass.matrix.values;
  for (const [name, v] of [['J', s.J.values], ['the mass matrix', massValues], ['λ', s.lambda], ['b', s.b], ['R', s.R]] as const)
    if (!allFinite(v)) return { ok: false, reason: 'non-finite', message: `${name} has a NaN or infinite entry` };
  const X = minvJt(s.J, s.mass);
  if (!(X instanceof Float64Array)) return X;
  const A = formA(s.J, X);
  const solver = new SymmetricSolver(2);
  const solveOpts = { method: 'auto' as const, exactCondMaxRows: opts.exactCondMaxRows ?? 1000, wantSpectrum: opts.wantSpectrum ?? true, eigenIterations: opts.eigenIterations };
  const b = s.b ?? new Float64Array(m);
  const onA = solver.solve(A, b, solveOpts);
  const AR = s.R ? csrAddDiagonal(A, s.R) : undefined;
  const onAR = AR ? solver.solve(AR, b, { ...solveOpts, wantSpectrum: false }) : undefined;
  const solved = onAR ?? onA;
  const lambda = s.lambda ? Float64Array.from(s.lambda) : s.b ? Float64Array.from(solved.x) : new Float64Array(m);
  let residual = 0;
  if (s.b) {
    const Al = csrMulVec(AR ?? A, lambda);
    let sq = 0;
    for (let i = 0; i < m; i++) sq += (Al[i] - s.b[i]) ** 2;
    residual = Math.sqrt(sq);
  }
  const redundant: RedundantRow[] = onA.dependent.map((d) => ({
    constraint: s.rows[d.row].constraint,
    row: s.rows[d.row].row,
    dependsOn: d.dependsOn.map((x) => ({ constraint: s.rows[x.row].constraint, row: s.rows[x.row].row, coefficient: x.coefficient })),
  }));
  return {
    ok: true,
    A,
    ...(AR ? { AR } : {}),
    cond: { A: onA.cond, ...(onAR ? { AR: onAR.cond } : {}) },
    condEstimated: onA.condEstimated,
    ...(onA.spectrumCapped ? { spectrumCapped: true as const } : {}),
    ...(onA.singularValues ? { singularValues: onA.singularValues } : {}),
    rankTolerance: onA.tolerance,
    rank: { J: onA.rank, rows: m, dofs: n },
    redundant,
    consistent: onA.dependent.length > 0 && s.b ? onA.consistent : null,
    lambda,
    lambdaSource: s.lambda ? 'producer' : s.b ? 'least-squares' : 'none',
    residual,
    method: solved.method,
  };
}
