// The forward and backward substitutions of the skyline LDLᵀ factor (smallSolve.ts) for the envelope of a
// chain of 3-row blocks (ball chains): row k of block K = ⌊k/3⌋ starts at column 3K − 3 (block 0 at 0).
// L is the skyline storage (row k from column first[k] at L[off[k] + j]), D the pivots.

/**
 * `solveInto` for the envelope of a chain of 3-row blocks (`chain3`): row k of block K = ⌊k/3⌋ starts
 * at column 3K − 3 (block 0 at 0), so column j's rows run to the end of the next block. The loops
 * unrolled: every term of every sum the same, subtracted in the same (ascending) order.
 */
export function solveChain3(off: Int32Array, L: Float64Array, D: Float64Array, b: ArrayLike<number>, x: Float64Array): Float64Array {
  const n = D.length;
  // forward: block 0 (rows 0..2 from column 0), then blocks K ≥ 1 (rows 3K..3K+2 from column p = 3K − 3)
  x[0] = b[0];
  x[1] = b[1] - L[off[1]] * x[0];
  let s = b[2];
  s -= L[off[2]] * x[0];
  s -= L[off[2] + 1] * x[1];
  x[2] = s;
  for (let r = 3; r < n; r += 3) {
    const p = r - 3;
    const x0 = x[p], x1 = x[p + 1], x2 = x[p + 2];
    let o = off[r] + p;
    s = b[r];
    s -= L[o] * x0;
    s -= L[o + 1] * x1;
    s -= L[o + 2] * x2;
    const y0 = s;
    x[r] = y0;
    o = off[r + 1] + p;
    s = b[r + 1];
    s -= L[o] * x0;
    s -= L[o + 1] * x1;
    s -= L[o + 2] * x2;
    s -= L[o + 3] * y0;
    const y1 = s;
    x[r + 1] = y1;
    o = off[r + 2] + p;
    s = b[r + 2];
    s -= L[o] * x0;
    s -= L[o + 1] * x1;
    s -= L[o + 2] * x2;
    s -= L[o + 3] * y0;
    s -= L[o + 4] * y1;
    x[r + 2] = s;
  }
  // backward, blocks from the last: column j = q + c takes rows j+1..q+2 of its block, then the next block's three
  for (let q = n - 3; q >= 0; q -= 3) {
    const next = q + 3 < n;
    const o3 = next ? off[q + 3] : 0, o4 = next ? off[q + 4] : 0, o5 = next ? off[q + 5] : 0;
    const z3 = next ? x[q + 3] : 0, z4 = next ? x[q + 4] : 0, z5 = next ? x[q + 5] : 0;
    s = x[q + 2] / D[q + 2];
    if (next) {
      s -= L[o3 + q + 2] * z3;
      s -= L[o4 + q + 2] * z4;
      s -= L[o5 + q + 2] * z5;
    }
    const w2 = s;
    x[q + 2] = w2;
    s = x[q + 1] / D[q + 1];
    s -= L[off[q + 2] + q + 1] * w2;
    if (next) {
      s -= L[o3 + q + 1] * z3;
      s -= L[o4 + q + 1] * z4;
      s -= L[o5 + q + 1] * z5;
    }
    const w1 = s;
    x[q + 1] = w1;
    s = x[q] / D[q];
    s -= L[off[q + 1] + q] * w1;
    s -= L[off[q + 2] + q] * w2;
    if (next) {
      s -= L[o3 + q] * z3;
      s -= L[o4 + q] * z4;
      s -= L[o5 + q] * z5;
    }
    x[q] = s;
  }
  return x;
}

/**
 * `solveChain3` of three right-hand sides in one pass over the factor: x = A⁻¹b, y = A⁻¹e and
 * z = A⁻¹g. Each vector gets exactly solveChain3's operations in its order (the loops are the same,
 * each statement repeated per vector), so each result is solveChain3's bit for bit; only the loads of
 * L, D and the offsets and the loop overhead are shared. The six vectors are distinct arrays.
 */
export function solveChain3Three(off: Int32Array, L: Float64Array, D: Float64Array, b: ArrayLike<number>, x: Float64Array, e: Float64Array, y: Float64Array, g: Float64Array, z: Float64Array): void {
  const n = D.length;
  let l0 = L[off[1]];
  x[0] = b[0];
  y[0] = e[0];
  z[0] = g[0];
  x[1] = b[1] - l0 * x[0];
  y[1] = e[1] - l0 * y[0];
  z[1] = g[1] - l0 * z[0];
  l0 = L[off[2]];
  let l1 = L[off[2] + 1];
  let s = b[2];
  s -= l0 * x[0];
  s -= l1 * x[1];
  x[2] = s;
  let t = e[2];
  t -= l0 * y[0];
  t -= l1 * y[1];
  y[2] = t;
  let u = g[2];
  u -= l0 * z[0];
  u -= l1 * z[1];
  z[2] = u;
  for (let r = 3; r < n; r += 3) {
    const p = r - 3;
    const x0 = x[p], x1 = x[p + 1], x2 = x[p + 2];
    const y0 = y[p], y1 = y[p + 1], y2 = y[p + 2];
    const z0 = z[p], z1 = z[p + 1], z2 = z[p + 2];
    let o = off[r] + p;
    l0 = L[o];
    l1 = L[o + 1];
    let l2 = L[o + 2];
    s = b[r];
    s -= l0 * x0;
    s -= l1 * x1;
    s -= l2 * x2;
    const xa = s;
    x[r] = xa;
    t = e[r];
    t -= l0 * y0;
    t -= l1 * y1;
    t -= l2 * y2;
    const ya = t;
    y[r] = ya;
    u = g[r];
    u -= l0 * z0;
    u -= l1 * z1;
    u -= l2 * z2;
    const za = u;
    z[r] = za;
    o = off[r + 1] + p;
    l0 = L[o];
    l1 = L[o + 1];
    l2 = L[o + 2];
    let l3 = L[o + 3];
    s = b[r + 1];
    s -= l0 * x0;
    s -= l1 * x1;
    s -= l2 * x2;
    s -= l3 * xa;
    const xb = s;
    x[r + 1] = xb;
    t = e[r + 1];
    t -= l0 * y0;
    t -= l1 * y1;
    t -= l2 * y2;
    t -= l3 * ya;
    const yb = t;
    y[r + 1] = yb;
    u = g[r + 1];
    u -= l0 * z0;
    u -= l1 * z1;
    u -= l2 * z2;
    u -= l3 * za;
    const zb = u;
    z[r + 1] = zb;
    o = off[r + 2] + p;
    l0 = L[o];
    l1 = L[o + 1];
    l2 = L[o + 2];
    l3 = L[o + 3];
    const l4 = L[o + 4];
    s = b[r + 2];
    s -= l0 * x0;
    s -= l1 * x1;
    s -= l2 * x2;
    s -= l3 * xa;
    s -= l4 * xb;
    x[r + 2] = s;
    t = e[r + 2];
    t -= l0 * y0;
    t -= l1 * y1;
    t -= l2 * y2;
    t -= l3 * ya;
    t -= l4 * yb;
    y[r + 2] = t;
    u = g[r + 2];
    u -= l0 * z0;
    u -= l1 * z1;
    u -= l2 * z2;
    u -= l3 * za;
    u -= l4 * zb;
    z[r + 2] = u;
  }
  for (let q = n - 3; q >= 0; q -= 3) {
    const next = q + 3 < n;
    const o3 = next ? off[q + 3] : 0, o4 = next ? off[q + 4] : 0, o5 = next ? off[q + 5] : 0;
    const x3 = next ? x[q + 3] : 0, x4 = next ? x[q + 4] : 0, x5 = next ? x[q + 5] : 0;
    const y3 = next ? y[q + 3] : 0, y4 = next ? y[q + 4] : 0, y5 = next ? y[q + 5] : 0;
    const z3 = next ? z[q + 3] : 0, z4 = next ? z[q + 4] : 0, z5 = next ? z[q + 5] : 0;
    // column q + 2
    let d = D[q + 2];
    s = x[q + 2] / d;
    t = y[q + 2] / d;
    u = z[q + 2] / d;
    if (next) {
      l0 = L[o3 + q + 2];
      l1 = L[o4 + q + 2];
      const l2 = L[o5 + q + 2];
      s -= l0 * x3;
      s -= l1 * x4;
      s -= l2 * x5;
      t -= l0 * y3;
      t -= l1 * y4;
      t -= l2 * y5;
      u -= l0 * z3;
      u -= l1 * z4;
      u -= l2 * z5;
    }
    const xw2 = s, yw2 = t, zw2 = u;
    x[q + 2] = xw2;
    y[q + 2] = yw2;
    z[q + 2] = zw2;
    // column q + 1
    d = D[q + 1];
    l0 = L[off[q + 2] + q + 1];
    s = x[q + 1] / d;
    s -= l0 * xw2;
    t = y[q + 1] / d;
    t -= l0 * yw2;
    u = z[q + 1] / d;
    u -= l0 * zw2;
    if (next) {
      l0 = L[o3 + q + 1];
      l1 = L[o4 + q + 1];
      const l2 = L[o5 + q + 1];
      s -= l0 * x3;
      s -= l1 * x4;
      s -= l2 * x5;
      t -= l0 * y3;
      t -= l1 * y4;
      t -= l2 * y5;
      u -= l0 * z3;
      u -= l1 * z4;
      u -= l2 * z5;
    }
    const xw1 = s, yw1 = t, zw1 = u;
    x[q + 1] = xw1;
    y[q + 1] = yw1;
    z[q + 1] = zw1;
    // column q
    d = D[q];
    l0 = L[off[q + 1] + q];
    l1 = L[off[q + 2] + q];
    s = x[q] / d;
    s -= l0 * xw1;
    s -= l1 * xw2;
    t = y[q] / d;
    t -= l0 * yw1;
    t -= l1 * yw2;
    u = z[q] / d;
    u -= l0 * zw1;
    u -= l1 * zw2;
    if (next) {
      l0 = L[o3 + q];
      l1 = L[o4 + q];
      const l2 = L[o5 + q];
      s -= l0 * x3;
      s -= l1 * x4;
      s -= l2 * x5;
      t -= l0 * y3;
      t -= l1 * y4;
      t -= l2 * y5;
      u -= l0 * z3;
      u -= l1 * z4;
      u -= l2 * z5;
    }
    x[q] = s;
    y[q] = t;
    z[q] = u;
  }
}
