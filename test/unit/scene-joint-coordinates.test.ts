// The joints a constraint names inside itself in a scene file: a universal's or ball's `hinges` and the
// drive, limits and friction loss of a chain's `joints` (scene/groupFields.ts), with CL217 where they
// cannot have coordinates; and Export as Scene writes them, so an imported model's actuators and tendons
// on such joints come back and run the same steps.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Codes, parseScene, Simulation } from '../../src/engine';
import { loadModel } from '../../src/import/index';
import { exportErrors, exportScene } from '../../src/import/export';

const scene = (constraint: string, extra = '') => `{
  "solver": { "dt": 0.002, "steps": 10, "formulation": "velocity" },
  "bodies": [
    { "name": "base", "mass": 1, "inertia": [0.1, 0.1, 0.1], "position": [0, 0, 1], "fixed": true },
    { "name": "arm", "mass": 1, "inertia": [0.01, 0.01, 0.01], "position": [0.3, 0, 0.8] }
  ],
  "constraints": [
    ${constraint}
  ]${extra}
}`;
const UNIVERSAL = (hinges: string) => `{ "name": "u", "type": "universal", "bodyA": "base", "bodyB": "arm", "anchorA": [0, 0, 0], "anchorB": [-0.3, 0, 0.2], "axisA": [1, 0, 0], "axisB": [0, 0, 1], "hinges": ${hinges} }`;
const GOOD_HINGES = '[{ "name": "ux", "axis": [1, 0, 0], "damping": 0.5, "limits": [-0.5, 0.5] }, { "name": "uz", "axis": [0, 0, 1], "coordinate": 0.1, "stiffness": 2 }]';

test('a universal\'s `hinges` in a scene file: each hinge a coordinate with its drive and limits, named by actuators', () => {
  const p = parseScene(scene(UNIVERSAL(GOOD_HINGES), ', "actuators": [{ "name": "m", "joint": "uz", "gain": [1, 0, 0], "ctrl": 0.5 }]'));
  assert.deepEqual(p.diagnostics.filter((d) => d.severity === 'error'), []);
  const u = p.scene!.constraints[0];
  assert.deepEqual(u.hinges?.map((h) => h.name), ['ux', 'uz']);
  assert.deepEqual(u.hinges?.[0].limits, [-0.5, 0.5]);
  assert.equal(u.hinges?.[0].drive.damping, 0.5);
  assert.equal(u.hinges?.[1].drive.coordinate, 0.1);
  assert.equal(p.scene!.actuators?.[0].joint, 'uz');
  const sim = new Simulation(p.scene!);
  sim.step(5);
  assert.deepEqual(sim.world.forces!.joints.map((j) => j.name), ['ux', 'uz']);
});

test('bad `hinges` and chain joint forces: CL217 on the field, and the constraint is left out', () => {
  const cases: { text: string; at: string }[] = [
    { text: scene(UNIVERSAL('[{ "name": "ux", "axis": [1, 0, 0] }]')), at: '[{ "name": "ux"' },
    { text: scene(UNIVERSAL('[{ "name": "ux", "axis": [1, 0, 0] }, { "name": "uz", "axis": [2, 0, 0] }]')), at: '[{ "name": "ux"' },
    { text: scene(UNIVERSAL('[{ "name": "ux", "axis": [1, 0, 0] }, { "name": "ux", "axis": [0, 0, 1] }]')), at: '"ux", "axis": [0, 0, 1]' },
    // two parallel hinges with a slide: a chain the engine models, whose joints have no coordinates of their own
    {
      text: scene('{ "name": "c", "type": "chain", "bodyA": "base", "bodyB": "arm", "joints": [{ "type": "hinge", "axis": [0, 1, 0] }, { "type": "hinge", "axis": [0, 1, 0], "anchor": [0.1, 0, 0] }, { "type": "slider", "axis": [0, 1, 0], "damping": 1 }] }'),
      at: '{ "type": "slider", "axis": [0, 1, 0], "damping"',
    },
  ];
  for (const c of cases) {
    const p = parseScene(c.text);
    const d = p.diagnostics.find((x) => x.code === Codes.jointCoordinates);
    assert.ok(d, `${c.text}: ${JSON.stringify(p.diagnostics)}`);
    assert.equal(d.severity, 'error');
    const lines = c.text.split('\n');
    const offset = lines.slice(0, d.range.start.line).reduce((s, l) => s + l.length + 1, 0) + d.range.start.character;
    assert.ok(c.text.startsWith(c.at, offset), `${d.message} at ${JSON.stringify(c.text.slice(offset, offset + 40))}`);
    assert.equal(p.scene?.constraints.length ?? 0, 0, 'the constraint is left out');
  }
  // a hinge named like a constraint: CL206, as for two constraints (actuators name both alike)
  const dup = parseScene(scene(`${UNIVERSAL(GOOD_HINGES)}, { "name": "uz", "type": "ball", "bodyA": "world", "bodyB": "base" }`));
  assert.ok(dup.diagnostics.some((d) => d.code === Codes.duplicateConstraintName && /"uz"|`uz`|'uz'/.test(d.message)), JSON.stringify(dup.diagnostics));
    // a hinge without a name: CL004 on the hinge
  const p = parseScene(scene(UNIVERSAL('[{ "axis": [1, 0, 0] }, { "name": "uz", "axis": [0, 0, 1] }]')));
  assert.ok(p.diagnostics.some((d) => d.code === Codes.missingField && /name/.test(d.message)), JSON.stringify(p.diagnostics));
});

const NOCOL = 'contype="0" conaffinity="0"';
const CUP = `<mujoco><option timestep="0.002"/>
<worldbody><geom type="plane" size="1 1 0.1" pos="0 0 -5"/>
<body name="base" pos="0 0 1"><joint name="h0" type="hinge" axis="0 1 0" damping="0.1"/><geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.03" mass="1" ${NOCOL}/>
<body name="cup" pos="0.3 0 0"><joint name="sx" type="slide" axis="1 0 0" stiffness="20" damping="0.5" range="-0.2 0.2"/><joint name="sz" type="slide" axis="0 0 1" stiffness="20" armature="0.1"/><geom type="capsule" fromto="0 0 0 0.2 0.1 -0.2" size="0.03" mass="1" ${NOCOL}/></body></body>
<body name="limb" pos="0 0 2"><joint name="ux" axis="1 0 0" damping="0.05"/><joint name="uz" axis="0 0 1" damping="0.02" range="-0.5 0.5"/><geom type="capsule" fromto="0 0 0 0.2 0.1 -0.2" size="0.03" mass="1" ${NOCOL}/></body></worldbody>
<tendon><fixed name="t" stiffness="1"><joint joint="ux" coef="1"/><joint joint="sx" coef="-2"/></fixed></tendon>
<actuator><motor joint="sx" gear="2" ctrlrange="-1 1"/><position joint="uz" kp="5"/><motor tendon="t"/></actuator><keyframe><key name="k" qpos="0.3 0.1 -0.05 0.2 0.1" ctrl="0.8 0.3 0.5"/></keyframe></mujoco>`;

test('Export as Scene writes a chain\'s and a universal\'s joints with their forces: actuators and tendons on them come back and run the same steps', async () => {
  const parse = await loadModel('m.xml', CUP, { keyframe: 'k' });
  assert.ok(parse.scene && !parse.hasErrors, JSON.stringify(parse.diagnostics));
  const s = parse.scene;
  assert.deepEqual(s.constraints.map((c) => c.type).sort(), ['chain', 'hinge', 'universal']);
  const text = exportScene({ scene: s, path: 'm.xml' });
  assert.deepEqual(exportErrors(text), []);
  assert.doesNotMatch(text, /Left out/);
  const back = parseScene(text);
  assert.deepEqual(back.diagnostics.filter((d) => d.severity !== 'information'), []);
  assert.deepEqual(back.scene?.actuators, s.actuators);
  assert.deepEqual(back.scene?.tendons, s.tendons);
  assert.equal(back.scene?.actuators?.length, 3);
  // the same joints and forces; the parser renormalises each axis (a change of round-off)
  const members = (cs: typeof s.constraints) => cs.map((c) => (c.chain ?? c.hinges ?? []).map((j) => ({ ...j, axis: j.axis.map((x) => Math.round(x * 1e12) / 1e12) })));
  assert.deepEqual(members(back.scene!.constraints), members(s.constraints));
  const a = new Simulation(s), b = new Simulation(back.scene!);
  assert.deepEqual(b.world.forces!.joints.map((j) => j.name), a.world.forces!.joints.map((j) => j.name));
  for (let k = 0; k < 200; k++) {
    a.step();
    b.step();
  }
  const pa = a.records[a.records.length - 1].poses, pb = b.records[b.records.length - 1].poses;
  const gap = Math.max(...Array.from(pa, (x, i) => Math.abs(x - pb[i])));
  assert.ok(gap < 1e-9, `the exported scene runs ${gap} away`);
  // the actuators act: without them the run differs
  const c = new Simulation({ ...s, actuators: [] });
  for (let k = 0; k < 200; k++) c.step();
  const pc = c.records[c.records.length - 1].poses;
  assert.ok(Math.max(...Array.from(pa, (x, i) => Math.abs(x - pc[i]))) > 1e-3);
});
