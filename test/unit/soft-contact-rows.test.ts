// Contacts as MuJoCo's soft constraints (solver.contacts.soft, on for imported models): the rows'
// regulariser R = (1 − d)/d·Â and the forces of one step against MuJoCo's efc_R and efc_force, on a
// sphere and on a box resting on a plane (elliptic cone, sticking: both solve (A + R)·f = aref − a₀).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseScene, Simulation } from '../../src/engine';
import { softRow, type SoftContact } from '../../src/engine/contact/softContact';
import { loadModel } from '../../src/import/index';
import { withMujocoXml } from './mujoco-helpers';

const load = (xml: string) => loadModel('/virtual/m.xml', xml, { files: { workspaceRoot: '/virtual', readFile: () => undefined } });

const model = (geom: string, z: number, dt: number) => `<mujoco>
  <option timestep="${dt}" cone="elliptic" tolerance="1e-14" iterations="200"/>
  <default><geom condim="3" friction="0.8 0.005 0.0001" solref="0.02 1" solimp="0.8 0.95 0.01 0.5 2"/></default>
  <worldbody>
    <geom name="floor" type="plane" size="5 5 .1"/>
    <body name="b" pos="0 0 ${z}"><freejoint/><geom name="g" ${geom} mass="2"/></body>
  </worldbody>
</mujoco>`;

interface MjContacts {
  R: number[];
  force: number[];
  invweight: number;
  dist: number[];
}

/** MuJoCo at the initial state with velocity qvel: efc_R, efc_force (3 per contact: n, t1, t2) and the body's translational body_invweight0. */
function mujoco(xml: string, qvel: number[]): Promise<MjContacts> {
  return withMujocoXml(xml, (mj, m, d) => {
    (d.qvel as Float64Array).set(qvel);
    mj.mj_forward(m, d);
    const D = d as unknown as Record<string, ArrayLike<number>> & { nefc: number; ncon: number; contact: { get(i: number): { dist: number; delete?(): void } } };
    const M = m as unknown as Record<string, ArrayLike<number>>;
    const dist: number[] = [];
    for (let i = 0; i < D.ncon; i++) {
      const c = D.contact.get(i);
      dist.push(c.dist);
      c.delete?.();
    }
    return { R: Array.from(D.efc_R), force: Array.from(D.efc_force), invweight: M.body_invweight0[2], dist };
  });
}

const rel = (a: number, b: number) => Math.abs(a - b) / Math.max(1e-300, Math.abs(b));

async function ours(xml: string, qvel: number[]) {
  const parse = await load(xml);
  const scene = parse.scene!;
  assert.equal(scene.solver.contacts.soft, true, 'imported contacts are soft');
  scene.solver.pgs.tolerance = 1e-14;
  scene.solver.pgs.iterations = 2000;
  const b = scene.bodies.find((x) => x.name === 'b')!;
  b.velocity = [qvel[0], qvel[1], qvel[2]];
  b.angularVelocity = [qvel[3], qvel[4], qvel[5]];
  const sim = new Simulation(scene, parse.sourceMap);
  sim.step(1);
  return { scene, contacts: sim.records[0].contacts ?? [] };
}

test("a sphere 5 mm into the floor, sliding slowly: R = (1 − d)/d·Â and the contact force equal MuJoCo's efc_R and efc_force", async () => {
  const dt = 0.002, qvel = [0.01, -0.005, -0.05, 0, 0, 0];
  const xml = model('type="sphere" size="0.1"', 0.095, dt);
  const mj = await mujoco(xml, qvel);
  assert.equal(mj.R.length, 3, 'one elliptic contact');
  const { scene, contacts } = await ours(xml, qvel);
  const w = scene.bodies.find((x) => x.name === 'b')!.contactInvWeight!;
  assert.ok(rel(w, mj.invweight) < 1e-12, `contactInvWeight ${w} vs body_invweight0 ${mj.invweight}`);
  const soft: SoftContact = { solref: scene.solver.contacts.solref!, solimp: scene.solver.contacts.solimp! };
  const out = new Float64Array(4);
  softRow(soft, mj.dist[0], qvel[2], dt, w, out);
  assert.ok(rel(out[1] / dt, mj.R[0]) < 1e-12, `R_n ${out[1] / dt} vs efc_R ${mj.R[0]}`);
  assert.ok(rel(out[3] / dt, mj.R[1]) < 1e-12 && rel(out[3] / dt, mj.R[2]) < 1e-12, `R_t ${out[3] / dt} vs efc_R ${mj.R[1]}, ${mj.R[2]}`);
  assert.equal(contacts.length, 1);
  const c = contacts[0];
  assert.ok(rel(c.normalForce, mj.force[0]) < 1e-8, `f_n ${c.normalForce} vs MuJoCo ${mj.force[0]}`);
  // friction: MuJoCo's Jacobian takes both bodies at the contact's midpoint, ours each body at its own
  // witness point, so the sphere's lever arm differs by half the penetration (here 2.5 % of A_tt's
  // rotational part); 1 µm into the floor the two agree to the lever arm's 1e-5
  const near = model('type="sphere" size="0.1"', 0.1 - 1e-6, dt);
  const mjNear = await mujoco(near, qvel);
  const cn = (await ours(near, qvel)).contacts[0];
  const ft = Math.hypot(...cn.frictionForce), mft = Math.hypot(mjNear.force[1], mjNear.force[2]);
  assert.ok(mft > 1e-3 * mjNear.force[0] && mft < 0.8 * mjNear.force[0], `the case sticks with friction (${mft})`);
  assert.ok(rel(cn.normalForce, mjNear.force[0]) < 1e-8, `f_n ${cn.normalForce} vs MuJoCo ${mjNear.force[0]}`);
  assert.ok(rel(ft, mft) < 3e-5, `|f_t| ${ft} vs MuJoCo ${mft}`);
});

test("a box resting 1 mm into the floor on four corners: every corner's force equals MuJoCo's (the regulariser makes the split unique)", async () => {
  const dt = 0.002, qvel = [0, 0, 0, 0, 0, 0];
  const xml = model('type="box" size="0.2 0.1 0.05"', 0.049, dt);
  const mj = await mujoco(xml, qvel);
  assert.equal(mj.dist.length, 4, 'four corner contacts');
  const { contacts } = await ours(xml, qvel);
  assert.equal(contacts.length, 4);
  const mjN = [0, 1, 2, 3].map((k) => mj.force[3 * k]).sort((a, b) => a - b);
  const ourN = contacts.map((c) => c.normalForce).sort((a, b) => a - b);
  for (let k = 0; k < 4; k++) assert.ok(rel(ourN[k], mjN[k]) < 1e-8, `corner ${k}: f_n ${ourN[k]} vs MuJoCo ${mjN[k]}`);
  for (const c of contacts) assert.ok(Math.hypot(...c.frictionForce) < 1e-9 * c.normalForce, 'no friction at rest on a level floor');
});

test('solver.contacts.soft: a boolean read from the scene; without it the closed-form hard contacts stay', () => {
  const text = (contacts: unknown) =>
    JSON.stringify({ bodies: [{ name: 'b', mass: 1, inertia: [1, 1, 1], position: [0, 0, 1], contactInvWeight: 0.5, shapes: [{ type: 'sphere', radius: 0.1 }] }], world: { shapes: [{ type: 'plane' }] }, solver: { formulation: 'velocity', contacts } });
  const on = parseScene(text({ soft: true }));
  assert.equal(on.scene?.solver.contacts.soft, true);
  assert.equal(on.scene?.bodies[0].contactInvWeight, 0.5);
  assert.equal(parseScene(text({})).scene?.solver.contacts.soft, undefined);
  const bad = parseScene(text({ soft: 1 }));
  assert.ok(bad.diagnostics.some((d) => d.severity === 'error' && /solver\.contacts\.soft/.test(d.message)));
});
