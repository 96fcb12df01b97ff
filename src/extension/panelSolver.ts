// The inspector's solver switch for MJCF and URDF models (engine | MuJoCo): a panel switched to MuJoCo
// gets a live MuJoCo session (logic/mujocoPanelSession.ts) in the MuJoCo worker, and its Step, Run,
// Play and Reset buttons drive that session instead of the engine's simulation; MuJoCo's diagnostics
// go to the Problems panel on the XML lines (source "Constraint Lens (MuJoCo)") and to the panel's list.
// Switching either way starts the other solver from the model's initial state (or keyframe).
import * as vscode from 'vscode';
import type { Config } from './config';
import { MujocoPanelSession } from './logic/mujocoPanelSession';
import { playRate } from './logic/playLoop';
import type { PlaySpeed } from '../protocol';
import type { MujocoRunner } from './mujocoRunner';
import { modelParseOf } from './models';
import type { SceneState } from './scenes';
import { sceneConditionWarning } from './statusBar';

/** A panel button on a model run by MuJoCo (pure: logic/mujocoPanelSession.ts). */
export { mujocoCommand } from './logic/mujocoPanelSession';

/** What the switch needs of an inspector panel. */
export interface SolverPanel {
  readonly state: SceneState;
  readonly feed: { modelChanged(): void; stepped(settled: boolean): void };
  post(m: { type: 'running'; running: boolean } | { type: 'diagnostics'; diagnostics: import('../engine').Diagnostic[] } | { type: 'error'; message: string }): void;
}

/** Makes the MuJoCo session of a panel switched to MuJoCo. */
export function mujocoSessionFactory(d: { mujoco: MujocoRunner; config: () => Config; speed: (s: SceneState) => PlaySpeed | undefined; log: vscode.LogOutputChannel; changed: (s: SceneState) => void }) {
  return (p: SolverPanel): MujocoPanelSession => {
    const s = p.state;
    return new MujocoPanelSession(s.key, {
      request: (m) => d.mujoco.request(m),
      source: () => {
        const doc = vscode.workspace.textDocuments.find((x) => x.uri.toString() === s.uri.toString());
        const model = modelParseOf(s)?.model;
        return {
          path: s.uri.fsPath,
          fileName: s.fileName,
          text: doc?.getText() ?? '',
          ...(model?.keyframe ? { keyframe: model.keyframe } : {}),
          plannedSteps: Math.max(1, Math.round(1 / (model?.compiled.timestep || 0.002))),
          conditionWarning: sceneConditionWarning(s, d.config()),
          maxSteps: d.config().maxSteps,
        };
      },
      playRate: () => playRate(d.speed(s), modelParseOf(s)?.model?.compiled.timestep, d.config().playRate),
      modelChanged: () => {
        p.feed.modelChanged();
        d.changed(s);
      },
      stepped: (settled) => {
        if (settled) queueMicrotask(() => p.feed.stepped(true));
        else p.feed.stepped(false);
        d.changed(s);
      },
      shown: () => d.changed(s),
      running: (running) => {
        p.post({ type: 'running', running });
        // the Run lens reads Stop while MuJoCo plays
        d.changed(s);
      },
      diagnostics: (ds) => {
        d.mujoco.publish(s.uri, ds);
        p.post({ type: 'diagnostics', diagnostics: [...ds] });
        d.changed(s);
      },
      error: (message) => {
        d.log.error(`MuJoCo (${s.fileName}): ${message}`);
        p.post({ type: 'error', message });
      },
    });
  };
}
