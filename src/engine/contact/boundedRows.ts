// What the velocity-level solver (pgs.ts) reads of a joint's or a tendon's bounded row, apart from
// the modules that make them (jointRows.ts, tendonRows.ts), so that neither depends on the other.
import { rowMinvRow } from './rigid';

/** One bounded row of the velocity-level problem: U = J_A·u_A + J_B·u_B, lo ≤ R ≤ hi (R ≥ lo with U ≥ target when hi = ∞). */
export interface BoundedRow {
  /** Index of the row among the scene's joint rows (`JointRows.info`). */
  key: number;
  /** Free-body slots of the ends (−1: the world or a fixed body). */
  slotA: number;
  slotB: number;
  /** [v, ω] Jacobian entries of the two ends (6 each). */
  JA: Float64Array;
  JB: Float64Array;
  lo: number;
  hi: number;
  /** The velocity the row asks for (U ≥ target for a unilateral row, U = target inside a box). */
  target: number;
  /** Warm start: the row's force in the previous step. */
  R0: number;
  /** Σ of the row (U + Σ·R = target inside the box): a drive row's h/(a + h·d); 0 or absent otherwise. */
  compliance?: number;
  /** A drive row's joint (world constraint index): pgs.ts solves it with the joint's own rows. */
  constraint?: number;
  /** Further ends beyond A and B, each a distinct free-body slot (a tendon spans several bodies: tendonRows.ts). */
  more?: { slot: number; J: Float64Array }[];
}

/** What a joint row is, for names, reports and warm starts. */
export interface JointRowInfo {
  /** World constraint index (−1 for a tendon's row). */
  constraint: number;
  /** A tendon's row: the tendon's index in `World.tendons` (tendonRows.ts). */
  tendon?: number;
  /** `knee.limit`, `knee.frictionloss`, `knee.drive` (a tendon's too), or a tendon equality's name. */
  name: string;
  kind: 'limit' | 'frictionloss' | 'drive' | 'equality';
  side?: 'lower' | 'upper';
  /** The bound (limit, rad or m), the friction budget (N·m or N) or the armature (drive). */
  bound: number;
}

/** J·M⁻¹·Jᵀ of one bounded row. */
export function boundedRowW(row: BoundedRow, minvCompact: Float64Array): number {
  let s = 0;
  if (row.slotA >= 0) s += rowMinvRow(row.JA, 0, minvCompact, row.slotA);
  if (row.slotB >= 0) s += rowMinvRow(row.JB, 0, minvCompact, row.slotB);
  for (const e of row.more ?? []) s += rowMinvRow(e.J, 0, minvCompact, e.slot);
  return s;
}
