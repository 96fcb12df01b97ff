// Velocity-level contacts in Solfec's local-dynamics form, solved by projected Gauss–Seidel per
// island. Rows: the bilateral rows of the world's constraints, then (n, t1, t2) per contact.
//   U = B + W·R,  W = h·J·M⁻¹·Jᵀ,  B = J·(u⁻ + h·M⁻¹F),  u⁺ = u⁻ + h·M⁻¹F + h·M⁻¹·Jᵀ·R
// R are forces (h·R impulses). Each row visit projects R_i onto its admissible set:
//   bilateral   U_i + Σ·R_i = −(erp/h)·C_i                     (unprojected)
//   normal      0 ≤ R_n ⊥ U_n − t_n ≥ 0,  t_n = restitution / penetration target (below;
//               restitution only when the free motion closes the gap within the step; the
//               penetration target by erp, or by MuJoCo's solref/solimp: softContact.ts)
//   friction    R_t = proj_{‖R_t‖ ≤ μR_n}(R_t − U_t/λ_max(W_tt))   (Coulomb disc)
//   bounded     R = proj_{[lo, hi]}(R − (U + Σ_i·R − t)/(W_ii + Σ_i))   (joint limits, friction loss and
//               the compliant drive rows of damping and armature: jointRows.ts; a drive row is
//               visited together with its joint's bilateral rows as one block, driveBlocks.ts),
//               after the contacts in R, U, B and target, visited after the bilateral rows
// W is never formed: U is kept as J·u with u updated by h·M⁻¹·Jᵀ·ΔR (the same algebra, O(1) per row);
// with `pgs.bilateral: "block"` an island's bilateral rows are one block solved exactly per sweep
// (bilateralBlock.ts), their W_bb formed and factored once per step.
import { quatIntegrateInto } from '../core/math';
import { applyMinv, assemble, type Assembly, type World } from '../assembly/assemble';
import type { Contact } from '../collision/contacts';
import type { PgsSettings } from '../scene/contactSpec';
import type { BodyState } from '../model/body';
import { classifyContact, openThreshold } from './forces';
import { contactGap, contactRows, rowMinvRow, slotsOf, type ContactRows } from './rigid';
import { boundedRowW, type BoundedRow } from './jointRows';
import { softRecoveryTarget, type SoftContact } from './softContact';
import { BilateralBlock, BLOCK_MAX_ROWS } from './bilateralBlock';
import { makeDriveBlock, visitDriveBlock, type DriveBlock, type RowEnd } from './driveBlocks';
import type { ContactForce } from '../collision/contacts';

export interface VelocitySettings {
  pgs: PgsSettings;
  /** Baumgarte factor of bilateral rows and of penetration recovery (the scene's `erp`). */
  erp: number;
  /** Σ of bilateral rows (the scene's `compliance`). */
  compliance: number;
  /** Restitution applies when the contact approaches faster than this (m/s). Default 1e-2. */
  restitutionThreshold: number;
  /** Penetration recovery as MuJoCo's soft contacts (softContact.ts) instead of `erp`. */
  soft?: SoftContact;
}

export interface PgsIsland {
  /** Scene indices of the free bodies. */
  bodies: number[];
  constraints: number[];
  contacts: number[];
  iterations: number;
  residual: number;
  converged: boolean;
}

export interface PgsReport {
  method: 'pgs';
  /** Largest iteration count over the islands. */
  iterations: number;
  /** ‖r‖₂ of the natural-map residuals (m/s) of every row at its last visit. */
  residual: number;
  converged: boolean;
  islands: PgsIsland[];
  /** Bilateral reactions R (forces), one per row of the world's constraints. */
  bilateral: Float64Array;
  contacts: ContactForce[];
  /** Per contact, [R_n, R_t1, R_t2] (forces). */
  R: Float64Array;
  /** Per bounded row (joint limits, friction loss), its force. */
  bounded: Float64Array;
  /** Free velocity B and final U = B + W·R per row (bilateral rows, then n, t1, t2 per contact). */
  B: Float64Array;
  U: Float64Array;
  /** Velocity targets t per row (the right-hand side U should reach). */
  target: Float64Array;
  /** max over contacts of |min(U_n − t_n, W_nn·R_n)| (m/s). */
  complementarity: number;
  /** Largest penetration max(0, −gap) (m): at q⁻ from `solveContactsPgs`, after the step from `stepVelocity`. */
  maxPenetration: number;
  /** u⁺, 6 per free body (column order). */
  uPlus: Float64Array;
}

/** The two ends of a contact or a bounded row, with their Jacobian rows (6 entries per row); a tendon's row has more. */
type RowEnds = Pick<ContactRows, 'slotA' | 'slotB' | 'JA' | 'JB'> & Pick<BoundedRow, 'more'>;

/** Union–find islands over free-body slots joined by constraints, contacts or bounded rows. */
function islandRoots(world: World, contacts: readonly RowEnds[]): Int32Array {
  const nb = world.colBodies.length;
  const parent = Int32Array.from({ length: nb }, (_, i) => i);
  const find = (x: number): number => {
    while (parent[x] !== x) x = parent[x] = parent[parent[x]];
    return x;
  };
  const join = (a: number, b: number) => {
    if (a < 0 || b < 0) return;
    const ra = find(a), rb = find(b);
    if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
  };
  const slots = slotsOf(world);
  const slot = (i: number) => (i < 0 ? -1 : slots[i]);
  for (let c = 0; c < world.constraints.length; c++) {
    // every end of the constraint (A, B and a coupler's extra ends) in one island
    const ends = [world.endA[c], world.endB[c], ...world.endX[c]].map(slot).filter((s) => s >= 0);
    for (let e = 1; e < ends.length; e++) join(ends[0], ends[e]);
  }
  for (const cr of contacts) for (const s of [cr.slotB, ...(cr.more ?? []).map((e) => e.slot)]) join(cr.slotA, s);
  for (let k = 0; k < nb; k++) parent[k] = find(k);
  return parent;
}

/** u += h·M⁻¹·(row)ᵀ·dR for one end. */
function kick(u: Float64Array, J: ArrayLike<number>, o: number, slot: number, minv: Float64Array, hdR: number): void {
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

function dot6(J: ArrayLike<number>, o: number, u: Float64Array, slot: number): number {
  const u0 = slot * 6;
  return J[o] * u[u0] + J[o + 1] * u[u0 + 1] + J[o + 2] * u[u0 + 2] + J[o + 3] * u[u0 + 3] + J[o + 4] * u[u0 + 4] + J[o + 5] * u[u0 + 5];
}

/** Row k (n, t1, t2) of a contact times u. */
function contactU(cr: RowEnds, k: number, u: Float64Array): number {
  let s = 0;
  if (cr.slotA >= 0) s += dot6(cr.JA, k * 6, u, cr.slotA);
  if (cr.slotB >= 0) s += dot6(cr.JB, k * 6, u, cr.slotB);
  return s;
}

/** A bounded row's U, and u += h·M⁻¹·(row)ᵀ·dR (hdR = h·dR), over its two ends and any further ends (a tendon's). */
const boundedU = (b: BoundedRow, u: Float64Array): number => (b.more ?? []).reduce((s, e) => s + dot6(e.J, 0, u, e.slot), contactU(b, 0, u));
function boundedKick(b: BoundedRow, u: Float64Array, minv: Float64Array, hdR: number): void {
  contactKick(b, 0, u, minv, hdR);
  for (const e of b.more ?? []) kick(u, e.J, 0, e.slot, minv, hdR);
}

/** u += h·M⁻¹·(row k of the contact)ᵀ·dR, with hdR = h·dR. */
function contactKick(cr: RowEnds, k: number, u: Float64Array, minv: Float64Array, hdR: number): void {
  if (cr.slotA >= 0) kick(u, cr.JA, k * 6, cr.slotA, minv, hdR);
  if (cr.slotB >= 0) kick(u, cr.JB, k * 6, cr.slotB, minv, hdR);
}

/** J_i·M⁻¹·J_jᵀ summed over the ends two contact rows share (rows of the same contact). */
function crossW(cr: ContactRows, i: number, j: number, minv: Float64Array): number {
  let s = 0;
  const ends: Array<[Float64Array, number]> = [[cr.JA, cr.slotA], [cr.JB, cr.slotB]];
  for (const [J, slot] of ends) {
    if (slot < 0) continue;
    const m0 = slot * 10, oi = i * 6, oj = j * 6;
    s += minv[m0] * (J[oi] * J[oj] + J[oi + 1] * J[oj + 1] + J[oi + 2] * J[oj + 2]);
    const a0 = J[oj + 3], a1 = J[oj + 4], a2 = J[oj + 5];
    s += J[oi + 3] * (minv[m0 + 1] * a0 + minv[m0 + 2] * a1 + minv[m0 + 3] * a2);
    s += J[oi + 4] * (minv[m0 + 4] * a0 + minv[m0 + 5] * a1 + minv[m0 + 6] * a2);
    s += J[oi + 5] * (minv[m0 + 7] * a0 + minv[m0 + 8] * a1 + minv[m0 + 9] * a2);
  }
  return s;
}

/**
 * Solve the velocity-level contact problem at the states q⁻, u⁻ (contacts detected there).
 * `warm` optionally starts from previous reactions (bilateral rows; 3 per contact).
 */
export function solveContactsPgs(
  world: World,
  states: readonly BodyState[],
  contacts: readonly Contact[],
  settings: VelocitySettings,
  dt: number,
  warm?: { bilateral?: ArrayLike<number>; contacts?: ArrayLike<number> },
  asmIn?: Assembly,
  bounded: readonly BoundedRow[] = [],
): PgsReport {
  const h = dt;
  const asm = asmIn ?? assemble(world, states as BodyState[]);
  const minv = asm.minvCompact;
  const nb = world.colBodies.length;
  const a0 = applyMinv(world, minv, asm.F);
  const u = new Float64Array(6 * nb);
  for (let i = 0; i < u.length; i++) u[i] = asm.v[i] + h * a0[i];
  const crs = contactRows(world, states, contacts, minv);
  const nbr = world.nRows, nc = crs.length, nr0 = nbr + 3 * nc, nr = nr0 + bounded.length;
  const slots = slotsOf(world);
  const slot = (i: number) => (i < 0 ? -1 : slots[i]);
  // bilateral row layout: in J's CSR row r, every end owning columns (A, B and a coupler's extra
  // ends) is one block of 6 consecutive entries, its slot the block's first column / 6.
  const rowOwner = new Int32Array(nbr);
  for (let c = 0; c < world.constraints.length; c++) for (let r = world.rowStart[c]; r < world.rowStart[c + 1]; r++) rowOwner[r] = c;
  const Jv = asm.J.values, Jp = asm.J.rowPtr, Jc = asm.J.colIdx;
  const R = new Float64Array(nr);
  const target = new Float64Array(nr);
  const Wd = new Float64Array(nr);
  const B = new Float64Array(nr);
  const Sigma = settings.compliance;
  for (let r = 0; r < nbr; r++) {
    target[r] = -(settings.erp / h) * asm.C[r];
    for (let k = Jp[r]; k < Jp[r + 1]; k += 6) Wd[r] += h * rowMinvRow(Jv, k, minv, Jc[k] / 6);
  }
  const Wt = new Float64Array(3 * nc); // per contact: W11, W12, W22 of the tangent block
  const uMinus = asm.v;
  for (let c = 0; c < nc; c++) {
    const cr = crs[c], r0 = nbr + 3 * c;
    for (let k = 0; k < 3; k++) Wd[r0 + k] = h * cr.w[k];
    Wt[3 * c] = h * cr.w[1];
    Wt[3 * c + 1] = h * crossW(cr, 1, 2, minv);
    Wt[3 * c + 2] = h * cr.w[2];
    let un = 0;
    if (cr.slotA >= 0) un += dot6(cr.JA, 0, uMinus, cr.slotA);
    if (cr.slotB >= 0) un += dot6(cr.JB, 0, uMinus, cr.slotB);
    const gap = cr.contact.gap;
    const pos = gap >= 0 ? -gap / h : settings.soft ? softRecoveryTarget(settings.soft, gap, un, h) : -(settings.erp * gap) / h;
    // restitution only when the free motion closes the gap within this step (an open speculative
    // contact further away must not bounce early): gap + h·J_n·u_free ≤ 0, u the free velocity here
    const closes = gap <= 0 || gap + h * contactU(cr, 0, u) <= 0;
    const bounce = closes && un < -settings.restitutionThreshold ? -cr.contact.restitution * un : 0;
    target[r0] = bounce > 0 ? Math.max(bounce, pos) : pos;
  }
  bounded.forEach((b, k) => {
    Wd[nr0 + k] = h * boundedRowW(b, minv);
    target[nr0 + k] = b.target;
  });
  // rows' U at the free velocity (B)
  const rowU = (r: number): number => {
    if (r < nbr) {
      let s = 0;
      for (let k = Jp[r]; k < Jp[r + 1]; k += 6) s += dot6(Jv, k, u, Jc[k] / 6);
      return s;
    }
    if (r >= nr0) return boundedU(bounded[r - nr0], u);
    const c = Math.floor((r - nbr) / 3);
    return contactU(crs[c], (r - nbr) % 3, u);
  };
  for (let r = 0; r < nr; r++) B[r] = rowU(r);
  const applyRow = (r: number, dR: number) => {
    if (dR === 0) return;
    if (r < nbr) {
      for (let k = Jp[r]; k < Jp[r + 1]; k += 6) kick(u, Jv, k, Jc[k] / 6, minv, h * dR);
      return;
    }
    if (r >= nr0) return boundedKick(bounded[r - nr0], u, minv, h * dR);
    contactKick(crs[Math.floor((r - nbr) / 3)], (r - nbr) % 3, u, minv, h * dR);
  };
  if (warm?.bilateral) for (let r = 0; r < nbr; r++) applyRow(r, (R[r] = warm.bilateral[r] ?? 0));
  if (warm?.contacts) for (let r = nbr; r < nr0; r++) applyRow(r, (R[r] = warm.contacts[r - nbr] ?? 0));
  bounded.forEach((b, k) => applyRow(nr0 + k, (R[nr0 + k] = b.R0)));

  // islands
  const roots = islandRoots(world, [...crs, ...bounded]);
  const islandOf = new Map<number, { bodies: number[]; constraints: number[]; contacts: number[]; bounded?: number[] }>();
  const get = (k: number) => {
    let isl = islandOf.get(roots[k]);
    if (!isl) islandOf.set(roots[k], (isl = { bodies: [], constraints: [], contacts: [] }));
    return isl;
  };
  bounded.forEach((b, k) => {
    const s = b.slotA >= 0 ? b.slotA : b.slotB;
    if (s >= 0) (get(s).bounded ??= []).push(nr0 + k);
  });
  for (let k = 0; k < nb; k++) get(k).bodies.push(world.colBodies[k]);
  for (let c = 0; c < world.constraints.length; c++) {
    const k = [world.endA[c], world.endB[c], ...world.endX[c]].map(slot).find((s) => s >= 0) ?? -1;
    if (k >= 0) get(k).constraints.push(c);
  }
  for (let c = 0; c < nc; c++) {
    const k = crs[c].slotA >= 0 ? crs[c].slotA : crs[c].slotB;
    if (k >= 0) get(k).contacts.push(c);
  }
  const islands: PgsIsland[] = [];
  const rowRes = new Float64Array(nr);
  // a row's ends: bilateral rows from J's CSR (6 entries per end), bounded rows from their own
  const endsOf = (r: number): RowEnd[] => {
    if (r < nbr) {
      const out: RowEnd[] = [];
      for (let k = Jp[r]; k < Jp[r + 1]; k += 6) out.push({ slot: Jc[k] / 6, J: Jv, o: k });
      return out;
    }
    const b = bounded[r - nr0];
    return [{ slot: b.slotA, J: b.JA, o: 0 }, { slot: b.slotB, J: b.JB, o: 0 }, ...(b.more ?? []).map((e) => ({ slot: e.slot, J: e.J, o: 0 }))].filter((e) => e.slot >= 0);
  };
  const sigmaOf = (r: number): number => (r < nbr ? Sigma : (bounded[r - nr0].compliance ?? 0));
  // W + Σ of a set of rows, column by column: h·M⁻¹·J_jᵀ into a scratch velocity, then J_i·(it)
  const scratch = new Float64Array(6 * nb);
  const blockOf = (rows: readonly number[]): BilateralBlock => {
    const ends = rows.map(endsOf);
    return new BilateralBlock(rows.length, (j, out) => {
      for (const e of ends[j]) kick(scratch, e.J, e.o, e.slot, minv, h);
      ends.forEach((ei, i) => {
        let v = i === j ? sigmaOf(rows[i]) : 0;
        for (const e of ei) v += dot6(e.J, e.o, scratch, e.slot);
        out[i] = v;
      });
      for (const e of ends[j]) scratch.fill(0, 6 * e.slot, 6 * e.slot + 6);
    });
  };
  for (const { bounded: bAll = [], ...isl } of [...islandOf.values()].sort((x, y) => x.bodies[0] - y.bodies[0])) {
    const rows: number[] = [];
    for (const c of isl.constraints) for (let r = world.rowStart[c]; r < world.rowStart[c + 1]; r++) if (Wd[r] + Sigma > 0) rows.push(r);
    // "block": the bilateral rows and the unbounded drive rows are one block per sweep (bilateralBlock.ts);
    // else a drive row and its joint's bilateral rows are one block (driveBlocks.ts), the rest row by row
    const blockMode = settings.pgs.bilateral === 'block';
    const blocks: DriveBlock[] = [];
    const inBlock = new Set<number>();
    if (blockMode) {
      for (const r of bAll) {
        const b = bounded[r - nr0];
        if (b.lo === -Infinity && b.hi === Infinity && Wd[r] + (b.compliance ?? 0) > 0) {
          rows.push(r);
          inBlock.add(r);
        }
      }
    }
    for (const r of blockMode ? [] : bAll) {
      const c = bounded[r - nr0].constraint;
      if (c === undefined) continue;
      const own = rows.filter((x) => x >= world.rowStart[c] && x < world.rowStart[c + 1]);
      const members = [...own, r];
      const sigma = Float64Array.from(members, (x) => (x < nbr ? Sigma : (bounded[x - nr0].compliance ?? 0)));
      const blk = makeDriveBlock(members, sigma, endsOf, minv, h);
      if (!blk) continue;
      blocks.push(blk);
      for (const x of members) inBlock.add(x);
    }
    const bRows = inBlock.size ? bAll.filter((r) => !inBlock.has(r)) : bAll;
    if (inBlock.size && !blockMode) {
      const kept = rows.filter((r) => !inBlock.has(r));
      rows.length = 0;
      rows.push(...kept);
    }
    let iterations = 0, residual = 0;
    const maxIt = Math.max(0, Math.floor(settings.pgs.iterations));
    const block = blockMode && rows.length > 1 && rows.length <= BLOCK_MAX_ROWS ? blockOf(rows) : undefined;
    if (blockMode && !block && inBlock.size) {
      // too large (or one row) for the block: the drive rows go back to their row-by-row visit
      for (const r of inBlock) rows.splice(rows.indexOf(r), 1);
      bRows.push(...inBlock);
    }
    const bRhs = new Float64Array(block ? rows.length : 0);
    const bX = new Float64Array(block ? rows.length : 0);
    if (rows.length > 0 || isl.contacts.length > 0 || bRows.length > 0 || blocks.length > 0) {
      for (let it = 0; it < maxIt; it++) {
        let sq = 0;
        if (block) {
          rows.forEach((r, i) => (bRhs[i] = rowU(r) + sigmaOf(r) * R[r] - target[r]));
          block.solve(bRhs, bX);
          rows.forEach((r, i) => {
            R[r] -= bX[i];
            applyRow(r, -bX[i]);
            rowRes[r] = Math.abs(bRhs[i]);
            sq += rowRes[r] * rowRes[r];
          });
        } else {
          for (const r of rows) {
            const d = Wd[r] + Sigma;
            const dR = -(rowU(r) + Sigma * R[r] - target[r]) / d;
            R[r] += dR;
            applyRow(r, dR);
            rowRes[r] = d * Math.abs(dR);
            sq += rowRes[r] * rowRes[r];
          }
        }
        for (const blk of blocks) sq += visitDriveBlock(blk, rowU, R, target, applyRow, rowRes);
        for (const r of bRows) {
          const b = bounded[r - nr0];
          const sigma = b.compliance ?? 0;
          const d = Wd[r] + sigma;
          if (!(d > 0)) continue;
          const Rb = Math.min(b.hi, Math.max(b.lo, R[r] - (rowU(r) + sigma * R[r] - target[r]) / d));
          const dR = Rb - R[r];
          R[r] = Rb;
          applyRow(r, dR);
          rowRes[r] = d * Math.abs(dR);
          sq += rowRes[r] * rowRes[r];
        }
        for (const c of isl.contacts) {
          const r0 = nbr + 3 * c;
          if (!(Wd[r0] > 0)) continue;
          // normal
          const cr = crs[c];
          const Rn = Math.max(0, R[r0] - (contactU(cr, 0, u) - target[r0]) / Wd[r0]);
          const dn = Rn - R[r0];
          R[r0] = Rn;
          if (dn !== 0) contactKick(cr, 0, u, minv, h * dn);
          rowRes[r0] = Wd[r0] * Math.abs(dn);
          // friction: R_t − ρ·U_t with the scalar ρ = 1/λ_max(W_tt), then projection on the disc
          // ‖R_t‖ ≤ μ·R_n (a scalar ρ keeps the fixed point maximally dissipative: U_t ∥ −R_t when slipping)
          const w11 = Wt[3 * c], w12 = Wt[3 * c + 1], w22 = Wt[3 * c + 2];
          const lmax = 0.5 * (w11 + w22) + Math.hypot(0.5 * (w11 - w22), w12);
          const rho = lmax > 0 ? 1 / lmax : 0;
          let t1 = R[r0 + 1] - rho * contactU(cr, 1, u);
          let t2 = R[r0 + 2] - rho * contactU(cr, 2, u);
          const lim = crs[c].contact.friction * Rn;
          const nt = Math.hypot(t1, t2);
          if (nt > lim) {
            const s = nt > 0 ? lim / nt : 0;
            t1 *= s;
            t2 *= s;
          }
          const d1 = t1 - R[r0 + 1], d2 = t2 - R[r0 + 2];
          R[r0 + 1] = t1;
          R[r0 + 2] = t2;
          if (d1 !== 0) contactKick(cr, 1, u, minv, h * d1);
          if (d2 !== 0) contactKick(cr, 2, u, minv, h * d2);
          rowRes[r0 + 1] = lmax * Math.abs(d1);
          rowRes[r0 + 2] = lmax * Math.abs(d2);
          sq += rowRes[r0] ** 2 + rowRes[r0 + 1] ** 2 + rowRes[r0 + 2] ** 2;
        }
        iterations = it + 1;
        residual = Math.sqrt(sq);
        if (!(residual > settings.pgs.tolerance)) break;
      }
    }
    islands.push({ ...isl, iterations, residual, converged: residual <= settings.pgs.tolerance });
  }
  const U = new Float64Array(nr);
  for (let r = 0; r < nr; r++) U[r] = rowU(r);
  let sq = 0;
  for (let r = 0; r < nr; r++) sq += rowRes[r] * rowRes[r];
  const bilateral = R.slice(0, nbr);
  const Rc = R.slice(nbr, nr0);
  const normals = Float64Array.from({ length: nc }, (_, c) => Rc[3 * c]);
  const openBelow = openThreshold(normals);
  let complementarity = 0, maxPenetration = 0;
  const forces = crs.map((cr, c) => {
    const r0 = nbr + 3 * c;
    complementarity = Math.max(complementarity, Math.abs(Math.min(U[r0] - target[r0], Wd[r0] * R[r0])));
    maxPenetration = Math.max(maxPenetration, -cr.contact.gap);
    return classifyContact(R[r0], R[r0 + 1], R[r0 + 2], cr.contact.friction, Math.hypot(U[r0 + 1], U[r0 + 2]), openBelow);
  });
  const residual = Math.sqrt(sq);
  return {
    method: 'pgs',
    iterations: islands.reduce((m, i) => Math.max(m, i.iterations), 0),
    residual,
    converged: islands.every((i) => i.converged),
    islands,
    bilateral,
    contacts: forces,
    R: Rc,
    bounded: R.slice(nr0),
    B,
    U,
    target,
    complementarity,
    maxPenetration,
    uPlus: u,
  };
}

/**
 * One velocity-level step: PGS at (q⁻, u⁻), then semi-implicit Euler as the engine's stepping
 * (v ← u⁺, p ← p + h·v, q ← normalize(q + ½(ω,0)⊗q·h)). Returns new states (the input is not
 * modified); `report.maxPenetration` is measured at the new positions from the witness points.
 */
export function stepVelocity(
  world: World,
  states: readonly BodyState[],
  contacts: readonly Contact[],
  settings: VelocitySettings,
  dt: number,
  warm?: { bilateral?: ArrayLike<number>; contacts?: ArrayLike<number> },
): { states: BodyState[]; report: PgsReport } {
  const asm = assemble(world, states as BodyState[]);
  const report = solveContactsPgs(world, states, contacts, settings, dt, warm, asm);
  const out = integrate(world, states, report.uPlus, dt);
  const x = packPositions(world, out);
  const crs = contactRows(world, states, contacts, asm.minvCompact);
  let pen = 0;
  for (const cr of crs) pen = Math.max(pen, -contactGap(cr, x, out));
  report.maxPenetration = pen;
  return { states: out, report };
}

/** Semi-implicit Euler with u⁺ (6 per free body), as `simulation.ts`. */
export function integrate(world: World, states: readonly BodyState[], uPlus: Float64Array, h: number): BodyState[] {
  return states.map((s, i) => {
    const col = world.bodies[i].column;
    const st: BodyState = { p: [...s.p], q: [...s.q], v: [...s.v], w: [...s.w] };
    if (col < 0) return st;
    for (let d = 0; d < 3; d++) {
      st.v[d] = uPlus[col + d];
      st.w[d] = uPlus[col + 3 + d];
      st.p[d] += st.v[d] * h;
    }
    quatIntegrateInto(st.q, st.w, h);
    return st;
  });
}

/** Positions of the free bodies packed 7 per slot (p, q), the layout `contactGap` reads. */
export function packPositions(world: World, states: readonly BodyState[]): Float64Array {
  const x = new Float64Array(7 * world.colBodies.length);
  world.colBodies.forEach((bi, k) => {
    x.set(states[bi].p, 7 * k);
    x.set(states[bi].q, 7 * k + 3);
  });
  return x;
}
