// The tall-island path of the KKT solve: an island with many more rows than velocity columns
// (linalg/tall.ts `isTall`) is analysed through G = J·L (L·Lᵀ = M⁻¹, per body), an m×6n matrix,
// so the m×m A = G·Gᵀ is never factorised. docs/formulas.md "Tall systems".
import type { Assembly, World } from './assemble';
import type { Island } from './kkt';
import { isTall, solveTall } from './linalg/tall';
import type { SymmetricSolveResult } from './linalg/types';

/** A tall island whose block of A would have more entries than this is never formed (A omitted from the snapshot). */
export const DENSE_A_MAX_ENTRIES = 250_000;

/** Why A was not formed (the snapshot's `omitted.A`). */
export interface OmittedA {
  /** Rows of A left out (those of the tall islands), and their islands' velocity columns. */
  rows: number;
  columns: number;
  reason: string;
}

/**
 * The constraints whose rows of A are not formed: those of tall islands (isTall) whose m_i² entries
 * together pass DENSE_A_MAX_ENTRIES. `colA`/`colB`: the column block (body column / 6) of each end,
 * −1 for the world or a fixed body. Islands as in kkt.ts `islandsOf` (a union–find over column blocks).
 */
export function tallOmissions(nBlocks: number, colA: ArrayLike<number>, colB: ArrayLike<number>, rows: ArrayLike<number>): { skip: Uint8Array; omitted?: OmittedA } {
  const nc = rows.length;
  const skip = new Uint8Array(nc);
  const parent = Int32Array.from({ length: nBlocks }, (_, i) => i);
  const find = (x: number): number => {
    while (parent[x] !== x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (let c = 0; c < nc; c++) if (colA[c] >= 0 && colB[c] >= 0) parent[Math.max(find(colA[c]), find(colB[c]))] = Math.min(find(colA[c]), find(colB[c]));
  const islandRows = new Float64Array(nBlocks);
  const islandBodies = new Float64Array(nBlocks);
  for (let k = 0; k < nBlocks; k++) islandBodies[find(k)]++;
  const rootOf = (c: number) => (colA[c] >= 0 ? find(colA[c]) : colB[c] >= 0 ? find(colB[c]) : -1);
  for (let c = 0; c < nc; c++) {
    const r = rootOf(c);
    if (r >= 0) islandRows[r] += rows[c];
  }
  let entries = 0, omittedRows = 0, columns = 0, islands = 0;
  const tall = new Uint8Array(nBlocks);
  for (let k = 0; k < nBlocks; k++) {
    if (find(k) !== k || !isTall(islandRows[k], 6 * islandBodies[k])) continue;
    tall[k] = 1;
    entries += islandRows[k] ** 2;
    omittedRows += islandRows[k];
    columns += 6 * islandBodies[k];
    islands++;
  }
  if (entries <= DENSE_A_MAX_ENTRIES) return { skip };
  for (let c = 0; c < nc; c++) {
    const r = rootOf(c);
    if (r >= 0 && tall[r]) skip[c] = 1;
  }
  const reason =
    `A = J·M⁻¹·Jᵀ is not formed for the ${omittedRows} rows of ${islands === 1 ? 'a tall island' : `${islands} tall islands`} on ${columns} velocity columns ` +
    `(${entries.toExponential(2).replace('e+', 'e')} entries): its rank, redundancy, κ and λ come from the ${omittedRows}×${columns} factor G = J·L (L·Lᵀ = M⁻¹), so A = G·Gᵀ, from J and M⁻¹ as shown (docs/formulas.md "Tall systems").`;
  return { skip, omitted: { rows: omittedRows, columns, reason } };
}

/** True when the island takes the tall path. */
export function islandIsTall(isl: Island): boolean {
  return isTall(isl.rows.length, 6 * isl.bodies.length);
}

/** Lower Cholesky factor of the symmetric positive definite 3×3 `a` (row-major at offset o); zeros past a non-positive pivot. */
function chol3(a: ArrayLike<number>, o: number): number[] {
  const l = [0, 0, 0, 0, 0, 0, 0, 0, 0];
  for (let j = 0; j < 3; j++) {
    let d = a[o + j * 3 + j];
    for (let t = 0; t < j; t++) d -= l[j * 3 + t] ** 2;
    if (!(d > 0)) return l;
    l[j * 3 + j] = Math.sqrt(d);
    for (let i = j + 1; i < 3; i++) {
      let s = a[o + i * 3 + j];
      for (let t = 0; t < j; t++) s -= l[i * 3 + t] * l[j * 3 + t];
      l[i * 3 + j] = s / l[j * 3 + j];
    }
  }
  return l;
}

/** G = √scale · J_island · L, row-major (island rows) × (6 · island bodies). */
export function islandG(world: World, asm: Assembly, isl: Island, scale: number): Float64Array {
  const m = isl.rows.length;
  const k = 6 * isl.bodies.length;
  const local = new Map<number, number>(); // global column block → local block
  isl.bodies.forEach((bi, t) => local.set(world.bodies[bi].column / 6, t));
  const L = isl.bodies.map((bi) => {
    const kb = world.bodies[bi].column / 6;
    return { sm: Math.sqrt(asm.minvCompact[kb * 10]), li: chol3(asm.minvCompact, kb * 10 + 1) };
  });
  const G = new Float64Array(m * k);
  const rs = Math.sqrt(scale);
  const { rowPtr, colIdx, values } = asm.J;
  const row = new Float64Array(6);
  for (let i = 0; i < m; i++) {
    const r = isl.rows[i];
    for (let p = rowPtr[r]; p < rowPtr[r + 1]; p += 6) {
      const blk = local.get(colIdx[p] / 6);
      if (blk === undefined) continue;
      for (let j = 0; j < 6; j++) row[j] = values[p + j];
      const { sm, li } = L[blk];
      const o = i * k + blk * 6;
      // (J_b · L_b): translational part √(1/m)·I, rotational part J_rot · L_I
      for (let j = 0; j < 3; j++) G[o + j] = rs * sm * row[j];
      for (let j = 0; j < 3; j++) {
        let s = 0;
        for (let t = j; t < 3; t++) s += row[3 + t] * li[t * 3 + j];
        G[o + 3 + j] = rs * s;
      }
    }
  }
  return G;
}

/** Solve and analyse one tall island (the symmetric solver's report, on A = scale·J·M⁻¹·Jᵀ). */
export function solveTallIsland(
  world: World,
  asm: Assembly,
  isl: Island,
  scale: number,
  b: ArrayLike<number>,
  opts: { compliance: number; wantSpectrum: boolean; wantScaledCond?: boolean },
): SymmetricSolveResult {
  const G = islandG(world, asm, isl, scale);
  return solveTall(G, isl.rows.length, 6 * isl.bodies.length, b, opts);
}
