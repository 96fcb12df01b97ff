// The panel's store without a DOM: reducers over host messages and user actions, the derived views,
// and the watch/dispatch machinery. Snapshots come from the real engine on the example scenes.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inspectScene, Simulation } from '../../src/engine';
import type { HostMessage, PanelModel, SystemSnapshot } from '../../src/protocol';
import { createStore, initialState, reduce, shallowEqual, type Action, type PanelState } from '../../webview/store';
import { groupDiagnostics, heatmapSelection, panelProblems, isConsistent, isLoading, nextSnapshotRequest, persistedState, problemCounts, shownCondition, shownSteps, stepNote, stepRecord } from '../../webview/selectors';
import { encodeHistory } from '../../src/shared/history';

interface Fixture {
  model: PanelModel;
  snapshotAt(k: number): SystemSnapshot;
}

function fixture(name: string, steps: number): Fixture {
  const text = readFileSync(join(__dirname, '..', '..', 'examples', `${name}.scene.json`), 'utf8');
  const inspect = inspectScene(text);
  const scene = inspect.parse.scene!;
  const sim = new Simulation(scene, inspect.parse.sourceMap);
  sim.step(steps);
  const cache = new Map<number, SystemSnapshot>();
  const snapshotAt = (k: number): SystemSnapshot => {
    if (!cache.has(k)) cache.set(k, sim.snapshotAt(k));
    return cache.get(k)!;
  };
  return {
    model: {
      sceneName: scene.name,
      fileName: `${name}.scene.json`,
      snapshot: snapshotAt(steps),
      history: [...sim.records],
      plannedSteps: scene.solver.steps,
      dt: scene.solver.dt,
      diagnostics: [...inspect.diagnostics, ...sim.diagnostics],
      sceneBodies: scene.bodies.map((b) => ({ name: b.name, fixed: b.fixed })),
    },
    snapshotAt,
  };
}

const host = (message: HostMessage): Action => ({ type: 'host', message });
const run = (s: PanelState, ...actions: Action[]): PanelState => actions.reduce(reduce, s);
const panel = (): PanelState => initialState({ report: false });

describe('webview store', () => {
  let chain: Fixture;
  let rods: Fixture;
  before(() => {
    chain = fixture('chain', 20);
    rods = fixture('redundant-rods', 10);
  });

  test('a model shows its live step, follows the run and derives the matrices', () => {
    const s = run(panel(), host({ type: 'model', model: chain.model }));
    assert.equal(s.step, 20);
    assert.equal(s.follow, true);
    assert.equal(s.snapshot?.step, 20);
    assert.ok(s.snapshot?.J.values instanceof Float64Array, 'snapshot normalised');
    assert.deepEqual(s.matrices.map((m) => m.id).slice(0, 2), ['J', 'A']);
    assert.equal(s.matrix, 'J');
    assert.equal(s.wanted, undefined);
    assert.equal(nextSnapshotRequest(s), undefined, 'nothing to ask for');
    assert.equal(stepNote(s), '');
    assert.equal(shownCondition(s)?.cond, chain.model.history[19].cond.A, 'step 20: the record of step 20, the number the status bar and the chart show');
  });

  test('the restored webview state picks the step, matrix, scale and constraint of the first model', () => {
    // A state saved by the 2D scene view also held its projection: ignored, the rest restored.
    const saved = { selectedStep: 5, selectedMatrix: 'A', logScale: true, projection: 'XY', selectedConstraint: 'joint3' };
    const s0 = initialState({ report: false, restored: saved });
    const s = run(s0, host({ type: 'model', model: chain.model }));
    assert.equal(s.step, 5);
    assert.equal(s.follow, false);
    assert.equal(s.matrix, 'A');
    assert.equal(s.logScale, true);
    assert.ok(!('projection' in s) && !('projection' in persistedState(s)!), 'the old projection is not carried on');
    assert.equal(s.snapshot?.constraints[s.selected]?.name, 'joint3');
    assert.equal(s.wanted, 5, 'the model carries step 20: step 5 must be asked for');
    assert.equal(nextSnapshotRequest(s), 5);
    // A panel that followed the run and reloads (hidden and shown again) follows it on: the run's end now.
    const followed = run(initialState({ report: false, restored: { selectedStep: 5, following: true } }), host({ type: 'model', model: chain.model }));
    assert.equal(followed.step, 20);
    assert.equal(followed.follow, true);
    // A second model does not restore again.
    const again = run(s, host({ type: 'model', model: chain.model }));
    assert.equal(again.step, 20);
    // A restored matrix that does not exist falls back to the first one.
    const odd = run(initialState({ report: false, restored: { selectedMatrix: 'nope' } }), host({ type: 'model', model: rods.model }));
    assert.equal(odd.matrix, 'J');
  });

  test("a page that goes on to another scene restores none of the state saved for the scene before", () => {
    // VS Code keeps a webview's saved state when the panel's page is reloaded for another scene.
    const saved = { sceneUri: 'file:///w/rods.scene.json', selectedStep: 5, following: false, selectedConstraint: 'joint3' };
    const other = run(initialState({ report: false, restored: saved }), host({ type: 'model', model: { ...chain.model, sceneUri: 'file:///w/chain.scene.json' } }));
    assert.equal(other.step, 20, "the new scene's live step, not the step saved for the old one");
    assert.equal(other.follow, true);
    assert.equal(other.selected, -1);
    assert.equal(other.sceneUri, 'file:///w/chain.scene.json');
    assert.equal(persistedState(other)?.sceneUri, 'file:///w/chain.scene.json');
    // the same scene: restored as before
    const same = run(initialState({ report: false, restored: { ...saved, sceneUri: 'file:///w/chain.scene.json' } }), host({ type: 'model', model: { ...chain.model, sceneUri: 'file:///w/chain.scene.json' } }));
    assert.equal(same.step, 5);
    assert.equal(same.snapshot?.constraints[same.selected]?.name, 'joint3');
  });

  test('loading: set by the request, cleared by its reply', () => {
    let s = run(panel(), host({ type: 'model', model: chain.model }), { type: 'goToStep', step: 5 });
    assert.equal(s.step, 5);
    assert.equal(s.follow, false);
    assert.equal(s.snapshot?.step, 20, 'the old matrices stay until the reply');
    assert.equal(nextSnapshotRequest(s), 5);
    s = reduce(s, { type: 'snapshotRequested', step: 5 });
    assert.equal(s.loading, 5);
    assert.equal(isLoading(s), true);
    assert.equal(stepNote(s), 'loading matrices…');
    assert.equal(nextSnapshotRequest(s), undefined, 'one request in flight');
    assert.equal(shownCondition(s)?.cond, chain.model.history[4].cond.A, 'the header reads κ of step 5 from the history meanwhile');
    assert.ok(isConsistent(s), 'loading: the note explains the older matrices');
    s = reduce(s, host({ type: 'snapshot', snapshot: chain.snapshotAt(5) }));
    assert.equal(s.loading, undefined);
    assert.equal(s.wanted, undefined);
    assert.equal(s.snapshot?.step, 5);
    assert.equal(isLoading(s), false);
    assert.equal(stepNote(s), '');
  });

  test('loading never outlives its request: a failed request clears it and the note says what is shown', () => {
    let s = run(panel(), host({ type: 'model', model: chain.model }), { type: 'goToStep', step: 7 }, { type: 'snapshotRequested', step: 7 });
    assert.equal(stepNote(s), 'loading matrices…');
    s = reduce(s, { type: 'snapshotFailed', step: 7, reason: 'timeout' });
    assert.equal(s.loading, undefined);
    assert.equal(s.wanted, undefined, 'no retry loop for the same step');
    assert.equal(isLoading(s), false);
    assert.equal(stepNote(s), 'matrices from step 20');
    assert.equal(nextSnapshotRequest(s), undefined);
    // The late reply still lands and is shown: it is the step on screen.
    s = reduce(s, host({ type: 'snapshot', snapshot: chain.snapshotAt(7) }));
    assert.equal(s.snapshot?.step, 7);
    assert.equal(stepNote(s), '');
    // A failure of another request leaves the current one alone.
    s = run(s, { type: 'goToStep', step: 9 }, { type: 'snapshotRequested', step: 9 }, { type: 'snapshotFailed', step: 3, reason: 'stale' });
    assert.equal(s.loading, 9);
  });

  test('scrubbing while a request is in flight asks for the latest step when the reply lands', () => {
    let s = run(panel(), host({ type: 'model', model: chain.model }), { type: 'goToStep', step: 5 }, { type: 'snapshotRequested', step: 5 });
    s = run(s, { type: 'goToStep', step: 6 }, { type: 'goToStep', step: 8 });
    assert.equal(s.loading, 5);
    assert.equal(nextSnapshotRequest(s), undefined, 'still one in flight');
    s = reduce(s, host({ type: 'snapshot', snapshot: chain.snapshotAt(5) }));
    assert.equal(s.loading, undefined, 'the reply clears loading even when it is not shown');
    assert.equal(s.snapshot?.step, 20, 'step 5 is no longer wanted: not shown');
    assert.equal(nextSnapshotRequest(s), 8);
    assert.equal(stepNote(s), 'loading matrices…');
    s = run(s, { type: 'snapshotRequested', step: 8 }, host({ type: 'snapshot', snapshot: chain.snapshotAt(8) }));
    assert.equal(s.snapshot?.step, 8);
    assert.equal(stepNote(s), '');
  });

  test('going back to the shown step or to step 0 needs no request', () => {
    let s = run(panel(), host({ type: 'model', model: chain.model }), { type: 'goToStep', step: 4 }, { type: 'goToStep', step: 20 });
    assert.equal(s.wanted, undefined, 'back on the shown snapshot');
    s = run(s, host({ type: 'snapshot', snapshot: chain.snapshotAt(0) }));
    assert.equal(s.initial?.step, 0);
    assert.equal(s.snapshot?.step, 20, 'an unsolicited snapshot of another step is kept, not shown (header and matrices agree)');
    s = run(s, { type: 'goToStep', step: 12 }, { type: 'goToStep', step: 0 });
    assert.equal(s.snapshot?.step, 0);
    assert.equal(s.wanted, undefined);
    assert.equal(nextSnapshotRequest(s), undefined);
  });

  test('history streams in: appends extend the run, the step moves with the pushed snapshot only, a reset truncates', () => {
    const records = chain.model.history;
    let s = run(panel(), host({ type: 'model', model: { ...chain.model, history: [], steps: 0, snapshot: chain.snapshotAt(0) } }));
    assert.equal(s.step, 0);
    assert.equal(s.follow, true);
    s = reduce(s, host({ type: 'historyAppend', chunk: encodeHistory(records, 0, 12), total: 15, seq: 1 }));
    assert.equal(s.history.length, 12);
    assert.equal(s.total, 15, 'the host ran 15 steps; 12 records are here');
    assert.equal(s.step, 0, 'the step waits for its snapshot');
    assert.ok(isConsistent(s));
    s = reduce(s, host({ type: 'historyAppend', chunk: encodeHistory(records, 12, 15), total: 15 }));
    assert.equal(s.history.length, 15);
    assert.deepEqual(stepRecord(s, 15), records[14], 'a record comes back as it was recorded');
    s = reduce(s, host({ type: 'snapshot', snapshot: chain.snapshotAt(15) }));
    assert.equal(s.step, 15, 'following: the pushed snapshot moves the step');
    assert.equal(s.snapshot?.step, 15);
    assert.ok(isConsistent(s));
    // Following with a request in flight (End pressed, its reply not yet here) while the run moves
    // on: the pushed snapshot moves the step, and the late reply for the step left does not move it back.
    let f = run(s, { type: 'goToStep', step: 3 }, host({ type: 'snapshot', snapshot: chain.snapshotAt(3) }), { type: 'goToStep', step: 15 }, { type: 'snapshotRequested', step: 15 });
    assert.equal(f.follow, true);
    assert.equal(f.wanted, 15);
    assert.equal(f.loading, 15);
    f = run(f, host({ type: 'historyAppend', chunk: encodeHistory(records, 15, 20), total: 20 }), host({ type: 'snapshot', snapshot: chain.snapshotAt(20) }));
    assert.equal(f.step, 20, 'the pushed snapshot supersedes the request in flight');
    assert.equal(f.snapshot?.step, 20);
    assert.equal(f.wanted, undefined);
    assert.equal(nextSnapshotRequest(f), undefined);
    assert.ok(isConsistent(f));
    f = reduce(f, host({ type: 'snapshot', snapshot: chain.snapshotAt(15) }));
    assert.equal(f.step, 20, 'the late reply leaves the step');
    assert.equal(f.snapshot?.step, 20);
    assert.equal(f.loading, undefined, 'the late reply ends the loading state');
    // An append that does not start at the end is refused (a gap); a rewrite replaces the tail.
    const gap = reduce(s, host({ type: 'historyAppend', chunk: encodeHistory(records, 17, 18), total: 18 }));
    assert.equal(gap.history.length, 15);
    const rewrite = reduce(s, host({ type: 'historyAppend', chunk: encodeHistory(records, 10, 20), total: 20 }));
    assert.equal(rewrite.history.length, 20);
    assert.equal(s.history.length, 15, 'the older state is untouched');
    assert.deepEqual(stepRecord(s, 15), records[14]);
    // Not following: pushed snapshots leave the step alone.
    s = run(s, host({ type: 'historyAppend', chunk: encodeHistory(records, 15, 20), total: 20 }), { type: 'goToStep', step: 3 }, { type: 'snapshotRequested', step: 3 }, host({ type: 'snapshot', snapshot: chain.snapshotAt(3) }));
    assert.equal(s.follow, false);
    s = reduce(s, host({ type: 'snapshot', snapshot: chain.snapshotAt(20) }));
    assert.equal(s.step, 3, 'not following: stays');
    assert.equal(s.snapshot?.step, 3);
    s = reduce(s, { type: 'goToStep', step: 99 });
    assert.equal(s.step, 20, 'clamped to the run');
    assert.equal(s.follow, true);
    // Reset: the run is 0 steps long again.
    s = reduce(s, host({ type: 'historyReset', length: 0, seq: 9 }));
    assert.equal(s.history.length, 0);
    assert.equal(s.total, 0);
    assert.equal(s.step, 0);
    assert.equal(s.snapshot?.step, 0, 'step 0 needs no request');
    assert.ok(isConsistent(s));
  });

  test('records and the current step’s snapshot in one message move together', () => {
    const records = chain.model.history;
    let s = run(panel(), host({ type: 'model', model: { ...chain.model, history: [], steps: 0, snapshot: chain.snapshotAt(0) } }));
    s = reduce(s, host({ type: 'historyAppend', chunk: encodeHistory(records, 0, 9), total: 9, snapshot: chain.snapshotAt(9), seq: 4 }));
    assert.equal(s.history.length, 9);
    assert.equal(s.step, 9);
    assert.equal(s.snapshot?.step, 9);
    assert.deepEqual(shownSteps(s), { header: 9, scene: 9, forces: 9, matrices: 9 });
    // Not following: the records extend the run, the shown step stays.
    s = run(s, { type: 'goToStep', step: 0 }, host({ type: 'historyAppend', chunk: encodeHistory(records, 9, 20), total: 20, snapshot: chain.snapshotAt(20) }));
    assert.equal(s.history.length, 20);
    assert.equal(s.step, 0);
    assert.equal(s.snapshot?.step, 0);
    assert.ok(isConsistent(s));
  });

  test('Go to Step from the host moves the panel; a model announces steps still to come', () => {
    let s = run(panel(), host({ type: 'model', model: { ...chain.model, history: [], steps: 20 } }));
    assert.equal(s.total, 20);
    assert.equal(s.step, 20, 'the model shows the current step although its records are still on their way');
    s = reduce(s, host({ type: 'snapshot', snapshot: chain.snapshotAt(7), goTo: true }));
    assert.equal(s.step, 7);
    assert.equal(s.follow, false);
    assert.equal(s.snapshot?.step, 7);
  });

  test('during a run the header, forces, matrices and scene always agree (or the note says why)', () => {
    const records = chain.model.history;
    let s = run(panel(), host({ type: 'model', model: { ...chain.model, history: [], steps: 0, snapshot: chain.snapshotAt(0) } }), host({ type: 'running', running: true }));
    const seen: number[] = [];
    for (let k = 1; k <= 20; k++) {
      s = reduce(s, host({ type: 'historyAppend', chunk: encodeHistory(records, k - 1, k), total: k }));
      assert.ok(isConsistent(s), `after the append of step ${k}`);
      if (k % 3 === 0 || k === 20) s = reduce(s, host({ type: 'snapshot', snapshot: chain.snapshotAt(k) }));
      const shown = shownSteps(s);
      assert.ok(isConsistent(s), `after step ${k}`);
      assert.equal(shown.header, shown.forces);
      assert.equal(shown.matrices, shown.scene);
      seen.push(s.step);
    }
    assert.deepEqual(seen, [0, 0, 3, 3, 3, 6, 6, 6, 9, 9, 9, 12, 12, 12, 15, 15, 15, 18, 18, 20]);
    assert.equal(stepNote(s), '');
  });

  test('report: the nearest embedded snapshot, no requests, no loading', () => {
    const model: PanelModel = { ...chain.model, snapshots: [chain.snapshotAt(20), chain.snapshotAt(0), chain.snapshotAt(10)] };
    let s = run(initialState({ report: true }), host({ type: 'model', model }));
    assert.equal(s.step, 20);
    assert.deepEqual(
      s.model?.snapshots?.map((x) => x.step),
      [0, 10, 20],
    );
    s = reduce(s, { type: 'goToStep', step: 13 });
    assert.equal(s.snapshot?.step, 10);
    assert.equal(nextSnapshotRequest(s), undefined);
    assert.equal(reduce(s, { type: 'snapshotRequested', step: 13 }).loading, undefined);
    assert.equal(stepNote(s), 'matrices from step 10 (nearest embedded)');
  });

  test('selection: by index, by name from the host, dropped when the snapshot has fewer constraints', () => {
    let s = run(panel(), host({ type: 'model', model: chain.model }), { type: 'select', index: 3 });
    assert.equal(s.selected, 3);
    const seq = s.selectSeq;
    s = reduce(s, { type: 'select', index: 3 });
    assert.equal(s.selectSeq, seq + 1, 're-selecting counts (the heatmap reveals again)');
    s = reduce(s, host({ type: 'select', constraint: 'joint7' }));
    assert.equal(s.snapshot?.constraints[s.selected].name, 'joint7');
    assert.equal(reduce(s, { type: 'select', index: 999 }).selected, -1);
    assert.deepEqual(heatmapSelection(s).rows, [[s.snapshot!.constraints[s.selected].firstRow, s.snapshot!.constraints[s.selected].firstRow + 3]]);
    assert.equal(heatmapSelection(s).cols.length, 2, 'J: both bodies’ columns');
    const onA = reduce(s, { type: 'showMatrix', id: 'A' });
    assert.deepEqual(heatmapSelection(onA).cols, heatmapSelection(onA).rows, 'A: the constraint’s block');
    assert.equal(reduce(s, { type: 'showMatrix', id: 'nope' }).matrix, 'J', 'unknown matrix ignored');
    s = reduce(s, host({ type: 'model', model: rods.model }));
    assert.equal(s.selected, -1, 'rods has 2 constraints');
  });

  test('body selection: one thing selected, by name from the host, its columns in J and its constraints in A', () => {
    let s = run(panel(), host({ type: 'model', model: chain.model }), { type: 'select', index: 3 });
    const seq = s.selectSeq;
    s = reduce(s, { type: 'selectBody', name: 'link4' });
    assert.equal(s.selectedBody, 'link4');
    assert.equal(s.selected, -1, 'selecting a body clears the constraint');
    assert.equal(s.selectSeq, seq + 1);
    const snap = s.snapshot!;
    const col = snap.bodyStates.find((b) => b.name === 'link4')!.column;
    assert.deepEqual(heatmapSelection(s), { rows: [], cols: [[col, col + 6]] }, 'J: the body’s six columns');
    // link4 is held by joint4 (link3–link4) and joint5 (link4–link5).
    const rowsOf = (n: string): [number, number] => {
      const c = snap.constraints.find((x) => x.name === n)!;
      return [c.firstRow, c.firstRow + c.rows];
    };
    const onA = reduce(s, { type: 'showMatrix', id: 'A' });
    assert.deepEqual(heatmapSelection(onA), { rows: [rowsOf('joint4'), rowsOf('joint5')], cols: [rowsOf('joint4'), rowsOf('joint5')] });
    const onMinv = reduce(s, { type: 'showMatrix', id: 'Minv' });
    assert.deepEqual(heatmapSelection(onMinv), { rows: [[col, col + 6]], cols: [[col, col + 6]] });
    // A constraint selected afterwards clears the body; the host selects bodies by name.
    assert.equal(reduce(s, { type: 'select', index: 2 }).selectedBody, undefined);
    s = reduce(s, host({ type: 'select', body: 'link7' }));
    assert.equal(s.selectedBody, 'link7');
    assert.equal(reduce(s, host({ type: 'select', body: 'nobody' })).selectedBody, undefined, 'an unknown body selects nothing');
    assert.equal(reduce(s, host({ type: 'select', constraint: 'joint2' })).selectedBody, undefined);
    // A model without that body drops it; the same scene again keeps it.
    assert.equal(reduce(s, host({ type: 'model', model: chain.model })).selectedBody, 'link7');
    assert.equal(reduce(s, host({ type: 'model', model: rods.model })).selectedBody, undefined);
  });

  test('banner and stale flag: invalidated, error, render failure; a new model clears them', () => {
    let s = run(panel(), host({ type: 'model', model: rods.model }), host({ type: 'invalidated', reason: 'edited' }));
    assert.equal(s.stale, true);
    assert.equal(s.banner?.kind, 'warning');
    assert.match(s.banner!.text, /edited/);
    s = reduce(s, host({ type: 'model', model: rods.model }));
    assert.equal(s.stale, false);
    assert.equal(s.banner, undefined);
    s = reduce(s, host({ type: 'error', message: 'bad' }));
    assert.deepEqual(s.banner, { kind: 'error', text: 'bad' });
    assert.match(reduce(s, { type: 'renderFailed', message: 'boom' }).banner!.text, /failed to render: boom/);
    assert.equal(reduce(s, host({ type: 'running', running: true })).running, true);
  });

  test('a diagnostics message replaces the model’s diagnostics and syntax errors, and keeps the run', () => {
    assert.equal(reduce(panel(), host({ type: 'diagnostics', diagnostics: [] })).model, undefined, 'nothing before a model');
    let s = run(panel(), host({ type: 'model', model: chain.model }), host({ type: 'historyAppend', chunk: encodeHistory(chain.model.history, 0, 5), total: 5 }));
    const history = s.history;
    const scene = s.model!.snapshot;
    const d = { code: 'CL402', severity: 'warning' as const, message: 'drift', range: { start: { line: 1, character: 0 }, end: { line: 1, character: 4 } } };
    s = reduce(s, host({ type: 'diagnostics', diagnostics: [d], syntaxErrors: [{ ...d, code: 'CL001', severity: 'error' }] }));
    assert.deepEqual(s.model!.diagnostics, [d]);
    assert.equal(s.model!.syntaxErrors?.[0].code, 'CL001');
    assert.equal(s.history, history);
    assert.equal(s.model!.snapshot, scene, 'the same scene (the 3D view keeps its camera)');
    s = reduce(s, host({ type: 'diagnostics', diagnostics: [] }));
    assert.deepEqual(s.model!.diagnostics, []);
    assert.equal(s.model!.syntaxErrors, undefined, 'syntax errors gone when not sent');
  });

  test('persisted state follows the view; nothing is persisted before a model', () => {
    assert.equal(persistedState(panel()), undefined);
    const s = run(panel(), host({ type: 'model', model: { ...chain.model, sceneUri: 'file:///c.scene.json' } }), { type: 'toggleLog' }, { type: 'select', index: 2 }, { type: 'showMatrix', id: 'A' });
    assert.deepEqual(persistedState(s), { sceneUri: 'file:///c.scene.json', selectedMatrix: 'A', selectedStep: 20, following: true, logScale: true, selectedConstraint: 'joint2' });
  });

  test('problems: counts by severity, repeats collapsed', () => {
    const d = rods.model.diagnostics[0];
    const diags = [d, { ...d }, { ...d, severity: 'error' as const, code: 'X', message: 'x' }, { ...d, severity: 'hint' as const, code: 'H', message: 'h' }];
    assert.deepEqual(problemCounts(diags), { error: 1, warning: 2, info: 1 });
    const g = groupDiagnostics(diags);
    assert.deepEqual(
      g.map((x) => [x.d.code, x.n]),
      [
        ['X', 1],
        [d.code, 2],
        ['H', 1],
      ],
    );
    // The JSON syntax errors VS Code reports are listed and counted with the rest, marked.
    const syntax = { ...d, severity: 'error' as const, code: 'CL001', message: 'Expected comma' };
    const all = panelProblems({ diagnostics: diags, syntaxErrors: [syntax] });
    assert.equal(all.diagnostics.length, 5);
    assert.ok(all.syntax.has(syntax) && !all.syntax.has(d));
    assert.deepEqual(problemCounts(all.diagnostics), { error: 2, warning: 2, info: 1 });
    assert.deepEqual(panelProblems({ diagnostics: diags }).diagnostics, diags);
    assert.deepEqual(panelProblems(undefined).diagnostics, []);
  });
});

describe('store machinery', () => {
  test('shallowEqual compares tuples and plain objects one level deep', () => {
    const o = {};
    assert.ok(shallowEqual([1, o], [1, o]));
    assert.ok(!shallowEqual([1, {}], [1, {}]));
    assert.ok(shallowEqual({ a: o, b: 2 }, { a: o, b: 2 }));
    assert.ok(!shallowEqual({ a: 1 }, { a: 1, b: undefined }));
    assert.ok(!shallowEqual([1], { 0: 1 }));
    assert.ok(shallowEqual(NaN, NaN));
  });

  test('watchers run at once, on change only, see the newest state after nested dispatches, survive a throwing neighbour', () => {
    const errors: unknown[] = [];
    const store = createStore(panel(), { onError: (e) => errors.push(e) });
    const seen: string[] = [];
    store.watch(
      (s) => s.logScale,
      (v) => {
        seen.push(`log:${v}`);
        if (v) store.dispatch({ type: 'snapshotRequested', step: 3 });
      },
    );
    store.watch(
      () => {
        throw new Error('bad selector');
      },
      () => undefined,
      { immediate: false },
    );
    const stop = store.watch(
      (s) => [s.loading, s.logScale],
      ([p, l], s) => {
        seen.push(`view:${p}:${l}`);
        assert.equal(s, store.getState(), 'listeners get the current state');
      },
    );
    assert.deepEqual(seen, ['log:false', 'view:undefined:false']);
    assert.equal(errors.length, 1, 'the throwing selector is reported, not thrown');
    store.dispatch({ type: 'toggleLog' });
    assert.deepEqual(seen, ['log:false', 'view:undefined:false', 'log:true', 'view:3:true']);
    assert.ok(errors.length >= 2 && errors.every((e) => /bad selector/.test(String(e))));
    stop();
    store.dispatch({ type: 'snapshotRequested', step: 4 });
    assert.equal(seen.length, 4, 'unsubscribed');
    store.dispatch({ type: 'snapshotRequested', step: 4 });
    store.dispatch({ type: 'snapshotFailed', step: 1, reason: 'x' });
    assert.equal(seen.length, 4);
  });
});
