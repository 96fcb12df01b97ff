// Dependent-row detection in file order and the exact minimum-norm solution of singular systems.
//
// Rows are eliminated in their natural (file) order with an LDLᵀ factorisation that rejects a row
// whose pivot falls below tol·(its diagonal): that row lies (numerically) in the span of the earlier
// independent rows, so of two identical rows the LATER one is named. With A = J·M⁻¹·Jᵀ (M⁻¹ SPD)
// the dependencies among rows of A are exactly those among rows of J.
// The coefficients c (row_k = Σ c_i row_i) solve A_II·c = A_Ik, obtained from the factor itself.
import { failure, type CsrMatrix, type DependentRow, type Failure } from './contracts';
import { type Factor, type Symbolic, analyze, factor } from './cholesky';
import { csrMulVec, csrNorm1 } from './sparse';

export interface RedundancyOptions {
  /** Relative pivot tolerance (pivot ≤ tol·a_kk ⇒ dependent). Default 1e-10. */
  pivotTol?: number;
  /**
   * Expected rank (e.g. from the exact spectrum): other tolerances are tried so that the number of
   * dependent rows equals n − targetRank, when possible.
   */
  targetRank?: number;
  /** Added to the diagonal before factorising (to analyse A + shift·I). Default 0. */
  shift?: number;
  /** A natural-order symbolic analysis of A's pattern to reuse. */
  symbolic?: Symbolic;
  /** Relative cut for reported coefficients (|c| < dropTol·max|c| dropped). Default 1e-12. */
  dropTol?: number;
}

export interface RedundancyResult {
  /** Dependent rows in file order, with coefficients over earlier independent rows. */
  dependent: DependentRow[];
  /** n − number of dependent rows. */
  rank: number;
  /** The in-order factor with dependent pivots rejected (usable for basic solutions). */
  factor: Factor;
  /** The pivot tolerance finally used. */
  pivotTol: number;
  /** Null-space basis, one sparse vector per dependent row: n_k = e_k − Σ c_i e_i (all coefficients). */
  nullBasis: SparseVec[];
}

export interface SparseVec {
  idx: Int32Array;
  val: Float64Array;
}

const TOL_LADDER = [1e-10, 1e-12, 1e-8, 1e-13, 1e-14, 1e-6, 1e-15, 1e-4];

/**
 * Dependent rows of a symmetric PSD matrix, in file order.
 * The rejecting factorisation may run in any elimination order (e.g. AMD, given through
 * `symbolic`); when the order is not the natural one, the null-space basis it yields is reduced to
 * file order (a small row-echelon reduction from the last column backwards), so that of two
 * identical rows the later one is still the one named.
 */
export function findDependentRows(A: CsrMatrix, opts: RedundancyOptions = {}): RedundancyResult {
  const n = A.rows;
  const sym = opts.symbolic ?? analyze(A, { ordering: 'auto' });
  const dropTol = opts.dropTol ?? 1e-12;
  const run = (s: Symbolic, tol: number) => factor(A, s, { shift: opts.shift ?? 0, pivotTol: tol, onSmallPivot: 'reject' });
  let tol = opts.pivotTol ?? 1e-10;
  let F = run(sym, tol);
  if (opts.targetRank !== undefined && n - F.dependent.length !== opts.targetRank) {
    const want = n - opts.targetRank;
    let best = F;
    let bestTol = tol;
    for (const t of TOL_LADDER) {
      if (t === tol) continue;
      const G = run(sym, t);
      if (Math.abs(G.dependent.length - want) < Math.abs(best.dependent.length - want)) {
        best = G;
        bestTol = t;
      }
      if (G.dependent.length === want) break;
    }
    F = best;
    tol = bestTol;
  }
  const nullBasis: SparseVec[] = F.dependent.map((d) => {
    const idx = new Int32Array(d.rows.length + 1);
    const val = new Float64Array(d.rows.length + 1);
    idx[0] = d.row;
    val[0] = 1;
    for (let t = 0; t < d.rows.length; t++) {
      idx[t + 1] = d.rows[t];
      val[t + 1] = -d.coefficients[t];
    }
    return { idx, val };
  });
  let deps: { row: number; rows: ArrayLike<number>; coefficients: ArrayLike<number> }[] = F.dependent;
  if (sym.perm !== null && deps.length > 0) {
    const remapped = fileOrderDependencies(nullBasis);
    if (remapped.ok) deps = remapped.dependencies;
    else {
      // The dense reduction failed (too large, or a degenerate basis): redo the factorisation in file order.
      const nat = analyze(A, { ordering: 'natural' });
      const G = run(nat, tol);
      deps = G.dependent;
    }
  }
  const dependent: DependentRow[] = [];
  for (const d of deps) {
    let mx = 0;
    for (let t = 0; t < d.coefficients.length; t++) mx = Math.max(mx, Math.abs(d.coefficients[t]));
    const dependsOn: { row: number; coefficient: number }[] = [];
    for (let t = 0; t < d.rows.length; t++) {
      const c = d.coefficients[t];
      if (Math.abs(c) >= dropTol * mx && c !== 0) dependsOn.push({ row: d.rows[t], coefficient: c });
    }
    dependsOn.sort((a, b) => a.row - b.row);
    dependent.push({ row: d.row, dependsOn });
  }
  dependent.sort((a, b) => a.row - b.row);
  return { dependent, rank: n - dependent.length, factor: F, pivotTol: tol, nullBasis };
}

/**
 * Reduces a null-space basis to the file-order form: Gauss–Jordan elimination on the basis
 * vectors (as rows), taking pivot columns from the LAST index backwards. Pivot columns are exactly
 * the rows that depend on earlier rows; the reduced vector of pivot k is e_k − Σ c_j e_j over
 * non-pivot (independent) j < k. Fails ('too-large') when the dense work would be too large, and
 * ('singular') when the basis vectors are numerically dependent.
 */
function fileOrderDependencies(basis: SparseVec[]): { ok: true; dependencies: { row: number; rows: Int32Array; coefficients: Float64Array }[] } | Failure {
  const r = basis.length;
  const colSet = new Set<number>();
  for (const v of basis) for (const i of v.idx) colSet.add(i);
  const cols = Int32Array.from(colSet).sort().reverse(); // descending file order
  const m = cols.length;
  if (r * r * m > 2e8 || r * m > 2e7) return failure('too-large', `a ${r}×${m} dense reduction of the null-space basis`);
  const pos = new Map<number, number>();
  cols.forEach((c, t) => pos.set(c, t));
  const M = new Float64Array(r * m);
  for (let a = 0; a < r; a++) {
    const v = basis[a];
    let mx = 0;
    for (const x of v.val) mx = Math.max(mx, Math.abs(x));
    for (let t = 0; t < v.idx.length; t++) M[a * m + pos.get(v.idx[t])!] += v.val[t] / mx;
  }
  const used = new Uint8Array(r);
  const pivotRow: number[] = [];
  const pivotCol: number[] = [];
  const isPivotCol = new Uint8Array(m);
  const tol = 1e-9;
  for (let t = 0; t < m && pivotRow.length < r; t++) {
    let best = -1;
    let bv = tol;
    for (let a = 0; a < r; a++) {
      if (used[a]) continue;
      const v = Math.abs(M[a * m + t]);
      if (v > bv) {
        bv = v;
        best = a;
      }
    }
    if (best < 0) continue;
    used[best] = 1;
    isPivotCol[t] = 1;
    pivotRow.push(best);
    pivotCol.push(t);
    const inv = 1 / M[best * m + t];
    for (let u = 0; u < m; u++) M[best * m + u] *= inv;
    M[best * m + t] = 1;
    for (let a = 0; a < r; a++) {
      if (a === best) continue;
      const f = M[a * m + t];
      if (f === 0) continue;
      for (let u = 0; u < m; u++) M[a * m + u] -= f * M[best * m + u];
      M[a * m + t] = 0;
    }
  }
  if (pivotRow.length < r) return failure('singular', `the null-space basis has rank ${pivotRow.length} < ${r}`);
  const out: { row: number; rows: Int32Array; coefficients: Float64Array }[] = [];
  for (let q = 0; q < r; q++) {
    const a = pivotRow[q];
    const t0 = pivotCol[q];
    const rows: number[] = [];
    const coefs: number[] = [];
    // Non-pivot columns after t0 in the descending list have smaller file index.
    for (let u = t0 + 1; u < m; u++) {
      const v = M[a * m + u];
      if (!isPivotCol[u] && v !== 0) {
        rows.push(cols[u]);
        coefs.push(-v);
      }
    }
    out.push({ row: cols[t0], rows: Int32Array.from(rows), coefficients: Float64Array.from(coefs) });
  }
  return { ok: true, dependencies: out };
}

/**
 * Orthogonal projector onto span(N) for sparse columns N (the null space of a symmetric A):
 * P·v = N·(NᵀN)⁻¹·Nᵀ·v, with a dense Cholesky of the small Gram matrix NᵀN.
 */
export class NullSpaceProjector {
  private readonly r: number;
  private readonly L: Float64Array; // Cholesky of G = NᵀN (r×r, lower, row-major)

  constructor(
    private readonly basis: SparseVec[],
    private readonly n: number,
  ) {
    const r = basis.length;
    this.r = r;
    const G = new Float64Array(r * r);
    const w = new Float64Array(n);
    for (let a = 0; a < r; a++) {
      const va = basis[a];
      for (let t = 0; t < va.idx.length; t++) w[va.idx[t]] += va.val[t];
      for (let b = 0; b <= a; b++) {
        const vb = basis[b];
        let s = 0;
        for (let t = 0; t < vb.idx.length; t++) s += w[vb.idx[t]] * vb.val[t];
        G[a * r + b] = s;
        G[b * r + a] = s;
      }
      for (let t = 0; t < va.idx.length; t++) w[va.idx[t]] = 0;
    }
    // Dense Cholesky (G is SPD: the columns are independent, each has a distinct leading e_k).
    for (let j = 0; j < r; j++) {
      let d = G[j * r + j];
      for (let k = 0; k < j; k++) d -= G[j * r + k] * G[j * r + k];
      d = Math.sqrt(Math.max(d, 1e-300));
      G[j * r + j] = d;
      for (let i = j + 1; i < r; i++) {
        let s = G[i * r + j];
        for (let k = 0; k < j; k++) s -= G[i * r + k] * G[j * r + k];
        G[i * r + j] = s / d;
      }
    }
    this.L = G;
  }

  get dimension(): number {
    return this.r;
  }

  /** P·v (the component of v in the null space). */
  project(v: ArrayLike<number>): Float64Array {
    const { r, L, basis } = this;
    const out = new Float64Array(this.n);
    if (r === 0) return out;
    const y = new Float64Array(r);
    for (let a = 0; a < r; a++) {
      const va = basis[a];
      let s = 0;
      for (let t = 0; t < va.idx.length; t++) s += va.val[t] * v[va.idx[t]];
      y[a] = s;
    }
    for (let i = 0; i < r; i++) {
      let s = y[i];
      for (let k = 0; k < i; k++) s -= L[i * r + k] * y[k];
      y[i] = s / L[i * r + i];
    }
    for (let i = r - 1; i >= 0; i--) {
      let s = y[i];
      for (let k = i + 1; k < r; k++) s -= L[k * r + i] * y[k];
      y[i] = s / L[i * r + i];
    }
    for (let a = 0; a < r; a++) {
      const va = basis[a];
      for (let t = 0; t < va.idx.length; t++) out[va.idx[t]] += va.val[t] * y[a];
    }
    return out;
  }
}

export interface MinNormResult {
  x: Float64Array;
  /** ‖P_null·b‖ — the part of b outside range(A) (0 when consistent). */
  nullComponent: number;
  projector: NullSpaceProjector;
}

/**
 * Minimum-norm least-squares solution of the singular symmetric system A·x ≈ b from the in-order
 * factor with rejected rows: b is projected onto range(A) = null(A)^⊥, the basic solution of the
 * independent subsystem is taken, and its null-space component is removed.
 */
export function minNormSolve(red: RedundancyResult, b: ArrayLike<number>, n: number): MinNormResult {
  const P = new NullSpaceProjector(red.nullBasis, n);
  const pb = P.project(b);
  const b2 = new Float64Array(n);
  let nc = 0;
  for (let i = 0; i < n; i++) {
    b2[i] = b[i] - pb[i];
    nc += pb[i] * pb[i];
  }
  const x0 = red.factor.solve(b2);
  const px = P.project(x0);
  for (let i = 0; i < n; i++) x0[i] -= px[i];
  return { x: x0, nullComponent: Math.sqrt(nc), projector: P };
}

/** Is b (numerically) in range(A)? ‖A·x − b‖ ≤ relTol·(‖b‖ + ‖A‖·‖x‖) for the min-norm x. */
export function isConsistent(A: CsrMatrix, x: Float64Array, b: ArrayLike<number>, normA?: number, relTol = 1e-9): boolean {
  const r = csrMulVec(A, x);
  let rn = 0;
  let bn = 0;
  let xn = 0;
  for (let i = 0; i < A.rows; i++) {
    rn += (r[i] - b[i]) ** 2;
    bn += b[i] * b[i];
    xn += x[i] * x[i];
  }
  const nA = normA ?? csrNorm1(A);
  return Math.sqrt(rn) <= relTol * (Math.sqrt(bn) + nA * Math.sqrt(xn));
}
