// The model a panel's feed sends (logic/panelFeed.ts): a scene's analysed system at the shown step,
// with the diagnostics and κ band every other view uses, or MuJoCo's for a panel MuJoCo runs.
import type * as vscode from 'vscode';
import { buildPanelModel } from '../panelModel';
import type { MujocoSection } from '../protocol';
import type { Config } from './config';
import { publishedFor, syntaxErrorsFor } from './diagnostics';
import type { FeedModel } from './logic/panelFeed';
import type { MujocoPanelSession } from './logic/mujocoPanelSession';
import type { SceneState } from './scenes';
import { sceneConditionWarning } from './statusBar';
import { errorMessage } from './util';

export interface SceneFeedDeps {
  /** Scenes analysed in the worker: the model carries step 0, the shown step follows. */
  large(s: SceneState): boolean;
  config: Config;
  /** The MuJoCo section of a model (undefined for scene files). */
  mujocoFor: ((s: SceneState) => MujocoSection | undefined) | undefined;
  /** The panel offers the engine/MuJoCo switch. */
  switchable: boolean;
  log: vscode.LogOutputChannel;
}

/** The scene's model message (its history streamed after it), an error when it cannot be analysed, undefined while analysing. */
export function sceneFeedModel(s: SceneState, d: SceneFeedDeps): FeedModel | undefined {
  const r = s.result;
  if (!r) return undefined; // analysing; 'inspected' will come
  try {
    const sim = s.sim;
    const step = s.shownStep ?? sim?.currentStep ?? 0;
    const large = step > 0 && d.large(s);
    const model = buildPanelModel(s.fileName, r, sim, large ? undefined : step, {
      diagnostics: publishedFor(s),
      syntaxErrors: syntaxErrorsFor(s),
      conditionWarning: sceneConditionWarning(s, d.config),
      history: false,
    });
    if (model) {
      model.sceneUri = s.uri.toString();
      const mujoco = d.mujocoFor?.(s);
      if (mujoco) {
        model.mujoco = mujoco;
        if (d.switchable) model.solver = 'engine';
      }
      return { message: { type: 'model', model }, showStep: large ? step : undefined };
    }
    const first = r.diagnostics.find((x) => x.severity === 'error');
    return { message: { type: 'error', message: first ? `${s.fileName} cannot be analysed: ${first.message} (line ${first.range.start.line + 1})` : `${s.fileName} cannot be analysed.` } };
  } catch (e) {
    d.log.error(`building the panel model failed: ${errorMessage(e)}`);
    return { message: { type: 'error', message: `Internal error: ${e instanceof Error ? e.message : String(e)}` } };
  }
}

/** The model of a panel MuJoCo runs: step 0's system, then the shown step (or the run's end) fetched from the worker. */
export const mujocoFeedModel = (mj: MujocoPanelSession): FeedModel | undefined => {
  const model = mj.model();
  if (!model) return undefined;
  const step = Math.min(mj.shown ?? mj.total, mj.total);
  return { message: { type: 'model', model }, ...(step > 0 ? { showStep: step } : {}) };
};
