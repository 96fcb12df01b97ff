// constraint-lens: the headless command line. Same engine, same answers as the extension.
//   constraint-lens inspect SCENE [--json]
//   constraint-lens simulate SCENE [--steps N] [--json] [--csv FILE]
//   constraint-lens report SCENE [-o FILE] [--steps N]
// Exit status: 0 no errors (warnings allowed), 1 the scene has errors, 2 usage or I/O error.
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { inspectParsed, simulateInspected } from './engine/pipeline';
import { IMPORT_USAGE, parseForCli, runImportCommand } from './import/cli';
import type { SystemSnapshot } from './engine/result';
import type { Diagnostic } from './engine/types';
import { csrRows, diagnosticLine, historyCsv, inspectJson, matrixSummary, minvCsr, num, textColumns, textMatrix } from './format';
import { buildPanelModel } from './panelModel';
import { buildReportHtml } from './report';

const USAGE = `Usage:
  constraint-lens inspect SCENE [--json]
  constraint-lens simulate SCENE [--steps N] [--json] [--csv FILE]
  constraint-lens report SCENE [-o FILE] [--steps N]
${IMPORT_USAGE}

Exit status: 0 no errors (warnings allowed), 1 the scene has errors, 2 usage or I/O error.`;

class UsageError extends Error {}

interface Args {
  command: string;
  file: string;
  json: boolean;
  steps?: number;
  csv?: string;
  output?: string;
  keyframe?: string;
}

function parseArgs(argv: string[]): Args | 'help' {
  if (argv.length === 0 || argv.includes('--help') || argv.includes('-h')) return 'help';
  const [command, ...rest] = argv;
  if (!['inspect', 'simulate', 'report'].includes(command)) throw new UsageError(`unknown command '${command}'`);
  const a: Partial<Args> = { command, json: false };
  for (let i = 0; i < rest.length; i++) {
    const t = rest[i];
    const val = () => {
      const v = rest[++i];
      if (v === undefined) throw new UsageError(`${t} needs a value`);
      return v;
    };
    if (t === '--json') a.json = true;
    else if (t === '--steps') {
      const v = val();
      const n = Number(v);
      if (!Number.isInteger(n) || n < 0) throw new UsageError(`--steps must be a non-negative integer, got '${v}'`);
      a.steps = n;
    } else if (t === '--csv') a.csv = val();
    else if (t === '-o' || t === '--output') a.output = val();
    else if (t === '--keyframe') a.keyframe = val();
    else if (t.startsWith('-')) throw new UsageError(`unknown option '${t}'`);
    else if (a.file === undefined) a.file = t;
    else throw new UsageError(`unexpected argument '${t}'`);
  }
  if (!a.file) throw new UsageError('missing SCENE file');
  if (command === 'inspect' && (a.steps !== undefined || a.csv)) throw new UsageError('inspect takes only --json');
  return a as Args;
}

function readScene(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new IoError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}
class IoError extends Error {}

function writeOut(file: string, text: string): void {
  try {
    mkdirSync(dirname(resolve(file)), { recursive: true });
    writeFileSync(file, text);
  } catch (e) {
    throw new IoError(`cannot write ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

const print = (s = '') => process.stdout.write(s + '\n');

function printDiagnostics(file: string, diags: Diagnostic[]): void {
  if (diags.length === 0) {
    print('Diagnostics: none');
    return;
  }
  print(`Diagnostics (${diags.filter((d) => d.severity === 'error').length} errors, ${diags.filter((d) => d.severity === 'warning').length} warnings):`);
  for (const d of diags) print('  ' + diagnosticLine(file, d));
}

const SMALL = 24; // matrices with at most this many rows and columns are printed in full

/** A comma-separated list, cut after `max` items. */
const listed = (items: string[], max = 12): string =>
  items.length <= max ? items.join(', ') : `${items.slice(0, max).join(', ')}, … and ${items.length - max} more`;

function printMatrix(title: string, rows: number, cols: number, dense: () => number[][], rl: string[], cl: string[], summary: () => string): void {
  print(`${title} (${rows}×${cols}):`);
  if (rows === 0 || cols === 0) print('  (empty)');
  else if (rows <= SMALL && cols <= SMALL) print(textMatrix(dense(), rl, cl).replace(/^/gm, '  '));
  else print('  ' + summary());
  print();
}

function printVectors(title: string, labels: string[], columns: { name: string; values: ArrayLike<number> }[]): void {
  const cols = columns.filter((c) => c.values.length === labels.length);
  if (labels.length === 0 || cols.length === 0) return;
  if (labels.length <= SMALL * 2) {
    print(`${title}:`);
    print(textColumns(labels, cols).replace(/^/gm, '  '));
  } else {
    print(`${title}: ${labels.length} entries each; max |·|: ${cols.map((c) => `${c.name} ${num(Array.from(c.values).reduce((m, x) => Math.max(m, Math.abs(x)), 0))}`).join(', ')}`);
  }
  print();
}

function printInspect(file: string, snap: SystemSnapshot | undefined, diags: Diagnostic[], sceneName: string): void {
  print(`Scene: ${sceneName} (${file})`);
  if (!snap) {
    printDiagnostics(file, diags);
    return;
  }
  const rl = snap.rows.map((r) => r.label);
  const cl = snap.columnLabels;
  print(`Bodies: ${snap.bodies.length} owning columns (${snap.rank.dofs} DOFs)${snap.bodyStates.some((b) => b.fixed) ? `, fixed: ${listed(snap.bodyStates.filter((b) => b.fixed).map((b) => b.name))}` : ''}`);
  print(`Constraints: ${snap.constraints.length} (${snap.rank.rows} rows): ${listed(snap.constraints.map((c) => `${c.name} [${c.type}, ${c.bodyA}–${c.bodyB}]`))}`);
  print(`Formulation: ${snap.formulation}, stabilization: ${snap.stabilization}`);
  const kappa = snap.cond.A === null ? '∞ (singular)' : num(snap.cond.A) + (snap.condEstimated ? ' (estimated)' : '');
  print(`Method: ${snap.method}   κ₂(A) = ${kappa}   κ(scaled A) = ${num(snap.cond.scaled)}   rank(J) = ${snap.rank.J}/${snap.rank.rows}   residual ‖J·a − rhs‖ = ${num(snap.residual)}`);
  if (snap.islands.length > 1)
    print(`Islands: ${snap.islands.map((i, k) => `#${k + 1} ${i.bodies.length} bodies, ${i.rows} rows, κ ${num(i.cond)}`).join('; ')}`);
  print();
  const minv = minvCsr(snap);
  printMatrix('M⁻¹', minv.rows, minv.cols, () => csrRows(minv), cl, cl, () => `block diagonal, ${snap.bodies.length} blocks of 6×6; ${matrixSummary(minv)}`);
  printMatrix('J', snap.J.rows, snap.J.cols, () => csrRows(snap.J), rl, cl, () => matrixSummary(snap.J));
  printMatrix(snap.formulation === 'velocity' ? 'A = J·M⁻¹·Jᵀ' : 'A = J·M⁻¹·Jᵀ (+Σ)', snap.A.rows, snap.A.cols, () => csrRows(snap.A), rl, rl, () => matrixSummary(snap.A));
  if (snap.W) printMatrix('W = h·J·M⁻¹·Jᵀ (+Σ)', snap.W.rows, snap.W.cols, () => csrRows(snap.W!), rl, rl, () => matrixSummary(snap.W!));
  printVectors('Per column (body DOF)', cl, [
    { name: 'F', values: snap.F },
    { name: 'v', values: snap.v },
    { name: 'a0 = M⁻¹F', values: snap.a0 },
    { name: 'a', values: snap.a },
    { name: 'Jᵀλ', values: snap.constraintForce },
  ]);
  printVectors('Per row (constraint row)', rl, [
    { name: 'C', values: snap.C },
    { name: 'Ċ = J·v', values: snap.Cdot },
    ...(snap.B ? [{ name: 'B (free)', values: snap.B }] : []),
    { name: 'rhs', values: snap.rhs },
    { name: 'b', values: snap.b },
    { name: snap.R ? 'R = λ' : 'λ', values: snap.lambda },
  ]);
  if (snap.constraints.length && snap.constraints.length <= 50) {
    print('Constraint forces (world frame, on each body):');
    for (const c of snap.constraints) {
      const v3 = (v: number[]) => `(${v.map((x) => num(x, 9)).join(', ')})`;
      print(`  ${c.name} [${c.status}] |C| = ${num(c.violation)}  λ = [${c.lambda.map((x) => num(x, 12)).join(', ')}]`);
      print(`    on ${c.bodyA}: F = ${v3(c.forceA)} N, τ = ${v3(c.torqueA)} N·m`);
      print(`    on ${c.bodyB}: F = ${v3(c.forceB)} N, τ = ${v3(c.torqueB)} N·m`);
    }
    print();
  }
  if (snap.redundant.length) {
    print(`Redundant rows (${snap.consistent ? 'consistent: λ exists, minimum-norm λ shown' : 'CONFLICTING: no exact λ, least-squares λ shown'}):`);
    for (const r of snap.redundant)
      print(`  ${r.constraint}[${r.row}] = ${r.dependsOn.map((d) => `${num(d.coefficient)}·${d.constraint}[${d.row}]`).join(' + ') || '0'}`);
    print();
  }
  print(`Energy: kinetic ${num(snap.energy.kinetic)} J, potential ${num(snap.energy.potential)} J, total ${num(snap.energy.total)} J`);
  printDiagnostics(file, diags);
}

async function run(argv: string[]): Promise<number> {
  const imported = await runImportCommand(argv);
  if (imported !== undefined) return imported;
  const args = parseArgs(argv);
  if (args === 'help') {
    print(USAGE);
    return 0;
  }
  const text = readScene(args.file);
  const parsed = await parseForCli(args.file, text, args.keyframe);
  const exitFor = (hasErrors: boolean) => (hasErrors ? 1 : 0);

  if (args.command === 'inspect') {
    const r = inspectParsed(text, parsed);
    if (args.json) print(JSON.stringify(inspectJson(r.snapshot, r.diagnostics)));
    else printInspect(args.file, r.snapshot, r.diagnostics, r.parse.scene?.name ?? basename(args.file));
    return exitFor(r.hasErrors);
  }

  const progress = process.stderr.isTTY && !args.json
    ? (done: number, total: number) => {
        if (total >= 200) process.stderr.write(`\r  step ${done}/${total} (${Math.round((100 * done) / total)}%)${done === total ? '\n' : ''}`);
      }
    : undefined;
  const sim = simulateInspected(inspectParsed(text, parsed), args.steps, progress);
  const { inspect } = sim;

  if (args.command === 'report') {
    const model = buildPanelModel(basename(args.file), inspect, sim.simulation);
    if (!model) {
      printDiagnostics(args.file, inspect.diagnostics);
      return 1;
    }
    const dist = __dirname;
    const js = join(dist, 'webview.js');
    const css = join(dist, 'webview.css');
    if (!existsSync(js) || !existsSync(css)) throw new IoError(`the panel bundle is missing next to the CLI (${js}); run 'npm run build'`);
    const html = buildReportHtml(model, { js: readFileSync(js, 'utf8'), css: readFileSync(css, 'utf8') });
    const out = args.output ?? args.file.replace(/(\.scene)?\.json$|\.(xml|urdf)$/i, '') + '.report.html';
    writeOut(out, html);
    print(`Report written to ${resolve(out)} (${(html.length / 1024).toFixed(0)} KiB, ${model.history.length} steps)`);
    printDiagnostics(args.file, inspect.diagnostics);
    return exitFor(inspect.hasErrors);
  }

  // simulate
  const res = sim.result;
  if (args.csv && res && sim.simulation) {
    const names = sim.simulation.world.constraints.map((c) => c.spec.name);
    writeOut(args.csv, historyCsv(res.steps, names, inspect.snapshot?.rows.map((r) => r.label) ?? []));
  }
  if (args.json) {
    print(
      JSON.stringify({
        steps: (res?.steps ?? []).map((s) => ({ t: s.t, C: s.C, lambda: s.lambda, cond: s.cond, ...(s.condEstimated ? { condEstimated: true } : {}), energy: s.energy, method: s.method })),
        final: res?.final ?? { bodies: [] },
        diagnostics: inspect.diagnostics.map((d) => ({ severity: d.severity, code: d.code, message: d.message, range: d.range })),
      }),
    );
    return exitFor(inspect.hasErrors);
  }
  print(`Scene: ${inspect.parse.scene?.name ?? basename(args.file)} (${args.file})`);
  if (res) {
    const last = res.steps[res.steps.length - 1];
    const names = sim.simulation!.world.constraints.map((c) => c.spec.name);
    print(`Ran ${res.steps.length} steps of ${num(inspect.parse.scene!.solver.dt)} s (t = ${num(last?.t ?? 0)} s)${res.stoppedAt ? `, stopped at step ${res.stoppedAt}` : ''}.`);
    if (last) {
      const maxC = names.map((_, c) => Math.max(...res.steps.map((s) => s.C[c])));
      print(`Constraint violation |C|: ${names.map((n, c) => `${n} final ${num(last.C[c])}, max ${num(maxC[c])}`).join('; ') || 'no constraints'}`);
      const conds = res.steps.map((s) => s.cond.A ?? Infinity);
      print(`κ(A): min ${num(Math.min(...conds))}, max ${num(Math.max(...conds))}${res.steps.some((s) => s.condEstimated) ? ' (estimated)' : ''}; methods: ${[...new Set(res.steps.map((s) => s.method))].join(', ')}`);
      const e0 = res.steps[0].energy.total;
      print(`Energy: first step ${num(e0)} J, last ${num(last.energy.total)} J; max ||q|−1| ${num(Math.max(...res.steps.map((s) => s.quatDrift)))}`);
    }
    print('Final state:');
    for (const b of res.final.bodies)
      print(`  ${b.name}: p = (${b.position.map((x) => num(x, 9)).join(', ')}), v = (${b.velocity.map((x) => num(x, 6)).join(', ')})`);
    if (args.csv) print(`CSV written to ${resolve(args.csv)}`);
  }
  printDiagnostics(args.file, inspect.diagnostics);
  return exitFor(inspect.hasErrors);
}

async function main(): Promise<void> {
  // `constraint-lens inspect … | head` closes the pipe early: that is not an error.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
  let code: number;
  try {
    code = await run(process.argv.slice(2));
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`constraint-lens: ${e.message}\n\n${USAGE}\n`);
      code = 2;
    } else if (e instanceof IoError) {
      process.stderr.write(`constraint-lens: ${e.message}\n`);
      code = 2;
    } else {
      process.stderr.write(`constraint-lens: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      code = 2;
    }
  }
  process.exitCode = code;
}

void main();
