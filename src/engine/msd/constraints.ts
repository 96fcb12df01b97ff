// msd-sim's constraints in position coordinates q = [X, Q] (7 columns per body: x y z qw qx qy qz),
// as danielnewman09/MSD-CPP writes them (ticket 0031, commit a8342d0):
// - UnitQuaternionConstraint.cpp: C = QᵀQ − 1, J = [0, 0, 0, 2Q_w, 2Q_x, 2Q_y, 2Q_z], ∂C/∂t = 0;
// - DistanceConstraint.cpp: C = |X|² − d², J = [2X_x, 2X_y, 2X_z, 0, 0, 0, 0], ∂C/∂t = 0.
// msd-sim's distance is a body's centre to the world origin; a scene's distance constraint between
// two centres (or a centre and a world point p) is the same function of the difference,
// C = |X_A − X_B|² − d² with J_B = −J_A, and p = 0 gives msd-sim's own row.
import type { MsdState } from './state';

/** Columns per body, in msd-sim's order. */
export const MSD_DOF = ['x', 'y', 'z', 'qw', 'qx', 'qy', 'qz'] as const;
export const MSD_COLS = MSD_DOF.length;

/** One scalar constraint row (every msd-sim constraint here has dimension 1). */
export type MsdRow =
  | { kind: 'unit-quaternion'; body: number; alpha: number; beta: number }
  | {
      kind: 'distance';
      /** Free body index of A; of B, or −1 when B is a world point. */
      a: number;
      b: number;
      /** B's world point when b = −1. */
      point: [number, number, number];
      length: number;
      alpha: number;
      beta: number;
    };

/** One nonzero of a row of J: column and value. */
export interface MsdJEntry {
  col: number;
  value: number;
}

/** Δ = X_A − X_B (or X_A − p). */
function delta(row: Extract<MsdRow, { kind: 'distance' }>, s: MsdState): [number, number, number] {
  const out: [number, number, number] = [0, 0, 0];
  for (let k = 0; k < 3; k++) out[k] = s.X[3 * row.a + k] - (row.b >= 0 ? s.X[3 * row.b + k] : row.point[k]);
  return out;
}

/** evaluate(): C(q). */
export function evaluateRow(row: MsdRow, s: MsdState): number {
  if (row.kind === 'unit-quaternion') {
    // msd-sim sums w² + x² + y² + z² in this order
    const o = 4 * row.body;
    const x = s.Q[o], y = s.Q[o + 1], z = s.Q[o + 2], w = s.Q[o + 3];
    return w * w + x * x + y * y + z * z - 1;
  }
  const d = delta(row, s);
  return d[0] * d[0] + d[1] * d[1] + d[2] * d[2] - row.length * row.length;
}

/** jacobian(): the nonzeros of ∂C/∂q over all 7n columns, in increasing column order. */
export function jacobianRow(row: MsdRow, s: MsdState): MsdJEntry[] {
  if (row.kind === 'unit-quaternion') {
    const o = 4 * row.body, c = MSD_COLS * row.body;
    const x = s.Q[o], y = s.Q[o + 1], z = s.Q[o + 2], w = s.Q[o + 3];
    return [
      { col: c + 3, value: 2 * w },
      { col: c + 4, value: 2 * x },
      { col: c + 5, value: 2 * y },
      { col: c + 6, value: 2 * z },
    ];
  }
  const d = delta(row, s);
  const ends = [{ body: row.a, sign: 1 }];
  if (row.b >= 0) ends.push({ body: row.b, sign: -1 });
  ends.sort((p, q) => p.body - q.body);
  const out: MsdJEntry[] = [];
  for (const e of ends) for (let k = 0; k < 3; k++) out.push({ col: MSD_COLS * e.body + k, value: e.sign * 2 * d[k] });
  return out;
}
