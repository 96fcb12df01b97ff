// msd-sim's ConstraintSolver::solve (danielnewman09/MSD-CPP, msd-sim/src/Physics/Constraints/
// ConstraintSolver.cpp, ticket 0031), over every free body of a scene at once: msd-sim solves one
// body's 7 columns; n bodies here give 7n columns with msd-sim's 7×7 block per body, so a scene of
// one body is msd-sim's system number for number.
//
//   assembleConstraintMatrix: J stacked (m × 7n), M⁻¹ per body = [ (1/m)·I₃ at rows/columns 0–2,
//     I⁻¹ (the 3×3 inverse inertia) at 3–5, 1 at (6, 6) ], A = J·M⁻¹·Jᵀ;
//   assembleRHS: F = [force, torque, 0] per body, q̇ = [Ẋ, Q̇ as stored], Ċ = J·q̇ + ∂C/∂t (= 0),
//     b = −J·M⁻¹·F − α∘C − β∘Ċ;
//   the condition number σ_max/σ_min of A (Eigen::JacobiSVD);
//   Eigen::LLT of A; when it fails (a pivot ≤ 0) the step has no constraint force (converged = false);
//   extractConstraintForces: F_c = Jᵀ·λ, force = F_c[0..2], torque = F_c[3..5] per body.
//
// msd-sim's layout is kept as it is, including what follows from it: the 3×3 inverse inertia sits on
// the columns labelled qw, qx, qy (with 1 on qz), the torque enters F on those columns, and Q̇ enters
// q̇ in its stored (x, y, z, w) order against J's (w, x, y, z) columns. The seed's and the design's
// b also has −J̇·q̇; msd-sim's assembleRHS leaves it out, and so does this.
import { SingularValueDecomposition, Matrix } from 'ml-matrix';
import type { Mat3, Vec3 } from '../types';
import { evaluateRow, jacobianRow, MSD_COLS, type MsdRow } from './constraints';
import type { MsdState } from './state';

/** Per free body: mass, world-frame inverse inertia, external force and torque. */
export interface MsdBodyInput {
  mass: number;
  invInertia: Mat3;
  force: Vec3;
  torque: Vec3;
}

/** ConstraintSolver::SolveResult, with the matrices it was computed from. */
export interface MsdSolve {
  /** Rows m and columns n = 7·bodies. */
  m: number;
  n: number;
  /** J (m × n, dense row-major). */
  J: Float64Array;
  /** M⁻¹ as one 7×7 row-major block per body. */
  MinvBlocks: Float64Array;
  /** F (n) and q̇ (n) in msd-sim's layout. */
  F: Float64Array;
  qdot: Float64Array;
  C: Float64Array;
  Cdot: Float64Array;
  /** A = J·M⁻¹·Jᵀ (m × m, dense row-major). */
  A: Float64Array;
  b: Float64Array;
  /** λ (m) when the LLT succeeded; empty otherwise (msd-sim's Eigen::VectorXd{}). */
  lambda: Float64Array;
  converged: boolean;
  /** σ_max/σ_min of A (1 with no constraint, as msd-sim returns). */
  conditionNumber: number;
  /** F_c = Jᵀ·λ (n; zeros when not converged). */
  Fc: Float64Array;
}

/** The 7×7 inverse mass block of one body, as assembleConstraintMatrix fills it. */
export function msdMassInverseBlock(mass: number, invInertia: Mat3): Float64Array {
  const b = new Float64Array(MSD_COLS * MSD_COLS);
  for (let k = 0; k < 3; k++) b[k * MSD_COLS + k] = 1 / mass;
  for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) b[(3 + r) * MSD_COLS + 3 + c] = invInertia[3 * r + c];
  b[6 * MSD_COLS + 6] = 1;
  return b;
}

/** Eigen's unblocked LLT in place on the lower triangle; false when a pivot is ≤ 0 or not a number. */
export function lltInPlace(a: Float64Array, n: number): boolean {
  for (let k = 0; k < n; k++) {
    let x = a[k * n + k];
    for (let j = 0; j < k; j++) x -= a[k * n + j] * a[k * n + j];
    if (!(x > 0)) return false;
    const d = Math.sqrt(x);
    a[k * n + k] = d;
    for (let i = k + 1; i < n; i++) {
      let s = a[i * n + k];
      for (let j = 0; j < k; j++) s -= a[i * n + j] * a[k * n + j];
      a[i * n + k] = s / d;
    }
  }
  return true;
}

/** L·Lᵀ·x = b with the factor of `lltInPlace`. */
export function lltSolve(L: Float64Array, n: number, b: ArrayLike<number>): Float64Array {
  const y = Float64Array.from(b);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < i; j++) y[i] -= L[i * n + j] * y[j];
    y[i] /= L[i * n + i];
  }
  for (let i = n - 1; i >= 0; i--) {
    for (let j = i + 1; j < n; j++) y[i] -= L[j * n + i] * y[j];
    y[i] /= L[i * n + i];
  }
  return y;
}

/** σ_max/σ_min of a symmetric m × m matrix (JacobiSVD's ratio: ∞ for a singular one, NaN for zero). */
export function svdConditionNumber(A: Float64Array, m: number): number {
  if (m === 0) return 1;
  const rows: number[][] = [];
  for (let i = 0; i < m; i++) rows.push(Array.from(A.subarray(i * m, (i + 1) * m)));
  const sv = new SingularValueDecomposition(new Matrix(rows), { computeLeftSingularVectors: false, computeRightSingularVectors: false }).diagonal;
  return sv[0] / sv[sv.length - 1];
}

/** ConstraintSolver::solve for the rows `rows` on the bodies' state. */
export function msdSolve(rows: readonly MsdRow[], s: MsdState, bodies: readonly MsdBodyInput[]): MsdSolve {
  const m = rows.length, nb = bodies.length, n = MSD_COLS * nb;
  const J = new Float64Array(m * n);
  rows.forEach((r, i) => {
    for (const e of jacobianRow(r, s)) J[i * n + e.col] = e.value;
  });
  const MinvBlocks = new Float64Array(nb * MSD_COLS * MSD_COLS);
  const F = new Float64Array(n), qdot = new Float64Array(n);
  bodies.forEach((b, k) => {
    MinvBlocks.set(msdMassInverseBlock(b.mass, b.invInertia), k * MSD_COLS * MSD_COLS);
    for (let j = 0; j < 3; j++) {
      F[MSD_COLS * k + j] = b.force[j];
      F[MSD_COLS * k + 3 + j] = b.torque[j];
      qdot[MSD_COLS * k + j] = s.V[3 * k + j];
    }
    for (let j = 0; j < 4; j++) qdot[MSD_COLS * k + 3 + j] = s.Qdot[4 * k + j];
  });
  // JM = J·M⁻¹, block by block
  const JM = new Float64Array(m * n);
  for (let i = 0; i < m; i++)
    for (let k = 0; k < nb; k++) {
      const c0 = MSD_COLS * k, B = MinvBlocks.subarray(k * 49, k * 49 + 49);
      for (let c = 0; c < MSD_COLS; c++) {
        let acc = 0;
        for (let l = 0; l < MSD_COLS; l++) acc += J[i * n + c0 + l] * B[l * MSD_COLS + c];
        JM[i * n + c0 + c] = acc;
      }
    }
  const A = new Float64Array(m * m);
  for (let i = 0; i < m; i++)
    for (let j = 0; j < m; j++) {
      let acc = 0;
      for (let c = 0; c < n; c++) acc += JM[i * n + c] * J[j * n + c];
      A[i * m + j] = acc;
    }
  const C = new Float64Array(m), Cdot = new Float64Array(m), b = new Float64Array(m);
  rows.forEach((r, i) => {
    C[i] = evaluateRow(r, s);
    let jq = 0, jmf = 0;
    for (let c = 0; c < n; c++) {
      jq += J[i * n + c] * qdot[c];
      jmf += JM[i * n + c] * F[c];
    }
    // Ċ = J·q̇ + ∂C/∂t, and ∂C/∂t = 0 for both constraint types
    Cdot[i] = jq;
    b[i] = -jmf - r.alpha * C[i] - r.beta * Cdot[i];
  });
  const conditionNumber = svdConditionNumber(A, m);
  const L = Float64Array.from(A);
  const converged = m === 0 || lltInPlace(L, m);
  const lambda = converged ? lltSolve(L, m, b) : new Float64Array(0);
  const Fc = new Float64Array(n);
  if (converged) for (let i = 0; i < m; i++) for (let c = 0; c < n; c++) Fc[c] += J[i * n + c] * lambda[i];
  return { m, n, J, MinvBlocks, F, qdot, C, Cdot, A, b, lambda, converged, conditionNumber, Fc };
}
