// Unit tests of the extension's pure logic (no vscode): scheduling, formatting, diagnostics
// conversion and fix lookup, export formats, tree states.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KeyedDebouncer, MAX_LEAD_SHARE, SingleLane, VersionTracker, analysisLead } from '../../src/extension/logic/schedule';
import { fakeTimers } from './fake-timers';
import {
  codeLensTitles,
  countProblems,
  isAnalysableScheme,
  isSceneFileName,
  problemsText,
  statusText,
  validateStepCount,
  validateStepIndex,
} from '../../src/extension/logic/format';
import { FixIndex, PlainSeverity, PlainTag, codeOf, fixKey, sanitizeRange, toPlainDiagnostic } from '../../src/extension/logic/diagnostics';
import { exportStepData, formatFromPath, toJson, type ExportMeta } from '../../src/extension/logic/exportData';
import { STATE_ICONS, constraintState, constraintTooltip, type ItemState } from '../../src/extension/logic/tree';
import { Codes } from '../../src/engine';
import type { Diagnostic, ConstraintReport, IslandReport, RowInfo, StepRecord } from '../../src/engine';

// ---- a fake clock ----------------------------------------------------------------------------

const r = (l0: number, c0: number, l1: number, c1: number) => ({ start: { line: l0, character: c0 }, end: { line: l1, character: c1 } });

// ---- schedule ----------------------------------------------------------------------------------
test('debouncer runs once after the last trigger, per key', () => {
  const t = fakeTimers();
  const d = new KeyedDebouncer(t);
  const calls: string[] = [];
  d.trigger('a', () => calls.push('a1'), 250);
  t.advance(100);
  d.trigger('a', () => calls.push('a2'), 250);
  d.trigger('b', () => calls.push('b1'), 250);
  t.advance(249); // t = 349: a's and b's timers are due at 350
  assert.deepEqual(calls, []);
  t.advance(1);
  assert.deepEqual(calls, ['a2', 'b1']);
  t.advance(1000);
  assert.deepEqual(calls, ['a2', 'b1']);
});

test('debouncer flush runs now, cancel drops, zero delay is immediate', () => {
  const t = fakeTimers();
  const d = new KeyedDebouncer(t);
  const calls: string[] = [];
  d.trigger('a', () => calls.push('a'), 250);
  assert.equal(d.isPending('a'), true);
  d.flush('a');
  assert.deepEqual(calls, ['a']);
  d.trigger('b', () => calls.push('b'), 250);
  d.cancel('b');
  t.advance(500);
  d.trigger('c', () => calls.push('c'), 0);
  assert.deepEqual(calls, ['a', 'c']);
  d.trigger('e', () => calls.push('e'), 10);
  d.dispose();
  t.advance(100);
  assert.deepEqual(calls, ['a', 'c']);
});

test('version tracker: only the newest ticket per key is current', () => {
  const v = new VersionTracker({ now: () => 0 });
  const t1 = v.begin('doc', 1);
  const t2 = v.begin('doc', 2);
  const o = v.begin('other', 1);
  assert.equal(v.isCurrent(t1), false);
  assert.equal(v.isCurrent(t2), true);
  assert.equal(v.isCurrent(o), true);
  // same version requested again (e.g. on save) supersedes too
  const t3 = v.begin('doc', 2);
  assert.equal(v.isCurrent(t2), false);
  assert.equal(v.isCurrent(t3), true);
  v.invalidate('doc');
  assert.equal(v.isCurrent(t3), false);
});

test('single lane: runs one at a time, replaces queued jobs of the same key, drops stale ones', async () => {
  const v = new VersionTracker({ now: () => 0 });
  const lane = new SingleLane<string>(v);
  const started: string[] = [];
  let release!: () => void;
  const gate = new Promise<void>((res) => (release = res));
  const job = (name: string, wait?: Promise<void>) => async () => {
    started.push(name);
    if (wait) await wait;
    return name;
  };
  const pA1 = lane.submit('A', v.begin('A', 1), job('A1', gate));
  const pA2 = lane.submit('A', v.begin('A', 2), job('A2'));
  const pA3 = lane.submit('A', v.begin('A', 3), job('A3'));
  const pB1 = lane.submit('B', v.begin('B', 1), job('B1'));
  assert.deepEqual(started, ['A1']);
  assert.equal(lane.runningIsStale(), true); // A1 was superseded by A2/A3
  assert.equal(await pA2, undefined); // replaced in the queue by A3
  release();
  assert.equal(await pA1, 'A1'); // the caller checks the ticket and drops it
  assert.equal(await pA3, 'A3');
  assert.equal(await pB1, 'B1');
  assert.deepEqual(started, ['A1', 'A3', 'B1']);
  assert.equal(lane.current, undefined);
});

test('single lane: a failing job resolves undefined and the lane goes on', async () => {
  const v = new VersionTracker({ now: () => 0 });
  const lane = new SingleLane<number>(v);
  const p1 = lane.submit('x', v.begin('x', 1), () => Promise.reject(new Error('boom')));
  const p2 = lane.submit('y', v.begin('y', 1), () => {
    throw new Error('sync boom');
  });
  const p3 = lane.submit('z', v.begin('z', 1), async () => 3);
  assert.equal(await p1, undefined);
  assert.equal(await p2, undefined);
  assert.equal(await p3, 3);
});

// ---- format -------------------------------------------------------------------------------------
test('statusText', () => {
  // κ is spelled by the shared formatCond (3 digits, ≈ when estimated): the status bar, CodeLens, tree and panel agree.
  // The step is always named: `step 0` is the analysis of the initial state.
  assert.equal(statusText({ step: 0, cond: 1234, condEstimated: false, rank: 5, rows: 6 }), 'κ 1230 · rank 5/6 · step 0');
  assert.equal(statusText({ step: 12, cond: 1.2e3 * 10, condEstimated: true, rank: 6, rows: 6 }), 'κ ≈1.2e4 · rank 6/6 · step 12');
  assert.equal(statusText({ step: 0, cond: null, condEstimated: true, rank: 5, rows: 6 }), 'κ ∞ · rank 5/6 · step 0');
  assert.equal(statusText({ step: 0, cond: 1, condEstimated: false, rank: 0, rows: 0 }), 'κ – · no constraints · step 0');
  // a record that does not keep the rank: no rank rather than step 0's
  assert.equal(statusText({ step: 3, cond: 176, condEstimated: false, rank: undefined, rows: 6 }), 'κ 176 · step 3');
});

test('problem counts and code lens titles', () => {
  const c = countProblems([{ severity: 'error' }, { severity: 'warning' }, { severity: 'warning' }, { severity: 'hint' }, { severity: 'information' }]);
  assert.deepEqual(c, { errors: 1, warnings: 2, infos: 2 });
  assert.equal(problemsText(c), '3 problems (1 error)');
  assert.equal(problemsText({ errors: 0, warnings: 1, infos: 5 }), '1 problem');
  assert.equal(problemsText({ errors: 0, warnings: 0, infos: 5 }), 'no problems');
  assert.equal(problemsText({ errors: 2, warnings: 0, infos: 0 }), '2 problems');
  const t = codeLensTitles(100, { step: 0, cond: 4.2e7, condEstimated: false, rank: 3, rows: 4 }, c);
  assert.equal(t.run, '$(run-all) Run 100 steps');
  assert.equal(t.summary, 'κ 4.2e7 · rank 3/4 · step 0 · 3 problems (1 error)');
  assert.equal(codeLensTitles(1, undefined, { errors: 1, warnings: 0, infos: 0 }).run, '$(run-all) Run 1 step');
  assert.equal(codeLensTitles(1, undefined, { errors: 1, warnings: 0, infos: 0 }).summary, 'not analysed · 1 problem');
  assert.match(codeLensTitles(5, undefined, c, true).run, /Pause/);
});

test('step count and step index validation', () => {
  assert.equal(validateStepCount('100'), undefined);
  assert.equal(validateStepCount(' 7 '), undefined);
  assert.ok(validateStepCount('0'));
  assert.ok(validateStepCount('-3'));
  assert.ok(validateStepCount('1.5'));
  assert.ok(validateStepCount('abc'));
  assert.ok(validateStepCount(''));
  assert.ok(validateStepCount('2000000'));
  assert.equal(validateStepIndex('0', 10), undefined);
  assert.equal(validateStepIndex('10', 10), undefined);
  assert.ok(validateStepIndex('x', 10));
  assert.ok(validateStepIndex('99999999', 10));
});

test('scene file names and schemes', () => {
  assert.equal(isSceneFileName('/a/b/pendulum.scene.json'), true);
  assert.equal(isSceneFileName('C:\\x\\Y.SCENE.JSON'), true);
  assert.equal(isSceneFileName('/a/scene.json'), false);
  assert.equal(isSceneFileName('/a/x.scene.jsonc'), false);
  assert.equal(isAnalysableScheme('file'), true);
  assert.equal(isAnalysableScheme('untitled'), true);
  assert.equal(isAnalysableScheme('vscode-vfs'), true);
  assert.equal(isAnalysableScheme('git'), false);
});

// ---- diagnostics ----------------------------------------------------------------------------------
const diag = (over: Partial<Diagnostic>): Diagnostic => ({ severity: 'warning', code: Codes.redundantConstraint, message: 'm', range: r(3, 4, 3, 20), ...over });

test('toPlainDiagnostic maps severity, code, related, tags', () => {
  const p = toPlainDiagnostic(
    diag({
      related: [{ message: 'depends on rod1', range: r(2, 4, 2, 30) }],
      fixes: [{ title: 'Remove', edits: [{ range: r(3, 0, 4, 0), newText: '' }] }],
    }),
  );
  assert.equal(p.severity, PlainSeverity.Warning);
  assert.equal(p.code, 'CL301-redundant-constraint');
  assert.equal(p.source, 'Constraint Lens');
  assert.deepEqual(p.range, r(3, 4, 3, 20));
  assert.deepEqual(p.related, [{ message: 'depends on rod1', range: r(2, 4, 2, 30) }]);
  assert.deepEqual(p.tags, [PlainTag.Unnecessary]);
  assert.equal(toPlainDiagnostic(diag({ severity: 'error', code: Codes.unknownBody })).severity, PlainSeverity.Error);
  assert.deepEqual(toPlainDiagnostic(diag({ severity: 'error', code: Codes.unknownBody })).tags, []);
  assert.equal(toPlainDiagnostic(diag({ severity: 'information' })).severity, PlainSeverity.Information);
  assert.equal(toPlainDiagnostic(diag({ severity: 'hint' })).severity, PlainSeverity.Hint);
});

test('sanitizeRange repairs reversed and negative ranges', () => {
  assert.deepEqual(sanitizeRange(r(5, 3, 2, 1)), r(2, 1, 5, 3));
  assert.deepEqual(sanitizeRange(r(-1, -2, 0, 4)), r(0, 0, 0, 4));
  assert.deepEqual(sanitizeRange(undefined), r(0, 0, 0, 0));
});

test('FixIndex: lookup by code + range at the same version only', () => {
  const fixA = { title: 'Remove redundant constraint "rod2"', edits: [{ range: r(9, 0, 10, 0), newText: '' }], preferred: true };
  const fixB = { title: 'Set length to 2.0', edits: [{ range: r(12, 10, 12, 13), newText: '2' }] };
  const idx = new FixIndex(7, [
    diag({ fixes: [fixA] }),
    diag({ fixes: [fixA] }), // duplicate diagnostic: fix listed once
    diag({ code: Codes.initialViolation, range: r(12, 0, 12, 40), fixes: [fixB] }),
    diag({ code: Codes.illConditioned, range: r(1, 0, 1, 1) }), // no fixes
    diag({ code: Codes.unknownBody, range: r(2, 0, 2, 1), fixes: [{ title: 'bad', edits: [] }] }), // unusable
  ]);
  assert.equal(idx.size, 2);
  assert.deepEqual(idx.lookup(7, Codes.redundantConstraint, r(3, 4, 3, 20)), [fixA]);
  assert.deepEqual(idx.lookup(7, Codes.initialViolation, r(12, 0, 12, 40)), [fixB]);
  assert.deepEqual(idx.lookup(8, Codes.redundantConstraint, r(3, 4, 3, 20)), []); // stale version
  assert.deepEqual(idx.lookup(7, Codes.redundantConstraint, r(3, 4, 3, 21)), []);
  assert.deepEqual(idx.lookup(7, Codes.unknownBody, r(2, 0, 2, 1)), []);
  assert.equal(fixKey('X', r(1, 2, 3, 4)), 'X@1:2-3:4');
  assert.equal(codeOf({ value: 'CL1' }), 'CL1');
  assert.equal(codeOf(12), '12');
  assert.equal(codeOf(undefined), undefined);
});

// ---- export --------------------------------------------------------------------------------------
const rec = (step: number, condA: number | null): StepRecord => ({
  step,
  t: step * 0.01,
  C: [1e-9 * step, NaN],
  lambda: [12.5, -3, 0],
  cond: { A: condA },
  condEstimated: false,
  energy: { kinetic: 1, potential: -2, total: -1 },
  quatDrift: 0,
  method: 'cholesky',
  poses: [0, 0, 1, 0, 0, 0, 1],
});
const meta: ExportMeta = { sceneName: 'S', fileName: 's.scene.json', dt: 0.01, constraints: ['rod', 'hinge, "x"'], rowLabels: ['rod.d', 'h.x', 'h.y'], bodies: ['B'] };

test('CSV export: the shared run dialect, header, quoting, non-finite values', () => {
  const csv = exportStepData([rec(1, 1234.5), rec(2, null)], meta, 'csv');
  const lines = csv.trimEnd().split('\n');
  assert.equal(lines.length, 3);
  assert.equal(
    lines[0],
    'step,t,cond_A,cond_estimated,method,kinetic,potential,total_energy,quat_drift,C[rod],"C[hinge, ""x""]",lambda[rod.d],lambda[h.x],lambda[h.y],B.px,B.py,B.pz,B.qx,B.qy,B.qz,B.qw',
  );
  // Non-finite values are spelled NaN / Infinity / -Infinity (was nan / inf / -inf; docs/cli.md).
  assert.equal(lines[1], '1,0.01,1234.5,false,cholesky,1,-2,-1,0,1e-9,NaN,12.5,-3,0,0,0,1,0,0,0,1');
  assert.equal(lines[2].split(',')[2], 'Infinity');
  assert.equal(lines[0].split(',').length, lines[1].split(',').length + 1); // one quoted comma in the header
  assert.equal(formatFromPath('/x/y.CSV'), 'csv');
  assert.equal(formatFromPath('/x/y.json'), 'json');
});

test('JSON export: parseable, singular κ as "Infinity", NaN as a string', () => {
  const doc = JSON.parse(toJson([rec(1, 10), rec(2, null)], meta));
  assert.equal(doc.format, 'constraint-lens.steps');
  assert.equal(doc.steps.length, 2);
  assert.equal(doc.steps[1].cond.A, 'Infinity', 'the one spelling of non-finite values (was null)');
  assert.equal(doc.steps[0].C[1], 'NaN');
  assert.deepEqual(doc.rowLabels, meta.rowLabels);
});

// ---- tree -----------------------------------------------------------------------------------------
const creport = (over: Partial<ConstraintReport>): ConstraintReport => ({
  name: 'rod',
  type: 'distance',
  fileIndex: 0,
  bodyA: 'A',
  bodyB: 'B',
  firstRow: 0,
  rows: 1,
  violation: 0,
  velocityViolation: 0,
  lambda: [4.2],
  forceA: [0, 0, 0],
  torqueA: [0, 0, 0],
  forceB: [0, 0, 0],
  torqueB: [0, 0, 0],
  status: 'ok',
  anchorAWorld: [0, 0, 0],
  anchorBWorld: [0, 0, 0],
  ...over,
});
const island = (cond: number | null, constraints = ['rod']): IslandReport => ({ bodies: ['A', 'B'], constraints, rows: 1, cond, condEstimated: false, rank: 1, method: 'cholesky' });

test('constraint state classification', () => {
  const snap = (cond: number | null) => ({ islands: [island(cond)] });
  assert.equal(constraintState(creport({}), snap(10), 1e6), 'ok');
  assert.equal(constraintState(creport({}), snap(1e7), 1e6), 'ill-conditioned');
  assert.equal(constraintState(creport({}), snap(null), 1e6), 'ill-conditioned');
  assert.equal(constraintState(creport({ status: 'redundant' }), snap(null), 1e6), 'redundant');
  assert.equal(constraintState(creport({ status: 'violated' }), snap(10), 1e6), 'violated');
  assert.equal(constraintState(creport({ status: 'conflicting' }), snap(10), 1e6), 'conflicting');
  assert.equal(constraintState(creport({ name: 'other' }), snap(1e9), 1e6), 'ok'); // not in that island
  for (const s of ['ok', 'redundant', 'violated', 'conflicting', 'ill-conditioned', 'fixed', 'unknown'] as ItemState[]) assert.ok(STATE_ICONS[s].id);
});

test('constraint state: each constraint gets its own island among many (the first that lists it)', () => {
  const islands = [island(10, ['a', 'b']), island(1e9, ['c', 'd']), island(10, ['d'])];
  const snap = { islands };
  assert.equal(constraintState(creport({ name: 'a' }), snap, 1e6), 'ok');
  assert.equal(constraintState(creport({ name: 'c' }), snap, 1e6), 'ill-conditioned');
  assert.equal(constraintState(creport({ name: 'd' }), snap, 1e6), 'ill-conditioned'); // the first island listing d
  assert.equal(constraintState(creport({ name: 'e' }), snap, 1e6), 'ok'); // in no island
  // another snapshot's islands (a new array) are looked up afresh
  assert.equal(constraintState(creport({ name: 'a' }), { islands: [island(1e9, ['a'])] }, 1e6), 'ill-conditioned');
});

test('constraint tooltip lists λ per row and |C|', () => {
  const rows: RowInfo[] = [{ constraint: 'rod', modelIndex: 0, row: 0, label: 'rod.d' }];
  const t = constraintTooltip(creport({ violation: 2e-9 }), 'ok', { islands: [island(12)], rows });
  assert.match(t, /rod\.d = 4\.2/);
  assert.match(t, /\|C\| = 2e-9/);
  assert.match(t, /island κ = 12 · rank 1\/1/);
});

test('analysisLead: the analysis starts about its last duration before the debounce ends, never earlier than 40 % of it', () => {
  // no estimate yet (first analysis), or no debounce to speak of: start at the end, as a plain debounce
  assert.equal(analysisLead(250, undefined), 0);
  assert.equal(analysisLead(0, 40), 0);
  assert.equal(analysisLead(10, 40), 0);
  assert.equal(analysisLead(250, Number.NaN), 0);
  // 1.5 × the last duration + 10 ms
  assert.equal(analysisLead(250, 20), 40);
  assert.equal(analysisLead(250, 40), 70);
  // capped: a slow analysis must not start at every keystroke
  assert.equal(analysisLead(250, 200), 250 * MAX_LEAD_SHARE);
  assert.equal(analysisLead(1000, 200), 310);
  for (const [d, ms] of [[250, 0], [250, 1e6], [20, 5], [10_000, 3]] as const) {
    const lead = analysisLead(d, ms);
    assert.ok(lead >= 0 && lead <= d * MAX_LEAD_SHARE, `${d} ${ms} → ${lead}`);
  }
});
