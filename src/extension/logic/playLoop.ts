// Play: steps at a wall-clock rate without ever letting work queue up. Every tick adds the steps
// due since the last one (rate × elapsed time) to a credit capped at two ticks' worth, and takes
// them while the tick's time budget lasts; whatever does not fit is dropped, not owed. So a tick
// never blocks the extension host for more than about one budget plus one step, a slow machine
// plays slower instead of falling behind, and `stop()` takes effect before the next step.
// When a tick runs out of budget with steps still due (the rate is more than the machine steps:
// "as fast as possible", or ×N on a slow machine), the next tick follows as soon as the event loop
// has handled what waits (a Pause, the panel's acknowledgements) instead of after the rest of the
// tick's period: the loop then steps continuously in budget-long slices. Waiting out the period
// there left the host idle half of the time, and a Pause waits no longer either way.
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
  /** Steps were taken (called after the tick that took them; while stepping continuously, at most once per `tickMs`). */
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
  /** `handle` is the timers' setImmediate (else their setTimeout). */
  private immediate = false;
  private active = false;
  private credit = 0;
  private last = 0;
  private readonly timers: Timers;
  private readonly budgetMs: number;
  private readonly tickMs: number;
  /** Steps taken since `start()`. */
  taken = 0;
  /** Steps were taken since `progressed` was last called, and when it was. */
  private unreported = false;
  private reportedAt = Number.NEGATIVE_INFINITY;

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
    this.unreported = false;
    this.reportedAt = Number.NEGATIVE_INFINITY;
    this.credit = 1;
    this.last = this.timers.now();
    this.schedule(0);
  }

  /** Stop: no step is taken after this returns. */
  stop(): void {
    this.active = false;
    if (this.handle !== undefined) {
      if (this.immediate) this.timers.clearImmediate?.(this.handle);
      else this.timers.clearTimeout(this.handle);
    }
    this.handle = undefined;
  }

  /** The next tick after `ms`, or (ms = 0) as soon as the event loop is free. */
  private schedule(ms: number): void {
    const t = this.timers;
    this.immediate = ms === 0 && t.setImmediate !== undefined && t.clearImmediate !== undefined;
    this.handle = this.immediate ? t.setImmediate?.(() => this.tick()) : t.setTimeout(() => this.tick(), ms);
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
    if (taken) this.unreported = true;
    if (ended && this.active) {
      this.stop();
      if (this.unreported) this.o.progressed();
      this.unreported = false;
      this.o.ended();
      return;
    }
    // steps still due: the budget, not the rate, stopped this tick; go on once the event loop is free
    const continuing = this.credit >= 1;
    // stepping continuously, the listeners (the panel's feed, the status bar) hear of it once per tick's period, not per slice
    const now = this.timers.now();
    if (this.unreported && (!continuing || now - this.reportedAt >= this.tickMs)) {
      this.unreported = false;
      this.reportedAt = now;
      this.o.progressed();
    }
    if (!this.active) return;
    if (continuing) {
      this.schedule(0);
      return;
    }
    const period = Math.min(100, Math.max(this.tickMs, 1000 / rate));
    const spent = this.timers.now() - t0;
    this.schedule(Math.max(1, period - spent));
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
