// What an imported model leaves out, as data (ParseResult.notSimulated) beside its CL606 note, and
// the CodeLens text made from it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Codes } from '../../src/engine/index';
import { loadModel, nodeFileAccess } from '../../src/import/index';
import { notSimulatedLens } from '../../src/extension/logic/format';
import { FIXTURES } from './import-helpers';

test('an imported model lists what is not simulated by category, the same as its CL606 note', async () => {
  // Gymnasium's hopper: everything simulated (its legs' armature between moving links too: drive rows)
  const hop = join(FIXTURES, 'public', 'hopper');
  const hopper = await loadModel(join(hop, 'hopper.xml'), readFileSync(join(hop, 'hopper.xml'), 'utf8'), { files: nodeFileAccess(hop) });
  assert.deepEqual(hopper.notSimulated ?? [], []);
  assert.equal(hopper.diagnostics.some((d) => d.code === Codes.notSimulated), false);
  const dir = join(FIXTURES, 'public', 'reacher');
  const path = join(dir, 'reacher.xml');
  const r = await loadModel(path, readFileSync(path, 'utf8'), { files: nodeFileAccess(dir) });
  const list = r.notSimulated!;
  assert.ok(list.length > 0);
  // the target's two slides are one chain constraint whose joints keep their coordinates: their limits are simulated
  assert.equal(list.some((c) => c.category.startsWith('joint limits')), false);
  assert.deepEqual(r.scene!.constraints.find((c) => c.type === 'chain')?.chain?.map((j) => j.limits), [[-0.27, 0.27], [-0.27, 0.27]]);
  const note = r.diagnostics.find((d) => d.code === Codes.notSimulated)!;
  for (const c of list) assert.ok(note.message.includes(`${c.category} (`), c.category);
  assert.deepEqual(Object.keys(note.data!.notSimulated as object), list.map((c) => c.category));
  const actuators = list.find((c) => c.category === 'actuators');
  if (actuators) assert.deepEqual(actuators.items, ['3']);
});

test('the CodeLens names the first categories and lists every item in its tooltip; nothing when everything is simulated', () => {
  assert.equal(notSimulatedLens(undefined), undefined);
  assert.equal(notSimulatedLens([]), undefined);
  const lens = notSimulatedLens([
    { category: 'actuators', items: ['3'] },
    { category: 'joint limits', items: ['`a`', '`b`'] },
    { category: 'joint damping', items: ['`a`'] },
    { category: 'tendons', items: ['2'] },
  ])!;
  assert.equal(lens.title, '$(warning) Not simulated: actuators, joint limits, joint damping and 1 more');
  assert.match(lens.tooltip, /\njoint limits: `a`, `b`\n/);
  assert.match(lens.tooltip, /tendons: 2$/);
});

test('the panel model carries the list (validated by the protocol) for the header', async () => {
  const { buildPanelModel } = await import('../../src/panelModel');
  const { isPanelModel } = await import('../../src/protocol');
  const { inspectModel } = await import('../../src/import/index');
  const dir = join(FIXTURES, 'public', 'reacher');
  const path = join(dir, 'reacher.xml');
  const r = await inspectModel(path, readFileSync(path, 'utf8'), { files: nodeFileAccess(dir) });
  assert.ok(r.parse.notSimulated?.length);
  const m = buildPanelModel('reacher.xml', r)!;
  assert.deepEqual(m.notSimulated, r.parse.notSimulated);
  assert.ok(isPanelModel(JSON.parse(JSON.stringify(m))));
  assert.ok(!isPanelModel({ ...JSON.parse(JSON.stringify(m)), notSimulated: [{ category: 1 }] }));
});
