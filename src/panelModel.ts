// Builds the PanelModel (protocol.ts) from engine output: shared by the extension host, the CLI report and tests.
import type { InspectResult } from './engine/api';
import type { Simulation } from './engine/simulation';
import type { PanelModel } from './protocol';

/**
 * `opts.history: false` leaves the run's records out (a live panel receives them as appended
 * columns after the model); `steps` still says how many there are.
 */
export function buildPanelModel(fileName: string, inspect: InspectResult, sim?: Simulation, step?: number, opts: { history?: boolean } = {}): PanelModel | undefined {
  const scene = inspect.parse.scene;
  if (!scene || !inspect.snapshot) return undefined;
  const history = sim && opts.history !== false ? sim.records.slice() : [];
  const snapshot = sim && step !== undefined && step > 0 ? sim.snapshotAt(step) : inspect.snapshot;
  if (snapshot !== inspect.snapshot) snapshot.diagnostics = inspect.snapshot.diagnostics;
  return {
    sceneName: scene.name,
    fileName,
    snapshot,
    history,
    steps: sim?.currentStep ?? 0,
    plannedSteps: scene.solver.steps,
    dt: scene.solver.dt,
    conditionWarning: scene.solver.conditionWarning,
    diagnostics: [...inspect.diagnostics, ...(sim?.diagnostics ?? []).filter((d) => !inspect.diagnostics.includes(d))],
    sceneBodies: scene.bodies.map((b) => ({ name: b.name, fixed: b.fixed })),
  };
}
