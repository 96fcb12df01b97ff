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
  return simulateInspected(inspectScene(text), steps, onProgress);
}

/** Run an already inspected scene (e.g. an imported MJCF/URDF model: `inspectParsed` of its ParseResult). */
export function simulateInspected(inspect: InspectResult, steps?: number, onProgress?: (done: number, total: number) => void): SimulateOutput {
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
    inspect.diagnostics.push(...result.diagnostics);
    sortDiagnostics(inspect.diagnostics);
    inspect.hasErrors ||= result.diagnostics.some((d) => d.severity === 'error');
    return { inspect, result, simulation: sim };
  } catch (e) {
    inspect.diagnostics.push(internalError(e, 'simulating the scene'));
    inspect.hasErrors = true;
    return { inspect };
  }
}
