// A = J·M⁻¹·Jᵀ through a flat schedule built once per world: no per-step lookups of which
// constraints touch which body, no tuples, every entry of A written once.
//
//   G = J·M⁻¹ block by block in J's own value layout (each 6-value block of a J row belongs to one
//   body, so G's block is that block times the body's M⁻¹ block);
//   for each pair of constraints (ci ≥ cj) sharing a body, block (ci, cj) of A is
//   Σ over the shared bodies k (ascending) of G[ci rows, k]·J[cj rows, k]ᵀ, on or below the diagonal
//   (computed exactly as the former body-by-body accumulation did, term for term, which is what the
//   up-looking Cholesky reads), and block (cj, ci) is its mirror (A is symmetric).

/** The schedule of A's entries, by block pairs (ci, cj), ci ≥ cj, of constraints sharing a body. */
export interface APlan {
  /** Per 6-value block of J (value offset 6·b): the offset of its body in the compact M⁻¹ (10 numbers a body). */
  blockMinv: Int32Array;
  /**
   * Per block pair, 7 numbers: rows of ci, rows of cj, first row of ci, first row of cj, the offset of
   * cj's columns within ci's rows of A, the offset of ci's columns within cj's rows, the first term.
   */
  pairs: Int32Array;
  /** pairTerms[p] .. pairTerms[p+1]: the terms of block pair p. */
  pairTerms: Int32Array;
  /**
   * Per term (one shared body), 4 numbers: the J value offset of ci's first row's block for the body
   * and the step to the next row's, and the same for cj.
   */
  terms: Int32Array;
  /**
   * Per block pair: 1 when cj's three rows are ball rows (exact zeros where BALL_ROW_MASKS says,
   * ConstraintModel.rowMasks), so that `pair33Ball` reads only J's three possibly nonzero entries.
   */
  pairBall: Uint8Array;
  /** G = J·M⁻¹ (J's value layout) and one row of sums. Scratch of `assembleAValues` only: filled and consumed within one call, never returned. */
  G: Float64Array;
  acc: Float64Array;
  /** Σ|J| over the values the last `assembleAValues` read (summed in its G pass; NaN or ∞ when one is): assemble.ts AssemblyBuffers.absJ. */
  absJ: number;
}

/** What the plan is built from (the world's layout, assemble.ts `buildWorld`). */
export interface APlanInput {
  rowStart: Int32Array;
  jColIdx: Int32Array;
  jRowPtr: Int32Array;
  /** Per column-owning body: [constraint, end] touching it with rows in A (assemble.ts `touching`). */
  touching: ReadonlyArray<ReadonlyArray<readonly [number, number]>>;
  /** Per body, offsets within A's row of block (ci, cj), row-major over touching² (assemble.ts `pairOffset`). */
  pairOffset: readonly Int32Array[];
  /** J value offset of the block of end `e` (0 = A, 1 = B, 2+k = extra k) in row `row` of constraint `c`. */
  jOffset: (c: number, e: number, row: number) => number;
  /** Whether constraint c's rows are the three ball rows (x, y, z; ConstraintModel.rowMasks = BALL_ROW_MASKS) and nothing else. */
  ballTriple?: (c: number) => boolean;
}

export function buildAPlan(x: APlanInput): APlan {
  const { rowStart, jRowPtr, touching, pairOffset } = x;
  const nBlocks = x.jColIdx.length / 6;
  const blockMinv = new Int32Array(nBlocks);
  for (let b = 0; b < nBlocks; b++) blockMinv[b] = (x.jColIdx[6 * b] / 6) * 10;
  const nc = rowStart.length - 1;
  const rowsOf = (c: number) => rowStart[c + 1] - rowStart[c];
  // the J value stride between consecutive rows of a constraint (every row has the same ends)
  const strideOf = (c: number) => (rowsOf(c) > 0 ? jRowPtr[rowStart[c] + 1] - jRowPtr[rowStart[c]] : 0);

  // Block pairs in the order they are first met; terms per pair in body order (two passes: count, fill).
  const pairIndex = new Map<number, number>();
  const pairList: number[] = [];
  const counts: number[] = [];
  let maxRows = 0;
  const visit = (emit: (p: number, k: number, ci: number, ei: number, cj: number, ej: number) => void) => {
    for (let k = 0; k < touching.length; k++) {
      const t = touching[k];
      for (let i = 0; i < t.length; i++) {
        const [ci, ei] = t[i];
        if (rowsOf(ci) === 0) continue;
        for (let j = 0; j < t.length; j++) {
          const [cj, ej] = t[j];
          if (cj > ci || rowsOf(cj) === 0) continue;
          const key = ci * nc + cj;
          let p = pairIndex.get(key);
          if (p === undefined) {
            p = counts.length;
            pairIndex.set(key, p);
            counts.push(0);
            maxRows = Math.max(maxRows, rowsOf(ci), rowsOf(cj));
            pairList.push(ci, cj, pairOffset[k][i * t.length + j], pairOffset[k][j * t.length + i]);
          }
          emit(p, k, ci, ei, cj, ej);
        }
      }
    }
  };
  visit((p) => counts[p]++);
  const np = counts.length;
  const pairTerms = new Int32Array(np + 1);
  for (let p = 0; p < np; p++) pairTerms[p + 1] = pairTerms[p] + counts[p];
  const pairs = new Int32Array(7 * np);
  const pairBall = new Uint8Array(np);
  for (let p = 0; p < np; p++) {
    const ci = pairList[4 * p], cj = pairList[4 * p + 1];
    pairBall[p] = x.ballTriple?.(cj) ? 1 : 0;
    pairs.set([rowsOf(ci), rowsOf(cj), rowStart[ci], rowStart[cj], pairList[4 * p + 2], pairList[4 * p + 3], pairTerms[p]], 7 * p);
  }
  const terms = new Int32Array(4 * pairTerms[np]);
  const fill = pairTerms.slice(0, np);
  visit((p, _k, ci, ei, cj, ej) => {
    const t = 4 * fill[p]++;
    terms[t] = x.jOffset(ci, ei, 0);
    terms[t + 1] = strideOf(ci);
    terms[t + 2] = x.jOffset(cj, ej, 0);
    terms[t + 3] = strideOf(cj);
  });
  return { blockMinv, pairs, pairTerms, terms, pairBall, G: new Float64Array(x.jColIdx.length), acc: new Float64Array(Math.max(1, maxRows)), absJ: NaN };
}

/**
 * A's values (A's pattern, full symmetric storage) from J's values and the compact M⁻¹ (1/m and the
 * world inverse inertia per body). `out`: where to write; every entry of A's pattern is written.
 * `unrolled` (default): 3×3 block pairs (ball joints) through `pair33`, the same numbers bit for bit;
 * false: every pair through the general loop (the reference of the unrolled one in the unit tests).
 */
export function assembleAValues(plan: APlan, aRowPtr: Int32Array, Jv: Float64Array, minvCompact: Float64Array, out: Float64Array, unrolled = true): Float64Array {
  const { blockMinv, pairs, pairTerms, terms, pairBall, G, acc } = plan;
  // G = J·M⁻¹, block by block (the same products, in the same order, as J_i,b·M⁻¹_b before)
  // Σ|J| on the way (plan.absJ), two partial sums
  let sj0 = 0, sj1 = 0;
  for (let b = 0, o = 0; b < blockMinv.length; b++, o += 6) {
    const m0 = blockMinv[b];
    const invm = minvCompact[m0];
    const j0 = Jv[o], j1 = Jv[o + 1], j2 = Jv[o + 2];
    G[o] = j0 * invm;
    G[o + 1] = j1 * invm;
    G[o + 2] = j2 * invm;
    const a0 = Jv[o + 3], a1 = Jv[o + 4], a2 = Jv[o + 5];
    G[o + 3] = a0 * minvCompact[m0 + 1] + a1 * minvCompact[m0 + 4] + a2 * minvCompact[m0 + 7];
    G[o + 4] = a0 * minvCompact[m0 + 2] + a1 * minvCompact[m0 + 5] + a2 * minvCompact[m0 + 8];
    G[o + 5] = a0 * minvCompact[m0 + 3] + a1 * minvCompact[m0 + 6] + a2 * minvCompact[m0 + 9];
    sj0 += Math.abs(j0) + Math.abs(j1) + Math.abs(j2);
    sj1 += Math.abs(a0) + Math.abs(a1) + Math.abs(a2);
  }
  plan.absJ = sj0 + sj1;
  const np = pairTerms.length - 1;
  for (let p = 0; p < np; p++) {
    const o = 7 * p;
    const ri = pairs[o], rj = pairs[o + 1], a0 = pairs[o + 2], b0 = pairs[o + 3], po = pairs[o + 4], pm = pairs[o + 5];
    const t0 = pairTerms[p], t1 = pairTerms[p + 1];
    const diag = a0 === b0;
    if (unrolled && ri === 3 && rj === 3) {
      (pairBall[p] ? pair33Ball : pair33)(G, Jv, terms, t0, t1, diag, aRowPtr[a0] + po, aRowPtr[a0 + 1] + po, aRowPtr[a0 + 2] + po, aRowPtr[b0] + pm, aRowPtr[b0 + 1] + pm, aRowPtr[b0 + 2] + pm, out);
      continue;
    }
    for (let r = 0; r < ri; r++) {
      // entries (r, s) of the block on or below A's diagonal: all of them off the diagonal block, s ≤ r on it
      const ns = diag ? r + 1 : rj;
      for (let s = 0; s < ns; s++) acc[s] = 0;
      for (let t = 4 * t0; t < 4 * t1; t += 4) {
        const g = terms[t] + r * terms[t + 1];
        const g0 = G[g], g1 = G[g + 1], g2 = G[g + 2], g3 = G[g + 3], g4 = G[g + 4], g5 = G[g + 5];
        const js = terms[t + 3];
        for (let s = 0, q = terms[t + 2]; s < ns; s++, q += js) {
          acc[s] += g0 * Jv[q] + g1 * Jv[q + 1] + g2 * Jv[q + 2] + g3 * Jv[q + 3] + g4 * Jv[q + 4] + g5 * Jv[q + 5];
        }
      }
      const d = aRowPtr[a0 + r] + po;
      for (let s = 0; s < ns; s++) {
        const x = acc[s];
        out[d + s] = x;
        out[aRowPtr[b0 + s] + pm + r] = x;
      }
    }
  }
  return out;
}

/**
 * The store of a 3×3 block pair (`pair33`, `pair33Ball`): block (r, s) at d_r + s and its mirror at
 * e_s + r; on a diagonal block only s ≤ r (the general loop's entries). Small enough to be inlined
 * into both callers (no boxing of the nine sums).
 */
function store33(out: Float64Array, diag: boolean, d0: number, d1: number, d2: number, e0: number, e1: number, e2: number, c00: number, c01: number, c02: number, c10: number, c11: number, c12: number, c20: number, c21: number, c22: number): void {
  out[d0] = c00;
  out[e0] = c00;
  out[d1] = c10;
  out[e0 + 1] = c10;
  out[d1 + 1] = c11;
  out[e1 + 1] = c11;
  out[d2] = c20;
  out[e0 + 2] = c20;
  out[d2 + 1] = c21;
  out[e1 + 2] = c21;
  out[d2 + 2] = c22;
  out[e2 + 2] = c22;
  if (diag) return;
  out[d0 + 1] = c01;
  out[e1] = c01;
  out[d0 + 2] = c02;
  out[e2] = c02;
  out[d1 + 2] = c12;
  out[e2 + 1] = c12;
}

/**
 * One 3×3 block pair of `assembleAValues` (ball joints), unrolled: entry (r, s) is the sum over the
 * terms of G_r·J_s, each term's 6-product dot added as the general loop adds it (acc[s] += dot), so
 * the values are the general loop's bit for bit. d0..d2: where rows r of ci's block start (columns
 * of cj); e0..e2: where rows s of cj's block start (columns of ci), for the mirror. On a diagonal
 * block only s ≤ r is computed and mirrored, as in the general loop.
 */
function pair33(G: Float64Array, Jv: Float64Array, terms: Int32Array, t0: number, t1: number, diag: boolean, d0: number, d1: number, d2: number, e0: number, e1: number, e2: number, out: Float64Array): void {
  let c00 = 0, c01 = 0, c02 = 0, c10 = 0, c11 = 0, c12 = 0, c20 = 0, c21 = 0, c22 = 0;
  for (let t = 4 * t0; t < 4 * t1; t += 4) {
    const gs = terms[t + 1], js = terms[t + 3];
    const q0 = terms[t + 2], q1 = q0 + js, q2 = q1 + js;
    const j00 = Jv[q0], j01 = Jv[q0 + 1], j02 = Jv[q0 + 2], j03 = Jv[q0 + 3], j04 = Jv[q0 + 4], j05 = Jv[q0 + 5];
    const j10 = Jv[q1], j11 = Jv[q1 + 1], j12 = Jv[q1 + 2], j13 = Jv[q1 + 3], j14 = Jv[q1 + 4], j15 = Jv[q1 + 5];
    const j20 = Jv[q2], j21 = Jv[q2 + 1], j22 = Jv[q2 + 2], j23 = Jv[q2 + 3], j24 = Jv[q2 + 4], j25 = Jv[q2 + 5];
    let g = terms[t];
    let g0 = G[g], g1 = G[g + 1], g2 = G[g + 2], g3 = G[g + 3], g4 = G[g + 4], g5 = G[g + 5];
    c00 += g0 * j00 + g1 * j01 + g2 * j02 + g3 * j03 + g4 * j04 + g5 * j05;
    if (!diag) {
      c01 += g0 * j10 + g1 * j11 + g2 * j12 + g3 * j13 + g4 * j14 + g5 * j15;
      c02 += g0 * j20 + g1 * j21 + g2 * j22 + g3 * j23 + g4 * j24 + g5 * j25;
    }
    g += gs;
    g0 = G[g]; g1 = G[g + 1]; g2 = G[g + 2]; g3 = G[g + 3]; g4 = G[g + 4]; g5 = G[g + 5];
    c10 += g0 * j00 + g1 * j01 + g2 * j02 + g3 * j03 + g4 * j04 + g5 * j05;
    c11 += g0 * j10 + g1 * j11 + g2 * j12 + g3 * j13 + g4 * j14 + g5 * j15;
    if (!diag) c12 += g0 * j20 + g1 * j21 + g2 * j22 + g3 * j23 + g4 * j24 + g5 * j25;
    g += gs;
    g0 = G[g]; g1 = G[g + 1]; g2 = G[g + 2]; g3 = G[g + 3]; g4 = G[g + 4]; g5 = G[g + 5];
    c20 += g0 * j00 + g1 * j01 + g2 * j02 + g3 * j03 + g4 * j04 + g5 * j05;
    c21 += g0 * j10 + g1 * j11 + g2 * j12 + g3 * j13 + g4 * j14 + g5 * j15;
    c22 += g0 * j20 + g1 * j21 + g2 * j22 + g3 * j23 + g4 * j24 + g5 * j25;
  }
  store33(out, diag, d0, d1, d2, e0, e1, e2, c00, c01, c02, c10, c11, c12, c20, c21, c22);
}

/**
 * `pair33` when cj's rows are ball rows (x: entries 0, 4, 5 of each block; y: 1, 3, 5; z: 2, 3, 4 —
 * the others exact zeros, BALL_ROW_MASKS): each dot adds only the possibly nonzero products, in
 * pair33's order. The same values bit for bit: a dot's skipped terms are ±0 (G is finite when A is
 * used), which change no nonzero partial sum, and a zero dot (of either sign) added to an
 * accumulator that starts at +0 leaves it as pair33's would.
 */
function pair33Ball(G: Float64Array, Jv: Float64Array, terms: Int32Array, t0: number, t1: number, diag: boolean, d0: number, d1: number, d2: number, e0: number, e1: number, e2: number, out: Float64Array): void {
  let c00 = 0, c01 = 0, c02 = 0, c10 = 0, c11 = 0, c12 = 0, c20 = 0, c21 = 0, c22 = 0;
  for (let t = 4 * t0; t < 4 * t1; t += 4) {
    const gs = terms[t + 1], js = terms[t + 3];
    const q0 = terms[t + 2], q1 = q0 + js, q2 = q1 + js;
    const j00 = Jv[q0], j04 = Jv[q0 + 4], j05 = Jv[q0 + 5];
    const j11 = Jv[q1 + 1], j13 = Jv[q1 + 3], j15 = Jv[q1 + 5];
    const j22 = Jv[q2 + 2], j23 = Jv[q2 + 3], j24 = Jv[q2 + 4];
    let g = terms[t];
    let g0 = G[g], g1 = G[g + 1], g2 = G[g + 2], g3 = G[g + 3], g4 = G[g + 4], g5 = G[g + 5];
    c00 += g0 * j00 + g4 * j04 + g5 * j05;
    if (!diag) {
      c01 += g1 * j11 + g3 * j13 + g5 * j15;
      c02 += g2 * j22 + g3 * j23 + g4 * j24;
    }
    g += gs;
    g0 = G[g]; g1 = G[g + 1]; g2 = G[g + 2]; g3 = G[g + 3]; g4 = G[g + 4]; g5 = G[g + 5];
    c10 += g0 * j00 + g4 * j04 + g5 * j05;
    c11 += g1 * j11 + g3 * j13 + g5 * j15;
    if (!diag) c12 += g2 * j22 + g3 * j23 + g4 * j24;
    g += gs;
    g0 = G[g]; g1 = G[g + 1]; g2 = G[g + 2]; g3 = G[g + 3]; g4 = G[g + 4]; g5 = G[g + 5];
    c20 += g0 * j00 + g4 * j04 + g5 * j05;
    c21 += g1 * j11 + g3 * j13 + g5 * j15;
    c22 += g2 * j22 + g3 * j23 + g4 * j24;
  }
  store33(out, diag, d0, d1, d2, e0, e1, e2, c00, c01, c02, c10, c11, c12, c20, c21, c22);
}
