// Variants of projected Gauss–Seidel's contact visits (pgs.ts; docs/formulas.md "Contacts" gives
// what each measured on stacks and piles): the order of an island's contacts, and the block step.
//
// Ground up: a contact's depth is the number of contacts between it and a fixed body (the world),
// counted along the contact graph by breadth-first search from the contacts that touch the world.
// Visiting shallow contacts first lets a sweep carry the support of the ground up a stack (the
// order of shock propagation); alternating with the reverse order (symmetric Gauss–Seidel) carries
// the weight of the top down in the next sweep, so neither direction waits a sweep per layer.

/** The two ends of a contact as free-body slots (−1: fixed). */
export interface SlotPair {
  slotA: number;
  slotB: number;
}

/**
 * The island's contacts (indices into `ends`) sorted by depth from the fixed bodies, ties kept in
 * the given order; contacts not connected to a fixed body come last, in the given order.
 */
export function groundUpOrder(contacts: readonly number[], ends: readonly SlotPair[]): number[] {
  if (contacts.length < 2) return [...contacts];
  const bySlot = new Map<number, number[]>();
  const add = (s: number, c: number) => {
    if (s < 0) return;
    const l = bySlot.get(s);
    if (l) l.push(c);
    else bySlot.set(s, [c]);
  };
  for (const c of contacts) {
    add(ends[c].slotA, c);
    add(ends[c].slotB, c);
  }
  const depth = new Map<number, number>();
  let frontier: number[] = [];
  for (const c of contacts) {
    if (ends[c].slotA < 0 || ends[c].slotB < 0) {
      depth.set(c, 0);
      frontier.push(c);
    }
  }
  for (let d = 1; frontier.length > 0; d++) {
    const next: number[] = [];
    for (const c of frontier) {
      for (const s of [ends[c].slotA, ends[c].slotB]) {
        for (const o of bySlot.get(s) ?? []) {
          if (depth.has(o)) continue;
          depth.set(o, d);
          next.push(o);
        }
      }
    }
    frontier = next;
  }
  const last = contacts.length + 1;
  const at = (c: number) => depth.get(c) ?? last;
  // stable: Array.prototype.sort keeps ties in the given order
  return [...contacts].sort((x, y) => at(x) - at(y));
}

/**
 * One contact's block step R − ω·W_cc⁻¹·(U − t), W_cc its 3×3 block (upper triangle at `o`):
 * written into `out` and true when the result presses (R_n ≥ 0) and sticks (‖R_t‖ ≤ μ·R_n), the
 * case in which it is the contact's exact answer given the others; false (nothing written) otherwise.
 * At a slipping solution the unprojected step lands outside the cone (R_t·W_tt⁻¹·R_t > 0), so the
 * scalar projection that follows keeps the fixed point.
 */
export function blockStick(W: Float64Array, o: number, rn: number, r1: number, r2: number, R: Float64Array, r0: number, mu: number, omega: number, out: [number, number, number]): boolean {
  const a = W[o], b = W[o + 1], c = W[o + 2], d = W[o + 3], e = W[o + 4], f = W[o + 5];
  // cofactors of the symmetric [[a b c] [b d e] [c e f]]
  const A = d * f - e * e, Bc = c * e - b * f, C = b * e - c * d;
  const det = a * A + b * Bc + c * C;
  if (!(det > 1e-12 * a * d * f)) return false;
  const D = a * f - c * c, E = b * c - a * e, F = a * d - b * b;
  const s = omega / det;
  const xn = R[r0] - s * (A * rn + Bc * r1 + C * r2);
  const x1 = R[r0 + 1] - s * (Bc * rn + D * r1 + E * r2);
  const x2 = R[r0 + 2] - s * (C * rn + E * r1 + F * r2);
  if (!(xn >= 0) || Math.hypot(x1, x2) > mu * xn) return false;
  out[0] = xn;
  out[1] = x1;
  out[2] = x2;
  return true;
}
