// URDF through MuJoCo's URDF compiler: links keep their names, the jointless base link and fixed
// joints are fused (base → world), the mimic gripper becomes a coupler on the <mimic> line, and a
// mimic MuJoCo dropped is reported.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Codes } from '../../src/engine';
import { convertModel } from '../../src/import/convert';
import { buildElementMap } from '../../src/import/map';
import { parseXml } from '../../src/import/xml';
import { assertClose, assertRows, ballRows, checkMassProperties, hingePerpRows, importFixture, lineOf, mujocoReference } from './import-helpers';

test('URDF arm with a mimic gripper: bodies, fused links, COM and M⁻¹ as MuJoCo; the mimic is a coupler on its line', async () => {
  const r = await importFixture('arm-gripper.urdf');
  const ref = await mujocoReference('arm-gripper.urdf');
  const scene = r.parse.scene!;
  const snap = r.snapshot!;
  assert.equal(scene.name, 'arm_gripper');
  // base (no joint to the world) and hand (fixed joint) are fused by MuJoCo: base is the world, hand part of forearm.
  assert.deepEqual(scene.bodies.map((b) => b.name), ['upper_arm', 'forearm', 'finger_left', 'finger_right']);
  assert.equal(ref.mass[ref.bodyNames.indexOf('forearm')], 1.2 + 0.4);
  assert.deepEqual(scene.world.shapes.map((s) => s.type), ['box'], 'the base link\'s box is a world shape');
  assert.deepEqual(scene.bodies[1].shapes.map((s) => s.type), ['box', 'sphere'], 'forearm with the fused hand');
  checkMassProperties(snap, ref);
  const hinge = (name: string, A: string, B: string) => {
    const j = ref.jointNames.indexOf(name);
    assertRows(snap, name, [...ballRows(ref, A, B, ref.xanchor[j]), ...hingePerpRows(ref, A, B, ref.xaxis[j])]);
  };
  hinge('shoulder', 'world', 'upper_arm');
  hinge('elbow', 'upper_arm', 'forearm');
  // Body diagnostics sit on the <link>, joint constraints on the <joint>.
  assert.deepEqual(r.parse.sourceMap.rangeOf(['bodies', 1]).start.line, lineOf(r.text, '<link name="forearm"'));
  assert.deepEqual(r.parse.sourceMap.rangeOf(['constraints', 1, 'name']).start.line, lineOf(r.text, '<joint name="elbow"'));
  // The mimic: q_right = 0 + 1·q_left, a coupler between the two finger sliders (three bodies).
  const mimic = scene.constraints.find((c) => c.type === 'coupler')!;
  assert.equal(mimic.name, 'finger_right_joint_mimic');
  assert.deepEqual(mimic.coupling!.joints.map((j) => [j.joint, j.kind, j.body, j.parent]), [
    ['finger_right_joint', 'slider', 'finger_right', 'forearm'],
    ['finger_left_joint', 'slider', 'finger_left', 'forearm'],
  ]);
  assert.deepEqual(mimic.coupling!.coefficients, [0, 1]);
  const c = snap.constraints.find((x) => x.name === mimic.name)!;
  assert.equal(r.parse.sourceMap.rangeOf(['constraints', mimic.index]).start.line, lineOf(r.text, '<mimic'));
  // Its row: n_right on finger_right, −n_left on finger_left, and the forearm's share of both coordinates.
  const mj = ref.efc.filter((e) => e.id === 0);
  assert.equal(mj.length, 1, 'MuJoCo compiled the mimic into one joint-equality row');
  assertClose([snap.C[c.firstRow], snap.Cdot[c.firstRow]], [mj[0].pos, mj[0].vel], 'coupler C, Ċ vs MuJoCo');
  const ax = (j: string) => ref.xaxis[ref.jointNames.indexOf(j)];
  const D = (b: string) => [0, 1, 2].map((i) => ref.xipos[ref.bodyNames.indexOf(b)][i] - ref.xipos[ref.bodyNames.indexOf('forearm')][i]);
  const nxD = (n: number[], d: number[]) => [n[1] * d[2] - n[2] * d[1], n[2] * d[0] - n[0] * d[2], n[0] * d[1] - n[1] * d[0]];
  const nR = ax('finger_right_joint'), nL = ax('finger_left_joint');
  assertRows(snap, mimic.name, [
    new Map([
      ['finger_right', [...nR, 0, 0, 0]],
      ['finger_left', [...nL.map((v) => -v), 0, 0, 0]],
      ['forearm', [...nR.map((v, i) => -v + nL[i]), ...nxD(nR, D('finger_right')).map((v, i) => v - nxD(nL, D('finger_left'))[i])]],
    ]),
  ]);
  assert.ok(r.diagnostics.every((d) => d.code !== Codes.mimicMissing), 'every mimic arrived');
  const note = r.diagnostics.find((d) => d.code === Codes.notSimulated);
  // the cylinders are simulated (contacts on, velocity formulation), and so are the limits:
  // URDF <limit> → the constraint's limits (MuJoCo's range; the initial state is q = 0)
  assert.ok(r.parse.scene!.bodies.some((b) => b.shapes.some((s) => s.type === 'cylinder')));
  assert.equal(r.parse.scene!.solver.formulation, 'velocity');
  const limits = (name: string) => r.parse.scene!.constraints.find((c) => c.name === name)?.limits;
  assert.deepEqual(limits('shoulder'), [-1.5, 1.5]);
  assert.deepEqual(limits('finger_left_joint'), [0, 0.04]);
  assert.ok(!note || !/cylinder|joint limits/.test(note.message), note?.message);
});

test('URDF: a mimic MuJoCo did not compile is reported on the <mimic> element', async () => {
  const r = await importFixture('lost-mimic.urdf');
  const d = r.diagnostics.find((x) => x.code === Codes.mimicMissing)!;
  assert.equal(d.severity, 'warning');
  assert.equal(d.range.start.line, lineOf(r.text, '<mimic'));
  assert.equal(d.related![0].range.start.line, lineOf(r.text, '<joint name="finger_right_joint"'));
  assert.match(d.message, /`finger_lft_joint` is not a moving joint there/);
  assert.equal(r.parse.scene!.constraints.filter((c) => c.type === 'coupler').length, 0);
});

test('URDF: when both joints exist but the equality is missing, the coupler is added from the <mimic> (with a warning)', async () => {
  const r = await importFixture('arm-gripper.urdf');
  const model = r.parse.model!;
  const doc = parseXml(r.text);
  const compiled = { ...model.compiled, equalities: [] };
  const converted = convertModel(compiled, model.state, buildElementMap(doc.root!, compiled, true), 'x');
  const issue = converted.issues.find((i) => i.code === Codes.mimicMissing)!;
  assert.match(issue.message, /The coupler finger_right_joint = 0 \+ 1·finger_left_joint is added from the XML/);
  assert.equal(issue.element?.name, 'mimic');
  const c = converted.scene.constraints.find((x) => x.type === 'coupler')!;
  assert.deepEqual(c.coupling!.coefficients, [0, 1]);
  assert.deepEqual(c.coupling!.joints.map((j) => j.joint), ['finger_right_joint', 'finger_left_joint']);
});
