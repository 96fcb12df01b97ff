// One contact's visit in projected Gauss–Seidel's sweep (pgs.ts): the normal row projected on
// R_n ≥ 0, then the friction pair on the disc ‖R_t‖ ≤ μ·R_n (or the contact's 3×3 block at once
// when it sticks, or a pyramid's edges), and u kicked by the change.
//
// This is the innermost loop of a contact scene (a pile visits each of its hundreds of contacts up
// to 100 times a step), so it is a plain function over one workspace object rather than a closure
// and it never returns a double: V8 boxes a float64 returned from a call it does not inline into a
// fresh heap number, which on the 100-box pile was most of the 20 MB a step allocated. The row
// velocities go through the module buffer `rowU3` instead, and the squared residual is added to
// `acc[0]` in visit order, so that the sweep's sum is the same number it was as a return value.
import { applyReduced, type ReducedRows } from './contactReduce';
import { disc } from './pgsKernels';
import { blockStick } from './pgsVariants';
import type { PyramidRows } from './pyramid';
import type { ContactRows } from './rigid';

/** What a contact visit reads and writes; one per solve, its arrays indexed as pgs.ts lays them out. */
export interface ContactSweep {
  crs: readonly ContactRows[];
  /** Number of bilateral rows: contact c owns rows nbr + 3c … nbr + 3c + 2. */
  nbr: number;
  /** Row diagonal of W, per contact the upper triangle of W_cc + Σ (6), per contact Σ_n and Σ_t. */
  Wd: Float64Array;
  Wb: Float64Array;
  Sg: Float64Array;
  target: Float64Array;
  R: Float64Array;
  rowRes: Float64Array;
  u: Float64Array;
  minv: Float64Array;
  h: number;
  omega: number;
  /** A sticking contact solved as its 3×3 block. */
  block: boolean;
  pyr?: PyramidRows;
  /** Per contact, its rows reduced against the island's joint block (contactReduce.ts). */
  reduced: Array<ReducedRows | undefined>;
  /** acc[0]: the sweep's running sum of squared visit residuals. */
  acc: Float64Array;
}

const stick: [number, number, number] = [0, 0, 0];
/** The contact's rows (n, t1, t2) times u, written by `contactU3`. */
const rowU3 = new Float64Array(3);

/** The contact's change of forces (n, t1, t2) that `kick3` applies. */
const dR3 = new Float64Array(3);

/** u += h·M⁻¹·(row k)ᵀ·dR3[k] for the rows k whose change is not 0, each over end A then end B as `contactKick`. */
function kick3(cr: ContactRows, w: ContactSweep): void {
  const { u, minv, h } = w;
  for (let k = 0; k < 3; k++) {
    const d = dR3[k];
    if (d === 0) continue;
    const hdR = h * d, o = 6 * k;
    // pgsKernels' `kick` written out: a double passed to a call V8 does not inline is boxed on the heap
    for (let e = 0; e < 2; e++) {
      const slot = e === 0 ? cr.slotA : cr.slotB;
      if (slot < 0) continue;
      const J = e === 0 ? cr.JA : cr.JB;
      const m0 = slot * 10, u0 = slot * 6;
      const im = minv[m0] * hdR;
      u[u0] += im * J[o];
      u[u0 + 1] += im * J[o + 1];
      u[u0 + 2] += im * J[o + 2];
      const a0 = J[o + 3] * hdR, a1 = J[o + 4] * hdR, a2 = J[o + 5] * hdR;
      u[u0 + 3] += minv[m0 + 1] * a0 + minv[m0 + 2] * a1 + minv[m0 + 3] * a2;
      u[u0 + 4] += minv[m0 + 4] * a0 + minv[m0 + 5] * a1 + minv[m0 + 6] * a2;
      u[u0 + 5] += minv[m0 + 7] * a0 + minv[m0 + 8] * a1 + minv[m0 + 9] * a2;
    }
  }
}

/** The disc step of `discStep` written out (a call would box its four doubles): proj_{‖·‖ ≤ lim}(R_t − s·U_t) into `disc`. */
function discInline(R: Float64Array, r0: number, tu: Float64Array): void {
  const s = tu[0], lim = tu[3];
  let t1 = R[r0 + 1] - s * tu[1];
  let t2 = R[r0 + 2] - s * tu[2];
  const nt = Math.sqrt(t1 * t1 + t2 * t2);
  if (nt > lim) {
    const k = nt > 0 ? lim / nt : 0;
    t1 *= k;
    t2 *= k;
  }
  disc[0] = t1;
  disc[1] = t2;
}
/** The arguments of `discInline`: s, U_t1, U_t2, the limit. */
const discArgs = new Float64Array(4);

/** rowU3[k] = row k of the contact times u, summed end A then end B as `contactU`. */
function contactU3(cr: ContactRows, u: Float64Array): void {
  const a = cr.slotA, b = cr.slotB, JA = cr.JA, JB = cr.JB;
  const ua = 6 * a, ub = 6 * b;
  for (let k = 0; k < 3; k++) {
    const o = 6 * k;
    let s = 0;
    if (a >= 0) s += JA[o] * u[ua] + JA[o + 1] * u[ua + 1] + JA[o + 2] * u[ua + 2] + JA[o + 3] * u[ua + 3] + JA[o + 4] * u[ua + 4] + JA[o + 5] * u[ua + 5];
    if (b >= 0) s += JB[o] * u[ub] + JB[o + 1] * u[ub + 1] + JB[o + 2] * u[ub + 2] + JB[o + 3] * u[ub + 3] + JB[o + 4] * u[ub + 4] + JB[o + 5] * u[ub + 5];
    rowU3[k] = s;
  }
}

/** Visit contact c once: project its forces, kick u, record its rows' residuals, add their squares to acc[0]. */
export function visitContact(w: ContactSweep, c: number): void {
  const { nbr, Wd, R, rowRes, u } = w;
  const r0 = nbr + 3 * c;
  if (!(Wd[r0] > 0)) return;
  const cr = w.crs[c];
  if (w.pyr?.on[c]) {
    w.acc[0] += w.pyr.visitContact(c, cr, u, w.Wb, w.omega, R, r0, rowRes, w.reduced[c], w.minv, w.h);
    return;
  }
  const { Wb, Sg, target, omega } = w;
  // W_cc + Σ of the contact (Σ = 0 for a hard contact): its normal diagonal and tangent block
  const o = 6 * c, wn = Wb[o], w11 = Wb[o + 3], w12 = Wb[o + 4], w22 = Wb[o + 5];
  const dw = 0.5 * (w11 - w22);
  const lmax = 0.5 * (w11 + w22) + Math.sqrt(dw * dw + w12 * w12);
  const rho = lmax > 0 ? 1 / lmax : 0;
  const mu = cr.contact.friction;
  const sn = Sg[2 * c], st = Sg[2 * c + 1];
  contactU3(cr, u);
  const un = rowU3[0] + sn * R[r0] - target[r0];
  let ut1 = rowU3[1] + st * R[r0 + 1] - target[r0 + 1], ut2 = rowU3[2] + st * R[r0 + 2] - target[r0 + 2];
  // the visit's residual: the natural map of the contact at the visit's start, row by row
  // (normal: W_nn·|proj₊(R_n − r_n/W_nn) − R_n|; friction: λ_max·|proj_disc(R_t − ρ·U_t) − R_t|)
  rowRes[r0] = wn * Math.abs(Math.max(0, R[r0] - un / wn) - R[r0]);
  discArgs[0] = rho;
  discArgs[1] = ut1;
  discArgs[2] = ut2;
  discArgs[3] = mu * R[r0];
  discInline(R, r0, discArgs);
  rowRes[r0 + 1] = lmax * Math.abs(disc[0] - R[r0 + 1]);
  rowRes[r0 + 2] = lmax * Math.abs(disc[1] - R[r0 + 2]);
  const res2 = rowRes[r0] ** 2 + rowRes[r0 + 1] ** 2 + rowRes[r0 + 2] ** 2;
  if (res2 === 0) return;
  let Rn: number, t1: number, t2: number;
  if (w.block && blockStick(Wb, 6 * c, un, ut1, ut2, R, r0, mu, omega, stick)) {
    // the contact's own 3×3 system solved at once: it sticks and presses (block Gauss–Seidel)
    Rn = stick[0];
    t1 = stick[1];
    t2 = stick[2];
  } else {
    // normal, then friction R_t − ρ·U_t with the scalar ρ = 1/λ_max(W_tt) projected on the disc
    // ‖R_t‖ ≤ μ·R_n (a scalar ρ keeps the fixed point maximally dissipative: U_t ∥ −R_t when slipping)
    Rn = Math.max(0, R[r0] - (omega * un) / wn);
    const dn = Rn - R[r0];
    ut1 += Wb[o + 1] * dn;
    ut2 += Wb[o + 2] * dn;
    if (omega !== 1 || dn !== 0) {
      discArgs[0] = omega * rho;
      discArgs[1] = ut1;
      discArgs[2] = ut2;
      discArgs[3] = mu * Rn;
      discInline(R, r0, discArgs);
    }
    t1 = disc[0];
    t2 = disc[1];
  }
  const dn = Rn - R[r0], d1 = t1 - R[r0 + 1], d2 = t2 - R[r0 + 2];
  R[r0] = Rn;
  R[r0 + 1] = t1;
  R[r0 + 2] = t2;
  const red = w.reduced[c];
  if (red) applyReduced(red, dn, d1, d2, u, R);
  else {
    dR3[0] = dn;
    dR3[1] = d1;
    dR3[2] = d2;
    kick3(cr, w);
  }
  w.acc[0] += res2;
}

/**
 * The typed arrays a PGS solve needs only while it runs (forces, W's diagonal and contact blocks,
 * residuals, scratch), kept from one solve to the next: a simulation's steps solve problems of about
 * the same size, so after the first few steps a solve allocates none of them. Each slot is handed
 * out zeroed, as a fresh array would be; none of them escapes into the solve's report.
 */
export class PgsWorkspace {
  private readonly bufs: Float64Array[] = [];
  /** Typed arrays this workspace has allocated so far (a solve that fits in the previous ones adds none). */
  allocations = 0;

  /** Slot i as a zeroed array of length n, over the slot's buffer, which grows (doubling) when n exceeds it. */
  take(i: number, n: number): Float64Array {
    let b = this.bufs[i];
    if (!b || b.length < n) {
      b = this.bufs[i] = new Float64Array(Math.max(n, 2 * (b?.length ?? 0)));
      this.allocations++;
    }
    const v = b.subarray(0, n);
    v.fill(0);
    return v;
  }
}

const workspaces = new WeakMap<object, PgsWorkspace>();
/** The workspace of the solves on one world (a simulation keeps its world for the whole run). */
export function workspaceOf(world: object): PgsWorkspace {
  let ws = workspaces.get(world);
  if (!ws) workspaces.set(world, (ws = new PgsWorkspace()));
  return ws;
}

/**
 * The momentum step of accelerated Gauss–Seidel on contact c: R ← proj(R + β·(R − R_prev)), the
 * normal on R_n ≥ 0 and the friction on the disc of the new R_n, and u kicked by the change. R_prev
 * holds the contact's three forces before the sweep (at 3c). Contacts of a pyramid keep the plain sweep.
 */
export function extrapolateContact(w: ContactSweep, c: number, beta: number, Rprev: Float64Array): void {
  const { nbr, R } = w;
  const r0 = nbr + 3 * c, p = 3 * c;
  for (let k = 0; k < 3; k++) step3[k] = beta * (R[r0 + k] - Rprev[p + k]);
  pushContact(w, c, step3, 0);
}

/** The momentum step of `extrapolateContact`, β·(R − R_prev) for (n, t1, t2). */
const step3 = new Float64Array(3);

/** Σ over the contacts of ‖R_c − R_prev,c‖², the sweep's change (R_prev at 3c). */
export function sweepChange(w: ContactSweep, contacts: readonly number[], Rprev: Float64Array): number {
  const { R, nbr } = w;
  let g = 0;
  for (const c of contacts) {
    const o = 3 * c, r0 = nbr + o;
    const d0 = R[r0] - Rprev[o], d1 = R[r0 + 1] - Rprev[o + 1], d2 = R[r0 + 2] - Rprev[o + 2];
    g += d0 * d0 + d1 * d1 + d2 * d2;
  }
  return g;
}

/**
 * NNCG's step after a sweep (R the sweep's forces, R_prev those before it, P the direction, at 3c):
 * β > 0: R ← proj(R + β·P) contact by contact and P ← β·P + (R_sweep − R_prev); β = 0: P ← R − R_prev
 * (the first sweep's change); β < 0: a restart, P ← 0. R_prev is then set to R, the next sweep's start
 * (one pass over the contacts instead of a copy of its own).
 */
export function conjugateStep(w: ContactSweep, contacts: readonly number[], Rprev: Float64Array, P: Float64Array, beta: number): void {
  const { R, nbr } = w;
  for (const c of contacts) {
    const o = 3 * c, r0 = nbr + o;
    const d0 = R[r0] - Rprev[o], d1 = R[r0 + 1] - Rprev[o + 1], d2 = R[r0 + 2] - Rprev[o + 2];
    if (beta < 0) P[o] = P[o + 1] = P[o + 2] = 0;
    else if (beta > 0) {
      P[o] *= beta;
      P[o + 1] *= beta;
      P[o + 2] *= beta;
      pushContact(w, c, P, o);
      P[o] += d0;
      P[o + 1] += d1;
      P[o + 2] += d2;
    } else {
      P[o] = d0;
      P[o + 1] = d1;
      P[o + 2] = d2;
    }
    Rprev[o] = R[r0];
    Rprev[o + 1] = R[r0 + 1];
    Rprev[o + 2] = R[r0 + 2];
  }
}

/** R ← proj(R + D) on contact c (D at p: n, t1, t2), the normal on R_n ≥ 0 and the friction on the disc, u kicked by the change. */
function pushContact(w: ContactSweep, c: number, D: Float64Array, p: number): void {
  const { nbr, Wd, R } = w;
  const r0 = nbr + 3 * c;
  if (!(Wd[r0] > 0) || w.pyr?.on[c]) return;
  const Rn = Math.max(0, R[r0] + D[p]);
  let t1 = R[r0 + 1] + D[p + 1];
  let t2 = R[r0 + 2] + D[p + 2];
  const lim = w.crs[c].contact.friction * Rn;
  const nt = Math.sqrt(t1 * t1 + t2 * t2);
  if (nt > lim) {
    const k = nt > 0 ? lim / nt : 0;
    t1 *= k;
    t2 *= k;
  }
  const dn = Rn - R[r0], d1 = t1 - R[r0 + 1], d2 = t2 - R[r0 + 2];
  if (dn === 0 && d1 === 0 && d2 === 0) return;
  R[r0] = Rn;
  R[r0 + 1] = t1;
  R[r0 + 2] = t2;
  const red = w.reduced[c];
  if (red) applyReduced(red, dn, d1, d2, w.u, R);
  else {
    dR3[0] = dn;
    dR3[1] = d1;
    dR3[2] = d2;
    kick3(w.crs[c], w);
  }
}
