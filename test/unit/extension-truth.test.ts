// One truth across the views (no vscode): the status bar, CodeLens and tree show the κ, rank and
// step the inspector shows (step 0 named as such) and follow Step, Go to Step and Reset; the
// inspector lists exactly the diagnostics published in the Problems panel (run diagnostics
// included, JSON syntax errors left to VS Code's JSON service) and counts the same; the tree's
// severity of an item is its diagnostic's; the κ threshold setting reaches the panel.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Codes, inspectScene, type Diagnostic } from '../../src/engine';
import type { Log } from '../../src/extension/analyzer';
import { jsonServiceSyntaxErrors, publishedDiagnostics } from '../../src/extension/logic/diagnostics';
import { codeLensTitles, countProblems, statusText } from '../../src/extension/logic/format';
import { SceneStore, type SceneEvent, type SceneState } from '../../src/extension/logic/sceneStore';
import { conditionWarningOf, panelShownStep, shownCondFacts, shownRecord, shownStepOf } from '../../src/extension/logic/shown';
import { SEVERITY_ICONS, STATE_ICONS, constraintAt, itemIcon, itemSeverity, severityOfItem } from '../../src/extension/logic/tree';
import { buildPanelModel } from '../../src/panelModel';
import { isHostMessage, isPanelModel } from '../../src/protocol';
import { DEFAULT_CONDITION_WARNING, formatCond } from '../../src/shared';

// A double pendulum thrown sideways: κ(A) changes from step to step (7.67 at step 0, 8.51 at step 3).
const PENDULUM = `{
  "name": "Double pendulum",
  "solver": { "dt": 0.01, "steps": 100, "alpha": 5.0, "beta": 1.0, "conditionWarning": 8 },
  "bodies": [
    { "name": "upper", "mass": 1.0, "inertia": [0.01, 0.01, 0.01], "position": [1, 0, 0] },
    { "name": "lower", "mass": 0.2, "inertia": [0.002, 0.002, 0.002], "position": [2, 0, 0], "velocity": [0, 0, -20] }
  ],
  "constraints": [
    { "name": "pivot", "type": "distance", "bodyA": "world", "bodyB": "upper", "length": 1.0 },
    { "name": "link", "type": "distance", "bodyA": "upper", "bodyB": "lower", "length": 1.0 }
  ]
}`;
// Two rods of different lengths between the same bodies: CL302 at step 0, drift (CL402) within a few steps.
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
// A redundant copy (CL301), a rod violated at step 0 (CL304), a body with a non-unit quaternion (CL105).
const MIXED = `{
  "name": "Mixed",
  "bodies": [
    { "name": "A", "mass": 1, "inertia": [0.1, 0.1, 0.1], "position": [0, 0, 0] },
    { "name": "B", "mass": 1, "inertia": [0.1, 0.1, 0.1], "position": [1, 0, 0], "orientation": [0, 0, 0, 2] },
    { "name": "C", "mass": 1, "inertia": [0.1, 0.1, 0.1], "position": [0, 3, 0] }
  ],
  "constraints": [
    { "name": "rod", "type": "distance", "bodyA": "A", "bodyB": "B", "length": 1 },
    { "name": "copy", "type": "distance", "bodyA": "A", "bodyB": "B", "length": 1 },
    { "name": "loose", "type": "distance", "bodyA": "A", "bodyB": "C", "length": 2 }
  ]
}`;
// A missing comma between the bodies: the parser recovers (the scene is analysed) and reports CL001.
const SYNTAX = `{
  "bodies": [
    { "name": "A", "mass": 1, "position": [0, 0, 0] }
    { "name": "B", "mass": 1, "position": [1, 0, 0] }
  ],
  "constraints": [{ "name": "rod", "type": "distance", "bodyA": "A", "bodyB": "B" }]
}`;

interface Uri {
  path: string;
  toString(): string;
}
const uri = (path: string): Uri => ({ path, toString: () => `file://${path}` });

function setup(text: string) {
  const events: SceneEvent<Uri>[] = [];
  const log: Log = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };
  const store = new SceneStore<Uri>((e) => events.push(e), log);
  const s: SceneState<Uri> = store.stateFor(uri('/w/a.scene.json'));
  store.storeResult(s, 1, inspectScene(text), text);
  return { store, s, events };
}

// ---- 1. the status bar and CodeLens show the shown step's κ, and name the step ----------------------

test('step 0 is named: `κ … · rank r/m · step 0` from the analysis', () => {
  const { s } = setup(PENDULUM);
  const f = shownCondFacts(s);
  assert.ok(f);
  assert.equal(f.step, 0);
  assert.equal(f.cond, s.result?.snapshot?.cond.A);
  assert.equal(statusText(f), `κ ${formatCond(s.result?.snapshot?.cond.A)} · rank 2/2 · step 0`);
  assert.equal(statusText(f), 'κ 7.67 · rank 2/2 · step 0');
  assert.equal(codeLensTitles(100, f, countProblems([])).summary, 'κ 7.67 · rank 2/2 · step 0 · no problems');
});

test('after Step ×3 the views show step 3’s κ and rank (the run’s record), not step 0’s', () => {
  const { store, s } = setup(PENDULUM);
  const r = store.ready(s);
  assert.ok(r);
  r.sim.step(3);
  store.stepped(s, true);
  const rec = r.sim.records[2];
  assert.equal(shownStepOf(s), 3);
  assert.equal(shownRecord(s), rec);
  const f = shownCondFacts(s);
  assert.deepEqual(f, { step: 3, cond: rec.cond.A, condEstimated: rec.condEstimated, rank: rec.rank, rows: 2 });
  assert.equal(rec.rank, 2, 'records keep the rank of the step');
  assert.notEqual(formatCond(rec.cond.A), formatCond(s.result?.snapshot?.cond.A), 'the fixture’s κ changes within 3 steps');
  assert.equal(statusText(f), `κ ${formatCond(rec.cond.A)} · rank 2/2 · step 3`);
  assert.equal(statusText(f), 'κ 8.51 · rank 2/2 · step 3');
});

test('Go to Step fires "shown" (once per change) and the views show that step; Reset brings back step 0', () => {
  const { store, s, events } = setup(PENDULUM);
  const r = store.ready(s);
  assert.ok(r);
  r.sim.step(5);
  store.stepped(s, true);
  events.splice(0);
  store.showStep(s, 2);
  assert.deepEqual(events.map((e) => e.kind), ['shown']);
  store.showStep(s, 2);
  assert.equal(events.length, 1, 'the same step again is no change');
  assert.equal(shownCondFacts(s)?.step, 2);
  assert.equal(shownCondFacts(s)?.cond, r.sim.records[1].cond.A);
  store.showStep(s, 0);
  assert.equal(statusText(shownCondFacts(s)!), 'κ 7.67 · rank 2/2 · step 0');
  store.showStep(s, 99);
  assert.equal(shownStepOf(s), 5, 'a step beyond the history is clamped to the current one');
  store.showStep(s, undefined);
  assert.equal(shownStepOf(s), 5, 'following the run again');
  store.resetRun(s);
  assert.equal(events[events.length - 1].kind, 'reset');
  assert.equal(shownStepOf(s), 0);
  assert.equal(shownRecord(s), undefined);
  assert.match(statusText(shownCondFacts(s)!), / · step 0$/);
});

test('a following panel’s late request does not pin the end it knew: after a Step from the CodeLens the views stay on the run’s end', () => {
  const { store, s } = setup(PENDULUM);
  const r = store.ready(s);
  assert.ok(r);
  r.sim.step(3);
  store.stepped(s, true);
  // Pause from the panel at step 1: every view lands there
  store.showStep(s, panelShownStep({ type: 'showStep', step: 1 }));
  assert.equal(shownStepOf(s), 1);
  // the CodeLens's Step (runner.ts): step 4, every view follows the run again
  r.sim.step(1);
  store.showStep(s, undefined);
  store.stepped(s, true);
  assert.equal(shownStepOf(s), 4);
  // the panel, following again, asks for the end it knew (3) after the host took step 4
  store.showStep(s, panelShownStep({ type: 'requestSnapshot', step: 3, follow: true }));
  assert.equal(shownStepOf(s), 4, 'the views follow the run, not step 3');
  assert.equal(shownCondFacts(s)?.cond, r.sim.records[3].cond.A);
  // Play started from a paused panel: it asks for the end (4) while the run goes on
  store.showStep(s, panelShownStep({ type: 'requestSnapshot', step: 4, follow: true }));
  r.sim.step(6);
  store.stepped(s, true);
  assert.equal(shownStepOf(s), 10, 'the views follow the run to its end');
  // a step the user chose (a chart click, the slider) is pinned
  store.showStep(s, panelShownStep({ type: 'requestSnapshot', step: 2 }));
  assert.equal(shownStepOf(s), 2);
  assert.equal(statusText(shownCondFacts(s)!).endsWith(' · step 2'), true);
  // End during a run: the panel goes to the last step it has a record of (no request needed) and
  // follows the run from there; the views follow the run on, they do not stop at that step
  store.showStep(s, panelShownStep({ type: 'showStep', step: 10 }, 10));
  r.sim.step(5);
  store.stepped(s, false);
  assert.equal(shownStepOf(s), 15, 'the views follow the run past the end the panel had');
  store.showStep(s, panelShownStep({ type: 'showStep', step: 0 }, 15));
  assert.equal(shownStepOf(s), 0, 'step 0 (Home) is a chosen step');
  store.showStep(s, panelShownStep({ type: 'showStep', step: 14 }, 15));
  assert.equal(shownStepOf(s), 14, 'an earlier step (←) is a chosen step');
});

test('no analysis: no facts (the status bar says it could not analyse)', () => {
  const { s } = setup('[]');
  assert.equal(shownCondFacts(s), undefined);
  assert.equal(shownStepOf(undefined), 0);
});

// ---- 2. the inspector's diagnostics are the published ones; the counts agree -------------------------

test('the panel lists exactly the published diagnostics, run diagnostics (drift) included, and counts what the Problems panel shows', () => {
  const { store, s } = setup(CONFLICTING);
  const r = store.ready(s);
  assert.ok(r);
  let changed = false;
  for (let k = 0; k < 20 && !changed; k++) {
    r.sim.step(1);
    store.stepped(s, true);
    changed = r.sim.diagnostics.length > 0;
  }
  assert.ok(changed, 'drift within 20 steps');
  const all = s.allDiagnostics();
  assert.ok(all.some((d) => d.code === Codes.drift));
  const published = publishedDiagnostics(all);
  assert.deepEqual(published, all, 'no syntax errors here: everything is published');
  const model = buildPanelModel(s.fileName, r.result, r.sim, r.sim.currentStep, { diagnostics: published, syntaxErrors: jsonServiceSyntaxErrors(all) });
  assert.ok(model && isPanelModel(model));
  assert.deepEqual(model.diagnostics, published);
  assert.equal(model.syntaxErrors, undefined);
  assert.deepEqual(countProblems(model.diagnostics), countProblems(all));
  assert.ok(model.diagnostics.some((d) => d.code === Codes.drift), 'the panel has CL402 as the Problems panel does');
  // while a run adds diagnostics, a diagnostics message carries them (a valid host message)
  const msg = { type: 'diagnostics', diagnostics: published };
  assert.equal(isHostMessage(msg), true);
  assert.equal(isHostMessage({ ...msg, syntaxErrors: published }), true, 'syntax errors are optional');
  assert.equal(isHostMessage({ type: 'diagnostics' }), false, 'the diagnostics are not');
  assert.equal(isHostMessage({ ...msg, diagnostics: [{ message: 'x' }] }), false);
  assert.equal(isHostMessage({ ...msg, syntaxErrors: 'no' }), false);
});

test('a report (no options) keeps every diagnostic of the scene and its run', () => {
  const { store, s } = setup(CONFLICTING);
  const r = store.ready(s);
  assert.ok(r);
  r.sim.step(20);
  const model = buildPanelModel('x', r.result, r.sim, undefined);
  assert.ok(model);
  assert.deepEqual(model.diagnostics, s.allDiagnostics());
});

// ---- 3. no duplicate syntax errors; a constraint on a broken body is not an unknown body --------------

test('JSON syntax errors are left to VS Code’s JSON service: not published, still listed by the panel as syntaxErrors', () => {
  const r = inspectScene(SYNTAX);
  assert.ok(r.snapshot, 'the parser recovers: the scene is analysed');
  const syntax = r.diagnostics.filter((d) => d.code === Codes.jsonSyntax);
  assert.equal(syntax.length, 1);
  const published = publishedDiagnostics(r.diagnostics);
  assert.equal(published.some((d) => d.code === Codes.jsonSyntax), false, 'no CL001 in the Problems panel');
  assert.deepEqual(jsonServiceSyntaxErrors(r.diagnostics), syntax);
  assert.equal(published.length + syntax.length, r.diagnostics.length, 'nothing else is left out');
  const model = buildPanelModel('s.scene.json', r, undefined, 0, { diagnostics: published, syntaxErrors: jsonServiceSyntaxErrors(r.diagnostics) });
  assert.ok(model && isPanelModel(model));
  assert.deepEqual(model.syntaxErrors, syntax);
  assert.equal(model.diagnostics.length + (model.syntaxErrors?.length ?? 0), r.diagnostics.length, 'the panel counts what the Problems panel shows');
  // The CLI and reports keep them.
  assert.ok(buildPanelModel('s.scene.json', r)?.diagnostics.some((d) => d.code === Codes.jsonSyntax));
});

test('syntax errors are published when VS Code’s JSON service does not report them, and CL001s of our own always', () => {
  const r = inspectScene(SYNTAX);
  const off = { jsonServiceReportsSyntax: false };
  assert.deepEqual(publishedDiagnostics(r.diagnostics, off), r.diagnostics);
  assert.deepEqual(jsonServiceSyntaxErrors(r.diagnostics, off), []);
  const deep = inspectScene('['.repeat(20000));
  const own = deep.diagnostics.filter((d) => d.code === Codes.jsonSyntax);
  assert.equal(own.length, 1, 'nesting too deep to read: the parser never got to report a syntax error');
  assert.deepEqual(publishedDiagnostics(deep.diagnostics), own, 'the JSON service does not say this one');
});

test('a constraint on a body that has errors: CL208 information on the name, not CL201', () => {
  const text = `{
  "bodies": [ { "name": "A", "mass": -1 }, { "name": "B", "mass": 1 } ],
  "constraints": [ { "type": "ball", "bodyA": "A", "bodyB": "B" }, { "type": "ball", "bodyA": "Q", "bodyB": "B" } ]
}`;
  const r = inspectScene(text);
  const ignored = r.diagnostics.filter((d) => d.code === Codes.constraintIgnored);
  assert.equal(ignored.length, 1);
  assert.equal(ignored[0].severity, 'information');
  assert.equal(ignored[0].range.start.line, 2);
  assert.equal(ignored[0].range.start.character, text.split('\n')[2].indexOf('"A"'));
  assert.match(ignored[0].message, /ignored because body `A` has errors/);
  assert.equal(ignored[0].related?.length, 1, 'related: the body');
  const unknown = r.diagnostics.filter((d) => d.code === Codes.unknownBody);
  assert.equal(unknown.length, 1, 'a really unknown body is still CL201');
  assert.match(unknown[0].message, /no body named "Q"/);
  assert.equal(unknown[0].severity, 'error');
  assert.deepEqual(countProblems(r.diagnostics), { errors: 2, warnings: 0, infos: 1 }, 'the mass and the unknown body; the note is no problem');
});

// ---- the tree's severity is the diagnostic's -------------------------------------------------------

const RANK = { error: 3, warning: 2, information: 1, hint: 0 } as const;
const highest = (ds: readonly Diagnostic[]): Diagnostic['severity'] => ds.reduce((m, d) => (RANK[d.severity] > RANK[m] ? d.severity : m), ds[0].severity);

/** Every item of a scene with its tree severity and its own diagnostics (as the tree computes them). */
function items(s: SceneState<Uri>, record = shownRecord(s)) {
  const r = s.result!;
  const scene = r.parse.scene!;
  const snap = r.snapshot!;
  const sm = r.parse.sourceMap;
  const all = s.allDiagnostics();
  const th = { violationTolerance: scene.solver.violationTolerance, conditionWarning: scene.solver.conditionWarning };
  const within = (group: 'bodies' | 'constraints', i: number) => {
    const range = sm.rangeOf([group, i]);
    const before = (a: { line: number; character: number }, b: { line: number; character: number }) => a.line < b.line || (a.line === b.line && a.character <= b.character);
    return all.filter((d) => before(range.start, d.range.start) && before(d.range.end, range.end));
  };
  const out: { name: string; severity: string | undefined; own: Diagnostic[] }[] = [];
  for (const b of scene.bodies) out.push({ name: b.name, severity: severityOfItem(b.fixed ? 'fixed' : 'ok', all, sm, 'bodies', b.index), own: within('bodies', b.index) });
  for (const c of scene.constraints) {
    const index = snap.constraints.findIndex((x) => x.fileIndex === c.index);
    const at = constraintAt(snap.constraints[index], index, snap, record, th);
    out.push({ name: c.name, severity: severityOfItem(at.state, all, sm, 'constraints', c.index), own: within('constraints', c.index) });
  }
  return out;
}

test('tree severity equals the diagnostic’s: CL301 warning, CL304 warning, CL105 warning on a body', () => {
  const { s } = setup(MIXED);
  const codes = s.allDiagnostics().map((d) => d.code);
  for (const c of [Codes.redundantConstraint, Codes.initialViolation, Codes.nonUnitQuaternion]) assert.ok(codes.includes(c), `${c} in ${codes.join(', ')}`);
  const byName = new Map(items(s).map((i) => [i.name, i]));
  assert.equal(byName.get('copy')?.severity, 'warning');
  assert.equal(byName.get('loose')?.severity, 'warning');
  assert.equal(byName.get('B')?.severity, 'warning');
  assert.equal(byName.get('A')?.severity, undefined);
  assert.deepEqual(byName.get('rod')?.own, [], 'rod has no diagnostic of its own…');
  assert.equal(byName.get('rod')?.severity, 'warning', '…but its island is singular (ill-conditioned: CL303’s severity)');
  for (const it of items(s)) if (it.own.length) assert.equal(it.severity, highest(it.own), `${it.name}: ${it.own.map((d) => d.code).join(', ')}`);
});

test('tree severity equals the diagnostic’s: CL302 error at step 0, and drift (CL402, a warning) during the run', () => {
  const { store, s } = setup(CONFLICTING);
  const step0 = new Map(items(s).map((i) => [i.name, i]));
  assert.deepEqual(step0.get('long')?.own.map((d) => `${d.code} ${d.severity}`), [`${Codes.conflictingConstraints} error`, `${Codes.initialViolation} warning`]);
  assert.equal(step0.get('long')?.severity, 'error', 'the highest of its diagnostics');
  const r = store.ready(s);
  assert.ok(r);
  for (let k = 0; k < 20 && r.sim.diagnostics.length === 0; k++) r.sim.step(1);
  store.stepped(s, true);
  const drifted = r.sim.diagnostics.find((d) => d.code === Codes.drift);
  assert.ok(drifted);
  for (const it of items(s)) if (it.own.length) assert.equal(it.severity, highest(it.own), `${it.name}: ${it.own.map((d) => `${d.code} ${d.severity}`).join(', ')}`);
  const name = (drifted.data as { constraint: string }).constraint;
  const item = items(s).find((i) => i.name === name);
  assert.ok(item?.own.includes(drifted));
});

test('icons: a severity shows the Problems panel’s icon and colour; without one, the state’s', () => {
  assert.equal(itemSeverity('ok', []), undefined);
  assert.equal(itemSeverity('violated', []), 'warning', 'CL304 and CL402 are warnings');
  assert.equal(itemSeverity('redundant', [{ severity: 'error' }]), 'error', 'CL306 on a redundant (zero-row) constraint is an error');
  assert.equal(itemSeverity('unknown', [{ severity: 'information' }]), 'information');
  assert.equal(itemSeverity('ok', [{ severity: 'hint' }]), undefined, 'hints are not in the Problems panel');
  assert.deepEqual(itemIcon('violated', 'warning'), SEVERITY_ICONS.warning);
  assert.deepEqual(itemIcon('conflicting', 'error'), { id: 'error', color: 'problemsErrorIcon.foreground' });
  assert.deepEqual(itemIcon('ok', undefined), STATE_ICONS.ok);
  assert.deepEqual(itemIcon('fixed', undefined), STATE_ICONS.fixed);
});

// ---- 5. the κ threshold setting reaches the panel ------------------------------------------------------

test('conditionWarning: the setting wins over the scene’s, which wins over the default; the panel model carries it', () => {
  const r = inspectScene(PENDULUM);
  const scene = r.parse.scene;
  assert.equal(conditionWarningOf(scene, undefined), 8);
  assert.equal(conditionWarningOf(scene, 1e3), 1e3);
  assert.equal(conditionWarningOf(undefined, undefined), DEFAULT_CONDITION_WARNING);
  assert.equal(buildPanelModel('p', r)?.conditionWarning, 8, 'a report: the scene’s');
  const model = buildPanelModel('p', r, undefined, 0, { conditionWarning: conditionWarningOf(scene, 1e3) });
  assert.equal(model?.conditionWarning, 1e3);
  assert.equal(model?.thresholds?.conditionWarning ?? 1e3, 1e3, 'the 3D view’s state colours use it too');
  assert.equal(buildPanelModel('p', r)?.thresholds?.conditionWarning ?? 8, 8);
});
