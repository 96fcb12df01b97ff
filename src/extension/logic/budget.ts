// The editor's time budgets (CL406, src/engine/guards/budget.ts): an inspect over 10 s is reported
// in Problems, and a step over 5 s ends the run it belongs to. Plain numbers (no clock): the budget
// also travels to the analysis worker, where the engine takes `performance.now`.
import type { TimeBudget } from '../../engine';

export const EDITOR_BUDGET: Readonly<TimeBudget> = { inspectMs: 10_000, stepMs: 5_000 };
