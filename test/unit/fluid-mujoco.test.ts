// MuJoCo's fluid forces (model/fluid.ts) against MuJoCo's WebAssembly: the inertia-box model (viscous and
// quadratic drag, wind) and the ellipsoid model (added mass, Magnus and Kutta lift, drag) on free bodies.
// At a given state the wrench on each body equals MuJoCo's qfrc_passive (mapped from the free joint's
// dofs to a wrench at the centre of mass) to 1e-10; stepped, the bodies follow MuJoCo's Euler (see
// DURATION below); the same scene without its medium does not, so the test sees the forces.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addedMass, buildFluid, parseScene, Simulation, type SceneSpec } from '../../src/engine';
import { loadModel } from '../../src/import/index';
import { exportScene } from '../../src/import/export';
import { withMujocoXml } from './mujoco-helpers';

type Vec = number[];
const KEY = (qpos: string, qvel: string) => `<keyframe><key name="k" qpos="${qpos}" qvel="${qvel}"/></keyframe>`;

// Two free bodies of several geoms each (centres of mass off the body origin, principal frames turned).
const BOX = (option: string) => `<mujoco><option ${option}/>
<worldbody>
  <body name="a" pos="0 0 1"><freejoint/>
    <geom type="box" size="0.1 0.2 0.3" pos="0.05 0 0" euler="10 20 30" mass="2" contype="0" conaffinity="0"/>
    <geom type="sphere" size="0.05" pos="0 0.2 0.1" mass="0.5" contype="0" conaffinity="0"/>
  </body>
  <body name="b" pos="1 0 1"><freejoint/>
    <geom type="capsule" size="0.04 0.2" euler="0 90 0" mass="0.7" contype="0" conaffinity="0"/>
  </body>
</worldbody>
${KEY('0 0 1 0.9 0.1 -0.3 0.2 1 0 1 1 0 0 0', '1 -2 0.5 3 -1 2 -0.4 0.3 0.8 0.5 6 -2')}</mujoco>`;

// The ellipsoid model: marked geoms (one visual-only, one a capsule off the centre), an unmarked geom
// that only adds mass, and a second body whose only marked geom is a sphere.
const ELLIPSOID = (option: string) => `<mujoco><option ${option}/>
<worldbody>
  <body name="fish" pos="0 0 1"><freejoint/>
    <geom type="ellipsoid" size="0.02 0.08 0.04" mass="0.3" fluidshape="ellipsoid" contype="0" conaffinity="0"/>
    <geom type="capsule" fromto="0 -0.1 0 0.03 -0.18 0.02" size="0.01" mass="0.05" fluidshape="ellipsoid" fluidcoef="0.4 0.3 1.2 2 0.5"/>
    <geom type="box" size="0.01 0.02 0.03" pos="0 0.05 0" mass="0.1"/>
  </body>
  <body name="ball" pos="1 0 1"><freejoint/>
    <geom type="sphere" size="0.05" mass="0.2" fluidshape="ellipsoid" fluidcoef="0.5 0.25 1.5 1 1"/>
    <geom type="cylinder" size="0.02 0.05" pos="0 0 0.06" mass="0.1" contype="0" conaffinity="0"/>
  </body>
</worldbody>
${KEY('0 0 1 0.9 0.1 -0.3 0.2 1 0 1 1 0 0 0', '0.3 -0.8 0.2 2 -1 1.5 -0.4 0.3 0.8 0.5 6 -2')}</mujoco>`;

const MEDIUM = 'density="1000" viscosity="0.002" wind="0.4 -0.3 0.1" gravity="0 0 -9.81" timestep="0.002"';

/** MuJoCo's fluid wrench on each free body at the keyframe: [f, τ about the centre of mass], world frame. */
function mujocoWrenches(xml: string): Promise<{ wrench: number[][]; geomFluid: number[] }> {
  return withMujocoXml(xml, (mj, m, d) => {
    (mj as unknown as Record<string, (...a: unknown[]) => void>).mj_resetDataKeyframe(m, d, 0);
    mj.mj_forward(m, d);
    const qfrc = d.qfrc_passive as Float64Array, xmat = d.xmat as Float64Array, xipos = d.xipos as Float64Array, xanchor = d.xanchor as Float64Array;
    const wrench: number[][] = [];
    for (let b = 1; b < Number(m.nbody); b++) {
      const j = b - 1, o = 6 * j;
      const f = [qfrc[o], qfrc[o + 1], qfrc[o + 2]];
      // the free joint's angular dofs are in the body frame and take the moment about its anchor
      const R = Array.from(xmat.slice(9 * b, 9 * b + 9));
      const tl = [qfrc[o + 3], qfrc[o + 4], qfrc[o + 5]];
      const ta = [0, 1, 2].map((r) => R[3 * r] * tl[0] + R[3 * r + 1] * tl[1] + R[3 * r + 2] * tl[2]);
      const r = [0, 1, 2].map((k) => xipos[3 * b + k] - xanchor[3 * j + k]);
      wrench.push([...f, ta[0] - (r[1] * f[2] - r[2] * f[1]), ta[1] - (r[2] * f[0] - r[0] * f[2]), ta[2] - (r[0] * f[1] - r[1] * f[0])]);
    }
    return { wrench, geomFluid: Array.from(m.geom_fluid as Float64Array) };
  });
}

async function scene(xml: string): Promise<SceneSpec> {
  const parse = await loadModel('m.xml', xml, { keyframe: 'k' });
  assert.ok(parse.scene && !parse.hasErrors, JSON.stringify(parse.diagnostics));
  return parse.scene;
}

function ourWrenches(s: SceneSpec): number[][] {
  const fluid = buildFluid(s.fluid, s.bodies);
  assert.ok(fluid, 'the imported scene has a medium');
  const w = fluid.wrenches(s.bodies.map((b) => ({ p: b.position, q: b.orientation, v: b.velocity, w: b.angularVelocity })));
  return s.bodies.map((_, i) => Array.from(w.slice(6 * i, 6 * i + 6)));
}

function assertClose(ours: Vec[], ref: Vec[], tol: number, what: string): void {
  assert.equal(ours.length, ref.length);
  const scale = Math.max(...ref.flat().map(Math.abs));
  assert.ok(scale > 1e-3, `${what}: MuJoCo's forces are not trivially small (${scale})`);
  for (let i = 0; i < ref.length; i++) for (let k = 0; k < ref[i].length; k++) {
    assert.ok(Math.abs(ours[i][k] - ref[i][k]) <= tol * scale, `${what}: body ${i} component ${k}: ${ours[i][k]} vs MuJoCo ${ref[i][k]}`);
  }
}

for (const [name, option] of [
  ['viscosity alone', 'viscosity="0.5"'],
  ['density alone', 'density="1000"'],
  ['density, viscosity and wind', MEDIUM],
] as const) {
  test(`inertia-box model, ${name}: the wrench on each body is MuJoCo's qfrc_passive to 1e-10`, async () => {
    const xml = BOX(option);
    const ref = await mujocoWrenches(xml);
    const s = await scene(xml);
    assert.ok(s.bodies.every((b) => b.shapes.every((sh) => !sh.fluidEllipsoid)));
    assertClose(ourWrenches(s), ref.wrench, 1e-10, name);
  });
}

test('ellipsoid model: added mass, lift and drag on marked geoms equal MuJoCo’s qfrc_passive to 1e-10', async () => {
  const xml = ELLIPSOID(MEDIUM);
  const ref = await mujocoWrenches(xml);
  const s = await scene(xml);
  // the visual-only marked ellipsoid is kept as a shape that collides with nothing, for its fluid force
  const fish = s.bodies[0];
  assert.deepEqual(fish.shapes.map((sh) => sh.fluidEllipsoid), [[0.5, 0.25, 1.5, 1, 1], [0.4, 0.3, 1.2, 2, 0.5], undefined]);
  assert.equal(fish.shapes[0].contype, 0);
  assertClose(ourWrenches(s), ref.wrench, 1e-10, 'ellipsoid');
});

test('an ellipsoid’s virtual masses and inertias are MuJoCo’s compiled geom_fluid', async () => {
  const xml = ELLIPSOID(MEDIUM);
  const { geomFluid } = await mujocoWrenches(xml);
  const semi: [number, number, number][] = [[0.02, 0.08, 0.04], [0.01, 0.01, Math.hypot(0.03, 0.08, 0.02) / 2 + 0.01], [0.05, 0.05, 0.05]];
  for (const [g, ax] of [[0, semi[0]], [1, semi[1]], [3, semi[2]]] as const) {
    const { virtualMass, virtualInertia } = addedMass(ax);
    const ref = geomFluid.slice(12 * g + 6, 12 * g + 12);
    [...virtualMass, ...virtualInertia].forEach((x, k) => assert.ok(Math.abs(x - ref[k]) <= 1e-12 * Math.abs(ref[k]) + 1e-18, `geom ${g} coefficient ${k}: ${x} vs ${ref[k]}`));
  }
  // a sphere's added mass is half its displaced volume (potential flow), its added inertia zero
  const sphere = addedMass([0.05, 0.05, 0.05]);
  const half = ((4 / 3) * Math.PI * 0.05 ** 3) / 2;
  for (const x of sphere.virtualMass) assert.ok(Math.abs(x - half) < 1e-3 * half, `sphere added mass ${x} vs ${half}`);
});

// The same forces, two discretisations of a turning body: the engine steps the centre of mass and turns
// by the first-order quaternion step, MuJoCo steps the free joint's origin (here off the centre of mass)
// and turns by the exact exponential. With or without fluid they part at O(h) over a run once a body
// turns, and the fluid forces, set by the orientation, carry that into the positions. So the runs are
// compared at two time steps: the gap must be a thousandth of the gap without the medium and shrink at
// least threefold when h is quartered; a sphere centred on its origin, which the medium does not spin
// up, follows MuJoCo to round-off.
const DURATION = 0.3;

/** MuJoCo's centres of mass (xipos) of the bodies after each step. */
function mujocoTrajectory(xml: string, steps: number): Promise<number[][]> {
  return withMujocoXml(xml, (mj, m, d) => {
    (mj as unknown as Record<string, (...a: unknown[]) => void>).mj_resetDataKeyframe(m, d, 0);
    const out: number[][] = [];
    for (let k = 0; k < steps; k++) {
      mj.mj_step(m, d);
      (mj as unknown as Record<string, (...a: unknown[]) => void>).mj_kinematics(m, d);
      out.push(Array.from((d.xipos as Float64Array).slice(3)));
    }
    return out;
  });
}

function engineTrajectory(s: SceneSpec, steps: number): number[][] {
  const sim = new Simulation(s);
  const out: number[][] = [];
  for (let k = 0; k < steps; k++) {
    sim.step();
    const p = sim.records[sim.records.length - 1].poses;
    out.push(s.bodies.flatMap((_, i) => p.slice(7 * i, 7 * i + 3)));
  }
  assert.ok(!sim.stopped, JSON.stringify(sim.diagnostics));
  return out;
}

const gap = (a: number[][], b: number[][]) => Math.max(...a.map((row, k) => Math.max(...row.map((x, i) => Math.abs(x - b[k][i])))));

async function runGap(xml: string, dt: number): Promise<{ g: number; dry: number }> {
  const text = xml.replace('timestep="0.002"', `timestep="${dt}"`);
  const steps = Math.round(DURATION / dt);
  const ref = await mujocoTrajectory(text, steps);
  const s = await scene(text);
  return { g: gap(engineTrajectory(s, steps), ref), dry: gap(engineTrajectory({ ...s, fluid: undefined }, steps), ref) };
}

for (const [name, xml] of [
  ['inertia box', BOX(MEDIUM)],
  ['ellipsoids', ELLIPSOID(MEDIUM)],
] as const) {
  test(`${name}: the bodies follow MuJoCo's steps, closer as h shrinks; without the medium they do not`, async () => {
    const coarse = await runGap(xml, 0.002);
    const fine = await runGap(xml, 0.0005);
    assert.ok(coarse.g < 1e-3 * coarse.dry, `${name}: ${coarse.g} m from MuJoCo, against ${coarse.dry} m without the medium`);
    assert.ok(coarse.dry > 1e-2, `${name} without the medium is only ${coarse.dry} m off: the test would not see the forces`);
    assert.ok(fine.g < coarse.g / 3, `${name}: the gap ${coarse.g} m at h = 0.002 s only went to ${fine.g} m at 0.0005 s`);
  });
}

test('a sphere in the ellipsoid model, not spun up by the medium, follows MuJoCo step by step to 1e-12 m', async () => {
  const xml = `<mujoco><option ${MEDIUM}/><worldbody><body name="ball" pos="0 0 1"><freejoint/>
    <geom type="sphere" size="0.05" mass="0.2" fluidshape="ellipsoid" fluidcoef="0.5 0.25 1.5 1 1"/></body></worldbody>
    ${KEY('0 0 1 1 0 0 0', '1 -2 0.5 0 0 0')}</mujoco>`;
  const { g, dry } = await runGap(xml, 0.002);
  assert.ok(g < 1e-12, `${g} m from MuJoCo`);
  assert.ok(dry > 1e-2, `without the medium only ${dry} m off`);
});

test('Export as Scene writes the medium and the marked shapes, and the file reads back with the same forces', async () => {
  const s = await scene(ELLIPSOID(MEDIUM));
  const text = exportScene({ scene: s });
  const back = parseScene(text);
  assert.ok(back.scene && !back.hasErrors, JSON.stringify(back.diagnostics));
  assert.deepEqual(back.scene.fluid, s.fluid);
  assertClose(ourWrenches(back.scene), ourWrenches(s), 1e-12, 'read back');
});

test('a body whose inertia is given off its principal axes feels the same drag as the same body given along them', () => {
  // a box of inertia diag(1, 2, 3) turned by 90° about z: written once as the turned tensor in an unturned body,
  // once as the diagonal tensor in a turned body
  const c = Math.SQRT1_2;
  const body = (I: number[], orientation: number[]) => ({ name: 'b', mass: 2, inertia: [I.slice(0, 3), I.slice(3, 6), I.slice(6, 9)], orientation, velocity: [0.3, -1, 2], angularVelocity: [4, 1, -2] });
  const text = (b: object) => JSON.stringify({ gravity: [0, 0, 0], fluid: { density: 800, viscosity: 0.1, wind: [0, 1, 0] }, bodies: [b] });
  const turned = parseScene(text(body([2, 0, 0, 0, 1, 0, 0, 0, 3], [0, 0, 0, 1])));
  const along = parseScene(text(body([1, 0, 0, 0, 2, 0, 0, 0, 3], [0, 0, c, c])));
  const offAxes = parseScene(text(body([1.5, -0.5, 0, -0.5, 1.5, 0, 0, 0, 3], [0, 0, 0, 1])));
  const along45 = parseScene(text(body([1, 0, 0, 0, 2, 0, 0, 0, 3], [0, 0, Math.sin(Math.PI / 8), Math.cos(Math.PI / 8)])));
  for (const p of [turned, along, offAxes, along45]) assert.ok(p.scene && !p.hasErrors, JSON.stringify(p.diagnostics));
  assertClose(ourWrenches(turned.scene!), ourWrenches(along.scene!), 1e-12, '90°');
  assertClose(ourWrenches(offAxes.scene!), ourWrenches(along45.scene!), 1e-12, '45°');
});

test('the scene’s fluid is checked: negative density, a wind of two components, a coefficient list of four', () => {
  const bad = parseScene(JSON.stringify({ fluid: { density: -1, wind: [1, 2] }, bodies: [{ name: 'b', mass: 1, shapes: [{ type: 'sphere', radius: 0.1, fluidEllipsoid: [1, 2, 3, 4] }] }] }));
  const messages = bad.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message).join('\n');
  assert.match(messages, /fluid\.density/);
  assert.match(messages, /fluid\.wind/);
  assert.match(messages, /fluidEllipsoid/);
  const convex = parseScene(JSON.stringify({ bodies: [{ name: 'b', mass: 1, shapes: [{ type: 'convex', vertices: [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], fluidEllipsoid: [0.5, 0.25, 1.5, 1, 1] }] }] }));
  assert.ok(convex.diagnostics.some((d) => /fluidEllipsoid/.test(d.message)), 'a convex shape takes no fluidEllipsoid');
});

test('<flag gravity="disable" constraint="disable"/> as MuJoCo: no gravity, no contacts; a sphere started in the floor drifts as in MuJoCo', async () => {
  const xml = `<mujoco><option density="5000" timestep="0.004"><flag gravity="disable" constraint="disable"/></option>
    <worldbody><geom name="floor" type="plane" size="1 1 0.1"/>
    <body name="ball" pos="0 0 0.01"><freejoint/><geom type="sphere" size="0.05" mass="0.3"/></body></worldbody>
    ${KEY('0 0 0.01 1 0 0 0', '0.2 0 -0.5 0 0 0')}</mujoco>`;
  const s = await scene(xml);
  assert.deepEqual(s.gravity, [0, 0, 0]);
  assert.equal(s.solver.contacts.enabled, false);
  const ref = await mujocoTrajectory(xml, 250);
  const ours = engineTrajectory(s, 250);
  assert.ok(gap(ours, ref) < 1e-12, `${gap(ours, ref)} m from MuJoCo`);
  // it sank through the floor (a contact would have pushed its centre up to 0.05), slowed by the medium
  // (without it the ball would be at 0.01 − 0.5 m)
  assert.ok(ref[249][2] < 0 && ref[249][2] > -0.2, `MuJoCo's ball at z = ${ref[249][2]}`);
});
