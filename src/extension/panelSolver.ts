// The inspector's solver switch for MJCF and URDF models (engine | MuJoCo): a panel switched to MuJoCo
// gets a live MuJoCo session (logic/mujocoPanelSession.ts) in the MuJoCo worker, and its Step, Run,
// Play and Reset buttons drive that session instead of the engine's simulation; MuJoCo's diagnostics
// go to the Problems panel on the XML lines (source "Constraint Lens (MuJoCo)") and to the panel's list.
// Switching either way starts the other solver from the model's initial state (or keyframe).
import * as vscode from 'vscode';
import type { Config } from './config';
import { MujocoPanelSession } from './logic/mujocoPanelSession';
import { playRate } from './logic/playLoop';
import type { PanelCommand, PlaySpeed } from '../protocol';
import type { MujocoRunner } from './mujocoRunner';
import { modelParseOf } from './models';
import type { SceneState } from './scenes';
import { sceneConditionWarning } from './statusBar';

/** What the switch needs of an inspector panel. */
export interface SolverPanel {
  readonly state: SceneState;
  readonly feed: { modelChanged(): void; stepped(settled: boolean): void };
  post(m: { type: 'running'; running: boolean } | { type: 'diagnostics'; diagnostics: import('../engine').Diagnostic[] } | { type: 'error'; message: string }): void;
}

/** Makes the MuJoCo session of a panel switched to MuJoCo. */
export function mujocoSessionFactory(d: { mujoco: MujocoRunner; config: () => Config; speed: (s: SceneState) => PlaySpeed | undefined; log: vscode.LogOutputChannel }) {
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
      modelChanged: () => p.feed.modelChanged(),
      stepped: (settled) => (settled ? queueMicrotask(() => p.feed.stepped(true)) : p.feed.stepped(false)),
      running: (running) => p.post({ type: 'running', running }),
      diagnostics: (ds) => {
        d.mujoco.publish(s.uri, ds);
        p.post({ type: 'diagnostics', diagnostics: [...ds] });
      },
      error: (message) => {
        d.log.error(`MuJoCo (${s.fileName}): ${message}`);
        p.post({ type: 'error', message });
      },
    });
  };
}

/** A panel button on a model run by MuJoCo; false when the button is not the run's (Compare, Keyframe). */
export async function mujocoCommand(session: MujocoPanelSession, command: PanelCommand): Promise<boolean> {
  switch (command) {
    case 'step':
      await session.step(1);
      return true;
    case 'run':
      await session.step(session.model()?.plannedSteps ?? 1);
      return true;
    case 'playPause':
      session.playPause();
      return true;
    case 'reset':
      await session.reset();
      return true;
    default:
      return false;
  }
}
