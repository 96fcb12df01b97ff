// Joint limits and friction loss against MuJoCo's WebAssembly, step by step, on single-joint models
// imported with no options (the importer fills `limits`, `limitMargin`, `frictionLoss`) and run in the
// velocity formulation. MuJoCo's limit rows are soft (solref 0.02 s, dampratio 1; solimp 0.9–0.95) and
// so are the imported ones (limitSolref, limitSolimp, limitInvWeight): the joint sinks past a bound on
// impact and rests a little past it (its sag), in both runs, step by step; the forces at rest are the
// closed forms at the resting angle. Friction loss stays hard here where MuJoCo's creeps. None of these
// models collides, and the importer still picks the velocity formulation for their limits' rows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Simulation, type StepRecord } from '../../src/engine';
import { exportScene } from '../../src/import/export';
import { loadModel } from '../../src/import/index';
import { withMujocoXml } from './mujoco-helpers';
import { Codes, parseScene } from '../../src/engine';

const G = 9.81;
const STEPS = 600;

const model = (body: string, key = '') =>
  `<mujoco model="limits"><compiler angle="radian"/><option timestep="0.002"/><worldbody>${body}</worldbody>${key}</mujoco>`;
/** A 1 kg arm, centre of mass 0.5 m from a hinge about y at height 1, turned by `euler` about y (q = 0 there). */
const arm = (joint: string, euler = 0) =>
  `<body name="arm" pos="0 0 1" euler="0 ${euler} 0"><joint name="knee" type="hinge" axis="0 1 0" ${joint}/><inertial pos="0.5 0 0" mass="1" diaginertia="0.01 0.01 0.01"/></body>`;
/** A 2 kg cart on a slide joint along `axis` through (0, 0, 1). */
const cart = (joint: string, axis = '0 0 1') =>
  `<body name="cart" pos="0 0 1"><joint name="rail" type="slide" axis="${axis}" ${joint}/><inertial pos="0 0 0" mass="2" diaginertia="0.01 0.01 0.01"/></body>`;

/** MuJoCo's qpos[0] after each step (index 0: the initial state). */
async function mujocoQ(xml: string, steps = STEPS): Promise<number[]> {
  return withMujocoXml(xml, (mj, m, d) => {
    const q = [(d.qpos as Float64Array)[0]];
    for (let k = 0; k < steps; k++) {
      mj.mj_step(m, d);
      q.push((d.qpos as Float64Array)[0]);
    }
    return q;
  });
}

/** The imported model in the velocity formulation: the joint coordinate after each step (from the body's pose [p, q]) and the records. */
async function engineQ(xml: string, coordinate: (pose: number[]) => number, steps = STEPS): Promise<{ q: number[]; records: readonly StepRecord[]; text: string }> {
  const parse = await loadModel('m.xml', xml, {});
  assert.ok(parse.scene, JSON.stringify(parse.diagnostics));
  assert.equal(parse.scene.solver.formulation, 'velocity', 'a model with limits or friction loss is opened in the formulation that solves them');
  assert.ok(!parse.diagnostics.some((d) => /does not solve them/.test(d.message)), parse.diagnostics.map((d) => d.message).join('\n'));
  const sim = new Simulation(parse.scene);
  const b0 = parse.scene.bodies[0];
  const c0 = coordinate([...b0.position, ...b0.orientation]);
  const q = [0];
  for (let k = 0; k < steps; k++) {
    sim.step();
    const rec = sim.records[sim.records.length - 1];
    q.push(coordinate(rec.poses.slice(0, 7)) - c0);
  }
  assert.ok(!sim.stopped, JSON.stringify(sim.diagnostics));
  return { q, records: sim.records, text: exportScene({ scene: parse.scene }) };
}

/** The arm's rotation angle about y, from its orientation (it only turns about y), as MuJoCo's qpos. */
const armAngle = (pose: number[]) => 2 * Math.atan2(pose[4], pose[6]);

/** The first step where MuJoCo's coordinate passes `bound` (upper: above, lower: below). */
function firstPast(q: readonly number[], bound: number, upper: boolean): number {
  const k = q.findIndex((x) => (upper ? x > bound : x < bound));
  assert.ok(k > 0, 'MuJoCo reaches the bound');
  return k;
}

/**
 * Both runs step by step: within `agree` before MuJoCo's row first acts and `after` from then on (the
 * impact, the sag past the bound and the rest there), with MuJoCo's overshoot and sag checked to be
 * far larger than `after`, so that a hard limit (never past the bound) would fail.
 */
function checkLimit(name: string, mj: readonly number[], ours: readonly number[], stop: number, upper: boolean, agree: number, after = agree) {
  const dir = upper ? 1 : -1;
  const hit = firstPast(mj, stop, upper);
  const overshoot = Math.max(...mj.map((x) => dir * (x - stop)));
  // MuJoCo's soft limit lets the joint sink past the bound on impact, by less than a few centi-units here
  assert.ok(overshoot > 0 && overshoot < 0.03, `${name}: MuJoCo's overshoot ${overshoot}`);
  const sag = dir * (mj[STEPS] - stop);
  assert.ok(sag > 1e-4 && sag < 1e-3, `${name}: MuJoCo rests past the bound by its sag (${sag})`);
  assert.ok(overshoot > 30 * after && sag > 2 * after, `${name}: the tolerance ${after} tells a soft limit from a hard one`);
  for (let k = 0; k <= STEPS; k++) {
    const tol = k < hit - 1 ? agree : after;
    assert.ok(Math.abs(ours[k] - mj[k]) <= tol, `${name}: step ${k}: ${ours[k]} vs MuJoCo ${mj[k]} (tolerance ${tol})`);
  }
}

test('a hinge pendulum falls onto its upper limit: sinks past it and rests there as MuJoCo does; the limit row holds m·g·L·cos q', async () => {
  const xml = model(arm('range="-0.5 0.3" limited="true"'));
  const mj = await mujocoQ(xml);
  const { q, records, text } = await engineQ(xml, armAngle);
  checkLimit('hinge', mj, q, 0.3, true, 1e-4);
  const rows = records[STEPS - 1].jointRows ?? [];
  assert.equal(rows.length, 1);
  assert.equal(rows[0].name, 'knee.limit');
  assert.equal(rows[0].side, 'upper');
  assert.equal(rows[0].state, 'active');
  assert.ok(Math.abs(rows[0].force - 1 * G * 0.5 * Math.cos(rows[0].q)) < 1e-6, `force ${rows[0].force} at q ${rows[0].q}`);
  // free fall: no joint row in the step (the direct solve)
  assert.equal(records[10].jointRows, undefined);
  // Export as Scene writes the limits; the scene reads back the same constraint
  const back = parseScene(text);
  assert.deepEqual(back.diagnostics, []);
  assert.deepEqual(back.scene?.constraints[0].limits, [-0.5, 0.3]);
  // with MuJoCo's soft parameters: its defaults, and dof_invweight0 = 1/(m·L² + I_yy) for the lone arm
  const c = back.scene!.constraints[0];
  assert.deepEqual([c.limitSolref, c.limitSolimp], [[0.02, 1], [0.9, 0.95, 0.001, 0.5, 2]]);
  assert.ok(Math.abs(c.limitInvWeight! - 1 / (0.25 + 0.01)) < 1e-12, `limitInvWeight ${c.limitInvWeight}`);
});

test('a hinge limit with a margin acts from the bound minus the margin, as MuJoCo\'s', async () => {
  const xml = model(arm('range="-0.5 0.3" limited="true" margin="0.05"'));
  const mj = await mujocoQ(xml);
  const { q, text } = await engineQ(xml, armAngle);
  checkLimit('margin', mj, q, 0.25, true, 1e-4);
  const back = parseScene(text).scene?.constraints[0];
  assert.deepEqual([back?.limits, back?.limitMargin], [[-0.5, 0.3], 0.05]);
});

test('a lower hinge limit (the arm turned over, falling the other way), a keyframe and a joint ref: bounds on MuJoCo\'s qpos scale', async () => {
  // the arm points up and left of the hinge (euler π − 0.2), so it falls towards negative q
  const key = '<keyframe><key name="start" qpos="0.1"/></keyframe>';
  const xml = model(arm('range="-0.4 0.6" limited="true"', Math.PI - 0.2), key);
  const parse = await loadModel('m.xml', xml, { keyframe: 'start' });
  const spec = parse.scene?.constraints[0];
  // MuJoCo's range as it is; the joint's coordinate (its qpos at the start) carries the scale
  assert.deepEqual([spec?.limits, spec?.drive?.coordinate], [[-0.4, 0.6], 0.1]);
  // no force of its own: the coordinate alone does not make the joint a driven one
  assert.equal(new Simulation(parse.scene!).world.forces, undefined);
  const mj = await mujocoQ(xml.replace(key, ''));
  const { q } = await engineQ(xml.replace(key, ''), armAngle);
  checkLimit('lower', mj, q, -0.4, false, 1e-4);
  // qpos0 = ref = 0.1 ≠ 0: MuJoCo starts at 0.1 and stops at −0.4; so does the engine, on the same scale
  const withRef = model(arm('range="-0.4 0.6" limited="true" ref="0.1"', Math.PI - 0.2));
  const mjRef = await mujocoQ(withRef);
  assert.equal(mjRef[0], 0.1);
  const ours = await engineQ(withRef, armAngle);
  checkLimit('lower from ref', mjRef, ours.q.map((x) => x + 0.1), -0.4, false, 1e-4);
  const rows = ours.records.flatMap((r) => r.jointRows ?? []).filter((r) => r.state === 'active');
  assert.ok(rows.length > 0 && rows.every((r) => r.bound === -0.4 && r.q < -0.4 && r.q > -0.43), JSON.stringify(rows[0]));
});

test('a slide joint falls onto its lower limit and sinks past it as MuJoCo\'s does, to 1e-12; the row holds m·g', async () => {
  const xml = model(cart('range="-0.2 0.1" limited="true"'));
  const mj = await mujocoQ(xml);
  const { q, records } = await engineQ(xml, (p) => p[2]);
  checkLimit('slide', mj, q, -0.2, false, 1e-12);
  const row = records[STEPS - 1].jointRows?.[0];
  assert.equal(row?.name, 'rail.limit');
  assert.equal(row?.side, 'lower');
  assert.ok(Math.abs(row.force - 2 * G) < 1e-6, `force ${row.force}`);
});

test('friction loss holds a hinge below its threshold torque (MuJoCo creeps) and slips above it at MuJoCo\'s pace', async () => {
  // gravity's torque about the hinge: m·g·L·cos(euler) = 1.78 N·m at euler 1.2 (below 3), 4.69 N·m at 0.3 (above)
  const hold = model(arm('frictionloss="3"', 1.2));
  const mjHold = await mujocoQ(hold);
  const { q: held, records } = await engineQ(hold, armAngle);
  for (let k = 0; k <= STEPS; k++) assert.ok(Math.abs(held[k]) < 1e-9, `held at step ${k}: ${held[k]}`);
  // MuJoCo's soft friction creeps (its regulariser turns a static torque into a slow velocity): the gap to it
  const creep = Math.abs(mjHold[STEPS]);
  assert.ok(creep > 0 && creep < 0.02, `MuJoCo creeps ${creep} rad in ${STEPS} steps`);
  const row = records[STEPS - 1].jointRows?.[0];
  assert.equal(row?.name, 'knee.frictionloss');
  assert.equal(row?.state, 'stick');
  assert.ok(Math.abs(Math.abs(row.force) - G * 0.5 * Math.cos(1.2)) < 1e-6, `stick force ${row.force}`);

  const slip = model(arm('frictionloss="3"', 0.3));
  const mjSlip = await mujocoQ(slip);
  const { q: slipped, records: rs } = await engineQ(slip, armAngle);
  // the friction torque saturates at 3 N·m in both; MuJoCo's soft row transmits slightly less of it
  // while slipping, so the gap grows to ~1e-3 rad of the 1.1 rad travelled over 1.2 s
  for (let k = 0; k <= STEPS; k++) assert.ok(Math.abs(slipped[k] - mjSlip[k]) < 2e-3, `slip step ${k}: ${slipped[k]} vs ${mjSlip[k]}`);
  assert.ok(slipped[STEPS] > 1, 'it slipped');
  const s = rs[100].jointRows?.[0];
  assert.equal(s?.state, 'slip');
  assert.ok(Math.abs(s.force + 3) < 1e-9, `slip force ${s.force}`);
});

test('a slide joint with friction loss slides down a slope onto its limit as MuJoCo does', async () => {
  const xml = model(cart('range="-0.2 0.1" limited="true" frictionloss="10"', '0.6 0 0.8'));
  const mj = await mujocoQ(xml);
  const { q, records, text } = await engineQ(xml, (p) => 0.6 * p[0] + 0.8 * p[2]);
  // the friction loss (hard here, soft in MuJoCo) makes the gap after the hit
  checkLimit('slide+friction', mj, q, -0.2, false, 1e-9, 1.5e-4);
  const back = parseScene(text);
  assert.deepEqual(back.diagnostics, []);
  assert.deepEqual([back.scene?.constraints[0].limits, back.scene?.constraints[0].frictionLoss], [[-0.2, 0.1], 10]);
  // resting on the limit, both rows act on the coordinate (how they share the load is not unique)
  const names = (records[STEPS - 1].jointRows ?? []).map((r) => r.name).sort();
  assert.deepEqual(names, ['rail.frictionloss', 'rail.limit']);
});

test('which joints are limited is MuJoCo\'s answer: limited="false" keeps a range unused; autolimits limits a joint with a range', async () => {
  const xml = model(
    arm('range="-1 1" limited="false"').replace('"arm"', '"a"').replace('"knee"', '"free_range"') +
      arm('range="-1 1"').replace('"arm"', '"b"').replace('"knee"', '"auto"') +
      cart('range="-0.2 0.1" margin="0.01"') +
      arm('range="-4 1"').replace('"arm"', '"c"').replace('"knee"', '"wide"'),
  );
  const parse = await loadModel('m.xml', xml, {});
  const byName = new Map(parse.scene!.constraints.map((c) => [c.name, c]));
  assert.equal(byName.get('free_range')?.limits, undefined);
  assert.deepEqual(byName.get('auto')?.limits, [-1, 1]);
  assert.deepEqual([byName.get('rail')?.limits, byName.get('rail')?.limitMargin], [[-0.2, 0.1], 0.01]);
  // a hinge range reaching ±π from the initial state (where the engine's angle wraps) is listed, not converted
  assert.equal(byName.get('wide')?.limits, undefined);
  const note = parse.diagnostics.find((d) => d.code === Codes.notSimulated);
  assert.match(note?.message ?? '', /joint limits \(hinge ranges reaching ±π from the initial state\) \(`wide`\)/);
});

test('a two-link arm (limits on a world and a body–body hinge, friction loss on the elbow) comes to rest on both bounds as MuJoCo does', async () => {
  const xml = model(
    '<body name="upper" pos="0 0 1"><joint name="shoulder" type="hinge" axis="0 1 0" range="-0.3 0.4"/><inertial pos="0.25 0 0" mass="1" diaginertia="0.01 0.02 0.02"/>' +
      '<body name="lower" pos="0.5 0 0"><joint name="elbow" type="hinge" axis="0 1 0" range="-0.2 0.5" frictionloss="0.2"/><inertial pos="0.25 0 0" mass="0.5" diaginertia="0.005 0.01 0.01"/></body></body>',
  );
  const qm: number[][] = await withMujocoXml(xml, (mj, m, d) => {
    const out: number[][] = [[0, 0]];
    for (let k = 0; k < STEPS; k++) {
      mj.mj_step(m, d);
      out.push(Array.from(d.qpos as Float64Array));
    }
    return out;
  });
  const parse = await loadModel('m.xml', xml, {});
  const scene = parse.scene!;
  assert.equal(scene.solver.formulation, 'velocity');
  const sim = new Simulation(scene);
  const angle = (p: readonly number[], o: number) => 2 * Math.atan2(p[o + 1], p[o + 3]);
  // MuJoCo's first limit row acts where the elbow reaches −0.2 (its soft row starts there)
  const hit = qm.findIndex((q) => q[1] < -0.2 || q[0] > 0.4);
  assert.ok(hit > 50, `MuJoCo's first limit at step ${hit}`);
  for (let k = 1; k <= STEPS; k++) {
    sim.step();
    const poses = sim.records[k - 1].poses;
    const q1 = angle(poses, 3), q2 = angle(poses, 10) - q1;
    // the soft bounds let both joints sink past as MuJoCo's do, and the runs stay together through the impacts
    assert.ok(Math.abs(q1 - qm[k][0]) < 2e-3 && Math.abs(q2 - qm[k][1]) < 2e-3, `step ${k}: ${q1}, ${q2} vs MuJoCo ${qm[k]}`);
    if (k < hit - 1) assert.ok(Math.abs(q1 - qm[k][0]) < 1e-4 && Math.abs(q2 - qm[k][1]) < 1e-4, `step ${k} before the limits: ${q1}, ${q2} vs ${qm[k]}`);
  }
  const last = sim.records[STEPS - 1];
  const q1 = angle(last.poses, 3), q2 = angle(last.poses, 10) - q1;
  // both rest past the bounds by MuJoCo's sag (the elbow's friction loss, hard here, holds it slightly apart)
  assert.ok(Math.abs(q1 - qm[STEPS][0]) < 5e-4 && Math.abs(q2 - qm[STEPS][1]) < 5e-4, `rest ${q1}, ${q2} vs MuJoCo ${qm[STEPS]}`);
  assert.ok(qm[STEPS][0] - 0.4 > 4e-4 && qm[STEPS][1] - 0.5 > 4e-4, `MuJoCo rests past the bounds: ${qm[STEPS]}`);
  // the forces at rest: gravity's torques about the shoulder and the elbow (the elbow's shared by its limit and friction rows)
  const rows = new Map((last.jointRows ?? []).map((r) => [`${r.name}`, r.force]));
  const shoulder = G * (1 * 0.25 * Math.cos(q1) + 0.5 * (0.5 * Math.cos(q1) + 0.25 * Math.cos(q1 + q2)));
  const elbow = G * 0.5 * 0.25 * Math.cos(q1 + q2);
  assert.ok(Math.abs(rows.get('shoulder.limit')! - shoulder) < 1e-6, `shoulder ${rows.get('shoulder.limit')} vs ${shoulder}`);
  assert.ok(Math.abs(rows.get('elbow.limit')! - rows.get('elbow.frictionloss')! - elbow) < 1e-6, `elbow ${[...rows]} vs ${elbow}`);
});

test('a contact-free model without limits or friction loss keeps the direct (acceleration) formulation', async () => {
  const parse = await loadModel('m.xml', model(arm('')), {});
  assert.equal(parse.scene?.solver.formulation, 'acceleration');
  assert.equal(parse.scene?.solver.contacts.enabled, false);
});
