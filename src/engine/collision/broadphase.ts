// Broad phase: sort and sweep on world AABBs along the axis where their centres spread most, so
// hundreds of shapes cost O(n log n + pairs) rather than O(n²). Planes (infinite AABBs) are tested
// against each shape's AABB separately. Pairs are returned sorted, so the result is deterministic.
// The sweep's order can be kept between steps (SweepMemo): coherent motion then costs a few swaps.
import type { Vec3 } from '../types';
import type { PlaneShape } from '../scene/contactSpec';

export interface Aabb {
  lo: Vec3;
  hi: Vec3;
}

/** Do two AABBs come within `margin` of each other on every axis? */
export function aabbOverlap(a: Aabb, b: Aabb, margin: number): boolean {
  for (let k = 0; k < 3; k++) if (a.lo[k] > b.hi[k] + margin || b.lo[k] > a.hi[k] + margin) return false;
  return true;
}

/** Is some point of the AABB within `margin` of the solid side of the plane (n̂·x ≤ offset, n̂ the unit normal)? */
export function aabbNearPlane(box: Aabb, plane: PlaneShape, margin: number): boolean {
  const n = plane.normal;
  const len = Math.hypot(n[0], n[1], n[2]);
  let low = 0;
  for (let k = 0; k < 3; k++) low += n[k] > 0 ? n[k] * box.lo[k] : n[k] * box.hi[k];
  return low / len - plane.offset <= margin;
}

/** Pairs compared as (i, j) with i < j. */
const byPair = (x: [number, number], y: [number, number]): number => x[0] - y[0] || x[1] - y[1];

/**
 * The order of the last sweep along each axis, kept between calls on one model: the next sweep
 * starts from it and insertion-sorts, O(n + boxes that passed each other) when little moved since,
 * instead of sorting from scratch. Only a starting point: the order sorted into is the same total
 * order (lower bound, then index) whatever the start, so the pairs found are exactly a fresh sweep's.
 */
export class SweepMemo {
  /** The ids of the last sweep along each axis, in their sorted order then. */
  readonly orders: (number[] | undefined)[] = [undefined, undefined, undefined];
  /** Insertions that moved an entry in the last sweep (0 when nothing passed another). */
  moves = 0;
}

/** Does `order` hold exactly the entries of `ids` (both without repeats)? */
function sameEntries(order: readonly number[], ids: readonly number[], mark: Uint8Array): boolean {
  if (order.length !== ids.length) return false;
  for (const i of ids) mark[i] = 1;
  let same = true;
  for (const i of order) {
    if (mark[i] !== 1) same = false;
    mark[i] = 0;
  }
  if (!same) for (const i of ids) mark[i] = 0;
  return same;
}

/**
 * All pairs (i, j), i < j, of the listed boxes whose AABBs come within `margin` and that `accept`
 * allows, sorted. `ids` selects which entries of `boxes` take part. `memo` (optional) carries the
 * sweep order from one call to the next (see SweepMemo); the pairs are the same with or without it.
 */
export function sweepAndPrune(boxes: readonly Aabb[], ids: readonly number[], margin: number, accept: (i: number, j: number) => boolean, memo?: SweepMemo): [number, number][] {
  if (ids.length < 2) return [];
  // The axis of largest variance of the centres.
  const mean = [0, 0, 0];
  const sq = [0, 0, 0];
  let finite = true;
  for (const i of ids) {
    for (let k = 0; k < 3; k++) {
      const c = (boxes[i].lo[k] + boxes[i].hi[k]) / 2;
      mean[k] += c;
      sq[k] += c * c;
    }
    finite &&= Number.isFinite(boxes[i].lo[0]) && Number.isFinite(boxes[i].lo[1]) && Number.isFinite(boxes[i].lo[2]);
  }
  let axis = 0;
  let most = -Infinity;
  for (let k = 0; k < 3; k++) {
    const v = sq[k] / ids.length - (mean[k] / ids.length) ** 2;
    if (v > most) {
      most = v;
      axis = k;
    }
  }
  let order: number[];
  const before = memo?.orders[axis];
  // a lower bound that is not finite makes the comparison inconsistent (NaN): sort from scratch then, as always
  if (memo && finite && before && sameEntries(before, ids, new Uint8Array(boxes.length))) {
    order = before;
    let moves = 0;
    for (let p = 1; p < order.length; p++) {
      const i = order[p];
      const lo = boxes[i].lo[axis];
      let q = p - 1;
      while (q >= 0) {
        const j = order[q];
        const d = boxes[j].lo[axis] - lo;
        if (d < 0 || (d === 0 && j < i)) break;
        order[q + 1] = j;
        q--;
      }
      if (q !== p - 1) {
        order[q + 1] = i;
        moves++;
      }
    }
    memo.moves = moves;
  } else {
    order = [...ids].sort((x, y) => boxes[x].lo[axis] - boxes[y].lo[axis] || x - y);
    if (memo) {
      memo.orders[axis] = finite ? order : undefined;
      memo.moves = order.length;
    }
  }
  const pairs: [number, number][] = [];
  for (let p = 0; p < order.length; p++) {
    const i = order[p];
    const reach = boxes[i].hi[axis] + margin;
    for (let q = p + 1; q < order.length; q++) {
      const j = order[q];
      if (boxes[j].lo[axis] > reach) break;
      if (!aabbOverlap(boxes[i], boxes[j], margin)) continue;
      const pair: [number, number] = i < j ? [i, j] : [j, i];
      if (accept(pair[0], pair[1])) pairs.push(pair);
    }
  }
  return pairs.sort(byPair);
}

/** Pairs (shape, plane) for every plane and every listed shape whose AABB reaches the plane. */
export function planePairs(boxes: readonly Aabb[], ids: readonly number[], planes: readonly { index: number; plane: PlaneShape }[], margin: number, accept: (i: number, j: number) => boolean): [number, number][] {
  const pairs: [number, number][] = [];
  for (const { index, plane } of planes) {
    for (const i of ids) {
      if (i === index || !aabbNearPlane(boxes[i], plane, margin)) continue;
      const pair: [number, number] = i < index ? [i, index] : [index, i];
      if (accept(pair[0], pair[1])) pairs.push(pair);
    }
  }
  return pairs.sort(byPair);
}
