// Small fixed-size vector, quaternion and 3×3 matrix helpers (allocation-light, no dependencies).
// Quaternions are [x, y, z, w], scalar last. Matrices are row-major.
import type { Mat3, Quat, Vec3 } from './types';

export const add = (a: Vec3, b: Vec3): Vec3 => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
export const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
export const scale = (a: Vec3, s: number): Vec3 => [a[0] * s, a[1] * s, a[2] * s];
export const dot = (a: Vec3, b: Vec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
export const cross = (a: Vec3, b: Vec3): Vec3 => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
export const norm = (a: Vec3): number => Math.sqrt(dot(a, a));
export const normalize = (a: Vec3): Vec3 => {
  const n = norm(a);
  return n > 0 ? scale(a, 1 / n) : [0, 0, 0];
};

export const IDENTITY_QUAT: Quat = [0, 0, 0, 1];
export const IDENTITY_MAT3: Mat3 = [1, 0, 0, 0, 1, 0, 0, 0, 1];

/** Hamilton product a ⊗ b, both [x,y,z,w]. */
export function quatMul(a: Quat, b: Quat): Quat {
  const [ax, ay, az, aw] = a;
  const [bx, by, bz, bw] = b;
  return [
    aw * bx + ax * bw + ay * bz - az * by,
    aw * by - ax * bz + ay * bw + az * bx,
    aw * bz + ax * by - ay * bx + az * bw,
    aw * bw - ax * bx - ay * by - az * bz,
  ];
}
export const quatConj = (q: Quat): Quat => [-q[0], -q[1], -q[2], q[3]];
export const quatNorm = (q: Quat): number => Math.hypot(q[0], q[1], q[2], q[3]);
export function quatNormalize(q: Quat): Quat {
  const n = quatNorm(q);
  return n > 0 ? [q[0] / n, q[1] / n, q[2] / n, q[3] / n] : [0, 0, 0, 1];
}

/** Rotation matrix of a unit quaternion [x,y,z,w] (row-major). */
export function quatToMat3(q: Quat): Mat3 {
  const [x, y, z, w] = q;
  const xx = x * x, yy = y * y, zz = z * z;
  const xy = x * y, xz = x * z, yz = y * z, wx = w * x, wy = w * y, wz = w * z;
  return [
    1 - 2 * (yy + zz), 2 * (xy - wz), 2 * (xz + wy),
    2 * (xy + wz), 1 - 2 * (xx + zz), 2 * (yz - wx),
    2 * (xz - wy), 2 * (yz + wx), 1 - 2 * (xx + yy),
  ];
}

/** Quaternion of a rotation by angle |θ| about θ/|θ| (exponential map of a rotation vector). */
export function quatFromRotationVector(t: Vec3): Quat {
  const a = norm(t);
  if (a < 1e-12) return quatNormalize([t[0] / 2, t[1] / 2, t[2] / 2, 1]);
  const s = Math.sin(a / 2) / a;
  return [t[0] * s, t[1] * s, t[2] * s, Math.cos(a / 2)];
}

export function mat3MulVec(m: Mat3, v: Vec3): Vec3 {
  return [
    m[0] * v[0] + m[1] * v[1] + m[2] * v[2],
    m[3] * v[0] + m[4] * v[1] + m[5] * v[2],
    m[6] * v[0] + m[7] * v[1] + m[8] * v[2],
  ];
}
export function mat3TMulVec(m: Mat3, v: Vec3): Vec3 {
  return [
    m[0] * v[0] + m[3] * v[1] + m[6] * v[2],
    m[1] * v[0] + m[4] * v[1] + m[7] * v[2],
    m[2] * v[0] + m[5] * v[1] + m[8] * v[2],
  ];
}
export function mat3Mul(a: Mat3, b: Mat3): Mat3 {
  const r = new Array(9).fill(0) as Mat3;
  for (let i = 0; i < 3; i++)
    for (let j = 0; j < 3; j++) r[i * 3 + j] = a[i * 3] * b[j] + a[i * 3 + 1] * b[3 + j] + a[i * 3 + 2] * b[6 + j];
  return r;
}

/** Inverse of a 3×3 matrix, or undefined when singular. */
export function mat3Inverse(m: Mat3): Mat3 | undefined {
  const [a, b, c, d, e, f, g, h, i] = m;
  const A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g;
  const det = a * A + b * B + c * C;
  if (!Number.isFinite(det) || det === 0) return undefined;
  const inv = 1 / det;
  return [
    A * inv, -(b * i - c * h) * inv, (b * f - c * e) * inv,
    B * inv, (a * i - c * g) * inv, -(a * f - c * d) * inv,
    C * inv, -(a * h - b * g) * inv, (a * e - b * d) * inv,
  ];
}

/** Skew matrix [v]× such that [v]×·u = v × u. */
export const skew = (v: Vec3): Mat3 => [0, -v[2], v[1], v[2], 0, -v[0], -v[1], v[0], 0];

/** A unit vector perpendicular to the unit vector `a`, and a second one completing the right-handed frame. */
export function perpendicularBasis(a: Vec3): [Vec3, Vec3] {
  const t: Vec3 = Math.abs(a[0]) < 0.57735 ? [1, 0, 0] : Math.abs(a[1]) < 0.57735 ? [0, 1, 0] : [0, 0, 1];
  const p1 = normalize(cross(a, t));
  const p2 = cross(a, p1);
  return [p1, p2];
}

export const isFiniteVec = (v: ArrayLike<number>): boolean => {
  for (let i = 0; i < v.length; i++) if (!Number.isFinite(v[i])) return false;
  return true;
};

/** ‖x‖₂ without overflow or underflow (scaled by max |xᵢ|, as LAPACK's nrm2). */
export function norm2(x: ArrayLike<number>, from = 0, to = x.length): number {
  let m = 0;
  for (let i = from; i < to; i++) {
    const a = Math.abs(x[i]);
    if (a > m || Number.isNaN(a)) m = a;
  }
  if (m === 0 || !Number.isFinite(m)) return m;
  let s = 0;
  for (let i = from; i < to; i++) {
    const r = x[i] / m;
    s += r * r;
  }
  return m * Math.sqrt(s);
}
