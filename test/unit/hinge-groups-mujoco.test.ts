// Hinges through one point (a universal for two, a ball for three) keep each hinge's angle, MuJoCo's
// qpos for that joint, with its damping, stiffness, armature, limits and actuators (model/hingeGroup.ts,
// scene/hingeGroups.ts), checked against MuJoCo's WebAssembly step by step on a limb hung from a
// swinging base. The engine steps maximal coordinates and MuJoCo joint coordinates, two first-order
// integrators that part by O(h) per unit time once the limb swings in 3D: so each run is compared at
// dt = 0.002 and dt = 0.0005, and the gap must shrink with h (a wrong force leaves a gap that does not).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Simulation } from '../../src/engine';
import { loadModel } from '../../src/import/index';
import { jointAngles, mujocoRun } from './forces-helpers';

const NOCOL = 'contype="0" conaffinity="0"';
/** A limb on `joints` at the end of a base arm that swings about y; a far floor makes the importer pick the velocity formulation. */
const model = (dt: number, joints: string, actuators: string, key: string) => `<mujoco><option timestep="${dt}"/><compiler angle="radian"/>
<worldbody><geom type="plane" size="1 1 0.1" pos="0 0 -5"/>
<body name="base" pos="0 0 1"><joint name="h0" type="hinge" axis="0 1 0" damping="0.1"/><geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.03" mass="1" ${NOCOL}/>
<body name="limb" pos="0.3 0 0">${joints}<geom type="capsule" fromto="0 0 0 0.2 0.1 -0.2" size="0.03" mass="1" ${NOCOL}/></body></body></worldbody>
<actuator>${actuators}</actuator><keyframe><key name="k" ${key}/></keyframe></mujoco>`;

/** The engine's coordinates of the driven joints after each step, from the key `k`. */
async function engineRun(xml: string, steps: number, names: string[]): Promise<number[][]> {
  const parse = await loadModel('m.xml', xml, { keyframe: 'k' });
  assert.ok(parse.scene && !parse.hasErrors, JSON.stringify(parse.diagnostics));
  const scene = parse.scene;
  assert.equal(scene.solver.formulation, 'velocity');
  assert.ok(!parse.diagnostics.some((d) => /damping|armature|limits|actuators/.test(d.message)), parse.diagnostics.map((d) => d.message).join('\n'));
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

const UNIVERSAL = ['h0', 'ux', 'uz'];
const BALL = ['h0', 'ux', 'uz', 'uy'];

test('two and three hinges through a point with damping, stiffness and armature: 1 s as MuJoCo, converging with h', async () => {
  const cases = [
    { joints: '<joint name="ux" axis="1 0 0" damping="0.05" armature="0.01"/><joint name="uz" axis="0 0 1" damping="0.02" armature="0.02" stiffness="0.5"/>', key: 'qpos="0.3 0.2 -0.4"', names: UNIVERSAL },
    { joints: '<joint name="ux" axis="1 0 0" damping="0.05" armature="0.01"/><joint name="uz" axis="0 0 1" damping="0.02" springref="0.3" stiffness="0.3"/><joint name="uy" axis="0 1 0" damping="0.03" armature="0.01"/>', key: 'qpos="0.3 0.2 -0.4 0.5"', names: BALL },
    // oblique axes (dm_control's shoulders) and a joint reference
    { joints: '<joint name="ux" axis="2 1 1" damping="0.05" armature="0.02" ref="0.2"/><joint name="uz" axis="0 -1 1" damping="0.02" armature="0.01"/>', key: 'qpos="0.1 0.5 0.3"', names: UNIVERSAL },
  ];
  for (const c of cases) {
    const coarse = await gapOver1s(0.002, c.joints, '', c.key, c.names);
    const fine = await gapOver1s(0.0005, c.joints, '', c.key, c.names);
    // measured: 1.4e-3, 5.2e-3 and 2.4e-2 (the oblique limb turns by 1.6 rad) at dt 0.002, a quarter of that at dt 0.0005
    assert.ok(coarse.gap < 0.05, `${c.joints}: |q − q_MuJoCo| ${coarse.gap} at dt 0.002`);
    assert.ok(fine.gap < 0.35 * coarse.gap, `${c.joints}: the gap does not shrink with h (${coarse.gap} → ${fine.gap})`);
    // the limb swings well away from its initial angles
    const moved = Math.max(...coarse.ref.map((x) => Math.abs(x[1] - coarse.ref[0][1])));
    assert.ok(moved > 0.1, `${c.joints}: the limb hardly moves (${moved})`);
  }
});

test('a motor and a position servo on hinges through a point: 1 s as MuJoCo, converging with h', async () => {
  const joints = '<joint name="ux" axis="1 0 0" damping="0.05"/><joint name="uz" axis="0 0 1" damping="0.02" armature="0.01"/><joint name="uy" axis="0 1 0" damping="0.03"/>';
  const actuators = '<motor joint="ux" gear="2" ctrlrange="-1 1"/><position joint="uz" kp="5"/><position joint="uy" kp="3" kv="0.2"/>';
  const key = 'qpos="0.3 0.2 -0.4 0.5" ctrl="0.1 0.2 -0.3"';
  const coarse = await gapOver1s(0.002, joints, actuators, key, BALL);
  const fine = await gapOver1s(0.0005, joints, actuators, key, BALL);
  // measured: 0.13 rad at dt 0.002 (the servos swing the limb hard), 0.035 at dt 0.0005
  assert.ok(coarse.gap < 0.2, `|q − q_MuJoCo| ${coarse.gap} at dt 0.002`);
  assert.ok(fine.gap < 0.35 * coarse.gap, `the gap does not shrink with h (${coarse.gap} → ${fine.gap})`);
  // the servos hold their hinges near their targets where the unactuated limb swings freely
  const free = await gapOver1s(0.002, joints, '', 'qpos="0.3 0.2 -0.4 0.5"', BALL);
  const effect = Math.max(...coarse.ref.map((x, k) => Math.max(...x.map((v, i) => Math.abs(v - free.ref[k][i])))));
  assert.ok(effect > 5 * coarse.gap, `the actuators make no visible difference (${effect} against a gap of ${coarse.gap})`);
});

test('a limit on a hinge of a group is soft as MuJoCo\'s: the engine sinks past the bound as far as MuJoCo', async () => {
  // uz swings down towards its lower bound −0.5 and rests on it
  for (const [joints, names, key] of [
    ['<joint name="ux" axis="1 0 0" damping="0.05" armature="0.01"/><joint name="uz" axis="0 0 1" damping="0.05" range="-0.5 0.8" armature="0.01"/>', UNIVERSAL, 'qpos="1.2 0.2 0.3"'],
    ['<joint name="ux" axis="1 0 0" damping="0.05"/><joint name="uz" axis="0 0 1" damping="0.05" range="-0.5 0.8" armature="0.01"/><joint name="uy" axis="0 1 0" damping="0.05" range="-0.3 0.3"/>', BALL, 'qpos="1.2 0.2 0.3 0"'],
  ] as const) {
    const { q, ref } = await gapOver1s(0.002, joints, '', key, [...names]);
    const lowest = Math.min(...q.map((x) => x[2]));
    const lowestMj = Math.min(...ref.map((x) => x[2]));
    assert.ok(lowestMj < -0.49, `MuJoCo's uz does not reach its bound (${lowestMj})`);
    // soft rows, as MuJoCo's: past the bound by as much as MuJoCo's
    assert.ok(lowestMj < -0.51 && lowest < -0.51, `both sink past the bound (${lowest}, MuJoCo ${lowestMj})`);
    assert.ok(Math.abs(lowest - lowestMj) < 3e-3, `the engine's lowest uz ${lowest} vs MuJoCo's ${lowestMj}`);
    // the same swing on either side of the limit
    const end = q[q.length - 1], endMj = ref[ref.length - 1];
    assert.ok(Math.abs(end[2] - endMj[2]) < 2e-3, `uz at 1 s: ${end[2]} vs MuJoCo ${endMj[2]}`);
    // without the limit the limb swings on past it
    const open = await gapOver1s(0.002, joints.replace(/ range="[^"]*"/g, ''), '', key, [...names]);
    assert.ok(Math.min(...open.ref.map((x) => x[2])) < -0.6, 'the limit is never needed');
  }
});
