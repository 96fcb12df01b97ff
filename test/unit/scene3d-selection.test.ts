// The 3D view's selection of contacts (webview/scene3d/selection.ts, describe.ts) on the engine's
// box stack: names by pair and ordinal, lookup by name, following a contact from step to step,
// the keyboard order (bodies, constraints, contacts), the contact's one-line description.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inspectScene, Simulation } from '../../src/engine';
import { sceneGeometry } from '../../src/panelModel';
import type { PanelModel } from '../../src/protocol';
import { formatNumber } from '../../src/shared';
import { frameAt, sceneData } from '../../webview/scene3d/model';
import { contactName, contactPair, findContact, followContact, nextTarget, resolveSelection, targetName, targetPoint } from '../../webview/scene3d/selection';
import { describeTarget, legendInfo, arrowScales } from '../../webview/scene3d/describe';

function model(example: string, steps: number): PanelModel {
  const ins = inspectScene(readFileSync(join(__dirname, '..', '..', 'examples', `${example}.scene.json`), 'utf8'));
  const sim = new Simulation(ins.parse.scene!, ins.parse.sourceMap);
  sim.step(steps);
  return { sceneName: example, fileName: `${example}.scene.json`, snapshot: ins.snapshot!, history: [...sim.records], plannedSteps: steps, dt: 0.01, diagnostics: [], ...sceneGeometry(ins.parse.scene!) };
}

test('box stack: contacts named by their pair and ordinal, found by name, followed to the next step', () => {
  const m = model('box-stack', 30);
  const d = sceneData(m);
  const f = frameAt(m, d, 30);
  assert.equal(f.contacts.length, 12);
  const names = f.contacts.map((_, k) => contactName(d, f.contacts, k));
  assert.equal(new Set(names).size, 12, 'every contact has its own name');
  for (const pair of ['bottom/bottomBox–world/ground', 'bottom/bottomBox–middle/middleBox', 'middle/middleBox–top/topBox']) {
    const mine = names.filter((n) => n.startsWith(`${pair} #`));
    assert.deepEqual(mine.map((n) => n.slice(pair.length)).sort(), [' #1', ' #2', ' #3', ' #4'], `${pair}: four corners`);
  }
  names.forEach((n, k) => assert.equal(findContact(d, f, n), k));
  assert.equal(findContact(d, f, 'bottom/bottomBox–world/ground #5'), -1);
  assert.equal(findContact(d, f, 'nothing'), -1);
  // The next step renumbers nothing here, but following goes by the pair and the nearest point.
  const g = frameAt(m, d, 29);
  f.contacts.forEach((c, k) => {
    const j = followContact(d, g, c);
    assert.equal(contactPair(d, g.contacts[j]), contactPair(d, c));
    assert.ok(Math.hypot(...g.contacts[j].point.map((x, i) => x - c.point[i])) < 1e-6, `contact ${k} followed to the same corner`);
  });
  // A contact the next frame lacks (its pair gone) is not followed.
  assert.equal(followContact(d, { ...g, contacts: [] }, f.contacts[0]), -1);
  // Names and points of targets.
  const t = resolveSelection(d, f, { contact: names[5] });
  assert.deepEqual(t, { kind: 'contact', index: 5 });
  assert.equal(targetName(d, f, t!), names[5]);
  assert.deepEqual(targetPoint(d, f, t!), f.contacts[5].point);
  assert.deepEqual(resolveSelection(d, f, { body: 'top' }), { kind: 'body', index: 2 });
  assert.equal(resolveSelection(d, f, { body: 'nobody' }), undefined);
});

test('keyboard order: bodies, constraints, then the step\'s contacts; undefined past either end', () => {
  const m = model('box-stack', 5);
  const d = sceneData(m);
  const f = frameAt(m, d, 5);
  const seq = [];
  for (let t = nextTarget(d, f, undefined, 1); t; t = nextTarget(d, f, t, 1)) seq.push(t);
  assert.equal(seq.length, 3 + f.contacts.length);
  assert.deepEqual(seq.slice(0, 4), [{ kind: 'body', index: 0 }, { kind: 'body', index: 1 }, { kind: 'body', index: 2 }, { kind: 'contact', index: 0 }]);
  assert.deepEqual(nextTarget(d, f, undefined, -1), { kind: 'contact', index: f.contacts.length - 1 });
  assert.deepEqual(nextTarget(d, f, { kind: 'contact', index: 0 }, -1), { kind: 'body', index: 2 });
  assert.equal(nextTarget(d, f, { kind: 'body', index: 0 }, -1), undefined);
});

test('a contact described: pair, state, gap, normal force, friction, cone ratio; the legend names the contact arrows', () => {
  const m = model('box-stack', 30);
  const d = sceneData(m);
  const f = frameAt(m, d, 30);
  const k = f.contacts.findIndex((c) => c.bodyB === 'world');
  const c = f.contacts[k];
  const text = describeTarget(d, f, { kind: 'contact', index: k });
  assert.equal(
    text,
    `contact ${contactName(d, f.contacts, k)} · stick · gap ${formatNumber(c.gap!, 3)} m · normal force ${formatNumber(c.normalForce!, 3)} N · friction ${formatNumber(Math.hypot(...c.friction!), 3)} N · cone ${formatNumber(c.coneRatio!, 2)}`,
  );
  assert.ok(Math.abs(c.normalForce! - (3 * 9.81) / 4) < 1e-3, `a ground corner carries 3mg/4: ${c.normalForce}`);
  assert.equal(describeTarget(d, f, { kind: 'contact', index: 99 }), 'no contact at step 30');
  const s = arrowScales(m, d, f, 0);
  const info = legendInfo(d, f, s, 0.001, 'all');
  assert.deepEqual([...info.contacts], ['stick']);
  assert.equal(info.contactArrows, true);
  assert.equal(info.constraintForces, false, 'no constraint in a box stack: the reference arrow is neutral');
  assert.equal(legendInfo(d, f, s, 0.001, 'off').contactArrows, false);
});

test('arrow scale: the largest contact force of the whole run sets it (an impact lasting two steps included)', () => {
  const m = model('bouncing-ball', 600);
  const d = sceneData(m);
  const f0 = frameAt(m, d, 0);
  const impacts = m.history.filter((r) => (r as { contacts?: unknown[] }).contacts?.length);
  assert.ok(impacts.length >= 1 && impacts.length <= 3, `impact steps: ${impacts.map((r) => r.step)}`);
  const fmax = Math.max(...impacts.flatMap((r) => (r as unknown as { contacts: { normalForce: number }[] }).contacts.map((c) => c.normalForce)));
  const s = arrowScales(m, d, f0, 0);
  assert.ok(Math.abs(s.force * fmax - s.maxArrow) < 1e-9 * s.maxArrow, `the impact's ${fmax.toFixed(0)} N is the longest arrow`);
});
