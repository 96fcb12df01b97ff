// A contact's projected step in the joints' reduced space (pgs.ts, with the joints as one block).
// Visited row by row in maximal coordinates, a foot's contact sees only the foot's own inverse mass
// W_cc, while the force it needs is set by the whole articulated body behind it: each sweep moves
// the force a little, the joint block passes it on, and a legged robot runs hundreds of sweeps.
// Eliminating the joint rows b from the contact's step gives the effective block of the articulated
// system (the contact rows' entries of A in generalized coordinates):
//   A_cc = W_cc + Σ_c − W_cb·(W_bb + Σ_b)⁻¹·W_bc,   Y_c = (W_bb + Σ_b)⁻¹·W_bc,
// and a change ΔR_c of the contact comes with ΔR_b = −Y_c·ΔR_c, which keeps the joint rows exactly
// as the block left them. The contact's visit is then Gauss–Seidel on the joint-free problem, whose
// fixed point is the same (the joint rows hold at the end of every sweep either way).
// The joints' block itself is formed here too, a column at a time and only where rows share a body.
import { BilateralBlock } from './bilateralBlock';
import type { RowEnd } from './driveBlocks';
import { kick, type RowEnds } from './pgsKernels';
import type { BoundedRow } from './boundedRows';

/** A row's ends: bilateral rows (r < nbr) from J's CSR (6 entries per end), bounded rows (r ≥ nr0) from their own. */
export function rowEndsOf(J: { values: Float64Array; rowPtr: ArrayLike<number>; colIdx: ArrayLike<number> }, nbr: number, nr0: number, bounded: readonly BoundedRow[]): (r: number) => RowEnd[] {
  const Jv = J.values, Jp = J.rowPtr, Jc = J.colIdx;
  return (r) => {
    if (r < nbr) {
      const out: RowEnd[] = [];
      for (let k = Jp[r]; k < Jp[r + 1]; k += 6) out.push({ slot: Jc[k] / 6, J: Jv, o: k });
      return out;
    }
    const b = bounded[r - nr0];
    return [{ slot: b.slotA, J: b.JA, o: 0 }, { slot: b.slotB, J: b.JB, o: 0 }, ...(b.more ?? []).map((e) => ({ slot: e.slot, J: e.J, o: 0 }))].filter((e) => e.slot >= 0);
  };
}

export interface ReducedRows {
  /** The block's rows (indices into pgs.ts' R). */
  rows: readonly number[];
  /** Y, one column of rows.length per reduced row. */
  Y: Float64Array;
  /** The velocity change per unit force of each reduced row, the joints' correction included: one u.length each. */
  du: Float64Array;
  /** k: how many rows (3 for a contact, 1 for a bounded row). */
  k: number;
}

/**
 * The block's rows in flat arrays, built once per island and step (every contact of the island is
 * reduced against the same `ends`): each row's ends (slot, J, offset) and, per slot, the rows with an
 * end on it. A contact's column W_bc is nonzero only on the rows that share one of its bodies, so its
 * column is formed from those few rows instead of a dot product with every row of the block.
 */
interface EndsIndex {
  start: Int32Array;
  slot: Int32Array;
  off: Int32Array;
  J: ArrayLike<number>[];
  /** rows with an end on slot s: byRow[byStart[s] .. byStart[s + 1]) (each row once per slot) */
  byStart: Int32Array;
  byRow: Int32Array;
  /** per row, the last contact row (a running count) whose column touched it: no row twice per column */
  mark: Int32Array;
  stamp: number;
  col: Float64Array;
  y: Float64Array;
  /** the rows of the current column's nonzeros */
  touched: Int32Array;
}

const indexOf = new WeakMap<readonly RowEnd[][], EndsIndex>();

function endsIndex(ends: readonly RowEnd[][]): EndsIndex {
  let ix = indexOf.get(ends);
  if (ix) return ix;
  const m = ends.length;
  const start = new Int32Array(m + 1);
  let maxSlot = -1;
  for (let i = 0; i < m; i++) {
    start[i + 1] = start[i] + ends[i].length;
    for (const e of ends[i]) maxSlot = Math.max(maxSlot, e.slot);
  }
  const ne = start[m];
  const slot = new Int32Array(ne), off = new Int32Array(ne);
  const J: ArrayLike<number>[] = new Array<ArrayLike<number>>(ne);
  const count = new Int32Array(maxSlot + 2);
  const last = new Int32Array(maxSlot + 1).fill(-1);
  for (let i = 0; i < m; i++) {
    for (let q = start[i], t = 0; q < start[i + 1]; q++, t++) {
      const e = ends[i][t];
      slot[q] = e.slot;
      off[q] = e.o;
      J[q] = e.J;
      if (last[e.slot] !== i) {
        last[e.slot] = i;
        count[e.slot + 1]++;
      }
    }
  }
  const byStart = new Int32Array(maxSlot + 2);
  for (let s = 0; s <= maxSlot; s++) byStart[s + 1] = byStart[s] + count[s + 1];
  const byRow = new Int32Array(byStart[maxSlot + 1]);
  const fill = byStart.slice(0, maxSlot + 1);
  last.fill(-1);
  for (let i = 0; i < m; i++) {
    for (let q = start[i]; q < start[i + 1]; q++) {
      if (last[slot[q]] === i) continue;
      last[slot[q]] = i;
      byRow[fill[slot[q]]++] = i;
    }
  }
  ix = { start, slot, off, J, byStart, byRow, mark: new Int32Array(m).fill(-1), stamp: 0, col: new Float64Array(m), y: new Float64Array(m), touched: new Int32Array(m) };
  indexOf.set(ends, ix);
  return ix;
}

/**
 * The reduced step of k rows (their ends `own`) against the factored block of `rows` (ends `ends`):
 * Y and du, and the effective A = W − W_cb·Y (k×k, row-major, without the rows' own Σ) into `A`.
 */
export function reduceRows(own: readonly RowEnd[][], rows: readonly number[], ends: readonly RowEnd[][], block: BilateralBlock, minv: Float64Array, h: number, nu: number, A: Float64Array): ReducedRows {
  const m = rows.length, k = own.length;
  const Y = new Float64Array(k * m);
  const du = new Float64Array(k * nu);
  const ix = endsIndex(ends);
  const { start, slot, off, J, byStart, byRow, mark, col, y, touched } = ix;
  const nSlots = byStart.length - 1;
  for (let j = 0; j < k; j++) {
    const v = du.subarray(j * nu, (j + 1) * nu);
    const oj = own[j];
    for (let t = 0; t < oj.length; t++) kick(v, oj[t].J, oj[t].o, oj[t].slot, minv, h);
    // W_bc: only the rows with an end on one of this row's bodies see its velocity change (v is
    // zero on every other body, so each other entry would be an exact zero)
    col.fill(0);
    const stamp = ++ix.stamp;
    let nt = 0;
    for (let t = 0; t < oj.length; t++) {
      const sj = oj[t].slot;
      if (sj >= nSlots) continue;
      for (let p = byStart[sj]; p < byStart[sj + 1]; p++) {
        const i = byRow[p];
        if (mark[i] === stamp) continue;
        mark[i] = stamp;
        touched[nt++] = i;
        let s = 0;
        // dot6 written out: a double returned from a call V8 does not inline is a fresh heap number
        for (let q = start[i]; q < start[i + 1]; q++) {
          const Jq = J[q], o = off[q], u0 = 6 * slot[q];
          s += Jq[o] * v[u0] + Jq[o + 1] * v[u0 + 1] + Jq[o + 2] * v[u0 + 2] + Jq[o + 3] * v[u0 + 3] + Jq[o + 4] * v[u0 + 4] + Jq[o + 5] * v[u0 + 5];
        }
        col[i] = s;
      }
    }
    block.solveFrom(col, touched, nt, y);
    Y.set(y, j * m);
    for (let i = 0; i < m; i++) {
      const yi = y[i];
      if (yi === 0) continue;
      for (let q = start[i]; q < start[i + 1]; q++) kick(v, J[q], off[q], slot[q], minv, -h * yi);
    }
  }
  // J_i·du_j = W_ij − W_ib·Y_j: the Schur complement, exactly
  for (let i = 0; i < k; i++) {
    const oi = own[i];
    for (let j = 0; j < k; j++) {
      let s = 0;
      for (let t = 0; t < oi.length; t++) {
        const e = oi[t], Je = e.J, o = e.o, u0 = j * nu + 6 * e.slot;
        s += Je[o] * du[u0] + Je[o + 1] * du[u0 + 1] + Je[o + 2] * du[u0 + 2] + Je[o + 3] * du[u0 + 3] + Je[o + 4] * du[u0 + 4] + Je[o + 5] * du[u0 + 5];
      }
      A[i * k + j] = s;
    }
  }
  return { rows, Y, du, k };
}

/** The ends of a contact's three rows (n, t1, t2). */
export function contactEnds(cr: RowEnds): RowEnd[][] {
  return [0, 1, 2].map((k) => [{ slot: cr.slotA, J: cr.JA, o: 6 * k }, { slot: cr.slotB, J: cr.JB, o: 6 * k }].filter((e) => e.slot >= 0));
}

/** Applies the reduced rows' force change d (k numbers from `d0`, `d1`, `d2`) with the joints' correction: u and the block rows' R. */
export function applyReduced(red: ReducedRows, d0: number, d1: number, d2: number, u: Float64Array, R: Float64Array): void {
  const { rows, Y, du, k } = red;
  const m = rows.length, nu = u.length;
  if (k === 1) {
    for (let i = 0; i < nu; i++) u[i] += du[i] * d0;
    for (let i = 0; i < m; i++) R[rows[i]] -= Y[i] * d0;
    return;
  }
  for (let i = 0; i < nu; i++) u[i] += du[i] * d0 + du[nu + i] * d1 + du[2 * nu + i] * d2;
  for (let i = 0; i < m; i++) R[rows[i]] -= Y[i] * d0 + Y[m + i] * d1 + Y[2 * m + i] * d2;
}

/**
 * The joints' block (W + Σ of `rows`, bilateralBlock.ts) formed column by column: h·M⁻¹·J_jᵀ into
 * `scratch` (zero on entry and on return), then J_i·(it) for the rows i on the same bodies.
 */
export function jointBlock(rows: readonly number[], endsOf: (r: number) => RowEnd[], sigmaOf: (r: number) => number, minv: Float64Array, h: number, scratch: Float64Array): BilateralBlock {
  const ends = rows.map(endsOf);
  // W_ij ≠ 0 only where rows i and j share a body: each column visits the rows on its own bodies
  const { start, slot, off, J, byStart, byRow } = endsIndex(ends);
  const seen = new Int32Array(rows.length).fill(-1);
  return new BilateralBlock(rows.length, (j, out) => {
    out.fill(0);
    for (let q = start[j]; q < start[j + 1]; q++) kick(scratch, J[q], off[q], slot[q], minv, h);
    for (let qj = start[j]; qj < start[j + 1]; qj++) {
      const sj = slot[qj];
      for (let p = byStart[sj]; p < byStart[sj + 1]; p++) {
        const i = byRow[p];
        if (seen[i] === j) continue;
        seen[i] = j;
        let v = i === j ? sigmaOf(rows[i]) : 0;
        for (let q = start[i]; q < start[i + 1]; q++) {
          const Jq = J[q], o = off[q], u0 = 6 * slot[q];
          v += Jq[o] * scratch[u0] + Jq[o + 1] * scratch[u0 + 1] + Jq[o + 2] * scratch[u0 + 2] + Jq[o + 3] * scratch[u0 + 3] + Jq[o + 4] * scratch[u0 + 4] + Jq[o + 5] * scratch[u0 + 5];
        }
        out[i] = v;
      }
    }
    for (let q = start[j]; q < start[j + 1]; q++) scratch.fill(0, 6 * slot[q], 6 * slot[q] + 6);
  });
}
