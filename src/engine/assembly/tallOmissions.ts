// The rows of tall islands that A = J·M⁻¹·Jᵀ leaves out, decided when the world is built: an island
// with many more rows than velocity columns (linalg/tall.ts `isTall`) is analysed through G = J·L
// instead (kkt/tallIsland.ts), so its m×m block of A is never formed. docs/formulas.md "Tall systems".
import { scientific } from '../core/format';
import { isTall } from '../linalg/tall';

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
    `(${scientific(entries, 2)} entries): its rank, redundancy, κ and λ come from the ${omittedRows}×${columns} factor G = J·L (L·Lᵀ = M⁻¹), so A = G·Gᵀ, from J and M⁻¹ as shown (docs/formulas.md "Tall systems").`;
  return { skip, omitted: { rows: omittedRows, columns, reason } };
}
