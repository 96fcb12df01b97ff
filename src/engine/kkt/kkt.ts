// The KKT solve (AerisLab `solve_kkt`) and the velocity-level local dynamics (Solfec), per island.
import { applyMinv, type Assembly, type World } from '../assembly/assemble';
import { norm2 } from '../core/math';
import { csrSubmatrix } from '../linalg/sparse';
import { derivedOf, jMulVec, jRunsOf, jTransposeMulVec, rowSlotsOf } from '../assembly/jProducts';
import { SymmetricSolver } from '../linalg/solve';
import type { CsrMatrix, DependentRow, SolveMethod, SymmetricSolveResult } from '../linalg/contracts';
import type { SolverSettings } from '../scene/spec';
import { isMidpoint } from '../model/midpoint';
import { SMALL_MAX_ROWS, SmallSolver } from './smallSolve';
import { type Island, islandsOf } from './islands';
import { islandIsTall, solveTallIsland } from './tallIsland';
import { consistencyVerdict, independentKappa, rhsTermScale } from './consistency';

export { type Island, islandsOf };

// The world's derived cache (assembly/world.ts `WorldDerived`, one field on the world) also keeps the
// islands' solvers (and islands.ts the islands): declared where they are made, so the assembly layer
// below does not name the KKT solve's types.
declare module '../assembly/world' {
  interface WorldDerived {
    solvers?: WorldSolvers;
  }
}

export interface IslandSolve {
  island: Island;
  result: SymmetricSolveResult | undefined; // undefined: island without rows
}

export interface SolveOutput {
  rhs: Float64Array;
  a0: Float64Array;
  b: Float64Array;
  lambda: Float64Array;
  a: Float64Array;
  constraintForce: Float64Array;
  /** Velocity formulation: the new velocity u⁺; acceleration: v + a·dt (what the integrator uses). */
  uPlus: Float64Array;
  method: SolveMethod | 'none';
  cond: number;
  condScaled: number;
  condEstimated: boolean;
  /** Some island's exact spectrum hit the eigenvalue iteration's cap: its κ is the factorisation's estimate. */
  spectrumCapped: boolean;
  singularValues?: Float64Array;
  rankTolerance: number;
  rank: number;
  /** Dependent rows with global indices. */
  dependent: DependentRow[];
  consistent: boolean | null;
  residual: number;
  islands: IslandSolve[];
  /** Velocity formulation: W = h·J·M⁻¹·Jᵀ (no Σ), B, R. */
  W?: CsrMatrix;
  B?: Float64Array;
  R?: Float64Array;
}

export interface SolveOptions {
  exactCondMaxRows: number;
  wantSpectrum: boolean;
  /** κ of the Jacobi-scaled A (default true). */
  wantScaledCond?: boolean;
  skipAnalysis?: boolean;
  /** Cap of the exact spectrum's eigenvalue iteration (SolverOptions.eigenIterations; tests lower it). */
  eigenIterations?: number;
  /**
   * Let a whole-system island of up to SMALL_MAX_ROWS rows take the skyline path (smallSolve.ts: the
   * reference's results, bit for bit, with less overhead). Default true; false: always the reference
   * SymmetricSolver (the tests compare the two).
   */
  smallSystems?: boolean;
}


/**
 * Per world: its islands, one solver per island (they cache symbolic factorizations across steps),
 * and whether one island holds every row (then its right-hand side and λ need no per-island copies).
 */
export interface WorldSolvers {
  islands: Island[];
  solvers: SymmetricSolver[];
  /** Per island: its skyline solver (smallSolve.ts), null when its pattern does not qualify, undefined before the first look. */
  small: (SmallSolver | null | undefined)[];
  single: boolean;
  wholeRows: boolean;
}
/** Kept in `world.derived` (assembly/world.ts WorldDerived). */
function solversOf(world: World): WorldSolvers {
  const d = derivedOf(world);
  let ws = d.solvers;
  if (!ws) {
    const islands = islandsOf(world);
    let withRows = 0;
    for (const isl of islands) if (isl.rows.length > 0) withRows++;
    const single = islands.length === 1 || withRows === 1;
    ws = { islands, solvers: islands.map(() => new SymmetricSolver()), small: islands.map(() => undefined), single, wholeRows: single && islands.some((i) => i.rows.length === world.nRows) };
    d.solvers = ws;
  }
  return ws;
}

function stabilizedRhsInto(s: SolverSettings, asm: Assembly, rhs: Float64Array): void {
  const { C, Cdot, Jdotv } = asm;
  const n = C.length;
  const { alpha, beta } = s;
  switch (s.stabilization) {
    case 'aerislab':
      for (let i = 0; i < n; i++) rhs[i] = -(1 + beta) * Cdot[i] - alpha * C[i];
      break;
    case 'baumgarte':
      for (let i = 0; i < n; i++) rhs[i] = -Jdotv[i] - beta * Cdot[i] - alpha * C[i];
      break;
    case 'aerislab-oscillator':
      // AerisLab's assemble_system since its "standard Baumgarte" change: C̈ + 2α·Ċ + β²·C = 0
      for (let i = 0; i < n; i++) rhs[i] = -Jdotv[i] - 2 * alpha * Cdot[i] - beta * beta * C[i];
      break;
    case 'none':
      for (let i = 0; i < n; i++) rhs[i] = -Jdotv[i];
      break;
  }
}

const scaleCsr = (m: CsrMatrix, s: number): CsrMatrix => ({ ...m, values: m.values.map((x) => x * s) });

/**
 * Buffers a caller lends `solveSystem` for the vectors of its output (rhs, b, λ, a0, a, Jᵀλ, u⁺, the
 * scratch of the residual, and the x of a small island's solve in `islands`), so that a step allocates none of them. Only for a caller that is
 * done with the output before its next call with the same scratch: the output's arrays are
 * overwritten by that call. `Simulation.step` is the one such caller (see there why it is safe).
 */
export class SolveScratch {
  private readonly bufs: Float64Array<ArrayBuffer>[] = [];
  /**
   * Σ|x| over the last output's rhs, b, B, λ, a0, a and Jᵀλ, summed while they were computed: ≤ HUGE
   * (nonFinite.ts) means none of them is NaN, ±∞ or beyond ±HUGE (nonFinite.ts `checkSolve`'s `bound`).
   */
  finiteBound = NaN;
  /** Buffer `slot` of length n (contents undefined). */
  take(slot: number, n: number): Float64Array<ArrayBuffer> {
    let b = this.bufs[slot];
    if (!b || b.length !== n) this.bufs[slot] = b = new Float64Array(n);
    return b;
  }
}
/** Buffer `slot` of `scratch` (length n), or a fresh array without scratch. */
function takeOrNew(scratch: SolveScratch | undefined, slot: number, n: number): Float64Array<ArrayBuffer> {
  return scratch ? scratch.take(slot, n) : new Float64Array(n);
}
const S_RHS = 0, S_B = 1, S_LAMBDA = 2, S_A0 = 3, S_A = 4, S_FORCE = 5, S_UPLUS = 6, S_TMP_ROWS = 7, S_X = 8;

/**
 * Solve the constrained system assembled in `asm` with the scene's settings. With `scratch` the
 * output's vectors live in the scratch's buffers (see SolveScratch); without, every call returns
 * fresh arrays (snapshots and the divergence analysis keep them).
 */
export function solveSystem(world: World, asm: Assembly, s: SolverSettings, opts: SolveOptions, scratch?: SolveScratch): SolveOutput {
  const { J, A, F, v, C } = asm;
  const n = world.nRows;
  const nc = v.length;
  const velocity = s.formulation === 'velocity';
  const h = s.dt;
  // a₀ = M⁻¹F (and J·a₀ below) from the assembly when it formed them on the way (assemble.ts AssemblyBuffers):
  // the same numbers; like the scratch, those buffers belong to the stepping path and its next step
  const a0 = asm.a0 ?? applyMinv(world, asm.minvCompact, F, takeOrNew(scratch, S_A0, nc));
  const slots = rowSlotsOf(world);
  const runs = J.colIdx === world.jColIdx ? jRunsOf(world) : undefined; // else jMulVec looks J's pattern up
  const rhs = takeOrNew(scratch, S_RHS, n);
  const b = takeOrNew(scratch, S_B, n);
  // Σ|x| over rhs, b, B, λ, a0, a, Jᵀλ (SolveScratch.finiteBound): when it is ≤ HUGE none of them is
  // NaN, ±∞ or beyond ±HUGE, so nonFinite.ts `checkSolve` may skip their one-by-one search
  let sumAbs = 0;
  let K: CsrMatrix; // the matrix solved (without compliance)
  let B: Float64Array | undefined;
  if (velocity) {
    // Solfec local dynamics: U = B + W·R, W = h·J·M⁻¹·Jᵀ, B = J·(u + h·M⁻¹F); target U = −(erp/h)·C.
    const free = new Float64Array(nc);
    for (let i = 0; i < nc; i++) free[i] = v[i] + h * a0[i];
    B = jMulVec(J, free, undefined, slots, runs);
    // Midpoint (model/midpoint.ts): U = −(1 − erp)·V − (2·erp/h)·C(q^{t+h/2}) with V = H(q^{t+h/2})·u^t, so that
    // C(q^{t+h}) = C(q^{t+h/2}) + (h/2)·U = (1 − erp)·C(q^t) to first order. erp = 0 is Solfec's dynamic rule for a
    // fixed point (nts.c, FIXPNT: U = −V, the reaction does no work over the step), erp = 1 its rigid link's (RIGLNK:
    // the error gone at the end of the step, C(q^{t+h/2}) + (h/2)·U = 0)
    const V = isMidpoint(s) ? asm.Cdot : undefined;
    for (let i = 0; i < n; i++) {
      rhs[i] = V ? -(1 - s.erp) * V[i] - ((2 * s.erp) / h) * C[i] : -(s.erp / h) * C[i];
      b[i] = rhs[i] - B[i];
      sumAbs += Math.abs(rhs[i]) + Math.abs(b[i]) + Math.abs(B[i]);
    }
    K = scaleCsr(A, h);
  } else {
    stabilizedRhsInto(s, asm, rhs);
    const Ja0 = asm.Ja0 ?? jMulVec(J, a0, takeOrNew(scratch, S_TMP_ROWS, n), slots, runs);
    for (let i = 0; i < n; i++) {
      b[i] = rhs[i] - Ja0[i];
      sumAbs += Math.abs(rhs[i]) + Math.abs(b[i]);
    }
    K = A;
  }

  const ws = solversOf(world);
  const { islands, solvers, single, wholeRows } = ws;
  const lambda = takeOrNew(scratch, S_LAMBDA, n);
  const islandSolves: IslandSolve[] = [];
  const dependent: DependentRow[] = [];
  let hasLstsq = false;
  let hasLu = false;
  let solved = 0;
  let rank = 0;
  let consistent: boolean | null = null;
  let condEstimated = false;
  let spectrumCapped = false;
  let sigmaMax = 0;
  let sigmaMin = Infinity;
  let condMaxEst = 1;
  let condScaled = n > 0 ? 1 : NaN;
  let anySingular = false;
  const spectra: Float64Array[] = [];
  let tolerance = 0;
  // rows of constraints between the world and fixed bodies belong to no island: λ = 0 there
  if (scratch && !wholeRows) lambda.fill(0);
  for (let k = 0; k < islands.length; k++) {
    const isl = islands[k];
    if (isl.rows.length === 0) {
      islandSolves.push({ island: isl, result: undefined });
      continue;
    }
    const whole = single && isl.rows.length === n;
    const bi = whole ? b : Float64Array.from(isl.rows, (r) => b[r]);
    const tall = islandIsTall(isl);
    let res: SymmetricSolveResult | undefined;
    if (tall) res = solveTallIsland(world, asm, isl, velocity ? h : 1, bi, { compliance: s.compliance, wantSpectrum: opts.wantSpectrum, wantScaledCond: opts.wantScaledCond });
    else {
      const M = whole ? K : csrSubmatrix(K, isl.rows, isl.rows);
      const solveOpts = {
        method: s.method,
        compliance: s.compliance,
        exactCondMaxRows: opts.exactCondMaxRows,
        wantSpectrum: opts.wantSpectrum,
        wantScaledCond: opts.wantScaledCond,
        skipAnalysis: opts.skipAnalysis,
        eigenIterations: opts.eigenIterations,
      };
      // a whole-system island with few rows: the skyline path (smallSolve.ts), the reference when it declines.
      // Its x is the scratch's S_X buffer when lent: read into λ below, and kept only in this output.
      if (whole && n <= SMALL_MAX_ROWS && opts.smallSystems !== false) {
        let small = ws.small[k];
        if (small === undefined) ws.small[k] = small = SmallSolver.of(M);
        res = small?.solve(M, bi, solveOpts, scratch ? scratch.take(S_X, n) : undefined);
      }
      res ??= solvers[k].solve(M, bi, solveOpts);
    }
    islandSolves.push({ island: isl, result: res });
    solved++;
    const x = res.x;
    if (whole) lambda.set(x.length === n ? x : x.subarray(0, n));
    else for (let i = 0; i < isl.rows.length; i++) lambda[isl.rows[i]] = x[i];
    if (res.method === 'lstsq') hasLstsq = true;
    else if (res.method === 'lu') hasLu = true;
    rank += res.rank;
    for (const d of res.dependent)
      dependent.push({ row: isl.rows[d.row], dependsOn: d.dependsOn.map((y) => ({ row: isl.rows[y.row], coefficient: y.coefficient })) });
    if (res.dependent.length > 0 || !Number.isFinite(res.cond)) {
      anySingular = true;
      consistent = (consistent ?? true) && res.consistent;
    }
    condEstimated ||= res.condEstimated;
    spectrumCapped ||= res.spectrumCapped === true;
    if (!Number.isNaN(res.condScaled)) condScaled = Math.max(condScaled, res.condScaled);
    tolerance = Math.max(tolerance, res.tolerance);
    if (res.singularValues && res.singularValues.length > 0) {
      spectra.push(res.singularValues);
      sigmaMax = Math.max(sigmaMax, res.singularValues[0]);
      sigmaMin = Math.min(sigmaMin, res.singularValues[res.singularValues.length - 1]);
    }
    condMaxEst = Math.max(condMaxEst, res.cond);
  }
  for (let i = 0; i < n; i++) sumAbs += Math.abs(lambda[i]);
  let cond: number;
  if (n === 0) cond = NaN;
  else if (anySingular) cond = Infinity;
  else if (!condEstimated && spectra.length === solved && spectra.length > 0)
    cond = sigmaMin > 0 ? sigmaMax / sigmaMin : Infinity;
  else cond = condMaxEst;
  let singularValues: Float64Array | undefined;
  if (spectra.length > 0 && !condEstimated) {
    singularValues = (spectra.length === 1 ? Float64Array.from(spectra[0]) : Float64Array.from(spectra.flatMap((x) => Array.from(x)))).sort().reverse();
  }

  // Redundant rows found "conflicting" by the islands' relative test: conflicting only beyond what
  // round-off in forming b (and κ) can explain (kkt/consistency.ts).
  if (consistent === false && s.compliance === 0 && !opts.skipAnalysis) {
    const formedFrom = velocity ? B : (asm.Ja0 ?? jMulVec(J, a0, undefined, slots, runs));
    consistent = consistencyVerdict({ K, lambda, b, terms: rhsTermScale(s, asm, velocity, rhs, formedFrom), kappa: independentKappa(singularValues, rank) }).consistent;
  }
  const constraintForce = jTransposeMulVec(J, lambda, takeOrNew(scratch, S_FORCE, nc), slots, runs);
  // a = a0 + M⁻¹·Jᵀλ, u⁺ = v + a·h (the correction M⁻¹·Jᵀλ goes through `a`'s buffer)
  const a = applyMinv(world, asm.minvCompact, constraintForce, takeOrNew(scratch, S_A, nc));
  const uPlus = takeOrNew(scratch, S_UPLUS, nc);
  for (let i = 0; i < nc; i++) {
    const ai = a0[i] + a[i];
    a[i] = ai;
    uPlus[i] = v[i] + h * ai;
    sumAbs += Math.abs(a0[i]) + Math.abs(ai) + Math.abs(constraintForce[i]);
  }
  // ‖J·u⁺ − rhs‖ (velocity: U = J·u⁺ = B + W·R) or ‖J·a − rhs‖
  const U = jMulVec(J, velocity ? uPlus : a, scratch ? scratch.take(S_TMP_ROWS, n) : undefined, slots, runs);
  for (let i = 0; i < n; i++) U[i] -= rhs[i];
  const residual = norm2(U);
  if (scratch) scratch.finiteBound = sumAbs;
  const method: SolveMethod | 'none' = solved === 0 ? 'none' : hasLstsq ? 'lstsq' : hasLu ? 'lu' : 'cholesky';
  if (dependent.length > 1) dependent.sort((x, y) => x.row - y.row);
  return {
    rhs,
    a0,
    b,
    lambda,
    a,
    constraintForce,
    uPlus,
    method,
    cond,
    condScaled: n === 0 ? NaN : anySingular && !Number.isFinite(condScaled) ? Infinity : condScaled,
    condEstimated,
    spectrumCapped,
    singularValues,
    rankTolerance: tolerance,
    rank,
    dependent,
    consistent,
    residual,
    islands: islandSolves,
    // the Delassus operator h·J·M⁻¹·Jᵀ exactly as Solfec defines it; Σ is reported beside it (snapshot.compliance)
    W: velocity ? K : undefined,
    B,
    R: velocity ? lambda : undefined,
  };
}
