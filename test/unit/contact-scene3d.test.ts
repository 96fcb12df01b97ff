// The engine's contact results feed the 3D view as they are: the view's structural reader
// (webview/scene3d/read.ts) takes every contact of a step record and of a snapshot, with its
// tangents (so friction arrows are drawn), forces, state and body names; and the frame of a step
// carries them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inspectScene, Simulation } from '../../src/engine';
import { sceneGeometry } from '../../src/panelModel';
import type { PanelModel } from '../../src/protocol';
import { readContacts } from '../../webview/scene3d/read';
import { frameAt, sceneData } from '../../webview/scene3d/model';

test('records and snapshots of a sliding box give the 3D view its contacts with normal and friction forces', () => {
  const text = readFileSync(join(__dirname, '..', '..', 'examples', 'box-incline.velocity.scene.json'), 'utf8');
  const ins = inspectScene(text);
  const sim = new Simulation(ins.parse.scene!, ins.parse.sourceMap);
  const recs = sim.step(40);
  const rec = recs[39];
  const read = readContacts(rec);
  assert.equal(read.length, rec.contacts!.length);
  assert.equal(read.length, 8);
  read.forEach((c, k) => {
    const e = rec.contacts![k];
    assert.deepEqual(c.point, e.point);
    assert.deepEqual(c.normal.map((x) => Math.round(x * 1e12) / 1e12), e.normal.map((x) => Math.round(x * 1e12) / 1e12));
    assert.equal(c.normalForce, e.normalForce);
    assert.deepEqual(c.friction, e.frictionForce, 'friction is drawn: the tangents are given');
    assert.equal(c.state, e.state);
    assert.equal(c.bodyA, e.bodyA);
    assert.equal(c.bodyB, 'world');
  });
  assert.ok(read.some((c) => c.state === 'slip') && read.some((c) => c.state === 'stick'));
  // the snapshot of the same step (the step from it) reads the same way
  const snap = sim.snapshotAt(40);
  assert.equal(readContacts(snap).length, snap.contacts!.length);
  // and a frame of the 3D view at step 40 draws the record's contacts
  const model: PanelModel = {
    sceneName: 'incline',
    fileName: 'box-incline.velocity.scene.json',
    snapshot: snap,
    history: [...recs],
    plannedSteps: 40,
    dt: 0.01,
    diagnostics: [],
    ...sceneGeometry(ins.parse.scene!),
  };
  const frame = frameAt(model, sceneData(model), 40);
  assert.equal(frame.contacts.length, 8);
  assert.ok(frame.contacts.every((c) => c.normalForce !== undefined && c.friction !== undefined));
});
