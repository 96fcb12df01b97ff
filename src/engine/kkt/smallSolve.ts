// The sparse Cholesky path of linalg/solve.ts (`SymmetricSolver.solveSparse`, method cholesky) for
// small islands, in skyline storage (at a few dozen rows the per-step cost is fixed
// overhead — index indirection, the per-call pattern comparison — more than arithmetic).
//
// Same results, bit for bit (up to the sign of a zero): it is used only for patterns where the
// reference factorisation is in natural order (what `analyze(A, 'auto')` chooses) and visits the
// columns of every row of L in increasing order (checked once per pattern: chains, trees numbered
// from the root). Then each entry of L, D and x is the same sequence of floating-point operations
// as in cholesky.ts (up-looking LDLᵀ, `Factor.solve`), plus subtractions of exact zeros for the
// structural zeros inside the envelope; the refinement, the condition estimate (with the same warm
// start) and ‖A‖₁ are solve.ts's. Whatever it does not cover (another method, compliance with the
// rank analysis, the scaled κ, a non-finite input, a pivot that stops the factorisation) returns
// undefined and the caller uses the reference solver, which reproduces the failure or the fallback.
import { analyze } from '../linalg/cholesky';
import { type CondestWork, estimateInverseNorm1, highamVector } from '../linalg/condest';
import type { CsrMatrix, SymmetricSolveResult } from '../linalg/contracts';
import { residualInto as residual, type SolverOptions } from '../linalg/solve';
import { isFiniteVec, norm2 } from '../core/math';
import { solveChain3, solveChain3Three } from '../linalg/chain3';

/** Islands up to this many rows may take the skyline path. */
export const SMALL_MAX_ROWS = 96;
/** solve.ts DEFAULT_PIVOT_TOL: relative pivot below which the sparse path stops (a dependent row). */
const PIVOT_TOL = 1e-10;

/** Scratch of one call (never returned, except `x` when the caller lends it). */
interface Work {
  r: Float64Array;
  r2: Float64Array;
  dx: Float64Array;
  x2: Float64Array;
  est: Float64Array;
  xi: Float64Array;
  buf: Float64Array;
  /** e_start, A⁻¹·e_start and A⁻¹·alt of the condition estimate, solved beside x (`solveChain3Three`). */
  ej: Float64Array;
  yj: Float64Array;
  yAlt: Float64Array;
}

/**
 * Skyline LDLᵀ solver of one pattern (the rowPtr/colIdx arrays it was built for, compared by
 * identity: the world's A pattern, never written after `buildWorld`). `SmallSolver.of` says whether
 * the pattern qualifies.
 */
export class SmallSolver {
  /** First column of row k of L (the envelope: L[k][first[k]..k−1]); lastRow[j]: the last row whose envelope reaches column j. */
  private readonly first: Int32Array;
  private readonly lastRow: Int32Array;
  /** Row k of L (unit lower triangle) from column first[k] to k is L[off[k] + j] (the diagonal slot is scratch). */
  private readonly off: Int32Array;
  private readonly L: Float64Array;
  /** Every row j+1..lastRow[j] has column j inside its envelope (first[i] ≤ j), for every j. */
  private readonly columnsFull: boolean;
  /** The envelope of a chain of 3-row blocks (ball chains): `solveChain3` unrolls the solves. */
  private readonly chain3: boolean;
  /**
   * Every row k of A is the consecutive columns first[k], first[k] + 1, … up to at least k (ball
   * chains): its lower part fills row k's envelope exactly, and no column index needs to be read.
   */
  private readonly rowRuns: boolean;
  private readonly D: Float64Array;
  private readonly w: Work;
  /** Where the condition estimate of the last matrix ended (solve.ts keeps it in the Symbolic: Symbolic.condStart). */
  private condStart = -1;
  private readonly condWork: CondestWork;
  private readonly condSolve: (v: Float64Array) => Float64Array;
  /** ‖A‖₁ of the matrix the last completed `factor` factorised. */
  private normA = NaN;

  private constructor(
    readonly rowPtr: Int32Array,
    readonly colIdx: Int32Array,
    first: Int32Array,
  ) {
    const n = first.length;
    this.first = first;
    this.lastRow = new Int32Array(n);
    for (let j = 0; j < n; j++) this.lastRow[j] = j;
    for (let i = 0; i < n; i++) for (let j = first[i]; j < i; j++) this.lastRow[j] = Math.max(this.lastRow[j], i);
    // row k occupies k − first[k] + 1 slots, addressed by column: L[off[k] + j], first[k] ≤ j ≤ k
    this.off = new Int32Array(n);
    let size = 0;
    for (let k = 0; k < n; k++) {
      this.off[k] = size - first[k];
      size += k - first[k] + 1;
    }
    this.L = new Float64Array(size);
    let full = true;
    for (let j = 0; j < n && full; j++) for (let i = j + 1; i <= this.lastRow[j]; i++) if (first[i] > j) full = false;
    this.columnsFull = full;
    let chain3 = n % 3 === 0;
    for (let k = 0; k < n && chain3; k++) if (first[k] !== (k < 3 ? 0 : 3 * Math.floor(k / 3) - 3)) chain3 = false;
    this.chain3 = chain3;
    // A's rows as runs of consecutive columns, each from its envelope's first column past the diagonal
    let runs = true;
    for (let k = 0; k < n && runs; k++) {
      const p0 = rowPtr[k], e = rowPtr[k + 1];
      if (e - p0 < k - first[k] + 1 || colIdx[p0] !== first[k]) runs = false;
      for (let p = p0 + 1; p < e && runs; p++) if (colIdx[p] !== colIdx[p - 1] + 1) runs = false;
    }
    this.rowRuns = runs;
    this.D = new Float64Array(n);
    const v = () => new Float64Array(n);
    this.w = { r: v(), r2: v(), dx: v(), x2: v(), est: v(), xi: v(), buf: v(), ej: v(), yj: v(), yAlt: v() };
    // the condition estimate's scratch, its solve and Higham's vector, once per solver (not per call)
    const buf = this.w.dx;
    this.condWork = { x: this.w.est, xi: this.w.xi, start: -1, alt: highamVector(n) };
    this.condSolve = (v) => this.solveInto(v, buf);
  }

  /**
   * A solver for A's pattern, or null when the skyline path would not reproduce the reference (an
   * ordering other than natural, a row of L visited out of order) or would cost clearly more (an
   * envelope much larger than L).
   */
  static of(A: CsrMatrix): SmallSolver | null {
    const n = A.rows;
    if (n === 0 || n > SMALL_MAX_ROWS || A.cols !== n) return null;
    const sym = analyze(A, { ordering: 'auto' });
    if (sym.ordering !== 'natural' || sym.perm) return null;
    // the visiting order of cholesky.ts (planOf / factor): per row k, the etree paths from each
    // entry of A's row (CSR order) pushed on a stack; the columns are then visited top to bottom
    const { rowPtr, colIdx } = A;
    const parent = sym.parent;
    const flag = new Int32Array(n).fill(-1);
    const pattern = new Int32Array(n);
    const first = new Int32Array(n);
    let envelope = 0;
    for (let k = 0; k < n; k++) {
      let top = n;
      flag[k] = k;
      for (let p = rowPtr[k]; p < rowPtr[k + 1]; p++) {
        let i = colIdx[p];
        if (i >= k) continue;
        let len = 0;
        for (; flag[i] !== k; i = parent[i]) {
          pattern[len++] = i;
          flag[i] = k;
        }
        while (len > 0) pattern[--top] = pattern[--len];
      }
      for (let t = top + 1; t < n; t++) if (pattern[t] <= pattern[t - 1]) return null;
      first[k] = top < n ? pattern[top] : k;
      envelope += k - first[k];
    }
    if (envelope > 2 * sym.lnz + n) return null;
    return new SmallSolver(A.rowPtr, A.colIdx, first);
  }

  /**
   * LDLᵀ of A + shift·I (cholesky.ts factorPlanned, mode 'stop'); false when a pivot stops it. When it
   * completes, `normA` is ‖A‖₁ (csrNorm1's value bit for bit, read off the same pass: see below).
   */
  private factor(A: CsrMatrix, shift: number): boolean {
    const n = A.rows;
    const { first, off, L, D } = this;
    const U = this.w.buf;
    const { rowPtr, colIdx, values } = A;
    // ‖A‖₁ = max column sum = max row sum, A being symmetric with mirrored entries bit for bit (the
    // caller's K, assembled so; the factorisation reads only A's lower triangle and so assumes it
    // anyway): row k's sum in column order adds |a_kj| = |a_jk| in the order csrNorm1's column sum of
    // column k adds them (rows ascending), so the same number without csrNorm1's scatter pass
    let norm = 0;
    for (let k = 0; k < n; k++) {
      const rk = off[k];
      const fk = first[k];
      let rowAbs = 0;
      if (this.rowRuns) {
        // entry p of the row is column fk + (p − p0), each envelope slot gets exactly one: 0 + a is the
        // reference's Y = 0, Y += a (the same operation), with no zero fill and no column index read
        const p0 = rowPtr[k], e = rowPtr[k + 1], pk = p0 + (k - fk), d = rk + fk - p0;
        let p = p0;
        for (; p <= pk; p++) {
          const a = values[p];
          rowAbs += Math.abs(a);
          L[d + p] = 0 + a;
        }
        for (; p < e; p++) rowAbs += Math.abs(values[p]);
      } else {
        for (let j = fk; j <= k; j++) L[rk + j] = 0;
        // the scatter of A's row k (Y[i] += a_ki from Y = 0)
        for (let p = rowPtr[k], e = rowPtr[k + 1]; p < e; p++) {
          const j = colIdx[p];
          const a = values[p];
          rowAbs += Math.abs(a);
          if (j <= k) L[rk + j] += a;
        }
      }
      // csrNorm1's max (s[j] > mx): NaN never wins there, so it does not here
      if (rowAbs > norm) norm = rowAbs;
      // u_kj = a_kj − Σ_{t<j} l_jt·u_kt (t increasing: the reference's visiting order), then l_kj = u_kj / d_j
      // and d_k −= l_kj·u_kj, j increasing as in the reference's second loop; u_kj is kept in U (the
      // later u_kj' read it) and l_kj goes into L at once, so one loop does both with the same operations
      let dk = L[rk + k] + shift;
      const akk = dk;
      if (this.chain3) {
        // d_k goes in and out through D[k] (a Float64Array slot: exact), not as an argument and a return
        // value, which V8 would box in a fresh heap number per row when the call is not inlined
        D[k] = dk;
        this.eliminateChain3(rk, fk, k - fk, k);
        dk = D[k];
      } else for (let j = fk; j < k; j++) {
        const rj = off[j];
        let s = L[rk + j];
        const fj = first[j];
        for (let t = fj > fk ? fj : fk; t < j; t++) s -= L[rj + t] * U[t];
        U[j] = s;
        const lki = s / D[j];
        dk -= lki * s;
        L[rk + j] = lki;
      }
      if (dk <= PIVOT_TOL * Math.abs(akk)) return false;
      D[k] = dk;
    }
    this.normA = norm;
    return true;
  }

  /**
   * The elimination of `factor` for row k of a `chain3` envelope: its columns are the window
   * p = first[k] .. p + len − 1 (len ≤ 5), and every column j of the window has first[j] ≤ p, so
   * u_kj = a_kj − Σ_{t=p}^{j−1} l_jt·u_kt over the window's earlier columns. Unrolled, with the u in
   * locals: each u, l and the updates of d_k are `factor`'s operations in its order. d_k is read from
   * and written back to D[k].
   */
  private eliminateChain3(rk: number, p: number, len: number, k: number): void {
    if (len === 0) return;
    const { off, L, D } = this;
    let dk = D[k];
    const u0 = L[rk + p];
    let l = u0 / D[p];
    dk -= l * u0;
    L[rk + p] = l;
    if (len === 1) {
      D[k] = dk;
      return;
    }
    let o = off[p + 1] + p;
    let u1 = L[rk + p + 1];
    u1 -= L[o] * u0;
    l = u1 / D[p + 1];
    dk -= l * u1;
    L[rk + p + 1] = l;
    if (len === 2) {
      D[k] = dk;
      return;
    }
    o = off[p + 2] + p;
    let u2 = L[rk + p + 2];
    u2 -= L[o] * u0;
    u2 -= L[o + 1] * u1;
    l = u2 / D[p + 2];
    dk -= l * u2;
    L[rk + p + 2] = l;
    if (len === 3) {
      D[k] = dk;
      return;
    }
    o = off[p + 3] + p;
    let u3 = L[rk + p + 3];
    u3 -= L[o] * u0;
    u3 -= L[o + 1] * u1;
    u3 -= L[o + 2] * u2;
    l = u3 / D[p + 3];
    dk -= l * u3;
    L[rk + p + 3] = l;
    if (len === 4) {
      D[k] = dk;
      return;
    }
    o = off[p + 4] + p;
    let u4 = L[rk + p + 4];
    u4 -= L[o] * u0;
    u4 -= L[o + 1] * u1;
    u4 -= L[o + 2] * u2;
    u4 -= L[o + 3] * u3;
    l = u4 / D[p + 4];
    dk -= l * u4;
    L[rk + p + 4] = l;
    D[k] = dk;
  }

  /** x = (L·D·Lᵀ)⁻¹·b (cholesky.ts Factor.solve in natural order; x may be b). */
  private solveInto(b: ArrayLike<number>, x: Float64Array): Float64Array {
    if (this.chain3) return solveChain3(this.off, this.L, this.D, b, x);
    const n = this.D.length;
    const { first, lastRow, off, L, D } = this;
    for (let k = 0; k < n; k++) {
      const rk = off[k];
      let s = b[k];
      for (let t = first[k]; t < k; t++) s -= L[rk + t] * x[t];
      x[k] = s;
    }
    // column j of L: rows j+1..lastRow[j], each inside its envelope or an exact zero outside it (skipped:
    // the reference has no such entry, and subtracting 0·x changes nothing)
    if (this.columnsFull) {
      // no row outside its envelope in any column's range (chains): the same terms without the test
      for (let j = n - 1; j >= 0; j--) {
        let s = x[j] / D[j];
        for (let i = j + 1, e = lastRow[j]; i <= e; i++) s -= L[off[i] + j] * x[i];
        x[j] = s;
      }
      return x;
    }
    for (let j = n - 1; j >= 0; j--) {
      let s = x[j] / D[j];
      for (let i = j + 1, e = lastRow[j]; i <= e; i++) if (first[i] <= j) s -= L[off[i] + j] * x[i];
      x[j] = s;
    }
    return x;
  }

  /** solve.ts `residualInto` (its operations in its order), reading no column index when A's rows are runs. */
  private residual(A: CsrMatrix, shift: number, x: Float64Array, b: ArrayLike<number>, r: Float64Array): number {
    if (!this.rowRuns) return residual(A, shift, x, b, r);
    const n = A.rows;
    const { rowPtr, colIdx, values } = A;
    let s = 0;
    for (let i = 0; i < n; i++) {
      let ax = 0;
      const p0 = rowPtr[i], d = colIdx[p0] - p0;
      for (let p = p0, e = rowPtr[i + 1]; p < e; p++) ax += values[p] * x[d + p];
      const ri = b[i] - ax - shift * x[i];
      r[i] = ri;
      s += ri * ri;
    }
    return Math.sqrt(s);
  }

  /** solve.ts `refine`: up to two refinement steps while the residual is above round-off level. */
  private refine(A: CsrMatrix, shift: number, x: Float64Array, b: ArrayLike<number>, scale: number): number {
    const w = this.w;
    let r = w.r;
    let spare = w.r2;
    let norm = this.residual(A, shift, x, b, r);
    const { dx, x2 } = w;
    for (let it = 0; it < 2 && norm > 1e-14 * scale; it++) {
      this.solveInto(r, dx);
      for (let i = 0; i < x.length; i++) x2[i] = x[i] + dx[i];
      const norm2nd = this.residual(A, shift, x2, b, spare);
      if (!(norm2nd < norm)) break;
      x.set(x2);
      const t = r;
      r = spare;
      spare = t;
      norm = norm2nd;
    }
    return norm;
  }

  /**
   * `SymmetricSolver.solve` on the sparse Cholesky path, or undefined when the reference must answer
   * (see the file's header). `out`: where x goes (a fresh array when not given).
   */
  solve(A: CsrMatrix, b: ArrayLike<number>, opts: SolverOptions, out?: Float64Array): SymmetricSolveResult | undefined {
    const n = A.rows;
    const c = opts.compliance ?? 0;
    const analysis = !opts.skipAnalysis;
    if (A.rowPtr !== this.rowPtr || A.colIdx !== this.colIdx || b.length !== n || A.values.length !== A.rowPtr[n]) return undefined;
    if (opts.method !== 'auto' && opts.method !== 'cholesky') return undefined;
    if (analysis && (n <= (opts.exactCondMaxRows ?? 1000) || c !== 0 || opts.wantScaledCond !== false)) return undefined;
    if (opts.pivotTol !== undefined && opts.pivotTol !== PIVOT_TOL) return undefined;
    const w = this.w;
    // the reference declines a non-finite ‖A‖₁ before factorising; here ‖A‖₁ comes out of the
    // factorisation (which stops or completes on any values, never throws): undefined either way
    // ‖b‖ and ‖x‖ (norm2: NaN or ∞ when an entry is) stand for the reference's finiteness tests of b
    // and x; an overflowing norm of finite entries also declines (the reference then answers: the
    // same result, only slower), so nothing this path returns differs
    const bn = norm2(b);
    if (!Number.isFinite(bn) || !Number.isFinite(c)) return undefined;
    if (!this.factor(A, c)) return undefined;
    const normA = this.normA;
    if (!Number.isFinite(normA)) return undefined;
    const normM = normA + Math.abs(c);
    const cw = this.condWork;
    // with a warm start, the condition estimate's first solve (A⁻¹e_start) and its last (A⁻¹·alt) have
    // right-hand sides known now: solved beside x in one pass (the same numbers as three solveChain3)
    const start = this.condStart;
    const three = analysis && this.chain3 && start >= 0 && start < n && cw.alt !== undefined && cw.alt.length === n;
    let x: Float64Array;
    if (three) {
      x = out ?? new Float64Array(n);
      const { ej, yj, yAlt } = w;
      ej.fill(0);
      ej[start] = 1;
      solveChain3Three(this.off, this.L, this.D, b, x, ej, yj, cw.alt!, yAlt);
    } else x = this.solveInto(b, out ?? new Float64Array(n));
    const xn = norm2(x);
    if (!Number.isFinite(xn)) return undefined;
    let residualNorm = this.refine(A, c, x, b, bn + normM * xn);
    if (!isFiniteVec(x)) return undefined;
    if (!Number.isFinite(residualNorm)) residualNorm = this.residual(A, c, x, b, w.r);
    let cond = NaN;
    if (analysis) {
      cw.start = start;
      cw.startSolved = three ? w.yj : undefined;
      cw.altSolved = three ? w.yAlt : undefined;
      cond = normM * estimateInverseNorm1(n, this.condSolve, undefined, undefined, cw);
      cw.startSolved = cw.altSolved = undefined;
      this.condStart = cw.start ?? -1;
      if (!Number.isFinite(cond)) cond = Infinity;
    }
    return { x, ok: true, method: 'cholesky', residualNorm, rank: n, dependent: [], consistent: true, cond, condScaled: NaN, condEstimated: true, tolerance: PIVOT_TOL };
  }
}
