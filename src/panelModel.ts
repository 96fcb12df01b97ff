// Builds the PanelModel (protocol.ts) from engine output: shared by the extension host, the CLI report and tests.
import type { InspectResult } from './engine/api';
import type { Simulation } from './engine/simulation';
import type { PanelModel } from './protocol';

export function buildPanelModel(fileName: string, inspect: InspectResult, sim?: Simulation, step?: number): PanelModel | undefined {
  const scene = inspect.parse.scene;
  if (!scene || !inspect.snapshot) return undefined;
  const history = sim ? sim.records.slice() : [];
  const snapshot = sim && step !== undefined && step > 0 ? sim.snapshotAt(step) : inspect.snapshot;
  if (snapshot !== inspect.snapshot) snapshot.diagnostics = inspect.snapshot.diagnostics;
  return {
    sceneName: scene.name,
    fileName,
    snapshot,
    history,
    plannedSteps: scene.solver.steps,
    dt: scene.solver.dt,
    conditionWarning: scene.solver.conditionWarning,
    diagnostics: [...inspect.diagnostics, ...(sim?.diagnostics ?? []).filter((d) => !inspect.diagnostics.includes(d))],
    sceneBodies: scene.bodies.map((b) => ({ name: b.name, fixed: b.fixed })),
  };
}
