// The seed's solver, followed literally and densely (AerisLab `assemble_system` + `solve_kkt` +
// `HybridSolver.step`, see /work/shared/seeds/aerislab-*.md). It is the benchmark's baseline and
// the reference the engine is checked against: nothing here exploits sparsity.
//
//   M⁻¹  (6N×6N, dense, zeros off the diagonal blocks), block i = [I/m, R·I_body⁻¹·Rᵀ]
//   F    = [f + m·g, τ − ω×(I_w·ω)]                     (I_w = R·I_body·Rᵀ)
//   J    (m×6N, dense), scattered from each constraint's local Jacobian
//   rhs  = −(1+β)·J·v − α·C
//   a0   = M⁻¹F;  A = J·(M⁻¹·Jᵀ);  b = rhs − J·a0;  λ = A⁻¹b (LU, partial pivoting ≈ LAPACK gesv)
//   a    = a0 + M⁻¹·(Jᵀλ)
//   v += a·dt;  p += v·dt;  q = normalize(q + ½(ω,0)⊗q·dt)       (semi-implicit Euler)
//
// Constraints (d = x_A − x_B, x = p + R·anchor, r = R·anchor):
//   ball:     C = d (3 rows),          J_A = [I, −[r_A]×],       J_B = [−I, [r_B]×]
//   distance: C = ½(dᵀd − L²) (1 row), J_A = [dᵀ, (r_A×d)ᵀ],     J_B = [−dᵀ, −(r_B×d)ᵀ]
// A constraint end may be the world (body index −1): no columns, and its anchor is a world point.

export type V3 = [number, number, number];
/** Quaternion [x, y, z, w], scalar last (AerisLab's convention). */
export type Q4 = [number, number, number, number];
/** Row-major 3×3. */
export type M3 = [number, number, number, number, number, number, number, number, number];

export interface DenseBodyInit {
  name?: string;
  mass: number;
  /** Body-frame inertia: 3 numbers (diagonal) or a row-major 3×3. */
  inertia: number[];
  position: V3;
  orientation?: Q4;
  velocity?: V3;
  angularVelocity?: V3;
  /** Applied force and torque (world frame), constant over the run. */
  force?: V3;
  torque?: V3;
  /** Whether gravity acts on the body (default true). */
  gravity?: boolean;
}

export interface DenseBody {
  name: string;
  mass: number;
  inertiaBody: M3;
  inertiaBodyInv: M3;
  p: V3;
  q: Q4;
  v: V3;
  w: V3;
  force: V3;
  torque: V3;
  gravity: boolean;
}

export interface DenseConstraint {
  type: 'ball' | 'distance';
  /** Body indices; −1 = the world (anchor then given in world coordinates). */
  bodyA: number;
  bodyB: number;
  anchorA: V3;
  anchorB: V3;
  /** distance only. */
  length?: number;
}

export interface DenseWorld {
  bodies: DenseBody[];
  constraints: DenseConstraint[];
  gravity: V3;
  alpha: number;
  beta: number;
}

export interface DenseSystem {
  nv: number;
  m: number;
  /** nv×nv row-major. */
  Minv: Float64Array;
  /** m×nv row-major. */
  J: Float64Array;
  F: Float64Array;
  v: Float64Array;
  rhs: Float64Array;
  C: Float64Array;
}

export interface KktSolution {
  a0: Float64Array;
  /** m×m row-major. */
  A: Float64Array;
  b: Float64Array;
  lambda: Float64Array;
  a: Float64Array;
}

// ---------------------------------------------------------------------------------------------
// small 3-vector / 3×3 helpers

export function inv3(m: M3): M3 {
  const [a, b, c, d, e, f, g, h, i] = m;
  const A = e * i - f * h, B = -(d * i - f * g), Cc = d * h - e * g;
  const det = a * A + b * B + c * Cc;
  if (!(Math.abs(det) > 0)) throw new Error('singular inertia');
  const s = 1 / det;
  return [
    A * s, -(b * i - c * h) * s, (b * f - c * e) * s,
    B * s, (a * i - c * g) * s, -(a * f - c * d) * s,
    Cc * s, -(a * h - b * g) * s, (a * e - b * d) * s,
  ];
}

/** Rotation matrix (row-major) of the unit quaternion [x, y, z, w]. */
export function quatToMat(q: Q4): M3 {
  const [x, y, z, w] = q;
  return [
    1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w),
    2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w),
    2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y),
  ];
}

const mulMv = (m: M3, v: V3): V3 => [
  m[0] * v[0] + m[1] * v[1] + m[2] * v[2],
  m[3] * v[0] + m[4] * v[1] + m[5] * v[2],
  m[6] * v[0] + m[7] * v[1] + m[8] * v[2],
];
const cross = (a: V3, b: V3): V3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

/** R·X·Rᵀ. */
function rotateTensor(R: M3, X: M3): M3 {
  const T = new Array<number>(9).fill(0);
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) {
    let s = 0;
    for (let k = 0; k < 3; k++) s += R[i * 3 + k] * X[k * 3 + j];
    T[i * 3 + j] = s;
  }
  const out = new Array<number>(9).fill(0);
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) {
    let s = 0;
    for (let k = 0; k < 3; k++) s += T[i * 3 + k] * R[j * 3 + k];
    out[i * 3 + j] = s;
  }
  return out as M3;
}

// ---------------------------------------------------------------------------------------------
// world construction

export function makeBody(init: DenseBodyInit): DenseBody {
  const I = init.inertia;
  const inertiaBody: M3 = I.length === 3 ? [I[0], 0, 0, 0, I[1], 0, 0, 0, I[2]] : (I.slice(0, 9) as M3);
  return {
    name: init.name ?? '',
    mass: init.mass,
    inertiaBody,
    inertiaBodyInv: inv3(inertiaBody),
    p: [...init.position],
    q: init.orientation ? [...init.orientation] : [0, 0, 0, 1],
    v: init.velocity ? [...init.velocity] : [0, 0, 0],
    w: init.angularVelocity ? [...init.angularVelocity] : [0, 0, 0],
    force: init.force ? [...init.force] : [0, 0, 0],
    torque: init.torque ? [...init.torque] : [0, 0, 0],
    gravity: init.gravity ?? true,
  };
}

// ---------------------------------------------------------------------------------------------
// assemble_system

const rowsOf = (c: DenseConstraint): number => (c.type === 'ball' ? 3 : 1);

/** World point of an anchor and the lever arm r = R·anchor (r = 0 for the world). */
function anchorPoint(world: DenseWorld, body: number, anchor: V3): { x: V3; r: V3; v: V3; w: V3 } {
  if (body < 0) return { x: [...anchor], r: [0, 0, 0], v: [0, 0, 0], w: [0, 0, 0] };
  const b = world.bodies[body];
  const r = mulMv(quatToMat(b.q), anchor);
  return { x: [b.p[0] + r[0], b.p[1] + r[1], b.p[2] + r[2]], r, v: b.v, w: b.w };
}

export function assembleSystem(world: DenseWorld): DenseSystem {
  const { bodies, constraints, gravity, alpha, beta } = world;
  const nb = bodies.length;
  const nv = 6 * nb;
  const Minv = new Float64Array(nv * nv);
  const F = new Float64Array(nv);
  const v = new Float64Array(nv);

  for (let i = 0; i < nb; i++) {
    const b = bodies[i];
    const R = quatToMat(b.q);
    const Iw = rotateTensor(R, b.inertiaBody);
    const IwInv = rotateTensor(R, b.inertiaBodyInv);
    const o = 6 * i;
    const im = 1 / b.mass;
    for (let k = 0; k < 3; k++) Minv[(o + k) * nv + o + k] = im;
    for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) Minv[(o + 3 + r) * nv + o + 3 + c] = IwInv[r * 3 + c];
    const tauGyro = cross(b.w, mulMv(Iw, b.w));
    for (let k = 0; k < 3; k++) {
      F[o + k] = b.force[k] + (b.gravity ? b.mass * gravity[k] : 0);
      F[o + 3 + k] = b.torque[k] - tauGyro[k];
      v[o + k] = b.v[k];
      v[o + 3 + k] = b.w[k];
    }
  }

  let m = 0;
  for (const c of constraints) m += rowsOf(c);
  const J = new Float64Array(m * nv);
  const C = new Float64Array(m);
  const rhs = new Float64Array(m);

  // Local Jacobian rows (6 columns per end), scattered into the global J.
  const jA = new Float64Array(18), jB = new Float64Array(18);
  let row = 0;
  for (const c of constraints) {
    const r = rowsOf(c);
    const A = anchorPoint(world, c.bodyA, c.anchorA);
    const B = anchorPoint(world, c.bodyB, c.anchorB);
    const d: V3 = [A.x[0] - B.x[0], A.x[1] - B.x[1], A.x[2] - B.x[2]];
    jA.fill(0);
    jB.fill(0);
    if (c.type === 'ball') {
      for (let i = 0; i < 3; i++) {
        C[row + i] = d[i];
        const e: V3 = [0, 0, 0];
        e[i] = 1;
        // row i of [I, −[r_A]×] = [e_i, r_A×e_i];  row i of [−I, [r_B]×] = [−e_i, −(r_B×e_i)]
        const ra = cross(A.r, e), rb = cross(B.r, e);
        for (let k = 0; k < 3; k++) {
          jA[i * 6 + k] = e[k];
          jA[i * 6 + 3 + k] = ra[k];
          jB[i * 6 + k] = -e[k];
          jB[i * 6 + 3 + k] = -rb[k];
        }
      }
    } else {
      const L = c.length ?? 0;
      C[row] = 0.5 * (d[0] * d[0] + d[1] * d[1] + d[2] * d[2] - L * L);
      const ra = cross(A.r, d), rb = cross(B.r, d);
      for (let k = 0; k < 3; k++) {
        jA[k] = d[k];
        jA[3 + k] = ra[k];
        jB[k] = -d[k];
        jB[3 + k] = -rb[k];
      }
    }
    for (let i = 0; i < r; i++) {
      const Jrow = (row + i) * nv;
      if (c.bodyA >= 0) for (let k = 0; k < 6; k++) J[Jrow + 6 * c.bodyA + k] += jA[i * 6 + k];
      if (c.bodyB >= 0) for (let k = 0; k < 6; k++) J[Jrow + 6 * c.bodyB + k] += jB[i * 6 + k];
      // Jv from the local Jacobian and the two ends' velocities (as the seed does)
      let Jv = 0;
      for (let k = 0; k < 3; k++) {
        Jv += jA[i * 6 + k] * A.v[k] + jA[i * 6 + 3 + k] * A.w[k];
        Jv += jB[i * 6 + k] * B.v[k] + jB[i * 6 + 3 + k] * B.w[k];
      }
      rhs[row + i] = -(1 + beta) * Jv - alpha * C[row + i];
    }
    row += r;
  }
  return { nv, m, Minv, J, F, v, rhs, C };
}

// ---------------------------------------------------------------------------------------------
// dense linear algebra (plain Float64Array loops, no BLAS, no sparsity shortcuts)

/** y = M·x, M rows×cols row-major. */
export function matVec(M: Float64Array, rows: number, cols: number, x: Float64Array): Float64Array {
  const y = new Float64Array(rows);
  for (let i = 0; i < rows; i++) {
    let s = 0;
    const o = i * cols;
    for (let k = 0; k < cols; k++) s += M[o + k] * x[k];
    y[i] = s;
  }
  return y;
}

/** y = Mᵀ·x, M rows×cols row-major. */
export function matTVec(M: Float64Array, rows: number, cols: number, x: Float64Array): Float64Array {
  const y = new Float64Array(cols);
  for (let i = 0; i < rows; i++) {
    const xi = x[i];
    const o = i * cols;
    for (let k = 0; k < cols; k++) y[k] += M[o + k] * xi;
  }
  return y;
}

/**
 * X = P·Qᵀ (P: r×k, Q: c×k, both row-major) → r×c: every entry a full-length dot product (zeros
 * included), computed 2 rows × 2 columns at a time (four accumulators in registers).
 */
export function matMulABt(P: Float64Array, r: number, k: number, Q: Float64Array, c: number): Float64Array {
  const X = new Float64Array(r * c);
  const dot = (pi: number, qj: number) => {
    let s = 0;
    for (let t = 0; t < k; t++) s += P[pi + t] * Q[qj + t];
    return s;
  };
  let i = 0;
  for (; i + 1 < r; i += 2) {
    const p0 = i * k, p1 = p0 + k;
    let j = 0;
    for (; j + 1 < c; j += 2) {
      const q0 = j * k, q1 = q0 + k;
      let s00 = 0, s01 = 0, s10 = 0, s11 = 0;
      for (let t = 0; t < k; t++) {
        const a0 = P[p0 + t], a1 = P[p1 + t], b0 = Q[q0 + t], b1 = Q[q1 + t];
        s00 += a0 * b0;
        s01 += a0 * b1;
        s10 += a1 * b0;
        s11 += a1 * b1;
      }
      X[i * c + j] = s00;
      X[i * c + j + 1] = s01;
      X[(i + 1) * c + j] = s10;
      X[(i + 1) * c + j + 1] = s11;
    }
    for (; j < c; j++) {
      X[i * c + j] = dot(p0, j * k);
      X[(i + 1) * c + j] = dot(p1, j * k);
    }
  }
  for (; i < r; i++) for (let j = 0; j < c; j++) X[i * c + j] = dot(i * k, j * k);
  return X;
}

/** Transpose of M (rows×cols, row-major) → cols×rows. */
export function transpose(M: Float64Array, rows: number, cols: number): Float64Array {
  const T = new Float64Array(rows * cols);
  for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) T[j * rows + i] = M[i * cols + j];
  return T;
}

/** X = P·Q (P: r×k, Q: k×c, row-major) → r×c, as P·(Qᵀ)ᵀ with the dot-product kernel. */
export function matMul(P: Float64Array, r: number, k: number, Q: Float64Array, c: number): Float64Array {
  return matMulABt(P, r, k, transpose(Q, k, c), c);
}

/**
 * Solve A·x = b by LU with partial pivoting (what np.linalg.solve / LAPACK gesv do). A (n×n,
 * row-major) is not modified. Throws on an exactly singular pivot, as numpy raises LinAlgError.
 */
export function luSolve(A: Float64Array, n: number, b: Float64Array): Float64Array {
  const LU = Float64Array.from(A);
  const x = Float64Array.from(b);
  for (let k = 0; k < n; k++) {
    let p = k;
    let best = Math.abs(LU[k * n + k]);
    for (let i = k + 1; i < n; i++) {
      const v = Math.abs(LU[i * n + k]);
      if (v > best) {
        best = v;
        p = i;
      }
    }
    if (best === 0) throw new Error('Singular matrix');
    if (p !== k) {
      for (let j = 0; j < n; j++) {
        const t = LU[k * n + j];
        LU[k * n + j] = LU[p * n + j];
        LU[p * n + j] = t;
      }
      const t = x[k];
      x[k] = x[p];
      x[p] = t;
    }
    const pivot = LU[k * n + k];
    for (let i = k + 1; i < n; i++) {
      const f = LU[i * n + k] / pivot;
      if (f === 0) continue;
      LU[i * n + k] = f;
      const oi = i * n, ok = k * n;
      for (let j = k + 1; j < n; j++) LU[oi + j] -= f * LU[ok + j];
      x[i] -= f * x[k];
    }
  }
  for (let i = n - 1; i >= 0; i--) {
    let s = x[i];
    for (let j = i + 1; j < n; j++) s -= LU[i * n + j] * x[j];
    x[i] = s / LU[i * n + i];
  }
  return x;
}

// ---------------------------------------------------------------------------------------------
// solve_kkt

export function solveKkt(sys: DenseSystem): KktSolution {
  const { nv, m, Minv, J, F, rhs } = sys;
  const a0 = matVec(Minv, nv, nv, F); // a0 = M⁻¹F
  const MinvJt = matMulABt(Minv, nv, nv, J, m); // M⁻¹·Jᵀ  (nv×m)
  const A = matMul(J, m, nv, MinvJt, m); // A = J·(M⁻¹·Jᵀ)  (m×m)
  const Ja0 = matVec(J, m, nv, a0);
  const b = new Float64Array(m);
  for (let i = 0; i < m; i++) b[i] = rhs[i] - Ja0[i];
  const lambda = m > 0 ? luSolve(A, m, b) : new Float64Array(0);
  const JtL = matTVec(J, m, nv, lambda);
  const corr = matVec(Minv, nv, nv, JtL);
  const a = new Float64Array(nv);
  for (let i = 0; i < nv; i++) a[i] = a0[i] + corr[i];
  return { a0, A, b, lambda, a };
}

// ---------------------------------------------------------------------------------------------
// HybridSolver.step: semi-implicit Euler

export function integrate(world: DenseWorld, a: Float64Array, dt: number): void {
  world.bodies.forEach((b, i) => {
    const o = 6 * i;
    for (let k = 0; k < 3; k++) {
      b.v[k] += a[o + k] * dt;
      b.w[k] += a[o + 3 + k] * dt;
    }
    for (let k = 0; k < 3; k++) b.p[k] += b.v[k] * dt;
    // q̇ = ½ (ω, 0) ⊗ q  with q = [x, y, z, w]
    const [qx, qy, qz, qw] = b.q;
    const [wx, wy, wz] = b.w;
    const dx = 0.5 * (qw * wx + (wy * qz - wz * qy));
    const dy = 0.5 * (qw * wy + (wz * qx - wx * qz));
    const dz = 0.5 * (qw * wz + (wx * qy - wy * qx));
    const dw = 0.5 * -(wx * qx + wy * qy + wz * qz);
    const nx = qx + dx * dt, ny = qy + dy * dt, nz = qz + dz * dt, nw = qw + dw * dt;
    const n = Math.hypot(nx, ny, nz, nw);
    b.q = [nx / n, ny / n, nz / n, nw / n];
  });
}

/** One full step: assemble + solve + integrate. Returns the step-start system and its solution. */
export function denseStep(world: DenseWorld, dt: number): { sys: DenseSystem; sol: KktSolution } {
  const sys = assembleSystem(world);
  const sol = solveKkt(sys);
  integrate(world, sol.a, dt);
  return { sys, sol };
}

/** Multiply-adds of one dense step (the two products dominate; LU ≈ ⅔m³ flops ≈ ⅓m³ MACs). */
export function denseStepMacs(nv: number, m: number): number {
  return nv * nv * m + m * nv * m + (m * m * m) / 3 + 4 * nv * nv;
}
