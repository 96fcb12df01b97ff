// The bilateral rows of a PGS island as one block (`solver.pgs.bilateral: "block"`): each sweep solves
// them together, ΔR_b = −(W_bb + Σ·I)⁻¹·(U_b + Σ·R_b − t_b), before it visits the bounded rows and
// the contacts one by one (block Gauss–Seidel). A chain of hinges is then exact at every sweep
// instead of converging row by row, which for robots (mass ratios of 10³–10⁹ along a chain) stalls:
// Gymnasium's ant ran all 300 sweeps on most steps, row by row, at 1e-6 m/s. W_bb = h·J_b·M⁻¹·J_bᵀ
// is constant within a step: it is formed and factored once per island per step (dense Cholesky,
// O(n³/3); n ≤ BLOCK_MAX_ROWS), and each sweep costs two triangular solves. A pivot below
// BLOCK_PIVOT_TOL of its row's own diagonal marks a row dependent on earlier ones (a redundant loop
// row): it takes no correction from the block (its force is not unique).

/**
 * Islands with more bilateral rows are swept row by row (the dense factor, n² numbers and n³/3 work a
 * step, would cost more than it saves). dm_control's dog has 287 bilateral rows in one island: swept row
 * by row it ran all 300 sweeps unconverged and its legs came apart within 40 steps.
 */
export const BLOCK_MAX_ROWS = 600;
/** Relative pivot below which a row counts as dependent on the rows before it. */
export const BLOCK_PIVOT_TOL = 1e-10;

export class BilateralBlock {
  /** Lower-triangular factor, row-major n×n (dependent rows and columns zero). */
  private readonly L: Float64Array;
  private readonly dependent: Uint8Array;
  /** Per row, the first column of its envelope; per column, the rows below the diagonal inside the envelope (CSR). */
  private readonly first: Int32Array;
  private readonly colPtr: Int32Array;
  private readonly colRows: Int32Array;
  private readonly y: Float64Array;
  /** Rows counted as dependent. */
  readonly dependentRows: number;

  /** `column(j, out)` writes column j of W_bb + Σ·I into out (length n). */
  constructor(readonly n: number, column: (j: number, out: Float64Array) => void) {
    const L = new Float64Array(n * n);
    const col = new Float64Array(n);
    for (let j = 0; j < n; j++) {
      column(j, col);
      for (let i = 0; i < n; i++) L[i * n + j] = col[i];
    }
    // the lower triangle, symmetrised (the two products differ by round-off), factored in place: L·Lᵀ = W
    for (let i = 0; i < n; i++) for (let j = 0; j < i; j++) L[i * n + j] = 0.5 * (L[i * n + j] + L[j * n + i]);
    // the envelope: first[i], the first column of row i's lower triangle that is not zero. W's rows
    // couple only through shared bodies, so a robot's block is about half zeros, and Cholesky's fill
    // stays inside the envelope: every loop below starts there and skips only exact zeros.
    const first = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      let f = 0;
      while (f < i && L[i * n + f] === 0) f++;
      first[i] = f;
    }
    const dep = new Uint8Array(n);
    let count = 0;
    for (let j = 0; j < n; j++) {
      const diag0 = L[j * n + j];
      let d = diag0;
      for (let k = first[j]; k < j; k++) d -= L[j * n + k] * L[j * n + k];
      if (!(diag0 > 0) || !(d > BLOCK_PIVOT_TOL * diag0)) {
        dep[j] = 1;
        count++;
        for (let i = j; i < n; i++) L[i * n + j] = 0;
        continue;
      }
      const ljj = Math.sqrt(d);
      L[j * n + j] = ljj;
      for (let i = j + 1; i < n; i++) {
        // outside row i's envelope L_ij is zero and stays zero
        if (first[i] > j) continue;
        let s = L[i * n + j];
        for (let k = Math.max(first[i], first[j]); k < j; k++) s -= L[i * n + k] * L[j * n + k];
        L[i * n + j] = s / ljj;
      }
    }
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) L[i * n + j] = 0;
    // column i's rows below the diagonal inside the envelope, in increasing order (the backward solve's)
    const colPtr = new Int32Array(n + 1);
    for (let k = 0; k < n; k++) for (let i = first[k]; i < k; i++) colPtr[i + 1]++;
    for (let i = 0; i < n; i++) colPtr[i + 1] += colPtr[i];
    const colRows = new Int32Array(colPtr[n]);
    const fill = colPtr.slice(0, n);
    for (let k = 0; k < n; k++) for (let i = first[k]; i < k; i++) colRows[fill[i]++] = k;
    this.L = L;
    this.first = first;
    this.colPtr = colPtr;
    this.colRows = colRows;
    this.dependent = dep;
    this.dependentRows = count;
    this.y = new Float64Array(n);
  }

  /** x = W⁻¹·b on the independent rows (0 on the dependent ones). */
  solve(b: ArrayLike<number>, x: Float64Array): void {
    const { n, L, dependent: dep, y, first, colPtr, colRows } = this;
    for (let i = 0; i < n; i++) {
      if (dep[i]) {
        y[i] = 0;
        continue;
      }
      let s = b[i];
      for (let k = first[i]; k < i; k++) s -= L[i * n + k] * y[k];
      y[i] = s / L[i * n + i];
    }
    for (let i = n - 1; i >= 0; i--) {
      if (dep[i]) {
        x[i] = 0;
        continue;
      }
      let s = y[i];
      for (let p = colPtr[i]; p < colPtr[i + 1]; p++) {
        const k = colRows[p];
        s -= L[k * n + i] * x[k];
      }
      x[i] = s / L[i * n + i];
    }
  }
}
