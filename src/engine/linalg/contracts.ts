// Contracts of the linear-algebra layer (implemented in this folder, tested against ml-matrix).
//
// The failure convention of this folder (every function in it follows it):
// - A computation that can fail for numerical reasons (a singular or indefinite matrix, a pivot too
//   small to divide by, a non-finite input or result, a problem too large for the method) returns an
//   object discriminated by `ok`: `{ ok: true, …the result }` or a `Failure` `{ ok: false, reason,
//   message, …what stays meaningful }`. It never throws for such a failure, and never returns null,
//   undefined or NaN in place of a result. A failure keeps only documented, safe fields (a failed
//   symmetric solve keeps x = 0, the λ the KKT layer then uses for the island, and the analysis done
//   before it failed).
// - Values that are legitimately unbounded are numbers, not failures: κ of a singular matrix is
//   Infinity, an estimate that overflows is Infinity.
// - A broken precondition (a non-square matrix where a square one is required, sizes that do not
//   match, an index outside the matrix) is a bug in the caller, not a failure of the computation: it
//   throws a RangeError, and the pipeline reports any exception as CL900.

/** Why a computation failed (see the failure convention above). */
export type FailureReason =
  /** A pivot at or below the tolerance: the matrix is (numerically) singular. */
  | 'singular'
  /** A significantly negative pivot where positive definiteness was required. */
  | 'indefinite'
  /** A NaN or infinite value in the input or the result. */
  | 'non-finite'
  /** The dense work the method would need is above its limit. */
  | 'too-large'
  /** An iterative kernel (the SVD, an eigenvalue iteration) reached its iteration cap. */
  | 'not-converged'
  /** An unexpected exception inside the computation (a bug; `message` has it). */
  | 'internal';

export interface Failure {
  ok: false;
  reason: FailureReason;
  /** What failed, for people (e.g. "pivot 3 of 12 is 0"). */
  message: string;
}

export const failure = (reason: FailureReason, message: string): Failure => ({ ok: false, reason, message });

/** Compressed sparse row matrix. Column indices within a row are strictly increasing. */
export interface CsrMatrix {
  rows: number;
  cols: number;
  rowPtr: Int32Array; // length rows+1
  colIdx: Int32Array; // length nnz
  values: Float64Array; // length nnz
}

export type SolveMethod = 'cholesky' | 'lu' | 'lstsq';

/** One row of A (equivalently of J) that is a linear combination of earlier rows. */
export interface DependentRow {
  /** Row index (local to the matrix given). */
  row: number;
  /** row = Σ coefficient · other row. The rows named are independent, earlier in file order. */
  dependsOn: { row: number; coefficient: number }[];
}

export interface SymmetricSolveOptions {
  /** 'auto' = Cholesky, falling back to LU, then to the minimum-norm least-squares solution. */
  method: 'auto' | SolveMethod;
  /** Diagonal added to A before solving (compliance). Redundancy/rank are judged on A without it. */
  compliance?: number;
  /** Up to this many rows, κ₂ is exact (symmetric eigenvalues / SVD); above, a Hager–Higham estimate. Default 1000. */
  exactCondMaxRows?: number;
  /** Return all singular values (only when the exact path is used). */
  wantSpectrum?: boolean;
  /** Compute κ of the Jacobi-scaled matrix too (default true; a second eigenvalue pass or estimate). NaN when false. */
  wantScaledCond?: boolean;
  /** Skip conditioning and redundancy analysis (pure solve, e.g. inside a fast loop). */
  skipAnalysis?: boolean;
  /** Cap of the exact spectrum's QL iteration per eigenvalue (default QL_MAX_ITERATIONS; lowered only to test the cap). */
  eigenIterations?: number;
}

/** What a symmetric solve reports, whether it succeeded or not. */
export interface SymmetricSolveReport {
  /** The solution λ; zeros when the solve failed (never NaN). */
  x: Float64Array;
  /** The method actually used (the one that failed, on failure). */
  method: SolveMethod;
  /** ‖(A+Σ)·x − b‖₂. */
  residualNorm: number;
  /** Numerical rank of A (without Σ); tolerance max(n,n)·ε·σ_max as numpy's matrix_rank. */
  rank: number;
  /** Rows that depend on earlier rows (file order), with coefficients. Empty when full rank. */
  dependent: DependentRow[];
  /** For a singular A: true when b lies in the range of A (λ exists), false when conflicting. */
  consistent: boolean;
  /**
   * κ₂(A) (of A+Σ when compliance > 0); Infinity when numerically singular.
   * On the estimated path (n > exactCondMaxRows) a Hager–Higham κ₁ estimate. NaN when skipAnalysis.
   */
  cond: number;
  /** κ₂ of D^{-1/2}·A·D^{-1/2}, D = diag(A) (Jacobi scaling; of A+Σ, like cond). NaN when skipAnalysis. */
  condScaled: number;
  /** True when cond/condScaled are estimates (large A, or `spectrumCapped`). */
  condEstimated: boolean;
  /**
   * True when A was small enough for its exact spectrum but the eigenvalue iteration reached its cap
   * (subnormal or wildly scaled entries): cond is then the factorisation's estimate, not κ₂.
   */
  spectrumCapped?: boolean;
  /** Singular values of A, descending (exact path with wantSpectrum). */
  singularValues?: Float64Array;
  /**
   * The rank tolerance used: n·ε·σ_max on the exact path; on the estimated path the relative pivot
   * tolerance (a row is dependent when its pivot ≤ tolerance·its diagonal).
   */
  tolerance: number;
}

/** `ok: true`, or a `Failure` (reason and message) whose x is zeros; the report's other fields as far as computed. */
export type SymmetricSolveResult = SymmetricSolveReport & ({ ok: true } | Failure);

/** The block structure of a Symbolic (natural order, 3×3 blocks), built once per Symbolic by blockLdl.ts, held by cholesky.ts's Symbolic. */
export interface BlockPlan {
  nb: number;
  /** Row indices of L by column (the scalar layout of cholesky.ts): shared, never written after the plan is built. */
  Li: Int32Array;
  /** Per block column J: the block rows K > J of L (ascending) at colRows[colPtr[J] .. colPtr[J+1]). */
  colPtr: Int32Array;
  colRows: Int32Array;
  /** Per block row K: the block columns J < K of L (ascending) and the index m of K within column J. */
  rowPtr: Int32Array;
  rowJ: Int32Array;
  rowM: Int32Array;
  /** Per block row K: the blocks J < K of A in its pattern, with the value position of entry (3K, 3J). */
  aPtr: Int32Array;
  aJ: Int32Array;
  aPos: Int32Array;
  /** Per block row K: position of entry (3K, 3K) of A, and the length of A's rows 3K..3K+2. */
  aDiag: Int32Array;
  aLen: Int32Array;
  /** Dense block accumulator, 9 numbers a block row (all zero between factorisations). */
  Y: Float64Array;
  /** Lx/D of the factor made with `reuse: true` (valid until the next such factorisation). */
  Lx?: Float64Array;
  D?: Float64Array;
}
