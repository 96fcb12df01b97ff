// A trace analysed step by step with the seam's analysis (analyseSystem): κ, rank, ‖λ‖ and ‖C‖ per
// step, κ per logged iteration beside the one the producer stored, and the run's diagnostics, each
// saying its step: the first redundant or conflicting rows (CL301, CL302), the first step at or above
// the κ warning (CL303), and the first non-finite value with the key it is in and where the growth
// before it began (CL401).
import { Codes } from '../core/codes';
import { formatNumber } from '../core/format';
import type { RedundantRow } from '../result';
import { analyseSystem, type SystemAnalysis } from '../system/analyse';
import type { ConstrainedSystem } from '../system/contract';
import type { Diagnostic } from '../types';
import { traceDiagnostic, type TraceKeys, type TraceSource } from './source';

export interface TraceIterationSummary {
  /** κ₂ of the iteration's system as the analysis computes it (of A + R when the producer has R), null when it cannot. */
  cond: number | null;
  /** The κ the producer itself stored for the iteration, when it did. */
  storedCond: number | null;
}

export interface TraceStepSummary {
  step: number;
  t: number;
  rows: number;
  /** κ₂(A), or of A + R when the producer regularises its rows (Axion's A includes its compliance). */
  cond: number | null;
  rank: number | null;
  normLambda: number | null;
  normC: number | null;
  /** ‖(A + R)·λ − b‖ of the producer's λ when the trace has both. */
  residual: number | null;
  iterations?: TraceIterationSummary[];
}

export interface TraceAnalysis {
  steps: TraceStepSummary[];
  diagnostics: Diagnostic[];
  /** The first step with a non-finite value, when there is one. */
  firstNonFinite?: number;
}

export interface TraceAnalysisOptions {
  /** κ at or above which CL303 is reported (default 1e6, the scenes' default). */
  conditionWarning?: number;
}

const norm = (x: ArrayLike<number> | undefined): number | null => {
  if (!x) return null;
  let s = 0;
  for (let i = 0; i < x.length; i++) s += x[i] * x[i];
  return Math.sqrt(s);
};

const finiteOrNull = (x: number | undefined): number | null => (x !== undefined && Number.isFinite(x) ? x : null);

/** The first quantity of a step with a NaN or infinite entry: its file key and the row or entry. */
function firstNonFinite(s: ConstrainedSystem, keys: TraceKeys): { key: string; where: string } | undefined {
  const at = (v: ArrayLike<number> | undefined): number => {
    if (v) for (let i = 0; i < v.length; i++) if (!Number.isFinite(v[i])) return i;
    return -1;
  };
  const massValues = s.mass.kind === 'blocks' ? s.mass.Minv : s.mass.matrix.values;
  if (at(massValues) >= 0) return { key: keys.mass, where: 'an entry' };
  const j = at(s.J.values);
  if (j >= 0) {
    let row = 0;
    while (s.J.rowPtr[row + 1] <= j) row++;
    return { key: keys.J, where: `row ${s.rows[row]?.label ?? row}` };
  }
  for (const [v, key] of [[s.lambda, keys.lambda], [s.b, keys.b], [s.R, keys.R], [s.C, keys.C]] as const) {
    const i = at(v);
    if (i >= 0) return { key: key ?? '?', where: `row ${s.rows[i]?.label ?? i}` };
  }
  return undefined;
}

/** `row = c·row + …` with the rows named by their labels (a trace's row names). */
function dependence(r: RedundantRow, rows: ConstrainedSystem['rows']): string {
  const label = (x: { constraint: string; row: number }) => rows.find((y) => y.constraint === x.constraint && y.row === x.row)?.label ?? `${x.constraint}[${x.row}]`;
  return `${label(r)} = ${r.dependsOn.length ? r.dependsOn.map((d) => `${formatNumber(d.coefficient, 6)}·${label(d)}`).join(' + ') : '0'}`;
}

/** κ of what the producer solves: A + R when it regularises, else A. */
const condOf = (an: SystemAnalysis): number => an.cond.AR ?? an.cond.A;

/** Analyses every step of a trace (never throws: a step that cannot be analysed has null numbers). */
export function analyseTrace(source: TraceSource, opts: TraceAnalysisOptions = {}): TraceAnalysis {
  const warn = opts.conditionWarning ?? 1e6;
  const steps: TraceStepSummary[] = [];
  const diagnostics: Diagnostic[] = [];
  let nonFiniteAt: number | undefined;
  let redundantSeen = '';
  let illSeen = false;
  for (let k = 0; k < source.steps; k++) {
    const s = source.systemAt(k);
    const keys = source.keysAt(k);
    const m = s.J.rows;
    const summary: TraceStepSummary = { step: k, t: s.t, rows: m, cond: null, rank: null, normLambda: finiteOrNull(norm(s.lambda) ?? undefined), normC: finiteOrNull(norm(s.C) ?? undefined), residual: null };
    const iterations = source.iterationsAt?.(k);
    if (iterations && iterations.length > 0)
      summary.iterations = iterations.map((it) => {
        const an = it.system ? analyseSystem(it.system, { wantSpectrum: false }) : undefined;
        return { cond: an?.ok ? finiteOrNull(condOf(an)) ?? (m > 0 ? Infinity : null) : null, storedCond: finiteOrNull(it.cond) };
      });
    steps.push(summary);
    const bad = firstNonFinite(s, keys);
    if (bad) {
      if (nonFiniteAt === undefined) {
        nonFiniteAt = k;
        const onset = growthOnset(steps, k);
        diagnostics.push(
          traceDiagnostic(
            Codes.nonFinite,
            `step ${k}: '${bad.key}' has a NaN or infinite value (${bad.where})${onset !== undefined && onset < k ? `; ‖λ‖ grew at every step from step ${onset} on` : ''}`,
            { step: k, key: bad.key, ...(onset !== undefined && onset < k ? { onset } : {}) },
          ),
        );
      }
      continue;
    }
    const an = analyseSystem(s, { wantSpectrum: false });
    if (!an.ok) {
      diagnostics.push(traceDiagnostic(Codes.singularSystem, `step ${k}: the system cannot be analysed: ${an.message}`, { step: k, key: an.reason === 'mass' ? keys.mass : keys.J }));
      continue;
    }
    summary.cond = m > 0 ? (Number.isFinite(condOf(an)) ? condOf(an) : Infinity) : null;
    summary.rank = an.rank.J;
    if (s.lambda && s.b) summary.residual = an.residual;
    const redundantKey = an.redundant.map((r) => dependence(r, s.rows)).join('; ');
    if (an.redundant.length > 0 && redundantKey !== redundantSeen) {
      const conflicting = an.consistent === false;
      diagnostics.push(
        traceDiagnostic(
          conflicting ? Codes.conflictingConstraints : Codes.redundantConstraint,
          `step ${k}: ${conflicting ? 'conflicting rows (their right-hand sides disagree, no λ satisfies them)' : 'redundant rows, λ is not unique'}: ${redundantKey}`,
          { step: k, redundant: an.redundant, rank: an.rank.J, rows: m },
          conflicting ? 'error' : 'warning',
        ),
      );
    }
    redundantSeen = an.redundant.length > 0 ? redundantKey : '';
    const cond = summary.cond;
    if (!illSeen && cond !== null && Number.isFinite(cond) && cond >= warn) {
      illSeen = true;
      diagnostics.push(traceDiagnostic(Codes.illConditioned, `step ${k}: κ₂ = ${formatNumber(cond, 4)} is at or above ${warn}`, { step: k, cond }, 'warning'));
    }
  }
  return { steps, diagnostics, ...(nonFiniteAt !== undefined ? { firstNonFinite: nonFiniteAt } : {}) };
}

/** The first step of the run of steps before `bad` over which ‖λ‖ grew at every step. */
function growthOnset(steps: readonly TraceStepSummary[], bad: number): number | undefined {
  let k = bad - 1;
  if (k < 1) return undefined;
  while (k >= 1) {
    const a = steps[k - 1].normLambda, b = steps[k].normLambda;
    if (a === null || b === null || !(b > a)) break;
    k--;
  }
  return k < bad - 1 ? k : undefined;
}
