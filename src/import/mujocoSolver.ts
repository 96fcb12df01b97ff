// MuJoCo as the solver for an imported model: the step-0 system analysed through the seam (the
// `inspect` of `--solver mujoco`), a run of mj_step with its records and findings (`simulate`), and the
// JSON both print. The model is the one loadModel read (the same files, keyframe and source map), so
// every diagnostic lands on the XML element it is about.
import { Codes, formatNumber, type Diagnostic, type SystemSnapshot } from '../engine';
import type { ModelParseResult } from './index';
import { loadMujoco } from './mujoco';
import { mujocoFindings } from './mujocoFindings';
import { restPenetrationIssues } from './mujocoPenetration';
import { MujocoRun, type AnalysedStep, type MujocoRunOptions, type MujocoStepRecord } from './mujocoRun';

export interface MujocoSolverOutput {
  run?: MujocoRun;
  /** The run's step 0 analysed (runDiagnostics reads it again as the run goes on). */
  step0?: AnalysedStep;
  /** MuJoCo's system at step 0, analysed (the views' snapshot). */
  snapshot?: SystemSnapshot;
  /** The import's diagnostics, then MuJoCo's findings (blow-up, clamped solref, mass conditioning, redundancy). */
  diagnostics: Diagnostic[];
  hasErrors: boolean;
}

const sortByPosition = (ds: Diagnostic[]): Diagnostic[] =>
  ds.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);

/** Equalities that start violated by more than this (m or rad) are named (MuJoCo pulls them closed at once). */
const START_VIOLATION = 1e-6;

/**
 * Open the model in MuJoCo, analyse its step-0 system and run `steps` mj_steps (0: inspect only).
 * The caller disposes `run` (it holds MuJoCo's model and data) unless it wants more steps or snapshots.
 */
export async function solveWithMujoco(parse: ModelParseResult, steps: number, opts: MujocoRunOptions = {}): Promise<MujocoSolverOutput> {
  const diagnostics = parse.diagnostics.filter((d) => d.code !== Codes.notSimulated);
  const model = parse.model;
  const root = parse.sourceMap.elementRange(parse.sourceMap.root);
  if (!model) return { diagnostics: sortByPosition(diagnostics), hasErrors: diagnostics.some((d) => d.severity === 'error') };
  let rt;
  try {
    rt = await loadMujoco();
  } catch (e) {
    diagnostics.push({ severity: 'error', code: Codes.mujocoUnavailable, message: e instanceof Error ? e.message : String(e), range: root });
    return { diagnostics, hasErrors: true };
  }
  const opened = MujocoRun.open(rt, model, opts);
  if ('error' in opened) {
    diagnostics.push({ severity: 'error', code: Codes.mujocoError, message: opened.error, range: root });
    return { diagnostics, hasErrors: true };
  }
  const run = opened;
  const step0 = run.snapshotAt(0);
  if (steps > 0) run.step(steps);
  const all = [...diagnostics, ...runDiagnostics(parse, run, step0)];
  return { run, step0, snapshot: step0.snapshot, diagnostics: sortByPosition(all), hasErrors: all.some((d) => d.severity === 'error') };
}

/**
 * MuJoCo's findings on a run as far as it has gone (the import's own diagnostics not included), sorted
 * by position: a failure, the blow-up, clamped solref, mass conditioning, redundancy, equalities started
 * violated, and how deep the contacts rest once it has stepped. `step0` is the run's analysed step 0.
 * The panel asks again whenever its MuJoCo run pauses or stops.
 */
export function runDiagnostics(parse: ModelParseResult, run: MujocoRun, step0: AnalysedStep): Diagnostic[] {
  const model = parse.model;
  if (!model) return [];
  const diagnostics: Diagnostic[] = [];
  const root = parse.sourceMap.elementRange(parse.sourceMap.root);
  if (step0.error) diagnostics.push({ severity: 'warning', code: Codes.singularSystem, message: `MuJoCo's system at step 0 could not be analysed: ${step0.error}`, range: root });
  if (run.failure) diagnostics.push({ severity: 'error', code: Codes.mujocoError, message: run.failure, range: root });
  const M0 = step0.system.mass.kind === 'M' ? denseOf(step0.system.mass.matrix) : new Float64Array(0);
  diagnostics.push(...mujocoFindings(run, model, parse.sourceMap, step0.analysis, M0));
  diagnostics.push(...startViolations(step0.snapshot, model, parse));
  // how deep the contacts rest, once the run has stepped (at step 0 nothing has settled) and not blown up
  if (run.currentStep > 0 && !run.columns.nonFinite(run.currentStep) && !run.failure) {
    const { m, d } = run.raw();
    diagnostics.push(...restPenetrationIssues(model, m, d, run.timestep, run.currentStep).map((i) => parse.sourceMap.toDiagnostic(i)));
  }
  return sortByPosition(diagnostics);
}

function denseOf(m: { rows: number; cols: number; rowPtr: Int32Array; colIdx: Int32Array; values: Float64Array }): Float64Array {
  const out = new Float64Array(m.rows * m.cols);
  for (let i = 0; i < m.rows; i++) for (let p = m.rowPtr[i]; p < m.rowPtr[i + 1]; p++) out[i * m.cols + m.colIdx[p]] = m.values[p];
  return out;
}

/** Equalities that start away from where they hold (a weld away from its relpose, a connect apart). */
function startViolations(snap: SystemSnapshot, model: NonNullable<ModelParseResult['model']>, parse: ModelParseResult): Diagnostic[] {
  const out: Diagnostic[] = [];
  const cm = model.compiled;
  for (const c of snap.constraints) {
    if (c.type !== 'equality' || !(c.violation > START_VIOLATION)) continue;
    const i = cm.equalities.findIndex((e, k) => (e.name || `${e.type}${k}`) === c.name);
    const el = i >= 0 ? model.map.equality[i] : undefined;
    const [tau] = i >= 0 ? cm.equalities[i].solref : [0.02];
    out.push(
      parse.sourceMap.toDiagnostic({
        severity: 'warning',
        code: Codes.initialViolation,
        element: el,
        message: `${cm.equalities[i]?.type ?? 'equality'} ${c.name} starts violated by ${formatNumber(c.violation)} (m or rad): MuJoCo pulls it closed over about ${formatNumber(4 * tau)} s (solref ${formatNumber(tau)} s) with a force of ${formatNumber(Math.hypot(...c.lambda))} at step 0. Start from a state where it holds (a keyframe, or the compiler's qpos0 for a weld without relpose).`,
        data: { constraint: c.name, violation: c.violation, step: 0 },
      }),
    );
  }
  return out;
}

const finiteOr = (x: number): number | string => (Number.isFinite(x) ? x : Number.isNaN(x) ? 'NaN' : x > 0 ? 'Infinity' : '-Infinity');

/** One step of a MuJoCo run in `simulate --json` (elements by name: ‖λ‖ and max |violation| of their rows). */
export function mujocoStepJson(run: MujocoRun, r: MujocoStepRecord): Record<string, unknown> {
  const elements: Record<string, { type: string; lambda: number | string; violation: number | string }> = {};
  r.elementIds.forEach((id, k) => {
    const e = run.elements[id];
    elements[e.name] = { type: e.type, lambda: finiteOr(r.elementLambda[k]), violation: finiteOr(r.elementViolation[k]) };
  });
  return {
    step: r.step,
    t: r.t,
    nefc: r.nefc,
    ncon: r.ncon,
    iterations: r.iterations,
    energy: { kinetic: finiteOr(r.energy.kinetic), potential: finiteOr(r.energy.potential), total: finiteOr(r.energy.total) },
    elements,
    ...(r.warnings.length ? { warnings: r.warnings } : {}),
  };
}
