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
import { paintedStep } from '../../webview/painted';

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

test('Pause names the step on screen: an update applied after the last frame (a click queued behind it) is not what the user saw', () => {
  const frames: (() => void)[] = [];
  const frame = (): void => {
    for (const f of frames.splice(0)) f();
  };
  const posted: WebviewMessage[] = [];
  const s0 = initialState({ report: false });
  const store = createStore({ ...s0, model: { dt: 0.01 } as never, total: 40, step: 40, follow: true, running: true, history: historyFromRecords([]) });
  const painted = paintedStep(store, { requestAnimationFrame: (f) => (frames.push(() => f(0)), frames.length) });
  assert.equal(painted(), 40);
  // the run's update to 52 is applied (the panel follows it) and the page paints it
  store.dispatch({ type: 'host', message: { type: 'historyReset', length: 52 } });
  store.dispatch({ type: 'goToStep', step: 52 });
  frame();
  assert.equal(painted(), 52);
  // two more updates applied within one frame (70, then 90) and no frame since: 52 is on screen
  store.dispatch({ type: 'host', message: { type: 'historyReset', length: 90 } });
  store.dispatch({ type: 'goToStep', step: 70 });
  store.dispatch({ type: 'goToStep', step: 90 });
  assert.equal(painted(), 52);
  const actions = createActions(store, (m) => posted.push(m), painted);
  actions.command('playPause');
  assert.deepEqual(posted, [{ type: 'command', command: 'playPause', step: 52 }]);
  assert.equal(store.getState().step, 52);
  assert.equal(store.getState().follow, false);
  // the frame after the click paints 52 (the 70 and 90 callbacks see another step and leave it)
  frame();
  assert.equal(painted(), 52);
});
