// Tendons against MuJoCo's WebAssembly, step by step, on small models imported with no options and run
// in the velocity formulation: a fixed tendon's limit over two hinges, a fixed tendon's spring and
// damping, actuators pulling a fixed tendon, and a pendulum on a string (a limited spatial tendon
// through two sites). The engine's tendon limit is a hard row where MuJoCo's is soft (solref/solimp):
// before the limit first acts the runs agree to the hinge's own tolerance, after it the engine never
// passes the bound and stays within MuJoCo's overshoot of it; with a stiff solreflimit MuJoCo's string
// is nearly hard and the two runs agree throughout.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Simulation } from '../../src/engine';
import { loadModel } from '../../src/import/index';
import { withMujocoXml } from './mujoco-helpers';

const model = (body: string, extra: string, option = '') =>
  `<mujoco model="tendons"><compiler angle="radian"/><option timestep="0.002" ${option}/><worldbody>${body}</worldbody>${extra}</mujoco>`;
/** A 1 kg arm hinged about y at `pos`, its centre of mass `c` m along x (horizontal: it falls, q grows). */
const arm = (name: string, pos: string, c: number) =>
  `<body name="${name}" pos="${pos}"><joint name="${name}_j" type="hinge" axis="0 1 0"/><inertial pos="${c} 0 0" mass="1" diaginertia="0.01 0.01 0.01"/></body>`;
/** Two arms side by side: the short one falls faster than the long one. */
const twoArms = arm('a', '0 0 1', 0.3) + arm('b', '0 0.5 1', 0.6);

/** MuJoCo's qpos after each step (index 0: the initial state); `ctrl` set before the first step. */
async function mujocoRun(xml: string, steps: number, ctrl?: number[]): Promise<number[][]> {
  return withMujocoXml(xml, (mj, m, d) => {
    if (ctrl) (d.ctrl as Float64Array).set(ctrl);
    const out = [Array.from(d.qpos as Float64Array)];
    for (let k = 0; k < steps; k++) {
      mj.mj_step(m, d);
      out.push(Array.from(d.qpos as Float64Array));
    }
    return out;
  });
}

/** The imported model in the velocity formulation: the poses (7 per body) after each step. */
async function engineRun(xml: string, steps: number, keyframe?: string): Promise<{ poses: number[][]; sim: Simulation }> {
  const parse = await loadModel('m.xml', xml, keyframe ? { keyframe } : {});
  assert.ok(parse.scene, JSON.stringify(parse.diagnostics));
  parse.scene.solver.formulation = 'velocity';
  const sim = new Simulation(parse.scene);
  const poses: number[][] = [];
  const b = parse.scene.bodies;
  poses.push(b.flatMap((x) => [...x.position, ...x.orientation]));
  for (let k = 0; k < steps; k++) {
    sim.step();
    poses.push(Array.from(sim.records[sim.records.length - 1].poses));
  }
  assert.ok(!sim.stopped, JSON.stringify(sim.diagnostics));
  return { poses, sim };
}

/** Body i's rotation about y (it turns only about y), unwrapped along the run as MuJoCo's qpos. */
function angles(poses: readonly number[][], i: number): number[] {
  let last = NaN;
  return poses.map((P) => {
    let a = 2 * Math.atan2(P[7 * i + 4], P[7 * i + 6]);
    if (Number.isFinite(last)) a += 2 * Math.PI * Math.round((last - a) / (2 * Math.PI));
    return (last = a);
  });
}

const maxDiff = (a: readonly number[], b: readonly number[], from = 0, to = a.length) => {
  let m = 0;
  for (let k = from; k < to; k++) m = Math.max(m, Math.abs(a[k] - b[k]));
  return m;
};

test('a fixed tendon over two hinges stops at its upper limit (L = q_a − q_b ≤ 0.2), never past it, as MuJoCo does', async () => {
  const STEPS = 400;
  const xml = model(twoArms, '<tendon><fixed name="tie" limited="true" range="-0.2 0.2"><joint joint="a_j" coef="1"/><joint joint="b_j" coef="-1"/></fixed></tendon>');
  const mj = await mujocoRun(xml, STEPS);
  const { poses, sim } = await engineRun(xml, STEPS);
  const qa = angles(poses, 0), qb = angles(poses, 1);
  const L = qa.map((x, k) => x - qb[k]);
  const Lmj = mj.map((q) => q[0] - q[1]);
  const hit = Lmj.findIndex((x) => x > 0.2);
  assert.ok(hit > 50, `MuJoCo's tendon reaches its bound at step ${hit}`);
  const overshoot = Math.max(...Lmj.map((x) => x - 0.2));
  assert.ok(overshoot > 0 && overshoot < 0.03, `MuJoCo's overshoot ${overshoot}`);
  // before the bound: the two free arms, as the hinges agree with MuJoCo (joint-limits-mujoco.test.ts)
  assert.ok(maxDiff(qa, mj.map((q) => q[0]), 0, hit - 1) < 2e-4, `arm a before the bound: ${maxDiff(qa, mj.map((q) => q[0]), 0, hit - 1)}`);
  assert.ok(maxDiff(qb, mj.map((q) => q[1]), 0, hit - 1) < 2e-4, `arm b before the bound`);
  for (let k = 0; k <= STEPS; k++) assert.ok(L[k] <= 0.2 + 1e-9, `step ${k}: L = ${L[k]} passes the bound`);
  // after: the tendon holds, within MuJoCo's own overshoot of the bound
  assert.ok(maxDiff(L, Lmj, hit - 1) < overshoot + 5e-3, `L after the bound: ${maxDiff(L, Lmj, hit - 1)} (overshoot ${overshoot})`);
  assert.ok(maxDiff(qa, mj.map((q) => q[0])) < overshoot + 5e-3, 'arm a after the bound');
  // the row is reported on the tendon
  const rows = sim.records.flatMap((r) => r.jointRows ?? []).filter((r) => r.state === 'active');
  assert.ok(rows.length > 0 && rows.every((r) => r.tendon === true && r.constraint === 'tie' && r.name === 'tie.limit'), JSON.stringify(rows[0]));
  assert.equal(rows.find((r) => r.side === 'upper')?.q, rows[0].q, 'the upper bound acts first');
});

test('a fixed tendon\'s spring and damping (L = 2·q) move a hinge as MuJoCo does, with Euler (damping explicit) and implicitfast (implicit)', async () => {
  const STEPS = 500;
  for (const option of ['', 'integrator="implicitfast"']) {
    for (const damping of [3, 30]) {
      const xml = model(arm('a', '0 0 1', 0.5), `<tendon><fixed name="spring" stiffness="40" damping="${damping}" springlength="0.1"><joint joint="a_j" coef="2"/></fixed></tendon>`, option);
      const mj = await mujocoRun(xml, STEPS);
      const { poses } = await engineRun(xml, STEPS);
      const d = maxDiff(angles(poses, 0), mj.map((q) => q[0]));
      assert.ok(d < 5e-7, `${option || 'Euler'}, damping ${damping}: ${d} rad from MuJoCo`);
    }
  }
});

test('actuators pulling a fixed tendon (a position servo with kv and a motor, gear, ctrl from a keyframe) move two hinges as MuJoCo does', async () => {
  const STEPS = 300;
  const acts = '<actuator><position name="servo" tendon="t" kp="50" kv="2" gear="1.5"/><motor name="pull" tendon="t" gear="2"/></actuator><keyframe><key name="k" ctrl="0.2 1"/></keyframe>';
  const xml = model(twoArms, `<tendon><fixed name="t"><joint joint="a_j" coef="0.5"/><joint joint="b_j" coef="-1"/></fixed></tendon>${acts}`);
  const mj = await mujocoRun(xml, STEPS, [0.2, 1]);
  const { poses, sim } = await engineRun(xml, STEPS, 'k');
  assert.deepEqual(sim.scene.actuators?.map((a) => [a.name, a.tendon, a.gear, a.ctrl]), [['servo', 't', 1.5, 0.2], ['pull', 't', 2, 1]]);
  // the arms spin past ±π: the hinge branches are followed; the gap is the hinges' own (a few 1e-4 rad per 100 steps here)
  const da = maxDiff(angles(poses, 0), mj.map((q) => q[0]));
  const db = maxDiff(angles(poses, 1), mj.map((q) => q[1]));
  assert.ok(da < 3e-3 && db < 3e-3, `arms ${da}, ${db} rad from MuJoCo`);
  assert.ok(maxDiff(angles(poses, 0), mj.map((q) => q[0]), 0, 100) < 2e-4, 'the first 100 steps');
  // implicitfast takes the servo's velocity term implicitly: one arm, the tendon L = q
  const one = model(arm('a', '0 0 1', 0.3), '<tendon><fixed name="t"><joint joint="a_j" coef="1"/></fixed></tendon><actuator><position name="servo" tendon="t" kp="50" kv="2" gear="1.5"/></actuator>', 'integrator="implicitfast"');
  const mj1 = await mujocoRun(one, STEPS);
  const ours1 = await engineRun(one, STEPS);
  assert.ok(maxDiff(angles(ours1.poses, 0), mj1.map((q) => q[0])) < 1e-7, 'implicitfast servo');
});

test('a pendulum on a string (a limited spatial tendon between a world site and a free ball) falls, goes taut and swings as MuJoCo\'s', async () => {
  const STEPS = 500;
  const body = '<site name="anchor" pos="0 0 1"/><body name="ball" pos="0.3 0 1.3"><freejoint/><inertial pos="0 0 0" mass="0.5" diaginertia="0.001 0.001 0.001"/><site name="b"/></body>';
  const string = (sol: string) => model(body, `<tendon><spatial name="string" limited="true" range="0 0.5" ${sol}><site site="anchor"/><site site="b"/></spatial></tendon>`);
  // MuJoCo's limit made nearly hard (its solref's time constant at 2h, impedance 0.99–0.999)
  const xml = string('solreflimit="0.004 1" solimplimit="0.99 0.999 0.001"');
  const mj = await mujocoRun(xml, STEPS);
  const { poses, sim } = await engineRun(xml, STEPS);
  const len = (x: number, z: number) => Math.hypot(x, z - 1);
  const Lmj = mj.map((q) => len(q[0], q[2]));
  const taut = Lmj.findIndex((x) => x > 0.5 - 1e-3);
  assert.ok(taut > 100, `the string goes taut at step ${taut}`);
  const x = poses.map((P) => P[0]), z = poses.map((P) => P[2]);
  // free fall: the same; the jerk of the string: within 3e-3 m; the swing after it: within 5e-4 m
  assert.ok(maxDiff(x, mj.map((q) => q[0]), 0, taut - 1) < 1e-9 && maxDiff(z, mj.map((q) => q[2]), 0, taut - 1) < 1e-9, 'free fall');
  assert.ok(maxDiff(x, mj.map((q) => q[0])) < 3e-3 && maxDiff(z, mj.map((q) => q[2])) < 3e-3, `x ${maxDiff(x, mj.map((q) => q[0]))}, z ${maxDiff(z, mj.map((q) => q[2]))}`);
  assert.ok(maxDiff(x, mj.map((q) => q[0]), taut + 50) < 5e-4 && maxDiff(z, mj.map((q) => q[2]), taut + 50) < 5e-4, 'the swing');
  // the string never stretches beyond what a velocity-level row drifts on a curve (erp recovers it)
  const L = poses.map((P) => len(P[0], P[2]));
  assert.ok(Math.max(...L) < 0.5 + 5e-4, `longest ${Math.max(...L)}`);
  const rows = sim.records.flatMap((r) => r.jointRows ?? []).filter((r) => r.state === 'active');
  assert.ok(rows.length > 100 && rows.every((r) => r.constraint === 'string' && r.side === 'upper'));
  // with MuJoCo's default (soft) limit its string stretches by about 2 cm; the engine's stays within 5e-4 m
  const soft = await mujocoRun(string(''), STEPS);
  const stretch = Math.max(...soft.map((q) => len(q[0], q[2]))) - 0.5;
  assert.ok(stretch > 5e-3 && stretch < 4e-2, `MuJoCo's soft string stretches ${stretch}`);
});

test('a tendon equality (L₁ − L₁⁰ = 0.5·d + 0.3·d², d = L₂ − L₂⁰) ties two arms as MuJoCo\'s nearly hard equality does', async () => {
  const STEPS = 400;
  const tendons = '<tendon><fixed name="ta"><joint joint="a_j" coef="1"/></fixed><fixed name="tb"><joint joint="b_j" coef="1"/></fixed></tendon>';
  const eq = '<equality><tendon name="tie" tendon1="ta" tendon2="tb" polycoef="0 0.5 0.3 0 0" solref="0.004 1" solimp="0.99 0.999 0.001"/></equality>';
  const xml = model(twoArms, tendons + eq);
  const mj = await mujocoRun(xml, STEPS);
  const { poses, sim } = await engineRun(xml, STEPS);
  assert.deepEqual(sim.scene.tendons?.[0].equality, { name: 'tie', length0: 0, polycoef: [0, 0.5, 0.3, 0, 0], other: 'tb', otherLength0: 0 });
  const qa = angles(poses, 0), qb = angles(poses, 1);
  // the engine's row holds the polynomial to its velocity-level drift; MuJoCo's within its softness
  const residual = Math.max(...qa.map((a, k) => Math.abs(a - (0.5 * qb[k] + 0.3 * qb[k] ** 2))));
  assert.ok(residual < 3e-4, `residual ${residual}`);
  const da = maxDiff(qa, mj.map((q) => q[0])), db = maxDiff(qb, mj.map((q) => q[1]));
  assert.ok(da < 2e-3 && db < 2e-3, `arms ${da}, ${db} rad from MuJoCo`);
  assert.ok(Math.abs(qb[STEPS]) > 0.5, 'the arms swing');
});

test('what is not simulated is said on the tendon: wrapping geoms, tendon armature', async () => {
  const wrap = model(
    '<site name="s0" pos="0 0 1"/><body name="ball" pos="0.3 0 1"><freejoint/><geom name="g" type="sphere" size="0.05" mass="1"/><site name="s1"/></body><geom name="post" type="cylinder" size="0.02 0.1" pos="0.15 0.1 1" contype="0" conaffinity="0"/>',
    '<tendon><spatial name="wrapped" limited="true" range="0 0.5"><site site="s0"/><geom geom="post"/><site site="s1"/></spatial><fixed name="heavy" armature="0.1"><joint joint="h" coef="1"/></fixed></tendon>',
  ).replace('</worldbody>', '<body name="arm" pos="0 1 1"><joint name="h" type="hinge" axis="0 1 0"/><inertial pos="0.5 0 0" mass="1" diaginertia="0.01 0.01 0.01"/></body></worldbody>');
  const parse = await loadModel('m.xml', wrap, {});
  assert.ok(parse.scene);
  const note = parse.diagnostics.find((d) => d.code === 'CL606-not-simulated');
  assert.ok(note && /spatial tendons wrapping around geoms \(`wrapped`\)/.test(note.message) && /tendon armature \(`heavy`\)/.test(note.message), note?.message);
  assert.deepEqual(parse.scene.tendons?.map((t) => t.name), ['heavy']);
  // the note's related location for the wrapping tendon is its own <spatial> line
  const rel = note.related?.find((r) => r.message.startsWith('spatial tendons wrapping'));
  assert.ok(rel && rel.range.start.line === wrap.slice(0, wrap.indexOf('<spatial')).split('\n').length - 1, JSON.stringify(rel));
});

test('a fixed tendon over the hinges of a universal joint: each hinge\'s own coordinate, the length MuJoCo\'s ten_length; Export as Scene keeps it', async () => {
  const combined = model(
    '<body name="arm" pos="0 0 1"><joint name="h1" type="hinge" axis="0 1 0"/><joint name="h2" type="hinge" axis="1 0 0"/><inertial pos="0.5 0 0" mass="1" diaginertia="0.01 0.01 0.01"/></body>',
    '<tendon><fixed name="both" stiffness="2"><joint joint="h1" coef="1"/><joint joint="h2" coef="-0.5"/></fixed></tendon><actuator><motor name="pull" tendon="both"/></actuator><keyframe><key name="k" qpos="0.3 -0.4"/></keyframe>',
  );
  const mjLen = await withMujocoXml(combined, (mj, m, d) => {
    (d.qpos as Float64Array).set([0.3, -0.4]);
    mj.mj_forward(m, d);
    return Array.from(d.ten_length as Float64Array);
  });
  const c = await loadModel('m.xml', combined, { keyframe: 'k' });
  assert.ok(c.scene);
  const cnote = c.diagnostics.find((d) => d.code === 'CL606-not-simulated');
  assert.ok(!cnote || !/fixed tendons/.test(cnote.message), cnote?.message);
  assert.deepEqual(c.scene.tendons?.map((t) => t.joints?.map((j) => j.joint)), [['h1', 'h2']]);
  c.scene.solver.formulation = 'velocity';
  const sim = new Simulation(c.scene);
  sim.step();
  const L = sim.world.tendons?.report.L;
  assert.ok(L && Math.abs(L[0] - mjLen[0]) < 1e-10, `${L?.[0]} vs ${mjLen[0]}`);
  const { exportScene, exportErrors } = await import('../../src/import/export');
  const text = exportScene({ scene: c.scene, path: 'm.xml' });
  assert.deepEqual(exportErrors(text), []);
  // the scene file names the universal's hinges (`hinges`): the tendon and its actuator are kept
  assert.doesNotMatch(text, /Left out/);
  const { parseScene } = await import('../../src/engine');
  const back = parseScene(text);
  assert.deepEqual(back.scene?.tendons, c.scene.tendons);
  assert.deepEqual(back.scene?.actuators?.map((a) => a.tendon), ['both']);
});

test('a fixed tendon\'s length is MuJoCo\'s ten_length from a keyframe (each joint on its qpos scale), and a spatial one\'s too', async () => {
  const xml = model(
    twoArms + '<site name="top" pos="0 0 2"/>',
    '<tendon><fixed name="f" limited="true" range="-3 3"><joint joint="a_j" coef="0.7"/><joint joint="b_j" coef="-1.2"/></fixed><spatial name="s"><site site="top"/><site site="tip"/></spatial></tendon><keyframe><key name="k" qpos="0.4 -0.25"/></keyframe>',
  ).replace('<inertial pos="0.3 0 0"', '<site name="tip" pos="0.3 0 0.1"/><inertial pos="0.3 0 0"');
  const mjLen = await withMujocoXml(xml, (mj, m, d) => {
    (d.qpos as Float64Array).set([0.4, -0.25]);
    mj.mj_forward(m, d);
    return Array.from(d.ten_length as Float64Array);
  });
  const parse = await loadModel('m.xml', xml, { keyframe: 'k' });
  assert.ok(parse.scene);
  parse.scene.solver.formulation = 'velocity';
  const sim = new Simulation(parse.scene);
  sim.step();
  const report = sim.world.tendons?.report;
  assert.ok(report);
  // the first step's rows evaluated the lengths at the keyframe's state
  assert.ok(Math.abs(report.L[0] - mjLen[0]) < 1e-12 && Math.abs(report.L[1] - mjLen[1]) < 1e-12, `${Array.from(report.L)} vs ${mjLen}`);
});

test('Export as Scene writes the tendons and the actuators pulling them; the scene reads them back and runs the same steps', async () => {
  const { exportScene, exportErrors } = await import('../../src/import/export');
  const { parseScene } = await import('../../src/engine');
  const xml = model(
    twoArms,
    '<tendon><fixed name="t" limited="true" range="-1 0.2" damping="2" stiffness="3"><joint joint="a_j" coef="1"/><joint joint="b_j" coef="-1"/></fixed><fixed name="u"><joint joint="b_j" coef="1"/></fixed></tendon><equality><tendon tendon1="u" polycoef="0.1"/></equality><actuator><motor name="pull" tendon="t" ctrlrange="-1 1"/><motor name="turn" joint="a_j"/></actuator>',
    'integrator="implicitfast"',
  );
  const parse = await loadModel('m.xml', xml, {});
  assert.ok(parse.scene);
  parse.scene.solver.formulation = 'velocity';
  const text = exportScene({ scene: parse.scene, path: 'm.xml' });
  assert.deepEqual(exportErrors(text), []);
  const back = parseScene(text);
  assert.deepEqual(back.diagnostics, []);
  assert.deepEqual(back.scene?.tendons, parse.scene.tendons);
  assert.deepEqual(back.scene?.actuators, parse.scene.actuators);
  const a = new Simulation(parse.scene), b = new Simulation(back.scene!);
  for (let k = 0; k < 200; k++) {
    a.step();
    b.step();
  }
  assert.deepEqual(b.records[b.records.length - 1].poses, a.records[a.records.length - 1].poses);
  // the equality (L_u = L_u⁰ + 0.1, a jump from the start) pulled arm b by 0.1 rad
  assert.ok(Math.abs(angles([Array.from(a.records[a.records.length - 1].poses)], 1)[0] - 0.1) < 1e-3);
});

test('the snapshot shows the control and force of an actuator pulling a tendon (MuJoCo\'s actuator_force)', async () => {
  const xml = model(arm('a', '0 0 1', 0.5), '<tendon><fixed name="t"><joint joint="a_j" coef="2"/></fixed></tendon><actuator><position name="servo" tendon="t" kp="10" gear="1.5" ctrlrange="-0.5 0.5"/></actuator><keyframe><key name="k" qpos="0.2" ctrl="0.9"/></keyframe>');
  const mjForce = await withMujocoXml(xml, (mj, m, d) => {
    (d.qpos as Float64Array).set([0.2]);
    (d.ctrl as Float64Array).set([0.9]);
    mj.mj_forward(m, d);
    return (d.actuator_force as Float64Array)[0];
  });
  const { inspectParsed } = await import('../../src/engine');
  const parse = await loadModel('m.xml', xml, { keyframe: 'k' });
  assert.ok(parse.scene);
  const snap = inspectParsed(xml, parse).snapshot;
  assert.deepEqual(snap?.drives?.actuators, ['servo']);
  assert.equal(snap?.drives?.ctrl[0], 0.5);
  assert.ok(Math.abs((snap?.drives?.force[0] ?? NaN) - mjForce) < 1e-12, `${snap?.drives?.force[0]} vs MuJoCo ${mjForce}`);
});
