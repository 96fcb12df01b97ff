// Decimation of a long series for drawing: the records are split into at most `buckets` runs of
// equal, power-of-two width (aligned to multiples of the width, so the buckets do not shift as the
// run grows), and each run is drawn by its minimum and its maximum, in step order. A chart of any
// run length then draws at most 2·buckets points and keeps every spike. Pure; tested in Node.

export interface Point {
  x: number;
  y: number;
}

/** Default most buckets per series (≤ 2000 points drawn). */
export const MAX_BUCKETS = 1000;

/** The bucket width for `n` records: the smallest power of two w with ⌈n / w⌉ ≤ buckets. */
export function bucketWidth(n: number, buckets = MAX_BUCKETS): number {
  let w = 1;
  while (Math.ceil(n / w) > buckets) w *= 2;
  return w;
}

/**
 * Points of `y(k)` for k in [0, n) with x = `x(k)`: every point when n ≤ 2·buckets, otherwise
 * the minimum and the maximum of each bucket (one point when they coincide). Non-finite values
 * are skipped (the chart spans the gap); a bucket without a finite value adds nothing.
 */
export function decimate(n: number, y: (k: number) => number, x: (k: number) => number, buckets = MAX_BUCKETS): Point[] {
  const out: Point[] = [];
  if (n <= 2 * buckets) {
    for (let k = 0; k < n; k++) {
      const v = y(k);
      if (Number.isFinite(v)) out.push({ x: x(k), y: v });
    }
    return out;
  }
  const w = bucketWidth(n, buckets);
  for (let k0 = 0; k0 < n; k0 += w) {
    const k1 = Math.min(n, k0 + w);
    let lo = -1;
    let hi = -1;
    let vlo = Infinity;
    let vhi = -Infinity;
    for (let k = k0; k < k1; k++) {
      const v = y(k);
      if (!Number.isFinite(v)) continue;
      if (v < vlo) {
        vlo = v;
        lo = k;
      }
      if (v > vhi) {
        vhi = v;
        hi = k;
      }
    }
    if (lo < 0) continue;
    if (lo === hi) out.push({ x: x(lo), y: vlo });
    else if (lo < hi) out.push({ x: x(lo), y: vlo }, { x: x(hi), y: vhi });
    else out.push({ x: x(hi), y: vhi }, { x: x(lo), y: vlo });
  }
  return out;
}
