// A = J·M⁻¹·Jᵀ through a flat schedule built once per world (issue 9): no per-step lookups of which
// constraints touch which body, no tuples, every entry of A written once.
//
//   G = J·M⁻¹ block by block in J's own value layout (each 6-value block of a J row belongs to one
//   body, so G's block is that block times the body's M⁻¹ block);
//   A[a][b] = Σ over the bodies k both rows touch (k ascending) of G[a, k]·J[b, k] for a ≥ b
//   (the lower triangle, computed exactly as the former body-by-body accumulation did, term for term),
//   and A[b][a] the same number (A is symmetric; the upper triangle is its mirror).

/** The schedule of A's entries. */
export interface APlan {
  /** Per 6-value block of J (value offset 6·b): the offset of its body in the compact M⁻¹ (10 numbers a body). */
  blockMinv: Int32Array;
  /** Per lower-triangle entry u of A (column ≤ row, in A's value order): its value offset and its mirror's (equal on the diagonal). */
  dest: Int32Array;
  mirror: Int32Array;
  /** Terms of entry u: terms[2t], terms[2t+1] for t in [termPtr[u], termPtr[u+1]): the J value offsets of row a's and row b's blocks of one shared body. */
  termPtr: Int32Array;
  terms: Int32Array;
  /** G = J·M⁻¹ (J's value layout). Scratch of `assembleAValues` only: filled and consumed within one call, never returned. */
  G: Float64Array;
}

/** What the plan is built from (the world's layout, assemble.ts `buildWorld`). */
export interface APlanInput {
  nRows: number;
  rowStart: Int32Array;
  constraintRows: (c: number) => number;
  jColIdx: Int32Array;
  aRowPtr: Int32Array;
  aColIdx: Int32Array;
  /** Per column-owning body: [constraint, end] touching it with rows in A (assemble.ts `touching`). */
  touching: ReadonlyArray<ReadonlyArray<readonly [number, number]>>;
  /** Per body, offsets within A's row of block (ci, cj), row-major over touching² (assemble.ts `pairOffset`). */
  pairOffset: readonly Int32Array[];
  /** J value offset of the block of end `e` (0 = A, 1 = B, 2+k = extra k) in row `row` of constraint `c`. */
  jOffset: (c: number, e: number, row: number) => number;
}

export function buildAPlan(x: APlanInput): APlan {
  const { rowStart, aRowPtr, aColIdx, touching, pairOffset } = x;
  const nBlocks = x.jColIdx.length / 6;
  const blockMinv = new Int32Array(nBlocks);
  for (let b = 0; b < nBlocks; b++) blockMinv[b] = (x.jColIdx[6 * b] / 6) * 10;

  // Lower-triangle entries of A, numbered in A's value order.
  const nnz = aColIdx.length;
  const lowerOf = new Int32Array(nnz).fill(-1);
  let nLower = 0;
  for (let r = 0; r < x.nRows; r++) for (let p = aRowPtr[r]; p < aRowPtr[r + 1]; p++) if (aColIdx[p] <= r) lowerOf[p] = nLower++;
  const dest = new Int32Array(nLower);
  const mirror = new Int32Array(nLower);
  const termPtr = new Int32Array(nLower + 1);

  // Visit every (body, row a, row b ≤ a) triple in the former accumulation's order (body ascending);
  // the first pass counts the terms of each entry, the second writes them.
  const visit = (emit: (u: number, p: number, pm: number, ga: number, jb: number) => void) => {
    for (let k = 0; k < touching.length; k++) {
      const t = touching[k];
      const nt = t.length;
      for (let i = 0; i < nt; i++) {
        const [ci, ei] = t[i];
        const ri = x.constraintRows(ci);
        for (let j = 0; j < nt; j++) {
          const [cj, ej] = t[j];
          const rj = x.constraintRows(cj);
          const po = pairOffset[k][i * nt + j];
          const pt = pairOffset[k][j * nt + i];
          for (let r = 0; r < ri; r++) {
            const a = rowStart[ci] + r;
            for (let s = 0; s < rj; s++) {
              const b = rowStart[cj] + s;
              if (b > a) continue;
              const p = aRowPtr[a] + po + s;
              emit(lowerOf[p], p, aRowPtr[b] + pt + r, x.jOffset(ci, ei, r), x.jOffset(cj, ej, s));
            }
          }
        }
      }
    }
  };
  visit((u) => termPtr[u + 1]++);
  for (let u = 0; u < nLower; u++) termPtr[u + 1] += termPtr[u];
  const terms = new Int32Array(2 * termPtr[nLower]);
  const fill = termPtr.slice(0, nLower);
  visit((u, p, pm, ga, jb) => {
    dest[u] = p;
    mirror[u] = pm;
    const t = fill[u]++;
    terms[2 * t] = ga;
    terms[2 * t + 1] = jb;
  });
  return { blockMinv, dest, mirror, termPtr, terms, G: new Float64Array(x.jColIdx.length) };
}

/**
 * A's values (A's pattern, full symmetric storage) from J's values and the compact M⁻¹ (1/m and the
 * world inverse inertia per body). `out`: where to write; every entry of A's pattern is written.
 */
export function assembleAValues(plan: APlan, Jv: Float64Array, minvCompact: Float64Array, out: Float64Array): Float64Array {
  const { blockMinv, dest, mirror, termPtr, terms, G } = plan;
  // G = J·M⁻¹, block by block (the same products, in the same order, as J_i,b·M⁻¹_b before)
  for (let b = 0, o = 0; b < blockMinv.length; b++, o += 6) {
    const m0 = blockMinv[b];
    const invm = minvCompact[m0];
    G[o] = Jv[o] * invm;
    G[o + 1] = Jv[o + 1] * invm;
    G[o + 2] = Jv[o + 2] * invm;
    const a0 = Jv[o + 3], a1 = Jv[o + 4], a2 = Jv[o + 5];
    G[o + 3] = a0 * minvCompact[m0 + 1] + a1 * minvCompact[m0 + 4] + a2 * minvCompact[m0 + 7];
    G[o + 4] = a0 * minvCompact[m0 + 2] + a1 * minvCompact[m0 + 5] + a2 * minvCompact[m0 + 8];
    G[o + 5] = a0 * minvCompact[m0 + 3] + a1 * minvCompact[m0 + 6] + a2 * minvCompact[m0 + 9];
  }
  const nLower = dest.length;
  for (let u = 0; u < nLower; u++) {
    let s = 0;
    for (let t = termPtr[u], e = termPtr[u + 1]; t < e; t++) {
      const g = terms[2 * t];
      const q = terms[2 * t + 1];
      s += G[g] * Jv[q] + G[g + 1] * Jv[q + 1] + G[g + 2] * Jv[q + 2] + G[g + 3] * Jv[q + 3] + G[g + 4] * Jv[q + 4] + G[g + 5] * Jv[q + 5];
    }
    out[dest[u]] = s;
    out[mirror[u]] = s;
  }
  return out;
}

