// The bilateral rows of a PGS island as one block (`solver.pgs.bilateral: "block"`): each sweep solves
// them together, ΔR_b = −(W_bb + Σ·I)⁻¹·(U_b + Σ·R_b − t_b), before it visits the bounded rows and
// the contacts one by one (block Gauss–Seidel). A chain of hinges is then exact at every sweep
// instead of converging row by row, which for robots (mass ratios of 10³–10⁹ along a chain) stalls:
// Gymnasium's ant ran all 300 sweeps on most steps, row by row, at 1e-6 m/s. W_bb = h·J_b·M⁻¹·J_bᵀ
// is constant within a step: it is formed and factored once per island per step, and each sweep (and
// each contact's reduction against the block) costs two sparse triangular solves.
//
// The factor is sparse, in an order that makes little or no fill. Two rows couple only where they
// share a body, so on a tree of bodies W's graph is chordal (the rows on one body are a clique, and
// the cliques meet along the tree); eliminating leaves first (a perfect elimination order, found by
// maximum cardinality search) factors it with no fill at all, as MuJoCo's mj_factorM factors M along
// the parent array. The row order of the model (root first) would instead fill each row's whole
// envelope: on MuJoCo's humanoid 2235 numbers where W has 960. Loops (tendons, equalities, couplers)
// break chordality; the order is then kept only if it fills less than the model's own.
//
// The ordering and the factor's pattern (the symbolic analysis) depend only on where W is not zero,
// which stays the same from step to step: they are kept (a few per process, by size) and reused while
// the new W's nonzeros lie inside the kept factor's pattern; only the numbers are factored each step.
//
// A pivot below BLOCK_PIVOT_TOL of its row's own diagonal marks a row dependent on rows eliminated
// before it (a redundant loop row): it takes no correction from the block (its force is not unique).
// Ties in the order keep the model's order, so of two identical rows the later one is the dependent.

/**
 * Islands with more bilateral rows are swept row by row (the factor would cost more than it saves).
 * dm_control's dog has 287 bilateral rows in one island: swept row by row it ran all 300 sweeps
 * unconverged and its legs came apart within 40 steps.
 */
export const BLOCK_MAX_ROWS = 600;
/** Relative pivot below which a row counts as dependent on the rows before it. */
export const BLOCK_PIVOT_TOL = 1e-10;

/** An elimination order and the factor's row pattern for one sparsity pattern of W. */
interface Symbolic {
  n: number;
  /** perm[k]: the block row eliminated k-th. */
  perm: Int32Array;
  /** Row k of L (in elimination order), below the diagonal: columns colIdx[rowPtr[k] … rowPtr[k+1]), increasing. */
  rowPtr: Int32Array;
  colIdx: Int32Array;
  /** n×n, in the block's own row order: 1 where L (or Lᵀ) may hold a nonzero. */
  covers: Uint8Array;
  /** The elimination tree: parent[k], the first later row of L with a nonzero in column k (−1: a root). */
  parent: Int32Array;
  /** inv[i]: where block row i is eliminated (perm's inverse). */
  inv: Int32Array;
}

/** Symbolic analyses kept for reuse, most recent first. */
const KEPT = 8;
const kept: Symbolic[] = [];
let analyses = 0;
/** Dense W, shared by every block (used only while a block is being built). */
let wScratch = new Float64Array(0);

/** How many symbolic analyses (orderings and patterns) have been computed in this process. */
export function blockAnalyses(): number {
  return analyses;
}

/** Rows of L's pattern for W's pattern `nz` (n×n, symmetric) in elimination order `perm` (elimination tree, row reach). */
function pattern(n: number, nz: Uint8Array, perm: Int32Array): { rowPtr: Int32Array; colIdx: Int32Array } {
  const inv = new Int32Array(n);
  for (let k = 0; k < n; k++) inv[perm[k]] = k;
  // the elimination tree (CSparse's cs_etree, with path compression through `ancestor`)
  const parent = new Int32Array(n).fill(-1);
  const ancestor = new Int32Array(n).fill(-1);
  for (let k = 0; k < n; k++) {
    const pk = perm[k];
    for (let j = 0; j < n; j++) {
      if (!nz[pk * n + j]) continue;
      for (let i = inv[j]; i !== -1 && i < k; ) {
        const next = ancestor[i];
        ancestor[i] = k;
        if (next === -1) parent[i] = k;
        i = next;
      }
    }
  }
  // row k of L: every node on the tree's paths from row k's earlier nonzeros up to k
  const mark = new Int32Array(n).fill(-1);
  const rows: number[][] = [];
  for (let k = 0; k < n; k++) {
    const row: number[] = [];
    const pk = perm[k];
    mark[k] = k;
    for (let j = 0; j < n; j++) {
      if (!nz[pk * n + j]) continue;
      for (let i = inv[j]; i !== -1 && i < k && mark[i] !== k; i = parent[i]) {
        mark[i] = k;
        row.push(i);
      }
    }
    row.sort((a, b) => a - b);
    rows.push(row);
  }
  const rowPtr = new Int32Array(n + 1);
  for (let k = 0; k < n; k++) rowPtr[k + 1] = rowPtr[k] + rows[k].length;
  const colIdx = new Int32Array(rowPtr[n]);
  for (let k = 0; k < n; k++) colIdx.set(rows[k], rowPtr[k]);
  return { rowPtr, colIdx };
}

/**
 * Maximum cardinality search: visits next the row with the most visited neighbours (ties: the
 * latest row of the model's order), and eliminates in the reverse of the visit. On a chordal graph
 * that order has no fill.
 */
function mcsOrder(n: number, nz: Uint8Array): Int32Array {
  const weight = new Int32Array(n);
  const done = new Uint8Array(n);
  const perm = new Int32Array(n);
  for (let step = n - 1; step >= 0; step--) {
    let best = -1;
    for (let i = n - 1; i >= 0; i--) if (!done[i] && (best < 0 || weight[i] > weight[best])) best = i;
    done[best] = 1;
    perm[step] = best;
    for (let j = 0; j < n; j++) if (!done[j] && j !== best && nz[best * n + j]) weight[j]++;
  }
  return perm;
}

function analyse(n: number, nz: Uint8Array): Symbolic {
  analyses++;
  const natural = Int32Array.from({ length: n }, (_, i) => i);
  const mcs = mcsOrder(n, nz);
  const a = pattern(n, nz, mcs), b = pattern(n, nz, natural);
  const [perm, p] = a.rowPtr[n] <= b.rowPtr[n] ? [mcs, a] : [natural, b];
  const covers = new Uint8Array(n * n);
  for (let k = 0; k < n; k++) {
    covers[perm[k] * n + perm[k]] = 1;
    for (let q = p.rowPtr[k]; q < p.rowPtr[k + 1]; q++) {
      const i = perm[k], j = perm[p.colIdx[q]];
      covers[i * n + j] = covers[j * n + i] = 1;
    }
  }
  const parent = new Int32Array(n).fill(-1);
  for (let k = 0; k < n; k++) for (let q = p.rowPtr[k]; q < p.rowPtr[k + 1]; q++) if (parent[p.colIdx[q]] === -1) parent[p.colIdx[q]] = k;
  const inv = new Int32Array(n);
  for (let k = 0; k < n; k++) inv[perm[k]] = k;
  return { n, perm, rowPtr: p.rowPtr, colIdx: p.colIdx, covers, parent, inv };
}

/** A kept analysis whose factor pattern holds every nonzero of W (n×n, column-major), else a new one. */
function symbolicFor(n: number, W: Float64Array): Symbolic {
  const nn = n * n;
  for (let s = 0; s < kept.length; s++) {
    const sym = kept[s];
    if (sym.n !== n) continue;
    const cov = sym.covers;
    let ok = true;
    for (let q = 0; q < nn; q++) {
      if (W[q] !== 0 && !cov[q]) {
        ok = false;
        break;
      }
    }
    if (!ok) continue;
    if (s > 0) {
      kept.splice(s, 1);
      kept.unshift(sym);
    }
    return sym;
  }
  const nz = new Uint8Array(nn);
  // W arrives column by column (W[j·n + i] = W_ij): the pattern in row order
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) nz[i * n + j] = W[j * n + i] !== 0 ? 1 : 0;
  const sym = analyse(n, nz);
  kept.unshift(sym);
  if (kept.length > KEPT) kept.pop();
  return sym;
}

export class BilateralBlock {
  private readonly sym: Symbolic;
  /** L's entries below the diagonal, on the pattern's rows (elimination order). */
  private readonly Lx: Float64Array;
  /** L's diagonal (elimination order); 0 on a dependent row. */
  private readonly diag: Float64Array;
  private readonly y: Float64Array;
  /** solveFrom's marks: the rows of the current right side's reach carry the current stamp. */
  private reach = new Int32Array(0);
  private reachStamp = 0;
  /** Rows counted as dependent. */
  readonly dependentRows: number;

  /** `column(j, out)` writes column j of W_bb + Σ·I into out (length n). */
  constructor(readonly n: number, column: (j: number, out: Float64Array) => void) {
    if (wScratch.length < n * n) wScratch = new Float64Array(n * n);
    const W = wScratch.subarray(0, n * n);
    const col = new Float64Array(n);
    for (let j = 0; j < n; j++) {
      column(j, col);
      // column-major (contiguous); `covers` is symmetric and the factor reads W's symmetric part
      W.set(col, j * n);
    }
    const sym = symbolicFor(n, W);
    const { perm, rowPtr, colIdx } = sym;
    const Lx = new Float64Array(rowPtr[n]);
    const diag = new Float64Array(n);
    // row k of L, scattered (zero outside the row's pattern between rows)
    const x = col.fill(0);
    let count = 0;
    for (let k = 0; k < n; k++) {
      const pk = perm[k];
      const diag0 = W[pk * n + pk];
      let d = diag0;
      for (let q = rowPtr[k]; q < rowPtr[k + 1]; q++) {
        const j = colIdx[q], pj = perm[j];
        // W's two triangles differ by round-off: the symmetric part
        let s = 0.5 * (W[pk * n + pj] + W[pj * n + pk]);
        if (diag[j] === 0) {
          // a dependent row is out of the block: no coupling through it
          x[j] = 0;
          continue;
        }
        for (let r = rowPtr[j]; r < rowPtr[j + 1]; r++) s -= Lx[r] * x[colIdx[r]];
        const l = s / diag[j];
        x[j] = l;
        d -= l * l;
      }
      for (let q = rowPtr[k]; q < rowPtr[k + 1]; q++) {
        const j = colIdx[q];
        Lx[q] = x[j];
        x[j] = 0;
      }
      if (!(diag0 > 0) || !(d > BLOCK_PIVOT_TOL * diag0)) {
        count++;
        for (let q = rowPtr[k]; q < rowPtr[k + 1]; q++) Lx[q] = 0;
        continue;
      }
      diag[k] = Math.sqrt(d);
    }
    this.sym = sym;
    this.Lx = Lx;
    this.diag = diag;
    this.dependentRows = count;
    this.y = new Float64Array(n);
  }

  /** Nonzeros of the factor below its diagonal (the pattern kept, after elimination order). */
  get factorNonzeros(): number {
    return this.sym.rowPtr[this.n];
  }

  /**
   * solve() for a b that is zero outside the rows `nz[0 … count)`: the forward substitution visits
   * only their ancestors in the elimination tree (row k of L·y = P·b has a nonzero right side only
   * there; every other y_k is an exact zero), then the backward one is the full solve's.
   */
  solveFrom(b: ArrayLike<number>, nz: Int32Array, count: number, x: Float64Array): void {
    const { n, Lx, diag, y } = this;
    const { perm, rowPtr, colIdx, parent, inv } = this.sym;
    if (this.reach.length < n) this.reach = new Int32Array(n);
    const reach = this.reach;
    const stamp = ++this.reachStamp;
    for (let t = 0; t < count; t++) for (let k = inv[nz[t]]; k !== -1 && reach[k] !== stamp; k = parent[k]) reach[k] = stamp;
    for (let k = 0; k < n; k++) {
      const dk = diag[k];
      if (dk === 0 || reach[k] !== stamp) {
        y[k] = 0;
        continue;
      }
      let s = b[perm[k]];
      for (let q = rowPtr[k]; q < rowPtr[k + 1]; q++) s -= Lx[q] * y[colIdx[q]];
      y[k] = s / dk;
    }
    this.backward(x);
  }

  /** x = W⁻¹·b on the independent rows (0 on the dependent ones). */
  solve(b: ArrayLike<number>, x: Float64Array): void {
    const { n, Lx, diag, y } = this;
    const { perm, rowPtr, colIdx } = this.sym;
    // L·y = P·b
    for (let k = 0; k < n; k++) {
      const dk = diag[k];
      if (dk === 0) {
        y[k] = 0;
        continue;
      }
      let s = b[perm[k]];
      for (let q = rowPtr[k]; q < rowPtr[k + 1]; q++) s -= Lx[q] * y[colIdx[q]];
      y[k] = s / dk;
    }
    this.backward(x);
  }

  /** Lᵀ·z = y, in place in y (row k of L scatters into the earlier rows once z_k is known), x = Pᵀ·z. */
  private backward(x: Float64Array): void {
    const { n, Lx, diag, y } = this;
    const { perm, rowPtr, colIdx } = this.sym;
    for (let k = n - 1; k >= 0; k--) {
      const dk = diag[k];
      if (dk === 0) {
        y[k] = 0;
        x[perm[k]] = 0;
        continue;
      }
      const z = y[k] / dk;
      x[perm[k]] = z;
      for (let q = rowPtr[k]; q < rowPtr[k + 1]; q++) y[colIdx[q]] -= Lx[q] * z;
    }
  }
}
