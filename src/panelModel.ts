// Builds the PanelModel (protocol.ts) from engine output: shared by the extension host, the CLI report and tests.
import type { Diagnostic, InspectResult, SimulationApi, ShapeSpec, SceneSpec } from './engine';
import type { PanelModel } from './protocol';

/** What the extension host decides for its panel (a report takes the scene's own). */
interface PanelModelOptions {
  /** The diagnostics to list (the extension: those it publishes in the Problems panel); default: all of the scene's. */
  diagnostics?: Diagnostic[];
  /** Syntax errors VS Code's JSON service reports instead (PanelModel.syntaxErrors). */
  syntaxErrors?: Diagnostic[];
  /** The κ warning threshold (the extension's setting); default: the scene's `solver.conditionWarning`. */
  conditionWarning?: number;
  /**
   * false: the run's records are left out (a live panel receives them as appended columns after
   * the model); `steps` still says how many there are.
   */
  history?: boolean;
}

/** All diagnostics of an inspection and of its run so far (each once). */
function sceneDiagnostics(inspect: InspectResult, sim?: SimulationApi): Diagnostic[] {
  return [...inspect.diagnostics, ...(sim?.diagnostics ?? []).filter((d) => !inspect.diagnostics.includes(d))];
}

/**
 * What the 3D view needs from the scene file besides the poses: bodies (mass, inertia, shapes),
 * constraints (local anchors and axes), world shapes and the thresholds of the state colours.
 * Shapes are read structurally: a scene without them (or an engine without contacts) gives none.
 */
export function sceneGeometry(scene: SceneSpec): Pick<PanelModel, 'sceneBodies' | 'sceneConstraints' | 'worldShapes' | 'thresholds'> {
  const shapesOf = (x: unknown): ShapeSpec[] | undefined => {
    const s = (x as { shapes?: unknown } | undefined)?.shapes;
    return Array.isArray(s) && s.length ? (s as ShapeSpec[]) : undefined;
  };
  return {
    sceneBodies: scene.bodies.map((b) => ({ name: b.name, fixed: b.fixed, fileIndex: b.index, mass: b.mass, inertia: [...b.inertia], shapes: shapesOf(b) })),
    sceneConstraints: scene.constraints.map((c) => ({
      name: c.name,
      type: c.type,
      fileIndex: c.index,
      bodyA: c.bodyA,
      bodyB: c.bodyB,
      anchorA: c.anchorA,
      anchorB: c.anchorB,
      axisA: c.axisA,
      axisB: c.axisB,
      linear: c.linear,
      angular: c.angular,
    })),
    worldShapes: shapesOf((scene as { world?: unknown }).world),
    thresholds: { violationTolerance: scene.solver.violationTolerance, conditionWarning: scene.solver.conditionWarning, penetrationTolerance: scene.solver.contacts?.penetrationTolerance },
  };
}

export function buildPanelModel(fileName: string, inspect: InspectResult, sim?: SimulationApi, step?: number, opts: PanelModelOptions = {}): PanelModel | undefined {
  const scene = inspect.parse.scene;
  if (!scene || !inspect.snapshot) return undefined;
  const history = sim && opts.history !== false ? sim.records.slice() : [];
  const snapshot = sim && step !== undefined && step > 0 ? sim.snapshotAt(step) : inspect.snapshot;
  if (snapshot !== inspect.snapshot) snapshot.diagnostics = inspect.snapshot.diagnostics;
  const model: PanelModel = {
    sceneName: scene.name,
    fileName,
    snapshot,
    history,
    steps: sim?.currentStep ?? 0,
    plannedSteps: scene.solver.steps,
    dt: scene.solver.dt,
    conditionWarning: opts.conditionWarning ?? scene.solver.conditionWarning,
    diagnostics: opts.diagnostics ?? sceneDiagnostics(inspect, sim),
    ...sceneGeometry(scene),
  };
  if (opts.conditionWarning !== undefined && model.thresholds) model.thresholds = { ...model.thresholds, conditionWarning: opts.conditionWarning };
  if (opts.syntaxErrors?.length) model.syntaxErrors = opts.syntaxErrors;
  if (inspect.parse.notSimulated?.length) model.notSimulated = inspect.parse.notSimulated;
  return model;
}
