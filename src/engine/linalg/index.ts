// The engine's linear-algebra layer (pure TypeScript + ml-matrix for small dense kernels).
export type { CsrMatrix, DependentRow, SolveMethod, SymmetricSolveOptions, SymmetricSolveResult } from './types';
export {
  CsrBuilder,
  csrAddDiagonal,
  csrDiagonal,
  csrFromDense,
  csrGet,
  csrIsSymmetric,
  csrMulDiagTranspose,
  csrMulVec,
  csrNnz,
  csrNorm1,
  csrNormFro,
  csrSamePattern,
  csrSubmatrix,
  csrToDense,
  csrToDenseFlat,
  csrTranspose,
  csrTransposeMulVec,
} from './sparse';
export {
  denseLstsqMinNorm,
  denseSolveCholesky,
  denseSolveLU,
  matrixRank,
  singularValues,
  symmetricEigenvalues,
  symmetricSingularValues,
} from './dense';
export { analyze, factor, Factor, type Symbolic, type AnalyzeOptions, type FactorOptions, type OrderingKind } from './cholesky';
export { amdOrdering, minimumDegreeOrdering, isPermutation } from './ordering';
export { condest1, estimateInverseNorm1 } from './condest';
export { findDependentRows, minNormSolve, isConsistent, NullSpaceProjector, type RedundancyResult, type RedundancyOptions } from './redundancy';
export { solveSymmetric, SymmetricSolver, type SolverOptions } from './solve';
