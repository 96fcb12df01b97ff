// The Newton matrix of Axion's nonlinear system (system.ts) reduced to the contact space (Axion's own
// route): the q and u unknowns are eliminated body by body, leaving one system in λ = [λ_b, λ_n, λ_f],
//   A·Δλ = r̂,   A = K_λλ + Ĵ·M̃⁻¹·Jᵀ,   Ĵ = K_λu − K_λq·A_qq⁻¹·A_qu,   Jᵀ = −K_dλ
// (K the Newton matrix, rows [dyn, kin, λ], columns [q, u, λ]; derivation in docs/formulas.md). A is never
// assembled: its product costs one pass over J, the 6×6 blocks of M̃⁻¹ and one pass over Ĵ and K_λλ,
// and it is solved by conjugate residual (linalg/cr.ts), preconditioned by the inverse of A's diagonal
// blocks, one per contact and per joint (schurBlocks.ts). The blocks are read from
// the assembled Newton matrix itself, so the reduced solve answers exactly the system the sparse LU
// answers (the same Δx, to the Krylov tolerance), whatever the levels and friction Jacobian.
import type { CsrMatrix } from '../linalg/contracts';
import { CrWork, gcr, type CrResult } from '../linalg/cr';
import { BlockJacobi, invertBlock, type RowBlocks } from './schurBlocks';

/** A CSR matrix being filled row by row (rows in order). */
class RowCsr {
  rowPtr: Int32Array;
  col: Int32Array;
  val: Float64Array;
  private n = 0;
  constructor(readonly rows: number, cap: number) {
    this.rowPtr = new Int32Array(rows + 1);
    this.col = new Int32Array(Math.max(cap, 1));
    this.val = new Float64Array(Math.max(cap, 1));
  }
  push(c: number, v: number): void {
    if (this.n === this.col.length) {
      const col = new Int32Array(2 * this.n), val = new Float64Array(2 * this.n);
      col.set(this.col);
      val.set(this.val);
      this.col = col;
      this.val = val;
    }
    this.col[this.n] = c;
    this.val[this.n++] = v;
  }
  endRow(r: number): void {
    this.rowPtr[r + 1] = this.n;
  }
}

export interface SchurLayout {
  /** Free bodies (6 u and 7 q unknowns each). */
  nb: number;
  /** λ unknowns (m_b + 3·n_c). */
  m: number;
  /** The preconditioner's blocks of λ rows (`newtonRowBlocks`); absent: one row a block (Jacobi). */
  blocks?: RowBlocks;
}

/** The reduction of one Newton matrix; `solve` and `solveTranspose` answer K·x = b and Kᵀ·y = c. */
export class SchurNewton {
  readonly nb: number;
  readonly m: number;
  private readonly cu: number;
  private readonly cl: number;
  /** Per body: M̃⁻¹ (6×6), A_qq⁻¹ (7×7), A_qu (7×6), row-major. */
  private readonly Minv: Float64Array;
  private readonly Aqqi: Float64Array;
  private readonly Aqu: Float64Array;
  /** λ rows: J (= −K_dλᵀ), Ĵ over the 6·nb u columns; K_λq over the 7·nb q columns; K_λλ. */
  private readonly J: RowCsr;
  private readonly Jh: RowCsr;
  private readonly Klq: RowCsr;
  private readonly Kll: RowCsr;
  /** B⁻¹, B the block diagonal of A (per contact and joint), built by `from`. */
  private precond!: BlockJacobi;
  private readonly t6: Float64Array;
  private readonly s6: Float64Array;
  private readonly t7: Float64Array;
  private readonly w7 = new Float64Array(7);
  /** c_u' of a transposed solve (t6 and s6 are the operator's scratch during the Krylov iteration). */
  private readonly u6: Float64Array;
  private readonly rhs: Float64Array;
  private readonly lam: Float64Array;
  private readonly work = new CrWork();
  /** Linear iterations of the last solve. */
  lastIterations = 0;

  private constructor(nb: number, m: number) {
    this.nb = nb;
    this.m = m;
    this.cu = 7 * nb;
    this.cl = 13 * nb;
    this.Minv = new Float64Array(36 * nb);
    this.Aqqi = new Float64Array(49 * nb);
    this.Aqu = new Float64Array(42 * nb);
    this.J = new RowCsr(m, 12 * m);
    this.Jh = new RowCsr(m, 12 * m);
    this.Klq = new RowCsr(m, 8 * m);
    this.Kll = new RowCsr(m, 3 * m);
    this.t6 = new Float64Array(6 * nb);
    this.s6 = new Float64Array(6 * nb);
    this.u6 = new Float64Array(6 * nb);
    this.t7 = new Float64Array(7 * nb);
    this.rhs = new Float64Array(m);
    this.lam = new Float64Array(m);
  }

  /**
   * The reduction of K (rows [dyn 6·nb, kin 7·nb, λ m], columns [q 7·nb, u 6·nb, λ m]); undefined when K
   * has an entry outside the structure the elimination assumes (dyn rows touch only their body's u and λ,
   * kin rows only their body's q and u) or a body block is singular.
   */
  static from(K: CsrMatrix, layout: SchurLayout): SchurNewton | undefined {
    const { nb, m } = layout;
    const N = 13 * nb + m;
    if (K.rows !== N || K.cols !== N) return undefined;
    const S = new SchurNewton(nb, m);
    const { cu, cl } = S;
    const M = new Float64Array(36 * nb);
    // J is built column-wise from the dyn rows: count, then fill
    const jCount = new Int32Array(m + 1);
    for (let d = 0; d < 6 * nb; d++) {
      const k = Math.floor(d / 6);
      for (let p = K.rowPtr[d]; p < K.rowPtr[d + 1]; p++) {
        const c = K.colIdx[p], v = K.values[p];
        if (c >= cl) jCount[c - cl + 1]++;
        else if (c >= cu + 6 * k && c < cu + 6 * k + 6) M[36 * k + 6 * (d - 6 * k) + (c - cu - 6 * k)] += v;
        else if (v !== 0) return undefined;
      }
    }
    for (let i = 0; i < m; i++) jCount[i + 1] += jCount[i];
    const jCol = new Int32Array(jCount[m]), jVal = new Float64Array(jCount[m]);
    const fill = jCount.slice(0, m);
    for (let d = 0; d < 6 * nb; d++)
      for (let p = K.rowPtr[d]; p < K.rowPtr[d + 1]; p++) {
        const c = K.colIdx[p];
        if (c < cl) continue;
        const at = fill[c - cl]++;
        jCol[at] = d;
        jVal[at] = -K.values[p];
      }
    S.J.rowPtr = jCount;
    S.J.col = jCol;
    S.J.val = jVal;
    for (let r = 0; r < 7 * nb; r++) {
      const k = Math.floor(r / 7), i = r - 7 * k;
      for (let p = K.rowPtr[6 * nb + r]; p < K.rowPtr[6 * nb + r + 1]; p++) {
        const c = K.colIdx[p], v = K.values[p];
        if (c >= 7 * k && c < 7 * k + 7) S.Aqqi[49 * k + 7 * i + (c - 7 * k)] += v;
        else if (c >= cu + 6 * k && c < cu + 6 * k + 6) S.Aqu[42 * k + 6 * i + (c - cu - 6 * k)] += v;
        else if (v !== 0) return undefined;
      }
    }
    const gj = new Float64Array(2 * 7 * 7);
    for (let k = 0; k < nb; k++) {
      if (!invertBlock(M, 36 * k, 6, gj) || !invertBlock(S.Aqqi, 49 * k, 7, gj)) return undefined;
    }
    S.Minv.set(M);
    // λ rows: K_λq, Ĵ = K_λu − K_λq·A_qq⁻¹·A_qu, K_λλ
    const ju = S.t6, jq = S.t7;
    const mark = new Int32Array(nb).fill(-1);
    const touched: number[] = [];
    const w7 = new Float64Array(7);
    for (let i = 0; i < m; i++) {
      touched.length = 0;
      const row = cl + i;
      for (let p = K.rowPtr[row]; p < K.rowPtr[row + 1]; p++) {
        const c = K.colIdx[p], v = K.values[p];
        if (c >= cl) {
          S.Kll.push(c - cl, v);
          continue;
        }
        const k = c < cu ? Math.floor(c / 7) : Math.floor((c - cu) / 6);
        if (mark[k] !== i) {
          mark[k] = i;
          touched.push(k);
          ju.fill(0, 6 * k, 6 * k + 6);
          jq.fill(0, 7 * k, 7 * k + 7);
        }
        if (c < cu) {
          jq[c] += v;
          S.Klq.push(c, v);
        } else ju[c - cu] += v;
      }
      S.Kll.endRow(i);
      S.Klq.endRow(i);
      for (const k of touched) {
        // w = g·A_qq⁻¹ (g this row's q entries of body k), then Ĵ_k −= w·A_qu
        for (let j = 0; j < 7; j++) {
          let s = 0;
          for (let l = 0; l < 7; l++) s += jq[7 * k + l] * S.Aqqi[49 * k + 7 * l + j];
          w7[j] = s;
        }
        for (let j = 0; j < 6; j++) {
          let s = ju[6 * k + j];
          for (let l = 0; l < 7; l++) s -= w7[l] * S.Aqu[42 * k + 6 * l + j];
          S.Jh.push(6 * k + j, s);
        }
      }
      S.Jh.endRow(i);
    }
    const blocks = layout.blocks ?? { ptr: Int32Array.from({ length: m + 1 }, (_, i) => i), rows: Int32Array.from({ length: m }, (_, i) => i) };
    S.precond = new BlockJacobi(m, blocks, nb, S.J, S.Jh, S.Kll, S.Minv);
    return S;
  }

  /** Inverse of A's diagonal (1 where the diagonal is 0). */
  get dinv(): Float64Array {
    return this.precond.dinv;
  }

  /** The Krylov iteration's preconditioner B⁻¹ (B the block diagonal of A). */
  get preconditioner(): BlockJacobi {
    return this.precond;
  }

  /** out = M̃⁻¹·t (transpose: M̃⁻ᵀ·t), per body. */
  private applyMinv(t: Float64Array, out: Float64Array, transpose: boolean): void {
    const Mi = this.Minv;
    for (let k = 0; k < this.nb; k++) {
      const o = 36 * k, u = 6 * k;
      for (let i = 0; i < 6; i++) {
        let s = 0;
        for (let j = 0; j < 6; j++) s += (transpose ? Mi[o + 6 * j + i] : Mi[o + 6 * i + j]) * t[u + j];
        out[u + i] = s;
      }
    }
  }

  /** out = A·x (transpose: Aᵀ·x), A = K_λλ + Ĵ·M̃⁻¹·Jᵀ. */
  apply(x: Float64Array, out: Float64Array, transpose = false): void {
    const { J, Jh, Kll, t6, s6, m } = this;
    const [L, R] = transpose ? [Jh, J] : [J, Jh];
    t6.fill(0);
    for (let i = 0; i < m; i++) {
      const xi = x[i];
      if (xi !== 0) for (let p = L.rowPtr[i]; p < L.rowPtr[i + 1]; p++) t6[L.col[p]] += L.val[p] * xi;
    }
    this.applyMinv(t6, s6, transpose);
    for (let i = 0; i < m; i++) {
      let s = 0;
      for (let p = R.rowPtr[i]; p < R.rowPtr[i + 1]; p++) s += R.val[p] * s6[R.col[p]];
      out[i] = s;
    }
    if (!transpose) {
      for (let i = 0; i < m; i++) {
        let s = 0;
        for (let p = Kll.rowPtr[i]; p < Kll.rowPtr[i + 1]; p++) s += Kll.val[p] * x[Kll.col[p]];
        out[i] += s;
      }
    } else {
      for (let i = 0; i < m; i++) {
        const xi = x[i];
        if (xi !== 0) for (let p = Kll.rowPtr[i]; p < Kll.rowPtr[i + 1]; p++) out[Kll.col[p]] += Kll.val[p] * xi;
      }
    }
  }

  /** A_qq⁻¹·v (transpose: A_qq⁻ᵀ·v) for body k: 7 entries of v from `vo`, into out from `oo`. */
  private aqqSolve(v: Float64Array, vo: number, out: Float64Array, oo: number, k: number, transpose: boolean): void {
    const A = this.Aqqi, b = 49 * k, w = this.w7;
    for (let i = 0; i < 7; i++) {
      let s = 0;
      for (let j = 0; j < 7; j++) s += (transpose ? A[b + 7 * j + i] : A[b + 7 * i + j]) * v[vo + j];
      w[i] = s;
    }
    for (let i = 0; i < 7; i++) out[oo + i] = w[i];
  }

  /**
   * Solve K·x = b (b in residual order, x in unknown order) to a relative reduced residual `tol`.
   * x is written whether or not the Krylov iteration converged (the caller falls back when it did not).
   */
  solve(b: Float64Array, x: Float64Array, tol: number, maxIter: number): CrResult {
    const { nb, m, cu, cl, t7, t6, s6, rhs, lam, Klq, Jh, J } = this;
    // z = A_qq⁻¹·r_kin (into x's q part), then r̂ = r_λ − K_λq·z − Ĵ·M̃⁻¹·r_dyn
    for (let k = 0; k < nb; k++) this.aqqSolve(b, 6 * nb + 7 * k, t7, 7 * k, k, false);
    this.applyMinv(b.subarray(0, 6 * nb), s6, false);
    for (let i = 0; i < m; i++) {
      let s = b[cl + i];
      for (let p = Klq.rowPtr[i]; p < Klq.rowPtr[i + 1]; p++) s -= Klq.val[p] * t7[Klq.col[p]];
      for (let p = Jh.rowPtr[i]; p < Jh.rowPtr[i + 1]; p++) s -= Jh.val[p] * s6[Jh.col[p]];
      rhs[i] = s;
    }
    const res = gcr(m, (v, out) => this.apply(v, out, false), rhs, this.precond, lam, tol, maxIter, this.work);
    this.lastIterations = res.iterations;
    // Δu = M̃⁻¹·(r_dyn + Jᵀ·Δλ), Δq = A_qq⁻¹·(r_kin − A_qu·Δu)
    for (let i = 0; i < 6 * nb; i++) t6[i] = b[i];
    for (let i = 0; i < m; i++) {
      const l = lam[i];
      if (l !== 0) for (let p = J.rowPtr[i]; p < J.rowPtr[i + 1]; p++) t6[J.col[p]] += J.val[p] * l;
    }
    this.applyMinv(t6, s6, false);
    x.set(s6, cu);
    for (let k = 0; k < nb; k++) {
      for (let i = 0; i < 7; i++) {
        let s = b[6 * nb + 7 * k + i];
        for (let j = 0; j < 6; j++) s -= this.Aqu[42 * k + 6 * i + j] * s6[6 * k + j];
        t7[7 * k + i] = s;
      }
      this.aqqSolve(t7, 7 * k, x, 7 * k, k, false);
    }
    x.set(lam, cl);
    return res;
  }

  /** Solve Kᵀ·y = c (c in unknown order, y in residual order): the same reduction with every block transposed. */
  solveTranspose(c: Float64Array, y: Float64Array, tol: number, maxIter: number): CrResult {
    const { nb, m, cu, cl, t7, u6, s6, rhs, lam, Klq, Jh, J } = this;
    // w = A_qq⁻ᵀ·c_q; c_u' = c_u − A_quᵀ·w; r̂ = c_λ + J·M̃⁻ᵀ·c_u'
    for (let k = 0; k < nb; k++) this.aqqSolve(c, 7 * k, t7, 7 * k, k, true);
    for (let k = 0; k < nb; k++)
      for (let j = 0; j < 6; j++) {
        let s = c[cu + 6 * k + j];
        for (let i = 0; i < 7; i++) s -= this.Aqu[42 * k + 6 * i + j] * t7[7 * k + i];
        u6[6 * k + j] = s;
      }
    this.applyMinv(u6, s6, true);
    for (let i = 0; i < m; i++) {
      let s = c[cl + i];
      for (let p = J.rowPtr[i]; p < J.rowPtr[i + 1]; p++) s += J.val[p] * s6[J.col[p]];
      rhs[i] = s;
    }
    const res = gcr(m, (v, out) => this.apply(v, out, true), rhs, this.precond.transposed, lam, tol, maxIter, this.work);
    this.lastIterations = res.iterations;
    // y_dyn = M̃⁻ᵀ·(c_u' − Ĵᵀ·y_λ), y_kin = A_qq⁻ᵀ·(c_q − K_λqᵀ·y_λ)
    for (let i = 0; i < m; i++) {
      const l = lam[i];
      if (l !== 0) for (let p = Jh.rowPtr[i]; p < Jh.rowPtr[i + 1]; p++) u6[Jh.col[p]] -= Jh.val[p] * l;
    }
    this.applyMinv(u6, s6, true);
    y.set(s6, 0);
    for (let i = 0; i < 7 * nb; i++) t7[i] = c[i];
    for (let i = 0; i < m; i++) {
      const l = lam[i];
      if (l !== 0) for (let p = Klq.rowPtr[i]; p < Klq.rowPtr[i + 1]; p++) t7[Klq.col[p]] -= Klq.val[p] * l;
    }
    for (let k = 0; k < nb; k++) this.aqqSolve(t7, 7 * k, y, 6 * nb + 7 * k, k, true);
    y.set(lam, cl);
    return res;
  }
}
