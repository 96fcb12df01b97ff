// Damping and armature between two moving bodies (and on sliders) against MuJoCo's WebAssembly: in the
// velocity formulation they are one compliant row per joint (contact/jointRows.ts, U + σ·R = q̇⁻ with
// σ = h/(a + h·d)), which is MuJoCo's (M + h·D + A)·Δq̇ exactly. Checked
//  - one step from rest at several configurations (a double pendulum with damping and armature on the
//    elbow, a slider on a swinging arm): from rest the two integrators' steps are the same equations,
//    so they agree to round-off (the slider to its chord drift), where the per-body approximations of
//    the other formulations do not;
//  - 500 steps of two coaxial rotors with damping and armature between them: the centres of mass stay
//    on the axis, so what is left is the quaternion step's (ω·h)³/12 per step (forces-mujoco.test.ts);
//  - a two-link chain whose elbow has stiff damping (h·b ≫ the links' inertia) and a servo with a
//    velocity term, under implicitfast: 1 s against MuJoCo.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { parseScene, Simulation, type SceneSpec } from '../../src/engine';
import { loadModel, nodeFileAccess } from '../../src/import/index';
import { FIXTURES } from './import-helpers';
import { jointAngles, mujocoRun } from './forces-helpers';

/** A far floor: the model has collision geoms, so the importer picks the velocity formulation. */
const FLOOR = '<geom type="plane" size="1 1 0.1" pos="0 0 -5"/>';
const NOCOL = 'contype="0" conaffinity="0"';

const PENDULUM = (j1: string, j2: string, key: string) => `<mujoco><option timestep="0.002"/><compiler angle="radian"/>
<worldbody>${FLOOR}<body name="l1" pos="0 0 1"><joint name="a" type="hinge" axis="0 1 0" ${j1}/><geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.03" mass="1" ${NOCOL}/>
<body name="l2" pos="0.3 0 0"><joint name="b" type="hinge" axis="0 1 0" ${j2}/><geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.03" mass="1" ${NOCOL}/></body></body></worldbody>
<keyframe><key name="k" ${key}/></keyframe></mujoco>`;

const SLIDER = (j2: string, key: string) => `<mujoco><option timestep="0.002"/><compiler angle="radian"/>
<worldbody>${FLOOR}<body name="l1" pos="0 0 1"><joint name="a" type="hinge" axis="0 1 0" damping="0.01"/><geom type="capsule" fromto="0 0 0 0.4 0 0" size="0.03" mass="1" ${NOCOL}/>
<body name="l2" pos="0.2 0 0"><joint name="b" type="slide" axis="1 0 0.2" ${j2}/><geom type="box" size="0.05 0.05 0.05" mass="0.5" ${NOCOL}/></body></body></worldbody>
<keyframe><key name="k" ${key}/></keyframe></mujoco>`;

const ROTORS = (j1: string, j2: string) => `<mujoco><option timestep="0.002"/><compiler angle="radian"/>
<worldbody>${FLOOR}<body name="r1" pos="0 0 1"><joint name="a" type="hinge" axis="0 0 1" ${j1}/><geom type="cylinder" size="0.1 0.02" mass="1" ${NOCOL}/>
<body name="r2" pos="0 0 0.1"><joint name="b" type="hinge" axis="0 0 1" ${j2}/><geom type="cylinder" size="0.08 0.02" mass="1" ${NOCOL}/></body></body></worldbody>
<keyframe><key name="k" qvel="3 -2"/></keyframe></mujoco>`;

const TIGHT = { iterations: 2000, tolerance: 1e-14 };

/** The imported model (keyframe `k`), stepped `steps` times: the coordinates of joints a and b after each step. */
async function engineRun(xml: string, steps: number, edit?: (s: SceneSpec) => void): Promise<number[][]> {
  const parse = await loadModel(join(FIXTURES, 'drives.xml'), xml, { files: nodeFileAccess(FIXTURES), keyframe: 'k' });
  assert.ok(parse.scene && !parse.hasErrors, JSON.stringify(parse.diagnostics));
  const scene = parse.scene;
  assert.equal(scene.solver.formulation, 'velocity');
  scene.solver.pgs = { ...TIGHT };
  edit?.(scene);
  const sim = new Simulation(scene, parse.sourceMap);
  const names = sim.world.forces!.joints.map((j) => j.name);
  assert.deepEqual(names, ['a', 'b']);
  return jointAngles(sim, steps);
}

const gap = (x: readonly number[], y: readonly number[]) => Math.max(...x.map((v, i) => Math.abs(v - y[i])));

test('one step from rest: damping and armature on an elbow between two moving links, as MuJoCo\'s Euler to round-off', async () => {
  for (const [j2, what] of [
    ['damping="20"', 'stiff damping (h·b/I ≈ 4)'],
    ['damping="0.3" armature="0.05"', 'damping and armature'],
    ['damping="500" armature="0.2" stiffness="5"', 'very stiff damping, armature, spring'],
  ] as const) {
    for (const qpos of ['0.3 0.5', '-1.2 2', '2.5 -0.7']) {
      const xml = PENDULUM('damping="0.01" armature="0.02"', j2, `qpos="${qpos}"`);
      const ref = await mujocoRun(xml, 1);
      const [q] = await engineRun(xml, 1);
      const e = gap(q, ref.q[0]);
      assert.ok(e < 1e-12, `${what} at ${qpos}: q ${q} vs MuJoCo ${ref.q[0]} (${e})`);
      // the per-body approximation (acceleration formulation, where the importer drops the armature and
      // each end takes 2·h·d of the damping) is visibly off: the comparison can fail
      const approx = await engineRun(xml, 1, (s) => {
        s.solver.formulation = 'acceleration';
        s.solver.contacts.enabled = false;
      });
      assert.ok(gap(approx[0], ref.q[0]) > 1e3 * Math.max(e, 1e-15), `${what}: the approximation is not distinguishable`);
    }
  }
});

test('one step from rest: damping and armature of a slider on a swinging arm, as MuJoCo\'s Euler to round-off', async () => {
  for (const qpos of ['0.4 0.05', '-1 -0.1']) {
    const xml = SLIDER('damping="30" armature="0.4" stiffness="10"', `qpos="${qpos}"`);
    const ref = await mujocoRun(xml, 1);
    const [q] = await engineRun(xml, 1);
    // a slider's coordinate is read from the centres of mass, which the step moves along chords: the
    // joint's own drift, (h·v)²/r ≈ 1e-9 m here, is what is left
    const e = gap(q, ref.q[0]);
    assert.ok(e < 5e-9, `at ${qpos}: q ${q} vs MuJoCo ${ref.q[0]} (${e})`);
    const approx = await engineRun(xml, 1, (s) => {
      s.solver.formulation = 'acceleration';
      s.solver.contacts.enabled = false;
    });
    assert.ok(gap(approx[0], ref.q[0]) > 1e-6, 'the explicit slider damping without armature is not distinguishable');
  }
});

test('two coaxial rotors with damping and armature between them: 1 s step by step as MuJoCo', async () => {
  for (const j2 of ['damping="0.01"', 'damping="0.5"', 'damping="5"', 'damping="50"', 'armature="0.01" damping="0.2"', 'armature="0.1"']) {
    const xml = ROTORS('damping="0.1" armature="0.005"', j2);
    const ref = await mujocoRun(xml, 500);
    const q = await engineRun(xml, 500);
    // the quaternion step's error (ω·h)³/12 per step and body, ω ≤ |q̇_a| + |q̇_b|, plus 1e-6
    let tol = 1e-6;
    for (let k = 0; k < 500; k++) {
      const w = Math.abs(ref.qvel[k][0]) + Math.abs(ref.qvel[k][1]);
      tol += (2 * (w * 0.002) ** 3) / 12;
      const e = gap(q[k], ref.q[k]);
      assert.ok(e <= tol, `${j2}: step ${k + 1}: q ${q[k]} vs MuJoCo ${ref.q[k]} (|Δ| ${e.toExponential(2)} > ${tol.toExponential(2)})`);
    }
    assert.ok(Math.abs(ref.q[499][1]) > 0.05 || Math.abs(ref.q[499][0]) > 0.05, `${j2}: the rotors hardly move`);
  }
});

test('a two-link chain with stiff elbow damping and a servo with a velocity term (implicitfast): 1 s as MuJoCo', async () => {
  const xml = `<mujoco><option timestep="0.002" integrator="implicitfast"/><worldbody>${FLOOR}
    <body name="A" pos="0.3 0 0"><joint name="a" pos="-0.3 0 0" axis="0 1 0" damping="5" armature="0.1"/><inertial pos="0 0 0" mass="1" diaginertia="0.01 0.01 0.02"/>
    <body name="B" pos="0.3 0 0"><joint name="b" pos="-0.15 0 0" axis="0 1 0" damping="500" stiffness="10"/><inertial pos="0 0 0" mass="1" diaginertia="0.01 0.01 0.02"/></body></body></worldbody>
    <actuator><general joint="b" gainprm="100" biastype="affine" biasprm="0 -100 -10"/></actuator><keyframe><key name="k" ctrl="0.5"/></keyframe></mujoco>`;
  const ref = await mujocoRun(xml, 500);
  const q = await engineRun(xml, 500);
  // the links swing (not rotors): the two first-order integrators part by O(h) per unit time
  const worst = Math.max(...q.map((x, k) => gap(x, ref.q[k])));
  assert.ok(worst < 1e-5, `|q − q_MuJoCo| ${worst}`);
  assert.ok(ref.q[499][0] > 1, 'the chain swings down');
});

test('scene files: a damped hinge between moving bodies is a drive row of the velocity formulation only', () => {
  const doc = (formulation: string) => ({
    solver: { dt: 0.002, formulation },
    bodies: [
      { name: 'A', mass: 1, inertia: [0.01, 0.01, 0.02], position: [0.3, 0, 0] },
      { name: 'B', mass: 1, inertia: [0.01, 0.01, 0.02], position: [0.6, 0, 0] },
    ],
    constraints: [
      { name: 'j', type: 'hinge', bodyA: 'world', bodyB: 'A', anchorB: [-0.3, 0, 0], axisA: [0, 1, 0], damping: 5 },
      { name: 'k', type: 'hinge', bodyA: 'A', bodyB: 'B', anchorA: [0.15, 0, 0], anchorB: [-0.15, 0, 0], axisA: [0, 1, 0], damping: 50 },
    ],
  });
  for (const f of ['velocity', 'acceleration', 'nonlinear']) {
    const { scene } = parseScene(JSON.stringify(doc(f)));
    const sim = new Simulation(scene!);
    assert.deepEqual(sim.world.forces!.joints.map((j) => !!j.row), [false, f === 'velocity'], f);
    sim.step(10);
    assert.equal(sim.stopped, false, f);
    // the drive rows are the joints' damping: the snapshot's joint rows (limits, friction loss) do not list them
    assert.equal((sim.records.at(-1)?.jointRows ?? []).length, 0);
  }
});
