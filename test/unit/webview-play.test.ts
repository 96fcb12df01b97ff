// Play and Pause without a DOM: the panel's keys (Space, ← →, Shift for ten, Home / End), Pause
// staying on the shown step and naming it to the host, the speed message and its validation, and
// the runner's steps per second for each speed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isWebviewMessage, type WebviewMessage } from '../../src/protocol';
import { MAX_PLAY_RATE, playRate } from '../../src/extension/logic/playLoop';
import { runKey } from '../../webview/runKeys';
import { createActions } from '../../webview/actions';
import { createStore, initialState } from '../../webview/store';
import { historyFromRecords } from '../../webview/history';
import { framedStore, onNextFrame, type FrameSource } from '../../webview/frame';

test('keys: Space plays or pauses (not in a report), arrows step, Shift steps ten, Home and End', () => {
  assert.equal(runKey(' ', false, 5, 100, false), 'playPause');
  assert.equal(runKey(' ', false, 5, 100, true), undefined);
  assert.deepEqual(runKey('ArrowLeft', false, 5, 100, false), { goTo: 4 });
  assert.deepEqual(runKey('ArrowLeft', false, 0, 100, false), { goTo: 0 });
  assert.deepEqual(runKey('ArrowRight', true, 95, 100, false), { goTo: 100 });
  assert.deepEqual(runKey('Home', false, 50, 100, false), { goTo: 0 });
  assert.deepEqual(runKey('End', false, 50, 100, false), { goTo: 100 });
  assert.equal(runKey('a', false, 50, 100, false), undefined);
});

test('Pause while playing: the panel stays on the step it shows and the host is told that step', () => {
  const posted: WebviewMessage[] = [];
  const s0 = initialState({ report: false });
  // A panel following a run at step 40 (the host may already be further).
  const store = createStore({ ...s0, model: { dt: 0.01 } as never, total: 40, step: 40, follow: true, running: true, history: historyFromRecords([]) });
  const actions = createActions(store, (m) => posted.push(m));
  actions.command('playPause');
  assert.deepEqual(posted, [{ type: 'command', command: 'playPause', step: 40 }]);
  assert.equal(store.getState().follow, false, 'no longer following the run’s end');
  assert.equal(store.getState().step, 40);
  assert.ok(posted.every((m) => isWebviewMessage(m)));
  posted.length = 0;
  actions.command('step');
  assert.deepEqual(posted, [{ type: 'command', command: 'step' }], 'other commands carry no step');
});

test('play speed: messages validated; steps per second from dt (real time ×N), the setting, or as fast as possible', () => {
  assert.ok(isWebviewMessage({ type: 'playSpeed', speed: { realTime: 2 } }));
  assert.ok(isWebviewMessage({ type: 'playSpeed', speed: 'max' }));
  assert.ok(!isWebviewMessage({ type: 'playSpeed', speed: { realTime: -1 } }));
  assert.ok(!isWebviewMessage({ type: 'playSpeed', speed: 'fast' }));
  assert.ok(!isWebviewMessage({ type: 'command', command: 'playPause', step: -3 }));
  assert.equal(playRate({ realTime: 1 }, 0.005, 30), 200);
  assert.equal(playRate({ realTime: 10 }, 0.005, 30), 2000);
  assert.equal(playRate('setting', 0.005, 30), 30);
  assert.equal(playRate(undefined, 0.005, 30), 30);
  assert.equal(playRate('max', 0.005, 30), MAX_PLAY_RATE);
  assert.equal(playRate({ realTime: 1 }, undefined, 30), 30, 'no dt: the setting');
});

test('Play after a Pause from the panel: the panel follows the run again from its end', () => {
  const posted: WebviewMessage[] = [];
  const s0 = initialState({ report: false });
  const store = createStore({ ...s0, model: { dt: 0.01 } as never, total: 40, step: 40, follow: true, running: true, history: historyFromRecords([]) });
  const actions = createActions(store, (m) => posted.push(m));
  actions.command('playPause'); // Pause: the panel stays on step 40
  store.dispatch({ type: 'host', message: { type: 'running', running: false } });
  store.dispatch({ type: 'host', message: { type: 'historyReset', length: 52 } }); // the host had run on to 52
  assert.equal(store.getState().step, 40);
  assert.equal(store.getState().follow, false);
  store.dispatch({ type: 'host', message: { type: 'running', running: true } }); // Play
  assert.equal(store.getState().follow, true, 'following the run again');
  assert.equal(store.getState().step, 52, 'from the run’s end');
  // a panel that was left on an earlier step while the run goes on stays there
  store.dispatch({ type: 'goToStep', step: 10 });
  store.dispatch({ type: 'host', message: { type: 'running', running: true } });
  assert.equal(store.getState().step, 10);
});

/** Frames and timers driven by the test. */
function fakeFrames(hidden = false): { win: FrameSource; frame(): void; timers(): void } {
  const frames: (() => void)[] = [];
  let timers: { f: () => void; live: boolean }[] = [];
  return {
    win: {
      requestAnimationFrame: (f) => frames.push(() => f(0)),
      setTimeout: (f) => {
        const t = { f, live: true };
        timers.push(t);
        return t;
      },
      clearTimeout: (h) => ((h as { live: boolean }).live = false),
      hidden: () => hidden,
    },
    frame: () => {
      for (const f of frames.splice(0)) f();
    },
    timers: () => {
      const due = timers;
      timers = [];
      for (const t of due) if (t.live) t.f();
    },
  };
}

test('one state per frame: the header and Pause read the same step, whatever was applied since the last frame', () => {
  const { win, frame } = fakeFrames();
  const posted: WebviewMessage[] = [];
  const s0 = initialState({ report: false });
  const store = createStore({ ...s0, model: { dt: 0.01 } as never, total: 40, step: 40, follow: true, running: true, history: historyFromRecords([]) });
  const framed = framedStore(store, win);
  // the header card: the step it writes
  const header: number[] = [];
  framed.watch((s) => s.step, (step) => header.push(step));
  assert.deepEqual(header, [40]);
  // the run's update to 52 is applied: nothing is rendered before the frame, then everything is
  store.dispatch({ type: 'host', message: { type: 'historyReset', length: 52 } });
  store.dispatch({ type: 'goToStep', step: 52 });
  assert.deepEqual(header, [40]);
  assert.equal(framed.shownStep(), 40);
  frame();
  assert.deepEqual(header, [40, 52], 'two changes in one frame render once');
  assert.equal(framed.shownStep(), 52);
  // two more updates applied (70, then 90) and no frame since: the header still reads 52
  store.dispatch({ type: 'host', message: { type: 'historyReset', length: 90 } });
  store.dispatch({ type: 'goToStep', step: 70 });
  store.dispatch({ type: 'goToStep', step: 90 });
  assert.equal(header.at(-1), 52);
  assert.equal(framed.getState().step, 52, 'the cards read the framed state');
  const actions = createActions(store, (m) => posted.push(m), framed.shownStep);
  actions.command('playPause');
  assert.deepEqual(posted, [{ type: 'command', command: 'playPause', step: 52 }], 'Pause names the step the header shows');
  frame();
  assert.equal(header.at(-1), 52, 'the frame after the click still shows 52');
  assert.equal(store.getState().follow, false);
});

test('one state per frame: a canvas invalidated while the frame renders draws in that frame; a stalled or hidden page still renders', () => {
  const f = fakeFrames();
  const store = createStore({ ...initialState({ report: false }), model: { dt: 0.01 } as never, total: 10, step: 0, follow: false, history: historyFromRecords([]) });
  const framed = framedStore(store, f.win);
  const drawn: number[] = [];
  framed.watch(
    (s) => s.step,
    (step) => onNextFrame(() => drawn.push(step), f.win),
    { immediate: false },
  );
  store.dispatch({ type: 'goToStep', step: 3 });
  f.frame();
  assert.deepEqual(drawn, [3], 'drawn in the frame that rendered step 3, not the next one');
  // no frame comes (a stalled renderer): the fallback timer renders the state
  store.dispatch({ type: 'goToStep', step: 4 });
  f.timers();
  assert.equal(framed.shownStep(), 4);
  f.frame();
  assert.deepEqual(drawn, [3, 4]);
  // a hidden page paints no frame: its state is rendered on a timer
  const h = fakeFrames(true);
  const hidden = framedStore(store, h.win);
  store.dispatch({ type: 'goToStep', step: 7 });
  assert.equal(hidden.shownStep(), 4);
  h.timers();
  assert.equal(hidden.shownStep(), 7);
  // flush renders now
  store.dispatch({ type: 'goToStep', step: 8 });
  hidden.flush();
  assert.equal(hidden.getState().step, 8);
});

test('one state per frame: the frame reports its own rendering time (the panel\'s work that paces the host), not the wait for it', () => {
  const f = fakeFrames();
  let clock = 1000;
  const framed = framedStore(createStore({ ...initialState({ report: false }), model: { dt: 0.01 } as never, total: 40, step: 40, follow: true, running: true, history: historyFromRecords([]) }), { ...f.win, now: () => clock });
  const store = framed;
  // a card that takes 20 ms to render each new step
  framed.watch(
    (s) => s.step,
    () => (clock += 20),
    { immediate: false },
  );
  assert.equal(framed.lastRenderMs(), 0, 'nothing rendered yet');
  store.dispatch({ type: 'goToStep', step: 12 });
  clock += 300; // the frame comes late: waiting is not work
  f.frame();
  assert.equal(framed.shownStep(), 12);
  assert.equal(framed.lastRenderMs(), 20);
});
