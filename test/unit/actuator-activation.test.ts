// Actuators with MuJoCo's activation dynamics (dyntype integrator, filter, filterexact; model/activation.ts):
// the force takes the activation, a state that follows the control over the run, clamped to actrange, and
// starts from the keyframe's act. Checked against MuJoCo's WebAssembly step by step on a slide whose only
// forces are the actuators' (no gravity along it), where MuJoCo's Euler and the engine's step are the same
// update: the forces to 1e-9 and the position to 1e-9 over 300 steps; a run with the activations left out
// (the control taken directly) is far off, so the test sees them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nextActivation, parseScene, Simulation } from '../../src/engine';
import { loadModel } from '../../src/import/index';
import { withMujocoXml } from './mujoco-helpers';

const ACTUATORS = `<general name="servo" joint="s" dyntype="filter" dynprm="0.05" gainprm="40" biasprm="0 -40" biastype="affine" actlimited="true" actrange="-0.3 0.25"/>
<general name="push" joint="s" dyntype="integrator" gainprm="2" ctrllimited="true" ctrlrange="-1 1"/>
<general name="smooth" joint="s" dyntype="filterexact" dynprm="0.3" gainprm="3"/>`;
const xml = (actuators: string, key = '<keyframe><key name="k" qpos="0.05" act="0.1 -0.2 0.4" ctrl="0.9 -3 -1"/></keyframe>') => `<mujoco><option timestep="0.01" gravity="0 0 -9.81"/>
<worldbody><body name="cart"><joint name="s" type="slide" axis="1 0 0"/><geom type="box" size="0.1 0.1 0.1" mass="2" contype="0" conaffinity="0"/></body></worldbody>
<actuator>${actuators}</actuator>${key}</mujoco>`;

const STEPS = 300;

/** MuJoCo's position, actuator forces and activations after each step. */
function mujoco(text: string) {
  return withMujocoXml(text, (mj, m, d) => {
    (mj as unknown as Record<string, (...a: unknown[]) => void>).mj_resetDataKeyframe(m, d, 0);
    const q: number[] = [], force: number[][] = [], act: number[][] = [];
    for (let k = 0; k < STEPS; k++) {
      mj.mj_step(m, d);
      q.push((d.qpos as Float64Array)[0]);
      force.push(Array.from(d.actuator_force as Float64Array));
      act.push(Array.from(d.act as Float64Array));
    }
    return { q, force, act };
  });
}

async function engine(text: string) {
  const parse = await loadModel('m.xml', text, { keyframe: 'k' });
  assert.ok(parse.scene && !parse.hasErrors, JSON.stringify(parse.diagnostics));
  const sim = new Simulation(parse.scene, parse.sourceMap);
  const q: number[] = [], force: number[][] = [];
  // the forces of step k+1 are evaluated at the state after step k (forces-helpers.ts jointAngles)
  for (let k = 0; k <= STEPS; k++) {
    sim.step(1);
    assert.equal(sim.stopped, false, JSON.stringify(sim.diagnostics));
    if (k > 0) q.push(sim.world.forces!.report.q[0]);
    if (k < STEPS) force.push(Array.from(sim.world.forces!.report.force));
  }
  return { parse, q, force };
}

/** Our three actuators' forces and the slide follow MuJoCo's to 1e-9 at every step. */
function assertFollows(ours: { force: number[][]; q: number[] }, ref: { force: number[][]; q: number[] }): void {
  let gapF = 0, gapQ = 0;
  for (let k = 0; k < STEPS; k++) {
    for (let i = 0; i < 3; i++) gapF = Math.max(gapF, Math.abs(ours.force[k][i] - ref.force[k][i]));
    gapQ = Math.max(gapQ, Math.abs(ours.q[k] - ref.q[k]));
  }
  assert.ok(gapF < 1e-9, `actuator forces differ from MuJoCo's by ${gapF}`);
  assert.ok(gapQ < 1e-9, `the slide differs from MuJoCo's by ${gapQ} m`);
}

test('filter, integrator and filterexact actuators follow MuJoCo step by step (forces, position), from the keyframe’s act', async () => {
  const text = xml(ACTUATORS);
  const ref = await mujoco(text);
  const ours = await engine(text);
  const acts = ours.parse.scene!.actuators!;
  assert.deepEqual(acts.map((a) => a.activation?.type), ['filter', 'integrator', 'filterexact']);
  assert.deepEqual(acts.map((a) => a.activation?.act0), [0.1, -0.2, 0.4]);
  assert.deepEqual(acts[0].activation?.range, [-0.3, 0.25]);
  assert.ok(!ours.parse.diagnostics.some((d) => /activation/.test(d.message)), ours.parse.diagnostics.map((d) => d.message).join('\n'));
  assertFollows(ours, ref);
  // the activations did move: the filter reached its clamp, the integrator ran down to its bound's side
  assert.equal(ref.act[STEPS - 1][0], 0.25);
  assert.ok(ref.act[STEPS - 1][1] < -2, `integrator act ${ref.act[STEPS - 1][1]}`);
  // our activation update is MuJoCo's (mj_advance) to round-off
  let a = [0.1, -0.2, 0.4];
  const u = [0.9, -1, -1];
  for (let k = 0; k < STEPS; k++) {
    a = a.map((x, i) => nextActivation(acts[i], x, u[i], 0.01));
    for (let i = 0; i < 3; i++) assert.ok(Math.abs(a[i] - ref.act[k][i]) < 1e-12, `act ${i} at step ${k + 1}: ${a[i]} vs ${ref.act[k][i]}`);
  }
});

test('without its activation the same model is far from MuJoCo (the test sees the dynamics)', async () => {
  const text = xml(ACTUATORS);
  const ref = await mujoco(text);
  const parse = await loadModel('m.xml', text, { keyframe: 'k' });
  for (const a of parse.scene!.actuators!) delete a.activation;
  const sim = new Simulation(parse.scene!, parse.sourceMap);
  sim.step(STEPS + 1);
  const q = sim.world.forces!.report.q[0];
  assert.ok(Math.abs(q - ref.q[STEPS - 1]) > 0.05, `${q} vs ${ref.q[STEPS - 1]}`);
});

test('muscle dynamics are listed as not simulated, not run as plain controls', async () => {
  const muscle = await loadModel('m.xml', xml('<muscle name="m" joint="s" lengthrange="-1 1"/>', ''), {});
  assert.ok(muscle.diagnostics.some((d) => /activation dynamics \(dyntype muscle\)/.test(d.message)), muscle.diagnostics.map((d) => d.message).join('\n'));
});

test('actearly (on the element, or through a default class) follows MuJoCo step by step: the force leads by one update', async () => {
  const early = ACTUATORS.replace('<general name="servo"', '<general name="servo" actearly="true"').replace('<general name="smooth"', '<general name="smooth" class="early"');
  const text = xml(early).replace('<worldbody>', '<default><default class="lead"><default class="early"><general gainprm="3"/></default><general actearly="true"/></default></default><worldbody>');
  const ref = await mujoco(text);
  const ours = await engine(text);
  assert.deepEqual(ours.parse.scene!.actuators!.map((a) => a.activation?.early ?? false), [true, false, true]);
  assertFollows(ours, ref);
  // without actearly the first filter force is MuJoCo's minus one update: the test sees the flag
  const late = await mujoco(xml(ACTUATORS));
  assert.ok(Math.abs(late.force[0][0] - ref.force[0][0]) > 1e-3, `${late.force[0][0]} vs ${ref.force[0][0]}`);
  // actearly="false" on the element overrides its class
  const off = await loadModel('m.xml', text.replace('name="smooth" class="early"', 'name="smooth" class="early" actearly="false"'), {});
  assert.deepEqual(off.scene!.actuators!.map((a) => a.activation?.early ?? false), [true, false, false]);
});

test('a scene file carries an actuator’s activation: Export as Scene writes it, the parser reads it back, the runs are the same', async () => {
  const { exportScene, exportErrors } = await import('../../src/import/export');
  const parse = await loadModel('m.xml', xml(ACTUATORS), { keyframe: 'k' });
  assert.ok(parse.scene);
  const text = exportScene({ scene: parse.scene, path: 'm.xml' });
  assert.deepEqual(exportErrors(text), []);
  const back = parseScene(text);
  assert.deepEqual(back.diagnostics, []);
  assert.deepEqual(back.scene?.actuators, parse.scene.actuators);
  const a = new Simulation(parse.scene), b = new Simulation(back.scene!);
  a.step(100);
  b.step(100);
  assert.deepEqual(b.records[99].poses, a.records[99].poses);
});

test('a bad activation is an error on its node, and the actuator is left out', () => {
  const scene = (activation: string) => `{ "name": "s", "bodies": [{ "name": "b", "mass": 1, "inertia": [1, 1, 1] }],
    "constraints": [{ "name": "j", "type": "slider", "bodyA": "world", "bodyB": "b", "axisA": [1, 0, 0], "coordinate": 0 }],
    "actuators": [{ "name": "a", "joint": "j", "ctrl": 1, "activation": ${activation} }] }`;
  const ok = parseScene(scene('{ "type": "filter", "timeConstant": 0.1, "range": [-1, 1] }'));
  assert.deepEqual(ok.diagnostics.filter((d) => d.severity === 'error'), []);
  assert.deepEqual(ok.scene?.actuators?.[0].activation, { type: 'filter', timeConstant: 0.1, act0: 0, range: [-1, 1] });
  for (const [bad, words] of [
    ['{ "type": "muscle" }', /is not allowed/],
    ['{ "type": "filter" }', /needs a `timeConstant`/],
    ['{ "type": "integrator", "range": [1, -1] }', /lower ≤ upper/],
    ['{ "type": "filter", "timeConstant": -1 }', /timeConstant/],
    ['3', /must be an object/],
  ] as const) {
    const text = scene(bad);
    const p = parseScene(text);
    const err = p.diagnostics.find((d) => d.severity === 'error');
    assert.ok(err && words.test(err.message), `${bad}: ${p.diagnostics.map((d) => d.message).join(' | ')}`);
    assert.ok(err.range.start.line >= 2, `${bad}: the error points into the actuator`);
    assert.equal(p.scene?.actuators?.length ?? 0, 0, bad);
  }
});
