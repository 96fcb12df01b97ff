// MJCF semantics decided by MuJoCo's compiler, checked against MuJoCo's compiled model to 1e-12:
// defaults and childclass, a rotated <frame>, compiler angle="degree", inertia from geoms, joint
// combinations (universal, three hinges, unsupported), massless bodies; shapes from geoms.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Codes, DEFAULT_SOLVER, inspectParsed, type Vec3 } from '../../src/engine';
import { loadModel } from '../../src/import/index';
import { assertClose, assertContactsSolved, assertRows, ballRows, checkMassProperties, hingePerpRows, importFixture, lineOf, mujocoReference } from './import-helpers';

const hingeRows = (ref: Awaited<ReturnType<typeof mujocoReference>>, A: string, B: string, joint: string) => {
  const j = ref.jointNames.indexOf(joint);
  return [...ballRows(ref, A, B, ref.xanchor[j]), ...hingePerpRows(ref, A, B, ref.xaxis[j])];
};

test('defaults and childclass: joint axes and geom types come from the classes; mass, COM, M⁻¹ and rows match MuJoCo', async () => {
  const r = await importFixture('defaults-childclass.xml');
  const ref = await mujocoReference('defaults-childclass.xml');
  assertContactsSolved(r.diagnostics, r.parse.scene, 5);
  const snap = r.snapshot!;
  checkMassProperties(snap, ref);
  // childclass "arm" turns the default y axis into x; the pendulum keeps the top-level default.
  assertClose(ref.xaxis[ref.jointNames.indexOf('shoulder')], [1, 0, 0], 'shoulder axis');
  assertClose(ref.xaxis[ref.jointNames.indexOf('swing')], [0, 1, 0], 'swing axis');
  const scene = r.parse.scene!;
  const hinge = (n: string) => scene.constraints.find((c) => c.name === n)!;
  for (const [name, A, B] of [['shoulder', 'world', 'upper'], ['elbow', 'upper', 'lower'], ['swing', 'world', 'pendulum']] as const) {
    assert.equal(hinge(name).type, 'hinge');
    assertRows(snap, name, hingeRows(ref, A, B, name));
  }
  // Shapes: class "arm" makes boxes, class "tip" a sphere with its own friction; the default a capsule.
  const shapes = Object.fromEntries(scene.bodies.flatMap((b) => b.shapes.map((s) => [s.name, s])));
  assert.equal(shapes.upper_box.type, 'box');
  assert.deepEqual(shapes.upper_box.type === 'box' && shapes.upper_box.halfExtents, [0.05, 0.05, 0.2]);
  assert.equal(shapes.upper_box.friction, 0.7);
  assert.ok(shapes.hand.type === 'sphere' && shapes.hand.radius === 0.08 && shapes.hand.friction === 0.4);
  assert.ok(shapes.rod.type === 'capsule' && shapes.rod.radius === 0.03 && Math.abs(shapes.rod.halfLength - Math.hypot(0.2, 0.5) / 2) < 1e-12);
  // The floor plane is a world shape: the half-space z ≤ −2.
  const floor = scene.world.shapes[0];
  assert.ok(floor.type === 'plane');
  assertClose(floor.type === 'plane' ? [...floor.normal, floor.offset] : [], [0, 0, 1, -2], 'floor');
  // Contacts are on (velocity formulation), with fresh settings objects, never the shared defaults.
  assert.equal(scene.solver.contacts.enabled, true);
  assert.notEqual(scene.solver.contacts, DEFAULT_SOLVER.contacts);
});

test('a body placed by a rotated <frame>: axis, anchor and principal frame as MuJoCo compiles them', async () => {
  const r = await importFixture('frame.xml');
  const ref = await mujocoReference('frame.xml');
  assertContactsSolved(r.diagnostics, r.parse.scene, 2);
  const snap = r.snapshot!;
  checkMassProperties(snap, ref);
  const j = ref.jointNames.indexOf('hinge');
  assertClose(ref.xaxis[j], [Math.cos(Math.PI / 6), Math.sin(Math.PI / 6), 0], 'hinge axis turned by the frame');
  assertClose(ref.xanchor[j], [0.2, 0, 1], 'hinge anchor');
  assertRows(snap, 'hinge', hingeRows(ref, 'world', 'link', 'hinge'));
  // The fin in its rotated frame is a shape of the link.
  assert.deepEqual(r.parse.scene!.bodies[0].shapes.map((s) => s.name), ['box0', 'fin']);
});

test('compiler angle="degree": euler, axisangle and joint ranges in degrees; joint limits converted (listed on the joint where the formulation does not solve them)', async () => {
  const r = await importFixture('degree.xml');
  const ref = await mujocoReference('degree.xml');
  const snap = r.snapshot!;
  checkMassProperties(snap, ref);
  assertClose(ref.xaxis[ref.jointNames.indexOf('pivot')], [-1, 0, 0], 'pivot axis (y turned 90° about z)');
  const wrist = ref.bodyNames.indexOf('forearm');
  const c = Math.cos((135 * Math.PI) / 180), s = Math.sin((135 * Math.PI) / 180);
  assertClose([ref.xmat[wrist][0], ref.xmat[wrist][3]], [c, s], 'forearm turned 90° + 45°');
  assertRows(snap, 'pivot', hingeRows(ref, 'world', 'arm', 'pivot'));
  assertRows(snap, 'wrist', hingeRows(ref, 'arm', 'forearm', 'wrist'));
  const note = r.diagnostics.find((d) => d.code === Codes.notSimulated);
  const limits = r.parse.scene!.constraints.find((c) => c.name === 'pivot')?.limits;
  assert.ok(limits && Math.abs(limits[0] + Math.PI / 4) < 1e-15 && Math.abs(limits[1] - Math.PI / 4) < 1e-15, JSON.stringify(limits));
  if (r.parse.scene!.solver.formulation === 'velocity') assert.ok(!note || !/joint limits/.test(note.message), note?.message);
  else {
    // the acceleration formulation does not solve limits: listed, on the joint
    assert.ok(note);
    assert.match(note.message, /joint limits and friction loss \(the acceleration formulation does not solve them; the velocity formulation does\) \(`pivot`\)/);
    assert.equal(note.related?.find((x) => x.message.startsWith('joint limits'))?.range.start.line, lineOf(r.text, 'name="pivot"'));
  }
});

test('inertia from geoms: the body sits at its centre of mass, oriented along MuJoCo\'s principal axes (ximat)', async () => {
  const r = await importFixture('inertia-from-geoms.xml');
  const ref = await mujocoReference('inertia-from-geoms.xml');
  const snap = r.snapshot!;
  const b = ref.bodyNames.indexOf('lump');
  assert.ok(ref.mass[b] > 0);
  const body = r.parse.scene!.bodies[0];
  assert.equal(body.mass, ref.mass[b]);
  assert.deepEqual([body.inertia[0], body.inertia[4], body.inertia[8]], ref.inertia[b]);
  // ximat is not the body frame: the geoms make the principal axes oblique.
  assert.ok(Math.abs(ref.ximat[b][1]) > 1e-3, 'principal axes differ from the body frame');
  checkMassProperties(snap, ref);
  assertRows(snap, 'ball', ballRows(ref, 'world', 'lump', ref.xanchor[0]));
  // The only diagnostic: the contacts note, related to the first geom's line.
  assertContactsSolved(r.diagnostics, r.parse.scene, 3);
});

const inline = (body: string, extra = '') => `<mujoco model="inline">
  <worldbody>
    <body name="base" pos="0 0 1">
${body}
    </body>
  </worldbody>${extra}
</mujoco>`;

async function inspectInline(xml: string) {
  const parse = await loadModel('/virtual/inline.xml', xml, { files: { workspaceRoot: '/virtual', readFile: () => undefined } });
  return { parse, r: inspectParsed(xml, parse) };
}

test('two hinges meeting in one point → universal (ball + the angle between the axes); three → ball', async () => {
  const two = inline(`      <joint name="yaw" type="hinge" axis="0 0 1" pos="0 0 0.1"/>
      <joint name="pitch" type="hinge" axis="0 1 0" pos="0 0 0.1"/>
      <geom type="box" size="0.1 0.05 0.02"/>`);
  const { parse, r } = await inspectInline(two);
  assertContactsSolved(parse.diagnostics, parse.scene, 1);
  const c = parse.scene!.constraints[0];
  assert.equal(c.type, 'universal');
  assert.equal(c.name, 'yaw+pitch');
  const snap = r.snapshot!;
  assert.equal(snap.rank.rows, 4);
  // Rows: ball at the common point, then [0, a×b] with a = yaw (world), b = pitch (turns with the body).
  const p = snap.bodyStates[0].position;
  const x: Vec3 = [0, 0, 1.1];
  const rB: Vec3 = [x[0] - p[0], x[1] - p[1], x[2] - p[2]];
  const J = (row: number) => Array.from({ length: 6 }, (_, k) => {
    let v = 0;
    for (let q = snap.J.rowPtr[row]; q < snap.J.rowPtr[row + 1]; q++) if (snap.J.colIdx[q] === k) v = snap.J.values[q];
    return v;
  });
  assertClose(J(0), [-1, 0, 0, 0, -rB[2], rB[1]], 'x row on the body');
  assertClose(J(3), [0, 0, 0, 1, 0, 0], '∠ row on the body: −(a×b) = −(z×y) = x');
  const three = inline(`      <joint name="h1" type="hinge" axis="1 0 0"/>
      <joint name="h2" type="hinge" axis="0 1 0"/>
      <joint name="h3" type="hinge" axis="0 0 1"/>
      <geom type="sphere" size="0.1" pos="0.2 0 0"/>`);
  const t = await inspectInline(three);
  assert.equal(t.parse.scene!.constraints[0].type, 'ball');
  assert.equal(t.parse.scene!.constraints[0].name, 'h1+h2+h3');
});

test('other hinge/slide combinations become a chain: a planar root, two hinges whose axes miss', async () => {
  const xml = inline(`      <joint name="rootx" type="slide" axis="1 0 0"/>
      <joint name="rootz" type="slide" axis="0 0 1"/>
      <joint name="rooty" type="hinge" axis="0 1 0"/>
      <geom type="capsule" size="0.05" fromto="0 0 0 0.3 0 0"/>`);
  const { parse } = await inspectInline(xml);
  assert.ok(!parse.diagnostics.some((x) => x.code === Codes.unsupportedJoint));
  const c = parse.scene!.constraints[0];
  assert.equal(c.type, 'chain');
  assert.equal(c.name, 'rootx+rootz+rooty');
  assert.deepEqual(c.chain!.map((j) => [j.type, j.name]), [['slider', 'rootx'], ['slider', 'rootz'], ['hinge', 'rooty']]);
  const skew = inline(`      <joint name="a" type="hinge" axis="0 0 1"/>
      <joint name="b" type="hinge" axis="0 1 0" pos="0.1 0 0.3"/>
      <geom type="sphere" size="0.1"/>`);
  const s = await inspectInline(skew);
  assert.ok(!s.parse.diagnostics.some((x) => x.code === Codes.unsupportedJoint));
  assert.equal(s.parse.scene!.constraints[0].type, 'chain');
  assert.equal(s.r.snapshot!.constraints[0].rows, 4);
});

test('joint combinations without a closed form are reported on the body element, with the reason; the body is left free', async () => {
  const xml = inline(`      <joint name="hx" type="hinge" axis="1 0 0"/>
      <joint name="hy" type="hinge" axis="0 1 0"/>
      <joint name="sz" type="slide" axis="0 0 1"/>
      <geom type="capsule" size="0.05" fromto="0 0 0 0.3 0 0"/>`);
  const { parse } = await inspectInline(xml);
  const d = parse.diagnostics.find((x) => x.code === Codes.unsupportedJoint)!;
  assert.equal(d.severity, 'error');
  assert.equal(d.range.start.line, lineOf(xml, '<body name="base"'));
  assert.match(d.message, /hinge `hx`, hinge `hy`, slide `sz`: hinges about different directions/);
  assert.deepEqual(d.related?.map((x) => x.range.start.line), ['hx', 'hy', 'sz'].map((n) => lineOf(xml, `name="${n}"`)));
  assert.equal(parse.scene!.constraints.length, 0);
});

test('a massless body is merged into its parent (MuJoCo allows no massless body with joints)', async () => {
  const xml = `<mujoco model="tool">
  <worldbody>
    <body name="arm" pos="0 0 1">
      <joint name="shoulder" type="hinge" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 0.5 0 0" size="0.03"/>
      <body name="mount" pos="0.5 0 0">
        <site name="tcp"/>
        <body name="tool" pos="0.1 0 0">
          <joint name="spin" type="hinge" axis="1 0 0"/>
          <geom type="cylinder" size="0.05 0.02" mass="0.3"/>
        </body>
      </body>
    </body>
  </worldbody>
</mujoco>`;
  const { parse } = await inspectInline(xml);
  const d = parse.diagnostics.find((x) => x.code === Codes.masslessBody)!;
  assert.equal(d.severity, 'information');
  assert.equal(d.range.start.line, lineOf(xml, '<body name="mount"'));
  assert.match(d.message, /`mount` has no mass: merged into `arm`\.$/);
  assert.deepEqual(parse.scene!.bodies.map((b) => b.name), ['arm', 'tool']);
  assert.deepEqual(parse.scene!.constraints.map((c) => [c.name, c.type, c.bodyA, c.bodyB]), [['shoulder', 'hinge', 'world', 'arm'], ['spin', 'hinge', 'arm', 'tool']]);
  assert.deepEqual(parse.scene!.bodies[1].shapes.map((s) => s.type), ['cylinder'], 'a cylinder is simulated');
  // A massless body with a joint is MuJoCo's error, shown on its element.
  const bad = xml.replace('<site name="tcp"/>', '<joint name="j" type="hinge"/>');
  const b = await inspectInline(bad);
  const e = b.parse.diagnostics.find((x) => x.code === Codes.mujocoError)!;
  assert.equal(e.range.start.line, lineOf(bad, '<body name="mount"'));
  assert.match(e.message, /mass and inertia of moving bodies/);
});
