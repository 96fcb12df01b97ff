// What a projected Gauss–Seidel solve (pgs.ts) reports: per island and for the whole step.
import type { ContactForce } from '../collision/contacts';

export interface PgsIsland {
  /** Scene indices of the free bodies. */
  bodies: number[];
  constraints: number[];
  contacts: number[];
  iterations: number;
  /** ‖r‖₂ of the island's natural-map residuals at their last visit (m/s). */
  residual: number;
  /** What the tolerance is relative to: max(‖B − t‖₂, ‖diag(W)·R₀‖₂) over the island's rows, a normal row's B_n − t_n counted only when negative (m/s). */
  scale: number;
  /** residual ≤ tolerance · scale. */
  converged: boolean;
}

export interface PgsReport {
  method: 'pgs';
  /** The acceleration any island's sweeps actually took: NNCG's conjugate steps, Nesterov's momentum steps, or none (plain sweeps only). */
  acceleration: 'nncg' | 'nesterov' | 'none';
  /** Largest iteration count over the islands. */
  iterations: number;
  /** ‖r‖₂ of the natural-map residuals (m/s) of every row at its last visit. */
  residual: number;
  /** Every island met residual ≤ tolerance · scale (its own scale). */
  converged: boolean;
  islands: PgsIsland[];
  /** Contacts that started from a non-zero warm force (matched to a contact of the previous step). */
  warmStarted: number;
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
