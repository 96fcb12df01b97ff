// The engine's single entry point for the Schur-complement system (A + Σ)·λ = b,
// A = J·M⁻¹·Jᵀ symmetric positive semidefinite, Σ = compliance·I.
//
// Small systems (n ≤ exactCondMaxRows): exact spectrum (κ₂, rank, singular values) from a fast
// symmetric eigenvalue routine; solves by sparse LDLᵀ (Cholesky), dense LU, or the exact
// minimum-norm least-squares solution (in-order factor + null-space projection).
// Large systems: sparse LDLᵀ with a cached symbolic analysis (fill-reducing ordering when it pays),
// Hager–Higham κ₁ estimates, in-order redundancy detection and the same min-norm construction.
import { isFiniteVec as allFinite, norm2 } from '../core/math';
import type { CsrMatrix, DependentRow, FailureReason, SolveMethod, SymmetricSolveOptions, SymmetricSolveResult } from './contracts';
import { type Factor, type Symbolic, analyze, factor } from './cholesky';
import { BlockFactor, blockKernelsOn, factorBlocked } from './blockLdl';
import { blockResidual, symmetricNorm1 } from './blockKernels';
import { type CondestWork, estimateInverseNorm1 } from './condest';
import { denseSolveLU, symmetricEigenvaluesAuto } from './dense';
import { findDependentRows, isConsistent, minNormSolve, type RedundancyResult } from './redundancy';
import { csrAddDiagonal, csrNorm1, csrToDense, csrToDenseFlat } from './sparse';

const EPS = 2 ** -52;

interface SparseWork extends RefineWork {
  n: number;
  col: Float64Array;
  est: Float64Array;
  xi: Float64Array;
}
const NON_FINITE_SOLUTION = { reason: 'non-finite', message: 'every method gave a NaN or infinite solution' } as const;
/** Relative pivot below which a row is taken as dependent on the sparse path. */
const DEFAULT_PIVOT_TOL = 1e-10;

export interface SolverOptions extends SymmetricSolveOptions {
  /** Relative pivot tolerance of the sparse path (pivot ≤ tol·a_kk ⇒ dependent). Default 1e-10. */
  pivotTol?: number;
}

/**
 * ‖(A + shift·I)·x − b‖₂; the residual b − (A + shift·I)·x is left in `out` (allocated when not given).
 * `blocked`: A is made of whole 3×3 blocks (a `BlockFactor` of it exists): blockKernels.ts's
 * `blockResidual`, the same operations in the same order.
 */
function residual(A: CsrMatrix, shift: number, x: Float64Array, b: ArrayLike<number>, out?: Float64Array, blocked = false): { r: Float64Array; norm: number } {
  const r = out ?? new Float64Array(A.rows);
  return { r, norm: blocked ? blockResidual(A, shift, x, b, r) : residualInto(A, shift, x, b, r) };
}

/**
 * ‖(A + shift·I)·x − b‖₂ with the residual in `r`, A·x fused with it (the same operations in the same
 * order as csrMulVec, then b − A·x − shift·x). Shared with smallSolve.ts, which must match it bit for bit.
 */
export function residualInto(A: CsrMatrix, shift: number, x: Float64Array, b: ArrayLike<number>, r: Float64Array): number {
  const n = A.rows;
  const { rowPtr, colIdx, values } = A;
  let s = 0;
  for (let i = 0; i < n; i++) {
    let ax = 0;
    for (let p = rowPtr[i]; p < rowPtr[i + 1]; p++) ax += values[p] * x[colIdx[p]];
    const ri = b[i] - ax - shift * x[i];
    r[i] = ri;
    s += ri * ri;
  }
  return Math.sqrt(s);
}

/** Scratch vectors of `refine` (never returned: x is refined in place). */
interface RefineWork {
  r: Float64Array;
  r2: Float64Array;
  dx: Float64Array;
  x2: Float64Array;
}

const refineWork = (n: number): RefineWork => ({ r: new Float64Array(n), r2: new Float64Array(n), dx: new Float64Array(n), x2: new Float64Array(n) });

/**
 * Iterative refinement with a factor: up to two steps when the residual is above round-off level
 * (kept only when the residual decreases). Returns the final ‖(A+shift·I)·x − b‖.
 */
function refine(A: CsrMatrix, shift: number, x: Float64Array, b: ArrayLike<number>, F: Factor, scale: number, w: RefineWork = refineWork(x.length)): number {
  const blocked = F instanceof BlockFactor;
  let { r, norm } = residual(A, shift, x, b, w.r, blocked);
  let spare = w.r2;
  const { dx, x2 } = w;
  for (let it = 0; it < 2 && norm > 1e-14 * scale; it++) {
    F.solve(r, dx);
    for (let i = 0; i < x.length; i++) x2[i] = x[i] + dx[i];
    const res2 = residual(A, shift, x2, b, spare, blocked);
    if (!(res2.norm < norm)) break;
    x.set(x2);
    spare = r;
    r = res2.r;
    norm = res2.norm;
  }
  return norm;
}

/** The result of an empty system (n = 0, ok), or of a failed solve (x = 0, nothing analysed yet). */
function emptyResult(n: number, method: SolveMethod, why?: { reason: FailureReason; message: string }): SymmetricSolveResult {
  return {
    x: new Float64Array(n),
    ...(why ? { ok: false as const, ...why } : { ok: true as const }),
    method,
    residualNorm: 0,
    rank: 0,
    dependent: [],
    consistent: true,
    cond: n === 0 ? 1 : NaN,
    condScaled: n === 0 ? 1 : NaN,
    condEstimated: false,
    tolerance: 0,
  };
}

/**
 * Solves (A + Σ)·x = b for symmetric PSD A, reusing symbolic analyses while the pattern is unchanged.
 * One instance per stream of same-pattern systems (e.g. one per island across time steps).
 */
export class SymmetricSolver {
  /** Most recently used symbolic analyses (one per sparsity pattern), newest last. */
  private readonly cache: Symbolic[] = [];

  /** @param cacheSize how many distinct patterns (e.g. islands) to keep analysed. */
  constructor(private readonly cacheSize = 8) {}

  /**
   * Scratch of the sparse path (refinement, ‖A‖₁, the condition estimate) for n unknowns. Safe to
   * reuse: nothing in it is returned (x is a fresh array), and each call is done with it on return.
   */
  private work(n: number): SparseWork {
    if (!this.scratch || this.scratch.n !== n) this.scratch = { n, ...refineWork(n), col: new Float64Array(n), est: new Float64Array(n), xi: new Float64Array(n) };
    return this.scratch;
  }

  private scratch: SparseWork | null = null;

  /**
   * Symbolic analysis of A's pattern (fill-reducing ordering when it pays), re-used while the
   * pattern (rowPtr/colIdx) is unchanged.
   */
  symbolicFor(A: CsrMatrix): Symbolic {
    const nnz = A.rowPtr[A.rows];
    for (let k = this.cache.length - 1; k >= 0; k--) {
      const s = this.cache[k];
      if (s.n === A.rows && s.rowPtr[s.n] === nnz && csrSamePatternSym(s, A)) {
        if (k !== this.cache.length - 1) {
          this.cache.splice(k, 1);
          this.cache.push(s);
        }
        return s;
      }
    }
    const s = analyze(A, { ordering: 'auto' });
    this.cache.push(s);
    if (this.cache.length > this.cacheSize) this.cache.shift();
    return s;
  }

  solve(A: CsrMatrix, b: ArrayLike<number>, opts: SolverOptions): SymmetricSolveResult {
    const n = A.rows;
    if (A.cols !== n || b.length !== n) throw new RangeError(`SymmetricSolver.solve: A is ${A.rows}×${A.cols}, b has ${b.length}`);
    const requested = opts.method === 'auto' ? 'cholesky' : opts.method;
    if (n === 0) return emptyResult(0, requested);
    const c = opts.compliance ?? 0;
    // ‖A‖₁ doubles as the finiteness check of A: a NaN or ±∞ entry makes it non-finite, and only then
    // (or for a sum that overflows) are the values checked one by one.
    // (A is symmetric: its largest row sum, blockKernels.ts, in one pass without the column scatter)
    const normA = A.values.length !== A.rowPtr[n] ? NaN : blockKernelsOn() ? symmetricNorm1(A) : csrNorm1(A, this.work(n).col);
    if (!(Number.isFinite(normA) || allFinite(A.values)) || !allFinite(b) || !Number.isFinite(c)) {
      return emptyResult(n, requested, { reason: 'non-finite', message: 'A, b or the compliance has a NaN or infinite entry' });
    }
    const exactMax = opts.exactCondMaxRows ?? 1000;
    try {
      if (!opts.skipAnalysis && n <= exactMax) {
        const exact = this.solveExact(A, b, c, opts);
        // The eigenvalue iteration reached its cap: the factorisation path (no iteration, κ estimated) answers.
        if (exact) return exact;
        return { ...this.solveSparse(A, b, c, opts, normA), condEstimated: true, spectrumCapped: true };
      }
      return this.solveSparse(A, b, c, opts, normA);
    } catch (e) {
      return emptyResult(n, requested, { reason: 'internal', message: e instanceof Error ? e.message : String(e) });
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Exact path (small n): spectrum → rank, κ₂, singularity; then solve.

  private solveExact(A: CsrMatrix, b: ArrayLike<number>, c: number, opts: SolverOptions): SymmetricSolveResult | undefined {
    const n = A.rows;
    const flat = csrToDenseFlat(A);
    const status = { converged: true, maxIterations: opts.eigenIterations };
    const ev = symmetricEigenvaluesAuto(flat.slice(), n, status);
    if (!status.converged) return undefined;
    const sv = Float64Array.from(ev, Math.abs).sort().reverse();
    const smax = sv[0];
    const tol = n * EPS * smax;
    let rank = 0;
    for (const s of sv) if (s > tol) rank++;
    // Spectrum of the matrix solved, A + c·I.
    let mMax = 0;
    let mMin = Infinity;
    let minEv = Infinity;
    for (const e of ev) {
      const a = Math.abs(e + c);
      mMax = Math.max(mMax, a);
      mMin = Math.min(mMin, a);
      minEv = Math.min(minEv, e + c);
    }
    const tolM = n * EPS * mMax;
    const singularM = mMax === 0 || mMin <= tolM;
    const cond = singularM ? Infinity : mMax / mMin;
    const posDef = !singularM && minEv > tolM;
    // Jacobi-scaled condition number.
    let condScaled = opts.wantScaledCond === false ? NaN : Infinity;
    if (!singularM && opts.wantScaledCond !== false) {
      const d = new Float64Array(n);
      let okD = true;
      for (let i = 0; i < n; i++) {
        d[i] = flat[i * n + i] + c;
        if (!(d[i] > 0)) okD = false;
        d[i] = 1 / Math.sqrt(d[i]);
      }
      if (okD) {
        const s = new Float64Array(n * n);
        for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) s[i * n + j] = (flat[i * n + j] + (i === j ? c : 0)) * d[i] * d[j];
        const es = symmetricEigenvaluesAuto(s, n, status);
        if (!status.converged) return undefined;
        let a = 0;
        let z = Infinity;
        for (const e of es) {
          a = Math.max(a, Math.abs(e));
          z = Math.min(z, Math.abs(e));
        }
        condScaled = a === 0 || z <= n * EPS * a ? Infinity : a / z;
      }
    }
    // Redundancy (on A without Σ), matched to the spectral rank.
    let red: RedundancyResult | null = null;
    const natural = this.symbolicFor(A);
    if (rank < n) red = findDependentRows(A, { targetRank: rank, symbolic: natural });
    const dependent: DependentRow[] = red ? red.dependent : [];

    // Solve.
    let method: SolveMethod = opts.method === 'auto' ? 'cholesky' : opts.method;
    let x: Float64Array | null = null;
    const normM = smax + Math.abs(c);
    const bn = norm2(b);
    if (singularM) method = 'lstsq';
    if (method === 'cholesky') {
      if (posDef) {
        const F = factor(A, this.symbolicFor(A), { shift: c, pivotTol: 0, onSmallPivot: 'stop' });
        if (F.ok && F.negativePivots === 0) {
          x = F.solve(b);
          refine(A, c, x, b, F, bn + normM * norm2(x));
          if (!allFinite(x)) x = null;
        }
      }
      if (!x) method = opts.method === 'auto' ? 'lu' : 'lstsq';
    }
    if (method === 'lu') {
      const M = c !== 0 ? csrAddDiagonal(A, c) : A;
      const lu = denseSolveLU(csrToDense(M), b);
      if (lu.ok) x = lu.x;
      else method = 'lstsq';
    }
    let redM: RedundancyResult | null = null;
    if (method === 'lstsq') {
      // Minimum-norm least squares of A + c·I (when c ≠ 0, typically just the solution).
      if (c === 0) redM = red ?? findDependentRows(A, { targetRank: rank, symbolic: natural });
      else {
        let rankM = 0;
        for (const e of ev) if (Math.abs(e + c) > tolM) rankM++;
        redM = findDependentRows(A, { targetRank: rankM, shift: c, symbolic: natural });
      }
      x = minNormSolve(redM, b, n).x;
    }
    if (!x || !allFinite(x)) return { ...emptyResult(n, method, NON_FINITE_SOLUTION), rank, dependent, cond, condScaled, tolerance: tol };
    // Consistency: b ∈ range(A)?
    let consistent = true;
    if (rank < n && red) {
      const xa = c === 0 && method === 'lstsq' ? x : minNormSolve(red, b, n).x;
      consistent = isConsistent(A, xa, b, smax);
    }
    const res = residual(A, c, x, b).norm;
    const out: SymmetricSolveResult = {
      x,
      ok: true,
      method,
      residualNorm: res,
      rank,
      dependent,
      consistent,
      cond,
      condScaled,
      condEstimated: false,
      tolerance: tol,
    };
    if (opts.wantSpectrum) out.singularValues = sv;
    return out;
  }

  // ---------------------------------------------------------------------------------------------
  // Sparse path (large n, or skipAnalysis).

  /** @param norm1 ‖A‖₁ when known (NaN: computed here). */
  private solveSparse(A: CsrMatrix, b: ArrayLike<number>, c: number, opts: SolverOptions, norm1: number): SymmetricSolveResult {
    const n = A.rows;
    const pivotTol = opts.pivotTol ?? DEFAULT_PIVOT_TOL;
    const analysis = !opts.skipAnalysis;
    const work = this.work(n);
    const normA = Number.isNaN(norm1) ? csrNorm1(A, work.col) : norm1;
    const normM = normA + Math.abs(c);
    const bn = norm2(b);
    let method: SolveMethod = opts.method === 'auto' ? 'cholesky' : opts.method;
    let x: Float64Array | null = null;
    let F: Factor | null = null;
    let lstsqRed: RedundancyResult | null = null;

    if (method === 'cholesky') {
      const sym = this.symbolicFor(A);
      // reuse: F is dropped when this call returns (it is not part of the result), before the next one.
      // block by block when A is made of 3×3 blocks (blockLdl.ts: the scalar factor's numbers, bit for bit on chains), else scalar
      const fo = { shift: c, pivotTol, onSmallPivot: 'stop', reuse: true } as const;
      const G = factorBlocked(A, sym, fo) ?? factor(A, sym, fo);
      if (G.ok) {
        F = G;
        x = G.solve(b);
      } else if (G.reason === 'indefinite' && opts.method === 'auto') method = 'lu';
      else method = 'lstsq';
    }
    if (method === 'lu') {
      if (n <= (opts.exactCondMaxRows ?? 1000)) {
        const lu = denseSolveLU(csrToDense(c !== 0 ? csrAddDiagonal(A, c) : A), b);
        if (lu.ok) x = lu.x;
      } else {
        // Symmetric LU without pivoting (L·(D·Lᵀ)), accepting negative pivots.
        const sym = this.symbolicFor(A);
        const fo = { shift: c, pivotTol, onSmallPivot: 'indefinite', reuse: true } as const;
        const G = factorBlocked(A, sym, fo) ?? factor(A, sym, fo);
        if (G.ok) {
          F = G;
          x = G.solve(b);
        }
      }
      if (!x) method = 'lstsq';
    }
    if (method === 'lstsq') {
      lstsqRed = findDependentRows(A, { pivotTol, shift: c, symbolic: this.symbolicFor(A) });
      if (lstsqRed.dependent.length === 0) F = lstsqRed.factor;
      x = minNormSolve(lstsqRed, b, n).x;
    }
    let residualNorm = NaN;
    if (x && F && allFinite(x)) {
      residualNorm = refine(A, c, x, b, F, bn + normM * norm2(x), work);
    }
    if (!x || !allFinite(x)) return { ...emptyResult(n, method, NON_FINITE_SOLUTION), condEstimated: true };
    if (!Number.isFinite(residualNorm)) residualNorm = residual(A, c, x, b).norm;

    // Rank / redundancy of A (without Σ).
    let red: RedundancyResult | null = null;
    if (c === 0) red = lstsqRed;
    else if (analysis) red = findDependentRows(A, { pivotTol, symbolic: this.symbolicFor(A) });
    const dependent = red ? red.dependent : [];
    const rank = n - dependent.length;
    let consistent = true;
    if (red && dependent.length > 0) {
      if (c === 0) consistent = isConsistent(A, x, b, normA);
      else consistent = isConsistent(A, minNormSolve(red, b, n).x, b, normA);
    }
    // Condition estimates of the matrix solved.
    let cond = NaN;
    let condScaled = NaN;
    if (analysis) {
      const singularM = !F || (lstsqRed !== null && lstsqRed.dependent.length > 0);
      if (singularM) {
        cond = Infinity;
        condScaled = Infinity;
      } else {
        const Fx = F!;
        const buf = work.dx;
        // Warm start: from the maximising column of the previous matrix with this pattern (condest.ts).
        const cw: CondestWork = { x: work.est, xi: work.xi, start: Fx.symbolic.condStart ?? -1 };
        cond = normM * estimateInverseNorm1(n, (v) => Fx.solve(v, buf), undefined, undefined, cw);
        Fx.symbolic.condStart = cw.start;
        if (!Number.isFinite(cond)) cond = Infinity;
        if (opts.wantScaledCond !== false) condScaled = scaledCondEstimate(A, c, Fx);
      }
    }
    return {
      x,
      ok: true,
      method,
      residualNorm,
      rank,
      dependent,
      consistent,
      cond,
      condScaled,
      condEstimated: true,
      tolerance: pivotTol,
    };
  }
}

/**
 * A's pattern (rowPtr, colIdx) equals the one analysed in `s`? Same test as `csrSamePattern`, without
 * the view object it would need each call (this runs once per solve of a stream); still a full
 * O(n + nnz) comparison, so a caller that mutates its pattern arrays in place is never mistaken.
 */
function csrSamePatternSym(s: Symbolic, A: CsrMatrix): boolean {
  const n = s.n;
  if (A.rows !== n || A.cols !== n) return false;
  const sp = s.rowPtr, ap = A.rowPtr;
  for (let i = 0; i <= n; i++) if (sp[i] !== ap[i]) return false;
  const si = s.colIdx, ai = A.colIdx;
  const nnz = sp[n];
  for (let p = 0; p < nnz; p++) if (si[p] !== ai[p]) return false;
  return true;
}

/** κ₁ estimate of S·(A+cI)·S, S = diag(A+cI)^{-1/2}, from the factor of A + cI. */
function scaledCondEstimate(A: CsrMatrix, c: number, F: Factor): number {
  const n = A.rows;
  const s = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let d = c;
    for (let p = A.rowPtr[i]; p < A.rowPtr[i + 1]; p++) if (A.colIdx[p] === i) d += A.values[p];
    if (!(d > 0)) return Infinity;
    s[i] = 1 / Math.sqrt(d);
  }
  // ‖S·M·S‖₁
  const col = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    for (let p = A.rowPtr[i]; p < A.rowPtr[i + 1]; p++) {
      const j = A.colIdx[p];
      col[j] += Math.abs((A.values[p] + (i === j ? c : 0)) * s[i] * s[j]);
    }
  }
  let norm = 0;
  for (let j = 0; j < n; j++) norm = Math.max(norm, col[j]);
  // (S·M·S)⁻¹ = S⁻¹·M⁻¹·S⁻¹
  const inv = estimateInverseNorm1(n, (v) => {
    const w = new Float64Array(n);
    for (let i = 0; i < n; i++) w[i] = v[i] / s[i];
    const y = F.solve(w);
    for (let i = 0; i < n; i++) y[i] /= s[i];
    return y;
  });
  const k = norm * inv;
  return Number.isFinite(k) ? k : Infinity;
}
