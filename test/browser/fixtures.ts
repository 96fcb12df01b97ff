// PanelModels built from the real engine on the example scenes, for the browser tests.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSimulation, inspectScene } from '../../src/engine';
import { sceneGeometry } from '../../src/panelModel';
import type { PanelModel, SystemSnapshot } from '../../src/protocol';

export const ROOT = join(__dirname, '..', '..');

export interface Fixture {
  model: PanelModel;
  /** The analysed system at step k (0 ≤ k ≤ steps). */
  snapshotAt(k: number): SystemSnapshot;
}

/** Inspect and run an example scene (`examples/<name>.scene.json`) for `steps` steps. */
export function buildFixture(name: string, steps?: number): Fixture {
  const file = `${name}.scene.json`;
  return fixtureFromText(file, readFileSync(join(ROOT, 'examples', file), 'utf8'), steps);
}

/** Inspect and run scene text (shown as `file`) for `steps` steps (default: the scene's steps, at most 200). */
export function fixtureFromText(file: string, text: string, steps?: number): Fixture {
  const name = file.replace(/\.scene\.json$/, '');
  const inspect = inspectScene(text);
  const scene = inspect.parse.scene;
  if (!scene || !inspect.snapshot) throw new Error(`fixture ${name}: the scene could not be analysed`);
  const sim = createSimulation(scene, inspect.parse.sourceMap);
  const n = steps ?? Math.min(scene.solver.steps, 200);
  sim.step(n);
  const cache = new Map<number, SystemSnapshot>();
  const snapshotAt = (k: number): SystemSnapshot => {
    let s = cache.get(k);
    if (!s) {
      s = sim.snapshotAt(Math.max(0, Math.min(sim.currentStep, k)));
      cache.set(k, s);
    }
    return s;
  };
  const model: PanelModel = {
    sceneName: scene.name,
    fileName: file,
    snapshot: snapshotAt(sim.currentStep),
    history: [...sim.records],
    plannedSteps: scene.solver.steps,
    dt: scene.solver.dt,
    diagnostics: [...inspect.diagnostics, ...sim.diagnostics],
    // What the 3D view draws besides the poses: bodies, constraints' local anchors, thresholds.
    ...sceneGeometry(scene),
  };
  return { model, snapshotAt };
}
