// Axion's nonlinear system h(x⁺) = 0 for one time step (seed: axion-nonlinear-system.md), its
// residual and its analytic Jacobian ∂h/∂x. Unknowns, in this order (N = 13·nb + m_b + 3·n_c):
//   x = [q (7 per free body: p, Q), u (6 per free body: v, ω), λ_b (m_b), λ_n (n_c), λ_f (2·n_c: t1, t2)]
// Residual blocks, in this order:
//   dyn (6 nb)  M̃(u − ũ) − J_bᵀλ_b − J_nᵀλ_n − J_fᵀλ_f,   ũ = u⁻ + h·M̃⁻¹·F(q⁻, u⁻)
//   kin (7 nb)  q − q⁻ − h·G(q)·u        (G: p ← v, Q ← ½(ω, 0)⊗Q)
//   b   (m_b)   c_b(q) + Σλ_b                       (position level), or
//               J_b·u + Υ·c_b(q⁻)/h + Σλ_b            (velocity level)
//   n   (n_c)   φ(c_n(q), β̂·λ_n), β̂ = β·h·w_n        (position level), or
//               φ(J_n·(u + e·u⁻) + Υ·c_n(q⁻)/h, β̂·λ_n), β̂ = β·w_n   (velocity level)
//   f   (2 n_c) J_f·u + W·λ_f  (W: Axion's fixed-point compliance, frozen per Newton iteration)
// M̃, J_b, J_n, J_f are evaluated at q⁻ and held over the step; c_b and c_n are evaluated at q
// (the iterate) with Q normalised, so they have exact gradients ∂c/∂p = J_v, ∂c/∂Q = 4·J_ω·G_Q(q̂)ᵀ/|Q|.
import { applyMinv, assemble, type Assembly, type World } from '../assembly/assemble';
import type { Contact } from '../collision/contacts';
import type { ContactLevel, FbSettings, NewtonSettings } from '../scene/contactSpec';
import { assemblerFor, type PatternAssembler } from '../linalg/triplets';
import type { CsrMatrix } from '../linalg/contracts';
import type { BodyState } from '../model/body';
import { makeEval, type ConstraintEval, type Pose } from '../model/constraint';
import { WORLD_POSE } from '../assembly/assemble';
import { mat3Inverse, quatToMat3, rotateTensorInto } from '../core/math';
import { fischerBurmeister, frictionW, frictionWDerivatives } from './ncp';
import { contactGap, contactRowDot, contactRows, dQuatInto, gqInto, poseFrom, slotsOf, statePose, type ContactRows } from './rigid';

export interface NonlinearSettings {
  newton: NewtonSettings;
  fb: FbSettings;
  /** Added to the λ diagonal of the Newton matrix (×h on position-level rows); not to the residual. Axion: 1e-6. */
  regularization: number;
  /** Level of the contact rows h_n. */
  contactLevel: ContactLevel;
  /** Level of the bilateral rows h_b. */
  jointLevel: ContactLevel;
  /** Σ = compliance·I of the bilateral rows. */
  compliance: number;
  /** Υ of the velocity-level rows (the scene's `erp`). */
  erp: number;
  /** Velocity-level contacts: restitution applies when approaching faster than this (m/s). */
  restitutionThreshold: number;
  /**
   * 'fixed-point' (Axion): W is evaluated at the start of each Newton iteration and held fixed
   * (∂h_f/∂x = [J_f | W]); 'exact': the Newton matrix also carries ∂W/∂(u, λ_n, λ_f).
   */
  frictionJacobian: 'fixed-point' | 'exact';
  /**
   * Linear solve of each Newton step: 'schur-cr' reduces it to the contact space and falls back to the
   * sparse LU when the Krylov iteration does not converge; 'sparse-lu' factorises every time; 'auto'
   * (default) is 'schur-cr' from SCHUR_MIN_UNKNOWNS unknowns on, 'sparse-lu' below (where a factorisation
   * costs about a millisecond and beats the Krylov iteration on resting stacks).
   */
  linearSolver?: 'auto' | 'schur-cr' | 'sparse-lu';
  /**
   * How far the reduced solve of each Newton step runs: 'tight' (default) to round-off, so the iterates
   * follow the LU's; 'forcing' (inexact Newton, Axion's loose inner solves) to a forcing term η_k of ‖h‖
   * with at most a few Krylov iterations. The outer tolerance on ‖h‖ is the same for both; 'forcing'
   * ends at another root of the same tolerance (1e-8 apart on a landing pile) and converges on fewer
   * steps of a 100-box pile, hence not the default.
   */
  linearTolerance?: 'tight' | 'forcing';
}

export type BlockName = 'dyn' | 'kin' | 'b' | 'n' | 'f';
export type ColumnBlockName = 'q' | 'u' | 'λb' | 'λn' | 'λf';
export interface BlockRange<T extends string = string> { name: T; start: number; size: number }
export type BlockNorms = Record<BlockName, number>;

/** W of each contact's friction rows, frozen for one Newton iteration (`active` 0: h_f = r·λ_f). */
export interface FrozenFriction { W: Float64Array; active: Uint8Array }

export class NonlinearSystem {
  readonly nb: number;
  readonly mb: number;
  readonly nc: number;
  readonly N: number;
  /** Column offsets. */
  readonly cq = 0;
  readonly cu: number;
  readonly clb: number;
  readonly cln: number;
  readonly clf: number;
  /** Row offsets (residual order). */
  readonly rdyn = 0;
  readonly rkin: number;
  readonly rb: number;
  readonly rn: number;
  readonly rf: number;
  readonly rowBlocks: BlockRange<BlockName>[];
  readonly colBlocks: BlockRange<ColumnBlockName>[];
  readonly asm: Assembly;
  readonly crs: ContactRows[];
  /** q⁻ (7 per slot), u⁻ and ũ (6 per slot). */
  readonly qMinus: Float64Array;
  readonly uMinus: Float64Array;
  readonly uTilde: Float64Array;
  /** World inertia at q⁻ per slot (9 numbers, row-major) and mass. */
  private readonly inertia: Float64Array;
  private readonly mass: Float64Array;
  /** Per contact: β̂, effective restitution, J_n·u⁻, tangential inverse mass r. */
  readonly betaN: Float64Array;
  private readonly eEff: Float64Array;
  private readonly unMinus: Float64Array;
  readonly rT: Float64Array;
  private readonly slots: Int32Array;
  /**
   * Rows without a free body (both ends world or fixed): nothing can satisfy them, so they read
   * h = λ (their impulse is zero) instead of the constraint or contact law.
   */
  readonly deadB: Uint8Array;
  readonly deadN: Uint8Array;
  private readonly evals: ConstraintEval[];
  private readonly fb = new Float64Array(3);
  private readonly grad = new Float64Array(14);
  private readonly wd = new Float64Array(4);
  /** The Newton matrix's pattern is the same at every iterate (and usually every step): assembled once, then refilled. */
  private readonly assembler: PatternAssembler;

  constructor(
    readonly world: World,
    readonly states: readonly BodyState[],
    readonly contacts: readonly Contact[],
    readonly settings: NonlinearSettings,
    readonly h: number,
  ) {
    const nb = (this.nb = world.colBodies.length);
    const mb = (this.mb = world.nRows);
    const nc = (this.nc = contacts.length);
    this.cu = 7 * nb;
    this.clb = 13 * nb;
    this.cln = this.clb + mb;
    this.clf = this.cln + nc;
    this.N = this.clf + 2 * nc;
    this.assembler = assemblerFor(world, this.N, this.N);
    this.rkin = 6 * nb;
    this.rb = 13 * nb;
    this.rn = this.rb + mb;
    this.rf = this.rn + nc;
    this.rowBlocks = [
      { name: 'dyn', start: 0, size: 6 * nb },
      { name: 'kin', start: this.rkin, size: 7 * nb },
      { name: 'b', start: this.rb, size: mb },
      { name: 'n', start: this.rn, size: nc },
      { name: 'f', start: this.rf, size: 2 * nc },
    ];
    this.colBlocks = [
      { name: 'q', start: 0, size: 7 * nb },
      { name: 'u', start: this.cu, size: 6 * nb },
      { name: 'λb', start: this.clb, size: mb },
      { name: 'λn', start: this.cln, size: nc },
      { name: 'λf', start: this.clf, size: 2 * nc },
    ];
    this.slots = slotsOf(world);
    const asm = (this.asm = assemble(world, states as BodyState[]));
    this.qMinus = new Float64Array(7 * nb);
    this.uMinus = Float64Array.from(asm.v);
    this.inertia = new Float64Array(9 * nb);
    this.mass = new Float64Array(nb);
    world.colBodies.forEach((bi, k) => {
      const s = states[bi];
      this.qMinus.set(s.p, 7 * k);
      this.qMinus.set(s.q, 7 * k + 3);
      this.mass[k] = world.bodies[bi].spec.mass;
      rotateTensorInto(quatToMat3(s.q), world.bodies[bi].inertia, this.inertia, 9 * k);
      // joint drives put their implicit damping into the assembly's M⁻¹ (model/forces.ts): M̃ is its inverse
      if (world.forces) {
        const o = 10 * k + 1, m = asm.minvCompact;
        const inv = mat3Inverse([m[o], m[o + 1], m[o + 2], m[o + 3], m[o + 4], m[o + 5], m[o + 6], m[o + 7], m[o + 8]]);
        if (inv) this.inertia.set(inv, 9 * k);
      }
    });
    const a0 = applyMinv(world, asm.minvCompact, asm.F);
    this.uTilde = new Float64Array(6 * nb);
    for (let i = 0; i < 6 * nb; i++) this.uTilde[i] = this.uMinus[i] + h * a0[i];
    this.crs = contactRows(world, states, contacts, asm.minvCompact);
    this.betaN = new Float64Array(nc);
    this.eEff = new Float64Array(nc);
    this.unMinus = new Float64Array(nc);
    this.rT = new Float64Array(nc);
    this.deadN = new Uint8Array(nc);
    this.deadB = new Uint8Array(mb);
    const position = settings.contactLevel === 'position';
    this.crs.forEach((cr, c) => {
      this.betaN[c] = settings.fb.beta * (position ? h : 1) * cr.w[0];
      this.unMinus[c] = contactRowDot(cr, 0, this.uMinus);
      this.eEff[c] = this.unMinus[c] < -settings.restitutionThreshold ? cr.contact.restitution : 0;
      this.rT[c] = 0.5 * (cr.w[1] + cr.w[2]) || 1;
      this.deadN[c] = cr.slotA < 0 && cr.slotB < 0 ? 1 : 0;
    });
    for (let r = 0; r < mb; r++) this.deadB[r] = asm.J.rowPtr[r] === asm.J.rowPtr[r + 1] ? 1 : 0;
    this.evals = world.constraints.map((m, c) => makeEval(m.rows, world.endX[c].length));
  }

  /** The initial iterate: u = ũ, q = q⁻ + h·G(q⁻)·ũ, λ = λ₀ (default 0). */
  initialGuess(lambdaB?: ArrayLike<number>): Float64Array {
    const x = new Float64Array(this.N);
    const G = new Float64Array(12);
    for (let k = 0; k < this.nb; k++) {
      const o = 7 * k, u = 6 * k;
      for (let d = 0; d < 3; d++) x[o + d] = this.qMinus[o + d] + this.h * this.uTilde[u + d];
      gqInto(this.qMinus, o + 3, G);
      for (let r = 0; r < 4; r++) {
        let s = 0;
        for (let c = 0; c < 3; c++) s += G[r * 3 + c] * this.uTilde[u + 3 + c];
        x[o + 3 + r] = this.qMinus[o + 3 + r] + this.h * s;
      }
    }
    x.set(this.uTilde, this.cu);
    if (lambdaB) for (let i = 0; i < this.mb; i++) x[this.clb + i] = lambdaB[i] ?? 0;
    return x;
  }

  private endPose(x: ArrayLike<number>, body: number): Pose {
    if (body < 0) return WORLD_POSE;
    const k = this.slots[body];
    return k < 0 ? statePose(this.states, body) : poseFrom(x, 7 * k, x, 7 * k + 3);
  }

  /** The poses of a constraint's extra ends (a coupler's further bodies); undefined when it has none. */
  private extraPoses(x: ArrayLike<number>, ends: Int32Array): Pose[] | undefined {
    return ends.length ? Array.from(ends, (body) => this.endPose(x, body)) : undefined;
  }

  /** Axion's fixed-point W at the iterate x (per contact), and whether the friction rows are active. */
  frozenFriction(x: ArrayLike<number>): FrozenFriction {
    const nc = this.nc;
    const W = new Float64Array(nc);
    const active = new Uint8Array(nc);
    let budgetMax = 0;
    for (let c = 0; c < nc; c++) budgetMax = Math.max(budgetMax, this.crs[c].contact.friction * x[this.cln + c]);
    for (let c = 0; c < nc; c++) {
      const cr = this.crs[c];
      const budget = cr.contact.friction * x[this.cln + c];
      if (!(budget > 1e-10 * budgetMax) || !(x[this.cln + c] > 0)) continue;
      active[c] = 1;
      const s = Math.hypot(contactRowDot(cr, 1, x, this.cu), contactRowDot(cr, 2, x, this.cu));
      const lf = Math.hypot(x[this.clf + 2 * c], x[this.clf + 2 * c + 1]);
      W[c] = frictionW(s, lf, budget, this.rT[c]);
    }
    return { W, active };
  }

  /** Gap c_n of contact c at the iterate x. */
  gapAt(x: ArrayLike<number>, c: number): number {
    return contactGap(this.crs[c], x, this.states);
  }

  /** h(x) with the friction compliance `fr` held fixed. */
  residual(x: ArrayLike<number>, fr: FrozenFriction, out = new Float64Array(this.N)): Float64Array {
    const { nb, h, cu, clb, cln, clf, rkin, rb, rn, rf, settings } = this;
    const J = this.asm.J;
    // dyn: M̃(u − ũ)
    for (let k = 0; k < nb; k++) {
      const u0 = cu + 6 * k, t0 = 6 * k, m = this.mass[k], I = this.inertia, i0 = 9 * k;
      for (let d = 0; d < 3; d++) out[6 * k + d] = m * (x[u0 + d] - this.uTilde[t0 + d]);
      const a = x[u0 + 3] - this.uTilde[t0 + 3], b = x[u0 + 4] - this.uTilde[t0 + 4], c = x[u0 + 5] - this.uTilde[t0 + 5];
      out[6 * k + 3] = I[i0] * a + I[i0 + 1] * b + I[i0 + 2] * c;
      out[6 * k + 4] = I[i0 + 3] * a + I[i0 + 4] * b + I[i0 + 5] * c;
      out[6 * k + 5] = I[i0 + 6] * a + I[i0 + 7] * b + I[i0 + 8] * c;
    }
    // dyn: − J_bᵀλ_b (J_b columns are the dyn rows)
    for (let r = 0; r < this.mb; r++) {
      const l = x[clb + r];
      if (l === 0) continue;
      for (let p = J.rowPtr[r]; p < J.rowPtr[r + 1]; p++) out[J.colIdx[p]] -= J.values[p] * l;
    }
    // dyn: − J_nᵀλ_n − J_fᵀλ_f
    this.crs.forEach((cr, c) => {
      const l = [x[cln + c], x[clf + 2 * c], x[clf + 2 * c + 1]];
      for (const [Jc, slot] of [[cr.JA, cr.slotA], [cr.JB, cr.slotB]] as const) {
        if (slot < 0) continue;
        for (let k = 0; k < 3; k++) for (let j = 0; j < 6; j++) out[6 * slot + j] -= Jc[k * 6 + j] * l[k];
      }
    });
    // kin
    const G = new Float64Array(12);
    for (let k = 0; k < nb; k++) {
      const o = 7 * k, u0 = cu + 6 * k, r0 = rkin + 7 * k;
      for (let d = 0; d < 3; d++) out[r0 + d] = x[o + d] - this.qMinus[o + d] - h * x[u0 + d];
      gqInto(x, o + 3, G);
      for (let r = 0; r < 4; r++) {
        const s = G[r * 3] * x[u0 + 3] + G[r * 3 + 1] * x[u0 + 4] + G[r * 3 + 2] * x[u0 + 5];
        out[r0 + 3 + r] = x[o + 3 + r] - this.qMinus[o + 3 + r] - h * s;
      }
    }
    // b
    const Sigma = settings.compliance;
    if (settings.jointLevel === 'position') {
      const w = this.world;
      for (let c = 0; c < w.constraints.length; c++) {
        const ev = this.evals[c];
        w.constraints[c].evaluate(this.endPose(x, w.endA[c]), this.endPose(x, w.endB[c]), ev, this.extraPoses(x, w.endX[c]));
        for (let r = 0; r < w.constraints[c].rows; r++) {
          const row = w.rowStart[c] + r;
          out[rb + row] = this.deadB[row] ? x[clb + row] : ev.C[r] + Sigma * x[clb + row];
        }
      }
    } else {
      for (let r = 0; r < this.mb; r++) {
        let s = 0;
        for (let p = J.rowPtr[r]; p < J.rowPtr[r + 1]; p++) s += J.values[p] * x[cu + J.colIdx[p]];
        out[rb + r] = this.deadB[r] ? x[clb + r] : s + (settings.erp * this.asm.C[r]) / h + Sigma * x[clb + r];
      }
    }
    // n
    const { alpha } = settings.fb;
    for (let c = 0; c < this.nc; c++) {
      if (this.deadN[c]) {
        out[rn + c] = x[cln + c];
        continue;
      }
      fischerBurmeister(this.contactArg(x, c), this.betaN[c] * x[cln + c], alpha, 1, this.fb);
      out[rn + c] = this.fb[0];
    }
    // f
    for (let c = 0; c < this.nc; c++) {
      const cr = this.crs[c];
      for (let k = 0; k < 2; k++) {
        const l = x[clf + 2 * c + k];
        out[rf + 2 * c + k] = fr.active[c] ? contactRowDot(cr, 1 + k, x, cu) + fr.W[c] * l : this.rT[c] * l;
      }
    }
    return out;
  }

  /** First argument of the contact's NCP function: c_n(q) or the velocity target. */
  private contactArg(x: ArrayLike<number>, c: number, grad?: Float64Array): number {
    const cr = this.crs[c];
    if (this.settings.contactLevel === 'position') return contactGap(cr, x, this.states, grad);
    const { cu, eEff } = this;
    const un = contactRowDot(cr, 0, x, cu) + eEff[c] * this.unMinus[c];
    return un + (this.settings.erp * cr.contact.gap) / this.h;
  }

  /**
   * The Newton matrix ∂h/∂x at x (friction frozen), plus `reg` on the λ diagonal:
   * h·reg on position-level rows (b, n), reg on velocity-level rows (b, n, f).
   */
  jacobian(x: ArrayLike<number>, fr: FrozenFriction, reg: number): CsrMatrix {
    const { nb, h, cu, clb, cln, clf, rkin, rb, rn, settings } = this;
    const B = this.assembler.begin();
    const J = this.asm.J;
    for (let k = 0; k < nb; k++) {
      // dyn: ∂/∂u = M̃
      for (let d = 0; d < 3; d++) B.add(6 * k + d, cu + 6 * k + d, this.mass[k]);
      for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) B.add(6 * k + 3 + i, cu + 6 * k + 3 + j, this.inertia[9 * k + 3 * i + j]);
      // kin: ∂/∂p = I, ∂/∂v = −h·I
      const o = 7 * k, r0 = rkin + 7 * k, u0 = cu + 6 * k;
      for (let d = 0; d < 3; d++) {
        B.add(r0 + d, o + d, 1);
        B.add(r0 + d, u0 + d, -h);
      }
      // kin: ∂/∂Q = I − (h/2)·Ω(ω), ∂/∂ω = −h·G_Q(Q)
      const wx = x[u0 + 3], wy = x[u0 + 4], wz = x[u0 + 5], s = 0.5 * h;
      const Om = [0, -wz, wy, wx, wz, 0, -wx, wy, -wy, wx, 0, wz, -wx, -wy, -wz, 0];
      for (let i = 0; i < 4; i++) for (let j = 0; j < 4; j++) B.add(r0 + 3 + i, o + 3 + j, (i === j ? 1 : 0) - s * Om[4 * i + j]);
      const G = new Float64Array(12);
      gqInto(x, o + 3, G);
      for (let i = 0; i < 4; i++) for (let j = 0; j < 3; j++) B.add(r0 + 3 + i, u0 + 3 + j, -h * G[3 * i + j]);
    }
    // dyn: −J_bᵀ ; b rows
    for (let r = 0; r < this.mb; r++)
      for (let p = J.rowPtr[r]; p < J.rowPtr[r + 1]; p++) B.add(J.colIdx[p], clb + r, -J.values[p]);
    const Sigma = settings.compliance;
    const posB = settings.jointLevel === 'position';
    if (posB) {
      const w = this.world;
      const dq = new Float64Array(4);
      for (let c = 0; c < w.constraints.length; c++) {
        const ev = this.evals[c];
        w.constraints[c].evaluate(this.endPose(x, w.endA[c]), this.endPose(x, w.endB[c]), ev, this.extraPoses(x, w.endX[c]));
        const ends: [number, Float64Array][] = [[w.endA[c], ev.JA], [w.endB[c], ev.JB]];
        w.endX[c].forEach((body, e) => ends.push([body, ev.JX[e]]));
        for (const [body, Jb] of ends) {
          const k = body < 0 ? -1 : this.slots[body];
          if (k < 0) continue;
          for (let r = 0; r < w.constraints[c].rows; r++) {
            const row = rb + w.rowStart[c] + r;
            for (let d = 0; d < 3; d++) B.add(row, 7 * k + d, Jb[6 * r + d]);
            dQuatInto(Jb[6 * r + 3], Jb[6 * r + 4], Jb[6 * r + 5], x, 7 * k + 3, dq, 0);
            for (let d = 0; d < 4; d++) B.add(row, 7 * k + 3 + d, dq[d]);
          }
        }
      }
    } else {
      for (let r = 0; r < this.mb; r++)
        for (let p = J.rowPtr[r]; p < J.rowPtr[r + 1]; p++) B.add(rb + r, cu + J.colIdx[p], J.values[p]);
    }
    for (let r = 0; r < this.mb; r++) B.add(rb + r, clb + r, this.deadB[r] ? 1 : Sigma + (posB ? h : 1) * reg);
    // contacts
    const posN = settings.contactLevel === 'position';
    const { alpha } = settings.fb;
    for (let c = 0; c < this.nc; c++) {
      const cr = this.crs[c];
      for (const [Jc, slot] of [[cr.JA, cr.slotA], [cr.JB, cr.slotB]] as const) {
        if (slot < 0) continue;
        for (let k = 0; k < 3; k++) {
          const col = k === 0 ? cln + c : clf + 2 * c + k - 1;
          for (let j = 0; j < 6; j++) B.add(6 * slot + j, col, -Jc[k * 6 + j]);
        }
      }
      if (this.deadN[c]) {
        B.add(rn + c, cln + c, 1);
        this.frictionRows(B, x, fr, c, reg);
        continue;
      }
      const a = this.contactArg(x, c, this.grad);
      fischerBurmeister(a, this.betaN[c] * x[cln + c], alpha, 1, this.fb);
      const da = this.fb[1], db = this.fb[2];
      if (posN) {
        for (const [slot, g0] of [[cr.slotA, 0], [cr.slotB, 7]] as const)
          if (slot >= 0) for (let d = 0; d < 7; d++) B.add(rn + c, 7 * slot + d, da * this.grad[g0 + d]);
      } else {
        for (const [Jc, slot] of [[cr.JA, cr.slotA], [cr.JB, cr.slotB]] as const)
          if (slot >= 0) for (let j = 0; j < 6; j++) B.add(rn + c, cu + 6 * slot + j, da * Jc[j]);
      }
      B.add(rn + c, cln + c, db * this.betaN[c] + (posN ? h : 1) * reg);
      this.frictionRows(B, x, fr, c, reg);
    }
    return B.end();
  }

  /** Rows of h_f for contact c: [J_f | W] (fixed point), plus the ∂W/∂x terms ('exact'). */
  private frictionRows(B: PatternAssembler, x: ArrayLike<number>, fr: FrozenFriction, c: number, reg: number): void {
    const { cu, cln, clf, rf } = this;
    const cr = this.crs[c];
    const ends = [[cr.JA, cr.slotA], [cr.JB, cr.slotB]] as const;
    // inactive rows are r·λ_f; their other entries are stored as explicit zeros so that the pattern
    // (and the LU's column ordering) does not change when friction switches on
    const on = fr.active[c] ? 1 : 0;
    const exact = this.settings.frictionJacobian === 'exact' && on === 1;
    const vt = [contactRowDot(cr, 1, x, cu), contactRowDot(cr, 2, x, cu)];
    const lf = [x[clf + 2 * c], x[clf + 2 * c + 1]];
    const s = Math.hypot(vt[0], vt[1]), L = Math.hypot(lf[0], lf[1]);
    const d = this.wd;
    if (exact) frictionWDerivatives(s, L, cr.contact.friction * x[cln + c], this.rT[c], d);
    else d.fill(0);
    const diag = on ? fr.W[c] : this.rT[c];
    for (let k = 0; k < 2; k++) {
      const row = rf + 2 * c + k;
      // ∂/∂u: J_t,k + λ_f,k·∂W/∂s·(v_tᵀ/s)·J_t
      const ws = s > 0 ? (lf[k] * d[1]) / s : 0;
      for (const [Jc, slot] of ends) {
        if (slot < 0) continue;
        for (let j = 0; j < 6; j++) B.add(row, cu + 6 * slot + j, on * (Jc[(1 + k) * 6 + j] + ws * (vt[0] * Jc[6 + j] + vt[1] * Jc[12 + j])));
      }
      // ∂/∂λ_f: W·I + λ_f,k·(∂W/∂L − ∂W/∂g)·λ_fᵀ/L
      const wl = L > 0 ? (lf[k] * (d[2] - d[3])) / L : 0;
      for (let j = 0; j < 2; j++) B.add(row, clf + 2 * c + j, (j === k ? diag + reg : 0) + wl * lf[j]);
      // ∂/∂λ_n: λ_f,k·μ·∂W/∂g
      B.add(row, cln + c, exact ? lf[k] * cr.contact.friction * d[3] : 0);
    }
  }

  /** Euclidean norms of the residual blocks. */
  blockNorms(r: ArrayLike<number>): BlockNorms {
    const out = { dyn: 0, kin: 0, b: 0, n: 0, f: 0 } as BlockNorms;
    for (const blk of this.rowBlocks) {
      let s = 0;
      for (let i = blk.start; i < blk.start + blk.size; i++) s += r[i] * r[i];
      out[blk.name] = Math.sqrt(s);
    }
    return out;
  }
}
