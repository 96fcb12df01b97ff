// Small fixed-size vector, quaternion and 3×3 matrix helpers (allocation-light, no dependencies).
// Quaternions are [x, y, z, w], scalar last. Matrices are row-major.
import type { Mat3, Quat, Vec3 } from '../types';

/** Largest magnitude a computed value may have (its square still fits in a double): beyond it a value is bad (guards/nonFinite.ts). */
export const HUGE = 1e150;

export const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
export const scale = (a: Vec3, s: number): Vec3 => [a[0] * s, a[1] * s, a[2] * s];
export const dot = (a: Vec3, b: Vec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
export const cross = (a: Vec3, b: Vec3): Vec3 => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];
/** out[offset..offset+2] = sign·(a × b), in place. */
export function crossInto(a: ArrayLike<number>, b: ArrayLike<number>, out: Vec3 | Float64Array, offset = 0, sign = 1): void {
  const x = a[1] * b[2] - a[2] * b[1];
  const y = a[2] * b[0] - a[0] * b[2];
  const z = a[0] * b[1] - a[1] * b[0];
  if (sign === 1) {
    out[offset] = x;
    out[offset + 1] = y;
    out[offset + 2] = z;
  } else {
    out[offset] = -x;
    out[offset + 1] = -y;
    out[offset + 2] = -z;
  }
}
export const norm = (a: Vec3): number => Math.sqrt(dot(a, a));
export const normalize = (a: Vec3): Vec3 => {
  const n = norm(a);
  return n > 0 ? scale(a, 1 / n) : [0, 0, 0];
};

/** A copy of `v` when it is a 3-vector, else of `fallback`. */
export const vecOr = (v: Vec3 | undefined, fallback: Vec3): Vec3 =>
  v && v.length === 3 ? [v[0], v[1], v[2]] : [fallback[0], fallback[1], fallback[2]];

export const IDENTITY_QUAT: Quat = [0, 0, 0, 1];
export const IDENTITY_MAT3: Mat3 = [1, 0, 0, 0, 1, 0, 0, 0, 1];

/** out = a ⊗ b (Hamilton product, [x,y,z,w]), in place; `out` may alias neither input. */
export function quatMulInto(a: Quat, b: Quat, out: Quat): void {
  const ax = a[0], ay = a[1], az = a[2], aw = a[3];
  const bx = b[0], by = b[1], bz = b[2], bw = b[3];
  out[0] = aw * bx + ax * bw + ay * bz - az * by;
  out[1] = aw * by - ax * bz + ay * bw + az * bx;
  out[2] = aw * bz + ax * by - ay * bx + az * bw;
  out[3] = aw * bw - ax * bx - ay * by - az * bz;
}
/** Hamilton product a ⊗ b, both [x,y,z,w]. */
export function quatMul(a: Quat, b: Quat): Quat {
  const out: Quat = [0, 0, 0, 1];
  quatMulInto(a, b, out);
  return out;
}
export const quatConj = (q: Quat): Quat => [-q[0], -q[1], -q[2], q[3]];
/** out = q* (the inverse of a unit quaternion), in place. */
export function quatConjInto(q: Quat, out: Quat): void {
  out[0] = -q[0];
  out[1] = -q[1];
  out[2] = -q[2];
  out[3] = q[3];
}
/**
 * √(a² + b²) without overflow or underflow: the plain formula while the sum of squares is safely in
 * range (Math.hypot, which scales every call, costs several times more), Math.hypot otherwise
 * (also for NaN and ±∞).
 */
export function hypot2(a: number, b: number): number {
  const s = a * a + b * b;
  return s > 1e-290 && s < 1e290 ? Math.sqrt(s) : Math.hypot(a, b);
}
/** |q| of a quaternion (or any 4-vector), as `hypot2`. */
export function quatNorm(q: ArrayLike<number>): number {
  const s = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
  return s > 1e-290 && s < 1e290 ? Math.sqrt(s) : Math.hypot(q[0], q[1], q[2], q[3]);
}
export function quatNormalize(q: Quat): Quat {
  const n = quatNorm(q);
  return n > 0 ? [q[0] / n, q[1] / n, q[2] / n, q[3] / n] : [0, 0, 0, 1];
}

/** Rotation matrix of a unit quaternion [x,y,z,w] (row-major). */
export function quatToMat3(q: Quat): Mat3 {
  const x = q[0], y = q[1], z = q[2], w = q[3];
  const xx = x * x, yy = y * y, zz = z * z;
  const xy = x * y, xz = x * z, yz = y * z, wx = w * x, wy = w * y, wz = w * z;
  return [
    1 - 2 * (yy + zz), 2 * (xy - wz), 2 * (xz + wy),
    2 * (xy + wz), 1 - 2 * (xx + zz), 2 * (yz - wx),
    2 * (xz - wy), 2 * (yz + wx), 1 - 2 * (xx + yy),
  ];
}
/** out = the rotation matrix of q, in place (the same numbers as `quatToMat3`). */
export function quatToMat3Into(q: Quat, out: Mat3 | Float64Array): void {
  const x = q[0], y = q[1], z = q[2], w = q[3];
  const xx = x * x, yy = y * y, zz = z * z;
  const xy = x * y, xz = x * z, yz = y * z, wx = w * x, wy = w * y, wz = w * z;
  out[0] = 1 - 2 * (yy + zz);
  out[1] = 2 * (xy - wz);
  out[2] = 2 * (xz + wy);
  out[3] = 2 * (xy + wz);
  out[4] = 1 - 2 * (xx + zz);
  out[5] = 2 * (yz - wx);
  out[6] = 2 * (xz - wy);
  out[7] = 2 * (yz + wx);
  out[8] = 1 - 2 * (xx + yy);
}

/** Rᵀ·v for the rotation R of the unit quaternion q ([x,y,z,w]), computed as q*·v·q. */
export function quatRotateInv(q: Readonly<Quat>, v: Vec3): Vec3 {
  const x = q[0], y = q[1], z = q[2], w = q[3];
  const ix = w * v[0] - y * v[2] + z * v[1];
  const iy = w * v[1] - z * v[0] + x * v[2];
  const iz = w * v[2] - x * v[1] + y * v[0];
  const iw = x * v[0] + y * v[1] + z * v[2];
  return [ix * w + iw * x + iy * z - iz * y, iy * w + iw * y + iz * x - ix * z, iz * w + iw * z + ix * y - iy * x];
}

/**
 * One first-order step of q̇ = ½·(ω, 0)⊗q (ω in the world frame), in place: q ← normalise(q + ½·(ω,0)⊗q·dt).
 * Returns |q + ½·(ω,0)⊗q·dt| before normalisation (its distance from 1 is the step's quaternion drift).
 */
export function quatIntegrateInto(q: Quat, w: Vec3, dt: number): number {
  // indexed reads, not array destructuring: the latter's iterators are allocated per call
  const x = q[0], y = q[1], z = q[2], qw = q[3];
  const wx = w[0], wy = w[1], wz = w[2];
  const h = 0.5 * dt;
  const nx = x + h * (wx * qw + wy * z - wz * y);
  const ny = y + h * (wy * qw + wz * x - wx * z);
  const nz = z + h * (wz * qw + wx * y - wy * x);
  const nw = qw - h * (wx * x + wy * y + wz * z);
  const n = Math.sqrt(nx * nx + ny * ny + nz * nz + nw * nw);
  q[0] = nx / n;
  q[1] = ny / n;
  q[2] = nz / n;
  q[3] = nw / n;
  return n;
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
/** out = m·v, in place (`out` may be `v`). */
export function mat3MulVecInto(m: Mat3, v: Vec3, out: Vec3): void {
  const x = v[0], y = v[1], z = v[2];
  out[0] = m[0] * x + m[1] * y + m[2] * z;
  out[1] = m[3] * x + m[4] * y + m[5] * z;
  out[2] = m[6] * x + m[7] * y + m[8] * z;
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

/** out[off..off+9] = R·M·Rᵀ (row-major), without allocating. */
export function rotateTensorInto(R: Mat3, M: Mat3, out: Float64Array, off: number): void {
  const r0 = R[0], r1 = R[1], r2 = R[2], r3 = R[3], r4 = R[4], r5 = R[5], r6 = R[6], r7 = R[7], r8 = R[8];
  const m0 = M[0], m1 = M[1], m2 = M[2], m3 = M[3], m4 = M[4], m5 = M[5], m6 = M[6], m7 = M[7], m8 = M[8];
  let a0 = r0 * m0 + r1 * m3 + r2 * m6;
  let a1 = r0 * m1 + r1 * m4 + r2 * m7;
  let a2 = r0 * m2 + r1 * m5 + r2 * m8;
  out[off] = a0 * r0 + a1 * r1 + a2 * r2;
  out[off + 1] = a0 * r3 + a1 * r4 + a2 * r5;
  out[off + 2] = a0 * r6 + a1 * r7 + a2 * r8;
  a0 = r3 * m0 + r4 * m3 + r5 * m6;
  a1 = r3 * m1 + r4 * m4 + r5 * m7;
  a2 = r3 * m2 + r4 * m5 + r5 * m8;
  out[off + 3] = a0 * r0 + a1 * r1 + a2 * r2;
  out[off + 4] = a0 * r3 + a1 * r4 + a2 * r5;
  out[off + 5] = a0 * r6 + a1 * r7 + a2 * r8;
  a0 = r6 * m0 + r7 * m3 + r8 * m6;
  a1 = r6 * m1 + r7 * m4 + r8 * m7;
  a2 = r6 * m2 + r7 * m5 + r8 * m8;
  out[off + 6] = a0 * r0 + a1 * r1 + a2 * r2;
  out[off + 7] = a0 * r3 + a1 * r4 + a2 * r5;
  out[off + 8] = a0 * r6 + a1 * r7 + a2 * r8;
}

/** True when the symmetric 3×3 matrix is (numerically) positive definite: Cholesky succeeds with pivots above 1e-12·max|diag|. */
export function isPositiveDefinite3(m: Mat3): boolean {
  const L = new Array<number>(9).fill(0);
  const maxDiag = Math.max(Math.abs(m[0]), Math.abs(m[4]), Math.abs(m[8]));
  if (!(maxDiag > 0) || !Number.isFinite(maxDiag)) return false;
  for (let j = 0; j < 3; j++) {
    let d = m[j * 3 + j];
    for (let k = 0; k < j; k++) d -= L[j * 3 + k] * L[j * 3 + k];
    if (!(d > 1e-12 * maxDiag)) return false;
    L[j * 3 + j] = Math.sqrt(d);
    for (let r = j + 1; r < 3; r++) {
      let s = m[r * 3 + j];
      for (let k = 0; k < j; k++) s -= L[r * 3 + k] * L[j * 3 + k];
      L[r * 3 + j] = s / L[j * 3 + j];
    }
  }
  return true;
}

/** A unit vector perpendicular to the unit vector `a`, and a second one completing the right-handed frame. */
export function perpendicularBasis(a: Vec3): [Vec3, Vec3] {
  const t: Vec3 = Math.abs(a[0]) < 0.57735 ? [1, 0, 0] : Math.abs(a[1]) < 0.57735 ? [0, 1, 0] : [0, 0, 1];
  const p1 = normalize(cross(a, t));
  const p2 = cross(a, p1);
  return [p1, p2];
}

/** Index of the first NaN or infinite entry, or −1. */
export function firstNonFinite(x: ArrayLike<number>): number {
  for (let i = 0; i < x.length; i++) if (!Number.isFinite(x[i])) return i;
  return -1;
}
export const isFiniteVec = (v: ArrayLike<number>): boolean => firstNonFinite(v) < 0;

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

/** World point of a body-frame point: x = p + R·r. */
export function worldPoint(p: Vec3, R: Mat3, r: Vec3): Vec3 {
  const x = r[0], y = r[1], z = r[2];
  return [p[0] + (R[0] * x + R[1] * y + R[2] * z), p[1] + (R[3] * x + R[4] * y + R[5] * z), p[2] + (R[6] * x + R[7] * y + R[8] * z)];
}
