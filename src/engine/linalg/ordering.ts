// Fill-reducing ordering: minimum degree on the explicit elimination graph, with
// degree buckets and dense-row postponement (as AMD does). The cost is of the order of the
// factorisation itself, which is fine because the ordering is cached with the symbolic analysis.
import type { CsrMatrix } from './types';

/**
 * Minimum-degree ordering of the symmetric pattern of A (square CSR; diagonal ignored).
 * Returns perm with perm[k] = the k-th node eliminated. Ties go to the lowest index.
 */
export function minimumDegreeOrdering(A: CsrMatrix): Int32Array {
  const n = A.rows;
  const perm = new Int32Array(n);
  if (n === 0) return perm;
  const adj: (Set<number> | null)[] = new Array(n);
  for (let i = 0; i < n; i++) adj[i] = new Set<number>();
  for (let i = 0; i < n; i++) {
    for (let p = A.rowPtr[i]; p < A.rowPtr[i + 1]; p++) {
      const j = A.colIdx[p];
      if (j !== i) {
        adj[i]!.add(j);
        adj[j]!.add(i);
      }
    }
  }
  // Dense rows (degree > 10·√n, at least 16) are postponed to the end, as in AMD.
  const dense = Math.max(16, Math.floor(10 * Math.sqrt(n)));
  const postponed: number[] = [];
  const alive = new Uint8Array(n);
  for (let i = 0; i < n; i++) alive[i] = 1;
  for (let i = 0; i < n; i++) {
    if (adj[i]!.size > dense && n > 64) {
      postponed.push(i);
      alive[i] = 0;
    }
  }
  for (const i of postponed) {
    for (const j of adj[i]!) if (alive[j]) adj[j]!.delete(i);
    adj[i] = null;
  }
  // Degree buckets: doubly linked lists, each kept sorted by insertion; we pick the smallest
  // index among the minimum-degree nodes lazily through a per-bucket scan limit.
  const head = new Int32Array(n + 1).fill(-1);
  const next = new Int32Array(n).fill(-1);
  const prev = new Int32Array(n).fill(-1);
  const deg = new Int32Array(n);
  const insert = (v: number, d: number) => {
    deg[v] = d;
    prev[v] = -1;
    next[v] = head[d];
    if (head[d] >= 0) prev[head[d]] = v;
    head[d] = v;
  };
  const remove = (v: number) => {
    const d = deg[v];
    if (prev[v] >= 0) next[prev[v]] = next[v];
    else head[d] = next[v];
    if (next[v] >= 0) prev[next[v]] = prev[v];
    prev[v] = next[v] = -1;
  };
  for (let i = n - 1; i >= 0; i--) if (alive[i]) insert(i, adj[i]!.size);
  let mindeg = 0;
  let k = 0;
  const remaining = n - postponed.length;
  const nb: number[] = [];
  while (k < remaining) {
    while (mindeg <= n && head[mindeg] < 0) mindeg++;
    // Lowest index in the bucket (buckets are short in practice; cap the scan).
    let v = head[mindeg];
    let scan = 0;
    for (let u = next[v]; u >= 0 && scan < 64; u = next[u], scan++) if (u < v) v = u;
    remove(v);
    alive[v] = 0;
    perm[k++] = v;
    const av = adj[v]!;
    adj[v] = null;
    nb.length = 0;
    for (const u of av) nb.push(u);
    for (const u of nb) {
      const au = adj[u]!;
      au.delete(v);
      for (const w of nb) if (w !== u) au.add(w);
    }
    for (const u of nb) {
      remove(u);
      const d = adj[u]!.size;
      insert(u, d);
      if (d < mindeg) mindeg = d;
    }
  }
  for (const i of postponed) perm[k++] = i;
  return perm;
}

/** Is p a permutation of 0..n−1? */
export function isPermutation(p: ArrayLike<number>, n: number): boolean {
  if (p.length !== n) return false;
  const seen = new Uint8Array(n);
  for (let k = 0; k < n; k++) {
    const v = p[k];
    if (!Number.isInteger(v) || v < 0 || v >= n || seen[v]) return false;
    seen[v] = 1;
  }
  return true;
}
