// The MuJoCo section of the inspector without a DOM: the host's conversion of a real comparison (the
// four-bar MJCF against MuJoCo) into the protocol, its validation, the store's reducer for the
// 'mujoco' message, and what the card says (mujocoView.ts).
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { inspectParsed, type SystemSnapshot } from '../../src/engine';
import { toPanelComparison } from '../../src/extension/logic/mujocoSection';
import { compareWithMujoco, type CompareResult } from '../../src/import/index';
import { buildPanelModel } from '../../src/panelModel';
import { decodeFromJson, encodeForJson, isHostMessage, isMujocoSection, isPanelModel, parseHostMessage, type MujocoSection, type PanelModel } from '../../src/protocol';
import { cardVisible, mujocoSlice, num, otherRowsText, sparkline, startText, statusText, summaryText, tableRows, violationText, whyTheyDiffer } from '../../webview/mujocoView';
import { initialState, reduce, type Action, type PanelState } from '../../webview/store';
import { importFixture } from './import-helpers';

const host = (message: Parameters<typeof isHostMessage>[0]): Action => ({ type: 'host', message } as Action);

describe('MuJoCo section', () => {
  let compare: CompareResult;
  let model: PanelModel;
  before(async () => {
    const r = await importFixture('four-bar.xml');
    compare = await compareWithMujoco(r.parse, 20);
    const inspect = inspectParsed(r.text, r.parse);
    model = buildPanelModel('four-bar.xml', inspect, undefined, 0)!;
    assert.ok(model, 'the model converts and analyses');
  });

  test('the host sends the comparison without the model path, non-finite numbers as null, and it validates', () => {
    const c = toPanelComparison(compare);
    assert.equal('model' in c, false, 'the model file path stays in the host');
    assert.equal(c.steps, 20);
    assert.equal(c.equalities.length, 1);
    assert.deepEqual(c.equalities[0].rows, ['close.x', 'close.y', 'close.z']);
    assert.deepEqual(c.equalities[0].mujocoForce, compare.equalities[0].mujocoForce);
    const section: MujocoSection = { status: 'done', comparison: c, keyframes: [] };
    assert.equal(isMujocoSection(section), true);
    // Through JSON (how webview messages travel): still valid.
    assert.equal(isHostMessage(JSON.parse(JSON.stringify({ type: 'mujoco', mujoco: section }))), true);
    // A NaN (our run stopped) becomes null and is still a valid section.
    const broken = toPanelComparison({ ...compare, equalities: [{ ...compare.equalities[0], violation: { ...compare.equalities[0].violation, ours: [0, NaN] } }], bodies: [{ name: 'x', distance: NaN }] });
    assert.deepEqual(broken.equalities[0].violation.ours, [0, null]);
    assert.equal(broken.bodies[0].distance, null);
    assert.equal(isMujocoSection({ status: 'done', comparison: broken, keyframes: [] }), true);
    // Invalid sections are refused.
    assert.equal(isMujocoSection({ status: 'done', keyframes: [] }), false, 'done needs a comparison');
    assert.equal(isMujocoSection({ status: 'busy', keyframes: [] }), false);
    assert.equal(isMujocoSection({ status: 'idle' }), false);
    assert.equal(isMujocoSection({ status: 'done', keyframes: [], comparison: { ...c, equalities: [{ ...c.equalities[0], ourLambda: ['1'] }] } }), false);
    assert.equal(isHostMessage({ type: 'mujoco', mujoco: { status: 'running' } }), false);
  });

  test('the reducer: a mujoco message replaces the model\'s section; before a model it is ignored; a new model carries its own', () => {
    const section = (status: MujocoSection['status']): MujocoSection =>
      status === 'done' ? { status, comparison: toPanelComparison(compare), keyframes: ['tilted'] } : { status, keyframes: ['tilted'], ...(status === 'failed' ? { error: 'boom' } : {}) };
    const empty = initialState({ report: false });
    assert.equal(reduce(empty, host({ type: 'mujoco', mujoco: section('running') })), empty, 'nothing to attach it to yet');
    let s: PanelState = reduce(empty, host({ type: 'model', model: { ...model, mujoco: section('idle') } }));
    assert.equal(s.model?.mujoco?.status, 'idle');
    const snapshot: SystemSnapshot | undefined = s.snapshot;
    for (const st of ['running', 'done', 'failed', 'idle'] as const) {
      s = reduce(s, host({ type: 'mujoco', mujoco: section(st) }));
      assert.equal(s.model?.mujoco?.status, st);
      assert.equal(s.snapshot, snapshot, 'the matrices and the step are untouched');
    }
    s = reduce(s, host({ type: 'mujoco', mujoco: section('done') }));
    assert.equal(mujocoSlice(s).section?.comparison?.steps, 20);
    // A new model from the host (an edit) comes with the host's section.
    s = reduce(s, host({ type: 'model', model: { ...model, mujoco: section('idle') } }));
    assert.equal(s.model?.mujoco?.status, 'idle');
    // A scene file's model has no section: the card stays hidden.
    s = reduce(s, host({ type: 'model', model }));
    assert.equal(mujocoSlice(s).section, undefined);
    assert.equal(cardVisible(undefined, false), false);
  });

  test('the panel model with a section validates, also as a report (typed-array-safe JSON)', () => {
    const withSection: PanelModel = { ...model, mujoco: { status: 'done', comparison: toPanelComparison(compare), keyframes: [] } };
    assert.equal(isPanelModel(withSection), true);
    const back = decodeFromJson<PanelModel>(encodeForJson(withSection));
    assert.equal(isPanelModel(back), true);
    assert.equal(parseHostMessage(encodeForJson({ type: 'model', model: withSection }))?.type, 'model');
    assert.equal(isPanelModel({ ...model, mujoco: { status: 'nope' } }), false);
    // In a report only a finished comparison is shown.
    assert.equal(cardVisible({ status: 'idle', keyframes: [] }, true), false);
    assert.equal(cardVisible(withSection.mujoco, true), true);
    assert.equal(cardVisible({ status: 'idle', keyframes: [] }, false), true);
  });

  test('what the card says: status per state, the table of rows, violations and the sparkline', () => {
    const c = toPanelComparison(compare);
    assert.match(startText({ status: 'idle', keyframes: [] }), /qpos0 \(the model has no named keys\)/);
    assert.match(startText({ status: 'idle', keyframes: ['a', 'b'], keyframe: 'b' }), /key "b" \(keys: a, b\)/);
    assert.match(statusText({ status: 'idle', keyframes: [] }, 500, 0.002), /for 500 steps of 0\.002 s/);
    assert.match(statusText({ status: 'running', keyframes: [] }, 500, 0.002), /Running MuJoCo/);
    assert.equal(statusText({ status: 'failed', error: 'no wasm', keyframes: [] }, 1, 1), 'The comparison failed: no wasm.');
    assert.equal(statusText({ status: 'done', comparison: c, keyframes: [] }, 1, 1), summaryText(c));
    assert.match(summaryText(c), /^20 steps of 0\.002 s \(t = 0\.04 s\) from qpos0\. MuJoCo: soft constraints/);
    assert.match(summaryText(c), /warnings: none/);
    // The explanation follows the model: soft equalities only when it has some.
    assert.match(whyTheyDiffer(c), /equality constraints are soft/);
    const joints = { ...c, equalities: [] };
    assert.doesNotMatch(whyTheyDiffer(joints), /regulariser|are soft/);
    assert.match(whyTheyDiffer(joints), /no equality constraints/);
    assert.match(summaryText(joints), /MuJoCo: no equality constraints/);
    assert.doesNotMatch(summaryText(joints), /soft constraints/);
    assert.equal(otherRowsText(c), undefined, 'contacts are disabled in the fixture');
    assert.match(otherRowsText({ ...c, otherRows: { ...c.otherRows, contacts: { max: 4, states: 21 } } }) ?? '', /contact rows in 21 of 21 states \(up to 4\)/);
    const e = c.equalities[0];
    const rows = tableRows(e);
    assert.equal(rows.length, 3);
    assert.deepEqual(rows.map((r) => r[0]), ['close.x', 'close.y', 'close.z']);
    assert.equal(rows[2][1], num(e.mujocoForce[2]));
    assert.equal(rows[2][2], num(e.ourLambda[2]));
    assert.ok(rows.every((r) => r.length === 6 && r.every((x) => x.length > 0)));
    assert.match(violationText(e), /^Violation ‖C‖: MuJoCo max .*; ours max .*\.$/);
    assert.equal(num(null), '–');
    assert.equal(num(NaN), '–');
    // Sparkline: 21 points each, inside the box; MuJoCo sags (higher) where ours holds to round-off.
    const sp = sparkline(e, 300, 50)!;
    const pts = (s: string) => s.split(' ').map((p) => p.split(',').map(Number));
    assert.equal(pts(sp.mujoco).length, 21);
    assert.equal(pts(sp.ours).length, 21);
    for (const [x, y] of [...pts(sp.mujoco), ...pts(sp.ours)]) assert.ok(x >= 0 && x <= 300 && y >= 0 && y <= 50, `${x},${y}`);
    const lastY = (s: string) => pts(s)[pts(s).length - 1][1];
    assert.ok(lastY(sp.mujoco) < lastY(sp.ours), 'MuJoCo\'s final violation is drawn above ours');
    assert.equal(sparkline({ ...e, violation: { ...e.violation, mujoco: [], ours: [null] } }, 10, 10), undefined, 'nothing to draw');
  });
});
