// Contracts of the linear-algebra layer (implemented in this folder, tested against ml-matrix).

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
}

export interface SymmetricSolveResult {
  /** The solution λ (never NaN: if the solve failed, `ok` is false and x is zeros). */
  x: Float64Array;
  ok: boolean;
  /** The method actually used. */
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
  /** True when cond/condScaled are estimates (large A). */
  condEstimated: boolean;
  /** Singular values of A, descending (exact path with wantSpectrum). */
  singularValues?: Float64Array;
  /**
   * The rank tolerance used: n·ε·σ_max on the exact path; on the estimated path the relative pivot
   * tolerance (a row is dependent when its pivot ≤ tolerance·its diagonal).
   */
  tolerance: number;
}
