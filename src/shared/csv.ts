// CSV as every export writes it (RFC 4180, `\n` line ends), and the one run-export dialect
// (`simulate --csv` and the extension's Export Step Data). Pure: no vscode, no DOM, no Node APIs.
import { exactNumber } from './number';

/** RFC 4180 quoting: fields with a comma, quote, CR or LF are quoted, quotes doubled. */
export function csvField(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * A text field from an untrusted source (names in a scene): a leading `=`, `+`, `-`, `@`, tab or
 * CR would make a spreadsheet evaluate the cell as a formula, so it gets a leading `'`; then quoted.
 */
export function csvText(s: string): string {
  return csvField(/^[=+\-@\t\r]/.test(s) ? `'${s}` : s);
}

/** A number field: the exact value; non-finite as `NaN`, `Infinity`, `-Infinity`; missing (null/undefined) as an empty field. */
export function csvNumber(x: number | null | undefined): string {
  return x === null || x === undefined ? '' : exactNumber(x);
}

/** What the run export needs of a step record (the engine's StepRecord has it). */
export interface RunRecord {
  step: number;
  t: number;
  /** κ(A): null = infinite (singular). */
  cond: { A: number | null };
  condEstimated: boolean;
  method: string;
  energy: { kinetic: number; potential: number; total: number };
  quatDrift: number;
  /** ‖C‖₂ per constraint. */
  C: ArrayLike<number>;
  /** λ per row (may be empty when the run did not record λ). */
  lambda: ArrayLike<number>;
  /** [px, py, pz, qx, qy, qz, qw] per body in scene order. */
  poses: ArrayLike<number>;
}

export interface RunMeta {
  /** Constraint names, in the order of RunRecord.C. */
  constraints: readonly string[];
  /** Row labels of J (e.g. `rod.d`), in the order of RunRecord.lambda. */
  rowLabels: readonly string[];
  /** Body names in scene order, as in RunRecord.poses. */
  bodies: readonly string[];
}

const POSE = ['px', 'py', 'pz', 'qx', 'qy', 'qz', 'qw'];

/** The run export's columns (documented in docs/cli.md). */
export function runCsvHeader(meta: RunMeta): string[] {
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

/**
 * One line per step record. `cond_A` is `Infinity` when A is singular and empty when there are no
 * constraints; λ fields are empty for steps that did not record λ; other missing values are empty.
 */
export function runCsv(records: readonly RunRecord[], meta: RunMeta): string {
  const lines = [runCsvHeader(meta).map(csvText).join(',')];
  const nPose = meta.bodies.length * 7;
  const noRows = meta.constraints.length === 0;
  for (const r of records) {
    const row: string[] = [
      String(r.step),
      csvNumber(r.t),
      noRows ? '' : csvNumber(r.cond.A ?? Infinity),
      r.condEstimated ? 'true' : 'false',
      csvText(r.method),
      csvNumber(r.energy.kinetic),
      csvNumber(r.energy.potential),
      csvNumber(r.energy.total),
      csvNumber(r.quatDrift),
    ];
    for (let i = 0; i < meta.constraints.length; i++) row.push(csvNumber(r.C[i]));
    const withLambda = r.lambda.length === meta.rowLabels.length;
    for (let i = 0; i < meta.rowLabels.length; i++) row.push(withLambda ? csvNumber(r.lambda[i]) : '');
    for (let i = 0; i < nPose; i++) row.push(csvNumber(r.poses[i]));
    lines.push(row.join(','));
  }
  return lines.join('\n') + '\n';
}
