// Step history → CSV or JSON (Export Step Data). The CSV is the shared run-export dialect (the
// same as `constraint-lens simulate --csv`); both spell non-finite values as the shared module
// does (docs/cli.md). Pure: no vscode.
import type { StepRecord } from '../../engine';
import { jsonCond, runCsv, stringifyJson, type RunMeta } from '../../shared';

export interface ExportMeta extends RunMeta {
  sceneName: string;
  fileName: string;
  dt: number;
}

type ExportFormat = 'csv' | 'json';

/** The format implied by a file name (`.csv` → csv, otherwise json). */
export function formatFromPath(path: string): ExportFormat {
  return /\.csv$/i.test(path) ? 'csv' : 'json';
}

interface StepDataJson {
  format: 'constraint-lens.steps';
  version: 1;
  scene: string;
  file: string;
  dt: number;
  constraints: readonly string[];
  rowLabels: readonly string[];
  bodies: readonly string[];
  /** `cond.A` is `"Infinity"` when singular, null without constraints; other non-finite numbers are strings too. */
  steps: unknown[];
}

export function toJson(records: readonly StepRecord[], meta: ExportMeta): string {
  const rows = meta.constraints.length === 0 ? 0 : Math.max(1, meta.rowLabels.length);
  const doc: StepDataJson = {
    format: 'constraint-lens.steps',
    version: 1,
    scene: meta.sceneName,
    file: meta.fileName,
    dt: meta.dt,
    constraints: meta.constraints,
    rowLabels: meta.rowLabels,
    bodies: meta.bodies,
    steps: records.map((r) => ({
      step: r.step,
      t: r.t,
      cond: { A: jsonCond(r.cond.A, rows) },
      condEstimated: r.condEstimated,
      method: r.method,
      energy: r.energy,
      quatDrift: r.quatDrift,
      C: r.C,
      lambda: r.lambda,
      poses: r.poses,
    })),
  };
  return stringifyJson(doc, 1) + '\n';
}

export function exportStepData(records: readonly StepRecord[], meta: ExportMeta, format: ExportFormat): string {
  return format === 'csv' ? runCsv(records, meta) : toJson(records, meta);
}
