// Assembly of the constrained system (AerisLab `assemble_system`), block-sparse:
// M⁻¹ as per-body 6×6 blocks (never a dense 6N×6N matrix), J in CSR with a pattern built
// once per world, and A = J·M⁻¹·Jᵀ accumulated block by block from the bodies rows share.
import { createConstraint, extraBodiesOf } from '../model';
import { type BodyModel, type BodyState, createBodyModel, initialState } from '../model/body';
import { type ConstraintEval, type ConstraintModel, type Pose } from '../model/constraint';
import { BALL_ROW_MASKS } from '../model/kinematics';
import { IDENTITY_MAT3, quatToMat3, quatToMat3Into, rotateTensorInto } from '../core/math';
import { assembleAValues, buildAPlan } from './aPairs';
import { addRun3, copyRow6, copyRow6Slots, rowSlotsOf } from './jProducts';
import type { AssemblyBuffers } from './assemblyBuffers';
import { cumsum } from '../core/offsets';
import type { CsrMatrix } from '../linalg/contracts';
import type { SceneSpec } from '../scene/spec';
import type { Mat3, Vec3 } from '../types';
import { tallOmissions } from './tallOmissions';
import type { Assembly, World } from './world';

export type { Assembly, World };

import { armatureInertia, drivenJoints, driveRowJoints, explicitActuators, JointForces } from '../model/forces';
import { buildTendons } from '../model/tendonForces';
import { Activations } from '../model/activation';
import { buildFluid } from '../model/fluid';

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
  // hinge armature as rotor inertia of the child, and the driven joints (model/forces.ts); the joints
  // whose damping and armature are a row of the velocity-level step keep their bodies' inertia
  const modelled = constraints.map((m) => m.spec);
  const rowJoints = driveRowJoints(scene);
  for (const [i, x] of armatureInertia(modelled, endA, endB, (i) => bodies[i].column >= 0, (i) => bodies[i].inertia, rowJoints)) Object.assign(bodies[i], x);
  const driven = drivenJoints(modelled, endA, endB, scene.actuators ?? [], (i) => (i < 0 ? WORLD_POSE : poseOf(states[i], true)), rowJoints);
  // actuators with activation dynamics read their activation by the run's step count (model/activation.ts)
  const activations = (scene.actuators ?? []).some((a) => a.activation) ? new Activations() : undefined;
  const tendons = buildTendons({ scene, bodyIndex, specs: modelled, endA, endB, pose0: (i) => (i < 0 ? WORLD_POSE : poseOf(states[i], true)) }, activations);
  const fluid = buildFluid(scene.fluid, scene.bodies);
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

  const jOffset = (c: number, e: number, r: number): number =>
    e === 0 ? jOffA[rowStart[c] + r] : e === 1 ? jOffB[rowStart[c] + r] : jOffX[c][r * endX[c].length + e - 2];
  // a constraint of the three ball rows only (their structural zeros: ConstraintModel.rowMasks)
  const ballTriple = (c: number): boolean => constraints[c].rows === 3 && endX[c].length === 0 && BALL_ROW_MASKS.every((m, r) => constraints[c].rowMasks?.[r] === m);
  const aPlan = buildAPlan({ rowStart, jColIdx, jRowPtr, touching, pairOffset, jOffset, ballTriple });

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
    evals: packedEvals(constraints, endX),
    jRowPtr,
    jColIdx,
    jOffA,
    jOffB,
    jOffX,
    aRowPtr,
    aColIdx,
    touching,
    pairOffset,
    aPlan,
    ...(aOmitted ? { aOmitted } : {}),
    ...(driven.length ? { forces: new JointForces(driven, scene.actuators ?? [], !explicitActuators(scene.requestedIntegrator), activations) } : {}),
    ...(activations ? { activations } : {}),
    ...(tendons ? { tendons } : {}),
    ...(fluid ? { fluid } : {}),
  };
}

/**
 * The per-constraint evaluation buffers (what `makeEval` gives each constraint) as views into one
 * array, constraint after constraint (C, JA, JB, J̇v, JX…): the assembly reads them in that order
 * each step, so they are read from consecutive memory instead of thousands of scattered small
 * arrays. Each view has its constraint's own length and is written only by that constraint.
 */
function packedEvals(constraints: readonly ConstraintModel[], endX: readonly Int32Array[]): ConstraintEval[] {
  let size = 0;
  for (let c = 0; c < constraints.length; c++) size += constraints[c].rows * (14 + 6 * endX[c].length);
  const buf = new Float64Array(size);
  let o = 0;
  const take = (n: number) => buf.subarray(o, (o += n));
  return constraints.map((m, c) => {
    const r = m.rows;
    return { C: take(r), JA: take(6 * r), JB: take(6 * r), Jdotv: take(r), JX: Array.from({ length: endX[c].length }, () => take(6 * r)) };
  });
}


export { type AssemblyBuffers, assemblyBuffers } from './assemblyBuffers';

/**
 * Assemble the system at the given body states (AerisLab `assemble_system`, block-sparse).
 * `evaluated`: the world's per-constraint buffers (`world.evals`) already hold every constraint's
 * evaluation at exactly these states (the caller evaluated them last, e.g. for the step record's
 * ‖C‖), so they are not evaluated again.
 * `into`: write the result into these buffers (`assemblyBuffers`) instead of fresh arrays — only for
 * a caller whose previous Assembly into them is no longer used (see AssemblyBuffers). Without it,
 * every call returns fresh arrays (the Assembly may be kept: snapshots, solve outputs).
 */
export function assemble(world: World, states: BodyState[], evaluated = false, into?: AssemblyBuffers): Assembly {
  const { bodies, constraints, nRows, nCols, rowStart, evals } = world;
  const g = world.scene.gravity;
  const nb = world.colBodies.length;
  const minvCompact = into ? into.minvCompact : new Float64Array(nb * 10);
  const F = into ? into.F : new Float64Array(nCols);
  const v = into ? into.v : new Float64Array(nCols);
  const poses: Pose[] = into ? into.poses : new Array(bodies.length);
  // with joint forces F is complete only after every pose is known: a₀ is then formed by the solve
  const later = world.forces || world.tendons?.forced || world.fluid;
  const a0 = later ? undefined : into?.a0, Ja0 = later ? undefined : into?.Ja0;
  // Σ|M⁻¹| and Σ|x| over F, C, Ċ, J̇v (AssemblyBuffers.absM, absRest), only into buffers
  let absM = 0, absRest = 0;

  for (let i = 0; i < bodies.length; i++) {
    const b = bodies[i];
    const s = states[i];
    if (b.column < 0) {
      if (into) {
        // v = ω = 0 for fixed bodies: the buffer's pose keeps its own zero vectors
        const pose = poses[i];
        pose.p = s.p;
        pose.q = s.q;
        quatToMat3Into(s.q, pose.R);
      } else poses[i] = poseOf(s, true);
      continue;
    }
    const w = s.w;
    let R: Mat3;
    if (into) {
      const pose = poses[i];
      R = pose.R;
      quatToMat3Into(s.q, R);
      pose.p = s.p;
      pose.q = s.q;
      pose.v = s.v;
      pose.w = w;
    } else {
      R = quatToMat3(s.q);
      poses[i] = { p: s.p, q: s.q, R, v: s.v, w };
    }
    const k = b.column / 6;
    // R·I_body⁻¹·Rᵀ
    rotateTensorInto(R, b.invInertia, minvCompact, k * 10 + 1);
    minvCompact[k * 10] = b.invMass;
    // F = [f + m·g, τ − ω×(I_world·ω)], with I_world·ω = R·(I_body·(Rᵀ·ω)) (no temporaries)
    const m = b.spec.mass;
    const gs = b.spec.gravity ? 1 - (b.spec.gravityCompensation ?? 0) : 0;
    const w0 = w[0], w1 = w[1], w2 = w[2];
    let gx = 0, gy = 0, gz = 0;
    if (w0 !== 0 || w1 !== 0 || w2 !== 0) {
      const I = b.inertia;
      const u0 = R[0] * w0 + R[3] * w1 + R[6] * w2;
      const u1 = R[1] * w0 + R[4] * w1 + R[7] * w2;
      const u2 = R[2] * w0 + R[5] * w1 + R[8] * w2;
      const n0 = I[0] * u0 + I[1] * u1 + I[2] * u2;
      const n1 = I[3] * u0 + I[4] * u1 + I[5] * u2;
      const n2 = I[6] * u0 + I[7] * u1 + I[8] * u2;
      const h0 = R[0] * n0 + R[1] * n1 + R[2] * n2;
      const h1 = R[3] * n0 + R[4] * n1 + R[5] * n2;
      const h2 = R[6] * n0 + R[7] * n1 + R[8] * n2;
      gx = w1 * h2 - w2 * h1;
      gy = w2 * h0 - w0 * h2;
      gz = w0 * h1 - w1 * h0;
    }
    const col = b.column;
    const f = b.spec.force, t = b.spec.torque;
    F[col] = f[0] + gs * m * g[0];
    F[col + 1] = f[1] + gs * m * g[1];
    F[col + 2] = f[2] + gs * m * g[2];
    F[col + 3] = t[0] - gx;
    F[col + 4] = t[1] - gy;
    F[col + 5] = t[2] - gz;
    if (into) {
      const mk = k * 10;
      absM += Math.abs(minvCompact[mk]) + Math.abs(minvCompact[mk + 1]) + Math.abs(minvCompact[mk + 2]) + Math.abs(minvCompact[mk + 3]) + Math.abs(minvCompact[mk + 4]);
      absM += Math.abs(minvCompact[mk + 5]) + Math.abs(minvCompact[mk + 6]) + Math.abs(minvCompact[mk + 7]) + Math.abs(minvCompact[mk + 8]) + Math.abs(minvCompact[mk + 9]);
      absRest += Math.abs(F[col]) + Math.abs(F[col + 1]) + Math.abs(F[col + 2]) + Math.abs(F[col + 3]) + Math.abs(F[col + 4]) + Math.abs(F[col + 5]);
    }
    if (a0) {
      // applyMinv's operations for this body (its F and M⁻¹ are complete)
      const invm = minvCompact[k * 10], mk = k * 10 + 1;
      a0[col] = F[col] * invm;
      a0[col + 1] = F[col + 1] * invm;
      a0[col + 2] = F[col + 2] * invm;
      const f3 = F[col + 3], f4 = F[col + 4], f5 = F[col + 5];
      a0[col + 3] = minvCompact[mk] * f3 + minvCompact[mk + 1] * f4 + minvCompact[mk + 2] * f5;
      a0[col + 4] = minvCompact[mk + 3] * f3 + minvCompact[mk + 4] * f4 + minvCompact[mk + 5] * f5;
      a0[col + 5] = minvCompact[mk + 6] * f3 + minvCompact[mk + 7] * f4 + minvCompact[mk + 8] * f5;
    }
    const sv = s.v;
    v[col] = sv[0];
    v[col + 1] = sv[1];
    v[col + 2] = sv[2];
    v[col + 3] = w0;
    v[col + 4] = w1;
    v[col + 5] = w2;
  }

  if (world.forces) {
    world.forces.apply(poses, WORLD_POSE, (i) => (i < 0 ? -1 : bodies[i].column), world.scene.solver.dt, F, minvCompact);
    absRest += world.forces.absF;
    absM += world.forces.absM;
  }
  if (world.fluid) {
    world.fluid.apply(poses, (i) => bodies[i].column, F);
    absRest += world.fluid.absF;
  }
  if (world.tendons?.forced) {
    world.tendons.apply((i) => (i < 0 ? WORLD_POSE : poses[i]), (i) => (i < 0 ? -1 : bodies[i].column), F);
    absRest += world.tendons.absF;
  }
  const Jvals = into ? into.Jvals : new Float64Array(world.jColIdx.length);
  const C = into ? into.C : new Float64Array(nRows);
  const Cdot = into ? into.Cdot : new Float64Array(nRows);
  const Jdotv = into ? into.Jdotv : new Float64Array(nRows);
  const { jOffA, jOffB, endA, endB } = world;
  const slots = rowSlotsOf(world);
  for (let c = 0; c < constraints.length; c++) {
    const ia = endA[c];
    const ib = endB[c];
    const pa = ia < 0 ? WORLD_POSE : poses[ia];
    const pb = ib < 0 ? WORLD_POSE : poses[ib];
    const ev = evals[c];
    const ex = world.endX[c];
    const nr = constraints[c].rows;
    if (!evaluated) constraints[c].evaluate(pa, pb, ev, ex.length ? extraPoses(ex, poses) : undefined);
    const r0 = rowStart[c];
    const evC = ev.C, evJdotv = ev.Jdotv, JA = ev.JA, JB = ev.JB;
    const colA = ia < 0 ? -1 : bodies[ia].column;
    const colB = ib < 0 ? -1 : bodies[ib].column;
    for (let r = 0; r < nr; r++) {
      const row = r0 + r;
      C[row] = evC[r];
      Jdotv[row] = evJdotv[r];
      let cd = 0;
      const oa = jOffA[row];
      const ob = jOffB[row];
      const o = r * 6;
      const s0 = slots[3 * row];
      if (s0 >= 0) {
        // Ċ over the row's possibly nonzero entries only (jProducts.ts: the same sum bit for bit); J gets all six
        const s1 = slots[3 * row + 1], s2 = slots[3 * row + 2];
        if (oa >= 0) cd = copyRow6Slots(JA, o, Jvals, oa, v, colA, cd, s0, s1, s2);
        if (ob >= 0) cd = copyRow6Slots(JB, o, Jvals, ob, v, colB, cd, s0, s1, s2);
        if (a0 && Ja0) {
          // J·a₀ of the row as jMulVec sums it: from +0, the row's blocks in column (= value offset) order
          let ja = 0;
          if (oa >= 0 && (ob < 0 || oa < ob)) {
            ja = addRun3(JA, o, a0, colA, ja, s0, s1, s2);
            if (ob >= 0) ja = addRun3(JB, o, a0, colB, ja, s0, s1, s2);
          } else if (ob >= 0) {
            ja = addRun3(JB, o, a0, colB, ja, s0, s1, s2);
            if (oa >= 0) ja = addRun3(JA, o, a0, colA, ja, s0, s1, s2);
          }
          Ja0[row] = ja;
        }
      } else {
        if (oa >= 0) cd = copyRow6(JA, o, Jvals, oa, v, colA, cd);
        if (ob >= 0) cd = copyRow6(JB, o, Jvals, ob, v, colB, cd);
      }
      for (let e = 0; e < ex.length; e++) {
        const ox = world.jOffX[c][r * ex.length + e];
        if (ox < 0) continue;
        const col = bodies[ex[e]].column;
        const JX = ev.JX[e];
        for (let j = 0; j < 6; j++) {
          Jvals[ox + j] = JX[o + j];
          cd += JX[o + j] * v[col + j];
        }
      }
      Cdot[row] = cd;
      absRest += Math.abs(C[row]) + Math.abs(Jdotv[row]) + Math.abs(cd);
    }
  }
  const Avals = assembleAValues(world.aPlan, world.aRowPtr, Jvals, minvCompact, into ? into.Avals : new Float64Array(world.aColIdx.length));
  if (into) {
    into.absJ = world.aPlan.absJ;
    into.absM = absM;
    into.absRest = absRest;
  }
  if (into?.assembly) return into.assembly;
  const J: CsrMatrix = { rows: nRows, cols: nCols, rowPtr: world.jRowPtr, colIdx: world.jColIdx, values: Jvals };
  const A: CsrMatrix = { rows: nRows, cols: nRows, rowPtr: world.aRowPtr, colIdx: world.aColIdx, values: Avals };
  const asm: Assembly = { minvCompact, F, v, J, A, C, Cdot, Jdotv, poses, ...(a0 && Ja0 ? { a0, Ja0 } : {}) };
  if (into) into.assembly = asm;
  return asm;
}

/** The poses of a constraint's extra ends (world pose for -1). */
export function extraPoses(ends: Int32Array, poses: readonly Pose[]): Pose[] {
  return Array.from(ends, (i) => (i < 0 ? WORLD_POSE : poses[i]));
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
