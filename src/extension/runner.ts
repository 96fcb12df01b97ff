// Stepping a scene's simulation: single steps, long runs (in time-sliced chunks, with a
// cancellable progress notification when they take a while), Play (wall-clock rate) and Reset.
// Never blocks the extension host for more than one chunk (~25 ms). The runner steps the
// simulation; every change to the scene's state (run started/ended, steps taken, reset) goes
// through the scene manager, which fires the events.
import * as vscode from 'vscode';
import type { Config } from './config';
import type { RunHandle, SceneManager, SceneState } from './scenes';
import { playRate, playScene } from './logic/playLoop';
import type { PlaySpeed } from '../protocol';
import { errorMessage, yieldToEventLoop } from './util';
import { stepWithinBudget } from '../engine';
import { EDITOR_BUDGET } from './logic/budget';

/** Work per chunk before yielding to the event loop (ms). */
const CHUNK_MS = 25;
/** A run that is not finished after this long gets a progress notification (ms). */
const PROGRESS_AFTER_MS = 300;

export class Runner {
  /** Play's speed per scene (key), as the inspector chose it. */
  private readonly speeds = new Map<string, PlaySpeed>();
  /**
   * How long the update the scene's inspector was sent has waited for its acknowledgement (ms);
   * undefined when no inspector shows the scene. Play steps faster while the panel keeps up
   * (logic/playLoop.ts).
   */
  panelLag: ((s: SceneState) => number | undefined) | undefined;

  constructor(
    private readonly scenes: SceneManager,
    private readonly log: vscode.LogOutputChannel,
    private readonly config: () => Config,
  ) {}

  /** The speed Play uses for this scene from now on (also while playing: read every tick). */
  setSpeed(s: SceneState, speed: PlaySpeed): void {
    this.speeds.set(s.key, speed);
  }

  /** The speed Play uses for this scene (undefined: the setting's steps per second). */
  speedOf(s: SceneState): PlaySpeed | undefined {
    return this.speeds.get(s.key);
  }

  /** Take `n` steps synchronously (small n: Step). Returns the number taken. */
  step(s: SceneState, n = 1): number {
    this.scenes.cancelRun(s);
    const sim = this.scenes.simulation(s);
    if (!sim) return 0;
    const room = Math.max(0, this.config().maxSteps - sim.currentStep);
    const before = sim.currentStep;
    try {
      sim.step(Math.min(n, room));
    } catch (e) {
      this.log.error(`step failed: ${errorMessage(e)}`);
    }
    this.scenes.showStep(s, undefined);
    this.scenes.stepped(s, true);
    return sim.currentStep - before;
  }

  /**
   * Take `n` steps in chunks; shows a cancellable progress notification if it takes more than a
   * moment. Resolves with the number of steps taken (fewer when cancelled, stopped on NaN/Inf, or
   * the text changed).
   */
  async run(s: SceneState, n: number): Promise<number> {
    if (s.run) {
      this.scenes.cancelRun(s);
      await s.whenIdle();
    }
    const sim = this.scenes.simulation(s);
    if (!sim) return 0;
    const target = Math.min(sim.currentStep + n, this.config().maxSteps);
    const start = sim.currentStep;
    let cancelled = false;
    const handle: RunHandle = { kind: 'run', sim, cancel: () => (cancelled = true) };
    this.scenes.markRunning(s, handle);
    const alive = (): boolean => !cancelled && !sim.stopped && s.sim === sim && sim.currentStep < target;
    const chunk = (): void => {
      const t0 = performance.now();
      while (alive() && performance.now() - t0 < CHUNK_MS) {
        // a step over the editor's budget ends the run (CL406), said once in a warning
        const over = stepWithinBudget(sim, 1, EDITOR_BUDGET, '', undefined, sim.scene.solver.dt);
        if (over) {
          cancelled = true;
          void vscode.window.showWarningMessage(`Constraint Lens (${over.code}): ${s.fileName}: ${over.message}`);
        }
      }
    };
    try {
      const t0 = performance.now();
      let lastFire = t0;
      while (alive() && performance.now() - t0 < PROGRESS_AFTER_MS) {
        chunk();
        if (performance.now() - lastFire > 150) {
          this.scenes.stepped(s, false);
          lastFire = performance.now();
        }
        await yieldToEventLoop();
      }
      if (alive()) {
        await vscode.window.withProgress(
          { location: vscode.ProgressLocation.Notification, title: `Constraint Lens: running ${s.fileName}`, cancellable: true },
          async (progress, token) => {
            const sub = token.onCancellationRequested(() => (cancelled = true));
            let reported = sim.currentStep - start;
            try {
              while (alive()) {
                chunk();
                // The notification and the views are told a few times a second, not every chunk.
                if (performance.now() - lastFire > 150) {
                  const doneSteps = sim.currentStep - start;
                  progress.report({ increment: (100 * (doneSteps - reported)) / n, message: `step ${sim.currentStep} of ${target}` });
                  reported = doneSteps;
                  this.scenes.stepped(s, false);
                  lastFire = performance.now();
                }
                await yieldToEventLoop();
              }
            } finally {
              sub.dispose();
            }
          },
        );
      }
    } catch (e) {
      this.log.error(`run failed: ${errorMessage(e)}`);
    } finally {
      this.scenes.markIdle(s, handle);
    }
    if (sim.stopped) void vscode.window.showWarningMessage(`Constraint Lens: ${s.fileName} stopped at step ${sim.currentStep}: ${sim.historyFull ? "the run's history is full (CL405)" : 'a value became NaN or infinite'}. See the Problems view.`);
    return sim.currentStep - start;
  }

  /**
   * Play (step at `constraintLens.play.stepsPerSecond`, by the wall clock) or pause. Returns true
   * when now playing. The loop (logic/playLoop.ts) works in short budgeted ticks and owes no
   * steps, so Pause and Reset are handled before its next tick and the step count stops at once.
   */
  playPause(s: SceneState): boolean {
    if (s.run) {
      this.scenes.cancelRun(s);
      return false;
    }
    const sim = this.scenes.simulation(s);
    if (!sim) return false;
    playScene(this.scenes, s, sim, {
      rate: () => playRate(this.speeds.get(s.key), s.result?.parse.scene?.solver.dt, this.config().playRate),
      lag: () => this.panelLag?.(s),
      maxSteps: () => this.config().maxSteps,
      onError: (e) => this.log.error(`play failed: ${errorMessage(e)}`),
      onEnded: () => {
        if (sim.stopped && s.sim === sim) void vscode.window.showWarningMessage(`Constraint Lens: ${s.fileName} stopped at step ${sim.currentStep}: a value became NaN or infinite. See the Problems view.`);
      },
    });
    return true;
  }

  /** Back to the initial state (history cleared). */
  reset(s: SceneState): void {
    this.scenes.resetRun(s);
  }
}
