// Play: steps at a wall-clock rate without ever letting work queue up. Every tick adds the steps
// due since the last one (rate × elapsed time) to a credit capped at two ticks' worth, and takes
// them while the tick's time budget lasts; whatever does not fit is dropped, not owed. So a tick
// never blocks the extension host for more than about one budget plus one step, a slow machine
// plays slower instead of falling behind, and `stop()` takes effect before the next step.
// Pure: no vscode; timers injectable (test/unit/extension-playloop.test.ts).
import type { SimulationApi } from '../../engine';
import type { PlaySpeed } from '../../protocol';
import { realTimers, type Timers } from './schedule';
import type { RunHandle, SceneState, SceneStore } from './sceneStore';
import type { SceneUri } from './uri';

/** Steps per second of "as fast as possible": more than any tick can take, so the loop's time budget decides. */
export const MAX_PLAY_RATE = 1e6;

/** Steps per second of a play speed for a scene of time step `dt` (the setting's `configured` for 'setting'). */
export function playRate(speed: PlaySpeed | undefined, dt: number | undefined, configured: number): number {
  if (speed === undefined || speed === 'setting') return configured;
  if (speed === 'max') return MAX_PLAY_RATE;
  return dt !== undefined && dt > 0 && Number.isFinite(dt) ? Math.min(MAX_PLAY_RATE, speed.realTime / dt) : configured;
}

export interface PlayLoopOptions {
  /** Steps per second (read every tick: a settings change applies at once). */
  rate(): number;
  /** Take one step; false when none could be taken (the run ended: cap reached, NaN, scene changed). */
  step(): boolean;
  /** Steps were taken in the tick that just ended. */
  progressed(): void;
  /** The loop stopped by itself (`step` returned false); not called after `stop()`. */
  ended(): void;
  timers?: Timers;
  /** Most work per tick (ms). Default 8. */
  budgetMs?: number;
  /** Shortest time between ticks (ms). Default 16. */
  tickMs?: number;
}

export class PlayLoop {
  private handle: unknown;
  private active = false;
  private credit = 0;
  private last = 0;
  private readonly timers: Timers;
  private readonly budgetMs: number;
  private readonly tickMs: number;
  /** Steps taken since `start()`. */
  taken = 0;

  constructor(private readonly o: PlayLoopOptions) {
    this.timers = o.timers ?? realTimers;
    this.budgetMs = o.budgetMs ?? 8;
    this.tickMs = o.tickMs ?? 16;
  }

  get running(): boolean {
    return this.active;
  }

  /** Start stepping: the first step comes at once (on the next turn of the event loop). */
  start(): void {
    if (this.active) return;
    this.active = true;
    this.taken = 0;
    this.credit = 1;
    this.last = this.timers.now();
    this.handle = this.timers.setTimeout(() => this.tick(), 0);
  }

  /** Stop: no step is taken after this returns. */
  stop(): void {
    this.active = false;
    if (this.handle !== undefined) this.timers.clearTimeout(this.handle);
    this.handle = undefined;
  }

  private rate(): number {
    const r = this.o.rate();
    return Number.isFinite(r) && r > 0 ? r : 1;
  }

  private tick(): void {
    this.handle = undefined;
    if (!this.active) return;
    const t0 = this.timers.now();
    const rate = this.rate();
    this.credit += ((t0 - this.last) * rate) / 1000;
    this.last = t0;
    // Never owe more than two ticks' worth: time the host spent elsewhere is not made up for.
    this.credit = Math.min(this.credit, Math.max(1, (2 * rate * this.tickMs) / 1000));
    let taken = 0;
    let ended = false;
    while (this.active && this.credit >= 1) {
      if (!this.o.step()) {
        ended = true;
        break;
      }
      taken++;
      this.credit -= 1;
      if (this.timers.now() - t0 >= this.budgetMs) break;
    }
    this.taken += taken;
    if (ended && this.active) {
      this.stop();
      if (taken) this.o.progressed();
      this.o.ended();
      return;
    }
    if (taken) this.o.progressed();
    if (!this.active) return;
    const period = Math.min(100, Math.max(this.tickMs, 1000 / rate));
    const spent = this.timers.now() - t0;
    this.handle = this.timers.setTimeout(() => this.tick(), Math.max(1, period - spent));
  }
}

/** What `playScene` needs besides the scene. */
interface PlaySceneOptions {
  rate(): number;
  /** The history cap (`constraintLens.run.maxSteps`): Play stops there. */
  maxSteps(): number;
  timers?: Timers;
  budgetMs?: number;
  /** A step threw (the run stops). */
  onError(e: unknown): void;
  /** The run stopped by itself (cap, NaN/∞, error); not called on Pause or Reset. */
  onEnded(): void;
}

/**
 * Play a scene of the store: registers the run (its handle's `cancel` stops the loop and marks the
 * scene idle: Pause, Reset, an edit, closing the document), steps its simulation through the loop
 * and tells the store after every tick. Returns the run's handle.
 */
export function playScene<U extends SceneUri>(store: SceneStore<U>, s: SceneState<U>, sim: SimulationApi, o: PlaySceneOptions): RunHandle {
  const loop = new PlayLoop({
    rate: o.rate,
    timers: o.timers,
    budgetMs: o.budgetMs,
    step: () => {
      if (s.run !== handle || s.sim !== sim || sim.stopped || sim.currentStep >= o.maxSteps()) return false;
      const before = sim.currentStep;
      try {
        sim.step(1);
      } catch (e) {
        o.onError(e);
        return false;
      }
      return sim.currentStep > before;
    },
    progressed: () => store.stepped(s, false),
    ended: () => {
      if (store.markIdle(s, handle)) o.onEnded();
    },
  });
  const handle: RunHandle = {
    kind: 'play',
    sim,
    cancel: () => {
      loop.stop();
      store.markIdle(s, handle);
    },
  };
  store.markRunning(s, handle);
  loop.start();
  return handle;
}
