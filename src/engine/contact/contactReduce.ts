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
import { dot6, kick, type RowEnds } from './pgsKernels';
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
 * The reduced step of k rows (their ends `own`) against the factored block of `rows` (ends `ends`):
 * Y and du, and the effective A = W − W_cb·Y (k×k, row-major, without the rows' own Σ) into `A`.
 */
export function reduceRows(own: readonly RowEnd[][], rows: readonly number[], ends: readonly RowEnd[][], block: BilateralBlock, minv: Float64Array, h: number, nu: number, A: Float64Array): ReducedRows {
  const m = rows.length, k = own.length;
  const Y = new Float64Array(k * m);
  const du = new Float64Array(k * nu);
  const col = new Float64Array(m);
  const y = new Float64Array(m);
  for (let j = 0; j < k; j++) {
    const v = du.subarray(j * nu, (j + 1) * nu);
    for (const e of own[j]) kick(v, e.J, e.o, e.slot, minv, h);
    for (let i = 0; i < ends.length; i++) {
      let s = 0;
      // dot6 written out: a double returned from a call V8 does not inline is a fresh heap number
      for (const e of ends[i]) {
        const J = e.J, o = e.o, u0 = 6 * e.slot;
        s += J[o] * v[u0] + J[o + 1] * v[u0 + 1] + J[o + 2] * v[u0 + 2] + J[o + 3] * v[u0 + 3] + J[o + 4] * v[u0 + 4] + J[o + 5] * v[u0 + 5];
      }
      col[i] = s;
    }
    block.solve(col, y);
    Y.set(y, j * m);
    ends.forEach((ei, i) => {
      if (y[i] !== 0) for (const e of ei) kick(v, e.J, e.o, e.slot, minv, -h * y[i]);
    });
  }
  // J_i·du_j = W_ij − W_ib·Y_j: the Schur complement, exactly
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      let s = 0;
      for (const e of own[i]) s += dot6(e.J, e.o, du.subarray(j * nu, (j + 1) * nu), e.slot);
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
  const bySlot = new Map<number, number[]>();
  ends.forEach((ei, i) => {
    for (const e of ei) {
      const l = bySlot.get(e.slot);
      if (!l) bySlot.set(e.slot, [i]);
      else if (l[l.length - 1] !== i) l.push(i);
    }
  });
  const seen = new Int32Array(rows.length).fill(-1);
  return new BilateralBlock(rows.length, (j, out) => {
    out.fill(0);
    for (const e of ends[j]) kick(scratch, e.J, e.o, e.slot, minv, h);
    for (const ej of ends[j]) {
      for (const i of bySlot.get(ej.slot) ?? []) {
        if (seen[i] === j) continue;
        seen[i] = j;
        let v = i === j ? sigmaOf(rows[i]) : 0;
        for (const e of ends[i]) v += dot6(e.J, e.o, scratch, e.slot);
        out[i] = v;
      }
    }
    for (const e of ends[j]) scratch.fill(0, 6 * e.slot, 6 * e.slot + 6);
  });
}
