// The CLI's hook for MJCF/URDF models (src/cli/run.ts calls these):
//   parseForCli(file, text, keyframe) — a model file → loadModel, anything else → the scene parser
//   inspectForCli(file, text, keyframe) — the same, then the engine's analysis of step 0
//   runImportCommand(argv)            — `compare MODEL [--steps N] [--keyframe K] [--json]`
//                                       `export-scene MODEL [-o OUT] [--keyframe K]`
import { resolve } from 'node:path';
import { SHARED_OPTIONS, UsageError, scanArgv, wholeNumber } from '../cli/argv';
import { Codes, DEFAULT_LIMITS, inspectParsed, parseScene, type Diagnostic, type InspectResult, type Limits, type ParseResult, type TimeBudget } from '../engine';
import { formatNumber, safeText, stringifyJson } from '../shared';
import { compareWithMujoco, type CompareResult } from './compare';
import { exportErrors, exportScene } from './export';
import { cliWorkspace, isModelFile, loadModel, nodeFileAccess, type ModelParseResult } from './index';
import { readRegularFileSync, UnreadableFile } from './nodeFiles';
import { writeOutput } from './safeWrite';

const IMPORT_USAGE = `  constraint-lens inspect|simulate|report MODEL.xml|MODEL.urdf [--keyframe NAME] …
  constraint-lens compare MODEL [--steps N] [--keyframe NAME] [--json]
  constraint-lens export-scene MODEL [-o OUT.scene.json] [--force] [--keyframe NAME]`;

/** Whether the CLI should read `file` as an MJCF/URDF model. */
export const isModelPath = (file: string, text: string): boolean => isModelFile(file, text);

/** Parse a scene, or load a model (its <include>s and assets only from the current folder, or the model's). */
export async function parseForCli(file: string, text: string, keyframe?: string, limits?: Partial<Limits>): Promise<ParseResult> {
  if (!isModelFile(file, text)) {
    const r = parseScene(text, limits);
    if (keyframe !== undefined) {
      const d: Diagnostic = { severity: 'error', code: Codes.unknownKeyframe, message: '--keyframe applies to MJCF and URDF models only.', range: r.sourceMap.rangeOf([]) };
      return { ...r, diagnostics: [d, ...r.diagnostics], hasErrors: true };
    }
    return r;
  }
  return loadModel(file, text, { keyframe, files: nodeFileAccess(cliWorkspace(file)) });
}

/**
 * Parse (or load) and analyse step 0. For models the engine's quick fixes (edits of JSON scene
 * text) are dropped: they never apply to XML.
 */
export async function inspectForCli(file: string, text: string, keyframe?: string, limits?: Partial<Limits>, budget?: TimeBudget): Promise<InspectResult> {
  const parse = await parseForCli(file, text, keyframe, limits);
  const r = inspectParsed(text, parse, { limits, budget });
  if (isModelFile(file, text)) for (const d of r.diagnostics) delete d.fixes;
  return r;
}

/** One line of output: no control character from a model file (a newline in a name included) reaches the terminal. */
export const printable = (s: string): string => safeText(s);

interface ImportArgs {
  command: 'compare' | 'export-scene';
  file: string;
  json: boolean;
  steps?: number;
  keyframe?: string;
  output?: string;
  force: boolean;
}

/** The options each model command takes (the CLI's spellings, SHARED_OPTIONS). */
const TAKES: Record<ImportArgs['command'], ReadonlySet<string>> = {
  compare: new Set(['json', 'steps', 'keyframe']),
  'export-scene': new Set(['keyframe', 'output', 'force']),
};
/** The shared options and export-scene's `--force` (overwrite an existing output file). */
const IMPORT_OPTIONS = { ...SHARED_OPTIONS, force: { type: 'boolean' } } as const;

function parseImportArgs(argv: string[]): ImportArgs {
  const [command, ...rest] = argv as [ImportArgs['command'], ...string[]];
  const a: Partial<ImportArgs> = { command, json: false, force: false };
  for (const item of scanArgv(rest, IMPORT_OPTIONS)) {
    if (item.kind === 'positional') {
      if (a.file !== undefined) throw new UsageError(`unexpected argument '${item.value}'`);
      a.file = item.value;
    } else if (item.kind === 'unknown' || !TAKES[command].has(item.name)) throw new UsageError(`unknown option '${item.raw}' for ${command}`);
    else if (item.name === 'json') a.json = true;
    else if (item.name === 'steps') a.steps = wholeNumber('--steps', item.value ?? '');
    else if (item.name === 'keyframe') a.keyframe = item.value;
    else if (item.name === 'output') a.output = item.value;
    else if (item.name === 'force') a.force = true;
  }
  if (!a.file) throw new UsageError(`${command} needs a MODEL file (.xml or .urdf)`);
  return a as ImportArgs;
}

/**
 * Run `compare` or `export-scene`; undefined when argv is another command. Exit status as the
 * CLI's: 0 fine, 1 the model has errors, 2 usage or I/O error. Output goes to `out`.
 */
export async function runImportCommand(argv: string[], out: (s: string) => void = (s) => process.stdout.write(s + '\n'), err: (s: string) => void = (s) => process.stderr.write(s + '\n')): Promise<number | undefined> {
  if (argv[0] !== 'compare' && argv[0] !== 'export-scene') return undefined;
  let args: ImportArgs;
  try {
    args = parseImportArgs(argv);
  } catch (e) {
    err(`constraint-lens: ${(e as Error).message}\n\nUsage:\n${IMPORT_USAGE}`);
    return 2;
  }
  let text: string;
  try {
    text = readRegularFileSync(args.file, 512 * 1024 * 1024).toString('utf8');
  } catch (e) {
    err(printable(`constraint-lens: cannot read ${args.file}: ${e instanceof UnreadableFile ? e.message : ((e as NodeJS.ErrnoException).code ?? (e as Error).message)}`));
    return 2;
  }
  if (!isModelFile(args.file, text)) {
    err(`constraint-lens: ${args.command} needs an MJCF model (.xml with a <mujoco> root) or a URDF file (.urdf)`);
    return 2;
  }
  const parse = (await parseForCli(args.file, text, args.keyframe)) as ModelParseResult;
  const diagLines = (ds: Diagnostic[]) => ds.map((d) => printable(`  ${args.file}:${d.range.start.line + 1}:${d.range.start.character + 1}: ${d.severity} ${d.code} ${d.message}`));
  if (parse.scene && parse.model) {
    // The analysis' errors too: a model `inspect` rejects is rejected here (exit status 1). Its
    // warnings and notes are `inspect`'s to show.
    const extra = inspectParsed(text, parse, { wantSpectrum: false }).diagnostics.filter((d) => d.severity === 'error' && !parse.diagnostics.some((p) => p.code === d.code && p.message === d.message));
    for (const d of extra) delete d.fixes;
    parse.diagnostics.push(...extra);
    parse.hasErrors ||= extra.some((d) => d.severity === 'error');
  }
  if (!parse.scene || !parse.model) {
    if (args.json) out(stringifyJson({ diagnostics: parse.diagnostics }));
    else out(['The model could not be converted:', ...diagLines(parse.diagnostics)].join('\n'));
    return 1;
  }
  if (args.command === 'export-scene') {
    const target = args.output ?? args.file.replace(/\.(xml|urdf)$/i, '') + '.scene.json';
    const sceneText = exportScene({ scene: parse.scene, path: args.file, keyframe: args.keyframe });
    const unreadable = exportErrors(sceneText);
    if (unreadable.length) {
      out(['The scene was not written: the scene parser would reject it:', ...unreadable.map((d) => printable(`  ${d.code} ${d.message}`)), ...(parse.diagnostics.length ? ['Diagnostics:', ...diagLines(parse.diagnostics)] : [])].join('\n'));
      return 1;
    }
    try {
      writeOutput(target, sceneText, { force: args.force, input: args.file });
    } catch (e) {
      err(printable(`constraint-lens: cannot write ${target}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`));
      return 2;
    }
    out(printable(`Scene written to ${resolve(target)} (${parse.scene.bodies.length} bodies, ${parse.scene.constraints.length} constraints)`));
    if (parse.diagnostics.length) out(['Diagnostics:', ...diagLines(parse.diagnostics)].join('\n'));
    return parse.hasErrors ? 1 : 0;
  }
  // `--steps` takes what the other commands take; like their runs, the comparison stops at the steps limit.
  let steps = args.steps;
  if (steps !== undefined && steps > DEFAULT_LIMITS.steps) {
    err(`constraint-lens: --steps ${steps} is above the steps limit (${DEFAULT_LIMITS.steps}); compare runs ${DEFAULT_LIMITS.steps} steps`);
    steps = DEFAULT_LIMITS.steps;
  }
  let cmp: CompareResult;
  try {
    cmp = await compareWithMujoco(parse, steps);
  } catch (e) {
    err(printable(`constraint-lens: compare failed: ${(e as Error).message}`));
    return 1;
  }
  // Non-finite numbers in the comparison are spelled "NaN"/"Infinity" (docs/cli.md) and reported as CL401.
  const nonFinite = firstNonFiniteOf(cmp);
  if (nonFinite !== undefined) {
    parse.diagnostics.push({ severity: 'error', code: Codes.nonFinite, message: `The comparison has a non-finite value (first at ${nonFinite}): a run diverged or the model's numbers are out of range.`, range: parse.sourceMap.rangeOf([]) });
    parse.hasErrors = true;
  }
  if (args.json) out(stringifyJson({ ...cmp, diagnostics: parse.diagnostics }));
  else out(formatComparison(cmp) + (parse.diagnostics.length ? '\n' + ['Diagnostics:', ...diagLines(parse.diagnostics)].join('\n') : ''));
  return parse.hasErrors ? 1 : 0;
}

/** Six significant digits by default (MuJoCo next to our figures), fixed notation below a million. */
const fmt = (x: number, d = 6): string => formatNumber(x, d, { sciAbove: 1e6 });
const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));

/** The comparison as text (one block per equality). */
function formatComparison(c: CompareResult): string {
  const lines: string[] = [];
  lines.push(`MuJoCo vs Constraint Lens: ${c.model}${c.keyframe ? ` (keyframe ${c.keyframe})` : ''}`);
  lines.push(`Run: ${c.steps} steps of ${fmt(c.dt)} s (t = ${fmt(c.steps * c.dt)} s). MuJoCo: ${c.equalities.length ? 'soft constraints (solref/solimp)' : 'no equality constraints'}, ${fmt(c.solver.iterationsMin, 3)}–${fmt(c.solver.iterationsMax, 3)} solver iterations per step (mean ${fmt(c.solver.iterationsMean, 3)}), warnings: ${c.solver.warnings.length ? c.solver.warnings.map((w) => `${w.name} ×${w.count}`).join(', ') : 'none'}. Ours: ${c.equalities.length ? 'exact solve (KKT)' : 'the joints as exact constraints between bodies'}.`);
  const other = (['contacts', 'limits', 'friction'] as const).filter((k) => c.otherRows[k].max > 0);
  if (other.length) {
    const what = { contacts: 'contact rows', limits: 'joint-limit rows', friction: 'friction-loss rows' };
    lines.push(`MuJoCo also had ${other.map((k) => `${what[k]} in ${c.otherRows[k].states} of ${c.steps + 1} states (up to ${c.otherRows[k].max})`).join(', ')}; they are not simulated here, so the runs differ by them too.`);
  }
  if (c.stoppedAt !== undefined) lines.push(`Our run stopped at step ${c.stoppedAt} (non-finite value).`);
  if (c.equalities.length === 0) lines.push('The model has no equality constraints: MuJoCo has no efc rows to compare (joints are its coordinates).');
  for (const e of c.equalities) {
    lines.push('');
    lines.push(`${e.type} ${e.name}${e.constraint ? ` → ${e.constraint}` : ' (not converted)'}   solref (${e.solref.map((x) => fmt(x, 4)).join(', ')}), solimp (${e.solimp.map((x) => fmt(x, 4)).join(', ')})`);
    const n = Math.max(e.mujocoForce.length, e.ourLambda.length);
    if (n > 0) {
      const w = Math.max(5, ...e.rows.map((x) => x.length)) + 2;
      lines.push(`  ${pad('row', w)}${pad('MuJoCo efc_force', 20)}${pad('our λ', 20)}${pad('MuJoCo R', 16)}${pad('MuJoCo A_ii', 16)}our A_ii`);
      for (let r = 0; r < n; r++) {
        const cell = (a: number[], cw: number) => pad(r < a.length ? fmt(a[r]) : '–', cw);
        lines.push(`  ${pad(e.rows[r] ?? String(r), w)}${cell(e.mujocoForce, 20)}${cell(e.ourLambda, 20)}${cell(e.mujocoR, 16)}${cell(e.mujocoDiagA, 16)}${r < e.ourDiagA.length ? fmt(e.ourDiagA[r]) : '–'}`);
      }
    }
    const v = e.violation;
    lines.push(`  violation |C|: MuJoCo max ${fmt(v.mujocoMax)}, final ${fmt(v.mujocoFinal)}; ours max ${fmt(v.oursMax)}, final ${fmt(v.oursFinal)}`);
  }
  const far = c.bodies.filter((b) => Number.isFinite(b.distance)).sort((a, b) => b.distance - a.distance);
  if (far.length) lines.push('', `Centres of mass after the run, MuJoCo vs ours: largest distance ${fmt(far[0].distance)} m (${far[0].name})${far.length > 1 ? `, median ${fmt(far[Math.floor(far.length / 2)].distance)} m` : ''}.`);
  const joints = (c.trajectory?.joints ?? []).filter((j) => j.ours.q.length);
  if (joints.length) {
    lines.push('', 'Joints over the run, MuJoCo vs ours (largest |Δq| and |Δq̇|, and the step):');
    const w = Math.max(5, ...joints.map((j) => j.name.length)) + 2;
    const dev = (d: { max: number; step: number }, unit: string) => pad(Number.isFinite(d.max) ? `${fmt(d.max, 3)} ${unit} @${d.step}` : `not finite @${d.step}`, 24);
    for (const j of joints) lines.push(`  ${pad(j.name, w)}${dev(j.dq, j.type === 'hinge' ? 'rad' : 'm')}${dev(j.dqd, j.type === 'hinge' ? 'rad/s' : 'm/s')}`.trimEnd());
  }
  lines.push('', `Time: MuJoCo ${fmt(c.timing.mujocoMs, 3)} ms, ours ${fmt(c.timing.oursMs, 3)} ms (WebAssembly load ${fmt(c.timing.wasmLoadMs, 3)} ms).`);
  for (const note of c.notes) lines.push(`Note: ${note}`);
  if (c.equalities.length) lines.push('MuJoCo regularises each row (R = (1 − d)/d · A_ii-approx from solimp) and pulls toward C = 0 with solref, so its forces and violations differ from the exact solve; see docs/import.md.');
  else lines.push('MuJoCo integrates in joint coordinates; this engine integrates every body and holds the joints with constraint forces, so the runs differ by the integrators (and any contact, limit or friction-loss rows MuJoCo had); see docs/import.md.');
  return lines.map((l) => printable(l)).join('\n');
}

/** Path of the first non-finite number in `v` ("equalities[0].ourLambda[2]"), or undefined. */
function firstNonFiniteOf(v: unknown, at = ''): string | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? undefined : at || '(value)';
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const r = firstNonFiniteOf(v[i], `${at}[${i}]`);
      if (r) return r;
    }
  } else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      const r = firstNonFiniteOf(x, at ? `${at}.${k}` : k);
      if (r) return r;
    }
  }
  return undefined;
}
