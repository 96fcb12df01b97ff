// The CLI's commands: parse the arguments, run the engine, print or write the results.
// Exit status: 0 no errors (warnings allowed), 1 the scene has errors, 2 usage or I/O error.
import { existsSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { simulateInspected, type InspectResult } from '../engine';
import { inspectForCli, isModelPath, parseForCli, runImportCommand } from '../import/cli';
import type { ModelParseResult } from '../import';
import { runMujocoCommand, runMujocoReport } from './mujoco';
import { buildPanelModel } from '../panelModel';
import { buildReportHtml, buildReportModel, reportGenerator } from '../report';
import { conditionWarning, runCsv } from '../shared';
import { defaultReportPath, helpText, parseArgs, UsageError, USAGE, VERSION, type Args } from './args';
import { printInspect, printDiagnostics } from './inspect';
import { IoError, checkWritable, print, printError, readScene, writeOut } from './io';
import { inspectJson, simulateJson } from './json';
import { printSimulate } from './simulate';
import { runTraceCommand } from './trace';

export { IoError } from './io';
export { UsageError } from './args';

const exitFor = (hasErrors: boolean): number => (hasErrors ? 1 : 0);

/** Runs the CLI on `argv` (without node and the script); returns the exit status. */
export async function run(argv: string[]): Promise<number> {
  // `compare` and `export-scene` (MJCF/URDF models only).
  const imported = await runImportCommand(argv, print, printError);
  if (imported !== undefined) return imported;
  // A trace file of another solver (.npz, .h5): src/cli/trace.ts.
  const traced = await runTraceCommand(argv);
  if (traced !== undefined) return traced;
  const parsed = parseArgs(argv);
  if ('usage' in parsed) {
    printError(USAGE);
    return 2;
  }
  if ('version' in parsed) {
    print(`constraint-lens ${VERSION}`);
    return 0;
  }
  if ('help' in parsed) {
    process.stdout.write(helpText(parsed.help));
    return 0;
  }
  const args = parsed;
  // Fail on an unwritable output before the run, not after it.
  if (args.csv) checkWritable(args.csv);
  if (args.command === 'report') checkWritable(args.output ?? defaultReportPath(args.file));
  const text = readScene(args.file);
  if (args.solver === 'mujoco') return runWithMujoco(args, text);
  // A scene file, or an MJCF/URDF model converted by src/import (MuJoCo's WebAssembly, loaded here only).
  const r = await inspectForCli(args.file, text, args.keyframe, args.limits, args.budget);
  if (args.command === 'inspect') {
    if (args.json) print(inspectJson(r.snapshot, r.diagnostics, r.parse.scene?.solver.dt));
    else printInspect(args.file, r.snapshot, r.diagnostics, r.parse.scene?.name ?? basename(args.file), conditionWarning(r.parse.scene?.solver.conditionWarning));
    return exitFor(r.hasErrors);
  }
  return args.command === 'report' ? report(args, r) : simulate(args, r);
}

/** `--solver mujoco`: MuJoCo's own steps and constraint system (MJCF/URDF models only). */
async function runWithMujoco(args: Args, text: string): Promise<number> {
  if (!isModelPath(args.file, text)) throw new UsageError('--solver mujoco applies to MJCF and URDF models only');
  if (args.csv) throw new UsageError('--csv is not written with --solver mujoco (use --json)');
  const parse = await parseForCli(args.file, text, args.keyframe, args.limits);
  if (!('model' in parse)) return exitFor(true);
  if (args.command === 'report') {
    const assets = reportAssets();
    const out = args.output ?? defaultReportPath(args.file);
    return exitFor(await runMujocoReport(args.file, parse as ModelParseResult, { steps: args.steps, keyframe: args.keyframe, out, assets, generator: reportGenerator(VERSION, 'CLI'), progress: progressReporter(args) }));
  }
  const hasErrors = await runMujocoCommand(args.command, args.file, parse as ModelParseResult, { steps: args.steps, json: args.json, keyframe: args.keyframe });
  return exitFor(hasErrors);
}

function progressReporter(args: Args): ((done: number, total: number) => void) | undefined {
  if (!process.stderr.isTTY || args.json) return undefined;
  return (done, total) => {
    if (total >= 200) process.stderr.write(`\r  step ${done}/${total} (${Math.round((100 * done) / total)}%)${done === total ? '\n' : ''}`);
  };
}

function simulate(args: Args, inspected: InspectResult): number {
  // every contact of every step in the JSON (the panel's records keep at most 256 per step)
  const sim = simulateInspected(inspected, args.steps, progressReporter(args), { limits: args.limits, budget: args.budget, ...(args.json ? { maxRecordContacts: Number.MAX_SAFE_INTEGER } : {}) });
  const { inspect, result: res, simulation } = sim;
  if (args.csv && res && simulation && inspect.snapshot && inspect.parse.scene) {
    // The same columns as the extension's Export Step Data.
    const snap = inspect.snapshot;
    const meta = { constraints: snap.constraints.map((c) => c.name), rowLabels: snap.rows.map((r) => r.label), bodies: inspect.parse.scene.bodies.map((b) => b.name) };
    writeOut(args.csv, runCsv(res.steps, meta));
  }
  if (args.json) print(simulateJson(res, inspect.snapshot?.rank.rows ?? 0, inspect.diagnostics, inspect.snapshot?.integrator));
  else {
    printSimulate(args.file, sim, args.csv && res && simulation ? resolve(args.csv) : undefined);
    printDiagnostics(args.file, inspect.diagnostics);
  }
  return exitFor(inspect.hasErrors);
}

/** The panel's bundle the report inlines (built next to the CLI). */
function reportAssets(): { js: string; css: string } {
  const dist = __dirname;
  const js = join(dist, 'webview.js');
  const css = join(dist, 'webview.css');
  if (!existsSync(js) || !existsSync(css)) throw new IoError(`the panel bundle is missing next to the CLI (${js}); run 'npm run build'`);
  return { js: readFileSync(js, 'utf8'), css: readFileSync(css, 'utf8') };
}

async function report(args: Args, inspected: InspectResult): Promise<number> {
  const assets = reportAssets();
  const sim = simulateInspected(inspected, args.steps, progressReporter(args), { limits: args.limits, budget: args.budget });
  const { inspect, simulation } = sim;
  const base = buildPanelModel(basename(args.file), inspect, simulation);
  if (!base) {
    printDiagnostics(args.file, inspect.diagnostics);
    return 1;
  }
  const runOf = simulation && { currentStep: simulation.currentStep, snapshotAt: (k: number) => simulation.snapshotAt(k) };
  const model = await buildReportModel(base, runOf, reportGenerator(VERSION, 'CLI'));
  const html = buildReportHtml(model, assets);
  const out = args.output ?? defaultReportPath(args.file);
  writeOut(out, html);
  print(`Report written to ${resolve(out)} (${Math.round(html.length / 1024)} KiB, ${model.history.length} steps, matrices of ${model.snapshots?.length ?? 1} steps)`);
  printDiagnostics(args.file, inspect.diagnostics);
  return exitFor(inspect.hasErrors);
}
