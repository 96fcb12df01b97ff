// A trace file in the panel and the report: the same PanelModel a scene gets, fed from the trace's
// steps instead of a simulation. Trace step 0 is the model's initial snapshot and steps 1 … S−1 are
// the run's records (a scene's record k is step k + 1), so the timeline, the history charts and Go to
// Step work unchanged; `trace` carries the per-step numbers only a trace has (κ of what the producer
// solves, its own λ's residual, the κ per Newton iteration beside the κ the producer stored).
import { analyseSystem, Codes, snapshotOfSystem, type ConstrainedSystem, type Diagnostic, type StepRecord, type SystemAnalysis, type SystemSnapshot, type TraceAnalysis, type TraceSource } from './engine';
import type { MaybeNumber, PanelModel, TraceSection } from './protocol';

const orNull = (x: number | null | undefined): MaybeNumber => (x !== null && x !== undefined && Number.isFinite(x) ? x : null);

/** Consecutive rows of one element form one constraint, as snapshotOfSystem groups them. */
function constraintGroups(s: ConstrainedSystem): number[][] {
  const groups: number[][] = [];
  let last: string | undefined;
  s.rows.forEach((r, i) => {
    if (r.constraint !== last || groups.length === 0) groups.push([]);
    groups[groups.length - 1].push(i);
    last = r.constraint;
  });
  return groups;
}

/**
 * What stands for the analysis of a step that cannot be analysed (a NaN in M, a J that does not fit
 * M): J and the trace's own λ are shown, A is empty and κ unknown; the snapshot's diagnostics say why.
 */
function unanalysed(s: ConstrainedSystem): SystemAnalysis {
  const m = s.J.rows;
  return {
    ok: true,
    A: { rows: m, cols: m, rowPtr: new Int32Array(m + 1), colIdx: new Int32Array(0), values: new Float64Array(0) },
    cond: { A: NaN },
    condEstimated: false,
    rankTolerance: 0,
    rank: { J: 0, rows: m, dofs: s.J.cols },
    redundant: [],
    consistent: null,
    lambda: s.lambda && s.lambda.length === m ? s.lambda : new Float64Array(m),
    lambdaSource: s.lambda ? 'producer' : 'none',
    residual: 0,
    method: 'lstsq',
  };
}

/** Step k of a trace as the panel's snapshot (matrices, spectrum, λ, redundancy), never throwing. */
export function traceSnapshotAt(source: TraceSource, k: number, opts: { diagnostics?: readonly Diagnostic[] } = {}): SystemSnapshot {
  const sys = source.systemAt(k);
  const an = analyseSystem(sys);
  const snap = snapshotOfSystem(sys, an.ok ? an : unanalysed(sys));
  const own = (opts.diagnostics ?? []).filter((d) => (d.data as { step?: unknown } | undefined)?.step === k);
  // a step the run's diagnostics do not already say is wrong says why it shows no A
  const why: Diagnostic | undefined =
    an.ok || own.some((d) => d.severity === 'error')
      ? undefined
      : { severity: 'error', code: an.reason === 'non-finite' ? Codes.nonFinite : Codes.singularSystem, message: `step ${k} cannot be analysed: ${an.message}`, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, data: { step: k } };
  snap.diagnostics = why ? [why, ...own] : own;
  return snap;
}

/** Step k's record for the history charts: ‖C‖ per constraint, λ per row, κ(A) and rank as the snapshot has them. */
function traceRecord(sys: ConstrainedSystem): StepRecord {
  const an = analyseSystem(sys, { wantSpectrum: false });
  const lambda = an.ok ? an.lambda : (sys.lambda ?? new Float64Array(sys.J.rows));
  // no C in the trace: NaN, which the ‖C‖ chart leaves out instead of drawing a violation of 0
  const C = constraintGroups(sys).map((g) => (sys.C ? Math.hypot(...g.map((i) => sys.C?.[i] ?? 0)) : NaN));
  return {
    step: sys.step,
    t: sys.t,
    C,
    lambda: Array.from(lambda),
    cond: { A: an.ok ? orNull(an.cond.A) : null },
    condEstimated: an.ok ? an.condEstimated : false,
    ...(an.ok ? { rank: an.rank.J } : {}),
    energy: { kinetic: 0, potential: 0, total: 0 },
    quatDrift: 0,
    method: an.ok ? an.method : 'lstsq',
    poses: [],
  };
}

/** The timeline's numbers of every step (JSON-safe: non-finite numbers are null). */
export function traceSection(source: TraceSource, run: TraceAnalysis): TraceSection {
  return {
    format: source.format,
    steps: run.steps.map((s) => ({
      step: s.step,
      t: s.t,
      rows: s.rows,
      cond: orNull(s.cond),
      rank: orNull(s.rank),
      normLambda: orNull(s.normLambda),
      normC: orNull(s.normC),
      residual: orNull(s.residual),
      ...(s.iterations ? { iterations: s.iterations.map((it) => ({ cond: orNull(it.cond), storedCond: orNull(it.storedCond) })) } : {}),
    })),
    ...(run.firstNonFinite !== undefined ? { firstNonFinite: run.firstNonFinite } : {}),
  };
}

export interface TraceModelOptions {
  /** The step whose snapshot the model carries (default 0; clamped to the trace). */
  step?: number;
  /** The κ band threshold (default 1e6, as analyseTrace's CL303). */
  conditionWarning?: number;
  /** Embed the snapshots of these steps (a report: the panel then needs no host). */
  snapshotSteps?: readonly number[];
}

/** The panel model of a trace: its steps as the run, its diagnostics, its per-step timeline. */
export function buildTracePanelModel(fileName: string, source: TraceSource, run: TraceAnalysis, diagnostics: readonly Diagnostic[], opts: TraceModelOptions = {}): PanelModel {
  const last = Math.max(0, source.steps - 1);
  const step = Math.max(0, Math.min(last, opts.step ?? 0));
  const history: StepRecord[] = [];
  for (let k = 1; k < source.steps; k++) history.push(traceRecord(source.systemAt(k)));
  const ts = run.steps.map((s) => s.t);
  const dt = ts.length > 1 && Number.isFinite(ts[1] - ts[0]) && ts[1] > ts[0] ? ts[1] - ts[0] : 0;
  const warning = opts.conditionWarning ?? 1e6;
  const snapshot = traceSnapshotAt(source, step, { diagnostics });
  const model: PanelModel = {
    sceneName: fileName,
    fileName,
    snapshot,
    history,
    steps: last,
    plannedSteps: last,
    dt,
    conditionWarning: warning,
    diagnostics: [...diagnostics],
    sceneBodies: [],
    trace: traceSection(source, run),
  };
  if (opts.snapshotSteps) model.snapshots = opts.snapshotSteps.filter((k) => k >= 0 && k <= last).map((k) => (k === step ? snapshot : traceSnapshotAt(source, k, { diagnostics })));
  return model;
}
