// Deterministic test matrices for the linear-algebra layer, and a one-shot solve for the tests.
import type { CsrMatrix } from '../../src/engine/linalg/types';
import { CsrBuilder, csrMulDiagTranspose } from '../../src/engine/linalg/sparse';
import { SymmetricSolver, type SolverOptions } from '../../src/engine/linalg/solve';
import type { SymmetricSolveResult } from '../../src/engine/linalg/types';

/** Small deterministic PRNG (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface ChainSystem {
  /** Constraint Jacobian (3·bodies × 6·bodies): ball joints world–0, 0–1, …, (n−2)–(n−1). */
  J: CsrMatrix;
  /** Diagonal of M⁻¹ (6 per body: 1/m ×3, 1/I ×3). */
  minv: Float64Array;
  /** A = J·M⁻¹·Jᵀ (block-tridiagonal, 3×3 blocks). */
  A: CsrMatrix;
}

/**
 * A chain of `bodies` rigid bodies joined by ball joints (3 rows each), the first hanging from the
 * world: A is (3·bodies)² block-tridiagonal with 3×3 blocks. Rows of a joint: J_a = [I, −[r_a]×],
 * J_b = [−I, [r_b]×].
 */
export function chainSystem(bodies: number, seed = 1): ChainSystem {
  const rand = rng(seed);
  const J = new CsrBuilder(3 * bodies, 6 * bodies);
  const minv = new Float64Array(6 * bodies);
  for (let b = 0; b < bodies; b++) {
    const m = 0.5 + rand();
    for (let k = 0; k < 3; k++) minv[6 * b + k] = 1 / m;
    for (let k = 3; k < 6; k++) minv[6 * b + k] = 1 / (m * (0.05 + 0.1 * rand()));
  }
  const cross = (r: number[], s: number): number[][] => [
    [0, s * r[2], -s * r[1]],
    [-s * r[2], 0, s * r[0]],
    [s * r[1], -s * r[0], 0],
  ]; // s·(−[r]×)  ([r]× v = r × v)
  for (let j = 0; j < bodies; j++) {
    const rowBase = 3 * j;
    // body b = j gets the joint's "b" side at its top anchor; body j−1 the "a" side at its bottom.
    const rb = [0.1 * (rand() - 0.5), 0.5, 0.1 * (rand() - 0.5)];
    const ra = [0.1 * (rand() - 0.5), -0.5, 0.1 * (rand() - 0.5)];
    for (let k = 0; k < 3; k++) {
      if (j > 0) {
        const ca = 6 * (j - 1);
        J.add(rowBase + k, ca + k, 1);
        const X = cross(ra, 1);
        for (let t = 0; t < 3; t++) if (X[k][t] !== 0) J.add(rowBase + k, ca + 3 + t, X[k][t]);
      }
      const cb = 6 * j;
      J.add(rowBase + k, cb + k, -1);
      const Y = cross(rb, -1);
      for (let t = 0; t < 3; t++) if (Y[k][t] !== 0) J.add(rowBase + k, cb + 3 + t, Y[k][t]);
    }
  }
  const Jm = J.build();
  return { J: Jm, minv, A: csrMulDiagTranspose(Jm, minv) };
}

/** Random dense m×n matrix with entries in [−1, 1). */
export function randomDense(m: number, n: number, rand: () => number): number[][] {
  return Array.from({ length: m }, () => Array.from({ length: n }, () => 2 * rand() - 1));
}

/** Random SPD n×n: B·Bᵀ + n·δ·I. */
export function randomSpd(n: number, rand: () => number, delta = 0.1): number[][] {
  const B = randomDense(n, n, rand);
  const A: number[][] = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let k = 0; k < n; k++) s += B[i][k] * B[j][k];
      A[i][j] = s + (i === j ? n * delta : 0);
    }
  return A;
}

/** J·diag(d)·Jᵀ densely. */
export function denseJDJt(J: number[][], d: ArrayLike<number>): number[][] {
  const m = J.length;
  const n = m > 0 ? J[0].length : 0;
  const A: number[][] = Array.from({ length: m }, () => new Array<number>(m).fill(0));
  for (let i = 0; i < m; i++)
    for (let j = 0; j <= i; j++) {
      let s = 0;
      for (let k = 0; k < n; k++) s += J[i][k] * d[k] * J[j][k];
      A[i][j] = s;
      A[j][i] = s;
    }
  return A;
}

const sharedSolver = new SymmetricSolver();

/** One-shot solve of (A + compliance·I)·x = b with a solver shared by the tests (its symbolic cache is reused). */
export function solveSymmetric(A: CsrMatrix, b: ArrayLike<number>, opts: SolverOptions): SymmetricSolveResult {
  return sharedSolver.solve(A, b, opts);
}
