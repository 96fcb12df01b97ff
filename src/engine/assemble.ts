// Assembly of the constrained system (AerisLab `assemble_system`), block-sparse:
// M⁻¹ as per-body 6×6 blocks (never a dense 6N×6N matrix), J in CSR with a pattern built
// once per world, and A = J·M⁻¹·Jᵀ accumulated block by block from the bodies rows share.
import { createConstraint, extraBodiesOf } from './model';
import { type BodyModel, type BodyState, createBodyModel, initialState } from './model/body';
import { type ConstraintEval, type ConstraintModel, makeEval, type Pose } from './model/constraint';
import { cross, IDENTITY_MAT3, mat3MulVec, mat3TMulVec, quatToMat3, rotateTensorInto } from './math';
import { cumsum } from './offsets';
import type { CsrMatrix } from './linalg/types';
import type { SceneSpec } from './scene/types';
import type { Vec3 } from './types';
import { type OmittedA, tallOmissions } from './tallIsland';

/** The static structure of a scene: bodies, constraints, column/row layout, sparsity patterns. */
export interface World {
  scene: SceneSpec;
  bodies: BodyModel[];
  bodyIndex: Map<string, number>;
  /** Body indices owning columns, in column order (column = 6·k). */
  colBodies: number[];
  constraints: ConstraintModel[];
  /** Body index of end A and B per constraint (-1 = world). */
  endA: Int32Array;
  endB: Int32Array;
  /** Body indices of each constraint's `extraBodies` (coupler only; empty otherwise). */
  endX: Int32Array[];
  /** First row of each constraint; rowStart[nc] = nRows. */
  rowStart: Int32Array;
  nCols: number;
  nRows: number;
  /** Per-constraint evaluation buffers (reused every assembly). */
  evals: ConstraintEval[];
  /** J's pattern (rowPtr/colIdx shared by every assembled J) and the value offsets of each row's A/B blocks. */
  jRowPtr: Int32Array;
  jColIdx: Int32Array;
  jOffA: Int32Array; // per row: value offset of end A's 6 entries, -1 if A owns no columns
  jOffB: Int32Array;
  /** Per constraint with extra ends: value offsets of each row's extra-end blocks, rows × extras, -1 if none. */
  jOffX: Int32Array[];
  /** A's pattern and, per body, the constraints touching it with the value offsets of each pair's block. */
  aRowPtr: Int32Array;
  aColIdx: Int32Array;
  /** For each column-owning body (column order): list of [constraint, end(0=A, 1=B, 2+k = extra end k)] whose rows are in A. */
  touching: Array<Array<[number, number]>>;
  /** Set when the rows of tall islands are left out of A (their rows of A are empty): tallIsland.ts `tallOmissions`. */
  aOmitted?: OmittedA;
  /** For each column-owning body: offsets (within the A row) of block (ci, cj) for every pair, row-major over touching². */
  pairOffset: Int32Array[];
  /** Rows of A that belong to each constraint pair are contiguous; offset of row r of c = aRowPtr[rowStart[c]+r] + pairOffset. */
}

export const WORLD_POSE: Pose = { p: [0, 0, 0], q: [0, 0, 0, 1], R: IDENTITY_MAT3, v: [0, 0, 0], w: [0, 0, 0] };

export function poseOf(state: BodyState, fixed: boolean): Pose {
  return {
    p: state.p,
    q: state.q,
    R: quatToMat3(state.q),
    v: fixed ? [0, 0, 0] : state.v,
    w: fixed ? [0, 0, 0] : state.w,
  };
}

/** Build the world (models, layout, patterns) from a validated scene. Constraint references come from the initial state. */
export function buildWorld(scene: SceneSpec): World {
  const bodies: BodyModel[] = [];
  const bodyIndex = new Map<string, number>();
  const colBodies: number[] = [];
  for (const spec of scene.bodies) {
    const column = spec.fixed ? -1 : colBodies.length * 6;
    if (!spec.fixed) colBodies.push(bodies.length);
    bodyIndex.set(spec.name, bodies.length);
    bodies.push(createBodyModel(spec, column));
  }
  const states = scene.bodies.map(initialState);
  const constraints: ConstraintModel[] = [];
  const endA: number[] = [];
  const endB: number[] = [];
  const endX: Int32Array[] = [];
  for (const spec of scene.constraints) {
    const ia = spec.bodyA === 'world' ? -1 : (bodyIndex.get(spec.bodyA) ?? -2);
    const ib = spec.bodyB === 'world' ? -1 : (bodyIndex.get(spec.bodyB) ?? -2);
    const ix = extraBodiesOf(spec).map((n) => bodyIndex.get(n) ?? -2);
    if (ia === -2 || ib === -2 || ix.includes(-2)) continue; // the parser reports these; never model them
    const pa = ia < 0 ? WORLD_POSE : poseOf(states[ia], true);
    const pb = ib < 0 ? WORLD_POSE : poseOf(states[ib], true);
    constraints.push(createConstraint(spec, pa, pb, ix.map((i) => poseOf(states[i], true))));
    endA.push(ia);
    endB.push(ib);
    endX.push(Int32Array.from(ix));
  }
  const nc = constraints.length;
  const rowStart = new Int32Array(nc + 1);
  for (let c = 0; c < nc; c++) rowStart[c + 1] = constraints[c].rows;
  const nRows = cumsum(rowStart);
  const nCols = colBodies.length * 6;
  const colOf = (i: number) => (i < 0 ? -1 : bodies[i].column);

  // J pattern: per row, the 6 columns of every end that owns columns (A, B, extra ends), sorted.
  const endsOf = (c: number): number[] => [endA[c], endB[c], ...endX[c]];
  const jRowPtr = new Int32Array(nRows + 1);
  const jOffA = new Int32Array(nRows).fill(-1);
  const jOffB = new Int32Array(nRows).fill(-1);
  const jOffX = endX.map((x, c) => new Int32Array(x.length * constraints[c].rows).fill(-1));
  for (let c = 0; c < nc; c++) {
    const per = 6 * endsOf(c).filter((i) => colOf(i) >= 0).length;
    for (let r = rowStart[c]; r < rowStart[c + 1]; r++) jRowPtr[r + 1] = per;
  }
  cumsum(jRowPtr);
  const jColIdx = new Int32Array(jRowPtr[nRows]);
  for (let c = 0; c < nc; c++) {
    const owned = endsOf(c)
      .map((i, e) => ({ e, col: colOf(i) }))
      .filter((x) => x.col >= 0)
      .sort((x, y) => x.col - y.col);
    const nx = endX[c].length;
    for (let r = rowStart[c]; r < rowStart[c + 1]; r++) {
      let k = jRowPtr[r];
      for (const { e, col } of owned) {
        const off = k;
        for (let j = 0; j < 6; j++) jColIdx[k++] = col + j;
        if (e === 0) jOffA[r] = off;
        else if (e === 1) jOffB[r] = off;
        else jOffX[c][(r - rowStart[c]) * nx + e - 2] = off;
      }
    }
  }

  // Tall islands too large to form their block of A densely are left out of it (solved through J, kkt.ts).
  // Constraints with more than two ends (couplers) join islands tallOmissions does not see: then none is left out.
  const blockOf = (e: number[]) => Int32Array.from(e, (i) => (colOf(i) >= 0 ? colOf(i) / 6 : -1));
  const { skip, omitted: aOmitted } = endX.some((x) => x.length > 0) ? { skip: new Uint8Array(nc), omitted: undefined } : tallOmissions(colBodies.length, blockOf(endA), blockOf(endB), constraints.map((c) => c.rows));
  // Which constraints (with rows in A) touch each column-owning body.
  const touching: Array<Array<[number, number]>> = colBodies.map(() => []);
  for (let c = 0; c < nc; c++) {
    if (skip[c]) continue;
    endsOf(c).forEach((i, e) => {
      const col = colOf(i);
      if (col >= 0) touching[col / 6].push([c, e]);
    });
  }
  // A pattern: row block of c has the row blocks of every constraint sharing a body with c, sorted.
  const neighbours: number[][] = constraints.map(() => []);
  for (const t of touching) for (const [ci] of t) for (const [cj] of t) neighbours[ci].push(cj);
  const nbOffset: Array<Map<number, number>> = [];
  const aRowPtr = new Int32Array(nRows + 1);
  for (let c = 0; c < nc; c++) {
    const nb = Array.from(new Set(neighbours[c])).sort((x, y) => x - y);
    neighbours[c] = nb;
    const m = new Map<number, number>();
    let off = 0;
    for (const n of nb) {
      m.set(n, off);
      off += constraints[n].rows;
    }
    nbOffset.push(m);
    for (let r = rowStart[c]; r < rowStart[c + 1]; r++) aRowPtr[r + 1] = off;
  }
  cumsum(aRowPtr);
  const aColIdx = new Int32Array(aRowPtr[nRows]);
  for (let c = 0; c < nc; c++) {
    for (let r = rowStart[c]; r < rowStart[c + 1]; r++) {
      let k = aRowPtr[r];
      for (const n of neighbours[c]) for (let j = rowStart[n]; j < rowStart[n + 1]; j++) aColIdx[k++] = j;
    }
  }
  const pairOffset = touching.map((t) => {
    const po = new Int32Array(t.length * t.length);
    for (let i = 0; i < t.length; i++) for (let j = 0; j < t.length; j++) po[i * t.length + j] = nbOffset[t[i][0]].get(t[j][0])!;
    return po;
  });

  return {
    scene,
    bodies,
    bodyIndex,
    colBodies,
    constraints,
    endA: Int32Array.from(endA),
    endB: Int32Array.from(endB),
    endX,
    rowStart,
    nCols,
    nRows,
    evals: constraints.map((c, i) => makeEval(c.rows, endX[i].length)),
    jRowPtr,
    jColIdx,
    jOffA,
    jOffB,
    jOffX,
    aRowPtr,
    aColIdx,
    touching,
    pairOffset,
    ...(aOmitted ? { aOmitted } : {}),
  };
}

/** Everything `assemble_system` produces, plus what the analysis needs. */
export interface Assembly {
  /** Per column-owning body, 1/m and the world inverse inertia (row-major 3×3): 10 numbers each. */
  minvCompact: Float64Array;
  F: Float64Array;
  v: Float64Array;
  J: CsrMatrix;
  /** A = J·M⁻¹·Jᵀ (no compliance), full symmetric storage. */
  A: CsrMatrix;
  C: Float64Array;
  Cdot: Float64Array;
  Jdotv: Float64Array;
  /** Poses of every body (scene order), for constraint forces and drawing. */
  poses: Pose[];
}

/**
 * Assemble the system at the given body states (AerisLab `assemble_system`, block-sparse).
 * `evaluated`: the world's per-constraint buffers (`world.evals`) already hold every constraint's
 * evaluation at exactly these states (the caller evaluated them last, e.g. for the step record's
 * ‖C‖), so they are not evaluated again.
 */
export function assemble(world: World, states: BodyState[], evaluated = false): Assembly {
  const { bodies, colBodies, constraints, nRows, nCols, rowStart, evals } = world;
  const g = world.scene.gravity;
  const nb = colBodies.length;
  const minvCompact = new Float64Array(nb * 10);
  const F = new Float64Array(nCols);
  const v = new Float64Array(nCols);
  const poses: Pose[] = new Array(bodies.length);

  for (let i = 0; i < bodies.length; i++) {
    const b = bodies[i];
    const s = states[i];
    if (b.column < 0) {
      poses[i] = poseOf(s, true);
      continue;
    }
    const R = quatToMat3(s.q);
    poses[i] = { p: s.p, q: s.q, R, v: s.v, w: s.w };
    const k = b.column / 6;
    // R·I_body⁻¹·Rᵀ
    rotateTensorInto(R, b.invInertia, minvCompact, k * 10 + 1);
    minvCompact[k * 10] = b.invMass;
    // F = [f + m·g, τ − ω×(I_world·ω)], with I_world·ω = R·(I_body·(Rᵀ·ω))
    const m = b.spec.mass;
    const gs = b.spec.gravity ? 1 : 0;
    const w = s.w;
    const [gx, gy, gz] = w[0] !== 0 || w[1] !== 0 || w[2] !== 0 ? cross(w, mat3MulVec(R, mat3MulVec(b.inertia, mat3TMulVec(R, w)))) : [0, 0, 0];
    const col = b.column;
    const f = b.spec.force, t = b.spec.torque;
    F[col] = f[0] + gs * m * g[0];
    F[col + 1] = f[1] + gs * m * g[1];
    F[col + 2] = f[2] + gs * m * g[2];
    F[col + 3] = t[0] - gx;
    F[col + 4] = t[1] - gy;
    F[col + 5] = t[2] - gz;
    for (let d = 0; d < 3; d++) {
      v[col + d] = s.v[d];
      v[col + 3 + d] = w[d];
    }
  }

  const Jvals = new Float64Array(world.jColIdx.length);
  const C = new Float64Array(nRows);
  const Cdot = new Float64Array(nRows);
  const Jdotv = new Float64Array(nRows);
  for (let c = 0; c < constraints.length; c++) {
    const ia = world.endA[c];
    const ib = world.endB[c];
    const pa = ia < 0 ? WORLD_POSE : poses[ia];
    const pb = ib < 0 ? WORLD_POSE : poses[ib];
    const ev = evals[c];
    const ex = world.endX[c];
    if (!evaluated) constraints[c].evaluate(pa, pb, ev, ex.length ? extraPoses(ex, poses) : undefined);
    const r0 = rowStart[c];
    for (let r = 0; r < constraints[c].rows; r++) {
      const row = r0 + r;
      C[row] = ev.C[r];
      Jdotv[row] = ev.Jdotv[r];
      let cd = 0;
      const oa = world.jOffA[row];
      const ob = world.jOffB[row];
      if (oa >= 0) {
        const col = bodies[ia].column;
        for (let j = 0; j < 6; j++) {
          Jvals[oa + j] = ev.JA[r * 6 + j];
          cd += ev.JA[r * 6 + j] * v[col + j];
        }
      }
      if (ob >= 0) {
        const col = bodies[ib].column;
        for (let j = 0; j < 6; j++) {
          Jvals[ob + j] = ev.JB[r * 6 + j];
          cd += ev.JB[r * 6 + j] * v[col + j];
        }
      }
      for (let e = 0; e < ex.length; e++) {
        const ox = world.jOffX[c][r * ex.length + e];
        if (ox < 0) continue;
        const col = bodies[ex[e]].column;
        const JX = ev.JX[e];
        for (let j = 0; j < 6; j++) {
          Jvals[ox + j] = JX[r * 6 + j];
          cd += JX[r * 6 + j] * v[col + j];
        }
      }
      Cdot[row] = cd;
    }
  }
  const J: CsrMatrix = { rows: nRows, cols: nCols, rowPtr: world.jRowPtr, colIdx: world.jColIdx, values: Jvals };
  const A = assembleA(world, minvCompact);
  return { minvCompact, F, v, J, A, C, Cdot, Jdotv, poses };
}

/** The poses of a constraint's extra ends (world pose for -1). */
export function extraPoses(ends: Int32Array, poses: readonly Pose[]): Pose[] {
  return Array.from(ends, (i) => (i < 0 ? WORLD_POSE : poses[i]));
}

/** The Jacobian block of end `e` (0 = A, 1 = B, 2+k = extra end k). */
const blockOf = (ev: ConstraintEval, e: number): Float64Array => (e === 0 ? ev.JA : e === 1 ? ev.JB : ev.JX[e - 2]);

/** A = J·M⁻¹·Jᵀ block by block: for each body, every pair of constraints touching it adds J_ib·M⁻¹_b·J_jbᵀ. */
function assembleA(world: World, minvCompact: Float64Array): CsrMatrix {
  const { touching, pairOffset, rowStart, constraints, evals, aRowPtr } = world;
  const values = new Float64Array(world.aColIdx.length);
  const G = new Float64Array(36 * 6); // rows ≤ 6 per constraint, 6 columns
  for (let k = 0; k < touching.length; k++) {
    const t = touching[k];
    const m0 = k * 10;
    const invm = minvCompact[m0];
    // world inverse inertia of body k, row-major (read once; no subarray views on the hot path)
    const i0 = minvCompact[m0 + 1], i1 = minvCompact[m0 + 2], i2 = minvCompact[m0 + 3];
    const i3 = minvCompact[m0 + 4], i4 = minvCompact[m0 + 5], i5 = minvCompact[m0 + 6];
    const i6 = minvCompact[m0 + 7], i7 = minvCompact[m0 + 8], i8 = minvCompact[m0 + 9];
    for (let i = 0; i < t.length; i++) {
      const [ci, ei] = t[i];
      const Ji = blockOf(evals[ci], ei);
      const ri = constraints[ci].rows;
      // G = J_i,b · M⁻¹_b
      for (let r = 0; r < ri; r++) {
        const o = r * 6;
        G[o] = Ji[o] * invm;
        G[o + 1] = Ji[o + 1] * invm;
        G[o + 2] = Ji[o + 2] * invm;
        const a0 = Ji[o + 3], a1 = Ji[o + 4], a2 = Ji[o + 5];
        G[o + 3] = a0 * i0 + a1 * i3 + a2 * i6;
        G[o + 4] = a0 * i1 + a1 * i4 + a2 * i7;
        G[o + 5] = a0 * i2 + a1 * i5 + a2 * i8;
      }
      for (let j = 0; j < t.length; j++) {
        const [cj, ej] = t[j];
        const Jj = blockOf(evals[cj], ej);
        const rj = constraints[cj].rows;
        const po = pairOffset[k][i * t.length + j];
        for (let r = 0; r < ri; r++) {
          const base = aRowPtr[rowStart[ci] + r] + po;
          const o = r * 6;
          for (let s = 0; s < rj; s++) {
            const q = s * 6;
            values[base + s] +=
              G[o] * Jj[q] + G[o + 1] * Jj[q + 1] + G[o + 2] * Jj[q + 2] + G[o + 3] * Jj[q + 3] + G[o + 4] * Jj[q + 4] + G[o + 5] * Jj[q + 5];
          }
        }
      }
    }
  }
  return { rows: world.nRows, cols: world.nRows, rowPtr: aRowPtr, colIdx: world.aColIdx, values };
}

/** M⁻¹ as per-body 6×6 blocks (row-major, 36 numbers each) from the compact form, for display. */
export function minvBlocks(minvCompact: Float64Array): Float64Array {
  const nb = minvCompact.length / 10;
  const out = new Float64Array(nb * 36);
  for (let k = 0; k < nb; k++) {
    const blk = k * 36;
    for (let d = 0; d < 3; d++) out[blk + d * 7] = minvCompact[k * 10];
    for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) out[blk + (3 + r) * 6 + 3 + c] = minvCompact[k * 10 + 1 + r * 3 + c];
  }
  return out;
}

/** out = M⁻¹·x using the compact per-body blocks. */
export function applyMinv(world: World, minvCompact: Float64Array, x: Float64Array, out = new Float64Array(x.length)): Float64Array {
  for (let k = 0; k < world.colBodies.length; k++) {
    const o = k * 6;
    const invm = minvCompact[k * 10];
    const m = k * 10 + 1;
    out[o] = x[o] * invm;
    out[o + 1] = x[o + 1] * invm;
    out[o + 2] = x[o + 2] * invm;
    const a = x[o + 3], b = x[o + 4], c = x[o + 5];
    out[o + 3] = minvCompact[m] * a + minvCompact[m + 1] * b + minvCompact[m + 2] * c;
    out[o + 4] = minvCompact[m + 3] * a + minvCompact[m + 4] * b + minvCompact[m + 5] * c;
    out[o + 5] = minvCompact[m + 6] * a + minvCompact[m + 7] * b + minvCompact[m + 8] * c;
  }
  return out;
}

export type { Vec3 };
