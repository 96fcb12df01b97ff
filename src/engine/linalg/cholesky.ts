// Sparse LDLᵀ ("square-root-free Cholesky") of a symmetric matrix stored as full CSR
// (both triangles; for symmetric A the CSR rows are also its columns).
// Up-looking algorithm after T. Davis' LDL: `analyze` (ordering, elimination tree, column counts)
// is separated from `factor` (numeric), so the symbolic analysis can be reused while the sparsity
// pattern is unchanged. Pivots are checked: zero/negative pivots stop the factorisation (strict mode:
// a `FactorFailure`, see the failure convention in contracts.ts) or are rejected (the row is declared
// dependent on the earlier rows — used for redundancy detection).
import { type BlockPlan, failure, type CsrMatrix, type Failure } from './contracts';
import { cumsum } from '../core/offsets';
import { amdOrdering } from './ordering';

export type OrderingKind = 'natural' | 'amd' | 'auto';

export interface Symbolic {
  n: number;
  /** perm[k] = original row/column eliminated k-th; null = natural order. */
  perm: Int32Array | null;
  /** pinv[perm[k]] = k; null = natural order. */
  pinv: Int32Array | null;
  /** Elimination tree (parent of column k, −1 for roots), in the permuted numbering. */
  parent: Int32Array;
  /** Entries below the diagonal in each column of L (permuted numbering). */
  colCounts: Int32Array;
  /** Column pointers of L (length n+1). */
  Lp: Int32Array;
  /** Entries of L below the diagonal. */
  lnz: number;
  ordering: 'natural' | 'amd';
  /** The pattern analysed (copied), to detect a change of pattern. */
  rowPtr: Int32Array;
  colIdx: Int32Array;
  /** Scratch of `factor` (Y, pattern, flag, fill), allocated at the first factorisation and reused. */
  work?: FactorWork;
  /** The structure of L and the visiting order of the numeric factorisation (see `planOf`), built once. */
  plan?: NumericPlan;
  /** The 3×3 block structure of the factorisation (blockLdl.ts `blockPlanOf`): built once, null when it does not apply. */
  block?: BlockPlan | null;
  /** Where the condition estimate of the last matrix with this pattern ended (CondestWork.start). */
  condStart?: number;
  /** Work vector of `Factor.solve` with a fill-reducing permutation (filled and read within one call). */
  solveWork?: Float64Array;
}

/**
 * Everything the up-looking factorisation does that depends only on the pattern, recorded once per
 * Symbolic so that a refactorisation of a same-pattern matrix is flat loops: per row k the entries of
 * A to scatter (positions in A.values, permuted columns ≤ k, in A's row order) and the columns i of
 * row k of L in the exact (topological) order the etree walk visits them, with the position of l_ki
 * in Li/Lx. The arithmetic is the general path's, operation for operation (bit-identical results).
 */
interface NumericPlan {
  /** Row indices of L by column: shared by every Factor of this Symbolic and never written after `planOf`. */
  Li: Int32Array;
  aPtr: Int32Array;
  aSrc: Int32Array;
  aDst: Int32Array;
  rowPtr: Int32Array;
  rowCol: Int32Array;
  rowPos: Int32Array;
  /** Dense accumulator (all zero between factorisations). */
  Y: Float64Array;
  /** Lx/D of the factor made with `reuse: true` (valid until the next such factorisation). */
  Lx?: Float64Array;
  D?: Float64Array;
}

interface FactorWork {
  Y: Float64Array;
  pattern: Int32Array;
  flag: Int32Array;
  fill: Int32Array;
}

export interface AnalyzeOptions {
  /** 'auto' (default): natural unless a minimum-degree ordering gives clearly less fill. */
  ordering?: OrderingKind;
}

/** Elimination tree and column counts of the (permuted) pattern. */
function symbolicOf(A: CsrMatrix, perm: Int32Array | null, pinv: Int32Array | null) {
  const n = A.rows;
  const parent = new Int32Array(n);
  const colCounts = new Int32Array(n);
  const flag = new Int32Array(n);
  const { rowPtr, colIdx } = A;
  for (let k = 0; k < n; k++) {
    parent[k] = -1;
    flag[k] = k;
    const kk = perm ? perm[k] : k;
    for (let p = rowPtr[kk]; p < rowPtr[kk + 1]; p++) {
      let i = pinv ? pinv[colIdx[p]] : colIdx[p];
      if (i < k) {
        for (; flag[i] !== k; i = parent[i]) {
          if (parent[i] === -1) parent[i] = k;
          colCounts[i]++;
          flag[i] = k;
        }
      }
    }
  }
  const Lp = new Int32Array(n + 1);
  Lp.set(colCounts, 1);
  return { parent, colCounts, Lp, lnz: cumsum(Lp) };
}

/** Symbolic analysis of a symmetric pattern (square CSR; values are not read). */
export function analyze(A: CsrMatrix, opts: AnalyzeOptions = {}): Symbolic {
  if (A.rows !== A.cols) throw new RangeError('analyze: matrix must be square');
  const n = A.rows;
  const kind = opts.ordering ?? 'auto';
  const nat = symbolicOf(A, null, null);
  const base = { n, rowPtr: A.rowPtr.slice(), colIdx: A.colIdx.slice() }; // copies: callers may reuse arrays
  if (kind === 'natural') return { ...base, perm: null, pinv: null, ...nat, ordering: 'natural' };
  const nnzLower = (A.rowPtr[n] - n) / 2; // approximate (assumes a full diagonal)
  if (kind === 'auto' && nat.lnz <= Math.max(1.25 * nnzLower, nnzLower + n)) {
    // Natural order is (nearly) fill-free, e.g. banded / block-tridiagonal chains.
    return { ...base, perm: null, pinv: null, ...nat, ordering: 'natural' };
  }
  const perm = amdOrdering(A);
  const pinv = new Int32Array(n);
  for (let k = 0; k < n; k++) pinv[perm[k]] = k;
  const md = symbolicOf(A, perm, pinv);
  if (kind === 'auto' && md.lnz >= nat.lnz) return { ...base, perm: null, pinv: null, ...nat, ordering: 'natural' };
  return { ...base, perm, pinv, ...md, ordering: 'amd' };
}

export interface FactorOptions {
  /** Added to every diagonal entry before factorising (compliance Σ = shift·I). */
  shift?: number;
  /**
   * A pivot d_k is "small" when d_k ≤ pivotTol·|a_kk + shift| (relative to its original diagonal),
   * or when d_k ≤ 0. Default 1e-10 (a row within ~1e-5 rad of the span of the earlier rows).
   */
  pivotTol?: number;
  /**
   * 'stop' (default): stop at the first small pivot (a `FactorFailure`).
   * 'reject': declare the row dependent (its column of L and its pivot are zeroed) and continue;
   *   the coefficients expressing it over the earlier independent rows are recorded.
   * 'indefinite': accept negative pivots of significant size (|d_k| > tol·|a_kk|), stop at tiny ones.
   */
  onSmallPivot?: 'stop' | 'reject' | 'indefinite';
  /**
   * Write L and D into buffers kept in the Symbolic instead of new arrays ('stop' and 'indefinite'
   * modes): the Factor returned is then only valid until the next `reuse` factorisation with the same
   * Symbolic. For callers that drop the Factor before that (SymmetricSolver's sparse path). Default false.
   */
  reuse?: boolean;
}

/** A factorisation that stopped: `reason` 'singular' (a pivot ≤ tol·|a_kk|) or 'indefinite' (a significantly negative one). */
export interface FactorFailure extends Failure {
  /** Elimination step (permuted numbering) of the pivot that stopped it. */
  step: number;
}

export interface DependentPivot {
  /** Elimination step (permuted numbering). */
  step: number;
  /** The row k (original numbering) = Σ coefficients[t]·row rows[t] (original numbering). */
  row: number;
  rows: Int32Array;
  coefficients: Float64Array;
}

/** A complete LDLᵀ factor (possibly with rejected pivots in 'reject' mode). */
export class Factor {
  readonly ok = true;

  constructor(
    readonly symbolic: Symbolic,
    /** Row indices of L by column (permuted numbering), strictly below the diagonal. */
    readonly Li: Int32Array,
    readonly Lx: Float64Array,
    /** Pivots D (permuted numbering); 0 for rejected rows. */
    readonly D: Float64Array,
    /** Rejected (dependent) pivots, in elimination order ('reject' mode). */
    readonly dependent: DependentPivot[],
    /** Number of negative pivots accepted ('indefinite' mode). */
    readonly negativePivots: number,
    /** min_k d_k / |a_kk| over accepted pivots. */
    readonly minPivotRatio: number,
  ) {}

  get n(): number {
    return this.symbolic.n;
  }

  /**
   * x = (L·D·Lᵀ)⁻¹·b in the original numbering. Rejected pivots are treated as 1/0 := 0, which
   * gives the basic solution (dependent unknowns set to 0) of the independent subsystem.
   */
  solve(b: ArrayLike<number>, out?: Float64Array): Float64Array {
    const n = this.n;
    const { perm, Lp } = this.symbolic;
    const { Li, Lx, D } = this;
    const x = out ?? new Float64Array(n);
    // Natural order: work in x directly; otherwise in a reused work vector.
    // The work vector is the Symbolic's: it is filled from b and emptied into x within this call.
    const y = perm ? (this.symbolic.solveWork ??= new Float64Array(n)) : x;
    if (perm) for (let k = 0; k < n; k++) y[k] = b[perm[k]];
    else if (y !== b) for (let k = 0; k < n; k++) y[k] = b[k];
    for (let j = 0; j < n; j++) {
      const yj = y[j];
      if (yj === 0) continue;
      for (let p = Lp[j], e = Lp[j + 1]; p < e; p++) y[Li[p]] -= Lx[p] * yj;
    }
    // Diagonal and backward solves in one sweep: y[j] is not touched by the backward solve before step j.
    for (let j = n - 1; j >= 0; j--) {
      const d = D[j];
      let s = d !== 0 ? y[j] / d : 0;
      for (let p = Lp[j], e = Lp[j + 1]; p < e; p++) s -= Lx[p] * y[Li[p]];
      y[j] = s;
    }
    if (perm) for (let k = 0; k < n; k++) x[perm[k]] = y[k];
    return x;
  }
}

/** An all-zero rejection mask (no row is rejected outside 'reject' mode); shared, never written. */
let noRejected = new Uint8Array(0);
function NO_REJECTED(n: number): Uint8Array {
  if (noRejected.length < n) noRejected = new Uint8Array(n);
  return noRejected;
}

/**
 * Numeric LDLᵀ factorisation of A (full symmetric CSR with the pattern analysed in `symbolic`).
 * In 'reject' mode it always completes; otherwise a small pivot stops it (a `FactorFailure`).
 */
export function factor(A: CsrMatrix, symbolic: Symbolic, opts: FactorOptions & { onSmallPivot: 'reject' }): Factor;
export function factor(A: CsrMatrix, symbolic: Symbolic, opts?: FactorOptions): Factor | FactorFailure;
export function factor(A: CsrMatrix, symbolic: Symbolic, opts: FactorOptions = {}): Factor | FactorFailure {
  const n = symbolic.n;
  if (A.rows !== n || A.cols !== n) throw new RangeError('factor: size differs from the symbolic analysis');
  const shift = opts.shift ?? 0;
  const tol = opts.pivotTol ?? 1e-10;
  const mode = opts.onSmallPivot ?? 'stop';
  if (mode !== 'reject' && A.rowPtr[n] === symbolic.rowPtr[n]) return factorPlanned(A, symbolic, shift, tol, mode, opts.reuse === true);
  const { perm, pinv, parent, Lp } = symbolic;
  const { rowPtr, colIdx, values } = A;
  const lnz = symbolic.lnz;
  const Li = new Int32Array(lnz);
  const Lx = new Float64Array(lnz);
  const D = new Float64Array(n);
  // Y is left all zero by every completed row; flag[i] ≤ k holds for earlier steps only, so a stale
  // flag from an earlier factorisation (all < n) is reset below per row; fill is cleared here.
  const work = (symbolic.work ??= { Y: new Float64Array(n), pattern: new Int32Array(n), flag: new Int32Array(n), fill: new Int32Array(n) });
  const { Y, pattern, flag, fill } = work; // fill: entries stored so far in each column
  Y.fill(0);
  flag.fill(-1);
  fill.fill(0);
  const rejected = mode === 'reject' ? new Uint8Array(n) : NO_REJECTED(n);
  const dependent: DependentPivot[] = [];
  let negativePivots = 0;
  let minRatio = Infinity;

  for (let k = 0; k < n; k++) {
    Y[k] = 0;
    let top = n;
    flag[k] = k;
    const kk = perm ? perm[k] : k;
    let akk = shift;
    for (let p = rowPtr[kk]; p < rowPtr[kk + 1]; p++) {
      let i = pinv ? pinv[colIdx[p]] : colIdx[p];
      if (i > k) continue;
      Y[i] += values[p];
      if (i === k) {
        akk += values[p];
        continue;
      }
      let len = 0;
      for (; flag[i] !== k; i = parent[i]) {
        pattern[len++] = i;
        flag[i] = k;
      }
      while (len > 0) pattern[--top] = pattern[--len];
    }
    let dk = Y[k] + shift;
    Y[k] = 0;
    const top0 = top;
    for (; top < n; top++) {
      const i = pattern[top];
      const yi = Y[i];
      Y[i] = 0;
      const p2 = Lp[i] + fill[i];
      for (let p = Lp[i]; p < p2; p++) Y[Li[p]] -= Lx[p] * yi;
      const lki = rejected[i] ? 0 : yi / D[i];
      dk -= lki * yi;
      Li[p2] = k;
      Lx[p2] = lki;
      fill[i]++;
    }
    const scale = Math.abs(akk);
    const small = mode === 'indefinite' ? Math.abs(dk) <= tol * scale : dk <= tol * scale;
    if (!small) {
      D[k] = dk;
      if (dk < 0) negativePivots++;
      if (scale > 0) minRatio = Math.min(minRatio, dk / scale);
      continue;
    }
    if (mode === 'reject') {
      rejected[k] = 1;
      D[k] = 0;
      dependent.push(dependencyOf(k, top0, n, pattern, Lp, Li, Lx, fill, rejected, perm));
      continue;
    }
    const indefinite = dk < 0 && Math.abs(dk) > tol * scale;
    const row = perm ? perm[k] : k;
    return {
      ...failure(
        indefinite ? 'indefinite' : 'singular',
        indefinite ? `pivot ${k + 1} of ${n} (row ${row}) is negative: ${dk}` : `pivot ${k + 1} of ${n} (row ${row}) is ${dk}, at most ${tol}·|a_kk| = ${tol * scale}`,
      ),
      step: k,
    };
  }
  return new Factor(symbolic, Li, Lx, D, dependent, negativePivots, minRatio);
}

/**
 * Row k was rejected: its entries l_ki (just appended to columns i ∈ pattern[top0..n)) satisfy
 * L_II·D_II·l = A_Ik, so the coefficients c with A_kI = Σ c_i A_iI solve L_IIᵀ·c = l.
 * Zeroes those entries of L (the row is removed from the factor) and returns the coefficients.
 */
function dependencyOf(
  k: number,
  top0: number,
  n: number,
  pattern: Int32Array,
  Lp: Int32Array,
  Li: Int32Array,
  Lx: Float64Array,
  fill: Int32Array,
  rejected: Uint8Array,
  perm: Int32Array | null,
): DependentPivot {
  // Gather l (sparse) and clear row k from L.
  const c = new Map<number, number>();
  let maxI = -1;
  for (let t = top0; t < n; t++) {
    const i = pattern[t];
    const p = Lp[i] + fill[i] - 1; // row k is the last entry appended to column i
    const v = Lx[p];
    Lx[p] = 0;
    if (v !== 0 && !rejected[i]) {
      c.set(i, v);
      if (i > maxI) maxI = i;
    }
  }
  const rows: number[] = [];
  const coefs: number[] = [];
  if (maxI >= 0) {
    // Back substitution Lᵀc = l over steps maxI..0 (columns only hold rows < k so far, plus zeros).
    const x = new Float64Array(maxI + 1);
    for (const [i, v] of c) x[i] = v;
    for (let j = maxI; j >= 0; j--) {
      if (rejected[j]) {
        x[j] = 0;
        continue;
      }
      let s = x[j];
      for (let p = Lp[j], e = Lp[j] + fill[j]; p < e; p++) {
        const r = Li[p];
        if (r <= maxI) s -= Lx[p] * x[r];
      }
      x[j] = s;
    }
    for (let j = 0; j <= maxI; j++) {
      if (x[j] !== 0) {
        rows.push(perm ? perm[j] : j);
        coefs.push(x[j]);
      }
    }
  }
  return { step: k, row: perm ? perm[k] : k, rows: Int32Array.from(rows), coefficients: Float64Array.from(coefs) };
}

/** The numeric plan of a Symbolic (built at its first planned factorisation; see NumericPlan). */
function planOf(s: Symbolic): NumericPlan {
  if (s.plan) return s.plan;
  const { n, perm, pinv, parent, Lp, lnz, rowPtr, colIdx } = s;
  const nnz = rowPtr[n];
  const Li = new Int32Array(lnz);
  const rowCol = new Int32Array(lnz);
  const rowPos = new Int32Array(lnz);
  const rp = new Int32Array(n + 1);
  const aPtr = new Int32Array(n + 1);
  const aSrc = new Int32Array(nnz);
  const aDst = new Int32Array(nnz);
  const flag = new Int32Array(n).fill(-1);
  const fill = new Int32Array(n);
  const pattern = new Int32Array(n);
  let t = 0;
  let q = 0;
  for (let k = 0; k < n; k++) {
    let top = n;
    flag[k] = k;
    const kk = perm ? perm[k] : k;
    for (let p = rowPtr[kk]; p < rowPtr[kk + 1]; p++) {
      let i = pinv ? pinv[colIdx[p]] : colIdx[p];
      if (i > k) continue;
      aSrc[q] = p;
      aDst[q++] = i;
      if (i === k) continue;
      let len = 0;
      for (; flag[i] !== k; i = parent[i]) {
        pattern[len++] = i;
        flag[i] = k;
      }
      while (len > 0) pattern[--top] = pattern[--len];
    }
    for (; top < n; top++) {
      const i = pattern[top];
      const pos = Lp[i] + fill[i]++;
      Li[pos] = k;
      rowCol[t] = i;
      rowPos[t++] = pos;
    }
    rp[k + 1] = t;
    aPtr[k + 1] = q;
  }
  s.plan = { Li, aPtr, aSrc: aSrc.slice(0, q), aDst: aDst.slice(0, q), rowPtr: rp, rowCol, rowPos, Y: new Float64Array(n) };
  return s.plan;
}

/**
 * `factor` in the 'stop' / 'indefinite' modes through the Symbolic's numeric plan: the same
 * operations in the same order as the general path, without its etree walks and index arrays.
 */
function factorPlanned(A: CsrMatrix, s: Symbolic, shift: number, tol: number, mode: 'stop' | 'indefinite', reuse: boolean): Factor | FactorFailure {
  const n = s.n;
  const plan = planOf(s);
  const { Li, aPtr, aSrc, aDst, rowPtr, rowCol, rowPos, Y } = plan;
  const { Lp, lnz, perm } = s;
  const values = A.values;
  // Reuse: every position of Lx and D is written before a complete factor is returned (rowPos covers 0..lnz).
  const Lx = reuse ? (plan.Lx ??= new Float64Array(lnz)) : new Float64Array(lnz);
  const D = reuse ? (plan.D ??= new Float64Array(n)) : new Float64Array(n);
  const indefinite = mode === 'indefinite';
  let negativePivots = 0;
  let minRatio = Infinity;
  for (let k = 0; k < n; k++) {
    for (let q = aPtr[k], e = aPtr[k + 1]; q < e; q++) Y[aDst[q]] += values[aSrc[q]];
    let dk = Y[k] + shift;
    const akk = dk; // = shift + a_kk (0 when A stores no diagonal entry), as the general path's
    Y[k] = 0;
    for (let t = rowPtr[k], e = rowPtr[k + 1]; t < e; t++) {
      const i = rowCol[t];
      const pos = rowPos[t];
      const yi = Y[i];
      Y[i] = 0;
      for (let p = Lp[i]; p < pos; p++) Y[Li[p]] -= Lx[p] * yi;
      const lki = yi / D[i];
      dk -= lki * yi;
      Lx[pos] = lki;
    }
    const scale = Math.abs(akk);
    const small = indefinite ? Math.abs(dk) <= tol * scale : dk <= tol * scale;
    if (!small) {
      D[k] = dk;
      if (dk < 0) negativePivots++;
      if (scale > 0) minRatio = Math.min(minRatio, dk / scale);
      continue;
    }
    Y.fill(0); // a stopped factorisation may leave entries of later rows in Y
    const neg = dk < 0 && Math.abs(dk) > tol * scale;
    const row = perm ? perm[k] : k;
    return {
      ...failure(
        neg ? 'indefinite' : 'singular',
        neg ? `pivot ${k + 1} of ${n} (row ${row}) is negative: ${dk}` : `pivot ${k + 1} of ${n} (row ${row}) is ${dk}, at most ${tol}·|a_kk| = ${tol * scale}`,
      ),
      step: k,
    };
  }
  return new Factor(s, Li, Lx, D, [], negativePivots, minRatio);
}
