// Velocity-level contacts in Solfec's local-dynamics form, solved by projected Gauss–Seidel per
// island. Rows: the bilateral rows of the world's constraints, then (n, t1, t2) per contact.
//   U = B + W·R,  W = h·J·M⁻¹·Jᵀ,  B = J·(u⁻ + h·M⁻¹F),  u⁺ = u⁻ + h·M⁻¹F + h·M⁻¹·Jᵀ·R
// R are forces (h·R impulses). Each row visit projects R_i onto its admissible set:
//   bilateral   U_i + Σ·R_i = −(erp/h)·C_i                     (unprojected)
//   normal      0 ≤ R_n ⊥ U_n − t_n ≥ 0,  t_n = restitution / penetration target (below;
//               restitution only when the free motion closes the gap within the step; the
//               penetration target by erp, or by MuJoCo's solref/solimp: softContact.ts; 0 within
//               the dead band |gap| ≤ pgs.slop of hard contacts)
//   friction    R_t = proj_{‖R_t‖ ≤ μR_n}(R_t − U_t/λ_max(W_tt))   (Coulomb disc)
//   bounded     R = proj_{[lo, hi]}(R − (U + Σ_i·R − t)/(W_ii + Σ_i))   (joint limits, friction loss and
//               the compliant drive rows of damping and armature: jointRows.ts; a drive row is
//               visited together with its joint's bilateral rows as one block, driveBlocks.ts),
//               after the contacts in R, U, B and target, visited after the bilateral rows
// W is never formed: U is kept as J·u with u updated by h·M⁻¹·Jᵀ·ΔR (the same algebra, O(1) per row);
// with `pgs.bilateral: "block"` an island's bilateral rows are one block solved exactly per sweep
// (bilateralBlock.ts), their W_bb formed and factored once per step.
import { applyMinv, assemble, type Assembly, type World } from '../assembly/assemble';
import type { Contact } from '../collision/contacts';
import type { PgsSettings } from '../scene/contactSpec';
import { DEFAULT_PGS_SLOP } from '../scene/contactFields';
import type { BodyState } from '../model/body';
import { classifyContact, openThreshold } from './forces';
import { contactGap, contactRows, rowMinvRow } from './rigid';
import { boundedKick, boundedU, contactKick, contactU, crossW, dot6, integrate, islandsOf, kick, packPositions } from './pgsKernels';
import { groundUpOrder } from './pgsVariants';
import { faceManifolds, minimumNormFriction, pivotManifolds } from './pgsManifold';
import { conjugateStep, extrapolateContact, sweepChange, visitContact, workspaceOf, type ContactSweep, type PgsWorkspace } from './pgsContact';
import { boundedRowW, type BoundedRow } from './boundedRows';
import { softRecoveryTarget, softRow, type SoftContact } from './softContact';
import { PyramidRows } from './pyramid';
import { BilateralBlock, BLOCK_MAX_ROWS } from './bilateralBlock';
import { applyReduced, contactEnds, jointBlock, reduceRows, rowEndsOf, type ReducedRows } from './contactReduce';
import { makeDriveBlock, visitDriveBlock, type DriveBlock } from './driveBlocks';
import type { PgsIsland, PgsReport } from './pgsReport';

export { integrate, packPositions };

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
  /** With `soft`: contacts as MuJoCo's soft constraints (a compliance on every contact row, softContact.ts `softRow`) instead of hard rows with a soft recovery. */
  softRows?: boolean;
  /** With `softRows`: MuJoCo's cone (pyramidal: pyramid.ts; elliptic: the disc, default) and impratio (default 1). */
  cone?: 'pyramidal' | 'elliptic';
  impratio?: number;
  /** Over-relaxation ω of every projected update (1: plain Gauss–Seidel). Default `DEFAULT_RELAXATION`. */
  relaxation?: number;
  /** Contacts of an island visited in detection order (default) or from the ground up along the contact graph. */
  order?: 'ground-up' | 'given';
  /** A contact that sticks is solved as its 3×3 block at once (block Gauss–Seidel). Default false. */
  block?: boolean;
  /** Every other sweep visits the rows in reverse order (symmetric Gauss–Seidel). Default false. */
  symmetric?: boolean;
  /**
   * After each sweep the contacts' forces take a momentum step R + β·(R − R_prev), projected on their
   * cones (Nesterov's β = k/(k + 3), restarted when a sweep's residual grows). Default false.
   */
  momentum?: boolean;
  /**
   * A hard face manifold (four coplanar points) whose targets no forces with all four pressed can meet
   * gives up the point the complementarity answer leaves unloaded, at once (pgsManifold.ts). Default false:
   * on the velocity box-stack example it left tangential forces of up to 0.02 N between resting boxes.
   */
  pivot?: boolean;
}

/**
 * NNCG gives way to plain sweeps for the rest of an island's solve once its residual has fallen by less
 * than 1 − STALL_RATIO over the last STALL_SWEEPS sweeps (docs/formulas.md "Velocity level", NNCG).
 */
export const STALL_SWEEPS = 10;
export const STALL_RATIO = 0.99;

/** ω of the projected updates (see docs/formulas.md "Contacts" for the measurements behind it). */
export const DEFAULT_RELAXATION = 1;

export type { PgsIsland, PgsReport } from './pgsReport';

/**
 * Solve the velocity-level contact problem at the states q⁻, u⁻ (contacts detected there).
 * `warm` optionally starts from previous reactions (bilateral rows; 3 per contact). `ws`: the scratch
 * arrays kept from solve to solve (default: the world's own, pgsContact.ts `workspaceOf`).
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
  ws: PgsWorkspace = workspaceOf(world),
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
  // bilateral row layout: in J's CSR row r, every end owning columns (A, B and a coupler's extra
  // ends) is one block of 6 consecutive entries, its slot the block's first column / 6.
  const Jv = asm.J.values, Jp = asm.J.rowPtr, Jc = asm.J.colIdx;
  const R = ws.take(0, nr);
  const target = new Float64Array(nr);
  const Wd = ws.take(1, nr);
  const B = new Float64Array(nr);
  const Sigma = settings.compliance;
  for (let r = 0; r < nbr; r++) {
    target[r] = -(settings.erp / h) * asm.C[r];
    for (let k = Jp[r]; k < Jp[r + 1]; k += 6) Wd[r] += h * rowMinvRow(Jv, k, minv, Jc[k] / 6);
  }
  const Wt = ws.take(2, 3 * nc); // per contact: W11, W12, W22 of the tangent block
  const uMinus = asm.v;
  // per contact, Σ_n and Σ_t of a soft contact (0: hard)
  const Sg = ws.take(3, 2 * nc);
  const softRows = settings.softRows && settings.soft ? settings.soft : undefined;
  const rowSoft = new Float64Array(4);
  const impratio = settings.impratio ?? 1;
  const slop = settings.pgs.slop ?? DEFAULT_PGS_SLOP;
  const pyr = softRows && settings.cone === 'pyramidal' ? new PyramidRows(nc) : undefined;
  const invWeight = (i: number): number => {
    if (i < 0) return 0;
    const b = world.bodies[i].spec;
    return b.fixed ? 0 : (b.contactInvWeight ?? 1 / b.mass);
  };
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
    if (softRows) {
      softRow(cr.contact.soft ?? softRows, gap, un, h, invWeight(cr.contact.bodyA) + invWeight(cr.contact.bodyB), rowSoft);
      target[r0] = rowSoft[0];
      // MuJoCo's contact acts once the surfaces overlap (dist < margin): an open one is left out
      if (!(gap < 0)) Wd[r0] = 0;
      // the friction rows' reference: MuJoCo's aref = −b·v_t, so the target is v_t⁻·(1 − h·b)
      for (let k = 1; k < 3; k++) target[r0 + k] = rowSoft[2] * contactU(cr, k, uMinus);
      // a pyramid's edges carry their own compliance; the block W_cc stays bare
      if (pyr && cr.contact.friction > 0 && pyr.setupRow(c, cr, rowSoft, uMinus, impratio)) continue;
      Sg[2 * c] = rowSoft[1];
      Sg[2 * c + 1] = rowSoft[3] / impratio;
      continue;
    }
    // a hard point within the dead band is held where it is: the targets of a resting face are then
    // those of one rigid motion (none) whichever side of 0 its corners' gaps fell (docs/formulas.md)
    const pos = !settings.soft && Math.abs(gap) <= slop ? 0 : gap >= 0 ? -gap / h : settings.soft ? softRecoveryTarget(cr.contact.soft ?? settings.soft, gap, un, h) : -(settings.erp * gap) / h;
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
  const warmC = pyr && warm?.contacts ? pyr.warmForces(warm.contacts) : warm?.contacts;
  // a contact left out of the step (Wd = 0: an open soft one) keeps no force from the last
  if (warmC) for (let r = nbr; r < nr0; r++) applyRow(r, (R[r] = Wd[r - ((r - nbr) % 3)] > 0 ? (warmC[r - nbr] ?? 0) : 0));
  bounded.forEach((b, k) => applyRow(nr0 + k, (R[nr0 + k] = b.R0)));

  const islandOf = islandsOf(world, crs, bounded, nr0);
  const islands: PgsIsland[] = [];
  const rowRes = ws.take(5, nr);
  const omega = settings.relaxation ?? DEFAULT_RELAXATION;
  const groundUp = settings.order === 'ground-up';
  const symmetric = settings.symmetric ?? false;
  const contactBlock = settings.block ?? false;
  const momentum = settings.momentum ?? false;
  const pivot = settings.pivot ?? false;
  const Rprev = ws.take(9, 3 * nc);
  // NNCG (Silcowski, Andrews, Kry et al. 2014, "Nonsmooth nonlinear conjugate gradient method for
  // interactive contact force problems"): after each sweep the contacts' forces also move by β·p, p the
  // previous direction, β the Fletcher–Reeves ratio of the last two sweeps' changes (restarted at β > 1),
  // projected on their cones (pgsContact.ts `conjugateStep`); Nesterov's momentum replaces it when asked for
  const nncg = !momentum && settings.pgs.acceleration !== 'none';
  const Pdir = ws.take(10, nncg ? 3 * nc : 0);
  const tol = settings.pgs.tolerance;
  // round-off's floor under a residual: rows of velocities up to max|u| are known to about ε·max|u|
  let uMax = 0;
  for (let i = 0; i < u.length; i++) uMax = Math.max(uMax, Math.abs(u[i]));
  let warmStarted = 0;
  // whether any island took a conjugate step (NNCG) or a momentum step: the acceleration actually used
  let conjugate = false, extrapolated = false;
  if (warm?.contacts) for (let c = 0; c < nc; c++) if (R[nbr + 3 * c] !== 0 || R[nbr + 3 * c + 1] !== 0 || R[nbr + 3 * c + 2] !== 0) warmStarted++;
  const endsOf = rowEndsOf(asm.J, nbr, nr0, bounded);
  const sigmaOf = (r: number): number => (r < nbr ? Sigma : (bounded[r - nr0].compliance ?? 0));
  const scratch = ws.take(7, 6 * nb);
  const blockOf = (rows: readonly number[]): BilateralBlock => jointBlock(rows, endsOf, sigmaOf, minv, h, scratch);
  // one visit each: bilateral rows (r < nbr), bounded rows (r ≥ nr0), contacts (−1 − c); the
  // residual of a visit is the natural map's |(W_ii + Σ_i)·ΔR| before relaxation (m/s), as at ω = 1
  const visitRow = (r: number): void => {
    const d = Wd[r] + Sigma;
    const dR = -(rowU(r) + Sigma * R[r] - target[r]) / d;
    R[r] += omega * dR;
    applyRow(r, omega * dR);
    acc[0] += (rowRes[r] = d * Math.abs(dR)) ** 2;
  };
  const visitBounded = (r: number): void => {
    const b = bounded[r - nr0];
    const sigma = b.compliance ?? 0;
    const red = reducedB[r - nr0];
    const d = (red ? WdB[r - nr0] : Wd[r]) + sigma;
    if (!(d > 0)) return;
    const step = -(rowU(r) + sigma * R[r] - target[r]) / d;
    const full = Math.min(b.hi, Math.max(b.lo, R[r] + step));
    const Rb = omega === 1 ? full : Math.min(b.hi, Math.max(b.lo, R[r] + omega * step));
    rowRes[r] = d * Math.abs(full - R[r]);
    if (red) applyReduced(red, Rb - R[r], 0, 0, u, R);
    else applyRow(r, Rb - R[r]);
    R[r] = Rb;
    acc[0] += rowRes[r] ** 2;
  };
  // per contact, the upper triangle of its 3×3 block W_cc (nn, n1, n2, 11, 12, 22)
  const Wb = ws.take(4, 6 * nc);
  for (let c = 0; c < nc; c++) {
    const r0 = nbr + 3 * c, o = 6 * c;
    Wb[o] = Wd[r0] + Sg[2 * c];
    Wb[o + 1] = h * crossW(crs[c], 0, 1, minv);
    Wb[o + 2] = h * crossW(crs[c], 0, 2, minv);
    Wb[o + 3] = Wt[3 * c] + Sg[2 * c + 1];
    Wb[o + 4] = Wt[3 * c + 1];
    Wb[o + 5] = Wt[3 * c + 2] + Sg[2 * c + 1];
  }
  // contacts and bounded rows stepped in the joints' reduced space (islands with the joint block:
  // contactReduce.ts), a bounded row with its effective diagonal
  const reduced: Array<ReducedRows | undefined> = [];
  const reducedB: Array<ReducedRows | undefined> = [];
  const WdB = ws.take(6, bounded.length);
  // the contact visit's workspace (pgsContact.ts); acc[0] is the sweep's sum of squared residuals,
  // which every visit adds to in visit order
  const acc = ws.take(8, 1);
  const sweep: ContactSweep = { crs, nbr, Wd, Wb, Sg, target, R, rowRes, u, minv, h, omega, block: contactBlock, pyr, reduced, acc };
  // (the island's fields read by name: an object rest `{ bounded, ...isl }` makes a slow-mode object whose
  // every `isl.contacts` in the sweeps' loops is a dictionary lookup)
  for (const isl of islandOf) {
    const bAll = isl.bounded ?? [];
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
    const block = blockMode && rows.length > 1 && rows.length <= BLOCK_MAX_ROWS ? blockOf(rows) : undefined;
    if (blockMode && !block && inBlock.size) {
      // too large (or one row) for the block: the drive rows go back to their row-by-row visit
      for (const r of inBlock) rows.splice(rows.indexOf(r), 1);
      bRows.push(...inBlock);
    }
    if (block && (isl.contacts.length || bRows.length)) {
      const ends = rows.map(endsOf), A = new Float64Array(9);
      for (const c of isl.contacts) {
        if (!(Wd[nbr + 3 * c] > 0)) continue;
        reduced[c] = reduceRows(contactEnds(crs[c]), rows, ends, block, minv, h, u.length, A);
        const o = 6 * c, sn = Sg[2 * c], st = Sg[2 * c + 1];
        Wb.set([A[0] + sn, A[1], A[2], A[4] + st, A[5], A[8] + st], o);
      }
      for (const r of bRows) {
        reducedB[r - nr0] = reduceRows([endsOf(r)], rows, ends, block, minv, h, u.length, A);
        WdB[r - nr0] = A[0];
      }
    }
    const bRhs = new Float64Array(block ? rows.length : 0);
    const bX = new Float64Array(block ? rows.length : 0);
    const contactOrder = groundUp ? groundUpOrder(isl.contacts, crs) : isl.contacts;
    const visits = [...(block ? [] : rows), ...bRows, ...contactOrder.map((c) => -1 - c)];
    // the scale the tolerance is relative to: the velocity error of the free motion, ‖B − t‖₂, or
    // the velocity the warm-started forces make, ‖diag(W)·R₀‖₂ (m/s): at rest under gravity each
    // pressed row contributes about g·h, so tolerance 1e-6 asks every force to about 1e-6·m·g
    let free = 0, forced = 0;
    const scaleRow = (r: number) => {
      free += (B[r] - target[r]) ** 2;
      forced += (Wd[r] * R[r]) ** 2;
    };
    for (const r of rows) scaleRow(r);
    for (const r of bRows) scaleRow(r);
    for (const blk of blocks) for (const r of blk.rows) scaleRow(r);
    for (const c of isl.contacts) {
      // a normal row counts only what the free motion would close beyond its target: an open
      // speculative contact (B_n − t_n > 0) asks nothing of the solver
      const r0 = nbr + 3 * c;
      free += Math.min(0, B[r0] - target[r0]) ** 2 + (B[r0 + 1] - target[r0 + 1]) ** 2 + (B[r0 + 2] - target[r0 + 2]) ** 2;
      for (let k = 0; k < 3; k++) forced += (Wd[r0 + k] * R[r0 + k]) ** 2;
    }
    // (a relative test alone never ends on an island already at its answer: a robot's joint block in
    // flight has ‖B − t‖ ≈ 1e-13 m/s and a round-off residual of 1e-16)
    const nIsl = rows.length + bRows.length + 3 * isl.contacts.length + blocks.reduce((n, b) => n + b.rows.length, 0);
    const scale = Math.max(Math.sqrt(free), Math.sqrt(forced), tol > 0 ? (64 * Number.EPSILON * Math.sqrt(nIsl) * uMax) / tol : 0);
    // the blocks (the joints' block, the drive blocks): solved exactly given the other rows
    const visitBlocks = (): number => {
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
      }
      for (const blk of blocks) sq += visitDriveBlock(blk, rowU, R, target, applyRow, rowRes);
      return sq;
    };
    let iterations = 0, residual = 0;
    const maxIt = Math.max(0, Math.floor(settings.pgs.iterations));
    const accel = momentum && isl.contacts.length > 1;
    const faces = isl.contacts.length >= 4 ? faceManifolds(sweep, isl.contacts) : [];
    // a sticking face's warm friction without its self-equilibrated part (pgsManifold.ts)
    if (faces.length && warmC) minimumNormFriction(sweep, faces);
    let prevResidual = Infinity, k = 0;
    // contacts alone (a pile, a stack): with joints in the island the sweeps' changes mix the blocks' exact
    // solves in, and measured on legs under a torso the conjugate steps doubled the sweeps
    let nn = nncg && isl.contacts.length > 1 && rows.length === 0 && bRows.length === 0 && blocks.length === 0;
    let gPrev = 0;
    const last = nn ? ws.take(11, STALL_SWEEPS) : Rprev;
    if (visits.length > 0 || block || blocks.length > 0) {
      for (let it = 0; it < maxIt; it++) {
        // R_prev: the forces before the sweep (NNCG's `conjugateStep` leaves them there for the next sweep)
        if (accel || (nn && it === 0)) {
          for (const c of isl.contacts) for (let j = 0; j < 3; j++) Rprev[3 * c + j] = R[nbr + 3 * c + j];
        }
        // symmetric Gauss–Seidel: every other sweep runs backwards, the blocks last
        const backward = symmetric && it % 2 === 1;
        acc[0] = backward ? 0 : visitBlocks();
        for (let k = 0; k < visits.length; k++) {
          const v = visits[backward ? visits.length - 1 - k : k];
          if (v < 0) visitContact(sweep, -1 - v);
          else if (v >= nr0) visitBounded(v);
          else visitRow(v);
        }
        if (backward) acc[0] += visitBlocks();
        iterations = it + 1;
        residual = Math.sqrt(acc[0]);
        if (!(residual > tol * scale)) break;
        if (it === maxIt - 1) continue;
        // a face whose own inconsistency exceeds the island's whole allowance can never converge pressed
        if (pivot && faces.length) pivotManifolds(sweep, faces, tol * scale);
        // stalled (a floor of inconsistent targets, where β stays near 1): the plain sweeps go on alone
        if (nn && it >= STALL_SWEEPS && residual > STALL_RATIO * last[it % STALL_SWEEPS]) nn = false;
        if (nn) {
          last[it % STALL_SWEEPS] = residual;
          // NNCG: β = ‖ΔR_k‖²/‖ΔR_k−1‖² (Fletcher–Reeves on the sweeps' changes), restarted when it exceeds 1
          const g = sweepChange(sweep, isl.contacts, Rprev);
          const beta = it > 0 && gPrev > 0 ? g / gPrev : 0;
          gPrev = g;
          conjugateStep(sweep, isl.contacts, Rprev, Pdir, beta > 1 ? -1 : beta);
          if (beta > 0 && beta <= 1) conjugate = true;
          continue;
        }
        if (!accel) continue;
        // Nesterov's schedule β = k/(k + 3), restarted (no step) when the sweep's residual grew
        if (residual > prevResidual) k = 0;
        else {
          const beta = k / (k + 3);
          k++;
          if (beta > 0) {
            extrapolated = true;
            for (const c of isl.contacts) extrapolateContact(sweep, c, beta, Rprev);
          }
        }
        prevResidual = residual;
      }
    }
    islands.push({ bodies: isl.bodies, constraints: isl.constraints, contacts: isl.contacts, iterations, residual, scale, converged: residual <= tol * scale });
  }
  const U = new Float64Array(nr);
  for (let r = 0; r < nr; r++) U[r] = rowU(r);
  let sq = 0;
  for (let r = 0; r < nr; r++) sq += rowRes[r] * rowRes[r];
  const bilateral = R.slice(0, nbr);
  const Rc = R.slice(nbr, nr0);
  const normals = new Float64Array(nc);
  for (let c = 0; c < nc; c++) normals[c] = Rc[3 * c];
  const openBelow = openThreshold(normals);
  let complementarity = 0, maxPenetration = 0;
  const forces = crs.map((cr, c) => {
    const r0 = nbr + 3 * c;
    complementarity = Math.max(complementarity, pyr?.on[c] ? pyr.complementarity(c, Wb, 6 * c, U.subarray(r0, r0 + 3)) : Math.abs(Math.min(U[r0] + Sg[2 * c] * R[r0] - target[r0], Wd[r0] * R[r0])));
    maxPenetration = Math.max(maxPenetration, -cr.contact.gap);
    return classifyContact(R[r0], R[r0 + 1], R[r0 + 2], cr.contact.friction, Math.hypot(U[r0 + 1], U[r0 + 2]), openBelow);
  });
  const residual = Math.sqrt(sq);
  return {
    method: 'pgs',
    acceleration: conjugate ? 'nncg' : extrapolated ? 'nesterov' : 'none',
    iterations: islands.reduce((m, i) => Math.max(m, i.iterations), 0),
    residual,
    converged: islands.every((i) => i.converged),
    islands,
    warmStarted,
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
