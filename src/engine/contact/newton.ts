// Newton's method on Axion's nonlinear system (system.ts) with a backtracking (Armijo) line search
// on ½‖h‖², one step per call: `stepNonlinear`. The linear system of each iteration is first reduced
// to the contact space and solved by preconditioned conjugate residual (schurNewton.ts: symmetric-sized
// work, no factorisation); when that does not converge, a sparse LU (AMD column order, threshold
// partial pivoting) of the Newton matrix with its rows ordered [kin, dyn, b, n, f] (a strong diagonal);
// dense LU, then the dense minimum-norm solution, are fallbacks for small systems. The method used is reported.
import type { World } from '../assembly/assemble';
import type { Contact, ContactForce } from '../collision/contacts';
import { denseLstsqMinNorm, denseSolveLU } from '../linalg/dense';
import { csrMulVec, csrNorm1 } from '../linalg/sparse';
import { estimateInverseNorm1 } from '../linalg/condest';
import { amdOrdering } from '../linalg/ordering';
import type { CsrMatrix } from '../linalg/contracts';
import type { BodyState } from '../model/body';
import { norm2 } from '../core/math';
import { classifyContact, openThreshold } from './forces';
import { contactRowDot } from './rigid';
import { sparseLu, sparseLuSolve, sparseLuSolveTranspose, type SparseLu } from '../linalg/sparseLu';
import { SchurNewton } from './schurNewton';
import { newtonRowBlocks } from './schurBlocks';
import { type BlockName, type BlockNorms, type BlockRange, type ColumnBlockName, type FrozenFriction, NonlinearSystem, type NonlinearSettings } from './system';

export type LinearMethod = 'schur-cr' | 'sparse-lu' | 'dense-lu' | 'dense-lstsq' | 'failed';

/** Armijo constant, step shrink factor and the number of trial steps of the line search. */
export const ARMIJO_C = 1e-4;
export const BACKTRACK = 0.5;
export const MAX_TRIALS = 12;
/** Largest system solved densely when the sparse LU fails. */
export const DENSE_FALLBACK_MAX = 600;
/**
 * The reduced solve's relative residual and iteration cap. Tight: the Newton iterates then follow the
 * LU's to round-off (an inexact Newton step would change the trajectory the panel shows), and the
 * cap sends a system the Krylov iteration cannot handle to the LU instead of a poor step.
 */
export const CR_TOLERANCE = 1e-11;
export const CR_MAX_ITERATIONS = 200;
/**
 * Size of the Newton matrix from which 'auto' reduces to the contact space. Measured with the block
 * preconditioner: on the 10-box pile (≈ 250 unknowns) the sparse LU still wins (about 12 against 22 ms a
 * step: the reduction's set-up per Newton iteration costs more than a factorisation that small), and so on
 * the ant and the humanoid (≈ 250 unknowns: 21 and 19 ms against 32 ms); on the 100-box pile (≈ 3000
 * unknowns) the reduction converges on the resting stack too and the step costs about half the LU's.
 */
export const SCHUR_MIN_UNKNOWNS = 1000;
/**
 * Inexact Newton (Axion's loose inner solves): the reduced solve of iteration k stops at the relative
 * residual η_k (Eisenstat–Walker's second choice, η_k = γ·(‖h_k‖/‖h_k−1‖)², safeguarded, at most ETA_MAX)
 * or after INEXACT_MAX_ITERATIONS Krylov iterations. Any step with a linear residual below ETA_MAX·‖h‖ is
 * a descent direction of ½‖h‖², so the line search and the outer tolerance on ‖h‖ are unchanged; only
 * the work spent on early iterations far from the root is cut. Near the root η_k falls quadratically, and
 * never below what the outer tolerance needs (ETA_TOL_FRACTION·tolerance/‖h_k‖). Not the default: with the
 * block preconditioner a tight solve takes ~8 Krylov iterations on the piles, and on the 100-box pile the
 * loose steps cost Newton iterations (17 against 14 a step) and converged steps (18 of 45 against 31).
 */
export const ETA_MAX = 0.1;
export const ETA_GAMMA = 0.9;
export const ETA_FIRST = 0.1;
export const ETA_TOL_FRACTION = 0.1;
export const INEXACT_MAX_ITERATIONS = 16;
/** κ's estimate only needs the solves to a few digits. */
const CR_CONDEST_TOLERANCE = 1e-8;

export interface NewtonReport {
  method: 'newton';
  iterations: number;
  converged: boolean;
  /** ‖h‖₂ at every iterate x₀ … x_final (length iterations + 1). */
  residuals: number[];
  /** Block norms at every iterate. */
  blockResiduals: BlockNorms[];
  /** Block norms at the final iterate. */
  blocks: BlockNorms;
  /** Line-search step length α of each iteration. */
  stepLengths: number[];
  /** Linear solver used in each iteration. */
  linearSolvers: LinearMethod[];
  /** Krylov iterations of each Newton iteration's reduced solve (0 where it was not tried); a failed try is followed by the LU. */
  linearIterations: number[];
  /** The Newton matrix (∂h/∂x + regularisation on the λ diagonal) of the last iteration (or at x₀ when none). */
  matrix: CsrMatrix;
  /** κ₁ estimate of `matrix` (Hager–Higham, with the solves of `condSolver`); ∞ when singular. */
  cond: number;
  /** Whose solves estimated ‖A⁻¹‖₁: the reduced Krylov solve or the sparse LU. */
  condSolver: 'schur-cr' | 'sparse-lu';
  /** The regularisation added to each row's λ diagonal entry (∂h/∂x = matrix − diag(regularization)). */
  regularization: Float64Array;
  rowBlocks: BlockRange<BlockName>[];
  colBlocks: BlockRange<ColumnBlockName>[];
  /**
   * Largest |h_i| at the final iterate: its block, the index within the block, and what owns the row —
   * a body (scene index; dyn, kin), a constraint (world index; b) or a contact (index in `contacts`; n, f).
   */
  worst: { block: BlockName; index: number; value: number; owner: { kind: 'body' | 'constraint' | 'contact'; index: number } };
  /** Bilateral forces λ_b/h, one per row of the world's constraints. */
  bilateral: Float64Array;
  contacts: ContactForce[];
  /** Contact impulses per contact [λ_n, λ_t1, λ_t2] (N·s). */
  impulses: Float64Array;
  /** max over contacts of |min(a, β̂·λ_n)| with a = c_n(q⁺) (m) or the velocity target (m/s). */
  complementarity: number;
  /** Largest penetration max(0, −c_n(q⁺)) (m). */
  maxPenetration: number;
  /** Largest | |Q⁺| − 1 | before the renormalisation. */
  quatDrift: number;
  /** |Q⁺| − 1 before the renormalisation, per scene body (0 for fixed bodies). */
  bodyQuatDrift: Float64Array;
}

/** Copy of a CSR matrix with its rows taken in the order `order` (row i of the result = row order[i]). */
function permuteRows(A: CsrMatrix, order: Int32Array): CsrMatrix {
  const rowPtr = new Int32Array(A.rows + 1);
  for (let i = 0; i < A.rows; i++) rowPtr[i + 1] = rowPtr[i] + A.rowPtr[order[i] + 1] - A.rowPtr[order[i]];
  const colIdx = new Int32Array(rowPtr[A.rows]);
  const values = new Float64Array(rowPtr[A.rows]);
  for (let i = 0; i < A.rows; i++) {
    const s = A.rowPtr[order[i]], e = A.rowPtr[order[i] + 1];
    colIdx.set(A.colIdx.subarray(s, e), rowPtr[i]);
    values.set(A.values.subarray(s, e), rowPtr[i]);
  }
  return { rows: A.rows, cols: A.cols, rowPtr, colIdx, values };
}

/** The AMD column order of the last pattern seen (a pure function of the pattern, so caching it changes nothing). */
let amdCache: { rowPtr: Int32Array; colIdx: Int32Array; order: Int32Array } | undefined;
function amdFor(P: CsrMatrix): Int32Array {
  const c = amdCache;
  if (c && c.rowPtr.length === P.rowPtr.length && c.colIdx.length === P.colIdx.length && equal(c.rowPtr, P.rowPtr) && equal(c.colIdx, P.colIdx)) return c.order;
  const order = amdOrdering(P);
  amdCache = { rowPtr: P.rowPtr.slice(), colIdx: P.colIdx.slice(), order };
  return order;
}
function equal(a: Int32Array, b: Int32Array): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** b with its entries in `order` (entry i is b[order[i]]). */
function permuted(b: ArrayLike<number>, order: Int32Array): Float64Array {
  const out = new Float64Array(order.length);
  for (let i = 0; i < order.length; i++) out[i] = b[order[i]];
  return out;
}

/** Rows of the Newton matrix in the order factorised: [kin, dyn, b, n, f]. */
function rowOrder(sys: NonlinearSystem): Int32Array {
  const order = new Int32Array(sys.N);
  let k = 0;
  for (let i = 0; i < 7 * sys.nb; i++) order[k++] = sys.rkin + i;
  for (let i = 0; i < 6 * sys.nb; i++) order[k++] = i;
  for (let i = sys.rb; i < sys.N; i++) order[k++] = i;
  return order;
}

/** Sparse LU of the Newton matrix with its rows in `rowOrder` (undefined when singular). */
function factorNewton(sys: NonlinearSystem, A: CsrMatrix): { P: CsrMatrix; order: Int32Array; f: SparseLu | undefined } {
  const order = rowOrder(sys);
  const P = permuteRows(A, order);
  return { P, order, f: sparseLu(P, { order: amdFor(P) }) };
}

/**
 * κ₁ of the Newton matrix A (Hager–Higham estimate ‖A‖₁·est‖A⁻¹‖₁ from the sparse LU, as the
 * engine's `condest1`); ∞ when A is singular. `fac` reuses a factorisation of A.
 */
export function newtonCondition(sys: NonlinearSystem, A: CsrMatrix, fac = factorNewton(sys, A)): number {
  const { f, order } = fac;
  if (!f) return Infinity;
  const solve = (b: Float64Array) => sparseLuSolve(f, permuted(b, order));
  const solveT = (c: Float64Array) => {
    const z = sparseLuSolveTranspose(f, c);
    const y = new Float64Array(c.length);
    for (let i = 0; i < order.length; i++) y[order[i]] = z[i];
    return y;
  };
  const k = csrNorm1(A) * estimateInverseNorm1(A.rows, solve, solveT);
  return Number.isFinite(k) ? k : Infinity;
}

/**
 * κ₁ of the Newton matrix from the reduced solves (Hager–Higham ‖A‖₁·est‖A⁻¹‖₁ as `newtonCondition`,
 * each solve of A and Aᵀ by conjugate residual in the contact space); undefined when a solve fails,
 * for the caller to fall back to the LU.
 */
export function schurCondition(A: CsrMatrix, schur: SchurNewton): number | undefined {
  const n = A.rows;
  const out = new Float64Array(n);
  let ok = true;
  // after a failed solve the estimate is discarded: the remaining solves return at once
  const solve = (b: Float64Array) => {
    if (ok) ok = schur.solve(b, out, CR_CONDEST_TOLERANCE, CR_MAX_ITERATIONS).converged;
    return out;
  };
  const solveT = (c: Float64Array) => {
    if (ok) ok = schur.solveTranspose(c, out, CR_CONDEST_TOLERANCE, CR_MAX_ITERATIONS).converged;
    return out;
  };
  const k = csrNorm1(A) * estimateInverseNorm1(n, solve, solveT);
  if (!ok) return undefined;
  return Number.isFinite(k) ? k : Infinity;
}

/** The reduction of the Newton matrix to the contact space (undefined when its structure does not allow it). */
export function schurFor(sys: NonlinearSystem, A: CsrMatrix, preconditioner: 'block' | 'jacobi' = 'block'): SchurNewton | undefined {
  const pairOf = (c: number) => {
    const { bodyA, bodyB } = sys.contacts[c];
    return bodyA < bodyB ? `${bodyA} ${bodyB}` : `${bodyB} ${bodyA}`;
  };
  const blocks = preconditioner === 'block' ? newtonRowBlocks(sys.mb, sys.nc, sys.world.rowStart, pairOf) : undefined;
  return SchurNewton.from(A, { nb: sys.nb, m: sys.N - 13 * sys.nb, blocks });
}

/** Solve A·x = b (A the Newton matrix, rows in residual order). */
export function solveNewtonSystem(sys: NonlinearSystem, A: CsrMatrix, b: Float64Array): { x: Float64Array; method: LinearMethod; factor?: ReturnType<typeof factorNewton> } {
  const n = A.rows;
  const fac = factorNewton(sys, A);
  const { P, order, f } = fac;
  const pb = permuted(b, order);
  if (f) {
    const x = sparseLuSolve(f, pb);
    // one step of iterative refinement
    const r = csrMulVec(P, x);
    for (let i = 0; i < n; i++) r[i] = pb[i] - r[i];
    const dx = sparseLuSolve(f, r);
    let finite = true;
    for (let i = 0; i < n; i++) finite = Number.isFinite((x[i] += dx[i])) && finite;
    if (finite) return { x, method: 'sparse-lu', factor: fac };
  }
  if (n <= DENSE_FALLBACK_MAX) {
    const lu = denseSolveLU(A, b);
    if (lu.ok) return { x: lu.x, method: 'dense-lu' };
    const ls = denseLstsqMinNorm(A, b);
    if (ls.ok) return { x: ls.x, method: 'dense-lstsq' };
  }
  return { x: new Float64Array(n), method: 'failed' };
}

/**
 * The reduced solve of A·x = b to the relative residual `tol` within `maxIter` Krylov iterations; x
 * undefined when its residual is above `accept` (or A's structure does not allow the reduction).
 */
function solveReduced(sys: NonlinearSystem, A: CsrMatrix, b: Float64Array, tol: number, maxIter: number, accept: number): { x?: Float64Array; iterations: number; schur?: SchurNewton } {
  const schur = schurFor(sys, A);
  if (!schur) return { iterations: 0 };
  const x = new Float64Array(A.rows);
  const r = schur.solve(b, x, tol, maxIter);
  if (!r.converged && !(r.relResidual <= accept)) return { iterations: r.iterations };
  for (let i = 0; i < x.length; i++) if (!Number.isFinite(x[i])) return { iterations: r.iterations };
  return { x, iterations: r.iterations, schur };
}

function regDiagonal(sys: NonlinearSystem, reg: number): Float64Array {
  const d = new Float64Array(sys.N);
  const s = sys.settings;
  for (let r = 0; r < sys.mb; r++) d[sys.rb + r] = sys.deadB[r] ? 0 : (s.jointLevel === 'position' ? sys.h : 1) * reg;
  for (let c = 0; c < sys.nc; c++) {
    d[sys.rn + c] = sys.deadN[c] ? 0 : (s.contactLevel === 'position' ? sys.h : 1) * reg;
    d[sys.rf + 2 * c] = d[sys.rf + 2 * c + 1] = reg;
  }
  return d;
}

/**
 * Newton's method on h(x) = 0 from x (modified in place). Each iteration solves
 * (∂h/∂x + D)·Δx = −h and backtracks on ½‖h‖² until ½‖h(x + αΔx)‖² ≤ ½‖h(x)‖² + c·α·hᵀ(∂h/∂x)Δx.
 * Friction: 'exact' re-evaluates W at every trial point; 'fixed-point' (Axion) holds the W of the
 * iteration's start through the solve and the line search. Convergence: ‖h(x)‖₂ ≤ tolerance, W at x.
 */
export function newtonSolve(sys: NonlinearSystem, x: Float64Array) {
  const st = sys.settings.newton;
  const reg = sys.settings.regularization;
  const regD = regDiagonal(sys, reg);
  // 'exact': h_f carries W(x), so every trial point re-evaluates it; 'fixed-point': W frozen per iteration
  const exact = sys.settings.frictionJacobian === 'exact';
  const residuals: number[] = [];
  const blockResiduals: BlockNorms[] = [];
  const stepLengths: number[] = [];
  const linearSolvers: LinearMethod[] = [];
  const linearIterations: number[] = [];
  let matrix: CsrMatrix | undefined;
  let lastFactor: ReturnType<typeof factorNewton> | undefined;
  let lastSchur: SchurNewton | undefined;
  const mode = sys.settings.linearSolver ?? 'auto';
  // 'sparse-lu', or 'auto' on a small system: the LU at every iteration
  let crFailed = mode === 'sparse-lu' || (mode === 'auto' && sys.N < SCHUR_MIN_UNKNOWNS);
  const luOnly = crFailed;
  const inexact = sys.settings.linearTolerance === 'forcing';
  let etaPrev = ETA_FIRST;
  let fr: FrozenFriction = sys.frozenFriction(x);
  let h = sys.residual(x, fr);
  let iterations = 0;
  let converged = false;
  const maxIt = Math.max(0, Math.floor(st.maxIterations));
  for (;;) {
    const nh = norm2(h);
    residuals.push(nh);
    blockResiduals.push(sys.blockNorms(h));
    if (nh <= st.tolerance) {
      converged = true;
      break;
    }
    if (iterations >= maxIt || !Number.isFinite(nh)) break;
    matrix = sys.jacobian(x, fr, reg);
    const rhs = h.map((v) => -v);
    // once the Krylov iteration has failed in this step, the LU takes the step's remaining iterations:
    // the iterates of one step stay close, and so does the reduced system's conditioning
    // forcing term η_k: loose while ‖h‖ falls slowly, tight as it falls quadratically
    let eta = CR_TOLERANCE, cap = CR_MAX_ITERATIONS, accept = 0;
    if (inexact) {
      if (iterations === 0) eta = ETA_FIRST;
      else {
        const prev = residuals[residuals.length - 2];
        eta = ETA_GAMMA * (nh / prev) ** 2;
        if (ETA_GAMMA * etaPrev * etaPrev > 0.1) eta = Math.max(eta, ETA_GAMMA * etaPrev * etaPrev);
      }
      eta = Math.max(Math.min(eta, ETA_MAX), (ETA_TOL_FRACTION * st.tolerance) / nh, CR_TOLERANCE);
      etaPrev = eta;
      cap = INEXACT_MAX_ITERATIONS;
      accept = ETA_MAX;
    }
    const red = crFailed ? { iterations: 0 } : solveReduced(sys, matrix, rhs, eta, cap, accept);
    if (!red.x) crFailed = true;
    linearIterations.push(red.iterations);
    lastSchur = red.schur;
    const { x: dx, method, factor } = red.x ? { x: red.x, method: 'schur-cr' as const, factor: undefined } : solveNewtonSystem(sys, matrix, rhs);
    lastFactor = factor;
    linearSolvers.push(method);
    iterations++;
    if (method === 'failed') {
      stepLengths.push(0);
      break;
    }
    // slope of ½‖h‖² along dx: hᵀ(∂h/∂x)dx, with ∂h/∂x = matrix − diag(regD)
    const Jdx = csrMulVec(matrix, dx);
    let slope = 0;
    for (let i = 0; i < h.length; i++) slope += h[i] * (Jdx[i] - regD[i] * dx[i]);
    const f0 = 0.5 * nh * nh;
    let alpha = 1;
    // α = 0 (stay) unless a trial point has a finite merit
    let best = { alpha: 0, f: Infinity, x: x, h: h };
    const xt = new Float64Array(x.length);
    for (let t = 0; t < (st.lineSearch ? MAX_TRIALS : 1); t++) {
      for (let i = 0; i < x.length; i++) xt[i] = x[i] + alpha * dx[i];
      const ht = sys.residual(xt, exact ? sys.frozenFriction(xt) : fr);
      const ft = 0.5 * norm2(ht) ** 2;
      if (ft < best.f) best = { alpha, f: ft, x: Float64Array.from(xt), h: ht };
      if (!st.lineSearch || ft <= f0 + ARMIJO_C * alpha * Math.min(slope, 0) || (slope >= 0 && ft < f0)) break;
      alpha *= BACKTRACK;
    }
    stepLengths.push(best.alpha);
    x.set(best.x);
    fr = sys.frozenFriction(x);
    h = sys.residual(x, fr);
  }
  if (!matrix) matrix = sys.jacobian(x, fr, reg);
  // κ from the solver the last iteration used: no LU is factorised for it when the reduced solve worked
  const schur = lastSchur ?? (lastFactor || luOnly ? undefined : schurFor(sys, matrix));
  const kSchur = schur ? schurCondition(matrix, schur) : undefined;
  const cond = kSchur ?? newtonCondition(sys, matrix, lastFactor);
  const condSolver: NewtonReport['condSolver'] = kSchur === undefined ? 'sparse-lu' : 'schur-cr';
  return { iterations, converged, residuals, blockResiduals, stepLengths, linearSolvers, linearIterations, matrix, cond, condSolver, regD, h };
}

function ownerOf(world: World, block: BlockName, i: number): NewtonReport['worst']['owner'] {
  switch (block) {
    case 'dyn':
      return { kind: 'body', index: world.colBodies[Math.floor(i / 6)] ?? -1 };
    case 'kin':
      return { kind: 'body', index: world.colBodies[Math.floor(i / 7)] ?? -1 };
    case 'b': {
      let c = 0;
      while (c + 1 < world.constraints.length && world.rowStart[c + 1] <= i) c++;
      return { kind: 'constraint', index: c };
    }
    case 'n':
      return { kind: 'contact', index: i };
    case 'f':
      return { kind: 'contact', index: Math.floor(i / 2) };
  }
}

/**
 * One step of Axion's nonlinear formulation from `states` (q⁻, u⁻) with contacts detected at q⁻.
 * Returns the new states (Q renormalised; the input is not modified) and the step's report.
 * `warm.bilateral` optionally starts λ_b from forces (e.g. the previous step's `report.bilateral`).
 */
export function stepNonlinear(
  world: World,
  states: readonly BodyState[],
  contacts: readonly Contact[],
  settings: NonlinearSettings,
  dt: number,
  warm?: { bilateral?: ArrayLike<number> },
): { states: BodyState[]; report: NewtonReport } {
  const sys = new NonlinearSystem(world, states, contacts, settings, dt);
  const lb = warm?.bilateral ? Float64Array.from({ length: sys.mb }, (_, i) => (warm.bilateral![i] ?? 0) * dt) : undefined;
  const x = sys.initialGuess(lb);
  const res = newtonSolve(sys, x);
  // worst residual entry
  let wi = 0;
  for (let i = 1; i < res.h.length; i++) if (Math.abs(res.h[i]) > Math.abs(res.h[wi])) wi = i;
  const blk = sys.rowBlocks.find((b) => wi >= b.start && wi < b.start + b.size) ?? sys.rowBlocks[0];
  // states
  let quatDrift = 0;
  const bodyQuatDrift = new Float64Array(states.length);
  const out = states.map((s, i) => {
    const k = world.bodies[i].column < 0 ? -1 : world.bodies[i].column / 6;
    if (k < 0) return { p: [...s.p], q: [...s.q], v: [...s.v], w: [...s.w] } as BodyState;
    const o = 7 * k, u = sys.cu + 6 * k;
    const n = Math.hypot(x[o + 3], x[o + 4], x[o + 5], x[o + 6]);
    quatDrift = Math.max(quatDrift, Math.abs(n - 1));
    bodyQuatDrift[i] = n - 1;
    return {
      p: [x[o], x[o + 1], x[o + 2]],
      q: [x[o + 3] / n, x[o + 4] / n, x[o + 5] / n, x[o + 6] / n],
      v: [x[u], x[u + 1], x[u + 2]],
      w: [x[u + 3], x[u + 4], x[u + 5]],
    } as BodyState;
  });
  // contacts
  const nc = sys.nc;
  const impulses = new Float64Array(3 * nc);
  for (let c = 0; c < nc; c++) {
    impulses[3 * c] = x[sys.cln + c];
    impulses[3 * c + 1] = x[sys.clf + 2 * c];
    impulses[3 * c + 2] = x[sys.clf + 2 * c + 1];
  }
  const normals = Float64Array.from({ length: nc }, (_, c) => impulses[3 * c] / dt);
  const openBelow = openThreshold(normals);
  let complementarity = 0, maxPenetration = 0;
  const forces = sys.crs.map((cr, c) => {
    const gap = sys.gapAt(x, c);
    maxPenetration = Math.max(maxPenetration, -gap);
    const a = settings.contactLevel === 'position' ? gap : contactRowDot(cr, 0, x, sys.cu) + (settings.erp * cr.contact.gap) / dt;
    complementarity = Math.max(complementarity, Math.abs(Math.min(a, sys.betaN[c] * impulses[3 * c])));
    const slip = Math.hypot(contactRowDot(cr, 1, x, sys.cu), contactRowDot(cr, 2, x, sys.cu));
    return classifyContact(normals[c], impulses[3 * c + 1] / dt, impulses[3 * c + 2] / dt, cr.contact.friction, slip, openBelow);
  });
  const bilateral = Float64Array.from({ length: sys.mb }, (_, i) => x[sys.clb + i] / dt);
  const report: NewtonReport = {
    method: 'newton',
    iterations: res.iterations,
    converged: res.converged,
    residuals: res.residuals,
    blockResiduals: res.blockResiduals,
    blocks: res.blockResiduals[res.blockResiduals.length - 1],
    stepLengths: res.stepLengths,
    linearSolvers: res.linearSolvers,
    linearIterations: res.linearIterations,
    matrix: res.matrix,
    cond: res.cond,
    condSolver: res.condSolver,
    regularization: res.regD,
    rowBlocks: sys.rowBlocks,
    colBlocks: sys.colBlocks,
    worst: { block: blk.name, index: wi - blk.start, value: res.h.length ? Math.abs(res.h[wi]) : 0, owner: ownerOf(world, blk.name, wi - blk.start) },
    bilateral,
    contacts: forces,
    impulses,
    complementarity,
    maxPenetration,
    quatDrift,
    bodyQuatDrift,
  };
  return { states: out, report };
}
