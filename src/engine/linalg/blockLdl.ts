// LDLᵀ of a symmetric matrix made of dense 3×3 blocks: the systems of ball-joint chains
// and trees, A = J·M⁻¹·Jᵀ with three rows per joint, whose pattern is block sparse. The same scalar
// factor as cholesky.ts (unit lower L, diagonal D, the pivots checked one scalar row at a time in
// elimination order, written into the same `Lp`/`Li` column layout, so a `Factor` of either path is
// read the same way), computed block by block: per block row K of L an up-looking step over the
// block columns J of its pattern (ascending, a topological order of the block elimination tree),
// each a few unrolled 3×3 products without index arrays, then the 3×3 diagonal block factorised
// scalar by scalar. Every sum is taken term by term in ascending column order, which is the order in
// which the scalar up-looking path visits them whenever its elimination-tree walk is ascending (always
// for chains, whose tree is a path): then L, D and the solves are the scalar path's bit for bit, and
// otherwise equal to round-off (test/unit/linalg-block.test.ts). Only for the
// natural ordering (the one chains get), the 'stop' and 'indefinite' modes, and patterns whose
// L is exactly block dense (checked when the plan is built); any other system keeps the scalar path.
import { failure } from './contracts';
import type { CsrMatrix } from './contracts';
import { Factor, type FactorFailure, type FactorOptions, type Symbolic } from './cholesky';
import type { BlockPlan } from './contracts';

export type { BlockPlan };

let enabled = true;
/**
 * Turn the block kernels (this file's factor, and solve.ts's use of blockKernels.ts) off or on again;
 * returns the previous setting. For the unit tests, which compare them with the scalar reference path.
 */
export function useBlockKernels(on: boolean): boolean {
  const was = enabled;
  enabled = on;
  return was;
}
export const blockKernelsOn = (): boolean => enabled;

/** The block plan of `s`, or null when its matrix is not handled block by block (see the file's head). */
export function blockPlanOf(s: Symbolic): BlockPlan | null {
  if (s.block === undefined) s.block = buildBlockPlan(s);
  return s.block;
}

function buildBlockPlan(s: Symbolic): BlockPlan | null {
  const { n, perm, rowPtr, colIdx, Lp } = s;
  if (perm || n < 3 || n % 3 !== 0) return null;
  const nb = n / 3;
  // A: rows 3K..3K+2 identical patterns, made of whole blocks, diagonal block present
  const aLen = new Int32Array(nb);
  const aDiag = new Int32Array(nb);
  const aPtr = new Int32Array(nb + 1);
  const lowerJ: number[] = [];
  const lowerPos: number[] = [];
  for (let K = 0; K < nb; K++) {
    const r0 = rowPtr[3 * K];
    const len = rowPtr[3 * K + 1] - r0;
    if (len % 3 !== 0 || rowPtr[3 * K + 2] - rowPtr[3 * K + 1] !== len || rowPtr[3 * K + 3] - rowPtr[3 * K + 2] !== len) return null;
    for (let q = 0; q < len; q++) if (colIdx[r0 + len + q] !== colIdx[r0 + q] || colIdx[r0 + 2 * len + q] !== colIdx[r0 + q]) return null;
    aLen[K] = len;
    aDiag[K] = -1;
    for (let q = 0; q < len; q += 3) {
      const c = colIdx[r0 + q];
      if (c % 3 !== 0 || colIdx[r0 + q + 1] !== c + 1 || colIdx[r0 + q + 2] !== c + 2) return null;
      const J = c / 3;
      if (J === K) aDiag[K] = r0 + q;
      else if (J < K) {
        lowerJ.push(J);
        lowerPos.push(r0 + q);
      }
    }
    if (aDiag[K] < 0) return null;
    aPtr[K + 1] = lowerJ.length;
  }
  // Block elimination tree and the block pattern of L (up-looking reach, as cholesky.ts's symbolicOf)
  const parent = new Int32Array(nb).fill(-1);
  const flag = new Int32Array(nb).fill(-1);
  const rows: number[][] = [];
  const cols: number[][] = Array.from({ length: nb }, () => []);
  for (let K = 0; K < nb; K++) {
    flag[K] = K;
    const reach: number[] = [];
    for (let q = aPtr[K]; q < aPtr[K + 1]; q++) {
      for (let J = lowerJ[q]; flag[J] !== K; J = parent[J]) {
        if (parent[J] === -1) parent[J] = K;
        reach.push(J);
        flag[J] = K;
      }
    }
    reach.sort((x, y) => x - y);
    rows.push(reach);
    for (const J of reach) cols[J].push(K);
  }
  // L must be exactly block dense in the scalar layout: column 3J+s holds 2−s rows of its diagonal block, then 3 per block row
  for (let J = 0; J < nb; J++) for (let t = 0; t < 3; t++) if (Lp[3 * J + t + 1] - Lp[3 * J + t] !== 2 - t + 3 * cols[J].length) return null;
  const colPtr = new Int32Array(nb + 1);
  for (let J = 0; J < nb; J++) colPtr[J + 1] = colPtr[J] + cols[J].length;
  const colRows = new Int32Array(colPtr[nb]);
  const Li = new Int32Array(s.lnz);
  for (let J = 0; J < nb; J++) {
    colRows.set(cols[J], colPtr[J]);
    for (let t = 0; t < 3; t++) {
      let p = Lp[3 * J + t];
      for (let r = t + 1; r < 3; r++) Li[p++] = 3 * J + r;
      for (const K of cols[J]) for (let r = 0; r < 3; r++) Li[p++] = 3 * K + r;
    }
  }
  const rowPtrB = new Int32Array(nb + 1);
  for (let K = 0; K < nb; K++) rowPtrB[K + 1] = rowPtrB[K] + rows[K].length;
  const rowJ = new Int32Array(rowPtrB[nb]);
  const rowM = new Int32Array(rowPtrB[nb]);
  const seen = new Int32Array(nb); // entries of each column filled so far: rows are visited in ascending K
  for (let K = 0, q = 0; K < nb; K++)
    for (const J of rows[K]) {
      rowJ[q] = J;
      rowM[q++] = seen[J]++;
    }
  return {
    nb,
    Li,
    colPtr,
    colRows,
    rowPtr: rowPtrB,
    rowJ,
    rowM,
    aPtr,
    aJ: Int32Array.from(lowerJ),
    aPos: Int32Array.from(lowerPos),
    aDiag,
    aLen,
    Y: new Float64Array(9 * nb),
  };
}

/** A factor made block by block: the same L and D layout as `Factor`, with block triangular solves. */
export class BlockFactor extends Factor {
  constructor(symbolic: Symbolic, Lx: Float64Array, D: Float64Array, negativePivots: number, minPivotRatio: number, readonly blocks: BlockPlan) {
    super(symbolic, blocks.Li, Lx, D, [], negativePivots, minPivotRatio);
  }

  /**
   * x = (L·D·Lᵀ)⁻¹·b (natural order), block by block: the scalar `Factor.solve`'s operations in its
   * order (forward by columns, skipping zeros; backward column by column, diagonal-block rows first). Block
   * column J of L is contiguous in Lx from Lp[3J]: L[3J+1,3J], L[3J+2,3J], its nk blocks' column 3J,
   * L[3J+2,3J+1], their column 3J+1, their column 3J+2 (3 numbers a block and column).
   */
  override solve(b: ArrayLike<number>, out?: Float64Array): Float64Array {
    const { nb, colPtr, colRows } = this.blocks;
    const { Lp } = this.symbolic;
    const { Lx, D } = this;
    const n = 3 * nb;
    const y = out ?? new Float64Array(n);
    if (y !== b) for (let k = 0; k < n; k++) y[k] = b[k];
    // forward: L·z = b, block column by block column from the first nonzero block of b (z is 0 before it)
    let J = 0;
    while (J < nb && y[3 * J] === 0 && y[3 * J + 1] === 0 && y[3 * J + 2] === 0) J++;
    for (; J < nb; J++) {
      const j = 3 * J;
      const c0 = Lp[j] + 2;
      const nk3 = 3 * (colPtr[J + 1] - colPtr[J]);
      const c1 = c0 + nk3 + 1;
      const c2 = c1 + nk3;
      // a column whose value is 0 is skipped, as the scalar solve skips it (the same signs of zero)
      const y0 = y[j];
      let y1 = y[j + 1];
      let y2 = y[j + 2];
      if (y0 !== 0) {
        y1 -= Lx[c0 - 2] * y0;
        y2 -= Lx[c0 - 1] * y0;
      }
      if (y1 !== 0) y2 -= Lx[c1 - 1] * y1;
      y[j + 1] = y1;
      y[j + 2] = y2;
      const e = colPtr[J + 1];
      if (y0 !== 0 && y1 !== 0 && y2 !== 0) {
        for (let q = colPtr[J], o = 0; q < e; q++, o += 3) {
          const k = 3 * colRows[q];
          y[k] = y[k] - Lx[c0 + o] * y0 - Lx[c1 + o] * y1 - Lx[c2 + o] * y2;
          y[k + 1] = y[k + 1] - Lx[c0 + o + 1] * y0 - Lx[c1 + o + 1] * y1 - Lx[c2 + o + 1] * y2;
          y[k + 2] = y[k + 2] - Lx[c0 + o + 2] * y0 - Lx[c1 + o + 2] * y1 - Lx[c2 + o + 2] * y2;
        }
      } else {
        if (y0 !== 0) subColumn(y, Lx, colRows, colPtr[J], e, c0, y0);
        if (y1 !== 0) subColumn(y, Lx, colRows, colPtr[J], e, c1, y1);
        if (y2 !== 0) subColumn(y, Lx, colRows, colPtr[J], e, c2, y2);
      }
    }
    // diagonal and backward: D·Lᵀ·x = z, block column by block column from the last
    for (J = nb - 1; J >= 0; J--) {
      const j = 3 * J;
      const c0 = Lp[j] + 2;
      const nk3 = 3 * (colPtr[J + 1] - colPtr[J]);
      const c1 = c0 + nk3 + 1;
      const c2 = c1 + nk3;
      const d0 = D[j], d1 = D[j + 1], d2 = D[j + 2];
      const e = colPtr[J + 1];
      // each column as the scalar solve takes it: its rows inside the diagonal block first, then the blocks below
      let s2 = d2 !== 0 ? y[j + 2] / d2 : 0;
      for (let q = colPtr[J], o = c2; q < e; q++, o += 3) {
        const k = 3 * colRows[q];
        s2 = s2 - Lx[o] * y[k] - Lx[o + 1] * y[k + 1] - Lx[o + 2] * y[k + 2];
      }
      let s1 = d1 !== 0 ? y[j + 1] / d1 : 0;
      s1 -= Lx[c1 - 1] * s2;
      for (let q = colPtr[J], o = c1; q < e; q++, o += 3) {
        const k = 3 * colRows[q];
        s1 = s1 - Lx[o] * y[k] - Lx[o + 1] * y[k + 1] - Lx[o + 2] * y[k + 2];
      }
      let s0 = d0 !== 0 ? y[j] / d0 : 0;
      s0 = s0 - Lx[c0 - 2] * s1 - Lx[c0 - 1] * s2;
      for (let q = colPtr[J], o = c0; q < e; q++, o += 3) {
        const k = 3 * colRows[q];
        s0 = s0 - Lx[o] * y[k] - Lx[o + 1] * y[k + 1] - Lx[o + 2] * y[k + 2];
      }
      y[j] = s0;
      y[j + 1] = s1;
      y[j + 2] = s2;
    }
    return y;
  }
}

/** y[3K+r] −= L[3K+r, col]·v over the blocks K of one column of a block column (its values from Lx[c]). */
function subColumn(y: Float64Array, Lx: Float64Array, colRows: Int32Array, q0: number, q1: number, c: number, v: number): void {
  for (let q = q0, o = c; q < q1; q++, o += 3) {
    const k = 3 * colRows[q];
    y[k] -= Lx[o] * v;
    y[k + 1] -= Lx[o + 1] * v;
    y[k + 2] -= Lx[o + 2] * v;
  }
}

/**
 * `factor` (cholesky.ts) block by block when the Symbolic has a block plan and the mode is 'stop' or
 * 'indefinite'; null otherwise (the caller then uses `factor`). A must have the analysed pattern.
 */
export function factorBlocked(A: CsrMatrix, s: Symbolic, opts: FactorOptions = {}): BlockFactor | FactorFailure | null {
  const mode = opts.onSmallPivot ?? 'stop';
  if (!enabled || mode === 'reject' || A.rows !== s.n || A.cols !== s.n || A.rowPtr[s.n] !== s.rowPtr[s.n]) return null;
  const B = blockPlanOf(s);
  if (!B) return null;
  const shift = opts.shift ?? 0;
  const tol = opts.pivotTol ?? 1e-10;
  const indefinite = mode === 'indefinite';
  const { nb, colPtr, colRows, rowPtr, rowJ, rowM, aPtr, aJ, aPos, aDiag, aLen, Y } = B;
  const { Lp, lnz, n } = s;
  const v = A.values;
  // Reuse: every position of Lx and D is written before a complete factor is returned (every block of L is).
  const Lx = opts.reuse ? (B.Lx ??= new Float64Array(lnz)) : new Float64Array(lnz);
  const D = opts.reuse ? (B.D ??= new Float64Array(n)) : new Float64Array(n);
  let negativePivots = 0;
  let minRatio = Infinity;
  for (let K = 0; K < nb; K++) {
    const len = aLen[K];
    // scatter the blocks of A's row K left of the diagonal (Y is zero there: each is set once)
    for (let q = aPtr[K]; q < aPtr[K + 1]; q++) {
      const p = aPos[q];
      const y = 9 * aJ[q];
      Y[y] = v[p];
      Y[y + 1] = v[p + 1];
      Y[y + 2] = v[p + 2];
      Y[y + 3] = v[p + len];
      Y[y + 4] = v[p + len + 1];
      Y[y + 5] = v[p + len + 2];
      Y[y + 6] = v[p + 2 * len];
      Y[y + 7] = v[p + 2 * len + 1];
      Y[y + 8] = v[p + 2 * len + 2];
    }
    // the diagonal block (lower triangle), shifted
    const pd = aDiag[K];
    const a00 = v[pd] + shift;
    const a11 = v[pd + len + 1] + shift;
    const a22 = v[pd + 2 * len + 2] + shift;
    let s00 = a00, s10 = v[pd + len], s11 = a11, s20 = v[pd + 2 * len], s21 = v[pd + 2 * len + 1], s22 = a22;
    for (let t = rowPtr[K], te = rowPtr[K + 1]; t < te; t++) {
      const J = rowJ[t];
      const m = rowM[t];
      const y = 9 * J;
      const j = 3 * J;
      const dj = Lp[j];
      const l10 = Lx[dj], l20 = Lx[dj + 1], l21 = Lx[Lp[j + 1]];
      // X = L_KJ·D_J from X·L_JJᵀ = Y_J
      const x00 = Y[y], x10 = Y[y + 3], x20 = Y[y + 6];
      const x01 = Y[y + 1] - x00 * l10, x11 = Y[y + 4] - x10 * l10, x21 = Y[y + 7] - x20 * l10;
      const x02 = Y[y + 2] - x00 * l20 - x01 * l21, x12 = Y[y + 5] - x10 * l20 - x11 * l21, x22 = Y[y + 8] - x20 * l20 - x21 * l21;
      Y[y] = Y[y + 1] = Y[y + 2] = Y[y + 3] = Y[y + 4] = Y[y + 5] = Y[y + 6] = Y[y + 7] = Y[y + 8] = 0;
      const e0 = D[j], e1 = D[j + 1], e2 = D[j + 2];
      const c0 = dj + 2, c1 = Lp[j + 1] + 1, c2 = Lp[j + 2];
      // earlier block rows I of column J (rows < K): Y_I −= X·L_IJᵀ
      for (let q = colPtr[J], qm = q + m, o = 0; q < qm; q++, o += 3) {
        const yi = 9 * colRows[q];
        const a0 = Lx[c0 + o], a1 = Lx[c0 + o + 1], a2 = Lx[c0 + o + 2];
        const b0 = Lx[c1 + o], b1 = Lx[c1 + o + 1], b2 = Lx[c1 + o + 2];
        const f0 = Lx[c2 + o], f1 = Lx[c2 + o + 1], f2 = Lx[c2 + o + 2];
        Y[yi] = Y[yi] - x00 * a0 - x01 * b0 - x02 * f0;
        Y[yi + 1] = Y[yi + 1] - x00 * a1 - x01 * b1 - x02 * f1;
        Y[yi + 2] = Y[yi + 2] - x00 * a2 - x01 * b2 - x02 * f2;
        Y[yi + 3] = Y[yi + 3] - x10 * a0 - x11 * b0 - x12 * f0;
        Y[yi + 4] = Y[yi + 4] - x10 * a1 - x11 * b1 - x12 * f1;
        Y[yi + 5] = Y[yi + 5] - x10 * a2 - x11 * b2 - x12 * f2;
        Y[yi + 6] = Y[yi + 6] - x20 * a0 - x21 * b0 - x22 * f0;
        Y[yi + 7] = Y[yi + 7] - x20 * a1 - x21 * b1 - x22 * f1;
        Y[yi + 8] = Y[yi + 8] - x20 * a2 - x21 * b2 - x22 * f2;
      }
      // L_KJ = X·D_J⁻¹ into its column positions, and the diagonal block S −= X·L_KJᵀ
      const o = 3 * m;
      const l00 = x00 / e0, l01 = x01 / e1, l02 = x02 / e2;
      const m10 = x10 / e0, m11 = x11 / e1, m12 = x12 / e2;
      const n20 = x20 / e0, n21 = x21 / e1, n22 = x22 / e2;
      Lx[c0 + o] = l00;
      Lx[c0 + o + 1] = m10;
      Lx[c0 + o + 2] = n20;
      Lx[c1 + o] = l01;
      Lx[c1 + o + 1] = m11;
      Lx[c1 + o + 2] = n21;
      Lx[c2 + o] = l02;
      Lx[c2 + o + 1] = m12;
      Lx[c2 + o + 2] = n22;
      s00 = s00 - x00 * l00 - x01 * l01 - x02 * l02;
      s10 = s10 - x10 * l00 - x11 * l01 - x12 * l02;
      s11 = s11 - x10 * m10 - x11 * m11 - x12 * m12;
      s20 = s20 - x20 * l00 - x21 * l01 - x22 * l02;
      s21 = s21 - x20 * m10 - x21 * m11 - x22 * m12;
      s22 = s22 - x20 * n20 - x21 * n21 - x22 * n22;
    }
    // the diagonal block, scalar by scalar with the pivot checks of cholesky.ts
    const k = 3 * K;
    const dk = Lp[k];
    const d0 = s00;
    let bad = pivotCheck(d0, a00, tol, indefinite);
    if (bad) return stopped(s, k, d0, a00, tol, bad);
    const l10 = s10 / d0;
    const d1 = s11 - l10 * s10;
    bad = pivotCheck(d1, a11, tol, indefinite);
    if (bad) return stopped(s, k + 1, d1, a11, tol, bad);
    const l20 = s20 / d0;
    const y21 = s21 - l10 * s20;
    const l21 = y21 / d1;
    const d2 = s22 - l20 * s20 - l21 * y21;
    bad = pivotCheck(d2, a22, tol, indefinite);
    if (bad) return stopped(s, k + 2, d2, a22, tol, bad);
    Lx[dk] = l10;
    Lx[dk + 1] = l20;
    Lx[Lp[k + 1]] = l21;
    D[k] = d0;
    D[k + 1] = d1;
    D[k + 2] = d2;
    for (let r = 0; r < 3; r++) {
      const d = D[k + r];
      const scale = Math.abs(r === 0 ? a00 : r === 1 ? a11 : a22);
      if (d < 0) negativePivots++;
      if (scale > 0) minRatio = Math.min(minRatio, d / scale);
    }
  }
  return new BlockFactor(s, Lx, D, negativePivots, minRatio, B);

  function stopped(sym: Symbolic, step: number, d: number, akk: number, tolerance: number, why: 'singular' | 'indefinite'): FactorFailure {
    Y.fill(0); // a stopped factorisation may leave blocks of later rows in Y
    const scale = Math.abs(akk);
    return {
      ...failure(
        why,
        why === 'indefinite' ? `pivot ${step + 1} of ${sym.n} (row ${step}) is negative: ${d}` : `pivot ${step + 1} of ${sym.n} (row ${step}) is ${d}, at most ${tolerance}·|a_kk| = ${tolerance * scale}`,
      ),
      step,
    };
  }
}

/** null when pivot d of a row with shifted diagonal akk is accepted; else why it stops the factorisation (cholesky.ts's rule). */
function pivotCheck(d: number, akk: number, tol: number, indefinite: boolean): 'singular' | 'indefinite' | null {
  const scale = Math.abs(akk);
  const small = indefinite ? Math.abs(d) <= tol * scale : d <= tol * scale;
  if (!small) return null;
  return d < 0 && Math.abs(d) > tol * scale ? 'indefinite' : 'singular';
}
