// Step, Run N Steps and Play/Pause from outside the panel (the CodeLens, the command palette, the
// keybindings) on a model whose panel runs MuJoCo: they drive that panel's MuJoCo session, as the
// panel's own buttons do, never the engine's simulation the views are not showing. And the numbers
// the Run lens prints (its step count, Run or Stop) are that session's. Pure: no vscode.
import { mujocoCommand, type MujocoPanelSession } from './mujocoPanelSession';

/** What the Step and Run lenses say: Run's step count and whether a run is going (Stop). */
export interface LensRun {
  planned: number;
  running: boolean;
}

/** The lenses' run under the shown solver: the engine's (`engine`), or the MuJoCo session's when there is one. */
export function lensRun(engine: LensRun, mj: MujocoPanelSession | undefined): LensRun {
  if (!mj) return engine;
  return { planned: mj.model()?.plannedSteps ?? engine.planned, running: mj.running };
}

/**
 * A scene command on the MuJoCo session: Step takes one mj_step, Run `count` of them (a positive
 * integer, else the session's planned count: 1 s of the model's time), Play/Pause toggles its play.
 * Resolves with the steps the session has taken.
 */
export async function mujocoSceneCommand(mj: MujocoPanelSession, command: 'step' | 'run' | 'playPause', count?: unknown): Promise<number> {
  if (command === 'run') {
    const n = typeof count === 'number' && Number.isInteger(count) && count > 0 ? count : (mj.model()?.plannedSteps ?? 1);
    await mj.step(n);
  } else await mujocoCommand(mj, command);
  return mj.total;
}
