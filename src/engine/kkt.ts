// The KKT solve (AerisLab `solve_kkt`) and the velocity-level local dynamics (Solfec), per island.
import { applyMinv, type Assembly, type World } from './assemble';
import { norm2 } from './math';
import { csrMulVec, csrSubmatrix, csrTransposeMulVec } from './linalg/sparse';
import { SymmetricSolver } from './linalg/solve';
import type { CsrMatrix, DependentRow, SolveMethod, SymmetricSolveResult } from './linalg/types';
import type { SolverSettings } from './scene/types';
import { islandIsTall, solveTallIsland } from './tallIsland';

export interface Island {
  /** Column-owning body indices (scene order indices). */
  bodies: number[];
  /** Constraint indices (world order). */
  constraints: number[];
  /** Global row indices, ascending. */
  rows: Int32Array;
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
}

const islandCache = new WeakMap<World, Island[]>();

/** Connected components of the constraint graph over column-owning bodies (world and fixed bodies do not connect). */
export function islandsOf(world: World): Island[] {
  const cached = islandCache.get(world);
  if (cached) return cached;
  const nb = world.colBodies.length;
  const parent = Int32Array.from({ length: nb }, (_, i) => i);
  const find = (x: number): number => {
    while (parent[x] !== x) {
      parent[x] = parent[parent[x]];
      x = parent[x];
    }
    return x;
  };
  const colK = (i: number) => (i < 0 ? -1 : world.bodies[i].column / 6);
  for (let c = 0; c < world.constraints.length; c++) {
    const ends = [world.endA[c], world.endB[c], ...world.endX[c]].map(colK).filter((k) => k >= 0);
    for (let e = 1; e < ends.length; e++) {
      const ra = find(ends[0]), rb = find(ends[e]);
      if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
    }
  }
  const byRoot = new Map<number, Island>();
  const get = (k: number) => {
    const r = find(k);
    let isl = byRoot.get(r);
    if (!isl) {
      isl = { bodies: [], constraints: [], rows: new Int32Array(0) };
      byRoot.set(r, isl);
    }
    return isl;
  };
  for (let k = 0; k < nb; k++) get(k).bodies.push(world.colBodies[k]);
  const rowLists = new Map<Island, number[]>();
  for (let c = 0; c < world.constraints.length; c++) {
    const k = [world.endA[c], world.endB[c], ...world.endX[c]].map(colK).find((x) => x >= 0) ?? -1;
    if (k < 0) continue;
    const isl = get(k);
    isl.constraints.push(c);
    let list = rowLists.get(isl);
    if (!list) rowLists.set(isl, (list = []));
    for (let r = world.rowStart[c]; r < world.rowStart[c + 1]; r++) list.push(r);
  }
  const islands = [...byRoot.values()].sort((x, y) => x.bodies[0] - y.bodies[0]);
  for (const isl of islands) isl.rows = Int32Array.from((rowLists.get(isl) ?? []).sort((x, y) => x - y));
  islandCache.set(world, islands);
  return islands;
}

/** Per-world solver instances (they cache symbolic factorizations across steps). */
const solverCache = new WeakMap<World, SymmetricSolver[]>();

function stabilizedRhs(s: SolverSettings, asm: Assembly): Float64Array {
  const { C, Cdot, Jdotv } = asm;
  const rhs = new Float64Array(C.length);
  for (let i = 0; i < C.length; i++) {
    switch (s.stabilization) {
      case 'aerislab':
        rhs[i] = -(1 + s.beta) * Cdot[i] - s.alpha * C[i];
        break;
      case 'baumgarte':
        rhs[i] = -Jdotv[i] - s.beta * Cdot[i] - s.alpha * C[i];
        break;
      case 'none':
        rhs[i] = -Jdotv[i];
        break;
    }
  }
  return rhs;
}

const scaleCsr = (m: CsrMatrix, s: number): CsrMatrix => ({ ...m, values: m.values.map((x) => x * s) });

/** Solve the constrained system assembled in `asm` with the scene's settings. */
export function solveSystem(world: World, asm: Assembly, s: SolverSettings, opts: SolveOptions): SolveOutput {
  const { J, A, F, v, C } = asm;
  const n = world.nRows;
  const velocity = s.formulation === 'velocity';
  const h = s.dt;
  const a0 = applyMinv(world, asm.minvCompact, F);
  let rhs: Float64Array;
  let b: Float64Array;
  let K: CsrMatrix; // the matrix solved (without compliance)
  let B: Float64Array | undefined;
  if (velocity) {
    // Solfec local dynamics: U = B + W·R, W = h·J·M⁻¹·Jᵀ, B = J·(u + h·M⁻¹F); target U = −(erp/h)·C.
    const free = new Float64Array(v.length);
    for (let i = 0; i < v.length; i++) free[i] = v[i] + h * a0[i];
    B = csrMulVec(J, free);
    rhs = new Float64Array(n);
    for (let i = 0; i < n; i++) rhs[i] = -(s.erp / h) * C[i];
    b = new Float64Array(n);
    for (let i = 0; i < n; i++) b[i] = rhs[i] - B[i];
    K = scaleCsr(A, h);
  } else {
    rhs = stabilizedRhs(s, asm);
    const Ja0 = csrMulVec(J, a0);
    b = new Float64Array(n);
    for (let i = 0; i < n; i++) b[i] = rhs[i] - Ja0[i];
    K = A;
  }

  const islands = islandsOf(world);
  let solvers = solverCache.get(world);
  if (!solvers) solverCache.set(world, (solvers = islands.map(() => new SymmetricSolver())));
  const lambda = new Float64Array(n);
  const islandSolves: IslandSolve[] = [];
  const dependent: DependentRow[] = [];
  const methods = new Set<SolveMethod>();
  let rank = 0;
  let consistent: boolean | null = null;
  let condEstimated = false;
  let sigmaMax = 0;
  let sigmaMin = Infinity;
  let condMaxEst = 1;
  let condScaled = n > 0 ? 1 : NaN;
  let anySingular = false;
  const spectra: Float64Array[] = [];
  let tolerance = 0;
  const single = islands.length === 1 || islands.filter((i) => i.rows.length > 0).length === 1;
  for (let k = 0; k < islands.length; k++) {
    const isl = islands[k];
    if (isl.rows.length === 0) {
      islandSolves.push({ island: isl, result: undefined });
      continue;
    }
    const whole = single && isl.rows.length === n;
    const bi = whole ? b : Float64Array.from(isl.rows, (r) => b[r]);
    const tall = islandIsTall(isl);
    const res = tall
      ? solveTallIsland(world, asm, isl, velocity ? h : 1, bi, { compliance: s.compliance, wantSpectrum: opts.wantSpectrum, wantScaledCond: opts.wantScaledCond })
      : solvers[k].solve(whole ? K : csrSubmatrix(K, isl.rows, isl.rows), bi, {
      method: s.method,
      compliance: s.compliance,
      exactCondMaxRows: opts.exactCondMaxRows,
      wantSpectrum: opts.wantSpectrum,
      wantScaledCond: opts.wantScaledCond,
      skipAnalysis: opts.skipAnalysis,
    });
    islandSolves.push({ island: isl, result: res });
    for (let i = 0; i < isl.rows.length; i++) lambda[isl.rows[i]] = res.x[i];
    methods.add(res.method);
    rank += res.rank;
    for (const d of res.dependent)
      dependent.push({ row: isl.rows[d.row], dependsOn: d.dependsOn.map((x) => ({ row: isl.rows[x.row], coefficient: x.coefficient })) });
    if (res.dependent.length > 0 || !Number.isFinite(res.cond)) {
      anySingular = true;
      consistent = (consistent ?? true) && res.consistent;
    }
    condEstimated ||= res.condEstimated;
    if (!Number.isNaN(res.condScaled)) condScaled = Math.max(condScaled, res.condScaled);
    tolerance = Math.max(tolerance, res.tolerance);
    if (res.singularValues && res.singularValues.length > 0) {
      spectra.push(res.singularValues);
      sigmaMax = Math.max(sigmaMax, res.singularValues[0]);
      sigmaMin = Math.min(sigmaMin, res.singularValues[res.singularValues.length - 1]);
    }
    condMaxEst = Math.max(condMaxEst, res.cond);
  }
  let cond: number;
  if (n === 0) cond = NaN;
  else if (anySingular) cond = Infinity;
  else if (!condEstimated && spectra.length === islandSolves.filter((x) => x.result).length && spectra.length > 0)
    cond = sigmaMin > 0 ? sigmaMax / sigmaMin : Infinity;
  else cond = condMaxEst;
  let singularValues: Float64Array | undefined;
  if (spectra.length > 0 && !condEstimated) {
    singularValues = Float64Array.from(spectra.flatMap((x) => Array.from(x))).sort().reverse();
  }

  const constraintForce = csrTransposeMulVec(J, lambda);
  const corr = applyMinv(world, asm.minvCompact, constraintForce);
  const a = new Float64Array(a0.length);
  for (let i = 0; i < a.length; i++) a[i] = a0[i] + corr[i];
  const uPlus = new Float64Array(v.length);
  for (let i = 0; i < v.length; i++) uPlus[i] = v[i] + h * a[i];
  let residual: number;
  if (velocity) {
    // ‖J·u⁺ − rhs‖ with U = J·u⁺ = B + W·R
    const U = csrMulVec(J, uPlus);
    for (let i = 0; i < n; i++) U[i] -= rhs[i];
    residual = norm2(U);
  } else {
    const Ja = csrMulVec(J, a);
    for (let i = 0; i < n; i++) Ja[i] -= rhs[i];
    residual = norm2(Ja);
  }
  const method: SolveMethod | 'none' =
    methods.size === 0 ? 'none' : methods.has('lstsq') ? 'lstsq' : methods.has('lu') ? 'lu' : 'cholesky';
  dependent.sort((x, y) => x.row - y.row);
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
