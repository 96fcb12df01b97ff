// Penetration recovery as MuJoCo's soft contacts (solver.contacts.solref / solimp): the reference
// acceleration and impedance against MuJoCo's own efc_aref and efc_KBIP, the velocity formulation's
// first step out of an overlap, the scene fields' checks, and the importer's choice.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseScene, Simulation } from '../../src/engine';
import { impedance, referenceAcceleration, softRecoveryTarget, type SoftContact } from '../../src/engine/contact/softContact';
import { exportScene, loadModel } from '../../src/import/index';
import { withMujocoXml } from './mujoco-helpers';

const load = (xml: string) => loadModel('/virtual/m.xml', xml, { files: { workspaceRoot: '/virtual', readFile: () => undefined } });

/** A ball of radius 0.1 at height z over a floor, both geoms with the same solref/solimp (MuJoCo mixes two geoms' values; equal ones mix to themselves). */
const ball = (z: number, solref: string, solimp: string, dt = 0.004) => `<mujoco>
  <option timestep="${dt}"/>
  <default><geom condim="1" solref="${solref}" solimp="${solimp}"/></default>
  <worldbody>
    <geom name="floor" type="plane" size="5 5 .1"/>
    <body name="ball" pos="0 0 ${z}"><freejoint/><geom name="ball" type="sphere" size="0.1"/></body>
  </worldbody>
</mujoco>`;

async function mujocoRow(xml: string, vz: number): Promise<{ aref: number; pos: number; vel: number; K: number; B: number; imp: number }> {
  return withMujocoXml(xml, (mj, m, d) => {
    (d.qvel as Float64Array)[2] = vz;
    mj.mj_forward(m, d);
    const D = d as unknown as Record<string, ArrayLike<number>> & { nefc: number };
    assert.equal(D.nefc, 1, 'one frictionless contact row');
    return { aref: D.efc_aref[0], pos: D.efc_pos[0], vel: D.efc_vel[0], K: D.efc_KBIP[0], B: D.efc_KBIP[1], imp: D.efc_KBIP[2] };
  });
}

const rel = (a: number, b: number) => Math.abs(a - b) / Math.max(1e-300, Math.abs(b));

test("reference acceleration and impedance equal MuJoCo's efc_aref and efc_KBIP (on the curve, at full width, and with τ clamped to 2·h)", async () => {
  const cases: { z: number; vz: number; solref: [number, number]; solimp: SoftContact['solimp']; dt: number }[] = [
    { z: 0.08, vz: -0.3, solref: [0.03, 0.8], solimp: [0.5, 0.9, 0.05, 0.3, 3], dt: 0.004 }, // |r| = 0.02 < width: on the curve, above mid
    { z: 0.095, vz: 0.2, solref: [0.03, 0.8], solimp: [0.5, 0.9, 0.05, 0.3, 3], dt: 0.004 }, // |r| = 0.005: below mid
    { z: 0.07, vz: 0, solref: [0.02, 1], solimp: [0.9, 0.95, 0.001, 0.5, 2], dt: 0.002 }, // MuJoCo's defaults, beyond the width
    { z: 0.09, vz: -1, solref: [0.001, 1], solimp: [0.9, 0.95, 0.001, 0.5, 2], dt: 0.002 }, // τ below 2·h: MuJoCo uses 2·h
  ];
  for (const c of cases) {
    const mj = await mujocoRow(ball(c.z, c.solref.join(' '), c.solimp.join(' '), c.dt), c.vz);
    const soft: SoftContact = { solref: c.solref, solimp: c.solimp };
    assert.ok(Math.abs(mj.pos - (c.z - 0.1)) < 1e-15, `MuJoCo's violation is the penetration (${mj.pos})`);
    const d = impedance(c.solimp, mj.pos);
    assert.ok(rel(d, mj.imp) < 1e-12, `impedance ${d} vs MuJoCo ${mj.imp}`);
    const { aref } = referenceAcceleration(soft, mj.pos, mj.vel, c.dt);
    assert.ok(rel(aref, mj.aref) < 1e-12, `aref ${aref} vs MuJoCo ${mj.aref} (z ${c.z}, v ${c.vz})`);
  }
});

test('the velocity formulation recovers an overlap by MuJoCo’s reference acceleration, never deeper, and with erp absent the fields', async () => {
  const dt = 0.004;
  const parse = await load(ball(0.08, '0.03 0.8', '0.5 0.9 0.05 0.3 3', dt));
  const scene = parse.scene!;
  // the hard contact that recovers by MuJoCo's reference (imports solve MuJoCo's soft rows: soft-contact-rows.test.ts)
  assert.equal(scene.solver.contacts.soft, true);
  delete scene.solver.contacts.soft;
  assert.deepEqual(scene.solver.contacts.solref, [0.03, 0.8]);
  assert.deepEqual(scene.solver.contacts.solimp, [0.5, 0.9, 0.05, 0.3, 3]);
  const soft: SoftContact = { solref: [0.03, 0.8], solimp: [0.5, 0.9, 0.05, 0.3, 3] };
  // at rest, 2 cm into the floor: one step's normal velocity is the target h·d·aref (gravity is weaker than the target)
  const sim = new Simulation(scene, parse.sourceMap);
  sim.step(1);
  const ball1 = sim.result().final.bodies.find((b) => b.name === 'ball')!;
  const expected = softRecoveryTarget(soft, -0.02, 0, dt);
  assert.ok(expected > 0.05 && expected < 0.2, `target ${expected}`);
  assert.ok(Math.abs(ball1.velocity[2] - expected) < 1e-9, `v_z ${ball1.velocity[2]} vs ${expected}`);
  // erp would push it out at erp·|r|/h = 1 m/s
  const hard = await load(ball(0.08, '0.03 0.8', '0.5 0.9 0.05 0.3 3', dt));
  delete hard.scene!.solver.contacts.solref;
  delete hard.scene!.solver.contacts.solimp;
  delete hard.scene!.solver.contacts.soft;
  const simHard = new Simulation(hard.scene!, hard.sourceMap);
  simHard.step(1);
  const v = simHard.result().final.bodies.find((b) => b.name === 'ball')!.velocity[2];
  assert.ok(Math.abs(v - (0.2 * 0.02) / dt) < 1e-9, `erp recovery ${v}`);
  // approaching into the overlap: the target never lets it go deeper
  assert.equal(softRecoveryTarget(soft, -0.02, -5, dt), 0);
  // the overlap is gone in a few τ and the ball rests without bouncing off
  sim.step(Math.round(0.3 / dt));
  const end = sim.result().final.bodies.find((b) => b.name === 'ball')!;
  assert.ok(Math.abs(end.position[2] - 0.1) < 1e-3 && Math.abs(end.velocity[2]) < 1e-3, `rests at ${end.position[2]}, v ${end.velocity[2]}`);
});

test('solver.contacts.solref / solimp: checked ranges (CL005), solref alone takes MuJoCo’s default solimp, and Export as Scene writes them back', async () => {
  const scene = (contacts: unknown) =>
    JSON.stringify({ bodies: [{ name: 'b', mass: 1, inertia: [1, 1, 1], position: [0, 0, 1], shapes: [{ type: 'sphere', radius: 0.1 }] }], world: { shapes: [{ type: 'plane' }] }, solver: { formulation: 'velocity', contacts } });
  const ok = parseScene(scene({ solref: [0.02, 1] }));
  assert.deepEqual(ok.scene?.solver.contacts.solimp, [0.9, 0.95, 0.001, 0.5, 2]);
  assert.equal(ok.diagnostics.filter((d) => d.severity === 'error').length, 0);
  for (const bad of [{ solref: [0, 1] }, { solref: [0.02, -1] }, { solimp: [0.9, 1, 0.001, 0.5, 2] }, { solimp: [0.9, 0.95, 0, 0.5, 2] }, { solimp: [0.9, 0.95, 0.001, 0.5, 0.5] }, { solref: [0.02] }]) {
    const r = parseScene(scene(bad));
    const errs = r.diagnostics.filter((d) => d.severity === 'error');
    assert.ok(errs.length === 1 && /CL00[25]/.test(errs[0].code), `${JSON.stringify(bad)}: ${errs.map((d) => d.code + ' ' + d.message).join('; ')}`);
    assert.ok(/solver\.contacts\.sol(ref|imp)/.test(errs[0].message), errs[0].message);
  }
  const parse = await load(ball(0.08, '0.03 0.8', '0.5 0.9 0.05 0.3 3'));
  const text = exportScene({ scene: parse.scene!, path: '/virtual/m.xml' });
  const back = parseScene(text);
  assert.deepEqual(back.scene?.solver.contacts.solref, [0.03, 0.8]);
  assert.deepEqual(back.scene?.solver.contacts.solimp, [0.5, 0.9, 0.05, 0.3, 3]);
  assert.equal(back.scene?.solver.contacts.soft, true, 'soft rows written back');
  const ballBack = back.scene?.bodies.find((b) => b.name === 'ball');
  assert.equal(ballBack?.contactInvWeight, parse.scene!.bodies.find((b) => b.name === 'ball')!.contactInvWeight, 'the contact weight written back');
  assert.ok((ballBack?.contactInvWeight ?? 0) > 0);
});

test('geoms with different solref: the most common is the scene\'s, the others are on their shapes (not listed as not simulated)', async () => {
  const xml = `<mujoco><worldbody><geom name="floor" type="plane" size="5 5 .1"/>
    <body name="a" pos="0 0 1"><freejoint/><geom name="a" type="sphere" size="0.1"/></body>
    <body name="b" pos="1 0 1"><freejoint/><geom name="b" type="sphere" size="0.1" solref="0.05 1"/></body></worldbody></mujoco>`;
  const parse = await load(xml);
  assert.deepEqual(parse.scene!.solver.contacts.solref, [0.02, 1]);
  assert.deepEqual(parse.scene!.bodies.find((b) => b.name === 'b')!.shapes[0].solref, [0.05, 1]);
  assert.equal(parse.scene!.bodies.find((b) => b.name === 'a')!.shapes[0].solref, undefined);
  const listed = parse.diagnostics.filter((d) => d.code.startsWith('CL606') && /solref/.test(d.message));
  assert.equal(listed.length, 0, parse.diagnostics.map((d) => d.message).join('\n'));
});
