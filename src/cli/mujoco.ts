// `--solver mujoco`: inspect, simulate and their JSON with MuJoCo's own constraint system under the
// lens (src/import/mujocoSolver.ts). The JSON follows `inspect --json` where the quantities are the same
// and names MuJoCo's where they are MuJoCo's (docs/cli.md "MuJoCo as the solver").
import { basename, resolve } from 'node:path';
import { DEFAULT_CONDITION_WARNING, type Diagnostic, type SystemSnapshot } from '../engine';
import type { ModelParseResult } from '../import';
import type { MujocoRun } from '../import/mujocoRun';
import { mujocoStepJson, solveWithMujoco } from '../import/mujocoSolver';
import { mujocoReportModel } from '../mujocoPanelModel';
import { buildReportHtml } from '../report';
import { formatCond, formatNumber, jsonCond, safeText, stringifyJson } from '../shared';
import { printDiagnostics } from './inspect';
import { print, writeOut } from './io';
import { matrixJson } from './json';
import { listed } from './text';

const diagnosticsJson = (diagnostics: readonly Diagnostic[]) => diagnostics.map((d) => ({ severity: d.severity, code: d.code, message: d.message, range: d.range, ...(d.data ? { data: d.data } : {}) }));

/** `inspect --solver mujoco --json`: MuJoCo's system at step 0, named and analysed. */
export function mujocoInspectJson(snap: SystemSnapshot | undefined, run: MujocoRun | undefined, diagnostics: readonly Diagnostic[]): string {
  if (!snap) return stringifyJson({ solver: 'mujoco', diagnostics: diagnosticsJson(diagnostics) });
  const rows = snap.rank.rows;
  const types = new Map(snap.constraints.map((c) => [c.name, c.type]));
  return stringifyJson({
    solver: 'mujoco',
    ...(run ? { integrator: run.integrator, timestep: run.timestep } : {}),
    dofs: snap.columnLabels,
    rows: snap.rows.map((r) => ({ constraint: r.constraint, type: types.get(r.constraint) ?? 'constraint', row: r.row, label: r.label })),
    J: matrixJson(snap.J),
    ...(snap.M ? { M: matrixJson(snap.M) } : {}),
    ...(snap.Minv ? { Minv: matrixJson(snap.Minv) } : {}),
    ...(snap.A ? { A: matrixJson(snap.A) } : {}),
    R: snap.Rdiag ?? new Float64Array(rows),
    b: snap.b,
    lambda: snap.lambda,
    C: snap.C,
    cond: { A: jsonCond(snap.cond.A, rows), AR: jsonCond(snap.condAR ?? null, rows) },
    rank: { J: snap.rank.J },
    redundant: snap.redundant,
    ...(snap.contacts ? { contacts: snap.contacts } : {}),
    diagnostics: diagnosticsJson(diagnostics),
  });
}

/** `simulate --solver mujoco --json`: one object per mj_step (step 0: the initial state). */
export function mujocoSimulateJson(run: MujocoRun | undefined, diagnostics: readonly Diagnostic[]): string {
  return stringifyJson({
    solver: 'mujoco',
    ...(run ? { integrator: run.integrator, timestep: run.timestep } : {}),
    steps: run ? run.records.map((r) => mujocoStepJson(run, r)) : [],
    ...(run?.failure ? { failure: run.failure } : {}),
    diagnostics: diagnosticsJson(diagnostics),
  });
}

function printSystem(snap: SystemSnapshot, run: MujocoRun | undefined): void {
  const rows = snap.rank.rows;
  print(`Solver: MuJoCo${run ? ` (mj_step, ${run.integrator}, timestep ${formatNumber(run.timestep)} s)` : ''}; ${snap.columnLabels.length} DOFs, ${rows} constraint rows at step ${snap.step}`);
  const byType = new Map<string, string[]>();
  for (const c of snap.constraints) byType.set(c.type, [...(byType.get(c.type) ?? []), safeText(c.name)]);
  for (const [type, names] of byType) print(`  ${type}: ${listed(names)}`);
  print(`κ₂(A) = ${formatCond(snap.cond.A, { rows })}   κ₂(A + R) = ${formatCond(snap.condAR ?? null, { rows })}   rank(J) = ${snap.rank.J}/${rows}   residual ‖(A + R)·λ − b‖ = ${formatNumber(snap.residual)}`);
  for (const r of snap.redundant)
    print(`  redundant: ${safeText(r.constraint)}[${r.row}] = ${r.dependsOn.length ? r.dependsOn.map((d) => `${formatNumber(d.coefficient)}·${safeText(d.constraint)}[${d.row}]`).join(' + ') : '0 (a zero row in joint space)'}`);
}

const defaultSteps = (parse: ModelParseResult, steps: number | undefined): number => Math.max(0, Math.floor(steps ?? Math.round(1 / (parse.model?.compiled.timestep || 0.002))));

/**
 * `report --solver mujoco`: MuJoCo's run as the panel's report (every step analysed: κ and rank in the
 * history, λ and violation per named element, MuJoCo's findings). Returns whether there were errors.
 */
export async function runMujocoReport(
  file: string,
  parse: ModelParseResult,
  opts: { steps?: number; keyframe?: string; out: string; assets: { js: string; css: string }; generator: string; progress?: (done: number, total: number) => void },
): Promise<boolean> {
  const out = await solveWithMujoco(parse, defaultSteps(parse, opts.steps), opts.keyframe ? { keyframe: opts.keyframe } : {});
  try {
    if (!out.run || !out.snapshot) {
      printDiagnostics(file, out.diagnostics);
      return true;
    }
    const name = parse.scene?.name ?? basename(file);
    const model = mujocoReportModel(
      out.run,
      { sceneName: name, fileName: basename(file), snapshot: out.snapshot, diagnostics: out.diagnostics, plannedSteps: out.run.currentStep, conditionWarning: parse.scene?.solver.conditionWarning ?? DEFAULT_CONDITION_WARNING, generator: opts.generator },
      opts.progress,
    );
    const html = buildReportHtml(model, opts.assets);
    writeOut(opts.out, html);
    print(`Report written to ${resolve(opts.out)} (${Math.round(html.length / 1024)} KiB, MuJoCo ${out.run.integrator}, ${model.history.length} mj_steps analysed, matrices of ${model.snapshots?.length ?? 1} steps)`);
    printDiagnostics(file, out.diagnostics);
    return out.hasErrors;
  } finally {
    out.run?.dispose();
  }
}

/** `inspect|simulate --solver mujoco`: runs MuJoCo on the model; returns whether there were errors. */
export async function runMujocoCommand(command: 'inspect' | 'simulate', file: string, parse: ModelParseResult, opts: { steps?: number; json: boolean; keyframe?: string }): Promise<boolean> {
  const steps = command === 'inspect' ? 0 : defaultSteps(parse, opts.steps);
  const out = await solveWithMujoco(parse, steps, opts.keyframe ? { keyframe: opts.keyframe } : {});
  try {
    if (opts.json) {
      print(command === 'inspect' ? mujocoInspectJson(out.snapshot, out.run, out.diagnostics) : mujocoSimulateJson(out.run, out.diagnostics));
      return out.hasErrors;
    }
    print(`Model: ${safeText(parse.scene?.name ?? file)} (${safeText(file)})`);
    if (out.snapshot) printSystem(out.snapshot, out.run);
    const run = out.run;
    if (command === 'simulate' && run) {
      const recs = run.records;
      const last = recs[recs.length - 1];
      let maxIter = 0, maxRows = 0;
      for (const r of recs) {
        maxIter = Math.max(maxIter, r.iterations);
        maxRows = Math.max(maxRows, r.nefc);
      }
      print(`Ran ${run.currentStep} mj_steps (t = ${formatNumber(last.t)} s)${run.stopped && run.currentStep < steps ? `, stopped at step ${run.currentStep}${last.nonFinite ? ' (non-finite state)' : ''}` : ''}; solver iterations ≤ ${maxIter}; constraint rows ≤ ${maxRows}.`);
      print(`Energy: step 0 ${formatNumber(recs[0].energy.total)} J, last ${formatNumber(last.energy.total)} J`);
      const peak = new Map<number, { lambda: number; violation: number }>();
      for (const r of recs)
        r.elementIds.forEach((id, k) => {
          const p = peak.get(id) ?? { lambda: 0, violation: 0 };
          if (!(r.elementLambda[k] <= p.lambda)) p.lambda = r.elementLambda[k];
          if (!(r.elementViolation[k] <= p.violation)) p.violation = r.elementViolation[k];
          peak.set(id, p);
        });
      for (const [id, p] of peak) print(`  ${run.elements[id].type} ${safeText(run.elements[id].name)}: max ‖λ‖ ${formatNumber(p.lambda)}, max |violation| ${formatNumber(p.violation)}`);
    }
    printDiagnostics(file, out.diagnostics);
    return out.hasErrors;
  } finally {
    out.run?.dispose();
  }
}
