// The islands of a world: connected components of its constraint graph over the column-owning bodies,
// each solved on its own (kkt.ts), made once per world and kept in `world.derived`.
import { derivedOf } from '../assembly/jProducts';
import type { World } from '../assembly/world';

// Kept in the world's derived cache (assembly/world.ts `WorldDerived`): declared here, where the islands
// are made, so the assembly layer below does not name them.
declare module '../assembly/world' {
  interface WorldDerived {
    islands?: Island[];
  }
}

export interface Island {
  /** Column-owning body indices (scene order indices). */
  bodies: number[];
  /** Constraint indices (world order). */
  constraints: number[];
  /** Global row indices, ascending. */
  rows: Int32Array;
}

/** Connected components of the constraint graph over column-owning bodies (world and fixed bodies do not connect). */
export function islandsOf(world: World): Island[] {
  const d = derivedOf(world);
  if (d.islands) return d.islands;
  const nb = world.colBodies.length;
  const parent = Int32Array.from({ length: nb }, (_, i) => i);
  const find = (x: number): number => {
    while (parent[x] !== x) {
      parent[x] = parent[parent[x]];
      x = parent[x];
    }
    return x;
  };
  const colK = (i: number) => (i < 0 ? -1 : world.bodies[i].column / 6);
  for (let c = 0; c < world.constraints.length; c++) {
    const ends = [world.endA[c], world.endB[c], ...world.endX[c]].map(colK).filter((k) => k >= 0);
    for (let e = 1; e < ends.length; e++) {
      const ra = find(ends[0]), rb = find(ends[e]);
      if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
    }
  }
  const byRoot = new Map<number, Island>();
  const get = (k: number) => {
    const r = find(k);
    let isl = byRoot.get(r);
    if (!isl) {
      isl = { bodies: [], constraints: [], rows: new Int32Array(0) };
      byRoot.set(r, isl);
    }
    return isl;
  };
  for (let k = 0; k < nb; k++) get(k).bodies.push(world.colBodies[k]);
  const rowLists = new Map<Island, number[]>();
  for (let c = 0; c < world.constraints.length; c++) {
    const k = [world.endA[c], world.endB[c], ...world.endX[c]].map(colK).find((x) => x >= 0) ?? -1;
    if (k < 0) continue;
    const isl = get(k);
    isl.constraints.push(c);
    let list = rowLists.get(isl);
    if (!list) rowLists.set(isl, (list = []));
    for (let r = world.rowStart[c]; r < world.rowStart[c + 1]; r++) list.push(r);
  }
  const islands = [...byRoot.values()].sort((x, y) => x.bodies[0] - y.bodies[0]);
  for (const isl of islands) isl.rows = Int32Array.from((rowLists.get(isl) ?? []).sort((x, y) => x - y));
  d.islands = islands;
  return islands;
}
