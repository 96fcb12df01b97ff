// The scene store's transitions (src/extension/logic/sceneStore.ts), without vscode: every change of
// a scene's state goes through a named method that fires its event; the read-only SceneState the
// rest of the extension sees follows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inspectScene } from '../../src/engine';
import type { Log } from '../../src/extension/analyzer';
import { SceneStore, type RunHandle, type SceneEvent, type SceneState } from '../../src/extension/logic/sceneStore';

const HANGING = `{
  "name": "Hanging mass",
  "solver": { "dt": 0.01, "steps": 100, "alpha": 5.0, "beta": 1.0 },
  "bodies": [
    { "name": "Ceiling_Anchor", "mass": 1e6, "inertia": [1e6, 1e6, 1e6], "position": [0, 0, 2], "gravity": false },
    { "name": "Hanging_Mass", "mass": 5.0, "inertia": [0.5, 0.5, 0.5], "position": [0, 0, 0] }
  ],
  "constraints": [{ "name": "rod", "type": "distance", "bodyA": "Ceiling_Anchor", "bodyB": "Hanging_Mass", "length": 2.0 }]
}`;
// Two rods of different lengths between the same bodies: the run reports drift within a few steps.
const CONFLICTING = `{
  "name": "Conflicting rods",
  "solver": { "dt": 0.01, "steps": 100, "alpha": 5.0, "beta": 1.0 },
  "bodies": [
    { "name": "hook", "mass": 1.0, "position": [0, 0, 2], "fixed": true },
    { "name": "weight", "mass": 3.0, "inertia": [0.03, 0.03, 0.03], "position": [0, 0, 0] }
  ],
  "constraints": [
    { "name": "short", "type": "distance", "bodyA": "hook", "bodyB": "weight", "length": 2.0 },
    { "name": "long", "type": "distance", "bodyA": "hook", "bodyB": "weight", "length": 2.5 }
  ]
}`;
const BROKEN = '[]'; // not a scene object: no scene, no analysis

interface Uri {
  path: string;
  toString(): string;
}
const uri = (path: string): Uri => ({ path, toString: () => `file://${path}` });

function setup() {
  const events: SceneEvent<Uri>[] = [];
  const errors: string[] = [];
  const log: Log = { trace() {}, debug() {}, info() {}, warn() {}, error: (m: string) => void errors.push(m) };
  const store = new SceneStore<Uri>((e) => events.push(e), log);
  const kinds = (): string[] => events.map((e) => e.kind);
  const clear = (): void => void events.splice(0);
  return { store, events, errors, kinds, clear };
}

function inspected(store: SceneStore<Uri>, text = HANGING, version = 1, path = '/w/a.scene.json'): SceneState<Uri> {
  const s = store.stateFor(uri(path));
  store.storeResult(s, version, inspectScene(text), text);
  return s;
}

test('stateFor creates one state per document, with its key and file name', () => {
  const { store, events } = setup();
  const s = store.stateFor(uri('/w/dir/a.scene.json'));
  assert.equal(store.stateFor(uri('/w/dir/a.scene.json')), s);
  assert.equal(s.key, 'file:///w/dir/a.scene.json');
  assert.equal(s.fileName, 'a.scene.json');
  assert.equal(store.get(s.key), s);
  assert.equal(s.result, undefined);
  assert.equal(s.resultVersion, -1);
  assert.equal(events.length, 0, 'creating a state is not an event');
});

test('storeResult: the result, its text and fixes are stored, waiters of that version resolved, "inspected" fired', async () => {
  const { store, kinds } = setup();
  const s = store.stateFor(uri('/w/a.scene.json'));
  store.beginAnalysis(s, 2);
  assert.equal(store.isFresh(s, 2), true, 'in flight counts as fresh');
  assert.equal(store.isAnalysing(s), true);
  const w1 = store.waitForVersion(s, 1);
  const w3 = store.waitForVersion(s, 3);
  const r = inspectScene(HANGING);
  store.endAnalysis(s, 2);
  assert.equal(store.isAnalysing(s), false);
  store.storeResult(s, 2, r, HANGING);
  assert.equal(await w1, r);
  assert.equal(s.result, r);
  assert.equal(s.resultVersion, 2);
  assert.equal(s.text, HANGING);
  assert.equal(s.generation, 1);
  assert.ok(s.fixes);
  assert.deepEqual(kinds(), ['inspected']);
  // the waiter of a later version is still waiting; dropping would answer it
  let answered = false;
  void w3.then(() => (answered = true));
  await Promise.resolve();
  assert.equal(answered, false);
  store.releaseWaiters(s, undefined);
  assert.equal(await w3, undefined);
});

test('ready(): a simulable scene gets its simulation; a broken one gets none', () => {
  const { store } = setup();
  const s = inspected(store);
  const r = store.ready(s);
  assert.ok(r);
  assert.equal(r.state, s);
  assert.equal(r.sim, s.sim, 'the simulation is created and kept');
  assert.equal(store.simulation(s), r.sim, 'created once');
  assert.equal(r.scene.name, 'Hanging mass');
  assert.equal(r.snapshot, s.result?.snapshot);
  const b = inspected(store, BROKEN, 1, '/w/b.scene.json');
  assert.equal(store.ready(b), undefined);
  assert.equal(b.sim, undefined);
});

test('markRunning / stepped / markIdle: running flag, events, whenIdle, the shown step follows the run', async () => {
  const { store, events, kinds, clear } = setup();
  const s = inspected(store);
  const r = store.ready(s);
  assert.ok(r);
  store.showStep(s, 0);
  clear();
  let cancelled = 0;
  const handle: RunHandle = { kind: 'run', sim: r.sim, cancel: () => cancelled++ };
  store.markRunning(s, handle);
  assert.equal(s.running, true);
  assert.equal(s.run, handle);
  assert.equal(s.shownStep, undefined, 'a run shows its current step');
  let idle = false;
  const whenIdle = s.whenIdle().then(() => (idle = true));
  r.sim.step(3);
  store.stepped(s, false);
  assert.equal(events[events.length - 1].settled, false);
  await Promise.resolve();
  assert.equal(idle, false);
  assert.equal(store.markIdle(s, { ...handle }), false, 'another handle does not end this run');
  assert.equal(s.running, true);
  assert.equal(store.markIdle(s, handle), true);
  await whenIdle;
  assert.equal(s.running, false);
  assert.deepEqual(kinds(), ['running', 'stepped', 'stepped', 'running']);
  assert.equal(events[2].settled, true, 'the end of a run is a settled step');
  assert.equal(store.markIdle(s, handle), false, 'ended once');
  assert.equal(cancelled, 0);
  store.cancelRun(s); // no run: nothing to cancel
  assert.equal(cancelled, 0);
});

test('a run whose simulation was replaced ends without a "stepped" for the old simulation', () => {
  const { store, kinds, clear } = setup();
  const s = inspected(store);
  const r = store.ready(s);
  assert.ok(r);
  const handle: RunHandle = { kind: 'run', sim: r.sim, cancel: () => undefined };
  store.markRunning(s, handle);
  store.storeResult(s, 2, inspectScene(HANGING), HANGING); // new text: the run's simulation is dropped
  assert.equal(s.sim, undefined);
  clear();
  assert.equal(store.markIdle(s, handle), true);
  assert.deepEqual(kinds(), ['running']);
});

test('invalidate: the run is cancelled, the simulation dropped, "invalidated" fired once per burst of edits', () => {
  const { store, kinds, clear } = setup();
  const s = inspected(store);
  const r = store.ready(s);
  assert.ok(r);
  let cancelled = 0;
  store.markRunning(s, { kind: 'play', sim: r.sim, cancel: () => cancelled++ });
  clear();
  store.invalidate(s);
  store.invalidate(s);
  assert.equal(cancelled, 2);
  assert.equal(s.sim, undefined);
  assert.deepEqual(kinds(), ['invalidated']);
  store.storeResult(s, 2, inspectScene(HANGING), HANGING);
  store.invalidate(s);
  assert.deepEqual(kinds(), ['invalidated', 'inspected', 'invalidated'], 'a new result starts a new burst');
});

test('invalidate before any result fires nothing (there is nothing shown to invalidate)', () => {
  const { store, events } = setup();
  store.invalidate(store.stateFor(uri('/w/a.scene.json')));
  assert.equal(events.length, 0);
});

test('storeResult of the same version keeps the simulation; of a new version drops it and the shown step', () => {
  const { store } = setup();
  const s = inspected(store);
  const r = store.ready(s);
  assert.ok(r);
  r.sim.step(2);
  store.showStep(s, 1);
  store.storeResult(s, 1, inspectScene(HANGING), HANGING); // e.g. analysed again after a save
  assert.equal(s.sim, r.sim);
  assert.equal(s.shownStep, 1);
  store.storeResult(s, 2, inspectScene(HANGING), HANGING);
  assert.equal(s.sim, undefined);
  assert.equal(s.shownStep, undefined);
  store.forgetVersion(s);
  assert.equal(s.resultVersion, -1, 'a reopened document: the kept result may be of other text');
});

test('resetRun: back to step 0, the run cancelled, "reset" fired', () => {
  const { store, kinds, clear } = setup();
  const s = inspected(store);
  const r = store.ready(s);
  assert.ok(r);
  r.sim.step(5);
  store.showStep(s, 2);
  let cancelled = 0;
  store.markRunning(s, { kind: 'play', sim: r.sim, cancel: () => cancelled++ });
  clear();
  store.resetRun(s);
  assert.equal(cancelled, 1);
  assert.equal(r.sim.currentStep, 0);
  assert.equal(r.sim.records.length, 0);
  assert.equal(s.shownStep, undefined);
  assert.deepEqual(kinds(), ['reset']);
});

test('run diagnostics: the fix index is rebuilt and diagnosticsChanged set only when the run adds diagnostics', () => {
  const { store, events, clear } = setup();
  const s = inspected(store, CONFLICTING);
  const r = store.ready(s);
  assert.ok(r);
  const before = s.fixes;
  clear();
  let changed = false;
  for (let k = 0; k < 20 && !changed; k++) {
    r.sim.step(1);
    store.stepped(s, true);
    changed = events[events.length - 1].diagnosticsChanged === true;
  }
  assert.ok(changed, 'the conflicting rods drift within 20 steps');
  assert.ok(r.sim.diagnostics.length > 0);
  assert.notEqual(s.fixes, before);
  assert.ok(s.allDiagnostics().length > (s.result?.diagnostics.length ?? 0));
  store.stepped(s, true);
  assert.equal(events[events.length - 1].diagnosticsChanged, false, 'no new diagnostics: nothing to republish');
  store.resetRun(s);
  assert.equal(events[events.length - 1].kind, 'reset');
  assert.equal(events[events.length - 1].diagnosticsChanged, true, 'reset clears the run diagnostics');
});

test('dispose cancels every run; a state of another store is refused', () => {
  const { store } = setup();
  const s = inspected(store);
  const r = store.ready(s);
  assert.ok(r);
  let cancelled = 0;
  store.markRunning(s, { kind: 'play', sim: r.sim, cancel: () => cancelled++ });
  const other = setup().store;
  const foreign: SceneState<Uri> = { ...s, allDiagnostics: () => [], whenIdle: () => Promise.resolve() };
  assert.throws(() => other.showStep(foreign, 1), /not a scene of this store/);
  store.dispose();
  assert.equal(cancelled, 1);
});

test('drop: waiters answered with undefined, the run cancelled, "closed" fired, the state forgotten', async () => {
  class Store extends SceneStore<Uri> {
    close(key: string): SceneState<Uri> | undefined {
      return this.drop(key);
    }
  }
  const events: SceneEvent<Uri>[] = [];
  const log: Log = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };
  const store = new Store((e) => events.push(e), log);
  const s = store.stateFor(uri('/w/a.scene.json'));
  store.storeResult(s, 1, inspectScene(HANGING), HANGING);
  const r = store.ready(s);
  assert.ok(r);
  let cancelled = 0;
  store.markRunning(s, { kind: 'run', sim: r.sim, cancel: () => cancelled++ });
  const waiting = store.waitForVersion(s, 5);
  assert.equal(store.close(s.key), s);
  assert.equal(await waiting, undefined);
  assert.equal(cancelled, 1);
  assert.equal(events[events.length - 1].kind, 'closed');
  assert.equal(store.isTracked(s), false);
  assert.equal(store.get(s.key), undefined);
  assert.equal(store.close(s.key), undefined, 'dropped once');
});

test('a run that cannot start repeats inspect\'s step-0 diagnostic: the scene shows it once', () => {
  const { store } = setup();
  const bad = HANGING.replace('"position": [0, 0, 0] }', '"position": [0, 0, 0], "velocity": [1e155, 0, 0] }');
  const s = inspected(store, bad);
  const r = store.ready(s);
  assert.ok(r);
  assert.equal(r.sim.step(5).length, 0);
  assert.equal(r.sim.stopped, true);
  const overflow = (d: { code: string }) => d.code === 'CL403-overflow';
  assert.equal(r.sim.diagnostics.filter(overflow).length, 1, 'the run reports step 0 itself');
  assert.equal(s.allDiagnostics().filter(overflow).length, 1);
});
