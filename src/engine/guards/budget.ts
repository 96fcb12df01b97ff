// Time budgets for inspect and for the steps of a run (CL406). The engine cannot interrupt its own
// synchronous work: every loop in it is bounded by a size limit or an iteration cap, and the budget
// turns "bounded but slow" into a report that says which phase took how long against which budget,
// and stops a run whose steps are over it. The clock is the caller's (`now`), or `performance.now`
// where the runtime has it (Node, browsers, workers); without either, no budget is checked.
import { Codes } from '../core/codes';
import { formatNumber as fmt } from '../core/format';
import { firstLineRange } from '../scene/limits';
import type { Diagnostic } from '../types';

export interface TimeBudget {
  /** Inspect (parse, model, solve, contacts, analysis) in milliseconds: over it, a CL406 warning. */
  inspectMs?: number;
  /** One step of a run in milliseconds: a step over it ends the run there with a CL406 warning. */
  stepMs?: number;
  /** A whole run in milliseconds: over it, the run ends after the step that crossed it (CL406). */
  runMs?: number;
  /** The clock in milliseconds (default `performance.now`). */
  now?: () => number;
}

/** The budget's clock, or undefined when none is available (then nothing is checked). */
export function clockOf(b: TimeBudget | undefined): (() => number) | undefined {
  if (!b) return undefined;
  if (b.now) return b.now;
  const perf = (globalThis as { performance?: { now(): number } }).performance;
  return perf && typeof perf.now === 'function' ? () => perf.now() : undefined;
}

const limit = (ms: number | undefined): number => (ms !== undefined && ms > 0 && Number.isFinite(ms) ? ms : Infinity);
const kept = (at: number): string => (at === 1 ? 'step 1 is kept' : `steps 1–${at} are kept`);
const ms = (t: number): string => (t >= 10_000 ? `${fmt(t / 1000)} s` : `${Math.round(t)} ms`);

/** Phases of inspect timed against `inspectMs`. */
export class PhaseTimer {
  private readonly now: (() => number) | undefined;
  private readonly t0: number;
  private last: number;
  readonly phases: { phase: string; ms: number }[] = [];

  constructor(private readonly budget: TimeBudget | undefined, start?: number) {
    this.now = clockOf(budget);
    this.t0 = start ?? this.now?.() ?? 0;
    this.last = this.t0;
  }

  /** The clock's reading now (to time a phase that happened before this timer existed). */
  static start(budget: TimeBudget | undefined): number | undefined {
    return clockOf(budget)?.();
  }

  /** The phase that just ended. */
  mark(phase: string): void {
    if (!this.now) return;
    const t = this.now();
    this.phases.push({ phase, ms: t - this.last });
    this.last = t;
  }

  /** CL406 when inspect took longer than its budget: the total, the budget and the slowest phases. */
  diagnostic(text: string): Diagnostic | undefined {
    const max = limit(this.budget?.inspectMs);
    if (!this.now || max === Infinity) return undefined;
    const total = this.last - this.t0;
    if (total <= max) return undefined;
    const slow = [...this.phases].sort((a, b) => b.ms - a.ms);
    const worst = slow[0];
    return {
      severity: 'warning',
      code: Codes.timeBudget,
      message: `Inspect took ${ms(total)}, more than its time budget of ${ms(max)}: the slowest phase was ${worst.phase} (${ms(worst.ms)})${slow.length > 1 ? `, then ${slow.slice(1, 3).map((p) => `${p.phase} (${ms(p.ms)})`).join(', ')}` : ''}. The results are complete; the model is large or badly conditioned for its size (fewer bodies, shapes or constraints make it faster).`,
      range: firstLineRange(text),
      data: { phase: worst.phase, ms: total, budget: max, phases: this.phases.map((p) => ({ ...p })) },
    };
  }
}

/** The part of a run that the budget watches: one step at a time. */
export interface SteppedRun {
  readonly currentStep: number;
  readonly stopped: boolean;
  step(n?: number): unknown;
}

/**
 * Take up to `n` steps, one at a time against the budget. Returns the diagnostic when a step took
 * longer than `stepMs` or the steps together longer than `runMs` (the run is left after that step),
 * else undefined. Without a budget or a clock, the steps are taken as `step(n)` would.
 */
export function stepWithinBudget(run: SteppedRun, n: number, budget: TimeBudget | undefined, text: string, spent = { ms: 0 }, dt?: number): Diagnostic | undefined {
  const now = clockOf(budget);
  const stepMax = limit(budget?.stepMs);
  const runMax = limit(budget?.runMs);
  if (!now || (stepMax === Infinity && runMax === Infinity)) {
    run.step(n);
    return undefined;
  }
  for (let k = 0; k < n && !run.stopped; k++) {
    const t0 = now();
    run.step(1);
    const took = now() - t0;
    spent.ms += took;
    const at = run.currentStep;
    const when = dt !== undefined ? ` (t = ${fmt(at * dt)} s)` : '';
    if (took > stepMax) {
      return {
        severity: 'warning',
        code: Codes.timeBudget,
        message: `Step ${at}${when} took ${ms(took)}, more than the time budget of ${ms(stepMax)} per step: the run stops after it (${kept(at)}). The slow part is the step's solve (contacts, Newton or the constraint system); fewer shapes, contacts or duplicate constraints, or the velocity formulation, make steps faster.`,
        range: firstLineRange(text),
        data: { phase: 'step', step: at, ms: took, budget: stepMax },
      };
    }
    if (spent.ms > runMax) {
      return {
        severity: 'warning',
        code: Codes.timeBudget,
        message: `The run took ${ms(spent.ms)} by step ${at}${when}, more than its time budget of ${ms(runMax)}: it stops there (${kept(at)}; ${ms(spent.ms / Math.max(1, at))} per step on average). Run fewer steps, or give the run a larger budget.`,
        range: firstLineRange(text),
        data: { phase: 'run', step: at, ms: spent.ms, budget: runMax },
      };
    }
  }
  return undefined;
}
