import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  decodeFromJson,
  encodeForJson,
  isHostMessage,
  isPanelModel,
  isSystemSnapshot,
  isWebviewMessage,
  parseHostMessage,
  type PanelModel,
  type SystemSnapshot,
} from '../../src/protocol';
import { encodeHistory } from '../../src/shared/history';

const csr = () => ({ rows: 1, cols: 2, rowPtr: Int32Array.of(0, 2), colIdx: Int32Array.of(0, 1), values: Float64Array.of(1.5, -2) });
function snapshot(): SystemSnapshot {
  return {
    step: 0,
    t: 0,
    formulation: 'acceleration',
    compliance: 0,
    stabilization: 'aerislab',
    bodies: ['b'],
    columnLabels: ['b.vx', 'b.vy'],
    rows: [{ constraint: 'c', modelIndex: 0, row: 0, label: 'c.d' }],
    MinvBlocks: new Float64Array(36),
    J: csr(),
    A: { rows: 1, cols: 1, rowPtr: Int32Array.of(0, 1), colIdx: Int32Array.of(0), values: Float64Array.of(4) },
    F: Float64Array.of(0, -9.81),
    v: new Float64Array(2),
    rhs: Float64Array.of(1),
    a0: new Float64Array(1),
    b: new Float64Array(1),
    lambda: Float64Array.of(Infinity),
    a: Float64Array.of(NaN, -Infinity),
    C: new Float64Array(1),
    Cdot: new Float64Array(1),
    constraintForce: new Float64Array(2),
    method: 'cholesky',
    cond: { A: null, scaled: Infinity },
    condEstimated: false,
    rankTolerance: 1e-15,
    rank: { J: 1, rows: 1, dofs: 6 },
    redundant: [],
    consistent: null,
    residual: 0,
    constraints: [],
    bodyStates: [],
    energy: { kinetic: 0, potential: 0, total: 0 },
    islands: [],
    diagnostics: [],
  };
}
function model(): PanelModel {
  return {
    sceneName: 's',
    fileName: 's.scene.json',
    snapshot: snapshot(),
    history: [{ step: 1, t: 0.01, C: [0], lambda: [1], cond: { A: null }, condEstimated: false, energy: { kinetic: 0, potential: 0, total: 0 }, quatDrift: 0, method: 'lu', poses: [0, 0, 0, 0, 0, 0, 1] }],
    plannedSteps: 10,
    dt: 0.01,
    diagnostics: [],
    sceneBodies: [{ name: 'b', fixed: false }],
  };
}

test('isWebviewMessage accepts the documented messages', () => {
  for (const m of [
    { type: 'ready' },
    { type: 'ready', startup: { navigationStart: 1_790_000_000_000, scriptStart: 1_790_000_000_900, readyAt: 1_790_000_001_000 } },
    { type: 'ack', seq: 0 },
    { type: 'ack', seq: 41 },
    { type: 'requestSnapshot', step: 0 },
    { type: 'requestSnapshot', step: 12 },
    { type: 'requestSnapshot', step: 12, follow: true },
    { type: 'showStep', step: 0 },
    { type: 'command', command: 'step' },
    { type: 'command', command: 'run' },
    { type: 'command', command: 'playPause' },
    { type: 'command', command: 'reset' },
    { type: 'reveal', constraintIndex: 2 },
    { type: 'reveal', bodyIndex: 0 },
    { type: 'reveal', range: { start: { line: 1, character: 2 }, end: { line: 1, character: 5 } }, constraintIndex: 1 },
    { type: 'log', level: 'info', message: 'x' },
    { type: 'log', level: 'error', message: 'y' },
  ]) {
    assert.ok(isWebviewMessage(m), JSON.stringify(m));
  }
});

test('isWebviewMessage rejects malformed messages', () => {
  for (const m of [
    null,
    undefined,
    42,
    'ready',
    {},
    { type: 'nope' },
    { type: 'ready', startup: { navigationStart: 1, scriptStart: 'x', readyAt: 3 } },
    { type: 'ready', startup: { navigationStart: 1, scriptStart: NaN, readyAt: 3 } },
    { type: 'ready', startup: 7 },
    { type: 'ack' },
    { type: 'ack', seq: -1 },
    { type: 'ack', seq: '2' },
    { type: 'requestSnapshot' },
    { type: 'requestSnapshot', step: -1 },
    { type: 'showStep', step: 1.5 },
    { type: 'requestSnapshot', step: 1.5 },
    { type: 'requestSnapshot', step: 3, follow: 'yes' },
    { type: 'requestSnapshot', step: '3' },
    { type: 'command', command: 'rm -rf' },
    { type: 'reveal', constraintIndex: 'a' },
    { type: 'reveal', constraintIndex: -2 },
    { type: 'reveal', bodyIndex: 0.5 },
    { type: 'reveal', range: { start: { line: 1 } } },
    { type: 'log', level: 'warn', message: 'x' },
    { type: 'log', level: 'info' },
  ]) {
    assert.equal(isWebviewMessage(m), false, JSON.stringify(m));
  }
});

test('isHostMessage validates models, snapshots and the small messages', () => {
  assert.ok(isHostMessage({ type: 'model', model: model() }));
  assert.ok(isHostMessage({ type: 'snapshot', snapshot: snapshot() }));
  const chunk = encodeHistory(model().history, 0, 1);
  assert.ok(isHostMessage({ type: 'historyAppend', chunk, total: 1, seq: 3 }));
  assert.ok(isHostMessage({ type: 'historyAppend', chunk: JSON.parse(JSON.stringify(chunk)) as unknown, total: 4 }), 'columns as plain JSON');
  assert.ok(isHostMessage({ type: 'historyReset', length: 0 }));
  assert.ok(isHostMessage({ type: 'snapshot', snapshot: snapshot(), goTo: true, seq: 1 }));
  assert.ok(isHostMessage({ type: 'model', model: { ...model(), history: [], steps: 40 }, seq: 0 }));
  assert.ok(isHostMessage({ type: 'running', running: false }));
  assert.ok(isHostMessage({ type: 'invalidated', reason: 'edited' }));
  assert.ok(isHostMessage({ type: 'error', message: 'boom' }));
  assert.ok(isHostMessage({ type: 'select', constraint: 'rod' }));
  assert.ok(isHostMessage({ type: 'select' }));
  for (const m of [
    { type: 'model' },
    { type: 'model', model: { ...model(), snapshot: undefined } },
    { type: 'model', model: { ...model(), history: [{ step: 'x' }] } },
    { type: 'model', model: { ...model(), snapshots: [42] } },
    { type: 'snapshot', snapshot: 42 },
    { type: 'snapshot', snapshot: { ...snapshot(), J: undefined } },
    { type: 'historyAppend', chunk, total: 0 },
    { type: 'historyAppend', chunk: { ...chunk, C: new Float64Array(5) }, total: 1 },
    { type: 'historyAppend', chunk: { ...chunk, count: -1 }, total: 1 },
    { type: 'historyAppend', chunk: 'x', total: 1 },
    { type: 'historyReset', length: -1 },
    { type: 'historyReset' },
    { type: 'snapshot', snapshot: snapshot(), seq: -1 },
    { type: 'snapshot', snapshot: snapshot(), goTo: 'yes' },
    { type: 'model', model: { ...model(), steps: 1.5 } },
    { type: 'history', history: [], currentStep: 0 },
    { type: 'running', running: 'yes' },
    { type: 'invalidated' },
    { type: 'error', message: 3 },
    { type: 'select', constraint: 3 },
    { type: 'other' },
    null,
  ]) {
    assert.equal(isHostMessage(m), false, JSON.stringify(m));
  }
  assert.ok(isSystemSnapshot(snapshot()));
  assert.ok(isPanelModel(model()));
});

test('encodeForJson / decodeFromJson round-trip typed arrays, Infinity, NaN and null', () => {
  const m = model();
  const back = decodeFromJson<PanelModel>(encodeForJson(m));
  const s = back.snapshot;
  assert.ok(s.J.rowPtr instanceof Int32Array);
  assert.ok(s.J.values instanceof Float64Array);
  assert.deepEqual(Array.from(s.J.values), [1.5, -2]);
  assert.deepEqual(Array.from(s.J.colIdx), [0, 1]);
  assert.equal(s.lambda[0], Infinity);
  assert.ok(Number.isNaN(s.a[0]));
  assert.equal(s.a[1], -Infinity);
  assert.equal(s.cond.A, null);
  assert.equal(s.cond.scaled, Infinity);
  assert.deepEqual(back.history, m.history);
  assert.ok(isPanelModel(back));
  // Plain numbers outside typed arrays too.
  const x = decodeFromJson<{ a: number[]; b: number }>(encodeForJson({ a: [1, NaN, -Infinity], b: Infinity }));
  assert.ok(Number.isNaN(x.a[1]));
  assert.equal(x.a[2], -Infinity);
  assert.equal(x.b, Infinity);
  // -0 and subnormals survive.
  const y = decodeFromJson<{ v: Float64Array }>(encodeForJson({ v: Float64Array.of(5e-324, 1.7976931348623157e308, 0.1 + 0.2) }));
  assert.deepEqual(Array.from(y.v), [5e-324, 1.7976931348623157e308, 0.1 + 0.2]);
});

test('parseHostMessage accepts objects and encodeForJson text, rejects junk', () => {
  const m = { type: 'snapshot' as const, snapshot: snapshot() };
  assert.equal(parseHostMessage(m)?.type, 'snapshot');
  const fromText = parseHostMessage(encodeForJson(m));
  assert.equal(fromText?.type, 'snapshot');
  assert.ok(fromText?.type === 'snapshot' && fromText.snapshot.J.values instanceof Float64Array);
  assert.equal(parseHostMessage('{not json'), undefined);
  assert.equal(parseHostMessage('{"type":"bogus"}'), undefined);
  assert.equal(parseHostMessage(undefined), undefined);
});
