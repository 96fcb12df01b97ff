// Reductions over arrays of any length. `Math.max(...xs)` and `out.push(...xs)` pass every element
// as a call argument and throw "Maximum call stack size exceeded" past ~100 000 elements, so code
// that can see run-length or model-size arrays uses these loops instead.

/** The largest value of `xs` mapped by `f` (default identity); `init` when empty. NaN entries are skipped. */
export function maxOf<T = number>(xs: ArrayLike<T>, f: (x: T) => number = (x) => x as unknown as number, init = -Infinity): number {
  let m = init;
  for (let i = 0; i < xs.length; i++) {
    const v = f(xs[i]);
    if (v > m) m = v;
  }
  return m;
}

/** The smallest value of `xs` mapped by `f` (default identity); `init` when empty. NaN entries are skipped. */
export function minOf<T = number>(xs: ArrayLike<T>, f: (x: T) => number = (x) => x as unknown as number, init = Infinity): number {
  let m = init;
  for (let i = 0; i < xs.length; i++) {
    const v = f(xs[i]);
    if (v < m) m = v;
  }
  return m;
}

/** Appends every element of `src` to `dst` (no argument spread). Returns `dst`. */
export function pushAll<T>(dst: T[], src: ArrayLike<T>): T[] {
  for (let i = 0; i < src.length; i++) dst.push(src[i]);
  return dst;
}
