// Step history → CSV or JSON (Export Step Data). Pure: no vscode.
import type { StepRecord } from '../../engine';

export interface ExportMeta {
  sceneName: string;
  fileName: string;
  dt: number;
  /** Constraint names, in the order of StepRecord.C. */
  constraints: string[];
  /** Row labels of J, in the order of StepRecord.lambda (e.g. `rod.d`). */
  rowLabels: string[];
  /** Body names in scene order, as in StepRecord.poses (7 numbers each). */
  bodies: string[];
}

export type ExportFormat = 'csv' | 'json';

/** The format implied by a file name (`.csv` → csv, otherwise json). */
export function formatFromPath(path: string): ExportFormat {
  return /\.csv$/i.test(path) ? 'csv' : 'json';
}

/** CSV number: full precision; non-finite numbers as `inf`, `-inf`, `nan` (read by numpy/pandas). */
export function csvNumber(x: number | null | undefined): string {
  if (x === null || x === undefined) return '';
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  return String(x);
}

/** RFC 4180 field quoting. */
export function csvField(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const POSE = ['px', 'py', 'pz', 'qx', 'qy', 'qz', 'qw'];

export function csvHeader(meta: ExportMeta): string[] {
  return [
    'step',
    't',
    'cond_A',
    'cond_estimated',
    'method',
    'kinetic',
    'potential',
    'total_energy',
    'quat_drift',
    ...meta.constraints.map((c) => `C[${c}]`),
    ...meta.rowLabels.map((r) => `lambda[${r}]`),
    ...meta.bodies.flatMap((b) => POSE.map((p) => `${b}.${p}`)),
  ];
}

/** One line per record; `cond_A` of a singular system is `inf`. Missing values are empty fields. */
export function toCsv(records: readonly StepRecord[], meta: ExportMeta): string {
  const header = csvHeader(meta);
  const lines = [header.map(csvField).join(',')];
  const nPose = meta.bodies.length * 7;
  for (const r of records) {
    const row: string[] = [
      String(r.step),
      csvNumber(r.t),
      r.cond.A === null ? 'inf' : csvNumber(r.cond.A),
      r.condEstimated ? 'true' : 'false',
      csvField(r.method),
      csvNumber(r.energy.kinetic),
      csvNumber(r.energy.potential),
      csvNumber(r.energy.total),
      csvNumber(r.quatDrift),
    ];
    for (let i = 0; i < meta.constraints.length; i++) row.push(csvNumber(r.C[i]));
    for (let i = 0; i < meta.rowLabels.length; i++) row.push(csvNumber(r.lambda[i]));
    for (let i = 0; i < nPose; i++) row.push(csvNumber(r.poses[i]));
    lines.push(row.join(','));
  }
  return lines.join('\n') + '\n';
}

/** JSON-safe number: non-finite values as strings (`"Infinity"`, `"NaN"`), since JSON has none. */
function jsonNumber(x: number | null): number | string | null {
  if (x === null) return null;
  return Number.isFinite(x) ? x : String(x);
}

export interface StepDataJson {
  format: 'constraint-lens.steps';
  version: 1;
  scene: string;
  file: string;
  dt: number;
  constraints: string[];
  rowLabels: string[];
  bodies: string[];
  /** `cond.A` is null for a singular system; other non-finite numbers are strings. */
  steps: unknown[];
}

export function toJson(records: readonly StepRecord[], meta: ExportMeta): string {
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
      t: jsonNumber(r.t),
      cond: { A: jsonNumber(r.cond.A) },
      condEstimated: r.condEstimated,
      method: r.method,
      energy: { kinetic: jsonNumber(r.energy.kinetic), potential: jsonNumber(r.energy.potential), total: jsonNumber(r.energy.total) },
      quatDrift: jsonNumber(r.quatDrift),
      C: r.C.map(jsonNumber),
      lambda: r.lambda.map(jsonNumber),
      poses: r.poses.map(jsonNumber),
    })),
  };
  return JSON.stringify(doc, null, 1) + '\n';
}

export function exportStepData(records: readonly StepRecord[], meta: ExportMeta, format: ExportFormat): string {
  return format === 'csv' ? toCsv(records, meta) : toJson(records, meta);
}
