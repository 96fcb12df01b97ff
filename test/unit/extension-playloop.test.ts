// Play (src/extension/logic/playLoop.ts) on a fake clock where every step costs time: it keeps the
// wall-clock rate, never owes steps, blocks the event loop for at most one budget plus one step, so
// a Pause or a Reset is handled within that bound whatever the history length, and nothing steps
// after it. Then the same loop playing a real scene through the scene store.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DUTY_KEEPING_UP, LAG_OK_MS, LAG_STALLED_MS, MAX_PLAY_RATE, PlayLoop, playScene } from '../../src/extension/logic/playLoop';
import { SceneStore, type SceneEvent } from '../../src/extension/logic/sceneStore';
import { PanelFeed } from '../../src/extension/logic/panelFeed';
import { inspectScene, type StepRecord, type SystemSnapshot } from '../../src/engine';
import type { HostMessage } from '../../src/protocol';
import type { Log } from '../../src/extension/analyzer';
import { FakeClock } from './fakeClock';

/** A loop over a fake simulation whose steps cost `stepMs` of clock time each. */
function fakePlay(opts: { rate: number; stepMs: number; budgetMs?: number; cap?: number; lag?: () => number | undefined }) {
  const clock = new FakeClock();
  const records: number[] = [];
  let ticks = 0;
  let ended = 0;
  let longestTick = 0;
  let tickStart = 0;
  const loop = new PlayLoop({
    rate: () => opts.rate,
    timers: clock,
    budgetMs: opts.budgetMs,
    lag: opts.lag,
    step: () => {
      if (records.length >= (opts.cap ?? Infinity)) return false;
      clock.t += opts.stepMs;
      records.push(clock.t);
      return true;
    },
    progressed: () => {
      ticks++;
    },
    ended: () => {
      ended++;
    },
  });
  // Measure how long each tick keeps the loop busy: wrap the clock's timer callbacks.
  const setT = clock.setTimeout.bind(clock);
  clock.setTimeout = (fn, ms) =>
    setT(() => {
      tickStart = clock.t;
      fn();
      longestTick = Math.max(longestTick, clock.t - tickStart);
    }, ms);
  return {
    clock,
    loop,
    records,
    get ticks() {
      return ticks;
    },
    get ended() {
      return ended;
    },
    get longestTick() {
      return longestTick;
    },
    /** A command (Pause) arrives at `at`; it runs when the event loop is free. Returns its latency and the steps after it. */
    pauseAt(at: number): { latency: number; stepsAfter: number } {
      let handled = -1;
      let count = -1;
      clock.runUntil(at - 1e-9);
      clock.setTimeout(
        () => {
          handled = clock.t;
          loop.stop();
          count = records.length;
        },
        at - clock.t,
      );
      clock.advance(1000 + at - clock.t);
      return { latency: handled - at, stepsAfter: records.length - count };
    },
  };
}

describe('play loop', () => {
  test('keeps the wall-clock rate (1000 steps/s at 0.3 ms a step) and Pause lands within one budget at 20 000 steps', () => {
    const p = fakePlay({ rate: 1000, stepMs: 0.3 });
    p.loop.start();
    p.clock.advance(20_000);
    const n = p.records.length;
    assert.ok(n >= 19_000 && n <= 20_100, `${n} steps in 20 s`);
    assert.ok(p.longestTick <= 8 + 0.3 + 1e-9, `a tick blocked the loop ${p.longestTick} ms`);
    // Pause at awkward moments (mid-tick, between ticks): handled within a budget, nothing steps after.
    p.loop.start();
    const latencies: number[] = [];
    for (const offset of [0.1, 3.7, 7.9, 12.2, 15.99]) {
      p.loop.start();
      p.clock.advance(200);
      const { latency, stepsAfter } = p.pauseAt(p.clock.t + offset);
      latencies.push(latency);
      assert.equal(stepsAfter, 0, 'the step count stops at once');
      assert.equal(p.loop.running, false);
    }
    assert.ok(Math.max(...latencies) <= 8.3 + 1e-9, `latencies ${latencies.join(', ')} ms`);
    assert.equal(p.clock.pending, 0, 'no timer left re-arming itself');
  });

  test('latency does not grow with the history: the same bound at 100 and at 100 000 steps', () => {
    const bound = (steps: number): number => {
      const p = fakePlay({ rate: 1000, stepMs: 0.25 });
      p.loop.start();
      p.clock.advance(steps);
      const worst = Math.max(...[1.3, 5.5, 9.1].map((o) => (p.loop.start(), p.clock.advance(50), p.pauseAt(p.clock.t + o).latency)));
      return worst;
    };
    const short = bound(100);
    const long = bound(100_000);
    assert.ok(long <= 8.25 + 1e-9 && short <= 8.25 + 1e-9, `${short} ms at 100 steps, ${long} ms at 100 000 steps`);
  });

  test('never owes steps: after the host was busy for 2 s it does not catch up', () => {
    const p = fakePlay({ rate: 1000, stepMs: 0.01 });
    p.loop.start();
    p.clock.advance(100);
    const before = p.records.length;
    p.clock.setTimeout(() => (p.clock.t += 2000), 0); // something else blocks the host for 2 s
    p.clock.advance(1);
    p.clock.advance(20); // about one tick
    const burst = p.records.length - before;
    // At most two ticks' worth (32) are owed, plus the rate over the 21 ms that follow; not 2000.
    assert.ok(burst <= 32 + 21, `${burst} steps right after the stall`);
    p.loop.stop();
  });

  test('slow steps: each tick takes what fits its budget, the rate drops, the loop stays responsive', () => {
    const p = fakePlay({ rate: 1000, stepMs: 5 });
    p.loop.start();
    p.clock.advance(10_000);
    assert.ok(p.longestTick <= 8 + 5 + 1e-9, `longest tick ${p.longestTick} ms`);
    const rate = p.records.length / 10;
    assert.ok(rate < 1000 && rate > 50, `${rate} steps/s`);
    const { latency, stepsAfter } = p.pauseAt(p.clock.t + 2.5);
    assert.ok(latency <= 13, `${latency} ms`);
    assert.equal(stepsAfter, 0);
  });

  test('as fast as possible: 80 % of the thread while the panel keeps up, the tick while it lags, a quarter once its acknowledgements stopped', () => {
    const rateWith = (lag: (() => number | undefined) | undefined): number => {
      const p = fakePlay({ rate: MAX_PLAY_RATE, stepMs: 1, lag });
      p.loop.start();
      p.clock.advance(10_000);
      const { latency, stepsAfter } = p.pauseAt(p.clock.t + 3.5);
      assert.ok(latency <= 8 + 1 + 1e-9, `Pause after ${latency} ms`);
      assert.equal(stepsAfter, 0);
      assert.ok(p.longestTick <= 8 + 1 + 1e-9, `longest tick ${p.longestTick} ms`);
      return p.records.length / 10;
    };
    const none = rateWith(undefined); // no inspector: 8 ms of every 16
    const keepingUp = rateWith(() => 0);
    const lagging = rateWith(() => LAG_OK_MS + 100);
    const stalled = rateWith(() => LAG_STALLED_MS + 1);
    assert.ok(Math.abs(none - 500) < 10, `${none} steps/s without a panel`);
    assert.ok(Math.abs(keepingUp - 1000 * DUTY_KEEPING_UP) < 20, `${keepingUp} steps/s with a panel keeping up`);
    assert.ok(Math.abs(lagging - 500) < 10, `${lagging} steps/s with a lagging panel`);
    assert.ok(Math.abs(stalled - 125) < 10, `${stalled} steps/s with a stalled panel`);
  });

  test('a real-time speed keeps its rate exactly whatever the panel feedback: only steps still due after a budget step sooner', () => {
    for (const lag of [undefined, 0, 5000]) {
      const p = fakePlay({ rate: 200, stepMs: 1, lag: () => lag });
      p.loop.start();
      p.clock.advance(10_000);
      assert.ok(Math.abs(p.records.length - 2000) <= 2, `${p.records.length} steps in 10 s at 200 steps/s (lag ${lag})`);
    }
  });

  test('a slow rate steps once per period; the end of the run stops it by itself, once', () => {
    const p = fakePlay({ rate: 5, stepMs: 0.1, cap: 12 });
    p.loop.start();
    p.clock.advance(1000);
    assert.ok(p.records.length >= 5 && p.records.length <= 7, `${p.records.length} steps in 1 s at 5/s`);
    p.clock.advance(5000);
    assert.equal(p.records.length, 12);
    assert.equal(p.ended, 1);
    assert.equal(p.loop.running, false);
    assert.equal(p.clock.pending, 0);
  });
});

const HANGING = `{
  "name": "Hanging mass",
  "solver": { "dt": 0.01, "steps": 100, "alpha": 5.0, "beta": 1.0 },
  "bodies": [
    { "name": "Ceiling_Anchor", "mass": 1e6, "inertia": [1e6, 1e6, 1e6], "position": [0, 0, 2], "gravity": false },
    { "name": "Hanging_Mass", "mass": 5.0, "inertia": [0.5, 0.5, 0.5], "position": [0, 0, 0] }
  ],
  "constraints": [{ "name": "rod", "type": "distance", "bodyA": "Ceiling_Anchor", "bodyB": "Hanging_Mass", "length": 2.0 }]
}`;

describe('playing a scene through the store', () => {
  test('Pause and Reset stop the steps at once; the panel feed never has more than one message in flight', () => {
    const clock = new FakeClock();
    const log: Log = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined } as unknown as Log;
    const events: SceneEvent<{ path: string; toString(): string }>[] = [];
    const sink: { feed?: PanelFeed } = {};
    const store = new SceneStore<{ path: string; toString(): string }>((e) => {
      events.push(e);
      if (e.kind === 'stepped') sink.feed?.stepped(e.settled === true);
      if (e.kind === 'reset') sink.feed?.modelChanged();
    }, log);
    const u = { path: '/w/h.scene.json', toString: () => 'file:///w/h.scene.json' };
    const s = store.stateFor(u);
    store.storeResult(s, 1, inspectScene(HANGING), HANGING);
    const sim = store.simulation(s)!;
    const posted: HostMessage[] = [];
    // A panel that never acknowledges.
    const feed = new PanelFeed(
      (m) => (posted.push(m), true),
      {
        model: () => ({ message: { type: 'model', model: { sceneName: 'h', fileName: 'h.scene.json', snapshot: { step: 0 } as SystemSnapshot, history: [], steps: sim.currentStep, plannedSteps: 1, dt: 0.01, diagnostics: [], sceneBodies: [] } } }),
        records: (): readonly StepRecord[] => s.sim?.records ?? [],
        snapshot: (k) => ({ step: k }) as SystemSnapshot,
      },
      { timers: clock },
    );
    sink.feed = feed;
    feed.connect();
    // Each real step costs 0.3 ms of clock time.
    const step = sim.step.bind(sim);
    sim.step = (n = 1) => {
      clock.t += 0.3 * n;
      return step(n);
    };
    const handle = playScene(store, s, sim, { rate: () => 1000, maxSteps: () => 100_000, timers: clock, onError: (e) => assert.fail(String(e)), onEnded: () => assert.fail('not ended by itself') });
    assert.equal(s.run, handle);
    clock.advance(3000);
    const n = sim.currentStep;
    assert.ok(n > 2500, `${n} steps in 3 s`);
    // Pause: the handle's cancel (what the Pause command calls) stops it before the next step.
    store.cancelRun(s);
    assert.equal(s.running, false);
    clock.advance(2000);
    assert.equal(sim.currentStep, n, 'no step after Pause');
    assert.ok(events.some((e) => e.kind === 'stepped' && e.settled), 'Pause fires a settled step');
    // Play again, then Reset while playing.
    playScene(store, s, sim, { rate: () => 1000, maxSteps: () => 100_000, timers: clock, onError: () => undefined, onEnded: () => undefined });
    clock.advance(500);
    assert.ok(sim.currentStep > n);
    store.resetRun(s);
    assert.equal(sim.currentStep, 0);
    assert.equal(s.running, false);
    clock.advance(2000);
    assert.equal(sim.currentStep, 0, 'no step after Reset');
    assert.deepEqual(
      posted.map((m) => m.type),
      ['model'],
      'the panel that never acknowledged got one message',
    );
    assert.equal(clock.pending, 0);
  });

  test('the history cap ends Play by itself', () => {
    const clock = new FakeClock();
    const store = new SceneStore<{ path: string; toString(): string }>(() => undefined, { info: () => undefined, warn: () => undefined, error: () => undefined } as unknown as Log);
    const s = store.stateFor({ path: '/w/h.scene.json', toString: () => 'file:///w/h.scene.json' });
    store.storeResult(s, 1, inspectScene(HANGING), HANGING);
    const sim = store.simulation(s)!;
    let ended = 0;
    playScene(store, s, sim, { rate: () => 1000, maxSteps: () => 50, timers: clock, onError: () => undefined, onEnded: () => ended++ });
    clock.advance(1000);
    assert.equal(sim.currentStep, 50);
    assert.equal(ended, 1);
    assert.equal(s.running, false);
  });
});
