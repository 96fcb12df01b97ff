// The one-way pipeline: scene text → parse → model → assemble → solve → analyse → diagnostics.
// Never throws: an unexpected failure becomes a CL900 diagnostic.
import type { InspectOptions, InspectResult } from './api';
import { assemble, buildWorld } from './assembly/assemble';
import { buildSnapshot } from './analysis/analysis';
import { Codes } from './core/codes';
import { analysisDiagnostics } from './analysis/findings';
import { checkInitial, findingDiagnostic, isInitialFinding } from './guards/nonFinite';
import { stabilityDiagnostic } from './guards/divergenceCause';
import { initialState } from './model/body';
import type { SimulationResult } from './result';
import { parseScene } from './scene/parse';
import { emptySourceMap } from './scene/text';
import { formatCount, resolveLimits } from './core/inputLimits';
import { firstLineRange, stepsLimitDiagnostic } from './scene/limits';
import type { ParseResult } from './scene/spec';
import { Simulation, type SimulationOptions } from './stepping/simulation';
import { inspectMsd } from './msd/inspect';
import { MsdSimulation } from './msd/simulation';
import type { SceneSpec, SourceMap } from './scene/spec';
import type { SimulationApi } from './api';
import { solveSystem } from './kkt/kkt';
import type { Diagnostic } from './types';
import { contactMode, ContactStepper, NO_WARM } from './contact/stepContacts';
import { addContactSnapshotFields, applyContactStep } from './contact/contactReports';
import { initialContactDiagnostics } from './analysis/contactFindings';
import { checkContactStep, checkShapes } from './guards/nonFiniteContacts';
import { PhaseTimer, stepWithinBudget, type TimeBudget } from './guards/budget';

const ORIGIN = { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } };

export function internalError(e: unknown, where: string): Diagnostic {
  return {
    severity: 'error',
    code: Codes.internalError,
    message: `Internal error while ${where}: ${e instanceof Error ? e.message : String(e)}. This is a bug in Constraint Lens; please report it with the scene file.`,
    range: ORIGIN,
  };
}

function sortDiagnostics(d: Diagnostic[]): Diagnostic[] {
  return d.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
}

/** Parse, model, solve and analyse step 0 of a scene. */
export function inspectScene(text: string, opts: InspectOptions = {}): InspectResult {
  let parse: ParseResult;
  const t0 = PhaseTimer.start(opts.budget);
  try {
    parse = parseScene(text, opts.limits);
  } catch (e) {
    const d = internalError(e, 'parsing the scene');
    return { parse: { scene: undefined, diagnostics: [d], hasErrors: true, sourceMap: emptySourceMap(text) }, diagnostics: [d], hasErrors: true };
  }
  return inspectParsed(text, parse, opts, t0);
}

/** Inspect an already parsed scene (the extension parses once and reuses it). */
export function inspectParsed(text: string, parse: ParseResult, opts: InspectOptions = {}, started?: number): InspectResult {
  const diagnostics = [...parse.diagnostics];
  if (!parse.scene) return { parse, diagnostics, hasErrors: true };
  const timer = new PhaseTimer(opts.budget, started);
  if (started !== undefined) timer.mark('parsing');
  try {
    if (parse.scene.solver.coordinates === 'quaternion') return inspectMsd(text, parse, sortDiagnostics);
    const world = buildWorld(parse.scene);
    const states = parse.scene.bodies.map(initialState);
    const asm = assemble(world, states);
    timer.mark('assembling J and M');
    const out = solveSystem(world, asm, parse.scene.solver, { exactCondMaxRows: 1000, wantSpectrum: opts.wantSpectrum ?? true, eigenIterations: opts.eigenIterations });
    timer.mark('solving the constraint system (λ, κ, rank)');
    // contacts: detected at the initial state, solved for the first step
    const mode = contactMode(parse.scene);
    const stepper = mode ? new ContactStepper(world, parse.scene, mode) : undefined;
    const contacts = stepper?.detect(states) ?? [];
    const contact = stepper?.step(states, NO_WARM, asm, contacts);
    if (contact) applyContactStep(world, asm, out, contact);
    if (stepper) timer.mark('detecting and solving the contacts');
    const snapshot = buildSnapshot(world, 0, states, asm, out);
    if (stepper) addContactSnapshotFields(snapshot, world, parse.scene, contact);
    if (stepper) diagnostics.push(...initialContactDiagnostics(parse.scene, parse.sourceMap, states, contacts));
    const sm = parse.sourceMap;
    // every number shown at step 0 is finite and below ±1e150, or the first one that is not is an error
    const bad = checkInitial(world, states, asm, out, snapshot.constraints.map((c) => c.violation), snapshot.energy) ?? (stepper && checkShapes(world)) ?? (contact && checkContactStep(world, contact));
    if (bad) diagnostics.push(findingDiagnostic(bad, 0, parse.scene.solver.dt, sm));
    const gains = stabilityDiagnostic(parse.scene, sm);
    if (gains) diagnostics.push(gains);
    diagnostics.push(
      ...analysisDiagnostics(snapshot, text, parse.sourceMap, {
        conditionWarning: parse.scene.solver.conditionWarning,
        violationTolerance: parse.scene.solver.violationTolerance,
      }),
    );
    timer.mark('the analysis (redundancy, diagnostics)');
    const slow = timer.diagnostic(text);
    if (slow) diagnostics.push(slow);
    if (sm.decorate) for (let i = parse.diagnostics.length; i < diagnostics.length; i++) sm.decorate(diagnostics[i]);
    sortDiagnostics(diagnostics);
    snapshot.diagnostics = diagnostics;
    return { parse, snapshot, diagnostics, hasErrors: diagnostics.some((d) => d.severity === 'error') };
  } catch (e) {
    diagnostics.push(internalError(e, 'analysing the scene'));
    return { parse, diagnostics, hasErrors: true };
  }
}

export interface SimulateOutput {
  inspect: InspectResult;
  result?: SimulationResult;
  simulation?: SimulationApi;
}

/** The run of a scene: the engine's own, or msd-sim's in quaternion coordinates (`solver.coordinates`). */
export function createSimulation(scene: SceneSpec, sourceMap: SourceMap, opts: SimulationOptions = {}): SimulationApi {
  return scene.solver.coordinates === 'quaternion' ? new MsdSimulation(scene, sourceMap) : new Simulation(scene, sourceMap, opts);
}

/** Inspect, then run `steps` steps (default: the scene's `solver.steps`), at most the steps limit (CL010). */
export function simulateScene(text: string, steps?: number, onProgress?: (done: number, total: number) => void, opts: RunOptions = {}): SimulateOutput {
  return simulateInspected(inspectScene(text, { limits: opts.limits, budget: opts.budget }), steps, onProgress, opts);
}

/** A run's options: the simulation's, and time budgets (`stepMs`, `runMs`: CL406, the run stops). */
export type RunOptions = SimulationOptions & { budget?: TimeBudget };

/** Run an already inspected scene (e.g. an imported MJCF/URDF model: `inspectParsed` of its ParseResult). */
export function simulateInspected(inspect: InspectResult, steps?: number, onProgress?: (done: number, total: number) => void, opts: RunOptions = {}): SimulateOutput {
  const scene = inspect.parse.scene;
  // nothing can be simulated from an initial state with NaN, ∞ or values beyond ±1e150 (reported at step 0)
  if (!scene || !inspect.snapshot || inspect.diagnostics.some(isInitialFinding)) return { inspect };
  try {
    const sim = createSimulation(scene, inspect.parse.sourceMap, opts);
    const lim = resolveLimits(opts.limits);
    let total = steps ?? scene.solver.steps;
    const tooLong = steps !== undefined ? stepsLimitDiagnostic(steps, lim, firstLineRange(inspect.parse.sourceMap.text ?? ''), `The run of ${formatCount(steps)} steps asked for`) : undefined;
    if (tooLong) {
      inspect.diagnostics.push(tooLong);
      total = lim.steps;
    }
    const chunk = Math.max(1, Math.min(100, Math.ceil(total / 100)));
    const spent = { ms: 0 };
    let overBudget: Diagnostic | undefined;
    for (let done = 0; done < total && !sim.stopped && !overBudget; done += chunk) {
      overBudget = stepWithinBudget(sim, Math.min(chunk, total - done), opts.budget, inspect.parse.sourceMap.text ?? '', spent, scene.solver.dt);
      onProgress?.(Math.min(done + chunk, total), total);
    }
    if (overBudget) inspect.diagnostics.push(overBudget);
    const result = sim.result();
    for (const d of result.diagnostics) inspect.diagnostics.push(d);
    sortDiagnostics(inspect.diagnostics);
    inspect.hasErrors ||= result.diagnostics.some((d) => d.severity === 'error');
    return { inspect, result, simulation: sim };
  } catch (e) {
    inspect.diagnostics.push(internalError(e, 'simulating the scene'));
    inspect.hasErrors = true;
    return { inspect };
  }
}
