// The joints of a chain constraint (slides, a planar root, two or three hinges whose axes miss: model/chain.ts) keep
// each joint's coordinate, MuJoCo's qpos for it, with its limits, damping, stiffness, armature and
// actuators (model/chainCoordinate.ts, scene/hingeGroups.ts), checked against MuJoCo's WebAssembly step
// by step on a body hung from a swinging base. Maximal and joint coordinates under two first-order
// integrators part by O(h) per unit time once the base swings: each run is compared at dt = 0.002 and
// dt = 0.0005, and the gap must shrink with h (a wrong force leaves a gap that does not).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Simulation } from '../../src/engine';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareWithMujoco, loadModel, nodeFileAccess } from '../../src/import/index';
import { jointAngles, mujocoRun } from './forces-helpers';
import { FIXTURES } from './import-helpers';

const NOCOL = 'contype="0" conaffinity="0"';
/** A body on `joints` at the end of a base arm that swings about y; a far floor makes the importer pick the velocity formulation. */
const model = (dt: number, joints: string, actuators: string, key: string) => `<mujoco><option timestep="${dt}"/><compiler angle="radian"/>
<worldbody><geom type="plane" size="1 1 0.1" pos="0 0 -5"/>
<body name="base" pos="0 0 1"><joint name="h0" type="hinge" axis="0 1 0" damping="0.1"/><geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.03" mass="1" ${NOCOL}/>
<body name="cup" pos="0.3 0 0">${joints}<geom type="capsule" fromto="0 0 0 0.2 0.1 -0.2" size="0.03" mass="1" ${NOCOL}/></body></body></worldbody>
<actuator>${actuators}</actuator><keyframe><key name="k" ${key}/></keyframe></mujoco>`;

async function engineRun(xml: string, steps: number, names: string[]): Promise<number[][]> {
  const parse = await loadModel('m.xml', xml, { keyframe: 'k' });
  assert.ok(parse.scene && !parse.hasErrors, JSON.stringify(parse.diagnostics));
  const scene = parse.scene;
  assert.equal(scene.solver.formulation, 'velocity');
  assert.ok(scene.constraints.some((c) => c.type === 'chain'), 'the joints are not a chain');
  assert.ok(!parse.diagnostics.some((d) => /damping|stiffness|armature|limits|actuators|friction/.test(d.message)), parse.diagnostics.map((d) => d.message).join('\n'));
  scene.solver.pgs = { ...scene.solver.pgs, iterations: 2000, tolerance: 1e-14 };
  const sim = new Simulation(scene, parse.sourceMap);
  assert.deepEqual(sim.world.forces!.joints.map((j) => j.name), names);
  return jointAngles(sim, steps);
}

/** The largest |q − q_MuJoCo| over 1 s at step dt, and the runs. */
async function gapOver1s(dt: number, joints: string, actuators: string, key: string, names: string[]): Promise<{ gap: number; q: number[][]; ref: number[][] }> {
  const xml = model(dt, joints, actuators, key);
  const steps = Math.round(1 / dt);
  const ref = (await mujocoRun(xml, steps)).q;
  const q = await engineRun(xml, steps, names);
  let gap = 0;
  q.forEach((x, k) => x.forEach((v, i) => (gap = Math.max(gap, Math.abs(v - ref[k][i])))));
  return { gap, q, ref };
}

const SLIDES = '<joint name="sx" type="slide" axis="1 0 0" stiffness="20" springref="0.05" damping="0.5"/><joint name="sz" type="slide" axis="0 0 1" stiffness="20" damping="0.5" armature="0.1"/>';

test('a body on two slides with stiffness, damping, armature and motors (dm_control ball_in_cup’s cup): 1 s as MuJoCo, converging with h', async () => {
  const actuators = '<motor joint="sx" gear="2" ctrlrange="-1 1"/><motor joint="sz" gear="5"/>';
  const key = 'qpos="0.3 0.1 -0.05" ctrl="0.8 1"';
  const coarse = await gapOver1s(0.002, SLIDES, actuators, key, ['h0', 'sx', 'sz']);
  const fine = await gapOver1s(0.0005, SLIDES, actuators, key, ['h0', 'sx', 'sz']);
  // measured: 3.2e-3 at dt 0.002, 8.0e-4 at dt 0.0005
  assert.ok(coarse.gap < 0.01, `|q − q_MuJoCo| ${coarse.gap} at dt 0.002`);
  assert.ok(fine.gap < 0.35 * coarse.gap, `the gap does not shrink with h (${coarse.gap} → ${fine.gap})`);
  // the motors and the springs move the slides well away from where they start
  const moved = Math.max(...coarse.ref.map((x) => Math.abs(x[2] - 0.1)), ...coarse.ref.map((x) => Math.abs(x[1] + 0.05)));
  assert.ok(moved > 0.05, `the slides hardly move (${moved})`);
  // without the motors the run differs by far more than the gap
  const free = await gapOver1s(0.002, SLIDES, '', 'qpos="0.3 0.1 -0.05"', ['h0', 'sx', 'sz']);
  const effect = Math.max(...coarse.ref.map((x, k) => Math.max(...x.map((v, i) => Math.abs(v - free.ref[k][i])))));
  assert.ok(effect > 5 * coarse.gap, `the motors make no visible difference (${effect} against a gap of ${coarse.gap})`);
});

// Two hinges whose axes miss each other by 2 cm (MuJoCo's humanoid's ankles)
const ANKLE = (range: string) => `<joint name="ay" axis="0 1 0" pos="0 0 0.02" damping="0.05" ${range}/><joint name="ax" axis="1 0 0.5" pos="0.01 0 0" damping="0.05" armature="0.01"/>`;

test('two hinges whose axes miss, with damping, armature and a position servo: 1 s as MuJoCo, converging with h', async () => {
  const actuators = '<position joint="ax" kp="5"/>';
  const key = 'qpos="0.4 0.3 0.1" ctrl="0.4"';
  const coarse = await gapOver1s(0.002, ANKLE(''), actuators, key, ['h0', 'ay', 'ax']);
  const fine = await gapOver1s(0.0005, ANKLE(''), actuators, key, ['h0', 'ay', 'ax']);
  // measured: 5.5e-3 at dt 0.002, 1.5e-3 at dt 0.0005
  assert.ok(coarse.gap < 0.05, `|q − q_MuJoCo| ${coarse.gap} at dt 0.002`);
  assert.ok(fine.gap < 0.35 * coarse.gap, `the gap does not shrink with h (${coarse.gap} → ${fine.gap})`);
  const free = await gapOver1s(0.002, ANKLE(''), '', 'qpos="0.4 0.3 0.1"', ['h0', 'ay', 'ax']);
  const effect = Math.max(...coarse.ref.map((x, k) => Math.max(...x.map((v, i) => Math.abs(v - free.ref[k][i])))));
  assert.ok(effect > 5 * coarse.gap, `the servo makes no visible difference (${effect} against a gap of ${coarse.gap})`);
});

test('a limit on a hinge of a chain: soft as MuJoCo\'s, the hinge sinks past its bound on impact as far as MuJoCo\'s', async () => {
  const actuators = '<position joint="ax" kp="5"/>';
  const key = 'qpos="0.4 0.3 0.1" ctrl="0.4"';
  const { q, ref } = await gapOver1s(0.002, ANKLE('range="-0.2 0.5"'), actuators, key, ['h0', 'ay', 'ax']);
  const lowest = Math.min(...q.map((x) => x[1]));
  const lowestMj = Math.min(...ref.map((x) => x[1]));
  // measured: the engine −0.2538, MuJoCo's −0.2520 on impact (a hard bound stopped at −0.200005)
  assert.ok(lowestMj < -0.24, `MuJoCo's ay does not sink past its bound (${lowestMj})`);
  assert.ok(Math.abs(lowest - lowestMj) < 5e-3, `the engine's lowest ay ${lowest} against MuJoCo's ${lowestMj}`);
  const end = q[q.length - 1], endMj = ref[ref.length - 1];
  end.forEach((x, i) => assert.ok(Math.abs(x - endMj[i]) < 0.01, `joint ${i} at 1 s: ${x} vs MuJoCo ${endMj[i]}`));
  // without the limit the hinge swings on past it
  const open = await gapOver1s(0.002, ANKLE(''), actuators, key, ['h0', 'ay', 'ax']);
  assert.ok(Math.min(...open.ref.map((x) => x[1])) < -0.3, 'the limit is never needed');
});

test('a planar root (slide, slide, hinge) with springs, damping, armature and a motor on the hinge: 1 s as MuJoCo, converging with h', async () => {
  const joints = '<joint name="px" type="slide" axis="1 0 0" stiffness="30" damping="1"/><joint name="pz" type="slide" axis="0 0 1" stiffness="30" damping="1"/><joint name="py" axis="0 1 0" pos="0.05 0 0" damping="0.05" armature="0.01"/>';
  const actuators = '<motor joint="py" gear="0.5"/>';
  const key = 'qpos="0.3 0.05 -0.05 0.4" ctrl="1"';
  const names = ['h0', 'px', 'pz', 'py'];
  const coarse = await gapOver1s(0.002, joints, actuators, key, names);
  const fine = await gapOver1s(0.0005, joints, actuators, key, names);
  // measured: 2.0e-3 at dt 0.002, 5.0e-4 at dt 0.0005; the motor turns py by 1.6 rad
  assert.ok(coarse.gap < 0.05, `|q − q_MuJoCo| ${coarse.gap} at dt 0.002`);
  assert.ok(fine.gap < 0.35 * coarse.gap, `the gap does not shrink with h (${coarse.gap} → ${fine.gap})`);
  assert.ok(Math.max(...coarse.ref.map((x) => Math.abs(x[3] - 0.4))) > 0.5, 'the motor hardly turns the hinge');
});

// Three hinges whose axes miss each other (dm_control's dog's scapula): every rotation, the translation the angles give
const SCAPULA = (s1: string, s2: string, s3: string) =>
  `<joint name="s1" axis="0 0 1" pos="-0.03 -0.02 0" ${s1}/><joint name="s2" axis="1 0 0" pos="0 -0.05 -0.07" ${s2}/><joint name="s3" axis="0.3 1 0" pos="0 0 0" ${s3}/>`;
const SCAPULA_NAMES = ['h0', 's1', 's2', 's3'];

// the middle hinge's spring keeps it far from ±π/2, where the first and last axes turn parallel
const DAMPED = SCAPULA('damping="0.05" stiffness="0.5"', 'damping="0.05" stiffness="1" armature="0.01"', 'damping="0.02"');
const SCAPULA_ACTUATORS = '<motor joint="s1" gear="0.2"/><position joint="s3" kp="2"/>';
const SCAPULA_KEY = 'qpos="0.4 0.3 -0.2 0.5" ctrl="1 -0.3"';

test('three hinges whose axes miss (the dog\'s scapula) with damping, stiffness, armature, a motor and a position servo: 1 s as MuJoCo, converging with h', async () => {
  const coarse = await gapOver1s(0.002, DAMPED, SCAPULA_ACTUATORS, SCAPULA_KEY, SCAPULA_NAMES);
  const fine = await gapOver1s(0.0005, DAMPED, SCAPULA_ACTUATORS, SCAPULA_KEY, SCAPULA_NAMES);
  // measured: 9.2e-3 at dt 0.002, 2.4e-3 at dt 0.0005
  assert.ok(coarse.gap < 0.05, `|q − q_MuJoCo| ${coarse.gap} at dt 0.002`);
  assert.ok(fine.gap < 0.35 * coarse.gap, `the gap does not shrink with h (${coarse.gap} → ${fine.gap})`);
  // every hinge turns well away from where it starts
  [1, 2, 3].forEach((i) => assert.ok(Math.max(...coarse.ref.map((x) => Math.abs(x[i] - coarse.ref[0][i]))) > 0.2, `s${i} hardly moves`));
  // without the actuators the run differs by far more than the gap
  const free = await gapOver1s(0.002, DAMPED, '', 'qpos="0.4 0.3 -0.2 0.5"', SCAPULA_NAMES);
  const effect = Math.max(...coarse.ref.map((x, k) => Math.max(...x.map((v, i) => Math.abs(v - free.ref[k][i])))));
  assert.ok(effect > 5 * coarse.gap, `the actuators make no visible difference (${effect} against a gap of ${coarse.gap})`);
});

test('three hinges whose axes miss with a slide among them (springs, damping, a motor on the slide): 1 s as MuJoCo, converging with h', async () => {
  const joints = '<joint name="s1" axis="0 0 1" pos="-0.03 -0.02 0" damping="0.05" stiffness="0.5"/><joint name="sl" type="slide" axis="1 0.5 0" stiffness="20" damping="0.5"/>'
    + '<joint name="s2" axis="1 0 0" pos="0 -0.05 -0.07" damping="0.05" stiffness="1" armature="0.01"/><joint name="s3" axis="0.3 1 0" pos="0 0 0" damping="0.02"/>';
  const names = ['h0', 's1', 'sl', 's2', 's3'];
  const key = 'qpos="0.4 0.3 0.05 -0.2 0.5" ctrl="1"';
  const coarse = await gapOver1s(0.002, joints, '<motor joint="sl" gear="2"/>', key, names);
  const fine = await gapOver1s(0.0005, joints, '<motor joint="sl" gear="2"/>', key, names);
  // measured: 4.1e-3 at dt 0.002, 9.8e-4 at dt 0.0005
  assert.ok(coarse.gap < 0.05, `|q − q_MuJoCo| ${coarse.gap} at dt 0.002`);
  assert.ok(fine.gap < 0.35 * coarse.gap, `the gap does not shrink with h (${coarse.gap} → ${fine.gap})`);
  assert.ok(Math.max(...coarse.ref.map((x) => Math.abs(x[2] - 0.05))) > 0.02, 'the slide hardly moves');
});

test('a limit on the middle hinge of three whose axes miss: soft as MuJoCo\'s, reached and held as MuJoCo holds it', async () => {
  const joints = (range: string) => SCAPULA('damping="0.05" stiffness="0.5"', `damping="0.05" armature="0.01" ${range}`, 'damping="0.02"');
  const { q, ref } = await gapOver1s(0.002, joints('range="-0.4 0.6"'), SCAPULA_ACTUATORS, SCAPULA_KEY, SCAPULA_NAMES);
  const low = Math.min(...ref.map((x) => x[2]));
  const lowOurs = Math.min(...q.map((x) => x[2]));
  assert.ok(low < -0.41, `MuJoCo's s2 does not sink past its bound (${low})`);
  // measured: the engine −0.4147, MuJoCo −0.4208 at dt 0.002; −0.4181 and −0.4199 at dt 0.0005
  assert.ok(Math.abs(lowOurs - low) < 1e-2, `the engine's lowest s2 ${lowOurs} against MuJoCo's ${low}`);
  const fine = await gapOver1s(0.0005, joints('range="-0.4 0.6"'), SCAPULA_ACTUATORS, SCAPULA_KEY, SCAPULA_NAMES);
  const lowFine = Math.min(...fine.q.map((x) => x[2])), lowFineMj = Math.min(...fine.ref.map((x) => x[2]));
  assert.ok(Math.abs(lowFine - lowFineMj) < 0.35 * Math.abs(lowOurs - low), `the lowest s2 does not converge with h (${lowOurs - low} → ${lowFine - lowFineMj})`);
  const end = q[q.length - 1], endMj = ref[ref.length - 1];
  end.forEach((x, i) => assert.ok(Math.abs(x - endMj[i]) < 0.02, `joint ${i} at 1 s: ${x} vs MuJoCo ${endMj[i]}`));
  // without the limit the hinge swings on past it
  const open = await gapOver1s(0.002, joints(''), SCAPULA_ACTUATORS, SCAPULA_KEY, SCAPULA_NAMES);
  assert.ok(Math.min(...open.ref.map((x) => x[2])) < -0.5, 'the limit is never needed');
});

test('Compare with MuJoCo reads each joint of a chain and of a universal by its own coordinate', async () => {
  // no actuators: the joints' coordinates are what is checked here
  const xml = model(0.002, ANKLE(''), '', 'qpos="0.4 0.3 0.1"')
    .replace('</worldbody>', `<body name="limb" pos="0 0 3"><joint name="ux" axis="1 0 0" damping="0.05"/><joint name="uz" axis="0 0 1"/><geom type="capsule" fromto="0 0 0 0.2 0.1 -0.2" size="0.03" mass="1" ${NOCOL}/></body></worldbody>`)
    .replace('qpos="0.4 0.3 0.1"', 'qpos="0.4 0.3 0.1 0.2 -0.3"');
  const parse = await loadModel('m.xml', xml, { keyframe: 'k' });
  assert.ok(parse.scene && !parse.hasErrors, JSON.stringify(parse.diagnostics));
  const c = await compareWithMujoco(parse, 200);
  const t = c.trajectory!;
  assert.deepEqual(t.joints.map((j) => [j.name, j.why]), [['h0', undefined], ['ay', undefined], ['ax', undefined], ['ux', undefined], ['uz', undefined]]);
  for (const j of t.joints) {
    assert.ok(Math.abs(j.ours.q[0] - j.mujoco.q[0]) < 1e-12, j.name);
    // measured: 0.9e-3 to 4.4e-3 over 0.4 s at dt 0.002 (the swing parts the runs by O(h))
    assert.ok(j.dq.max < 0.02, `${j.name}: max |Δq| ${j.dq.max}`);
  }
  for (const k of [1, 2, 3, 4]) assert.ok(Math.max(...t.joints[k].mujoco.q) - Math.min(...t.joints[k].mujoco.q) > 0.02, `${t.joints[k].name} hardly moves`);
});

test('MuJoCo\'s humanoid: the ankles (two hinges whose axes miss) keep their limits, stiffness and motors', async () => {
  const dir = join(FIXTURES, 'public', 'humanoid');
  const parse = await loadModel(join(dir, 'humanoid.xml'), readFileSync(join(dir, 'humanoid.xml'), 'utf8'), { files: nodeFileAccess(dir) });
  assert.ok(parse.scene && !parse.hasErrors);
  assert.ok(!(parse.notSimulated ?? []).some((c) => /joint|actuator/.test(c.category)), JSON.stringify(parse.notSimulated));
  const ankles = parse.scene.constraints.filter((c) => c.type === 'chain').flatMap((c) => c.chain ?? []);
  assert.deepEqual(ankles.map((j) => j.name).sort(), ['ankle_x_left', 'ankle_x_right', 'ankle_y_left', 'ankle_y_right']);
  for (const j of ankles) {
    // range -50 50 degrees
    assert.ok(j.limits && Math.abs(j.limits[1] - (50 * Math.PI) / 180) < 1e-12, `${j.name}: ${JSON.stringify(j.limits)}`);
    assert.ok(parse.scene.actuators?.some((a) => a.joint === j.name), `${j.name} has no motor`);
  }
  assert.ok(ankles.filter((j) => j.name?.startsWith('ankle_y')).every((j) => j.drive?.stiffness === 6));
});
