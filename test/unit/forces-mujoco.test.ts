// Joint damping, stiffness with springref, armature, gravity compensation and actuators (motor,
// position, velocity, general affine; gear; ctrlrange and forcerange clamping) against MuJoCo's
// WebAssembly as the oracle: a single-joint model each, no contacts, stepped side by side in the
// velocity formulation (and the acceleration formulation where said), the joint coordinate compared
// after every step.
// Why the tolerances hold: the models are rotors (centre of mass on the hinge axis) or sliders, so the
// maximal-coordinate step moves no centre of mass along a chord; both integrators are semi-implicit
// (q̇⁺ from the forces at q, q̇ with the damping implicit, then q⁺ = q + h·q̇⁺). What is left is the
// engine's quaternion step: a rotation of 2·atan(ω·h/2) instead of ω·h, (ω·h)³/12 per step, which is
// what `tolerance` adds up (1e-6 rad on top for round-off and the erp correction).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Simulation, type SceneSpec } from '../../src/engine';
import { loadModel, nodeFileAccess } from '../../src/import/index';
import { FIXTURES } from './import-helpers';
import { mujocoRun } from './forces-helpers';

/** The imported model in the velocity formulation (or `formulation`): the driven joints' coordinates after each step. */
async function engineRun(xml: string, steps: number, formulation: SceneSpec['solver']['formulation'] = 'velocity', edit?: (s: SceneSpec) => void): Promise<{ q: number[][]; sim: Simulation; scene: SceneSpec }> {
  const parse = await loadModel(join(FIXTURES, 'forces.xml'), xml, { files: nodeFileAccess(FIXTURES), keyframe: xml.includes('<key') ? 'k' : undefined });
  assert.ok(parse.scene && !parse.hasErrors, JSON.stringify(parse.diagnostics));
  const scene = parse.scene;
  scene.solver.formulation = formulation;
  scene.solver.contacts = { ...scene.solver.contacts, enabled: false };
  edit?.(scene);
  const sim = new Simulation(scene, parse.sourceMap);
  const q: number[][] = [];
  // the joint forces run in each step's assembly, at the state before the step: step k+1 reports the state after step k
  for (let k = 0; k <= steps; k++) {
    sim.step(1);
    assert.equal(sim.stopped, false, JSON.stringify(sim.diagnostics));
    if (k > 0) q.push(Array.from(sim.world.forces!.report.q));
  }
  return { q, sim, scene };
}

const XML = (joint: string, opts: { body?: string; extra?: string; option?: string; ctrl?: string; qpos?: string; gravcomp?: string } = {}) => `<mujoco>
  <option timestep="0.002" ${opts.option ?? ''}/><compiler angle="radian"/>
  <worldbody><body name="link" pos="0 0 1" ${opts.gravcomp ?? ''}><joint name="j" ${joint}/>
    ${opts.body ?? '<geom type="capsule" fromto="0 -0.2 0 0 0.2 0" size="0.04" contype="0" conaffinity="0"/><geom type="box" size="0.1 0.02 0.02" contype="0" conaffinity="0"/>'}
  </body></worldbody>${opts.extra ?? ''}${opts.ctrl ? `<keyframe><key name="k" ctrl="${opts.ctrl}" ${opts.qpos ? `qpos="${opts.qpos}"` : ''}/></keyframe>` : ''}</mujoco>`;

/**
 * Hinges: Σ over the steps of (|q̇|·h)³/12 (the quaternion step's error, see the header) plus 1e-6.
 * Sliders: the velocity formulation takes their damping implicitly (a drive row, exact: 1e-6 is left);
 * the acceleration formulation explicitly (a body's translational mass is one scalar, so h·b·n·nᵀ has no
 * place in it) where MuJoCo's Euler is implicit: the velocity updates differ by (h·b/m)·Δq̇ per step,
 * which `slideDamping` = h·b/m turns into Σ_k h·Σ_{j≤k} (h·b/m)·|Δq̇_j| (plus 1e-6).
 */
function tolerance(qvel: number[][], h: number, hinge: boolean, slideDamping = 0): number[] {
  let acc = 1e-6, dv = 0;
  return qvel.map((v, k) => {
    if (hinge) return (acc += Math.abs(v[0] * h) ** 3 / 12);
    dv += slideDamping * Math.abs(v[0] - (k > 0 ? qvel[k - 1][0] : 0));
    return (acc += h * dv);
  });
}

async function compare(name: string, xml: string, steps = 500, formulation: SceneSpec['solver']['formulation'] = 'velocity', hinge = true): Promise<number> {
  const ref = await mujocoRun(xml, steps);
  const { q, scene } = await engineRun(xml, steps, formulation);
  const h = scene.solver.dt;
  const slideDamping = hinge || formulation === 'velocity' ? 0 : (h * (scene.constraints[0].drive?.damping ?? 0)) / scene.bodies[0].mass;
  const tol = tolerance(ref.qvel, h, hinge, slideDamping);
  let worst = 0;
  for (let k = 0; k < steps; k++) {
    const e = Math.abs(q[k][0] - ref.q[k][0]);
    worst = Math.max(worst, e);
    assert.ok(e <= tol[k], `${name}: step ${k + 1}: q = ${q[k][0]}, MuJoCo ${ref.q[k][0]} (|Δ| ${e.toExponential(2)} > ${tol[k].toExponential(2)})`);
  }
  // the joint moved: the comparison is not of two resting joints
  assert.ok(Math.abs(ref.q[steps - 1][0] - ref.q[0][0]) > 0.05, `${name}: the joint hardly moves`);
  console.log(`${name}: max |Δq| ${worst.toExponential(2)} (tolerance at the end ${tol[steps - 1].toExponential(2)})`);
  return worst;
}

const HINGE = 'type="hinge" axis="0 1 0"';
const SLIDE = 'type="slide" axis="1 0 0.3"';

test('hinge damping, stiffness with springref, armature: step by step as MuJoCo (velocity and acceleration formulations)', async () => {
  for (const f of ['velocity', 'acceleration'] as const) {
    await compare(`stiffness ${f}`, XML(`${HINGE} stiffness="3" springref="0.4"`), 500, f);
    await compare(`damping + stiffness ${f}`, XML(`${HINGE} damping="0.5" stiffness="3" springref="0.4"`), 500, f);
    await compare(`armature ${f}`, XML(`${HINGE} damping="0.2" armature="0.02" stiffness="3" springref="-0.7"`), 500, f);
  }
});

test('stiff damping stays stable and implicit as MuJoCo\'s (h·b/I ≈ 100)', async () => {
  // I about the axis ≈ 1e-3 kg·m²: explicit Euler would multiply q̇ by (1 − h·b/I) = −99 per step
  await compare('stiff damping', XML(`${HINGE} damping="50" stiffness="30" springref="1"`), 500);
});

test('slider damping, stiffness with springref: step by step as MuJoCo', async () => {
  await compare('slider', XML(`${SLIDE} damping="0.3" stiffness="20" springref="0.2"`), 500, 'velocity', false);
  await compare('slider (acceleration)', XML(`${SLIDE} damping="0.3" stiffness="20" springref="0.2"`), 500, 'acceleration', false);
});

test('actuators: motor with gear and ctrlrange clamping, position with forcerange, velocity, general affine', async () => {
  // ctrl 3 is clamped to 1 by ctrlrange; gear 0.02
  await compare('motor', XML(HINGE, { extra: '<actuator><motor joint="j" gear="0.02" ctrlrange="-1 1"/></actuator>', ctrl: '3' }));
  // the servo's force saturates at forcerange for most of the run
  await compare('position', XML(HINGE, { extra: '<actuator><position joint="j" kp="20" kv="5" forcerange="-1 1"/></actuator>', option: 'integrator="implicitfast"', ctrl: '0.8' }));
  // from a keyframe away from qpos0, with a spring reference elsewhere: lengths on MuJoCo's joint coordinate
  await compare('position from a keyframe', XML(`${HINGE} stiffness="2" springref="-0.3"`, { extra: '<actuator><position joint="j" kp="5" kv="0.5"/></actuator>', option: 'integrator="implicitfast"', ctrl: '1.2', qpos: '0.6' }));
  await compare('velocity (implicitfast)', XML(HINGE, { extra: '<actuator><velocity joint="j" kv="50"/></actuator>', option: 'integrator="implicitfast"', ctrl: '4' }));
  await compare('velocity (Euler: explicit)', XML(HINGE, { extra: '<actuator><velocity joint="j" kv="0.02"/></actuator>', ctrl: '4' }));
  await compare(
    'general affine with gear',
    XML(HINGE, { extra: '<actuator><general joint="j" gear="1.5" gaintype="affine" gainprm="2 0.5 0" biastype="affine" biasprm="0.1 -3 -0.4" ctrlrange="-2 2" ctrllimited="true"/></actuator>', option: 'integrator="implicitfast"', ctrl: '1.2' }),
  );
  await compare('motor on a slider', XML(SLIDE, { extra: '<actuator><motor joint="j" gear="2"/></actuator>', ctrl: '0.3' }), 500, 'velocity', false);
});

test('the actuators, their clamped control and force are in the snapshot; the scene keeps what MuJoCo compiled', async () => {
  const xml = XML(HINGE, { extra: '<actuator><position name="servo" joint="j" kp="20" kv="5" forcerange="-1 1" ctrlrange="-0.5 0.5"/></actuator>', option: 'integrator="implicitfast"', ctrl: '0.8' });
  const { sim, scene } = await engineRun(xml, 3);
  assert.deepEqual(scene.actuators, [{ index: 0, name: 'servo', joint: 'j', gear: 1, gain: [20, 0, 0], bias: [0, -20, -5], ctrlRange: [-0.5, 0.5], forceRange: [-1, 1], ctrl: 0.8 }]);
  assert.equal(scene.requestedIntegrator, 'implicitfast');
  const snap = sim.snapshotAt(0);
  assert.deepEqual(snap.drives?.actuators, ['servo']);
  assert.equal(snap.drives?.ctrl[0], 0.5); // clamped by ctrlrange
  assert.equal(snap.drives?.force[0], 1); // 20·0.5 clamped to forcerange
  assert.equal(snap.drives?.tau[0], 1);
  assert.equal(snap.integrator?.requested, 'implicitfast');
  assert.match(snap.integrator?.runs ?? '', /velocity level.*joint damping implicit/);
});

test('partial gravity compensation: a pendulum under half its weight swings as MuJoCo\'s', async () => {
  // the pendulum's centre of mass swings on a chord in maximal coordinates (the O(h²) step the
  // velocity formulation corrects by erp): its own departure from MuJoCo, measured here without
  // compensation under half the gravity, bounds the comparison (×1.5)
  const body = '<geom type="capsule" fromto="0 0 0 0.4 0 0" size="0.04" contype="0" conaffinity="0"/>';
  const half = await mujocoRun(XML(`${HINGE} stiffness="1e-12"`, { body, option: 'gravity="0 0 -4.905"' }), 300);
  const base = await engineRun(XML(`${HINGE} stiffness="1e-12"`, { body, option: 'gravity="0 0 -4.905"' }), 300);
  const bound = 1.5 * Math.max(...half.q.map((x, k) => Math.abs(x[0] - base.q[k][0])));
  const xml = XML(`${HINGE} stiffness="1e-12"`, { body, gravcomp: 'gravcomp="0.5"' });
  const ref = await mujocoRun(xml, 300);
  const { q, scene } = await engineRun(xml, 300);
  assert.equal(scene.bodies[0].gravityCompensation, 0.5);
  const worst = Math.max(...ref.q.map((x, k) => Math.abs(x[0] - q[k][0])));
  assert.ok(worst <= bound && bound < 5e-3, `gravcomp 0.5: |Δq| ${worst} (bound ${bound})`);
  // and the swing is MuJoCo's under half the weight, not the full weight's
  assert.ok(Math.abs(ref.q[299][0] - half.q[299][0]) < 1e-9);
});
