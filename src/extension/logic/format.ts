// Text shown by the status bar, CodeLens and tree: condition numbers, rank, problem counts.
// Numbers, κ and its bands come from the shared presentation module. Pure: no vscode.
import type { NotSimulatedCategory, Severity } from '../../engine';
import { formatCond, plural, WORDS } from '../../shared';

/** What the status bar and lenses show of one step (logic/shown.ts picks the step). */
export interface CondFacts {
  /** The step (0: the analysis of the initial state). */
  step: number;
  cond: number | null;
  condEstimated: boolean;
  /** Numerical rank of the step's A; undefined when its record does not keep it. */
  rank: number | undefined;
  rows: number;
}

/**
 * `κ 1230 · rank 5/6 · step 0` (`≈` when κ is estimated; `κ – · no constraints · step 0` for a
 * system without rows). The step is always named, so a κ of the initial state is never taken for
 * one of the run.
 */
export function statusText(f: CondFacts): string {
  const k = `κ ${formatCond(f.cond, { estimated: f.condEstimated, rows: f.rows })}`;
  const rank = f.rows === 0 ? WORDS.noConstraints : f.rank === undefined ? undefined : `rank ${f.rank}/${f.rows}`;
  return [k, rank, `step ${f.step}`].filter((x) => x !== undefined).join(' · ');
}

export interface ProblemCounts {
  errors: number;
  warnings: number;
  infos: number;
}

export function countProblems(diags: readonly { severity: Severity }[]): ProblemCounts {
  const c: ProblemCounts = { errors: 0, warnings: 0, infos: 0 };
  for (const d of diags) {
    if (d.severity === 'error') c.errors++;
    else if (d.severity === 'warning') c.warnings++;
    else c.infos++;
  }
  return c;
}

/** `no problems`, `1 problem`, `3 problems (1 error)`. Informations and hints are not problems. */
export function problemsText(c: ProblemCounts): string {
  const n = c.errors + c.warnings;
  if (n === 0) return 'no problems';
  return c.errors > 0 && c.warnings > 0 ? `${plural(n, 'problem')} (${plural(c.errors, 'error')})` : plural(n, 'problem');
}

interface LensTitles {
  inspect: string;
  step: string;
  run: string;
  summary: string;
}

/** The CodeLens titles at the top of a scene. `facts` is undefined when the scene could not be analysed. */
export function codeLensTitles(plannedSteps: number, facts: CondFacts | undefined, counts: ProblemCounts, running = false): LensTitles {
  const summary = facts ? `${statusText(facts)} · ${problemsText(counts)}` : `not analysed · ${problemsText(counts)}`;
  return {
    inspect: '$(search) Inspect',
    step: '$(debug-step-over) Step',
    run: running ? '$(debug-pause) Pause' : `$(run-all) Run ${plannedSteps} step${plannedSteps === 1 ? '' : 's'}`,
    summary,
  };
}

/**
 * The CodeLens of an imported model's not-simulated parts (ParseResult.notSimulated): the categories
 * in the title (the first few, then a count), every category with its items in the tooltip.
 */
export function notSimulatedLens(list: readonly NotSimulatedCategory[] | undefined, maxInTitle = 3): { title: string; tooltip: string } | undefined {
  if (!list || list.length === 0) return undefined;
  const names = list.map((c) => c.category);
  const shown = names.length > maxInTitle ? `${names.slice(0, maxInTitle).join(', ')} and ${names.length - maxInTitle} more` : names.join(', ');
  const tooltip = list.map((c) => `${c.category}: ${c.items.length > 8 ? `${c.items.slice(0, 8).join(', ')}, … (${c.items.length})` : c.items.join(', ')}`).join('\n');
  return { title: `$(warning) Not simulated: ${shown}`, tooltip: `What the model describes and this run leaves out (CL606):\n${tooltip}` };
}

/**
 * Validate a step count typed into an input box: a positive integer up to `max`.
 * Returns an error message, or undefined when valid.
 */
export function validateStepCount(input: string, max = 1_000_000): string | undefined {
  const s = input.trim();
  if (!/^\d+$/.test(s)) return 'Enter a positive whole number of steps.';
  const n = Number(s);
  if (n < 1) return 'At least one step.';
  if (n > max) return `At most ${max} steps at once.`;
  return undefined;
}

/** Validate a step index for Go to Step (0 … maxStep). */
export function validateStepIndex(input: string, maxStep: number, maxAllowed = 1_000_000): string | undefined {
  const s = input.trim();
  if (!/^\d+$/.test(s)) return 'Enter a step number (0 = initial state).';
  const n = Number(s);
  if (n > Math.max(maxStep, maxAllowed)) return `At most step ${Math.max(maxStep, maxAllowed)}.`;
  return undefined;
}

/** True when a path (or URI path) names a scene file. */
export function isSceneFileName(path: string): boolean {
  return /\.scene\.json$/i.test(path);
}

/** Schemes whose documents are never scenes to analyse (diff/SCM/output views of a file). */
const IGNORED_SCHEMES = new Set(['git', 'gitfs', 'output', 'vscode-scm', 'vscode-local-history', 'review', 'pr', 'conflictResolution', 'merge-conflict.conflict-diff', 'chat-editing-text-model', 'vscode-chat-code-block']);

export function isAnalysableScheme(scheme: string): boolean {
  return !IGNORED_SCHEMES.has(scheme);
}
