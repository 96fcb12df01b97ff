// Prefix offsets, the layout of every packed array here (CSR row pointers, the first row of each
// constraint, the column counts of L, line starts): counts → offsets, and an index → its segment.

/**
 * Counts → offsets, in place: `p[k + 1]` holds the count of segment k on entry (p[0] = 0) and the
 * end of segment k on return (p[k + 1] += p[k], CSparse's cs_cumsum). Returns the total, p[n].
 */
export function cumsum(p: Int32Array): number {
  for (let k = 0; k + 1 < p.length; k++) p[k + 1] += p[k];
  return p[p.length - 1];
}

/**
 * The segment holding index k: the last s in [0, count) with offsets[s] ≤ k (binary search; empty
 * segments are skipped). `count` defaults to offsets.length − 1 (offsets with their end, as CSR
 * rowPtr); pass offsets.length for a list of starts without an end.
 */
export function segmentOf(offsets: ArrayLike<number>, k: number, count = offsets.length - 1): number {
  let lo = 0;
  let hi = count - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (offsets[mid] <= k) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
