// Small rigid-body helpers for the importer (quaternions [x, y, z, w], row-major 3×3 matrices).
import { mat3MulVec, mat3TMulVec, quatToMat3, sub, type Mat3 } from '../engine';
import type { Quat, Vec3 } from './mujoco';

/** A rotation matrix: 9 numbers, row-major (the engine's Mat3). */
export type Mat = Mat3;

// The engine's helpers, under the short names the importer's formulas use.
export { cross, dot, norm, scale, sub, quatConj as qconj, quatMul as qmul, quatToMat3 as qmat, mat3MulVec as mulMV, mat3TMulVec as mulMtV } from '../engine';

/** a + b (the engine's helpers have no sum: its hot paths add in place). */
export const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];

/**
 * √(x² + y² + z² + w²) as V8's Math.hypot computes it, to the bit: the largest magnitude factored out
 * and the squares summed with Kahan's compensation. A run's record normalises every body's quaternion on
 * every step, and the builtin's call cost more than its arithmetic; written out here, the records and
 * the converted scene (qnormalize) share one formula whatever the JavaScript engine.
 */
export function hypot4(x: number, y: number, z: number, w: number): number {
  const ax = Math.abs(x), ay = Math.abs(y), az = Math.abs(z), aw = Math.abs(w);
  if (ax === Infinity || ay === Infinity || az === Infinity || aw === Infinity) return Infinity;
  if (ax !== ax || ay !== ay || az !== az || aw !== aw) return NaN;
  let max = ax;
  if (ay > max) max = ay;
  if (az > max) max = az;
  if (aw > max) max = aw;
  if (max === 0) return 0;
  let sum = 0, c = 0;
  let n = ax / max, s = n * n - c, p = sum + s;
  c = p - sum - s;
  sum = p;
  n = ay / max;
  s = n * n - c;
  p = sum + s;
  c = p - sum - s;
  sum = p;
  n = az / max;
  s = n * n - c;
  p = sum + s;
  c = p - sum - s;
  sum = p;
  n = aw / max;
  s = n * n - c;
  p = sum + s;
  return Math.sqrt(p) * max;
}

/**
 * q/|q| with |q| from Math.hypot's formula (hypot4) (identity for zero). Not the engine's quatNormalize (a plain square
 * root): the exported scenes' quaternions would move in their last digit, and the export round-trip
 * test pins the importer's quaternions to what the scene parser reads back from them.
 */
export function qnormalize(q: Quat): Quat {
  const n = hypot4(q[0], q[1], q[2], q[3]);
  return n > 0 ? [q[0] / n, q[1] / n, q[2] / n, q[3] / n] : [0, 0, 0, 1];
}

/** Quaternion of a rotation matrix (Shepperd's method; w ≥ 0). */
export function matq(m: readonly number[]): Quat {
  const t = m[0] + m[4] + m[8];
  let q: Quat;
  if (t > 0) {
    const s = Math.sqrt(t + 1) * 2;
    q = [(m[7] - m[5]) / s, (m[2] - m[6]) / s, (m[3] - m[1]) / s, 0.25 * s];
  } else if (m[0] > m[4] && m[0] > m[8]) {
    const s = Math.sqrt(1 + m[0] - m[4] - m[8]) * 2;
    q = [0.25 * s, (m[1] + m[3]) / s, (m[2] + m[6]) / s, (m[7] - m[5]) / s];
  } else if (m[4] > m[8]) {
    const s = Math.sqrt(1 + m[4] - m[0] - m[8]) * 2;
    q = [(m[1] + m[3]) / s, 0.25 * s, (m[5] + m[7]) / s, (m[2] - m[6]) / s];
  } else {
    const s = Math.sqrt(1 + m[8] - m[0] - m[4]) * 2;
    q = [(m[2] + m[6]) / s, (m[5] + m[7]) / s, 0.25 * s, (m[3] - m[1]) / s];
  }
  q = qnormalize(q);
  return q[3] < 0 ? [-q[0], -q[1], -q[2], -q[3]] : q;
}

/** A rigid frame (position, orientation) in the world. */
export interface Frame {
  p: Vec3;
  q: Quat;
  R: Mat;
}
export const frame = (p: Vec3, q: Quat): Frame => ({ p, q, R: quatToMat3(q) });
export const WORLD_FRAME: Frame = frame([0, 0, 0], [0, 0, 0, 1]);

/** A world point in the frame's coordinates. */
export const toLocal = (f: Frame, x: Vec3): Vec3 => mat3TMulVec(f.R, sub(x, f.p));
/** A world direction in the frame's coordinates. */
export const dirToLocal = (f: Frame, d: Vec3): Vec3 => mat3TMulVec(f.R, d);
/** A frame's point in the world. */
export const toWorld = (f: Frame, x: Vec3): Vec3 => add(f.p, mat3MulVec(f.R, x));
