// Redundant face manifolds in projected Gauss–Seidel (pgs.ts): four hard contacts of one shape pair
// with one normal at coplanar points have normal rows that are linearly dependent, Σ c_i·J_n,i = 0
// (c the affine dependence of the points). Forces moved along c change no velocity. When the targets
// t_i of the four are not those of one rigid motion (ρ = Σ c_i·(U_i − t_i) ≠ 0: a face at rest sits on
// the kink of the target at gap 0, and box-on-box faces differ more), no forces with all four pressed
// meet them; the complementarity problem's answer leaves one point unloaded, and Gauss–Seidel reaches it
// only by creeping along c at a speed set by ρ (thousands of sweeps: docs/formulas.md "Contacts").
// The pivot here takes that step at once: along ∓c until the first force reaches 0, the one point
// whose row then opens (U_k − t_k = ρ/c_k ≥ 0), as one step of a pivoting method. The friction forces
// move along c too where the tangent rows are dependent in the same way, so the dropped point keeps
// none. The step changes no velocity, and it is cut short (or not taken) where a friction force
// would leave its disc: clipping it would change velocities, and on a stack of boxes with friction
// that cost more accuracy in the sweeps that followed than the pivot gained.
// The same faces' friction forces are made minimum-norm before the sweeps (`minimumNormFriction`): the
// part of them that balances itself within the face is statically indeterminate and left as is by
// converged sweeps, so it is dropped from the warm start.
import type { ContactSweep } from './pgsContact';
import { contactKick, contactU } from './pgsKernels';

/** Four contacts of one face and the dependence c of their rows. */
export interface FaceManifold {
  contacts: [number, number, number, number];
  c: Float64Array;
  /** The tangent rows are dependent along c as well (the four share their tangents); always so for a face with friction. */
  tangents: boolean;
}

/** Σ_i c_i·(row k of contact i), over the 12 entries of ends A and B, relative to the rows' size. */
function dependence(w: ContactSweep, m: readonly number[], c: Float64Array, k: number): number {
  let worst = 0, size = 0;
  for (let e = 0; e < 2; e++) {
    for (let j = 0; j < 6; j++) {
      let s = 0;
      for (let i = 0; i < 4; i++) {
        const cr = w.crs[m[i]];
        const v = (e === 0 ? cr.JA : cr.JB)[6 * k + j];
        s += c[i] * v;
        size = Math.max(size, Math.abs(c[i] * v));
      }
      worst = Math.max(worst, Math.abs(s));
    }
  }
  return size > 0 ? worst / size : 0;
}

/**
 * The face manifolds among an island's contacts: groups of exactly four hard contacts (no compliance,
 * not stepped in the joints' reduced space, not a pyramid's) of one shape pair with one normal, whose
 * normal rows are dependent (checked on J to 1e-9).
 */
export function faceManifolds(w: ContactSweep, contacts: readonly number[]): FaceManifold[] {
  const out: FaceManifold[] = [];
  const byPair = new Map<string, number[]>();
  for (const c of contacts) {
    const r0 = w.nbr + 3 * c;
    if (!(w.Wd[r0] > 0) || w.Sg[2 * c] !== 0 || w.Sg[2 * c + 1] !== 0 || w.reduced[c] || w.pyr?.on[c]) continue;
    const k = w.crs[c].contact;
    const key = `${k.bodyA}:${k.shapeA}|${k.bodyB}:${k.shapeB}`;
    const l = byPair.get(key);
    if (l) l.push(c);
    else byPair.set(key, [c]);
  }
  for (const m of byPair.values()) {
    if (m.length !== 4) continue;
    const n0 = w.crs[m[0]].contact.normal;
    if (!m.every((c) => {
      const n = w.crs[c].contact.normal;
      return n[0] * n0[0] + n[1] * n0[1] + n[2] * n0[2] > 1 - 1e-12;
    })) continue;
    // the affine dependence of the four points: the null vector of [1; x; y; z] (4×4, rank 3 when
    // coplanar), a column of its adjugate
    const P = m.map((c) => w.crs[c].contact.point);
    const M = [0, 1, 2, 3].map((i) => [1, P[i][0], P[i][1], P[i][2]]);
    const c = new Float64Array(4);
    let best = 0;
    for (let j = 0; j < 4; j++) {
      // column j of adj(Mᵀ): c_i = (−1)^{i+j}·det(M without row i and column j)
      for (let i = 0; i < 4; i++) col4[i] = ((i + j) % 2 ? -1 : 1) * det3(M, i, j);
      const nrm = Math.hypot(col4[0], col4[1], col4[2], col4[3]);
      if (nrm > best) {
        best = nrm;
        for (let i = 0; i < 4; i++) c[i] = col4[i] / nrm;
      }
    }
    if (!(best > 0) || dependence(w, m, c, 0) > 1e-9) continue;
    const tangents = dependence(w, m, c, 1) <= 1e-9 && dependence(w, m, c, 2) <= 1e-9;
    // with friction the step must carry the friction forces along c too, or it would change velocities
    if (!tangents && m.some((x) => w.crs[x].contact.friction > 0)) continue;
    out.push({ contacts: [m[0], m[1], m[2], m[3]], c, tangents });
  }
  return out;
}

/** A column of the adjugate in `faceManifolds` (filled and read within one face). */
const col4 = new Float64Array(4);
/** The indices 0…3 without i. */
const OTHERS = [
  [1, 2, 3],
  [0, 2, 3],
  [0, 1, 3],
  [0, 1, 2],
] as const;

/** det of the 3×3 minor of the 4×4 M without row i and column j (cofactor expansion along its first row). */
function det3(M: number[][], i: number, j: number): number {
  const r = OTHERS[i], q = OTHERS[j];
  const a0 = M[r[0]], a1 = M[r[1]], a2 = M[r[2]];
  const q0 = q[0], q1 = q[1], q2 = q[2];
  return a0[q0] * (a1[q1] * a2[q2] - a1[q2] * a2[q1]) - a0[q1] * (a1[q0] * a2[q2] - a1[q2] * a2[q0]) + a0[q2] * (a1[q0] * a2[q1] - a1[q1] * a2[q0]);
}

/** The pivot's new forces, 3 per point of the face. */
const next = new Float64Array(12);

/**
 * For each manifold whose four points all press and whose inconsistency alone, |ρ|/‖c‖ (the least
 * residual any forces with all four pressed can reach, m/s), exceeds `floor`: the pivot described
 * above. Returns how many manifolds pivoted.
 */
export function pivotManifolds(w: ContactSweep, manifolds: readonly FaceManifold[], floor: number): number {
  const { R, nbr, target, u } = w;
  let pivots = 0;
  for (const f of manifolds) {
    const m = f.contacts, c = f.c;
    let rho = 0, pressed = true;
    for (let i = 0; i < 4; i++) {
      const r0 = nbr + 3 * m[i];
      if (!(R[r0] > 0)) pressed = false;
      rho += c[i] * (contactU(w.crs[m[i]], 0, u) - target[r0]);
    }
    // ‖c‖ = 1
    if (!pressed || !(Math.abs(rho) > floor)) continue;
    // along d = −sign(ρ)·c the forces with d_i < 0 fall; the first to reach 0 is the point that opens
    const sg = rho > 0 ? -1 : 1;
    let step = Infinity, k = -1;
    for (let i = 0; i < 4; i++) {
      const d = sg * c[i];
      if (d < 0 && R[nbr + 3 * m[i]] / -d < step) {
        step = R[nbr + 3 * m[i]] / -d;
        k = i;
      }
    }
    if (k < 0) continue;
    const rk = nbr + 3 * m[k];
    const b1 = f.tangents ? -R[rk + 1] / c[k] : 0, b2 = f.tangents ? -R[rk + 2] / c[k] : 0;
    // the new forces at a fraction θ of the step: the whole step when every friction force stays in
    // its disc, else the largest of θ = 1/2, 1/4, … (1/1024) that keeps them there, so that the pivot
    // changes no velocity (what is left of the creep the next sweeps' pivots take on)
    let theta = 1;
    for (; theta >= 1 / 1024; theta /= 2) {
      let inside = true;
      for (let i = 0; i < 4; i++) {
        const r0 = nbr + 3 * m[i];
        const n = theta === 1 && i === k ? 0 : Math.max(0, R[r0] + theta * step * sg * c[i]);
        next[3 * i] = n;
        next[3 * i + 1] = theta === 1 && i === k ? 0 : R[r0 + 1] + theta * b1 * c[i];
        next[3 * i + 2] = theta === 1 && i === k ? 0 : R[r0 + 2] + theta * b2 * c[i];
        const lim = w.crs[m[i]].contact.friction * n;
        if (next[3 * i + 1] ** 2 + next[3 * i + 2] ** 2 > lim * lim * (1 + 1e-12)) inside = false;
      }
      if (inside) break;
    }
    if (theta < 1 / 1024) continue;
    for (let i = 0; i < 4; i++) {
      const r0 = nbr + 3 * m[i], cr = w.crs[m[i]];
      // along c the kicks cancel to round-off; u is kicked all the same, so that it stays u_free + h·M⁻¹·Jᵀ·R
      for (let j = 0; j < 3; j++) {
        contactKick(cr, j, u, w.minv, w.h * (next[3 * i + j] - R[r0 + j]));
        R[r0 + j] = next[3 * i + j];
      }
    }
    pivots++;
  }
  return pivots;
}

/**
 * Directions of the tangent rows' column space smaller than this (relative) are taken as absent: a face
 * tilted by θ against its normal adds two of size ≈ θ, and forces along them move velocities by only
 * θ·ΔR·h/m, which the sweeps that follow the cleanup correct.
 */
const FLAT = 1e-3;

/** Orthonormal basis of the face's tangent rows' column space (8-vectors, up to 12 of them) and the new tangent forces. */
const basis = new Float64Array(12 * 8);
const col = new Float64Array(8);
const Rt = new Float64Array(8);

/**
 * The warm-started friction forces of a sticking face, made minimum-norm before the sweeps: the four
 * points' eight tangent forces replaced by their projection on the column space of the face's tangent
 * rows (directions below FLAT dropped), which keeps J_tᵀ·R_t (what the bodies feel) and drops the
 * self-equilibrated part. That part is statically indeterminate: the sweeps leave whatever the
 * transients put there (on the velocity box stack, frictions of 1e-4 to 3e-2 N between resting boxes,
 * in balance), and once the rows are consistent they converge without moving it. Done before the
 * sweeps, so that what velocity the dropped tilt directions carried is corrected by them and the
 * reported residual is that of the forces returned. Only faces whose four points press and stick
 * (each friction strictly inside its disc) and stay inside their discs after the projection change.
 * Returns how many faces changed.
 */
export function minimumNormFriction(w: ContactSweep, manifolds: readonly FaceManifold[]): number {
  const { R, nbr, u } = w;
  let changed = 0;
  for (const f of manifolds) {
    if (!f.tangents) continue;
    const m = f.contacts;
    let stick = true;
    for (let i = 0; i < 4 && stick; i++) {
      const r0 = nbr + 3 * m[i], lim = w.crs[m[i]].contact.friction * R[r0];
      if (!(R[r0] > 0) || !(R[r0 + 1] ** 2 + R[r0 + 2] ** 2 < lim * lim)) stick = false;
    }
    if (!stick) continue;
    // Gram–Schmidt over the columns of the 8 tangent rows (entries of the ends that are bodies)
    const cr0 = w.crs[m[0]];
    let rank = 0, scale = 0;
    for (let e = 0; e < 2; e++) {
      if ((e === 0 ? cr0.slotA : cr0.slotB) < 0) continue;
      for (let j = 0; j < 6; j++) {
        for (let i = 0; i < 4; i++) {
          const J = e === 0 ? w.crs[m[i]].JA : w.crs[m[i]].JB;
          col[2 * i] = J[6 + j];
          col[2 * i + 1] = J[12 + j];
        }
        let n0 = 0;
        for (let k = 0; k < 8; k++) n0 += col[k] * col[k];
        scale = Math.max(scale, n0);
        for (let pass = 0; pass < 2; pass++) {
          for (let q = 0; q < rank; q++) {
            let d = 0;
            for (let k = 0; k < 8; k++) d += basis[8 * q + k] * col[k];
            for (let k = 0; k < 8; k++) col[k] -= d * basis[8 * q + k];
          }
        }
        let n = 0;
        for (let k = 0; k < 8; k++) n += col[k] * col[k];
        if (!(n > FLAT * FLAT * scale) || rank === 8) continue;
        const s = 1 / Math.sqrt(n);
        for (let k = 0; k < 8; k++) basis[8 * rank + k] = col[k] * s;
        rank++;
      }
    }
    if (rank === 0 || rank === 8) continue;
    Rt.fill(0);
    for (let q = 0; q < rank; q++) {
      let d = 0;
      for (let i = 0; i < 4; i++) d += basis[8 * q + 2 * i] * R[nbr + 3 * m[i] + 1] + basis[8 * q + 2 * i + 1] * R[nbr + 3 * m[i] + 2];
      for (let k = 0; k < 8; k++) Rt[k] += d * basis[8 * q + k];
    }
    let inside = true;
    for (let i = 0; i < 4; i++) {
      const lim = w.crs[m[i]].contact.friction * R[nbr + 3 * m[i]];
      if (!(Rt[2 * i] ** 2 + Rt[2 * i + 1] ** 2 < lim * lim)) inside = false;
    }
    if (!inside) continue;
    for (let i = 0; i < 4; i++) {
      const r0 = nbr + 3 * m[i], cr = w.crs[m[i]];
      // the kicks cancel to round-off (the change is in the null space of J_tᵀ); u is kicked all the
      // same, so that it stays u_free + h·M⁻¹·Jᵀ·R
      for (let j = 1; j < 3; j++) {
        contactKick(cr, j, u, w.minv, w.h * (Rt[2 * i + j - 1] - R[r0 + j]));
        R[r0 + j] = Rt[2 * i + j - 1];
      }
    }
    changed++;
  }
  return changed;
}
