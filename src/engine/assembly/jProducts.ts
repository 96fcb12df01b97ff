// J·x and Jᵀ·y for the assembled Jacobian, whose rows are runs of 6 consecutive columns (one run per
// end body of the row's constraint: assemble.ts writes J row by row, body block by body block).
// The same products and sums, in the same order, as linalg/sparse.ts csrMulVec / csrTransposeMulVec
// (bit-identical results), with one column index read per run instead of one per entry (three such
// products per step). A pattern that is not made of such runs takes the general kernels.
//
// With a world's row slots (`rowSlotsOf`), a row whose constraint promises exact zeros outside three
// entries of each block (ConstraintModel.rowMasks: ball rows, angle rows) reads only those three per
// run. Still bit for bit the general kernels' results for finite x: their sums start at +0 and only
// add, so a partial sum is never −0 and adding a skipped term (+0·x = ±0) leaves it unchanged.
import type { World, WorldDerived } from './world';
import { csrMulVec, csrTransposeMulVec } from '../linalg/sparse';
import type { CsrMatrix } from '../linalg/contracts';


export type { WorldDerived };

/** `world.derived`, made on first use. */
export function derivedOf(world: World): WorldDerived {
  return (world.derived ??= {});
}

/** Per column-index array (J's pattern, the world's: never written after buildWorld): whether every row is runs of 6. */
const runsOf = new WeakMap<Int32Array, boolean>();

function hasRuns(m: Pick<CsrMatrix, 'rows' | 'rowPtr' | 'colIdx'>): boolean {
  let r = runsOf.get(m.colIdx);
  if (r === undefined) {
    r = true;
    const { rowPtr, colIdx } = m;
    for (let i = 0; i < m.rows && r; i++) {
      if ((rowPtr[i + 1] - rowPtr[i]) % 6 !== 0) r = false;
      for (let p = rowPtr[i]; p < rowPtr[i + 1] && r; p += 6) for (let d = 1; d < 6; d++) if (colIdx[p + d] !== colIdx[p] + d) r = false;
    }
    runsOf.set(m.colIdx, r);
  }
  return r;
}

/** Whether the world's J pattern (every assembled J's) is runs of 6, kept in `world.derived`. */
export function jRunsOf(world: World): boolean {
  const d = derivedOf(world);
  return (d.jRuns ??= hasRuns({ rows: world.nRows, rowPtr: world.jRowPtr, colIdx: world.jColIdx }));
}

/**
 * Per row of the world's J, 3 numbers: the offsets within each 6-entry run of the only entries that
 * can be nonzero (ascending), when the row's constraint promises three (ConstraintModel.rowMasks);
 * else −1 at the row's first slot (the whole run is read).
 */
export function rowSlotsOf(world: World): Int8Array {
  const d = derivedOf(world);
  let slots = d.rowSlots;
  if (!slots) {
    slots = new Int8Array(3 * world.nRows).fill(-1);
    for (let c = 0; c < world.constraints.length; c++) {
      const masks = world.constraints[c].rowMasks;
      if (!masks || world.endX[c].length > 0) continue;
      for (let r = 0; r < world.constraints[c].rows; r++) {
        const mask = masks[r] ?? 0x3f;
        const on = [0, 1, 2, 3, 4, 5].filter((j) => (mask >> j) & 1);
        if (on.length === 3) slots.set(on, 3 * (world.rowStart[c] + r));
      }
    }
    d.rowSlots = slots;
  }
  return slots;
}

/**
 * y = J·x (csrMulVec). `slots`: the world's row slots (`rowSlotsOf`), when J is the world's; `runs`: whether
 * J's pattern is runs of 6, when the caller knows it (`jRunsOf` for the world's J).
 */
export function jMulVec(m: CsrMatrix, x: ArrayLike<number>, out?: Float64Array, slots?: Int8Array, runs = hasRuns(m)): Float64Array {
  if (!runs) return csrMulVec(m, x, out);
  const y = out ?? new Float64Array(m.rows);
  const { rowPtr, colIdx, values } = m;
  for (let i = 0; i < m.rows; i++) {
    let s = 0;
    if (slots && slots[3 * i] >= 0) {
      const o0 = slots[3 * i], o1 = slots[3 * i + 1], o2 = slots[3 * i + 2];
      for (let p = rowPtr[i], e = rowPtr[i + 1]; p < e; p += 6) {
        const c = colIdx[p];
        s += values[p + o0] * x[c + o0];
        s += values[p + o1] * x[c + o1];
        s += values[p + o2] * x[c + o2];
      }
      y[i] = s;
      continue;
    }
    for (let p = rowPtr[i], e = rowPtr[i + 1]; p < e; p += 6) {
      const c = colIdx[p];
      s += values[p] * x[c];
      s += values[p + 1] * x[c + 1];
      s += values[p + 2] * x[c + 2];
      s += values[p + 3] * x[c + 3];
      s += values[p + 4] * x[c + 4];
      s += values[p + 5] * x[c + 5];
    }
    y[i] = s;
  }
  return y;
}

/** y = Jᵀ·x (csrTransposeMulVec: rows with x_i = 0 skipped). `slots`, `runs`: as for `jMulVec`. */
export function jTransposeMulVec(m: CsrMatrix, x: ArrayLike<number>, out?: Float64Array, slots?: Int8Array, runs = hasRuns(m)): Float64Array {
  if (!runs) return csrTransposeMulVec(m, x, out);
  const y = out ?? new Float64Array(m.cols);
  y.fill(0, 0, m.cols);
  const { rowPtr, colIdx, values } = m;
  for (let i = 0; i < m.rows; i++) {
    const xi = x[i];
    if (xi === 0) continue;
    if (slots && slots[3 * i] >= 0) {
      const o0 = slots[3 * i], o1 = slots[3 * i + 1], o2 = slots[3 * i + 2];
      for (let p = rowPtr[i], e = rowPtr[i + 1]; p < e; p += 6) {
        const c = colIdx[p];
        y[c + o0] += values[p + o0] * xi;
        y[c + o1] += values[p + o1] * xi;
        y[c + o2] += values[p + o2] * xi;
      }
      continue;
    }
    for (let p = rowPtr[i], e = rowPtr[i + 1]; p < e; p += 6) {
      const c = colIdx[p];
      y[c] += values[p] * xi;
      y[c + 1] += values[p + 1] * xi;
      y[c + 2] += values[p + 2] * xi;
      y[c + 3] += values[p + 3] * xi;
      y[c + 4] += values[p + 4] * xi;
      y[c + 5] += values[p + 5] * xi;
    }
  }
  return y;
}

// The row kernels of assemble.ts: J's values of one row block copied, Ċ = J·v accumulated on the way.

/**
 * Jvals[d..d+6] = J[o..o+6], and cd + Σ_j J[o+j]·v[c+j] added in order j = 0..5: the former
 * per-entry loop's operations, unrolled (the same numbers bit for bit).
 */
export function copyRow6(J: Float64Array, o: number, Jvals: Float64Array, d: number, v: Float64Array, c: number, cd: number): number {
  const x0 = J[o], x1 = J[o + 1], x2 = J[o + 2], x3 = J[o + 3], x4 = J[o + 4], x5 = J[o + 5];
  Jvals[d] = x0;
  Jvals[d + 1] = x1;
  Jvals[d + 2] = x2;
  Jvals[d + 3] = x3;
  Jvals[d + 4] = x4;
  Jvals[d + 5] = x5;
  cd += x0 * v[c];
  cd += x1 * v[c + 1];
  cd += x2 * v[c + 2];
  cd += x3 * v[c + 3];
  cd += x4 * v[c + 4];
  cd += x5 * v[c + 5];
  return cd;
}

/** copyRow6 for a row with exact zeros outside entries s0 < s1 < s2 (jProducts.ts rowSlotsOf): Ċ adds only theirs. */
export function copyRow6Slots(J: Float64Array, o: number, Jvals: Float64Array, d: number, v: Float64Array, c: number, cd: number, s0: number, s1: number, s2: number): number {
  Jvals[d] = J[o];
  Jvals[d + 1] = J[o + 1];
  Jvals[d + 2] = J[o + 2];
  Jvals[d + 3] = J[o + 3];
  Jvals[d + 4] = J[o + 4];
  Jvals[d + 5] = J[o + 5];
  cd += J[o + s0] * v[c + s0];
  cd += J[o + s1] * v[c + s1];
  cd += J[o + s2] * v[c + s2];
  return cd;
}

/** s + J[o+s0]·x[c+s0] + J[o+s1]·x[c+s1] + J[o+s2]·x[c+s2], added in that order (`jMulVec`'s terms of one run with slots). */
export function addRun3(J: Float64Array, o: number, x: Float64Array, c: number, s: number, s0: number, s1: number, s2: number): number {
  s += J[o + s0] * x[c + s0];
  s += J[o + s1] * x[c + s1];
  s += J[o + s2] * x[c + s2];
  return s;
}

/**
 * Whether every row of the world's J has row slots and J's pattern is runs of 6: then `jMulVec(J, x, …, slots)`
 * is, row by row, the sums `addRun3` gives over the row's blocks in column order (assemble.ts uses it to form
 * J·a₀ in its Ċ pass, the same numbers bit for bit).
 */
export function slotsCoverJ(world: World): boolean {
  const slots = rowSlotsOf(world);
  for (let i = 0; i < world.nRows; i++) if (slots[3 * i] < 0) return false;
  return jRunsOf(world);
}
