// Dense linear algebra for small systems: LU and least squares through ml-matrix, plus a fast
// eigenvalues-only symmetric eigensolver (Householder tridiagonalisation + implicit QL) on flat
// arrays — ml-matrix's EigenvalueDecomposition always builds eigenvectors and is ~10× slower.
import { LuDecomposition, Matrix } from 'ml-matrix';
import { hypot2, isFiniteVec } from '../core/math';
import { failure, type CsrMatrix, type Failure } from './contracts';
import { csrToDenseFlat } from './sparse';
import { svdLstsq, type SvdOptions } from './svd';

/** A dense solve that succeeded (failures follow the convention in contracts.ts). */
export interface DenseSolution {
  ok: true;
  x: Float64Array;
}

const solved = (x: Float64Array): DenseSolution | Failure =>
  isFiniteVec(x) ? { ok: true, x } : failure('non-finite', 'the solution has a NaN or infinite entry');

export type DenseInput = CsrMatrix | ArrayLike<number>[];

const EPS = 2 ** -52;

function isCsr(a: DenseInput): a is CsrMatrix {
  return (a as CsrMatrix).rowPtr !== undefined;
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

/** Set to `converged: false` by an eigenvalue routine whose QL iteration reached its cap. */
export interface EigenStatus {
  converged: boolean;
  /** Iterations per eigenvalue before QL gives up (default QL_MAX_ITERATIONS). */
  maxIterations?: number;
}

/**
 * Eigenvalues of a symmetric matrix given row-major flat (n×n; only the lower triangle is read;
 * the array is overwritten). Unsorted.
 */
export function symmetricEigenvaluesFlatInPlace(a: Float64Array, n: number, status?: EigenStatus): Float64Array {
  const d = new Float64Array(n);
  const e = new Float64Array(n); // e[i] couples i and i+1
  if (n === 0) return d;
  const v = new Float64Array(n);
  const p = new Float64Array(n);
  for (let k = 0; k < n - 2; k++) {
    const k1 = k + 1;
    const m = n - k1;
    // x = a[k1.., k]
    let scale = 0;
    for (let i = 0; i < m; i++) scale += Math.abs(a[(k1 + i) * n + k]);
    d[k] = a[k * n + k];
    if (scale === 0) {
      e[k] = 0;
      continue;
    }
    let sigma = 0;
    for (let i = 0; i < m; i++) {
      const xi = a[(k1 + i) * n + k] / scale;
      v[i] = xi;
      sigma += xi * xi;
    }
    const norm = Math.sqrt(sigma);
    const alpha = v[0] > 0 ? -norm : norm;
    e[k] = alpha * scale;
    v[0] -= alpha;
    const vtv = sigma - 2 * alpha * (v[0] + alpha) + alpha * alpha; // ‖x − αe₁‖²
    if (vtv === 0) continue;
    const beta = 2 / vtv;
    // p = β·A22·v (lower triangle of A22)
    p.fill(0, 0, m);
    for (let i = 0; i < m; i++) {
      const row = (k1 + i) * n + k1;
      const vi = v[i];
      let s = a[row + i] * vi;
      for (let j = 0; j < i; j++) {
        const aij = a[row + j];
        s += aij * v[j];
        p[j] += aij * vi;
      }
      p[i] += s;
    }
    let ptv = 0;
    for (let i = 0; i < m; i++) {
      p[i] *= beta;
      ptv += p[i] * v[i];
    }
    const K = (beta * ptv) / 2;
    for (let i = 0; i < m; i++) p[i] -= K * v[i]; // w
    for (let i = 0; i < m; i++) {
      const row = (k1 + i) * n + k1;
      const vi = v[i];
      const wi = p[i];
      for (let j = 0; j <= i; j++) a[row + j] -= vi * p[j] + wi * v[j];
    }
  }
  if (n >= 2) {
    d[n - 2] = a[(n - 2) * n + n - 2];
    e[n - 2] = a[(n - 1) * n + n - 2];
  }
  d[n - 1] = a[(n - 1) * n + n - 1];
  e[n - 1] = 0;
  if (!tridiagonalQL(d, e, status?.maxIterations) && status) status.converged = false;
  return d;
}

/** Iterations per eigenvalue before the QL iteration gives up (it needs one to three in practice). */
export const QL_MAX_ITERATIONS = 60;

/**
 * Implicit QL with Wilkinson shifts on a symmetric tridiagonal matrix (JAMA tql2 without vectors).
 * d is the diagonal, e[i] couples i and i+1 (both overwritten; d ends as the eigenvalues). Capped at
 * `maxIterations` per eigenvalue (JAMA's loop has no cap): false when the cap was reached (subnormal
 * or wildly scaled entries), and the values in d are then not to be trusted.
 */
export function tridiagonalQL(d: Float64Array, e: Float64Array, maxIterations = QL_MAX_ITERATIONS): boolean {
  const n = d.length;
  let converged = true;
  let f = 0;
  let tst1 = 0;
  for (let l = 0; l < n; l++) {
    tst1 = Math.max(tst1, Math.abs(d[l]) + Math.abs(e[l]));
    let m = l;
    while (m < n) {
      if (Math.abs(e[m]) <= EPS * tst1) break;
      m++;
    }
    if (m === n) m = n - 1;
    if (m > l) {
      let iter = 0;
      do {
        iter++;
        let g = d[l];
        let p = (d[l + 1] - g) / (2 * e[l]);
        let r = hypot2(p, 1);
        if (p < 0) r = -r;
        d[l] = e[l] / (p + r);
        d[l + 1] = e[l] * (p + r);
        const dl1 = d[l + 1];
        let h = g - d[l];
        for (let i = l + 2; i < n; i++) d[i] -= h;
        f += h;
        p = d[m];
        let c = 1;
        let c2 = c;
        let c3 = c;
        const el1 = e[l + 1];
        let s = 0;
        let s2 = 0;
        for (let i = m - 1; i >= l; i--) {
          c3 = c2;
          c2 = c;
          s2 = s;
          g = c * e[i];
          h = c * p;
          r = hypot2(p, e[i]);
          e[i + 1] = s * r;
          s = e[i] / r;
          c = p / r;
          p = c * d[i] - s * g;
          d[i + 1] = h + s * (c * g + s * d[i]);
        }
        p = (-s * s2 * c3 * el1 * e[l]) / dl1;
        e[l] = s * p;
        d[l] = c * p;
      } while (Math.abs(e[l]) > EPS * tst1 && iter < maxIterations);
      if (Math.abs(e[l]) > EPS * tst1) converged = false;
    }
    d[l] += f;
    e[l] = 0;
  }
  return converged;
}

function rhsColumn(b: ArrayLike<number>): Matrix {
  return Matrix.columnVector(Array.from(b));
}

export function denseSolveLU(a: DenseInput, b: ArrayLike<number>): DenseSolution | Failure {
  const A = toMatrix(a);
  if (A.rows === 0) return { ok: true, x: new Float64Array(0) };
  const lu = new LuDecomposition(A);
  // ml-matrix only flags exact zero pivots; also reject pivots at round-off level.
  const U = lu.upperTriangularMatrix;
  let umax = 0;
  for (let i = 0; i < A.rows; i++) umax = Math.max(umax, Math.abs(U.get(i, i)));
  for (let i = 0; i < A.rows; i++) {
    const u = Math.abs(U.get(i, i));
    if (u <= A.rows * EPS * umax) return failure('singular', `LU pivot ${i + 1} of ${A.rows} is ${u}, at most n·ε·max|u_kk| = ${A.rows * EPS * umax}`);
  }
  if (lu.isSingular()) return failure('singular', 'LU found a zero pivot');
  return solved(Float64Array.from(lu.solve(rhsColumn(b)).getColumn(0)));
}

/**
 * Minimum-norm least-squares solution of A·x ≈ b (A rectangular) through the SVD (svd.ts: capped
 * Jacobi sweeps, never ml-matrix's uncapped iteration): 'non-finite' for a NaN or infinite entry,
 * 'not-converged' when the SVD reaches its sweep cap.
 */
export function denseLstsqMinNorm(a: DenseInput, b: ArrayLike<number>, opts: SvdOptions = {}): DenseSolution | Failure {
  const A = toMatrix(a);
  if (A.rows === 0 || A.columns === 0) return { ok: true, x: new Float64Array(A.columns) };
  if (!isFiniteVec(b)) return failure('non-finite', 'least squares: b has a NaN or infinite entry');
  const r = svdLstsq(A.to2DArray(), A.rows, A.columns, b, opts);
  if (!r.ok) return failure(r.reason, `least squares: ${r.message}`);
  return solved(r.x);
}

/**
 * Eigenvalues (unsorted) of a symmetric band matrix with half-bandwidth kd, given full row-major
 * (n×n; read only). Band reduction to tridiagonal form with Givens rotations and bulge chasing
 * (Schwarz) in compact band storage, O(n²·kd), then implicit QL.
 */
export function symmetricBandEigenvalues(a: Float64Array, n: number, kd: number, status?: EigenStatus): Float64Array {
  const d = new Float64Array(n);
  const e = new Float64Array(n);
  if (n === 0) return d;
  if (kd <= 1) {
    for (let i = 0; i < n; i++) {
      d[i] = a[i * n + i];
      e[i] = kd === 1 && i + 1 < n ? a[(i + 1) * n + i] : 0;
    }
    if (!tridiagonalQL(d, e, status?.maxIterations) && status) status.converged = false;
    return d;
  }
  const w = kd + 2; // storage half-width: band + bulge + margin
  const W = 2 * w + 1;
  const B = new Float64Array(n * W); // B[i*W + (j − i + w)] = a_ij
  for (let i = 0; i < n; i++) {
    const lo = Math.max(0, i - kd);
    const hi = Math.min(n - 1, i + kd);
    for (let j = lo; j <= hi; j++) B[i * W + j - i + w] = a[i * n + j];
  }
  // Rotation in plane (p, p+1) that zeroes entry (p+1, col) against (p, col).
  const rotate = (p: number, col: number) => {
    const q = p + 1;
    const x = B[p * W + col - p + w];
    const y = B[q * W + col - q + w];
    if (y === 0) return;
    const h = hypot2(x, y);
    const c = x / h;
    const s = y / h;
    const lo = Math.max(0, q - w);
    const hi = Math.min(n - 1, p + w);
    const op = p * W - p + w;
    const oq = q * W - q + w;
    for (let t = lo; t <= hi; t++) {
      const u = B[op + t];
      const v = B[oq + t];
      B[op + t] = c * u + s * v;
      B[oq + t] = c * v - s * u;
    }
    for (let t = lo; t <= hi; t++) {
      const o = t * W - t + w;
      const u = B[o + p];
      const v = B[o + q];
      B[o + p] = c * u + s * v;
      B[o + q] = c * v - s * u;
    }
    B[q * W + col - q + w] = 0;
    B[col * W + q - col + w] = 0;
  };
  for (let j = 0; j < n - 2; j++) {
    for (let dd = Math.min(kd, n - 1 - j); dd >= 2; dd--) {
      const r = j + dd;
      rotate(r - 1, j);
      for (let k = r; k + kd < n; k += kd) rotate(k + kd - 1, k - 1);
    }
  }
  for (let i = 0; i < n; i++) {
    d[i] = B[i * W + w];
    e[i] = i + 1 < n ? B[(i + 1) * W + w - 1] : 0;
  }
  if (!tridiagonalQL(d, e, status?.maxIterations) && status) status.converged = false;
  return d;
}

/** Half-bandwidth max|i − j| over the nonzeros of a row-major n×n matrix. */
export function halfBandwidth(a: Float64Array, n: number): number {
  let kd = 0;
  for (let i = 0; i < n; i++) {
    const r = i * n;
    for (let j = 0; j < i - kd; j++) {
      if (a[r + j] !== 0) {
        kd = i - j;
        break;
      }
    }
  }
  return kd;
}

/**
 * Eigenvalues (unsorted) of a symmetric matrix given row-major flat (may be overwritten): band reduction
 * when the half-bandwidth is small (e.g. block-tridiagonal chains), Householder otherwise.
 */
export function symmetricEigenvaluesAuto(a: Float64Array, n: number, status?: EigenStatus): Float64Array {
  const kd = halfBandwidth(a, n);
  // Band work ~ 8·kd·n² vs Householder ~ (4/3)·n³.
  if (kd <= 1 || 6 * kd < n) return symmetricBandEigenvalues(a, n, kd, status);
  return symmetricEigenvaluesFlatInPlace(a, n, status);
}
