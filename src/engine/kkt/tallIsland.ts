// The tall-island path of the KKT solve: an island with many more rows than velocity columns
// (linalg/tall.ts `isTall`) is analysed through G = J·L (L·Lᵀ = M⁻¹, per body), an m×6n matrix,
// so the m×m A = G·Gᵀ is never factorised. docs/formulas.md "Tall systems".
import type { Assembly, World } from '../assembly/world';
import type { Island } from './islands';
import { isTall, solveTall } from '../linalg/tall';
export { DENSE_A_MAX_ENTRIES, tallOmissions, type OmittedA } from '../assembly/tallOmissions';
import type { SymmetricSolveResult } from '../linalg/contracts';

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
