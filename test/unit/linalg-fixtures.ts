// Deterministic test matrices for the linear-algebra layer: CSR builders (triplets, dense rows,
// transposes, J·diag(d)·Jᵀ), random and chain systems, and a one-shot solve. Test code: the engine
// itself assembles its CSR patterns directly (assemble.ts).
import type { CsrMatrix } from '../../src/engine/linalg/contracts';
import { cumsum } from '../../src/engine/core/offsets';
import { SymmetricSolver, type SolverOptions } from '../../src/engine/linalg/solve';
import type { SymmetricSolveResult } from '../../src/engine/linalg/contracts';

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

/** Accumulates (row, col, value) triplets; `build()` sums duplicates and sorts columns within rows. */
export class CsrBuilder {
  private ri: number[] = [];
  private ci: number[] = [];
  private vs: number[] = [];
  constructor(
    readonly rows: number,
    readonly cols: number,
  ) {}

  add(i: number, j: number, v: number): this {
    if (i < 0 || i >= this.rows || j < 0 || j >= this.cols || !Number.isInteger(i) || !Number.isInteger(j)) {
      throw new RangeError(`CsrBuilder.add: (${i}, ${j}) outside ${this.rows}×${this.cols}`);
    }
    this.ri.push(i);
    this.ci.push(j);
    this.vs.push(v);
    return this;
  }

  /** Number of triplets added so far (before duplicates are summed). */
  get count(): number {
    return this.vs.length;
  }

  /** Builds the CSR matrix. Duplicates are summed; explicit zeros are kept unless `dropZeros`. */
  build(dropZeros = false): CsrMatrix {
    const { rows, cols } = this;
    const t = this.vs.length;
    // Bucket by row (counting sort), then sort each row by column and merge duplicates.
    const cnt = new Int32Array(rows + 1);
    for (let k = 0; k < t; k++) cnt[this.ri[k] + 1]++;
    cumsum(cnt);
    const pos = cnt.slice(0, rows);
    const cj = new Int32Array(t);
    const cv = new Float64Array(t);
    for (let k = 0; k < t; k++) {
      const p = pos[this.ri[k]]++;
      cj[p] = this.ci[k];
      cv[p] = this.vs[k];
    }
    // Merge per row using a dense marker (column -> position in output).
    const mark = new Int32Array(cols).fill(-1);
    const rowPtr = new Int32Array(rows + 1);
    const outJ = new Int32Array(t);
    const outV = new Float64Array(t);
    let nz = 0;
    for (let i = 0; i < rows; i++) {
      const start = nz;
      for (let p = cnt[i]; p < cnt[i + 1]; p++) {
        const j = cj[p];
        const q = mark[j];
        if (q >= start) outV[q] += cv[p];
        else {
          mark[j] = nz;
          outJ[nz] = j;
          outV[nz++] = cv[p];
        }
      }
      sortRow(outJ, outV, start, nz);
      if (dropZeros) {
        let w = start;
        for (let p = start; p < nz; p++) {
          if (outV[p] !== 0) {
            outJ[w] = outJ[p];
            outV[w++] = outV[p];
          }
        }
        nz = w;
      }
      rowPtr[i + 1] = nz;
    }
    return { rows, cols, rowPtr, colIdx: outJ.slice(0, nz), values: outV.slice(0, nz) };
  }
}

/** Sort the entries lo..hi−1 of one row by column (an index sort: rows in the tests are short). */
function sortRow(j: Int32Array, v: Float64Array, lo: number, hi: number): void {
  const idx = Array.from({ length: hi - lo }, (_, k) => lo + k).sort((a, b) => j[a] - j[b]);
  const jj = idx.map((p) => j[p]);
  const vv = idx.map((p) => v[p]);
  for (let k = 0; k < idx.length; k++) {
    j[lo + k] = jj[k];
    v[lo + k] = vv[k];
  }
}

/** Dense (array of rows) → CSR; exact zeros are not stored. */
export function csrFromDense(a: ArrayLike<number>[], cols?: number): CsrMatrix {
  const rows = a.length;
  const nc = cols ?? (rows > 0 ? a[0].length : 0);
  let nnz = 0;
  for (let i = 0; i < rows; i++) for (let j = 0; j < nc; j++) if (a[i][j] !== 0) nnz++;
  const rowPtr = new Int32Array(rows + 1);
  const colIdx = new Int32Array(nnz);
  const values = new Float64Array(nnz);
  let p = 0;
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < nc; j++) {
      const v = a[i][j];
      if (v !== 0) {
        colIdx[p] = j;
        values[p++] = v;
      }
    }
    rowPtr[i + 1] = p;
  }
  return { rows, cols: nc, rowPtr, colIdx, values };
}

export function csrTranspose(m: CsrMatrix): CsrMatrix {
  const nnz = m.rowPtr[m.rows];
  const rowPtr = new Int32Array(m.cols + 1);
  for (let p = 0; p < nnz; p++) rowPtr[m.colIdx[p] + 1]++;
  cumsum(rowPtr);
  const next = rowPtr.slice(0, m.cols);
  const colIdx = new Int32Array(nnz);
  const values = new Float64Array(nnz);
  for (let i = 0; i < m.rows; i++) {
    for (let p = m.rowPtr[i]; p < m.rowPtr[i + 1]; p++) {
      const q = next[m.colIdx[p]]++;
      colIdx[q] = i;
      values[q] = m.values[p];
    }
  }
  return { rows: m.cols, cols: m.rows, rowPtr, colIdx, values };
}

export function csrNnz(m: CsrMatrix): number {
  return m.rowPtr[m.rows];
}

/** J·diag(d)·Jᵀ (e.g. the Schur complement J·M⁻¹·Jᵀ for a diagonal M⁻¹), full symmetric CSR. */
export function csrMulDiagTranspose(J: CsrMatrix, d?: ArrayLike<number>): CsrMatrix {
  const Jt = csrTranspose(J); // columns of J as rows: for each dof, the rows touching it
  const m = J.rows;
  const mark = new Int32Array(m).fill(-1);
  const acc = new Float64Array(m);
  const rowPtr = new Int32Array(m + 1);
  let cap = Math.max(16, J.rowPtr[m] * 4);
  let colIdx = new Int32Array(cap);
  let values = new Float64Array(cap);
  let nz = 0;
  const list: number[] = [];
  for (let i = 0; i < m; i++) {
    list.length = 0;
    for (let p = J.rowPtr[i]; p < J.rowPtr[i + 1]; p++) {
      const k = J.colIdx[p];
      const v = J.values[p] * (d ? d[k] : 1);
      for (let q = Jt.rowPtr[k]; q < Jt.rowPtr[k + 1]; q++) {
        const j = Jt.colIdx[q];
        if (mark[j] !== i) {
          mark[j] = i;
          acc[j] = 0;
          list.push(j);
        }
        acc[j] += v * Jt.values[q];
      }
    }
    list.sort((a, b) => a - b);
    if (nz + list.length > cap) {
      cap = Math.max(cap * 2, nz + list.length);
      const c2 = new Int32Array(cap);
      c2.set(colIdx.subarray(0, nz));
      colIdx = c2;
      const v2 = new Float64Array(cap);
      v2.set(values.subarray(0, nz));
      values = v2;
    }
    for (const j of list) {
      colIdx[nz] = j;
      values[nz++] = acc[j];
    }
    rowPtr[i + 1] = nz;
  }
  return { rows: m, cols: m, rowPtr, colIdx: colIdx.slice(0, nz), values: values.slice(0, nz) };
}
