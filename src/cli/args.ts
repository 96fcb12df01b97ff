// Command-line arguments and the help text (docs/cli.md says the same, at more length).
import { version } from '../../package.json';
import { DEFAULT_LIMITS, LIMIT_NAMES, parseLimits, type Limits, type TimeBudget } from '../engine';
import { SHARED_OPTIONS, UsageError, scanArgv, wholeNumber } from './argv';

export const VERSION: string = version;

export { UsageError };

export type Command = 'inspect' | 'simulate' | 'report';

export interface Args {
  command: Command;
  file: string;
  json: boolean;
  steps?: number;
  csv?: string;
  output?: string;
  /** MJCF/URDF models: start from this <key> (src/import, docs/import.md). */
  keyframe?: string;
  /** `--solver mujoco`: MJCF/URDF models run by MuJoCo's own mj_step, its constraint system under the lens. */
  solver?: 'engine' | 'mujoco';
  /** `--limits name=N,...`: the engine's limits raised (or lowered). */
  limits?: Partial<Limits>;
  /** `--budget inspect=MS,step=MS,run=MS`: time budgets (CL406); DEFAULT_BUDGET where not given. */
  budget: TimeBudget;
}

/** The CLI's time budgets unless `--budget` says otherwise (0 = none): 10 s to inspect, 5 s per step, no limit on a run. */
export const DEFAULT_BUDGET: TimeBudget = { inspectMs: 10_000, stepMs: 5_000, runMs: 0 };

/** `inspect=MS,step=MS,run=MS` (any subset; 0 turns one off). */
export function parseBudget(v: string, base: TimeBudget = DEFAULT_BUDGET): TimeBudget {
  const out: TimeBudget = { ...base };
  const keys = { inspect: 'inspectMs', step: 'stepMs', run: 'runMs' } as const;
  for (const part of v.split(',')) {
    const m = /^\s*(inspect|step|run)\s*=\s*(\d+(?:\.\d+)?)\s*$/.exec(part);
    if (!m) throw new UsageError(`--budget: '${part}' is not name=MS with a name among inspect, step, run and MS a number of milliseconds ≥ 0`);
    out[keys[m[1] as keyof typeof keys]] = Number(m[2]);
  }
  return out;
}

type Parsed = Args | { help: Command | 'all' } | { version: true } | { usage: true };

interface CommandHelp {
  synopsis: string;
  summary: string;
  options: [string, string][];
}

const OPT_JSON: [string, string] = ['--json', 'print one JSON object instead of text (fields: docs/cli.md)'];
const OPT_LIMITS: [string, string] = [
  '--limits L',
  `raise (or lower) the engine's limits, L = name=N,... with names ${LIMIT_NAMES.map((k) => `${k} (default ${DEFAULT_LIMITS[k]})`).join(', ')}: characters of scene text, bodies, constraints, steps per run, numbers the run's history keeps (docs/cli.md)`,
];
const OPT_BUDGET: [string, string] = [
  '--budget B',
  `time budgets in milliseconds, B = name=MS,... with names inspect (default ${DEFAULT_BUDGET.inspectMs}), step (default ${DEFAULT_BUDGET.stepMs}), run (default ${DEFAULT_BUDGET.runMs}, no limit); 0 turns one off. Over a budget: a CL406 warning naming the phase; a step or run over its budget stops the run there (docs/cli.md)`,
];
const OPT_STEPS: [string, string] = ['--steps N', "number of steps to run (a whole number ≥ 0; default: the scene's solver.steps)"];
const OPT_KEYFRAME: [string, string] = ['--keyframe NAME', 'MJCF/URDF models: start from the <key> named NAME instead of qpos0'];
const OPT_SOLVER: [string, string] = ['--solver engine|mujoco', "MJCF/URDF models: this engine's formulation (default), or MuJoCo's own mj_step with its constraint system named and analysed"];

/** The MJCF/URDF commands (src/import/cli.ts runs them; docs/import.md). SCENE may also be MODEL.xml or MODEL.urdf. */
const MODEL_COMMANDS: [string, string][] = [
  ['compare MODEL [--steps N] [--keyframe NAME] [--json]', "run MuJoCo and this engine on the same model: per equality constraint MuJoCo's efc_force next to our λ, both violations over the run"],
  ['export-scene MODEL [-o OUT] [--keyframe NAME]', 'write the converted model as a *.scene.json (default OUT: MODEL.scene.json next to it)'],
];

export const COMMANDS: Record<Command, CommandHelp> = {
  inspect: {
    synopsis: 'constraint-lens inspect SCENE [--json] [--limits L] [--budget B]',
    summary:
      'Analyse the initial state (step 0): bodies and constraints, M⁻¹, J, A = J·M⁻¹·Jᵀ (and W for the velocity formulation), κ(A), rank(J), λ, the constraint forces on each body, redundant rows and the diagnostics.',
    options: [OPT_JSON, OPT_KEYFRAME, OPT_SOLVER, OPT_LIMITS, OPT_BUDGET],
  },
  simulate: {
    synopsis: 'constraint-lens simulate SCENE [--steps N] [--json] [--csv FILE] [--limits L] [--budget B]',
    summary: 'Run the scene and summarise the run: |C| per constraint (final and max), κ(A), energy, quaternion drift, the final state and the run diagnostics (drift, non-finite values).',
    options: [OPT_STEPS, OPT_JSON, ['--csv FILE', 'also write the run to FILE as CSV, one row per step (columns: docs/cli.md)'], OPT_KEYFRAME, OPT_SOLVER, OPT_LIMITS, OPT_BUDGET],
  },
  report: {
    synopsis: 'constraint-lens report SCENE [--steps N] [-o FILE] [--solver S] [--limits L] [--budget B]',
    summary:
      "Run the scene and write one self-contained, read-only HTML report: the inspector panel with the run's history and the matrices of selected steps embedded (the same report as the extension's Export Report).",
    options: [OPT_STEPS, ['-o, --output FILE', 'where to write; default: next to the scene, SCENE with .scene.json (or .json) replaced by .report.html'], OPT_KEYFRAME, OPT_SOLVER, OPT_LIMITS, OPT_BUDGET],
  },
};

const EXIT = `Exit status:
  0  no errors (warnings allowed)
  1  the scene has errors (parse, analysis or run)
  2  usage error, or a file cannot be read or written`;

/** Words of `text` in lines of at most `width` characters. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** Two columns, the second wrapped to fit 80 characters. */
const pad = (rows: [string, string][]): string => {
  const w = rows.reduce((w, [a]) => Math.max(w, a.length), 0);
  const indent = ' '.repeat(w + 4);
  return rows.map(([a, b]) => `  ${a.padEnd(w)}  ${wrap(b, 78 - w - 4).join(`\n${indent}`)}`).join('\n');
};

/** The short usage printed after a usage error and when no arguments are given. */
export const USAGE = `Usage:
${Object.values(COMMANDS)
  .map((c) => `  ${c.synopsis}`)
  .join('\n')}
${MODEL_COMMANDS.map(([c]) => `  constraint-lens ${c}`).join('\n')}
  constraint-lens --help | --version

Run 'constraint-lens --help' for the commands, options and exit status.`;

/** The full help, or one command's. */
export function helpText(which: Command | 'all'): string {
  if (which !== 'all') {
    const c = COMMANDS[which];
    return `Usage: ${c.synopsis}\n\n${wrap(c.summary, 78).join('\n')}\n\nOptions:\n${pad([...c.options, ['-h, --help', 'this help']])}\n\n${EXIT}\n`;
  }
  return `constraint-lens ${VERSION}: inspect and simulate constrained rigid-body scenes (*.scene.json)
outside VS Code, with the same engine and the same answers as the Constraint Lens extension.

Usage:
${Object.values(COMMANDS)
  .map((c) => `  ${c.synopsis}`)
  .join('\n')}
  constraint-lens help [COMMAND]     (or COMMAND --help)
  constraint-lens --version

Commands:
${pad((Object.keys(COMMANDS) as Command[]).map((k) => [k, COMMANDS[k].summary]))}

MJCF (MuJoCo) and URDF models: SCENE may also be MODEL.xml (root element <mujoco>) or
MODEL.urdf; details in docs/import.md.
${MODEL_COMMANDS.map(([c, what]) => `  constraint-lens ${c}\n      ${wrap(what, 72).join('\n      ')}`).join('\n')}

Options:
${pad([
  OPT_JSON,
  OPT_STEPS,
  OPT_KEYFRAME,
  ['--csv FILE', 'simulate: write the run as CSV'],
  ['-o, --output FILE', 'report: the HTML file (default: SCENE.report.html next to the scene)'],
  OPT_LIMITS,
  ['-h, --help', 'this help'],
  ['-V, --version', 'print the version'],
])}

${EXIT}

Text output escapes control characters in names (ESC shows as \\x1B). JSON and CSV spell
non-finite numbers NaN, Infinity and -Infinity (JSON: as strings). Details: docs/cli.md.
`;
}

const isCommand = (s: string | undefined): s is Command => s === 'inspect' || s === 'simulate' || s === 'report';

export function parseArgs(argv: string[]): Parsed {
  if (argv.length === 0) return { usage: true };
  const [first, ...rest] = argv;
  if (first === '--version' || first === '-V') return { version: true };
  if (first === '--help' || first === '-h') return { help: 'all' };
  if (first === 'help') {
    if (rest.length === 0) return { help: 'all' };
    if (isCommand(rest[0]) && rest.length === 1) return { help: rest[0] };
    throw new UsageError(`no help for '${rest.join(' ')}'`);
  }
  if (!isCommand(first)) throw new UsageError(`unknown command '${first}'`);
  if (rest.includes('--help') || rest.includes('-h')) return { help: first };
  const a: Partial<Args> = { command: first, json: false, budget: DEFAULT_BUDGET };
  // The spellings this command takes, read off its help (`-o, --output FILE` → -o, --output).
  const allowed = new Set(COMMANDS[first].options.flatMap(([o]) => o.split(/,\s*/).map((x) => x.split(' ')[0])));
  for (const item of scanArgv(rest, SHARED_OPTIONS)) {
    if (item.kind === 'positional') {
      if (a.file !== undefined) throw new UsageError(`unexpected argument '${item.value}'`);
      a.file = item.value;
      continue;
    }
    if (item.kind === 'unknown' || !allowed.has(item.raw)) {
      throw new UsageError(item.kind === 'option' && item.name !== 'help' ? `${first} does not take ${item.raw}` : `unknown option '${item.raw}'`);
    }
    const v = item.value ?? '';
    if (item.name === 'json') a.json = true;
    else if (item.name === 'steps') a.steps = wholeNumber('--steps', v);
    else if (item.name === 'csv') a.csv = v;
    else if (item.name === 'output') a.output = v;
    else if (item.name === 'keyframe') a.keyframe = v;
    else if (item.name === 'solver') {
      if (v !== 'engine' && v !== 'mujoco') throw new UsageError(`--solver must be engine or mujoco, got '${v}'`);
      a.solver = v;
    }
    else if (item.name === 'budget') a.budget = parseBudget(v, a.budget);
    else if (item.name === 'limits') {
      try {
        a.limits = { ...a.limits, ...parseLimits(v) };
      } catch (e) {
        throw new UsageError(`--limits: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  }
  if (!a.file) throw new UsageError('missing SCENE file');
  return a as Args;
}

/** The report's default path: next to the scene, `.scene.json` (or `.json`, `.xml`, `.urdf`) replaced by `.report.html`. */
export function defaultReportPath(scene: string): string {
  return scene.replace(/(\.scene)?\.json$|\.(xml|urdf)$/i, '') + '.report.html';
}
