// Stepping a scene's simulation: single steps, long runs (in time-sliced chunks, with a
// cancellable progress notification when they take a while), Play (fixed rate) and Reset.
// Never blocks the extension host for more than one chunk (~25 ms).
import * as vscode from 'vscode';
import type { Config } from './config';
import type { SceneManager, SceneState } from './scenes';
import { errorMessage, yieldToEventLoop } from './util';

/** Work per chunk before yielding to the event loop (ms). */
const CHUNK_MS = 25;
/** A run that is not finished after this long gets a progress notification (ms). */
const PROGRESS_AFTER_MS = 300;

export class Runner implements vscode.Disposable {
  constructor(
    private readonly scenes: SceneManager,
    private readonly log: vscode.LogOutputChannel,
    private readonly config: () => Config,
  ) {}

  /** Take `n` steps synchronously (small n: Step). Returns the number taken. */
  step(s: SceneState, n = 1): number {
    if (s.run) s.run.cancel();
    const sim = this.scenes.simulation(s);
    if (!sim) return 0;
    const room = Math.max(0, this.config().maxSteps - sim.currentStep);
    const before = sim.currentStep;
    try {
      sim.step(Math.min(n, room));
    } catch (e) {
      this.log.error(`step failed: ${errorMessage(e)}`);
    }
    s.shownStep = undefined;
    this.scenes.fire(s, 'stepped', true);
    return sim.currentStep - before;
  }

  /**
   * Take `n` steps in chunks; shows a cancellable progress notification if it takes more than a
   * moment. Resolves with the number of steps taken (fewer when cancelled, stopped on NaN/Inf, or
   * the text changed).
   */
  async run(s: SceneState, n: number): Promise<number> {
    if (s.run) {
      s.run.cancel();
      await s.whenIdle();
    }
    const sim = this.scenes.simulation(s);
    if (!sim) return 0;
    const target = Math.min(sim.currentStep + n, this.config().maxSteps);
    const start = sim.currentStep;
    let cancelled = false;
    let finish!: () => void;
    const done = new Promise<void>((res) => (finish = res));
    s.run = { kind: 'run', cancel: () => (cancelled = true), done };
    s.shownStep = undefined;
    this.scenes.fire(s, 'running');
    const alive = (): boolean => !cancelled && !sim.stopped && s.sim === sim && sim.currentStep < target;
    const chunk = (): void => {
      const t0 = performance.now();
      while (alive() && performance.now() - t0 < CHUNK_MS) sim.step(1);
    };
    try {
      const t0 = performance.now();
      let lastFire = t0;
      while (alive() && performance.now() - t0 < PROGRESS_AFTER_MS) {
        chunk();
        if (performance.now() - lastFire > 150) {
          this.scenes.fire(s, 'stepped');
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
                const doneSteps = sim.currentStep - start;
                progress.report({ increment: (100 * (doneSteps - reported)) / n, message: `step ${sim.currentStep} of ${target}` });
                reported = doneSteps;
                if (performance.now() - lastFire > 150) {
                  this.scenes.fire(s, 'stepped');
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
      s.run = undefined;
      finish();
      if (s.sim === sim) this.scenes.fire(s, 'stepped', true);
      this.scenes.fire(s, 'running');
      s.notifyIdle();
    }
    if (sim.stopped) void vscode.window.showWarningMessage(`Constraint Lens: ${s.fileName} stopped at step ${sim.currentStep}: a value became NaN or infinite. See the Problems view.`);
    return sim.currentStep - start;
  }

  /** Play (step at `constraintLens.play.stepsPerSecond`) or pause. Returns true when now playing. */
  playPause(s: SceneState): boolean {
    if (s.run) {
      s.run.cancel();
      return false;
    }
    const sim = this.scenes.simulation(s);
    if (!sim) return false;
    const rate = this.config().playRate;
    const tickMs = Math.max(16, 1000 / rate);
    const perTick = Math.max(1, Math.round((rate * tickMs) / 1000));
    let timer: ReturnType<typeof setTimeout> | undefined;
    let finish!: () => void;
    const done = new Promise<void>((res) => (finish = res));
    const stop = (): void => {
      if (timer) clearTimeout(timer);
      timer = undefined;
      if (s.run !== handle) return;
      s.run = undefined;
      finish();
      if (s.sim === sim) this.scenes.fire(s, 'stepped', true);
      this.scenes.fire(s, 'running');
      s.notifyIdle();
    };
    const handle = { kind: 'play' as const, cancel: stop, done };
    s.run = handle;
    s.shownStep = undefined;
    this.scenes.fire(s, 'running');
    const tick = (): void => {
      timer = undefined;
      const max = this.config().maxSteps;
      if (s.run !== handle || s.sim !== sim || sim.stopped || sim.currentStep >= max) return stop();
      try {
        sim.step(Math.min(perTick, max - sim.currentStep));
      } catch (e) {
        this.log.error(`play failed: ${errorMessage(e)}`);
        return stop();
      }
      this.scenes.fire(s, 'stepped');
      if (sim.stopped) return stop();
      timer = setTimeout(tick, tickMs);
    };
    timer = setTimeout(tick, 0);
    return true;
  }

  /** Back to the initial state (history cleared). */
  reset(s: SceneState): void {
    s.run?.cancel();
    try {
      s.sim?.reset();
    } catch (e) {
      this.log.error(`reset failed: ${errorMessage(e)}`);
      s.sim = undefined;
    }
    s.shownStep = undefined;
    this.scenes.fire(s, 'reset');
  }

  dispose(): void {
    for (const s of this.scenes.all()) s.run?.cancel();
  }
}
