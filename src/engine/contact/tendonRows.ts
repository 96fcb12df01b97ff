// Rows on tendon lengths (model/tendon.ts) in the velocity-level step, as jointRows.ts' rows on joint
// coordinates, with J_L the tendon's Jacobian over every body it spans (a row with more than two ends):
//   limit, lower bound:  row  J_L, gap = (L − lower) − margin,  R ≥ 0,  U ≥ t  (t as a joint limit's)
//   limit, upper bound:  row −J_L, gap = (upper − L) − margin,  R ≥ 0,  U ≥ t
//   friction loss:       row  J_L, R ∈ [−frictionLoss, frictionLoss], U = 0 inside
//   damping d:           row  J_L, U + R/d = L̇⁻, R free (with −d·L̇⁻ already in F: −d·L̇⁺, implicit)
//   equality:            row  J_L − p′(L₂ − L₂⁰)·J_L₂, U = −erp·C/h, R free,
//                        C = L − L⁰ − p(L₂ − L₂⁰) (MuJoCo's `<equality tendon>`, p its polycoef)
// A limit's row is included when its bound can be reached within the step (as a joint limit's).
import type { TendonSet } from '../model/tendonForces';
import type { BoundedRow, JointRowInfo } from './boundedRows';

/** Slop on the activation test, as jointRows.ts'. */
const SLOP = 1e-12;

/** The info entries of every tendon's rows, in the order `tendonRows` keys them (from `first`). */
export function tendonRowInfo(set: TendonSet): JointRowInfo[] {
  const out: JointRowInfo[] = [];
  set.tendons.forEach((t, i) => {
    const s = t.spec;
    const base = { constraint: -1, tendon: i };
    if (s.limits) {
      out.push({ ...base, name: `${s.name}.limit`, kind: 'limit', side: 'lower', bound: s.limits[0] });
      out.push({ ...base, name: `${s.name}.limit`, kind: 'limit', side: 'upper', bound: s.limits[1] });
    }
    if ((s.frictionLoss ?? 0) > 0) out.push({ ...base, name: `${s.name}.frictionloss`, kind: 'frictionloss', bound: s.frictionLoss! });
    if (t.row) out.push({ ...base, name: `${s.name}.drive`, kind: 'drive', bound: 0 });
    if (s.equality && (s.equality.other === undefined || t.other !== undefined)) out.push({ ...base, name: s.equality.name, kind: 'equality', bound: 0 });
  });
  return out;
}

/** True when some tendon has a row of the velocity step. */
export function hasTendonRows(set: TendonSet | undefined): boolean {
  return !!set && tendonRowInfo(set).length > 0;
}

/** What the rows are made at: the tendons evaluated at the step's states, slots of bodies, the free velocity. */
export interface TendonRowInput {
  set: TendonSet;
  /** Free-body slot of a body index (−1: the world or a fixed body). */
  slotOf: (body: number) => number;
  /** The velocity the activation test looks ahead with (6 per slot). */
  uFree: ArrayLike<number>;
  h: number;
  erp: number;
  warm?: ArrayLike<number>;
  /** Key of the first tendon row among the joint rows. */
  first: number;
  /** Per key: the length (m or the joints' units) and the gap (limits), written here. */
  q: Float64Array;
  gap: Float64Array;
}

/** A row over the tendon's bodies with Jacobian s·J (plus s₂·J of a second tendon), or undefined when no end moves. */
function makeRow(ends: Map<number, Float64Array>, key: number, lo: number, hi: number, target: number, R0: number, compliance?: number): BoundedRow | undefined {
  const list = [...ends].filter(([slot]) => slot >= 0);
  if (!list.length) return undefined;
  const [a, b, ...more] = list;
  return {
    key,
    slotA: a[0],
    JA: a[1],
    slotB: b ? b[0] : -1,
    JB: b ? b[1] : new Float64Array(6),
    lo,
    hi,
    target,
    R0,
    ...(compliance !== undefined ? { compliance } : {}),
    ...(more.length ? { more: more.map(([slot, J]) => ({ slot, J })) } : {}),
  };
}

/** Σ_t s_t·J_t per free-body slot over the given tendons' evaluated Jacobians. */
function endsOf(input: TendonRowInput, parts: readonly [number, number][]): Map<number, Float64Array> {
  const out = new Map<number, Float64Array>();
  for (const [i, s] of parts) {
    const len = input.set.tendons[i].length;
    len.bodies.forEach((b, e) => {
      const slot = input.slotOf(b);
      if (slot < 0) return;
      let J = out.get(slot);
      if (!J) out.set(slot, (J = new Float64Array(6)));
      for (let c = 0; c < 6; c++) J[c] += s * len.J[6 * e + c];
    });
  }
  return out;
}

const dotEnds = (ends: Map<number, Float64Array>, u: ArrayLike<number>): number => {
  let s = 0;
  for (const [slot, J] of ends) for (let c = 0; c < 6; c++) s += J[c] * u[6 * slot + c];
  return s;
};

/**
 * The tendon rows of a step, keys from `input.first` in `tendonRowInfo`'s order; the tendons' lengths
 * must be evaluated at the step's states (`TendonSet.evaluate`).
 */
export function tendonRows(input: TendonRowInput): BoundedRow[] {
  const { set, h, warm, q, gap } = input;
  const rows: BoundedRow[] = [];
  let k = input.first;
  const push = (r: BoundedRow | undefined) => r && rows.push(r);
  set.tendons.forEach((t, i) => {
    const s = t.spec, len = t.length;
    const L = len.L;
    const ends = endsOf(input, [[i, 1]]);
    if (s.limits) {
      const Ldfree = dotEnds(ends, input.uFree);
      const margin = s.limitMargin ?? 0;
      for (const sg of [1, -1]) {
        const g = (sg > 0 ? L - s.limits[0] : s.limits[1] - L) - margin;
        q[k] = L;
        gap[k] = g;
        const closing = Math.max(0, -sg * len.Ld, -sg * Ldfree);
        const R0 = warm?.[k] ?? 0;
        if (g <= 2 * h * closing + SLOP || R0 > 0) {
          push(makeRow(endsOf(input, [[i, sg]]), k, 0, Infinity, g >= 0 ? -g / h : -(input.erp * g) / h, Math.max(0, R0)));
        }
        k++;
      }
    }
    const f = s.frictionLoss ?? 0;
    if (f > 0) {
      q[k] = L;
      push(makeRow(ends, k, -f, f, 0, Math.min(f, Math.max(-f, warm?.[k] ?? 0))));
      k++;
    }
    if (t.row) {
      q[k] = L;
      const d = set.report.damping[i];
      if (d > 0 && h > 0) push(makeRow(ends, k, -Infinity, Infinity, len.Ld, warm?.[k] ?? 0, 1 / d));
      k++;
    }
    const eq = s.equality;
    if (eq && (eq.other === undefined || t.other !== undefined)) {
      q[k] = L;
      let C = L - (eq.length0 ?? t.length0);
      let slope = 0;
      if (t.other !== undefined) {
        const dif = set.tendons[t.other].length.L - (eq.otherLength0 ?? set.tendons[t.other].length0);
        let p = 0, dp = 0;
        for (let n = eq.polycoef.length - 1; n >= 0; n--) {
          dp = dp * dif + p;
          p = p * dif + eq.polycoef[n];
        }
        C -= p;
        slope = dp;
      } else C -= eq.polycoef[0] ?? 0;
      gap[k] = C;
      const rowEnds = slope !== 0 && t.other !== undefined ? endsOf(input, [[i, 1], [t.other, -slope]]) : ends;
      push(makeRow(rowEnds, k, -Infinity, Infinity, -(input.erp * C) / h, warm?.[k] ?? 0));
      k++;
    }
  });
  return rows;
}
