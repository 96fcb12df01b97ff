// Block-Jacobi preconditioner of the reduced Newton system A = K_λλ + Ĵ·M̃⁻¹·Jᵀ (schurNewton.ts).
// Jacobi's diagonal cannot cope with resting stacks: a contact's normal and friction rows share the
// same bodies, so A's 3×3 block per contact is far from diagonal (the friction rows' entries are as
// large as the normal's), and the coupling between the rows of one joint is as strong. Inverting the
// block of each contact (and of each joint's rows) removes that coupling exactly; what is left for the
// Krylov iteration is the coupling between contacts and joints. Each block is factored once per
// Newton matrix (≤ 6×6, so Gauss–Jordan with partial pivoting is enough).

/** Rows of one sparse matrix in CSR form (the reduction's J, Ĵ and K_λλ). */
export interface CsrRows {
  rowPtr: Int32Array;
  col: Int32Array;
  val: Float64Array;
}

/** In-place inverse of the n×n row-major block at `o` of `a`, by Gauss–Jordan with partial pivoting; false when singular. */
export function invertBlock(a: Float64Array, o: number, n: number, work: Float64Array): boolean {
  // work: n×2n augmented [A | I]
  const w = 2 * n;
  for (let i = 0; i < n; i++)
    for (let j = 0; j < w; j++) work[i * w + j] = j < n ? a[o + i * n + j] : j - n === i ? 1 : 0;
  let scale = 0;
  for (let i = 0; i < n * n; i++) scale = Math.max(scale, Math.abs(a[o + i]));
  if (!(scale > 0) || !Number.isFinite(scale)) return false;
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let i = c + 1; i < n; i++) if (Math.abs(work[i * w + c]) > Math.abs(work[p * w + c])) p = i;
    const piv = work[p * w + c];
    if (!(Math.abs(piv) > 1e-14 * scale)) return false;
    if (p !== c) for (let j = 0; j < w; j++) { const t = work[c * w + j]; work[c * w + j] = work[p * w + j]; work[p * w + j] = t; }
    const s = 1 / piv;
    for (let j = 0; j < w; j++) work[c * w + j] *= s;
    for (let i = 0; i < n; i++) {
      if (i === c) continue;
      const f = work[i * w + c];
      if (f !== 0) for (let j = 0; j < w; j++) work[i * w + j] -= f * work[c * w + j];
    }
  }
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) a[o + i * n + j] = work[i * w + n + j];
  return true;
}

/** A partition of the λ rows into blocks: block b holds rows[ptr[b] … ptr[b+1]) (at most MAX_BLOCK). */
export interface RowBlocks {
  ptr: Int32Array;
  rows: Int32Array;
}

/** Contacts of one pair of bodies in one block at most (a box face on a box: 4 to 8 points); more are split. */
export const MAX_PAIR_CONTACTS = 8;
/** Largest block `BlockJacobi` inverts (a joint has at most 6 rows, a pair's contacts 3 each). */
export const MAX_BLOCK = 3 * MAX_PAIR_CONTACTS;

/**
 * B⁻¹ for B the block diagonal of A (blocks `blocks`; every row in exactly one block). `apply` and
 * `applyTranspose` write B⁻¹·r and B⁻ᵀ·r. A block that is singular is replaced by its diagonal's
 * inverse (1 where the diagonal entry is 0), as Jacobi's.
 */
export class BlockJacobi {
  private readonly ptr: Int32Array;
  private readonly rows: Int32Array;
  /** Offset of each block's inverse in `inv`. */
  private readonly off: Int32Array;
  private readonly inv: Float64Array;
  /** The inverse of A's diagonal (1 where it is 0). */
  readonly dinv: Float64Array;
  /** Blocks that were singular and fell back to their diagonal. */
  singularBlocks = 0;
  readonly transposed: { apply(r: Float64Array, z: Float64Array): void };

  constructor(m: number, blocks: RowBlocks, nb: number, J: CsrRows, Jh: CsrRows, Kll: CsrRows, Minv: Float64Array) {
    const { ptr, rows } = blocks;
    const nblk = ptr.length - 1;
    this.ptr = ptr;
    this.rows = rows;
    this.off = new Int32Array(nblk + 1);
    for (let b = 0; b < nblk; b++) {
      const s = ptr[b + 1] - ptr[b];
      this.off[b + 1] = this.off[b] + s * s;
    }
    const inv = (this.inv = new Float64Array(this.off[nblk]));
    this.dinv = new Float64Array(m);
    const blk = new Int32Array(m), pos = new Int32Array(m);
    for (let b = 0; b < nblk; b++)
      for (let t = ptr[b]; t < ptr[b + 1]; t++) {
        blk[rows[t]] = b;
        pos[rows[t]] = t - ptr[b];
      }
    // A_ij = K_λλ,ij + Ĵ_i·M̃⁻¹·J_jᵀ for i, j in one block: per row j, y_j = M̃⁻¹·J_jᵀ on the bodies J_j
    // touches (6 numbers each, at `slot` of the block's body list), then Ĵ_i·y_j over Ĵ_i's entries
    const slot = new Int32Array(nb).fill(-1);
    const bodies: number[] = [];
    let y = new Float64Array(6 * MAX_BLOCK * 4);
    const gj = new Float64Array(2 * MAX_BLOCK * MAX_BLOCK);
    for (let b = 0; b < nblk; b++) {
      const s = ptr[b + 1] - ptr[b], o = this.off[b], q = ptr[b];
      bodies.length = 0;
      for (let ii = 0; ii < s; ii++) {
        const i = rows[q + ii];
        for (let p = J.rowPtr[i]; p < J.rowPtr[i + 1]; p++) {
          const k = Math.floor(J.col[p] / 6);
          if (slot[k] < 0) { slot[k] = bodies.length; bodies.push(k); }
        }
      }
      const w = 6 * bodies.length;
      if (y.length < s * w) y = new Float64Array(2 * s * w);
      y.fill(0, 0, s * w);
      for (let jj = 0; jj < s; jj++) {
        const j = rows[q + jj], yo = jj * w;
        for (let p = J.rowPtr[j]; p < J.rowPtr[j + 1]; p++) {
          const c = J.col[p], k = Math.floor(c / 6), cc = c - 6 * k, v = J.val[p], mo = 36 * k + cc, so = yo + 6 * slot[k];
          for (let l = 0; l < 6; l++) y[so + l] += Minv[mo + 6 * l] * v;
        }
      }
      for (let ii = 0; ii < s; ii++) {
        const i = rows[q + ii];
        for (let p = Kll.rowPtr[i]; p < Kll.rowPtr[i + 1]; p++) {
          const c = Kll.col[p];
          if (blk[c] === b) inv[o + ii * s + pos[c]] += Kll.val[p];
        }
        for (let p = Jh.rowPtr[i]; p < Jh.rowPtr[i + 1]; p++) {
          const c = Jh.col[p], k = Math.floor(c / 6), sl = slot[k];
          // Ĵ_i on a body none of the block's J rows touch meets zeros of y
          if (sl < 0) continue;
          const v = Jh.val[p], at = 6 * sl + c - 6 * k;
          for (let jj = 0; jj < s; jj++) inv[o + ii * s + jj] += v * y[jj * w + at];
        }
      }
      for (const k of bodies) slot[k] = -1;
      for (let ii = 0; ii < s; ii++) {
        const d = inv[o + ii * s + ii];
        this.dinv[rows[ptr[b] + ii]] = d !== 0 && Number.isFinite(d) ? 1 / d : 1;
      }
      if (s > 1 && !invertBlock(inv, o, s, gj)) {
        this.singularBlocks++;
        inv.fill(0, o, o + s * s);
        for (let ii = 0; ii < s; ii++) inv[o + ii * s + ii] = this.dinv[rows[ptr[b] + ii]];
      } else if (s === 1) inv[o] = this.dinv[rows[ptr[b]]];
    }
    this.transposed = { apply: (r, z) => this.solve(r, z, true) };
  }

  apply(r: Float64Array, z: Float64Array): void {
    this.solve(r, z, false);
  }

  private solve(r: Float64Array, z: Float64Array, transpose: boolean): void {
    const { ptr, rows, off, inv } = this;
    for (let b = 0; b + 1 < ptr.length; b++) {
      const s = ptr[b + 1] - ptr[b], o = off[b], q = ptr[b];
      if (s === 1) {
        z[rows[q]] = inv[o] * r[rows[q]];
        continue;
      }
      for (let ii = 0; ii < s; ii++) {
        let v = 0;
        for (let jj = 0; jj < s; jj++) v += (transpose ? inv[o + jj * s + ii] : inv[o + ii * s + jj]) * r[rows[q + jj]];
        z[rows[q + ii]] = v;
      }
    }
  }
}

/**
 * The blocks of the λ rows [b (m_b), n (n_c), f (2·n_c)]: each joint's rows (`jointRowStart`, split into
 * pieces of at most 6), and the normal and friction rows of all contacts between one pair of bodies
 * (`pairOf(c)` a key of contact c's pair; at most MAX_PAIR_CONTACTS contacts a block). The pair's block
 * matters most: the corners of a resting face are nearly redundant (their rows are dependent up to the
 * regularisation), which is where A's condition number of ~1e11 comes from; inverting their block
 * removes it, where a per-contact block or Jacobi's diagonal leaves it to the Krylov iteration.
 */
export function newtonRowBlocks(mb: number, nc: number, jointRowStart: ArrayLike<number>, pairOf: (c: number) => string): RowBlocks {
  const ptr: number[] = [0];
  const rows: number[] = [];
  const seen = new Uint8Array(mb);
  for (let c = 0; c + 1 < jointRowStart.length; c++) {
    for (let r = jointRowStart[c]; r < jointRowStart[c + 1] && r < mb; r++) {
      if (rows.length - ptr[ptr.length - 1] === 6) ptr.push(rows.length);
      rows.push(r);
      seen[r] = 1;
    }
    if (rows.length > ptr[ptr.length - 1]) ptr.push(rows.length);
  }
  // rows of the b block no joint claims (none in a well-formed world) stand alone
  for (let r = 0; r < mb; r++) if (!seen[r]) { rows.push(r); ptr.push(rows.length); }
  const pairs = new Map<string, number[]>();
  for (let c = 0; c < nc; c++) {
    const k = pairOf(c);
    const g = pairs.get(k);
    if (g) g.push(c);
    else pairs.set(k, [c]);
  }
  for (const g of pairs.values())
    for (let i = 0; i < g.length; i++) {
      const c = g[i];
      rows.push(mb + c, mb + nc + 2 * c, mb + nc + 2 * c + 1);
      if ((i + 1) % MAX_PAIR_CONTACTS === 0 || i + 1 === g.length) ptr.push(rows.length);
    }
  return { ptr: Int32Array.from(ptr), rows: Int32Array.from(rows) };
}
