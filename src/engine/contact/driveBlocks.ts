// Block Gauss–Seidel for a joint with a drive row (pgs.ts): the joint's bilateral rows and its
// compliant drive row (damping and armature, jointRows.ts) are solved together at each visit,
//   (W_blk + Σ_blk)·ΔR = −(U + Σ·R − target)   over the block's rows, W_blk = h·J_blk·M⁻¹·J_blkᵀ,
// with the small SPD matrix factored once per step. A heavy armature makes the drive row nearly as
// stiff as the joint's own rows while it is coupled to them through the bodies' off-centre inertia;
// visited one row at a time they trade their forces back and forth for thousands of sweeps (Gymnasium's
// ant, armature 1 on links of 0.01 kg·m², diverges with 300), visited as one block they do not. The fixed
// point is the same as the scalar sweeps': only the path to it changes.
import { rowMinvRow } from './rigid';

/** One end of a row: its free-body slot and 6 Jacobian entries [v, ω] at `o` in `J`. */
export interface RowEnd {
  slot: number;
  J: ArrayLike<number>;
  o: number;
}

export interface DriveBlock {
  /** Row indices of pgs.ts' R, U and target (bilateral rows first, the drive row last). */
  rows: number[];
  /** Σ per row of the block. */
  sigma: Float64Array;
  /** Cholesky factor L (row-major, m×m) of W_blk + Σ_blk. */
  L: Float64Array;
  /** Diagonal of W_blk + Σ_blk (the residual scale of each row). */
  diag: Float64Array;
  /** Scratch of m numbers. */
  r: Float64Array;
}

/** J_i·M⁻¹·J_jᵀ over the ends the two rows share (per-body blocks of `minv`: 1/m and the 3×3 world inverse inertia). */
function crossMinv(a: readonly RowEnd[], b: readonly RowEnd[], minv: Float64Array): number {
  let s = 0;
  for (const ea of a) {
    for (const eb of b) {
      if (ea.slot !== eb.slot) continue;
      if (ea.J === eb.J && ea.o === eb.o) {
        s += rowMinvRow(ea.J, ea.o, minv, ea.slot);
        continue;
      }
      const m0 = ea.slot * 10, Ja = ea.J, Jb = eb.J, oa = ea.o, ob = eb.o;
      s += minv[m0] * (Ja[oa] * Jb[ob] + Ja[oa + 1] * Jb[ob + 1] + Ja[oa + 2] * Jb[ob + 2]);
      const b0 = Jb[ob + 3], b1 = Jb[ob + 4], b2 = Jb[ob + 5];
      s += Ja[oa + 3] * (minv[m0 + 1] * b0 + minv[m0 + 2] * b1 + minv[m0 + 3] * b2);
      s += Ja[oa + 4] * (minv[m0 + 4] * b0 + minv[m0 + 5] * b1 + minv[m0 + 6] * b2);
      s += Ja[oa + 5] * (minv[m0 + 7] * b0 + minv[m0 + 8] * b1 + minv[m0 + 9] * b2);
    }
  }
  return s;
}

/**
 * The block of `rows` (their ends from `endsOf`, their Σ in `sigma`) at step h, or undefined when
 * W_blk + Σ_blk is not numerically positive definite (dependent rows: the scalar sweeps take them).
 */
export function makeDriveBlock(rows: number[], sigma: Float64Array, endsOf: (row: number) => RowEnd[], minv: Float64Array, h: number): DriveBlock | undefined {
  const m = rows.length;
  const ends = rows.map(endsOf);
  const K = new Float64Array(m * m);
  for (let i = 0; i < m; i++) {
    for (let j = 0; j <= i; j++) {
      const w = h * crossMinv(ends[i], ends[j], minv) + (i === j ? sigma[i] : 0);
      K[i * m + j] = w;
      K[j * m + i] = w;
    }
  }
  const diag = Float64Array.from({ length: m }, (_, i) => K[i * m + i]);
  // Cholesky in place (lower triangle); a pivot below 1e-12 of its diagonal is a dependent row
  for (let j = 0; j < m; j++) {
    let d = K[j * m + j];
    for (let k = 0; k < j; k++) d -= K[j * m + k] * K[j * m + k];
    if (!(d > 1e-12 * diag[j])) return undefined;
    const ljj = Math.sqrt(d);
    K[j * m + j] = ljj;
    for (let i = j + 1; i < m; i++) {
      let s = K[i * m + j];
      for (let k = 0; k < j; k++) s -= K[i * m + k] * K[j * m + k];
      K[i * m + j] = s / ljj;
    }
  }
  return { rows, sigma, L: K, diag, r: new Float64Array(m) };
}

/**
 * One visit: ΔR = −(W_blk + Σ_blk)⁻¹·(U + Σ·R − target) on the block's rows, applied through
 * `apply(row, ΔR)`. Writes each row's residual scale diag·|ΔR| into `res`; returns Σ of their squares.
 */
export function visitDriveBlock(b: DriveBlock, U: (row: number) => number, R: Float64Array, target: Float64Array, apply: (row: number, dR: number) => void, res: Float64Array): number {
  const { rows, L, r } = b;
  const m = rows.length;
  for (let i = 0; i < m; i++) r[i] = -(U(rows[i]) + b.sigma[i] * R[rows[i]] - target[rows[i]]);
  // L·y = r, then Lᵀ·x = y
  for (let i = 0; i < m; i++) {
    let s = r[i];
    for (let k = 0; k < i; k++) s -= L[i * m + k] * r[k];
    r[i] = s / L[i * m + i];
  }
  for (let i = m - 1; i >= 0; i--) {
    let s = r[i];
    for (let k = i + 1; k < m; k++) s -= L[k * m + i] * r[k];
    r[i] = s / L[i * m + i];
  }
  let sq = 0;
  for (let i = 0; i < m; i++) {
    const row = rows[i];
    R[row] += r[i];
    apply(row, r[i]);
    res[row] = b.diag[i] * Math.abs(r[i]);
    sq += res[row] * res[row];
  }
  return sq;
}
