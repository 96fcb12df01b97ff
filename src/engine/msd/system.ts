// One step of msd-sim's Lagrange framework as a system of the seam (system/contract.ts): 7 columns
// per body named x … qz, the unit-quaternion rows named like any constraint, M⁻¹ as msd-sim builds
// it (a general matrix for the views, as MuJoCo's and a trace's), msd-sim's λ and b. The seam's
// analysis then gives κ, rank, redundancy and the views exactly as for every other producer.
import { analyseSystem } from '../system/analyse';
import type { ConstrainedSystem } from '../system/contract';
import { snapshotOfSystem } from '../system/snapshot';
import { denseToCsr } from '../trace/source';
import type { ConstraintReport, SystemSnapshot } from '../result';
import type { Vec3 } from '../types';
import { quatToMat3 } from '../core/math';
import { MSD_COLS } from './constraints';
import type { MsdModel } from './model';
import { msdSolve, type MsdBodyInput, type MsdSolve } from './solver';
import { angularVelocity, bodyQuat, inverseInertiaWorld, type MsdState } from './state';

export const MSD_PRODUCER = { kind: 'engine' as const, name: 'msd-sim', method: 'llt' };

/** The per-body inputs of ConstraintSolver::solve at this state (the world-frame inverse inertia). */
export function msdBodyInputs(model: MsdModel, s: MsdState): MsdBodyInput[] {
  return model.bodies.map((b, i) => ({ mass: b.mass, invInertia: inverseInertiaWorld(b.invInertiaBody, bodyQuat(s, i)), force: b.force, torque: b.torque }));
}

/** The block-diagonal M⁻¹ (n × n) of msd-sim's 7×7 blocks. */
function massMatrix(sol: MsdSolve, bodies: number): Float64Array {
  const n = sol.n, out = new Float64Array(n * n);
  for (let k = 0; k < bodies; k++)
    for (let r = 0; r < MSD_COLS; r++)
      for (let c = 0; c < MSD_COLS; c++) out[(MSD_COLS * k + r) * n + MSD_COLS * k + c] = sol.MinvBlocks[k * 49 + r * MSD_COLS + c];
  return out;
}

/** The λ msd-sim applied: its own, or none (zeros) when the LLT failed. */
export const appliedLambda = (sol: MsdSolve): Float64Array => (sol.converged ? sol.lambda : new Float64Array(sol.m));

/** The step's system for the seam. */
export function msdSystem(model: MsdModel, sol: MsdSolve, step: number, t: number): ConstrainedSystem {
  return {
    producer: MSD_PRODUCER,
    step,
    t,
    dofLabels: model.dofLabels,
    rows: model.rows.map((r) => ({ constraint: r.constraint, type: r.type, row: 0, label: r.label })),
    J: denseToCsr(sol.m, sol.n, sol.J),
    mass: { kind: 'Minv', matrix: denseToCsr(sol.n, sol.n, massMatrix(sol, model.bodies.length)) },
    lambda: appliedLambda(sol),
    b: sol.b,
    C: sol.C,
  };
}

/** The energy of the free bodies: ½m|Ẋ|² + ½ωᵀ·I_world·ω, and −m·g·X for bodies under gravity. */
export function msdEnergy(model: MsdModel, s: MsdState, gravity: Vec3): { kinetic: number; potential: number; total: number } {
  let kinetic = 0, potential = 0;
  model.bodies.forEach((b, i) => {
    const w = angularVelocity(s, i);
    const I = b.spec.inertia;
    // ω in the body frame, Rᵀ·ω, against the body-frame inertia
    const R = quatToMat3(bodyQuat(s, i));
    const wb = [0, 1, 2].map((k) => R[k] * w[0] + R[3 + k] * w[1] + R[6 + k] * w[2]);
    let rot = 0;
    for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) rot += wb[r] * I[3 * r + c] * wb[c];
    let v2 = 0;
    for (let k = 0; k < 3; k++) v2 += s.V[3 * i + k] ** 2;
    kinetic += 0.5 * b.mass * v2 + 0.5 * rot;
    if (b.spec.gravity) {
      const gs = 1 - (b.spec.gravityCompensation ?? 0);
      for (let k = 0; k < 3; k++) potential -= b.mass * gs * gravity[k] * s.X[3 * i + k];
    }
  });
  return { kinetic, potential, total: kinetic + potential };
}

const BOUND = 1e150;
const bounded = (x: ArrayLike<number>): boolean => {
  for (let i = 0; i < x.length; i++) if (!(Math.abs(x[i]) <= BOUND)) return false;
  return true;
};

/** The first of the state's and the solve's quantities with a NaN, an infinity or a value beyond ±1e150. */
export function msdFirstUnbounded(s: MsdState, sol: MsdSolve): string | undefined {
  const named: [string, ArrayLike<number>][] = [['X', s.X], ['Ẋ', s.V], ['Q', s.Q], ['Q̇', s.Qdot], ['J', sol.J], ['F', sol.F], ['C', sol.C], ['A', sol.A], ['b', sol.b], ['λ', sol.lambda]];
  return named.find(([, v]) => !bounded(v))?.[0];
}

/** Solve and analyse the state: the snapshot every view reads and msd-sim's own result, or what is not finite. */
export function msdSnapshot(model: MsdModel, s: MsdState, step: number, t: number, gravity: Vec3): { ok: true; snapshot: SystemSnapshot; solve: MsdSolve } | { ok: false; message: string } {
  const sol = msdSolve(model.rows.map((r) => r.row), s, msdBodyInputs(model, s));
  const bad = msdFirstUnbounded(s, sol);
  if (bad) return { ok: false, message: `${bad} has a NaN, an infinity or a value beyond ±1e150` };
  const sys = msdSystem(model, sol, step, t);
  const an = analyseSystem(sys, { exactCondMaxRows: 1000, wantSpectrum: true });
  if (!an.ok) return { ok: false, message: an.message };
  const snap = snapshotOfSystem(sys, an);
  snap.stabilization = 'baumgarte';
  snap.F = sol.F;
  snap.v = sol.qdot;
  snap.Cdot = sol.Cdot;
  // a0 = M⁻¹·F and a = M⁻¹·(F + F_c), block by block
  const n = sol.n;
  const a0 = new Float64Array(n), a = new Float64Array(n);
  for (let k = 0; k < model.bodies.length; k++)
    for (let r = 0; r < MSD_COLS; r++)
      for (let c = 0; c < MSD_COLS; c++) {
        const mij = sol.MinvBlocks[k * 49 + r * MSD_COLS + c], col = MSD_COLS * k + c;
        a0[MSD_COLS * k + r] += mij * sol.F[col];
        a[MSD_COLS * k + r] += mij * (sol.F[col] + sol.Fc[col]);
      }
  snap.a0 = a0;
  snap.a = a;
  snap.rhs = sol.b;
  snap.method = sol.converged ? 'cholesky' : 'none';
  snap.energy = msdEnergy(model, s, gravity);
  snap.constraints.forEach((c: ConstraintReport) => {
    const info = model.rows[c.firstRow];
    c.fileIndex = info.fileIndex;
    c.bodyA = info.bodyA;
    c.bodyB = info.bodyB;
    let cd = 0;
    for (let i = c.firstRow; i < c.firstRow + c.rows; i++) cd = Math.hypot(cd, sol.Cdot[i]);
    c.velocityViolation = cd;
    // msd-sim's extractConstraintForces per row: force = (Jᵀλ)[0..2], torque = (Jᵀλ)[3..5] of each body
    const lam = snap.lambda[c.firstRow];
    for (let k = 0; k < model.bodies.length; k++) {
      const at = (o: number): Vec3 => [0, 1, 2].map((j) => sol.J[c.firstRow * sol.n + MSD_COLS * k + o + j] * lam) as Vec3;
      const name = model.bodies[k].name;
      if (name === c.bodyA) [c.forceA, c.torqueA] = [at(0), at(3)];
      else if (name === c.bodyB) [c.forceB, c.torqueB] = [at(0), at(3)];
    }
  });
  return { ok: true, snapshot: snap, solve: sol };
}
