// Tall systems (many more constraint rows m than velocity columns k = 6·bodies): the analysis of
// A = G·Gᵀ (G = J·L, L·Lᵀ = M⁻¹, m×k) in G's column space, never forming the m×m A.
//
// - Spectrum: one-sided Jacobi SVD of G (G = U·Σ·Vᵀ, k columns, O(m·k²) per sweep); the nonzero
//   eigenvalues of A are σ², the other m − k are exactly 0. rank(A) = #{σ² > m·ε·σ²_max} (numpy's
//   matrix_rank rule on A, as the exact path).
// - Redundancy: modified Gram–Schmidt with reorthogonalisation of the rows of G in file order
//   against an orthonormal basis of at most k vectors. A row whose remaining part is below
//   tol·(its norm)² (squared, as the LDLᵀ pivot test on A) depends on the earlier independent rows;
//   its coefficients come from the triangular coordinates of those rows. The tolerance is chosen
//   from the same ladder as the sparse path so that the count matches the spectral rank.
// - λ: the minimum-norm solution U_r·Σ_r⁻²·U_rᵀ·b (compliance c = 0), or
//   U_r·(Σ_r² + c)⁻¹·U_rᵀ·b + (b − U_r·U_rᵀ·b)/c (c > 0), both exact.
// Memory O(m·k), time O(m·k²).
import { estimateInverseNorm1 } from './condest';
import type { DependentRow, SymmetricSolveResult } from './contracts';

const EPS = 2 ** -52;
const TOL_LADDER = [1e-10, 1e-12, 1e-8, 1e-13, 1e-14, 1e-6, 1e-15, 1e-4];

/** The rule that selects this path: at least 64 rows and at least four times as many rows as columns. */
export function isTall(rows: number, cols: number): boolean {
  return rows >= 64 && rows >= 4 * cols;
}

export interface TallOptions {
  compliance?: number;
  wantSpectrum?: boolean;
  wantScaledCond?: boolean;
  /** Relative cut for reported coefficients (|c| < dropTol·max|c| dropped). Default 1e-12. */
  dropTol?: number;
}

interface Svd {
  /** Left singular vectors, column-major m×k (column j at j·m). */
  U: Float64Array;
  /** Singular values, descending. */
  sigma: Float64Array;
}

/** One-sided Jacobi SVD of the row-major m×k G (only U and Σ are kept). */
export function tallSvd(G: Float64Array, m: number, k: number): Svd {
  const U = new Float64Array(m * k);
  for (let i = 0; i < m; i++) for (let j = 0; j < k; j++) U[j * m + i] = G[i * k + j];
  for (let sweep = 0; sweep < 60; sweep++) {
    let rotated = false;
    for (let p = 0; p < k - 1; p++) {
      for (let q = p + 1; q < k; q++) {
        let a = 0, b = 0, c = 0;
        const op = p * m, oq = q * m;
        for (let i = 0; i < m; i++) {
          const x = U[op + i], y = U[oq + i];
          a += x * x;
          b += y * y;
          c += x * y;
        }
        if (c === 0 || Math.abs(c) <= EPS * Math.sqrt(a * b)) continue;
        rotated = true;
        const zeta = (b - a) / (2 * c);
        const t = Math.sign(zeta || 1) / (Math.abs(zeta) + Math.sqrt(1 + zeta * zeta));
        const cs = 1 / Math.sqrt(1 + t * t);
        const sn = cs * t;
        for (let i = 0; i < m; i++) {
          const x = U[op + i], y = U[oq + i];
          U[op + i] = cs * x - sn * y;
          U[oq + i] = sn * x + cs * y;
        }
      }
    }
    if (!rotated) break;
  }
  const norms = new Float64Array(k);
  for (let j = 0; j < k; j++) {
    let s = 0;
    for (let i = 0; i < m; i++) s += U[j * m + i] ** 2;
    norms[j] = Math.sqrt(s);
  }
  const order = Array.from({ length: k }, (_, j) => j).sort((x, y) => norms[y] - norms[x]);
  const Us = new Float64Array(m * k);
  const sigma = new Float64Array(k);
  order.forEach((j, t) => {
    sigma[t] = norms[j];
    if (norms[j] > 0) for (let i = 0; i < m; i++) Us[t * m + i] = U[j * m + i] / norms[j];
  });
  return { U: Us, sigma };
}

interface RowBasis {
  dependent: { row: number; rows: number[]; coefficients: number[] }[];
  rank: number;
}

/** In-order MGS (twice) of the rows of G; `tol` compares squared norms (remaining ≤ tol·original). */
export function rowBasis(G: Float64Array, m: number, k: number, tol: number): RowBasis {
  const Q: Float64Array[] = []; // orthonormal basis rows
  const T: Float64Array[] = []; // coordinates of independent row t in Q (lower triangular, length k)
  const indep: number[] = [];
  const dependent: RowBasis['dependent'] = [];
  const w = new Float64Array(k);
  const p = new Float64Array(k);
  for (let i = 0; i < m; i++) {
    let g2 = 0;
    for (let j = 0; j < k; j++) {
      w[j] = G[i * k + j];
      g2 += w[j] * w[j];
    }
    p.fill(0);
    for (let pass = 0; pass < 2; pass++) {
      for (let t = 0; t < Q.length; t++) {
        const q = Q[t];
        let d = 0;
        for (let j = 0; j < k; j++) d += q[j] * w[j];
        p[t] += d;
        for (let j = 0; j < k; j++) w[j] -= d * q[j];
      }
    }
    let w2 = 0;
    for (let j = 0; j < k; j++) w2 += w[j] * w[j];
    if (Q.length >= k || w2 <= tol * g2) {
      // Solve Tᵀ·c = p (T lower triangular in the independent rows' order).
      const r = Q.length;
      const c = new Float64Array(r);
      for (let a = r - 1; a >= 0; a--) {
        let s = p[a];
        for (let b = a + 1; b < r; b++) s -= T[b][a] * c[b];
        c[a] = s / T[a][a];
      }
      dependent.push({ row: i, rows: indep.slice(), coefficients: Array.from(c) });
      continue;
    }
    const nw = Math.sqrt(w2);
    const q = new Float64Array(k);
    for (let j = 0; j < k; j++) q[j] = w[j] / nw;
    const tr = new Float64Array(k);
    for (let t = 0; t < Q.length; t++) tr[t] = p[t];
    tr[Q.length] = nw;
    Q.push(q);
    T.push(tr);
    indep.push(i);
  }
  return { dependent, rank: indep.length };
}

/** Dependent rows in file order whose count matches `targetRank` when a ladder tolerance allows it. */
export function tallDependentRows(G: Float64Array, m: number, k: number, targetRank: number, dropTol = 1e-12): DependentRow[] {
  let best = rowBasis(G, m, k, TOL_LADDER[0]);
  for (const t of TOL_LADDER.slice(1)) {
    if (best.rank === targetRank) break;
    const B = rowBasis(G, m, k, t);
    if (Math.abs(B.rank - targetRank) < Math.abs(best.rank - targetRank)) best = B;
  }
  return best.dependent.map((d) => {
    let mx = 0;
    for (const c of d.coefficients) mx = Math.max(mx, Math.abs(c));
    const dependsOn: DependentRow['dependsOn'] = [];
    d.rows.forEach((row, t) => {
      const c = d.coefficients[t];
      if (c !== 0 && Math.abs(c) >= dropTol * mx) dependsOn.push({ row, coefficient: c });
    });
    return { row: d.row, dependsOn };
  });
}

/** y = G·(Gᵀ·x) + c·x, O(m·k). */
function applyA(G: Float64Array, m: number, k: number, c: number, x: ArrayLike<number>): Float64Array {
  const z = new Float64Array(k);
  for (let i = 0; i < m; i++) {
    const xi = x[i];
    if (xi !== 0) for (let j = 0; j < k; j++) z[j] += G[i * k + j] * xi;
  }
  const y = new Float64Array(m);
  for (let i = 0; i < m; i++) {
    let s = c * x[i];
    for (let j = 0; j < k; j++) s += G[i * k + j] * z[j];
    y[i] = s;
  }
  return y;
}

/** x = U_r·diag(f)·U_rᵀ·b + g·(b − U_r·U_rᵀ·b). */
function spectralApply(svd: Svd, m: number, r: number, f: (t: number) => number, g: number, b: ArrayLike<number>): Float64Array {
  const x = new Float64Array(m);
  for (let i = 0; i < m; i++) x[i] = g * b[i];
  for (let t = 0; t < r; t++) {
    const o = t * m;
    let d = 0;
    for (let i = 0; i < m; i++) d += svd.U[o + i] * b[i];
    const s = d * (f(t) - g);
    for (let i = 0; i < m; i++) x[i] += s * svd.U[o + i];
  }
  return x;
}

const norm = (v: ArrayLike<number>): number => {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i] * v[i];
  return Math.sqrt(s);
};

/**
 * Solves and analyses (G·Gᵀ + c·I)·λ = b for a tall row-major m×k G (see the file comment).
 * The report has the fields and meanings of the symmetric solver's exact path.
 */
export function solveTall(G: Float64Array, m: number, k: number, b: ArrayLike<number>, opts: TallOptions = {}): SymmetricSolveResult {
  if (G.length !== m * k || b.length !== m) throw new RangeError(`solveTall: G has ${G.length} values for ${m}×${k}, b has ${b.length}`);
  const c = opts.compliance ?? 0;
  const svd = tallSvd(G, m, k);
  const ev = Float64Array.from(svd.sigma, (s) => s * s);
  const emax = ev[0] ?? 0;
  const tol = m * EPS * emax;
  let rank = 0;
  for (const e of ev) if (e > tol) rank++;
  const dependent = rank < m ? tallDependentRows(G, m, k, rank, opts.dropTol) : [];
  // The matrix solved: A + c·I, eigenvalues ev + c (r of them) and c (m − r times).
  const mMax = emax + c;
  const mMin = rank < m ? c : ev[rank - 1] + c;
  const singularM = mMax === 0 || mMin <= m * EPS * mMax;
  const cond = singularM ? Infinity : mMax / mMin;
  const inv = (t: number) => 1 / (ev[t] + c);
  const x = singularM ? spectralApply(svd, m, rank, (t) => 1 / ev[t], 0, b) : spectralApply(svd, m, rank, inv, 1 / c, b);
  // Consistency of A·λ = b (on A without Σ): the part of b outside range(A) = span(U_r).
  const xa = c === 0 ? x : spectralApply(svd, m, rank, (t) => 1 / ev[t], 0, b);
  const ra = applyA(G, m, k, 0, xa);
  let rn = 0;
  for (let i = 0; i < m; i++) rn += (ra[i] - b[i]) ** 2;
  const consistent = Math.sqrt(rn) <= 1e-9 * (norm(b) + emax * norm(xa));
  const rr = applyA(G, m, k, c, x);
  for (let i = 0; i < m; i++) rr[i] -= b[i];
  let condScaled = opts.wantScaledCond === false ? NaN : Infinity;
  if (!singularM && opts.wantScaledCond !== false) condScaled = scaledCondTall(G, m, k, c, svd, rank, ev);
  const method = singularM ? 'lstsq' : 'cholesky';
  const out: SymmetricSolveResult = {
    x,
    ok: true,
    method,
    residualNorm: norm(rr),
    rank,
    dependent,
    consistent,
    cond,
    condScaled,
    condEstimated: false,
    tolerance: tol,
  };
  if (opts.wantSpectrum) {
    const sv = new Float64Array(m);
    sv.set(ev);
    out.singularValues = sv;
  }
  return out;
}

/** κ₁ estimate of S·(A + c·I)·S, S = diag(A + c·I)^{-1/2} (c > 0): both norms by Hager–Higham on O(m·k) products. */
function scaledCondTall(G: Float64Array, m: number, k: number, c: number, svd: Svd, rank: number, ev: Float64Array): number {
  const s = new Float64Array(m);
  for (let i = 0; i < m; i++) {
    let d = c;
    for (let j = 0; j < k; j++) d += G[i * k + j] ** 2;
    if (!(d > 0)) return Infinity;
    s[i] = 1 / Math.sqrt(d);
  }
  const fwd = estimateInverseNorm1(m, (v) => {
    const w = Float64Array.from(v, (x, i) => x * s[i]);
    const y = applyA(G, m, k, c, w);
    for (let i = 0; i < m; i++) y[i] *= s[i];
    return y;
  });
  const back = estimateInverseNorm1(m, (v) => {
    const w = Float64Array.from(v, (x, i) => x / s[i]);
    const y = spectralApply(svd, m, rank, (t) => 1 / (ev[t] + c), 1 / c, w);
    for (let i = 0; i < m; i++) y[i] /= s[i];
    return y;
  });
  const kappa = fwd * back;
  return Number.isFinite(kappa) ? kappa : Infinity;
}
