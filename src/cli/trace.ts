// `inspect TRACE` and `report TRACE`: a trace file of someone's own solver (.npz, Axion's or FCLib's
// HDF5; docs/traces.md) under the lens. The JSON follows `inspect --json` (rows, J, A or W for a
// local problem, lambda, C, cond, rank, redundant, diagnostics) at the step asked for, plus `steps`:
// per step κ, rank, ‖λ‖, ‖C‖ and, for Axion, κ per Newton iteration beside the κ Axion stored.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { analyseSystem, analyseTrace, isHdf5, snapshotOfSystem, readTrace, type Diagnostic, type Hdf5Open, type TraceAnalysis, type TraceSource } from '../engine';
import { formatCond, formatNumber, jsonCond, safeText, stringifyJson } from '../shared';
import { printDiagnostics } from './inspect';
import { checkWritable, IoError, print, printError } from './io';
import { defaultTraceReportPath, writeTraceReport } from './traceReport';
import { matrixJson } from './json';

/**
 * h5wasm's opener, loaded only for a trace: dist/hdf5.js (src/import/hdf5.ts bundled on its own by
 * scripts/build.mjs) next to the bundled CLI, so that its 5 MB are not parsed by every command (they
 * were ⅘ of the CLI's bundle, ≈ 0.2 s of every start); src/import/hdf5.ts when the CLI runs from
 * source. Undefined when neither loads: the trace reader then says so.
 */
async function loadHdf5Open(): Promise<Hdf5Open | undefined> {
  const bundled = join(__dirname, 'hdf5.js');
  const file = existsSync(bundled) ? bundled : join(__dirname, '..', 'import', 'hdf5.ts');
  try {
    type Module = { loadHdf5Open?: () => Promise<Hdf5Open | undefined> };
    const mod = (await import(pathToFileURL(file).href)) as Module & { default?: Module };
    const load = mod.loadHdf5Open ?? mod.default?.loadHdf5Open;
    return load ? await load() : undefined;
  } catch {
    return undefined;
  }
}

/** File names taken for traces: the bytes decide the format, the name only routes the command here. */
export const TRACE_FILE = /\.(npz|h5|hdf5|hdf)$/i;

const diagnosticsJson = (diagnostics: readonly Diagnostic[]) => diagnostics.map((d) => ({ severity: d.severity, code: d.code, message: d.message, range: d.range, ...(d.data ? { data: d.data } : {}) }));

interface TraceArgs {
  command: 'inspect' | 'report';
  file: string;
  /** inspect: the step shown in full; report: the step the report opens at. */
  step: number;
  json: boolean;
  world: number;
  /** report: the HTML file. */
  output?: string;
}

const USAGE_TRACE = 'Usage: constraint-lens inspect TRACE.npz|TRACE.h5 [--step K] [--world W] [--json]\n       constraint-lens report TRACE.npz|TRACE.h5 [--step K] [--world W] [-o FILE]';

function parseTraceArgs(argv: string[]): TraceArgs | string {
  const [command, ...rest] = argv;
  if (command !== 'inspect' && command !== 'report') return `a trace file is read by 'inspect' or 'report' (got '${command}')`;
  let file: string | undefined, output: string | undefined, step = 0, json = false, world = 0;
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    const whole = (name: string): number | string => {
      const v = rest[++i];
      return v !== undefined && /^\d+$/.test(v) ? Number(v) : `${name} needs a whole number ≥ 0`;
    };
    if (a === '--json' && command === 'inspect') json = true;
    else if ((a === '-o' || a === '--output') && command === 'report') {
      output = rest[++i];
      if (output === undefined || output === '') return `${a} needs a file name`;
    } else if (a === '--step' || a === '--world') {
      const v = whole(a);
      if (typeof v === 'string') return v;
      if (a === '--step') step = v;
      else world = v;
    } else if (a.startsWith('-')) return `unknown option for a trace: ${a}`;
    else if (file === undefined) file = a;
    else return `one trace file at a time (got '${a}' too)`;
  }
  if (!file) return 'no trace file given';
  return { command, file, step, json, world, ...(output !== undefined ? { output } : {}) };
}

/** The `inspect TRACE --json` object. */
export function traceInspectJson(source: TraceSource | undefined, run: TraceAnalysis | undefined, step: number, diagnostics: readonly Diagnostic[]): string {
  if (!source || !run || step >= source.steps) return stringifyJson({ ...(source ? { format: source.format, stepCount: source.steps } : {}), diagnostics: diagnosticsJson(diagnostics) });
  const sys = source.systemAt(step);
  const an = analyseSystem(sys);
  const m = sys.J.rows;
  const local = source.format === 'fclib-local';
  const out: Record<string, unknown> = { format: source.format, producer: sys.producer, step, t: sys.t, stepCount: source.steps, dofs: sys.dofLabels, rows: sys.rows };
  if (an.ok) {
    const snap = snapshotOfSystem(sys, an);
    Object.assign(out, {
      J: matrixJson(sys.J),
      ...(local ? { W: matrixJson(an.A) } : { ...(snap.Minv ? { Minv: matrixJson(snap.Minv) } : {}), ...(snap.M ? { M: matrixJson(snap.M) } : {}), A: matrixJson(an.A) }),
      ...(sys.R ? { R: sys.R } : {}),
      ...(sys.b ? { b: sys.b } : {}),
      lambda: an.lambda,
      lambdaSource: an.lambdaSource,
      ...(sys.b ? { residual: an.residual } : {}),
      C: sys.C ?? null,
      cond: { A: jsonCond(an.cond.A, m), ...(an.cond.AR !== undefined ? { AR: jsonCond(an.cond.AR, m) } : {}) },
      ...(an.condEstimated ? { condEstimated: true } : {}),
      rank: { J: an.rank.J },
      redundant: an.redundant,
      consistent: an.consistent,
    });
  } else out.failure = { reason: an.reason, message: an.message };
  if (source.contacts) out.contacts = source.contacts;
  out.steps = run.steps.map((s) => ({
    step: s.step,
    t: s.t,
    rows: s.rows,
    cond: s.cond === null ? null : jsonCond(s.cond, s.rows),
    rank: s.rank,
    normLambda: s.normLambda,
    normC: s.normC,
    ...(s.residual !== null ? { residual: s.residual } : {}),
    ...(s.iterations ? { iterations: s.iterations.map((it) => ({ cond: it.cond === null ? null : jsonCond(it.cond, s.rows), storedCond: it.storedCond })) } : {}),
  }));
  out.diagnostics = diagnosticsJson(diagnostics);
  return stringifyJson(out);
}

function printTrace(file: string, source: TraceSource, run: TraceAnalysis, step: number): void {
  print(`Trace: ${safeText(file)} (${source.format}), ${source.steps} step${source.steps === 1 ? '' : 's'}`);
  if (step >= source.steps) return;
  const sys = source.systemAt(step);
  const an = analyseSystem(sys, { wantSpectrum: false });
  print(`Step ${step} (t = ${formatNumber(sys.t)}): ${sys.J.rows} rows on ${sys.J.cols} DOFs`);
  if (an.ok) {
    const rows = sys.J.rows;
    print(`  κ₂(${source.format === 'fclib-local' ? 'W' : 'A'}) = ${formatCond(an.cond.A, { rows })}${an.cond.AR !== undefined ? `   κ₂(A + R) = ${formatCond(an.cond.AR, { rows })}` : ''}   rank = ${an.rank.J}/${rows}   λ: ${an.lambdaSource === 'producer' ? "the trace's own" : an.lambdaSource === 'least-squares' ? 'minimum-norm least squares' : 'none (no λ and no right-hand side)'}${sys.b && sys.lambda ? `, residual ‖(A + R)·λ − b‖ = ${formatNumber(an.residual)}` : ''}`);
    const label = (x: { constraint: string; row: number }) => safeText(sys.rows.find((y) => y.constraint === x.constraint && y.row === x.row)?.label ?? `${x.constraint}[${x.row}]`);
    for (const r of an.redundant) print(`  redundant: ${label(r)} = ${r.dependsOn.length ? r.dependsOn.map((d) => `${formatNumber(d.coefficient)}·${label(d)}`).join(' + ') : '0'}`);
  } else print(`  not analysed: ${an.message}`);
  if (source.contacts) print(`  contacts: ${source.contacts.map((c) => `${safeText(c.name)} (μ = ${formatNumber(c.mu)})`).join(', ')}`);
  if (source.steps > 1 || run.steps[0]?.iterations) {
    print('Steps (κ, rank, ‖λ‖, ‖C‖):');
    const shown = run.steps.length <= 40 ? run.steps : [...run.steps.slice(0, 20), ...run.steps.slice(-20)];
    shown.forEach((s, i) => {
      if (run.steps.length > 40 && i === 20) print(`  … ${run.steps.length - 40} steps …`);
      const its = s.iterations ? `   Newton κ: ${s.iterations.map((it) => `${it.cond === null ? '—' : formatCond(it.cond, { rows: s.rows })} (stored ${it.storedCond === null ? '—' : formatNumber(it.storedCond)})`).join(', ')}` : '';
      print(`  ${s.step}: ${s.cond === null ? '—' : formatCond(s.cond, { rows: s.rows })}, ${s.rank ?? '—'}/${s.rows}, ${s.normLambda === null ? '—' : formatNumber(s.normLambda)}, ${s.normC === null ? '—' : formatNumber(s.normC)}${its}`);
    });
  }
}

/** `inspect TRACE`: undefined when argv is not about a trace file; else the exit status. */
export async function runTraceCommand(argv: string[]): Promise<number | undefined> {
  if (!argv.slice(1).some((a) => !a.startsWith('-') && TRACE_FILE.test(a))) return undefined;
  const args = parseTraceArgs(argv);
  if (typeof args === 'string') {
    printError(`constraint-lens: ${args}\n${USAGE_TRACE}`);
    return 2;
  }
  if (args.command === 'report') checkWritable(args.output ?? defaultTraceReportPath(args.file));
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(readFileSync(args.file));
  } catch (e) {
    throw new IoError(`cannot read ${safeText(args.file)}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const openHdf5 = isHdf5(bytes) ? await loadHdf5Open() : undefined;
  const read = readTrace(bytes, args.file, { ...(openHdf5 ? { openHdf5 } : {}), world: args.world });
  const run = read.source ? analyseTrace(read.source) : undefined;
  const diagnostics = [...read.diagnostics, ...(run?.diagnostics ?? [])];
  if (read.source && args.step >= read.source.steps) {
    printError(`constraint-lens: --step ${args.step} is past the trace's ${read.source.steps} steps`);
    return 2;
  }
  if (args.command === 'report') {
    if (!read.source || !run) {
      printDiagnostics(args.file, diagnostics);
      return 1;
    }
    writeTraceReport(args, read.source, run, diagnostics);
    printDiagnostics(args.file, diagnostics);
  } else if (args.json) print(traceInspectJson(read.source, run, args.step, diagnostics));
  else {
    if (read.source && run) printTrace(args.file, read.source, run, args.step);
    printDiagnostics(args.file, diagnostics);
  }
  return diagnostics.some((d) => d.severity === 'error') ? 1 : 0;
}
