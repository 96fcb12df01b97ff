// The O(1) row kernels of projected Gauss–Seidel (pgs.ts): a row's U = J·u and its kick
// u += h·M⁻¹·Jᵀ·ΔR for one end (6 entries of J per end, M⁻¹ compact: 10 numbers per slot), the
// islands over free-body slots, the friction disc step, and the semi-implicit Euler step after the
// solve. Kept apart so that the solver's sweep reads as the algorithm and these stay allocation-free.
import { quatIntegrateInto } from '../core/math';
import type { World } from '../assembly/assemble';
import type { BodyState } from '../model/body';
import { slotsOf, type ContactRows } from './rigid';

/** The two ends of a contact or a bounded row, with their Jacobian rows (6 entries per row). */
export type RowEnds = Pick<ContactRows, 'slotA' | 'slotB' | 'JA' | 'JB'> & { more?: readonly FurtherEnd[] };

/** A further end of a bounded row (a tendon's rows span more than two bodies): its slot and 6 Jacobian entries. */
export interface FurtherEnd {
  slot: number;
  J: Float64Array;
}

/** Union–find islands over free-body slots joined by constraints, contacts or bounded rows. */
export function islandRoots(world: World, contacts: readonly RowEnds[]): Int32Array {
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

/** An island's members: free bodies (scene indices), constraints, contacts and bounded rows (row indices from nr0). */
export interface IslandMembers {
  bodies: number[];
  constraints: number[];
  contacts: number[];
  bounded?: number[];
}

/** The islands of the solve, ordered by their first body; each constraint, contact and bounded row in its island. */
export function islandsOf(world: World, crs: readonly RowEnds[], bounded: readonly RowEnds[], nr0: number): IslandMembers[] {
  const roots = islandRoots(world, [...crs, ...bounded]);
  const slots = slotsOf(world);
  const slot = (i: number) => (i < 0 ? -1 : slots[i]);
  const islandOf = new Map<number, IslandMembers>();
  const get = (k: number) => {
    let isl = islandOf.get(roots[k]);
    if (!isl) islandOf.set(roots[k], (isl = { bodies: [], constraints: [], contacts: [] }));
    return isl;
  };
  bounded.forEach((b, k) => {
    const s = [b.slotA, b.slotB, ...(b.more ?? []).map((e) => e.slot)].find((x) => x >= 0) ?? -1;
    if (s >= 0) (get(s).bounded ??= []).push(nr0 + k);
  });
  for (let k = 0; k < world.colBodies.length; k++) get(k).bodies.push(world.colBodies[k]);
  for (let c = 0; c < world.constraints.length; c++) {
    const k = [world.endA[c], world.endB[c], ...world.endX[c]].map(slot).find((s) => s >= 0) ?? -1;
    if (k >= 0) get(k).constraints.push(c);
  }
  crs.forEach((cr, c) => {
    const k = cr.slotA >= 0 ? cr.slotA : cr.slotB;
    if (k >= 0) get(k).contacts.push(c);
  });
  return [...islandOf.values()].sort((x, y) => x.bodies[0] - y.bodies[0]);
}

/** u += h·M⁻¹·(row)ᵀ·dR for one end. */
export function kick(u: Float64Array, J: ArrayLike<number>, o: number, slot: number, minv: Float64Array, hdR: number): void {
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

export function dot6(J: ArrayLike<number>, o: number, u: Float64Array, slot: number): number {
  const u0 = slot * 6;
  return J[o] * u[u0] + J[o + 1] * u[u0 + 1] + J[o + 2] * u[u0 + 2] + J[o + 3] * u[u0 + 3] + J[o + 4] * u[u0 + 4] + J[o + 5] * u[u0 + 5];
}

/** Row k (n, t1, t2) of a contact times u. */
export function contactU(cr: RowEnds, k: number, u: Float64Array): number {
  let s = 0;
  if (cr.slotA >= 0) s += dot6(cr.JA, k * 6, u, cr.slotA);
  if (cr.slotB >= 0) s += dot6(cr.JB, k * 6, u, cr.slotB);
  return s;
}

/** u += h·M⁻¹·(row k of the contact)ᵀ·dR, with hdR = h·dR. */
export function contactKick(cr: RowEnds, k: number, u: Float64Array, minv: Float64Array, hdR: number): void {
  if (cr.slotA >= 0) kick(u, cr.JA, k * 6, cr.slotA, minv, hdR);
  if (cr.slotB >= 0) kick(u, cr.JB, k * 6, cr.slotB, minv, hdR);
}

/** A bounded row's U, and u += h·M⁻¹·(row)ᵀ·dR (hdR = h·dR), over its two ends and any further ends (a tendon's). */
export function boundedU(b: RowEnds, u: Float64Array): number {
  let s = contactU(b, 0, u);
  if (b.more) for (const e of b.more) s += dot6(e.J, 0, u, e.slot);
  return s;
}
export function boundedKick(b: RowEnds, u: Float64Array, minv: Float64Array, hdR: number): void {
  contactKick(b, 0, u, minv, hdR);
  if (b.more) for (const e of b.more) kick(u, e.J, 0, e.slot, minv, hdR);
}

/** J_i·M⁻¹·J_jᵀ summed over the ends two contact rows share (rows of the same contact). */
export function crossW(cr: ContactRows, i: number, j: number, minv: Float64Array): number {
  let s = 0;
  // the two ends by index, not as a list of pairs: this runs three times per contact per step
  for (let e = 0; e < 2; e++) {
    const J = e === 0 ? cr.JA : cr.JB, slot = e === 0 ? cr.slotA : cr.slotB;
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

/** The result of `discStep` (a module buffer: no allocation in the sweeps). */
export const disc = new Float64Array(2);

/** proj_{‖·‖ ≤ lim}(R_t − s·U_t) into `disc`, R_t = R[r0 + 1], R[r0 + 2]. */
export function discStep(R: Float64Array, r0: number, s: number, ut1: number, ut2: number, lim: number): void {
  let t1 = R[r0 + 1] - s * ut1;
  let t2 = R[r0 + 2] - s * ut2;
  // sqrt of the sum of squares, not Math.hypot: hypot allocates a heap number per call in V8, and this
  // runs once per contact per sweep; the tangent impulses are far from overflow.
  const nt = Math.sqrt(t1 * t1 + t2 * t2);
  if (nt > lim) {
    const k = nt > 0 ? lim / nt : 0;
    t1 *= k;
    t2 *= k;
  }
  disc[0] = t1;
  disc[1] = t2;
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
