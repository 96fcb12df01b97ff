// MuJoCo's pyramidal friction cone for soft contacts (its default `cone`; docs/formulas.md "Soft
// contacts"; MuJoCo's engine_core_constraint.c, mj_instantiateContact / mj_diagApprox /
// mj_makeImpedance). A contact with sliding friction μ is not a normal row and a Coulomb disc but
// four unilateral edge rows, one pair per tangent k of MuJoCo's contact frame:
//   J_e = J_n ± μ·J_tk,   f_e ≥ 0,   0 ≤ f_e ⊥ J_e·a + R_py·f_e − aref_e ≥ 0,
// every edge with the normal's position (aref_e = −b·v_e − k·d·r, v_e = J_e·v) and one common
// regulariser R_py = 2·μ²/impratio · (1 − d)/d · Â·(1 + μ²) (Â the translational inverse weight; the
// factor (1 + μ²) is the edge's diagApprox, 2μ²/impratio matches the elliptic cone's friction
// impedance). The contact's forces are R_n = Σ f_e, R_tk = μ·(f_{k+} − f_{k−}). With R_py > 0 the edge
// forces are unique, so a converged sweep equals MuJoCo's efc_force. The pyramid is not symmetric
// about the normal: its edges lie along MuJoCo's tangents (mju_makeFrame: t1 from the world y axis,
// or z when the normal is within 30° of y), which are carried here in the contact's own (t1, t2).
// In the velocity form (softContact.ts) an edge reads U_e + h·R_py·f_e ≥ v_e + h·aref_e.

import type { Vec3 } from '../types';
import { contactKick, contactU } from './pgsKernels';
import { applyReduced, type ReducedRows } from './contactReduce';
import type { ContactRows } from './rigid';

/** Per pyramidal contact: the 4 edges' tangent directions, targets, forces and its compliance. */
export class PyramidRows {
  /** Per contact: 1 when its friction is a pyramid. */
  readonly on: Uint8Array;
  /** Per contact, MuJoCo's first tangent in the contact's (t1, t2): (a1, a2); the second is (−a2, a1). */
  readonly dir: Float64Array;
  /** Per contact, μ and Σ_py = h·R_py. */
  readonly mu: Float64Array;
  readonly sigma: Float64Array;
  /** Per edge (4 per contact, order +m1, −m1, +m2, −m2): the target velocity and the force. */
  readonly target: Float64Array;
  readonly f: Float64Array;
  /** Per contact, the natural-map residual of its edges at the last visit (m/s). */
  readonly res: Float64Array;

  constructor(n: number) {
    this.on = new Uint8Array(n);
    this.dir = new Float64Array(2 * n);
    this.mu = new Float64Array(n);
    this.sigma = new Float64Array(n);
    this.target = new Float64Array(4 * n);
    this.f = new Float64Array(4 * n);
    this.res = new Float64Array(n);
  }

  /**
   * Contact c as a pyramid: normal n and tangents t1, t2 (right-handed (t1, t2, n)), μ > 0, the normal's
   * soft row (softRow's out: target, Σ_n of the frictionless row, friction damping 1 − h·b), the
   * tangent velocities before the step, and MuJoCo's impratio.
   */
  setup(c: number, n: Vec3, t1: Vec3, t2: Vec3, mu: number, soft: ArrayLike<number>, ut1: number, ut2: number, impratio: number): void {
    // MuJoCo's first tangent: the world y axis (z when |n_y| ≥ 0.5) made orthogonal to n
    const e: Vec3 = Math.abs(n[1]) < 0.5 ? [0, 1, 0] : [0, 0, 1];
    const en = e[0] * n[0] + e[1] * n[1] + e[2] * n[2];
    const m: Vec3 = [e[0] - en * n[0], e[1] - en * n[1], e[2] - en * n[2]];
    const len = Math.hypot(m[0], m[1], m[2]);
    const a1 = (m[0] * t1[0] + m[1] * t1[1] + m[2] * t1[2]) / len;
    const a2 = (m[0] * t2[0] + m[1] * t2[1] + m[2] * t2[2]) / len;
    this.on[c] = 1;
    this.dir[2 * c] = a1;
    this.dir[2 * c + 1] = a2;
    this.mu[c] = mu;
    this.sigma[c] = (2 * mu * mu * (1 + mu * mu) * soft[1]) / impratio;
    // edge velocities before the step: v_n ± μ·v_mk; the target v_e + h·aref_e splits the same way
    const vm1 = a1 * ut1 + a2 * ut2, vm2 = -a2 * ut1 + a1 * ut2;
    const o = 4 * c;
    this.target[o] = soft[0] + mu * soft[2] * vm1;
    this.target[o + 1] = soft[0] - mu * soft[2] * vm1;
    this.target[o + 2] = soft[0] + mu * soft[2] * vm2;
    this.target[o + 3] = soft[0] - mu * soft[2] * vm2;
  }

  /** `setup` from the contact's rows and the velocities u⁻ before the step; true (for `continue`). */
  setupRow(c: number, cr: ContactRows, soft: ArrayLike<number>, uMinus: Float64Array, impratio: number): true {
    const ct = cr.contact;
    this.setup(c, ct.normal, ct.t1, ct.t2, ct.friction, soft, contactU(cr, 1, uMinus), contactU(cr, 2, uMinus), impratio);
    return true;
  }

  /**
   * One PGS visit of contact c (rows r0..r0+2 of R) at the velocities u: `visit` at its U = J·u, its
   * forces written to R, its residual to rowRes[r0] (the other two rows 0), and the change of
   * (R_n, R_t1, R_t2) kicked into u as pgs.ts kicks a disc contact's (in the joints' reduced space
   * where the contact has one, `red`). Returns the squared residual.
   */
  visitContact(c: number, cr: ContactRows, u: Float64Array, W: Float64Array, omega: number, R: Float64Array, r0: number, rowRes: Float64Array, red: ReducedRows | undefined, minv: Float64Array, h: number): number {
    for (let k = 0; k < 3; k++) visitU[k] = contactU(cr, k, u);
    const dR = visitD;
    const sq = this.visit(c, W, 6 * c, visitU, omega, dR);
    rowRes[r0] = Math.sqrt(sq);
    rowRes[r0 + 1] = rowRes[r0 + 2] = 0;
    this.forces(c, R, r0);
    if (red) applyReduced(red, dR[0], dR[1], dR[2], u, R);
    else for (let k = 0; k < 3; k++) if (dR[k] !== 0) contactKick(cr, k, u, minv, h * dR[k]);
    return sq;
  }

  /** Warm-start forces, 3 per contact, with each pyramid's made consistent with edge forces (`warm`). */
  warmForces(src: ArrayLike<number>): Float64Array {
    const out = Float64Array.from({ length: 3 * this.on.length }, (_, i) => src[i] ?? 0);
    for (let c = 0; c < this.on.length; c++) if (this.on[c]) this.warm(c, out, 3 * c);
    return out;
  }

  /** Edge k's tangent direction in (t1, t2), times its sign and μ. */
  private edge(c: number, k: number, out: Float64Array): void {
    const a1 = this.dir[2 * c], a2 = this.dir[2 * c + 1];
    const s = (k & 1 ? -1 : 1) * this.mu[c];
    out[0] = k < 2 ? s * a1 : -s * a2;
    out[1] = k < 2 ? s * a2 : s * a1;
  }

  /**
   * Warm start: edge forces for the contact forces (R_n, R_t1, R_t2) of a previous step, each pair
   * sharing half the normal force, clamped at 0; the forces they make are written back to `R` at r0.
   */
  warm(c: number, R: Float64Array, r0: number): void {
    const Rn = Math.max(0, R[r0]), mu = this.mu[c];
    const a1 = this.dir[2 * c], a2 = this.dir[2 * c + 1];
    const m1 = a1 * R[r0 + 1] + a2 * R[r0 + 2], m2 = -a2 * R[r0 + 1] + a1 * R[r0 + 2];
    const o = 4 * c;
    this.f[o] = Math.max(0, Rn / 4 + m1 / (2 * mu));
    this.f[o + 1] = Math.max(0, Rn / 4 - m1 / (2 * mu));
    this.f[o + 2] = Math.max(0, Rn / 4 + m2 / (2 * mu));
    this.f[o + 3] = Math.max(0, Rn / 4 - m2 / (2 * mu));
    this.forces(c, R, r0);
  }

  /** (R_n, R_t1, R_t2) of the contact's edge forces, into R at r0. */
  forces(c: number, R: Float64Array, r0: number): void {
    const o = 4 * c, mu = this.mu[c], f = this.f;
    const m1 = mu * (f[o] - f[o + 1]), m2 = mu * (f[o + 2] - f[o + 3]);
    const a1 = this.dir[2 * c], a2 = this.dir[2 * c + 1];
    R[r0] = f[o] + f[o + 1] + f[o + 2] + f[o + 3];
    R[r0 + 1] = a1 * m1 - a2 * m2;
    R[r0 + 2] = a2 * m1 + a1 * m2;
  }

  /**
   * One Gauss–Seidel pass over the contact's four edges, given its rows' velocities U = (U_n, U_t1,
   * U_t2) = J·u and its 3×3 block W (upper triangle nn, n1, n2, 11, 12, 22 at `w`, no compliance).
   * Writes the change of (R_n, R_t1, R_t2) into `dR` and returns the squared residual of the natural
   * map, (W_ee + Σ)·|proj₊(f_e − r_e/(W_ee + Σ)) − f_e| per edge at its visit.
   */
  visit(c: number, W: Float64Array, w: number, U: Float64Array, omega: number, dR: Float64Array): number {
    const sig = this.sigma[c], o = 4 * c;
    const wnn = W[w], wn1 = W[w + 1], wn2 = W[w + 2], w11 = W[w + 3], w12 = W[w + 4], w22 = W[w + 5];
    const g = edgeScratch;
    dR[0] = dR[1] = dR[2] = 0;
    let sq = 0;
    for (let k = 0; k < 4; k++) {
      this.edge(c, k, g);
      const g1 = g[0], g2 = g[1];
      // W·(1, g1, g2): the rows' velocity change per unit of this edge's force
      const cn = wnn + wn1 * g1 + wn2 * g2;
      const c1 = wn1 + w11 * g1 + w12 * g2;
      const c2 = wn2 + w12 * g1 + w22 * g2;
      const d = cn + g1 * c1 + g2 * c2 + sig;
      if (!(d > 0)) continue;
      const r = U[0] + g1 * U[1] + g2 * U[2] + sig * this.f[o + k] - this.target[o + k];
      const full = Math.max(0, this.f[o + k] - r / d);
      sq += (d * (full - this.f[o + k])) ** 2;
      const fNew = omega === 1 ? full : Math.max(0, this.f[o + k] - (omega * r) / d);
      const df = fNew - this.f[o + k];
      if (df === 0) continue;
      this.f[o + k] = fNew;
      U[0] += cn * df;
      U[1] += c1 * df;
      U[2] += c2 * df;
      dR[0] += df;
      dR[1] += g1 * df;
      dR[2] += g2 * df;
    }
    this.res[c] = Math.sqrt(sq);
    return sq;
  }

  /** max over the contact's edges of |min(U_e + Σ·f_e − t_e, f_e)|-type complementarity, in m/s (U = J·u of n, t1, t2). */
  complementarity(c: number, W: Float64Array, w: number, U: ArrayLike<number>): number {
    const o = 4 * c, g = edgeScratch;
    let worst = 0;
    for (let k = 0; k < 4; k++) {
      this.edge(c, k, g);
      const r = U[0] + g[0] * U[1] + g[1] * U[2] + this.sigma[c] * this.f[o + k] - this.target[o + k];
      const wee = W[w] + 2 * (W[w + 1] * g[0] + W[w + 2] * g[1]) + W[w + 3] * g[0] * g[0] + 2 * W[w + 4] * g[0] * g[1] + W[w + 5] * g[1] * g[1];
      worst = Math.max(worst, Math.abs(Math.min(r, wee * this.f[o + k])));
    }
    return worst;
  }
}

const edgeScratch = new Float64Array(2);
const visitU = new Float64Array(3);
const visitD = new Float64Array(3);
