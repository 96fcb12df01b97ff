// Play: steps at a wall-clock rate without ever letting work queue up. Every tick adds the steps
// due since the last one (rate × elapsed time) to a credit capped at two ticks' worth, and takes
// them while the tick's time budget lasts; whatever does not fit is dropped, not owed. So a tick
// never blocks the extension host for more than about one budget plus one step, a slow machine
// plays slower instead of falling behind, and `stop()` takes effect before the next step.
// When steps are still due after a tick's budget (a fast speed, or "as fast as possible"), how soon
// the next slice follows depends on the inspector watching the run (`lag`): while it acknowledges
// the run's updates promptly the next slice follows after a macrotask yield (so the host's
// messages and the panel's acknowledgements get through between slices) at DUTY_KEEPING_UP of the
// thread; when its acknowledgements stop coming the loop drops to one slice per tick, then to one
// in four ticks, so that a panel sharing the machine's CPUs gets painted. Stepping slice after
// slice without that feedback (setImmediate) left the panel without a single update in the real
// VS Code while the host ran thousands of steps on.
// Pure: no vscode; timers injectable (test/unit/extension-playloop.test.ts).
import type { SimulationApi } from '../../engine';
import type { PlaySpeed } from '../../protocol';
import { realTimers, type Timers } from './schedule';
import type { RunHandle, SceneState, SceneStore } from './sceneStore';
import type { SceneUri } from './uri';

/** Steps per second of "as fast as possible": more than any tick can take, so the loop's time budget decides. */
export const MAX_PLAY_RATE = 1e6;

/** Share of the thread the loop takes while steps are due and the panel keeps up (the rest: yields between slices). */
export const DUTY_KEEPING_UP = 0.8;
/** The panel keeps up while its oldest unacknowledged update is younger than this (ms): a frame or two and the trip there and back. */
export const LAG_OK_MS = 250;
/** Past this (ms) the panel's acknowledgements have stopped: the loop works one tick in four. */
export const LAG_STALLED_MS = 1000;

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
  /**
   * How long the update the inspector is sent has waited for its acknowledgement (ms; 0: none
   * waiting); undefined when no inspector watches the run (the loop then keeps its tick).
   */
  lag?(): number | undefined;
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
    const spent = this.timers.now() - t0;
    this.handle = this.timers.setTimeout(() => this.tick(), this.pause(rate, spent));
  }

  /** Time until the next tick (ms) after one that worked `spent` ms. */
  private pause(rate: number, spent: number): number {
    const period = Math.min(100, Math.max(this.tickMs, 1000 / rate));
    const regular = Math.max(1, period - spent);
    // steps are due still only when the budget ran out: then the panel's feedback sets the pace
    const lag = this.credit >= 1 ? this.o.lag?.() : undefined;
    if (lag === undefined || !Number.isFinite(lag)) return regular;
    if (lag < LAG_OK_MS) return Math.max(1, (spent * (1 - DUTY_KEEPING_UP)) / DUTY_KEEPING_UP);
    if (lag < LAG_STALLED_MS) return regular;
    return Math.max(regular, 4 * this.tickMs - spent);
  }
}

/** What `playScene` needs besides the scene. */
interface PlaySceneOptions {
  rate(): number;
  /** The inspector's acknowledgement lag (PlayLoopOptions.lag). */
  lag?(): number | undefined;
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
    lag: o.lag,
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
