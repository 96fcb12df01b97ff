// Vector / quaternion helpers for the 3D view: the engine's (quaternions [x, y, z, w], scalar last)
// under the view's names, and what only the view needs: tolerant normalisation of values read from
// the panel model, quaternions of a basis and of a direction, the symmetric 3×3 eigen-decomposition
// and MuJoCo's equivalent inertia box. Pure: no DOM, no three (unit-tested in Node).
import { cross, dot, quatConj, quatMul, quatRotateInv, scale, sub, type Quat, type Vec3 } from '../../src/engine';

export type V3 = Vec3;
export type Q4 = Quat;

// The engine's helpers under the view's names (one convention for the engine, the importer and the view).
export { cross as cross3, dot as dot3, scale as scale3, sub as sub3, quatMul as qmul };
export { norm3 } from '../../src/shared';

export const finite3 = (v: unknown): v is V3 =>
  (Array.isArray(v) || ArrayBuffer.isView(v)) && (v as ArrayLike<number>).length >= 3 && [0, 1, 2].every((i) => Number.isFinite((v as ArrayLike<number>)[i]));

/** a + b (the engine's helpers have no sum: its hot paths add in place). */
export const add3 = (a: V3, b: V3): V3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
/** a/|a|, or `fallback` when a is zero or not finite (the engine's normalize gives [0, 0, 0] for zero). */
export function unit3(a: V3, fallback: V3 = [0, 0, 1]): V3 {
  const n = Math.hypot(a[0], a[1], a[2]);
  return n > 1e-300 && Number.isFinite(n) ? [a[0] / n, a[1] / n, a[2] / n] : fallback;
}

/** Normalised quaternion, identity when it is not finite or zero. */
export function unitQuat(q: readonly number[] | undefined): Q4 {
  if (!q || q.length < 4) return [0, 0, 0, 1];
  const n = Math.hypot(q[0], q[1], q[2], q[3]);
  if (!(n > 1e-300) || !Number.isFinite(n)) return [0, 0, 0, 1];
  return [q[0] / n, q[1] / n, q[2] / n, q[3] / n];
}

/** R(q)·v: the engine's Rᵀ·v of the conjugate. */
export const rotate = (q: Q4, v: V3): V3 => quatRotateInv(quatConj(q), v);

/** R(q)ᵀ·v. */
export const rotateInv = (q: Q4, v: V3): V3 => quatRotateInv(q, v);

/** Quaternion of the rotation whose columns are the orthonormal right-handed basis (c0, c1, c2). */
export function quatFromBasis(c0: V3, c1: V3, c2: V3): Q4 {
  const m00 = c0[0], m10 = c0[1], m20 = c0[2];
  const m01 = c1[0], m11 = c1[1], m21 = c1[2];
  const m02 = c2[0], m12 = c2[1], m22 = c2[2];
  const tr = m00 + m11 + m22;
  let q: Q4;
  if (tr > 0) {
    const s = 0.5 / Math.sqrt(tr + 1);
    q = [(m21 - m12) * s, (m02 - m20) * s, (m10 - m01) * s, 0.25 / s];
  } else if (m00 > m11 && m00 > m22) {
    const s = 2 * Math.sqrt(1 + m00 - m11 - m22);
    q = [0.25 * s, (m01 + m10) / s, (m02 + m20) / s, (m21 - m12) / s];
  } else if (m11 > m22) {
    const s = 2 * Math.sqrt(1 + m11 - m00 - m22);
    q = [(m01 + m10) / s, 0.25 * s, (m12 + m21) / s, (m02 - m20) / s];
  } else {
    const s = 2 * Math.sqrt(1 + m22 - m00 - m11);
    q = [(m02 + m20) / s, (m12 + m21) / s, 0.25 * s, (m10 - m01) / s];
  }
  return unitQuat(q);
}

/** The shortest rotation taking +y to the unit vector d (three's cylinders and cones point along +y). */
export function quatFromY(d: V3): Q4 {
  const [x, y, z] = d;
  if (y < -0.999999) return [1, 0, 0, 0]; // 180° about x
  // axis = y × d = (z, 0, -x), angle = acos(y): q = (axis·sin, cos) via the half-way vector
  return unitQuat([z, 0, -x, 1 + y]);
}

/**
 * Eigen-decomposition of a symmetric 3×3 matrix (row-major) by cyclic Jacobi rotations.
 * Returns the eigenvalues and the eigenvectors as the columns of a right-handed basis.
 */
export function symEigen3(m: readonly number[]): { values: V3; vectors: [V3, V3, V3] } {
  const a = [
    [m[0], (m[1] + m[3]) / 2, (m[2] + m[6]) / 2],
    [(m[1] + m[3]) / 2, m[4], (m[5] + m[7]) / 2],
    [(m[2] + m[6]) / 2, (m[5] + m[7]) / 2, m[8]],
  ];
  const v = [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ];
  for (let sweep = 0; sweep < 50; sweep++) {
    const off = Math.abs(a[0][1]) + Math.abs(a[0][2]) + Math.abs(a[1][2]);
    const scale = Math.abs(a[0][0]) + Math.abs(a[1][1]) + Math.abs(a[2][2]);
    if (off <= 1e-15 * scale || off === 0) break;
    for (const [p, q] of [
      [0, 1],
      [0, 2],
      [1, 2],
    ]) {
      if (a[p][q] === 0) continue;
      const theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
      const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
      const c = 1 / Math.sqrt(t * t + 1);
      const s = t * c;
      for (let k = 0; k < 3; k++) {
        const akp = a[k][p];
        const akq = a[k][q];
        a[k][p] = c * akp - s * akq;
        a[k][q] = s * akp + c * akq;
      }
      for (let k = 0; k < 3; k++) {
        const apk = a[p][k];
        const aqk = a[q][k];
        a[p][k] = c * apk - s * aqk;
        a[q][k] = s * apk + c * aqk;
      }
      for (let k = 0; k < 3; k++) {
        const vkp = v[k][p];
        const vkq = v[k][q];
        v[k][p] = c * vkp - s * vkq;
        v[k][q] = s * vkp + c * vkq;
      }
    }
  }
  const cols: [V3, V3, V3] = [0, 1, 2].map((j) => [v[0][j], v[1][j], v[2][j]] as V3) as [V3, V3, V3];
  // Right-handed: c2 = c0 × c1.
  if (dot(cross(cols[0], cols[1]), cols[2]) < 0) cols[2] = scale(cols[2], -1);
  return { values: [a[0][0], a[1][1], a[2][2]], vectors: cols };
}

/**
 * MuJoCo's equivalent inertia box: the uniform box of mass m with the body's principal moments
 * I1, I2, I3 has half-extents ½·√(6(I2 + I3 − I1)/m) (and cyclic), oriented along the principal
 * axes. Moments that violate the triangle inequality give a zero extent (clamped to a sliver).
 * Undefined when the mass or the inertia is unusable (zero, negative, not finite).
 */
export function inertiaBox(mass: number | undefined, inertia: readonly number[] | undefined): { half: V3; q: Q4 } | undefined {
  if (!(typeof mass === 'number' && mass > 0 && Number.isFinite(mass))) return undefined;
  if (!inertia || (inertia.length !== 9 && inertia.length !== 3) || !inertia.every((x) => Number.isFinite(x))) return undefined;
  const m9 = inertia.length === 3 ? [inertia[0], 0, 0, 0, inertia[1], 0, 0, 0, inertia[2]] : [...inertia];
  const { values: I, vectors } = symEigen3(m9);
  if (!(I[0] + I[1] + I[2] > 0)) return undefined;
  const ext = (i: number, j: number, k: number): number => 0.5 * Math.sqrt(Math.max(0, (6 * (I[j] + I[k] - I[i])) / mass));
  const half: V3 = [ext(0, 1, 2), ext(1, 0, 2), ext(2, 0, 1)];
  const big = Math.max(...half);
  if (!(big > 0)) return undefined;
  for (let i = 0; i < 3; i++) half[i] = Math.max(half[i], big * 0.02);
  return { half, q: quatFromBasis(vectors[0], vectors[1], vectors[2]) };
}

/** A "nice" number (1, 2 or 5 × 10ⁿ) at or above x. */
export function niceStep(x: number): number {
  if (!(x > 0) || !Number.isFinite(x)) return 1;
  const p = Math.pow(10, Math.floor(Math.log10(x)));
  for (const k of [1, 2, 5, 10]) if (k * p >= x * (1 - 1e-12)) return k * p;
  return 10 * p;
}
