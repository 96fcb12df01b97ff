// Reference implementations the linear-algebra tests check the engine against (test code, not
// used by the engine): dense wrappers over ml-matrix, an exact minimum-degree ordering, κ₁.
import { CholeskyDecomposition, Matrix, SingularValueDecomposition } from 'ml-matrix';
import { isFiniteVec } from '../../src/engine/core/math';
import { symmetricEigenvaluesAuto, type DenseSolution } from '../../src/engine/linalg/dense';
import { estimateInverseNorm1, type SolveFn } from '../../src/engine/linalg/condest';
import { csrNorm1, csrToDenseFlat } from '../../src/engine/linalg/sparse';
import { failure, type CsrMatrix, type Failure } from '../../src/engine/linalg/contracts';

export type DenseInput = CsrMatrix | ArrayLike<number>[];

const EPS = 2 ** -52;

const isCsr = (a: DenseInput): a is CsrMatrix => (a as CsrMatrix).rowPtr !== undefined;

/** Square input → row-major flat copy and its size. */
function toFlat(a: DenseInput): { n: number; m: number; data: Float64Array } {
  if (isCsr(a)) return { n: a.rows, m: a.cols, data: csrToDenseFlat(a) };
  const n = a.length;
  const m = n > 0 ? a[0].length : 0;
  const data = new Float64Array(n * m);
  for (let i = 0; i < n; i++) for (let j = 0; j < m; j++) data[i * m + j] = a[i][j];
  return { n, m, data };
}

function toMatrix(a: DenseInput): Matrix {
  if (isCsr(a)) {
    const f = csrToDenseFlat(a);
    const rows: number[][] = [];
    for (let i = 0; i < a.rows; i++) rows.push(Array.from(f.subarray(i * a.cols, (i + 1) * a.cols)));
    return new Matrix(rows);
  }
  return new Matrix(a.map((r) => Array.from(r)));
}

/**
 * Eigenvalues of a symmetric matrix, descending. For a symmetric positive semidefinite A these
 * are its singular values (tiny negative round-off values are kept as computed).
 */
export function symmetricEigenvalues(a: DenseInput): Float64Array {
  const { n, data } = toFlat(a);
  const d = symmetricEigenvaluesAuto(data, n);
  return d.sort().reverse();
}

/** Solves A·x = b for SPD A by Cholesky; fails ('indefinite') when A is not (numerically) positive definite. */
export function denseSolveCholesky(a: DenseInput, b: ArrayLike<number>): DenseSolution | Failure {
  const A = toMatrix(a);
  if (A.rows === 0) return { ok: true, x: new Float64Array(0) };
  const ch = new CholeskyDecomposition(A);
  if (!ch.isPositiveDefinite()) return failure('indefinite', 'the matrix is not positive definite');
  const x = Float64Array.from(ch.solve(Matrix.columnVector(Array.from(b))).getColumn(0));
  return isFiniteVec(x) ? { ok: true, x } : failure('non-finite', 'the solution has a NaN or infinite entry');
}

/** Singular values (descending) of a rectangular matrix. */
export function singularValues(a: DenseInput): Float64Array {
  const A = toMatrix(a);
  if (A.rows === 0 || A.columns === 0) return new Float64Array(0);
  // ml-matrix's SVD wants rows ≥ columns for full accuracy; transpose when wide.
  const M = A.rows >= A.columns ? A : A.transpose();
  const svd = new SingularValueDecomposition(M, { computeLeftSingularVectors: false, computeRightSingularVectors: false });
  return Float64Array.from(svd.diagonal).sort().reverse();
}

/**
 * Numerical rank of a rectangular matrix, numpy's rule: count of σ > tol with
 * tol = max(rows, cols)·ε·σ_max unless given.
 */
export function matrixRank(a: DenseInput, tol?: number): number {
  const s = singularValues(a);
  if (s.length === 0) return 0;
  const rows = isCsr(a) ? a.rows : a.length;
  const cols = isCsr(a) ? a.cols : rows > 0 ? a[0].length : 0;
  const t = tol ?? Math.max(rows, cols) * EPS * s[0];
  let r = 0;
  for (const v of s) if (v > t) r++;
  return r;
}

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

/** κ₁(A) estimate from a solver for A (symmetric): ‖A‖₁ · est‖A⁻¹‖₁. */
export function condest1(A: CsrMatrix, solve: SolveFn, norm1?: number): number {
  const a1 = norm1 ?? csrNorm1(A);
  const inv = estimateInverseNorm1(A.rows, solve);
  const c = a1 * inv;
  return Number.isFinite(c) ? c : Infinity;
}

/** x = W⁻¹·b for a dense n×n SPD W (row-major), by Gaussian elimination without pivoting. */
export function solveDense(W: Float64Array, b: Float64Array, n: number): Float64Array {
  const A = Float64Array.from(W), x = Float64Array.from(b);
  for (let c = 0; c < n; c++) {
    for (let r = c + 1; r < n; r++) {
      const f = A[r * n + c] / A[c * n + c];
      for (let k = c; k < n; k++) A[r * n + k] -= f * A[c * n + k];
      x[r] -= f * x[c];
    }
  }
  for (let r = n - 1; r >= 0; r--) {
    let s = x[r];
    for (let k = r + 1; k < n; k++) s -= A[r * n + k] * x[k];
    x[r] = s / A[r * n + r];
  }
  return x;
}
