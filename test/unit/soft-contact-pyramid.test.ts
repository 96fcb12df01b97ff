// MuJoCo's pyramidal friction cone for soft contacts (solver.contacts.cone "pyramidal", MuJoCo's default
// and what imports take): the edges' regulariser against efc_R, and one step's contact force against
// MuJoCo's efc_force (four edges per contact, R_n = Σ f_e, R_tk = μ·(f_k+ − f_k−) in MuJoCo's contact
// frame), on a sphere sliding and sticking on a tilted plane, whose tangents are not the world axes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseScene, Simulation, type ContactReport } from '../../src/engine';
import { PyramidRows } from '../../src/engine/contact/pyramid';
import { softRow } from '../../src/engine/contact/softContact';
import { loadModel } from '../../src/import/index';
import { withMujocoXml } from './mujoco-helpers';

const load = (xml: string) => loadModel('/virtual/m.xml', xml, { files: { workspaceRoot: '/virtual', readFile: () => undefined } });

type V3 = [number, number, number];
const norm = (v: V3): V3 => {
  const l = Math.hypot(...v);
  return [v[0] / l, v[1] / l, v[2] / l];
};
const cross = (a: V3, b: V3): V3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

// the plane's normal, and two tangents of it (the sphere's sliding directions)
const N = norm([0.3, -0.4, 1]);
const T1 = norm(cross(N, [1, 0, 0]));
const T2 = cross(N, T1);

const model = (cone: string, depth: number, dt: number, impratio = 1, n: V3 = N) => {
  const p = n.map((x) => x * (0.1 - depth));
  return `<mujoco>
  <option timestep="${dt}" cone="${cone}" impratio="${impratio}" tolerance="1e-15" iterations="500" solver="Newton"/>
  <default><geom condim="3" friction="0.8 0.005 0.0001" solref="0.02 1" solimp="0.8 0.95 0.01 0.5 2"/></default>
  <worldbody>
    <geom name="floor" type="plane" size="5 5 .1" zaxis="${n.join(' ')}"/>
    <body name="b" pos="${p.join(' ')}"><freejoint/><geom name="g" type="sphere" size="0.1" mass="2"/></body>
  </worldbody>
</mujoco>`;
};

interface MjStep {
  R: number[];
  /** The contact force on the sphere, world frame (normal part and friction part). */
  fn: V3;
  ft: V3;
  dist: number;
  invweight: number;
}

/** MuJoCo at the initial state with velocity qvel: efc_R and the contact's world force from efc_force. */
function mujoco(xml: string, qvel: number[]): Promise<MjStep> {
  return withMujocoXml(xml, (mj, m, d) => {
    (d.qvel as Float64Array).set(qvel);
    mj.mj_forward(m, d);
    const D = d as unknown as Record<string, ArrayLike<number>> & { ncon: number; contact: { get(i: number): { dist: number; frame: ArrayLike<number>; friction: ArrayLike<number>; geom1: number; delete?(): void } } };
    assert.equal(D.ncon, 1, 'one contact');
    const c = D.contact.get(0);
    const frame = Array.from(c.frame), mu = c.friction[0], dist = c.dist, g1 = c.geom1;
    c.delete?.();
    const f = Array.from(D.efc_force);
    assert.equal(f.length, 4, 'four pyramid edges');
    // contact frame → world; MuJoCo's force acts on geom2 along +normal (geom1 the floor here)
    const sign = g1 === 0 ? 1 : -1;
    const n = [f[0] + f[1] + f[2] + f[3], mu * (f[0] - f[1]), mu * (f[2] - f[3])];
    const row = (k: number): V3 => [frame[3 * k], frame[3 * k + 1], frame[3 * k + 2]];
    const fn = row(0).map((x) => sign * n[0] * x) as V3;
    const ft = [0, 1, 2].map((i) => sign * (n[1] * row(1)[i] + n[2] * row(2)[i])) as V3;
    const M = m as unknown as Record<string, ArrayLike<number>>;
    return { R: Array.from(D.efc_R), fn, ft, dist, invweight: M.body_invweight0[2] };
  });
}

/** Our step from the same state: the contact force on the sphere in the world frame. */
async function ours(xml: string, qvel: number[], cone?: 'elliptic') {
  const parse = await load(xml);
  const scene = parse.scene!;
  assert.equal(scene.solver.contacts.cone, cone ? 'elliptic' : 'pyramidal', 'the import takes the model cone');
  scene.solver.pgs.tolerance = 1e-14;
  scene.solver.pgs.iterations = 5000;
  const b = scene.bodies.find((x) => x.name === 'b')!;
  b.velocity = [qvel[0], qvel[1], qvel[2]];
  b.angularVelocity = [qvel[3], qvel[4], qvel[5]];
  const sim = new Simulation(scene, parse.sourceMap);
  sim.step(1);
  const cs = sim.records[0].contacts ?? [];
  assert.equal(cs.length, 1, 'one contact');
  const c: ContactReport = cs[0];
  // the force on the body that is the sphere: the normal points from B to A
  const sign = c.bodyA === 'b' ? 1 : -1;
  const fn = c.normal.map((x) => sign * c.normalForce * x) as V3;
  const ft = [0, 1, 2].map((i) => sign * (c.frictionForce[0] * c.t1[i] + c.frictionForce[1] * c.t2[i])) as V3;
  return { fn, ft, scene };
}

const gap = (a: V3, b: V3) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

// 1 nm deep: MuJoCo's Jacobian takes both bodies at the contact's midpoint, ours each at its witness
// point, and their lever arms differ by half the penetration (soft-contact-rows.test.ts)
const DEPTH = 1e-9;

for (const [name, speed] of [
  ['sliding fast', 0.5],
  ['sliding slowly', 0.004],
] as const) {
  test(`a sphere on a tilted plane, ${name}: the contact force equals MuJoCo's pyramidal efc_force`, async () => {
    const dt = 0.002;
    // oblique to both of MuJoCo's tangents, and towards the plane
    const v = [0, 1, 2].map((i) => speed * (0.8 * T1[i] + 0.6 * T2[i]) - 0.02 * N[i]);
    const qvel = [...v, 0, 0, 0];
    const xml = model('pyramidal', DEPTH, dt);
    const mj = await mujoco(xml, qvel);
    const o = await ours(xml, qvel);
    const scale = Math.hypot(...mj.fn);
    assert.ok(scale > 1, `the sphere presses (${scale} N)`);
    const disc = await ours(model('elliptic', DEPTH, dt), qvel, 'elliptic');
    assert.ok(gap(o.fn, mj.fn) < 1e-7 * scale, `normal ${o.fn} vs MuJoCo ${mj.fn}`);
    assert.ok(gap(o.ft, mj.ft) < 1e-7 * scale, `friction ${o.ft} vs MuJoCo ${mj.ft}`);
    // the Coulomb disc (the elliptic cone's law here) gives another force: the test tells them apart
    assert.ok(gap(disc.ft, mj.ft) > 1e-3 * scale, `the disc's friction ${disc.ft} differs from the pyramid's ${mj.ft}`);
  });
}

test("the edges' regulariser is MuJoCo's efc_R: 2μ²/impratio·(1 − d)/d·Â·(1 + μ²), the same on all four", async () => {
  const dt = 0.002;
  for (const impratio of [1, 3]) {
    const xml = model('pyramidal', 0.004, dt, impratio);
    const mj = await mujoco(xml, [0, 0, 0, 0, 0, 0]);
    const scene = (await load(xml)).scene!;
    assert.equal(scene.solver.contacts.impratio, impratio === 1 ? undefined : impratio);
    const w = scene.bodies.find((x) => x.name === 'b')!.contactInvWeight!;
    const out = new Float64Array(4);
    softRow({ solref: scene.solver.contacts.solref!, solimp: scene.solver.contacts.solimp! }, mj.dist, 0, dt, w, out);
    const rows = new PyramidRows(1);
    rows.setup(0, N, T1, T2, 0.8, out, 0, 0, impratio);
    for (const r of mj.R) assert.ok(Math.abs(rows.sigma[0] / dt - r) < 1e-12 * r, `R_py ${rows.sigma[0] / dt} vs efc_R ${r} (impratio ${impratio})`);
  }
});

test("the pyramid's edges lie along MuJoCo's tangents: t1 from the world y axis (z when the normal is near y)", () => {
  const rows = new PyramidRows(2);
  const soft = [0, 1, 1, 1];
  // a level floor: MuJoCo's t1 is +y, ours (t1, t2) = (y, −x): the first edge pair along t1
  rows.setup(0, [0, 0, 1], [0, 1, 0], [-1, 0, 0], 0.5, soft, 0, 0, 1);
  assert.deepEqual([rows.dir[0], rows.dir[1]], [1, 0]);
  // a wall facing y: MuJoCo's t1 is +z; with (t1, t2) = (x, z) it is the second tangent
  rows.setup(1, [0, 1, 0], [1, 0, 0], [0, 0, 1], 0.5, soft, 0, 0, 1);
  assert.ok(Math.abs(rows.dir[2]) < 1e-15 && Math.abs(rows.dir[3] - 1) < 1e-15, `${rows.dir[2]}, ${rows.dir[3]}`);
  // forces round trip: edge forces → (R_n, R_t1, R_t2) → warm-start edges → the same contact forces
  const R = new Float64Array([0, 0, 0]);
  rows.f.set([1, 0.25, 0.5, 0.75], 4);
  rows.forces(1, R, 0);
  assert.ok(Math.abs(R[0] - 2.5) < 1e-15);
  const again = Float64Array.from(R);
  rows.warm(1, again, 0);
  for (let k = 0; k < 3; k++) assert.ok(Math.abs(again[k] - R[k]) < 1e-14, `warm start keeps R (${again} vs ${R})`);
});

test('the scene reads solver.contacts.cone and impratio, and a hinge\'s soft-limit fields; bad values are errors with their path', async () => {
  const text = (contacts: unknown, hinge: Record<string, unknown>) =>
    JSON.stringify({
      bodies: [{ name: 'b', mass: 1, inertia: [1, 1, 1], position: [0, 0, 1], shapes: [{ type: 'sphere', radius: 0.1 }] }],
      constraints: [{ name: 'h', type: 'hinge', bodyA: 'world', bodyB: 'b', anchorA: [0, 0, 1], anchorB: [0, 0, 0], axisA: [0, 1, 0], limits: [-1, 1], ...hinge }],
      world: { shapes: [{ type: 'plane' }] },
      solver: { formulation: 'velocity', contacts },
    });
  const ok = parseScene(text({ soft: true, cone: 'pyramidal', impratio: 2 }, { limitSolref: [0.03, 1], limitSolimp: [0.8, 0.9, 0.01, 0.5, 2], limitInvWeight: 4 }));
  assert.deepEqual(ok.diagnostics.filter((d) => d.severity === 'error'), []);
  assert.deepEqual([ok.scene?.solver.contacts.cone, ok.scene?.solver.contacts.impratio], ['pyramidal', 2]);
  const h = ok.scene!.constraints[0];
  assert.deepEqual([h.limitSolref, h.limitSolimp, h.limitInvWeight], [[0.03, 1], [0.8, 0.9, 0.01, 0.5, 2], 4]);
  const bad = parseScene(text({ soft: true, cone: 'round', impratio: 0 }, { limitSolimp: [1.2, 0.9, 0.01, 0.5, 2], limitInvWeight: -1 }));
  const errs = bad.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message);
  for (const f of ['solver.contacts.cone', 'solver.contacts.impratio', 'limitSolimp', 'limitInvWeight']) assert.ok(errs.some((m) => m.includes(f)), `an error on ${f}: ${errs.join(' | ')}`);
});

test("a sphere set exactly on the floor falls into it for one step and then rests as MuJoCo's: a soft contact acts from dist < 0, as MuJoCo's", async () => {
  const dt = 0.002, steps = 100;
  // a level floor: the sphere only sinks (on a tilted one it also creeps, where the contact point's
  // lever arm, MuJoCo's midpoint against ours, parts the runs by 1e-4 of the creep)
  const xml = model('pyramidal', 0, dt, 1, [0, 0, 1]);
  const mj = await withMujocoXml(xml, (mjx, m, d) => {
    const out: { ncon: number; p: number[] }[] = [];
    for (let k = 0; k < steps; k++) {
      const ncon = (d as unknown as { ncon: number }).ncon;
      mjx.mj_step(m, d);
      out.push({ ncon, p: Array.from((d.qpos as Float64Array).slice(0, 3)) });
    }
    return out;
  });
  const parse = await load(xml);
  parse.scene!.solver.pgs.tolerance = 1e-14;
  parse.scene!.solver.pgs.iterations = 5000;
  const sim = new Simulation(parse.scene!, parse.sourceMap);
  sim.step(steps);
  const p0 = parse.scene!.bodies[0].position;
  // MuJoCo's first step has no contact row (its distance is 0, not below 0): a free fall of g·h²
  const fall = Math.hypot(...mj[0].p.map((x, i) => x - p0[i]));
  assert.ok(Math.abs(fall - 9.81 * dt * dt) < 1e-12, `MuJoCo's first step falls ${fall}`);
  for (let k = 0; k < steps; k++) {
    const ours = sim.records[k].poses.slice(0, 3);
    const d = Math.hypot(...ours.map((x, i) => x - mj[k].p[i]));
    assert.ok(d < 1e-10, `step ${k + 1}: ${ours} vs MuJoCo ${mj[k].p} (${d})`);
  }
});

test('a capsule foot sliding obliquely on the floor (two contacts, pyramidal cone) follows MuJoCo step by step; the disc does not', async () => {
  // 20 steps: it slides, MuJoCo's pyramid lifts it off the floor for a while, and it lands again
  const dt = 0.002, steps = 20;
  const foot = (cone: string) => `<mujoco>
  <option timestep="${dt}" cone="${cone}"/>
  <default><geom condim="3" friction="0.7 0.1 0.1"/></default>
  <worldbody>
    <geom name="floor" type="plane" size="5 5 .1"/>
    <body name="b" pos="0 0 0.0499"><freejoint/><geom name="g" type="capsule" size="0.05 0.1" zaxis="1 0 0" mass="3"/></body>
  </worldbody>
</mujoco>`;
  const qvel = [0.6, 0.35, 0, 0, 0, 0.5];
  const mjRun = (xml: string) =>
    withMujocoXml(xml, (mjx, m, d) => {
      (d.qvel as Float64Array).set(qvel);
      const out: number[][] = [];
      for (let k = 0; k < steps; k++) {
        mjx.mj_step(m, d);
        out.push(Array.from((d.qpos as Float64Array).slice(0, 3)));
      }
      return out;
    });
  const oursRun = async (xml: string) => {
    const parse = await load(xml);
    const scene = parse.scene!;
    scene.solver.pgs.tolerance = 1e-13;
    scene.solver.pgs.iterations = 5000;
    const b = scene.bodies[0];
    b.velocity = [qvel[0], qvel[1], qvel[2]];
    b.angularVelocity = [qvel[3], qvel[4], qvel[5]];
    const sim = new Simulation(scene, parse.sourceMap);
    sim.step(steps);
    assert.equal(sim.records[1].contacts?.length, 2, 'two contacts, one per end');
    return sim.records.map((r) => r.poses.slice(0, 3));
  };
  const mj = await mjRun(foot('pyramidal'));
  const ours = await oursRun(foot('pyramidal'));
  const disc = await oursRun(foot('elliptic'));
  let worst = 0, discWorst = 0;
  for (let k = 0; k < steps; k++) {
    worst = Math.max(worst, Math.hypot(...ours[k].map((x, i) => x - mj[k][i])));
    discWorst = Math.max(discWorst, Math.hypot(...disc[k].map((x, i) => x - mj[k][i])));
  }
  const travel = Math.hypot(mj[steps - 1][0], mj[steps - 1][1]);
  assert.ok(travel > 0.015, `it slides (${travel} m)`);
  // the contact points' lever arms (MuJoCo's midpoint, ours the witness points, 0.1 mm apart here) part
  // the runs by 2e-6 m over the first 10 steps and 4e-5 m by the landing; the disc is 2 mm off
  assert.ok(worst < 1e-4, `the pyramid's path is MuJoCo's to ${worst} m`);
  assert.ok(discWorst > 1e-3, `the disc's path is off by ${discWorst} m`);
});
