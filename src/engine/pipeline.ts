// The one-way pipeline: scene text → parse → model → assemble → solve → analyse → diagnostics.
// Never throws: an unexpected failure becomes a CL900 diagnostic.
import type { InspectOptions, InspectResult } from './api';
import { assemble, buildWorld } from './assemble';
import { buildSnapshot } from './analysis';
import { Codes } from './codes';
import { analysisDiagnostics } from './findings';
import { initialState } from './model/body';
import type { SimulationResult } from './result';
import { parseScene } from './scene/parse';
import { emptySourceMap } from './scene/text';
import type { ParseResult } from './scene/types';
import { Simulation } from './simulation';
import { solveSystem } from './kkt';
import type { Diagnostic } from './types';

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

/**
 * A constraint dropped because a body it names exists but has errors of its own is not an
 * unknown body: the parser marks that note (`data.reason: 'body-has-errors'`), and it is reported
 * as CL208, an information (the body's own error is the problem to fix). In place: the parse
 * result's diagnostics are the same objects.
 */
export function classifyParseDiagnostics(diagnostics: readonly Diagnostic[]): void {
  for (const d of diagnostics) {
    if (d.code === Codes.unknownBody && d.data?.reason === 'body-has-errors') {
      d.code = Codes.constraintIgnored;
      d.severity = 'information';
    }
  }
}

/** Parse, model, solve and analyse step 0 of a scene. */
export function inspectScene(text: string, opts: InspectOptions = {}): InspectResult {
  let parse: ParseResult;
  try {
    parse = parseScene(text);
  } catch (e) {
    const d = internalError(e, 'parsing the scene');
    return { parse: { scene: undefined, diagnostics: [d], hasErrors: true, sourceMap: emptySourceMap(text) }, diagnostics: [d], hasErrors: true };
  }
  return inspectParsed(text, parse, opts);
}

/** Inspect an already parsed scene (the extension parses once and reuses it). */
export function inspectParsed(text: string, parse: ParseResult, opts: InspectOptions = {}): InspectResult {
  classifyParseDiagnostics(parse.diagnostics);
  const diagnostics = [...parse.diagnostics];
  if (!parse.scene) return { parse, diagnostics, hasErrors: true };
  try {
    const world = buildWorld(parse.scene);
    const states = parse.scene.bodies.map(initialState);
    const asm = assemble(world, states);
    const out = solveSystem(world, asm, parse.scene.solver, { exactCondMaxRows: 1000, wantSpectrum: opts.wantSpectrum ?? true });
    const snapshot = buildSnapshot(world, 0, states, asm, out);
    diagnostics.push(
      ...analysisDiagnostics(snapshot, text, parse.sourceMap, {
        conditionWarning: parse.scene.solver.conditionWarning,
        violationTolerance: parse.scene.solver.violationTolerance,
      }),
    );
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
  simulation?: Simulation;
}

/** Inspect, then run `steps` steps (default: the scene's `solver.steps`). */
export function simulateScene(text: string, steps?: number, onProgress?: (done: number, total: number) => void): SimulateOutput {
  const inspect = inspectScene(text);
  const scene = inspect.parse.scene;
  if (!scene || !inspect.snapshot) return { inspect };
  try {
    const sim = new Simulation(scene, inspect.parse.sourceMap);
    const total = steps ?? scene.solver.steps;
    const chunk = Math.max(1, Math.min(100, Math.ceil(total / 100)));
    for (let done = 0; done < total && !sim.stopped; done += chunk) {
      sim.step(Math.min(chunk, total - done));
      onProgress?.(Math.min(done + chunk, total), total);
    }
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
