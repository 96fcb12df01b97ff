// Sleeping islands (solver.contacts.sleep; engine contact/sleep.ts) against MuJoCo's rule: a tree
// sleeps on the 10th step in a row that starts below the tolerance, an island only whole, a sleeping
// body stays put and is left out of detection until an awake body touches it, and then its island
// wakes in that very step. Also: the scene field, the importer's `<flag sleep>`, the replay of a
// sleeping step, and MuJoCo's own sleeping on the same model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseScene, Simulation } from '../../src/engine';
import type { BodyState } from '../../src/engine/model/body';
import { Codes } from '../../src/engine/core/codes';
import { detectContacts } from '../../src/engine/collision/detect';
import { AWAKE, MIN_AWAKE } from '../../src/engine/contact/sleep';
import { loadModel } from '../../src/import/index';
import { loadMujoco } from '../../src/import/mujoco';

interface BoxSpec {
  name: string;
  z: number;
  x?: number;
  force?: [number, number, number];
  sleep?: 'never' | 'allowed';
}

/** Boxes (0.2 m, 1 kg) over a ground plane, velocity formulation, dt 0.005. */
function boxesScene(boxes: BoxSpec[], contacts: Record<string, unknown> = { sleep: true }, formulation = 'velocity'): string {
  const I = (1 / 3) * 2 * 0.01;
  return JSON.stringify({
    solver: { dt: 0.005, formulation, contacts },
    world: { shapes: [{ type: 'plane', name: 'ground' }] },
    bodies: boxes.map((b) => ({
      name: b.name,
      mass: 1,
      inertia: [I, I, I],
      position: [b.x ?? 0, 0, b.z],
      ...(b.force ? { force: b.force } : {}),
      ...(b.sleep ? { sleep: b.sleep } : {}),
      shapes: [{ type: 'box', halfExtents: [0.1, 0.1, 0.1] }],
    })),
  });
}

function simOf(text: string): Simulation {
  const parsed = parseScene(text);
  assert.ok(parsed.scene && !parsed.hasErrors, JSON.stringify(parsed.diagnostics));
  return new Simulation(parsed.scene, parsed.sourceMap);
}

const speed = (s: { velocity: number[]; angularVelocity: number[] }) => Math.max(...s.velocity.map(Math.abs), ...s.angularVelocity.map((w) => Math.abs(w) * Math.hypot(0.1, 0.1, 0.1)));

test('solver.contacts.sleep: off by default, read with its tolerance; a wrong value is named', () => {
  const plain = parseScene(boxesScene([{ name: 'a', z: 0.1 }], {}));
  assert.equal(plain.scene?.solver.contacts.sleep, undefined);
  const on = parseScene(boxesScene([{ name: 'a', z: 0.1 }], { sleep: true, sleepTolerance: 0.002 }));
  assert.equal(on.scene?.solver.contacts.sleep, true);
  assert.equal(on.scene?.solver.contacts.sleepTolerance, 0.002);
  const bad = parseScene(boxesScene([{ name: 'a', z: 0.1 }], { sleep: 'yes', sleepTolerance: -1 }));
  const codes = bad.diagnostics.map((d) => d.code);
  assert.ok(codes.includes(Codes.schemaType) && codes.includes(Codes.invalidValue), codes.join());
  assert.ok(bad.diagnostics.some((d) => d.message.includes('solver.contacts.sleepTolerance')));
  assert.ok(bad.diagnostics.some((d) => d.message.includes('solver.contacts.sleep`')));
});

test('a box dropped on the ground sleeps on the 10th step in a row that starts below 1e-3 m/s, then stays put with no contact', () => {
  const sim = simOf(boxesScene([{ name: 'a', z: 0.15 }]));
  let still = 0, slept = -1;
  for (let k = 1; k <= 300 && slept < 0; k++) {
    const before = sim.result().final.bodies[0];
    still = speed(before) < 1e-3 ? still + 1 : 0;
    const [r] = sim.step(1);
    assert.equal(r.asleep, still >= MIN_AWAKE ? 1 : 0, `step ${k}: ${still} still steps, asleep ${r.asleep}`);
    if (r.asleep) slept = k;
  }
  assert.ok(slept > MIN_AWAKE, `slept at step ${slept}`);
  // the step it fell asleep in ends where it began, at rest
  const at = sim.result().final.bodies[0];
  assert.deepEqual(at.velocity, [0, 0, 0]);
  assert.ok(Math.abs(at.position[2] - 0.1) < 1e-4, `z ${at.position[2]}`);
  const later = sim.step(50);
  for (const r of later) {
    assert.equal(r.asleep, 1);
    assert.equal(r.contactCount ?? 0, 0);
  }
  assert.deepEqual(sim.result().final.bodies[0].position, at.position);
  assert.deepEqual(sim.result().final.bodies[0].orientation, at.orientation);
});

test('a box dropped onto a sleeping one wakes it in the step they touch; the stack then sleeps as one island, at the heights of the same run without sleeping', () => {
  const boxes: BoxSpec[] = [
    { name: 'low', z: 0.1 },
    { name: 'high', z: 0.9, x: 0.02 },
  ];
  const sleepy = simOf(boxesScene(boxes));
  const awake = simOf(boxesScene(boxes, {}));
  let woke = -1, first = -1;
  for (let k = 1; k <= 600; k++) {
    const [r] = sleepy.step(1);
    if (first < 0 && r.asleep === 1) first = k;
    // low is the one asleep until high arrives; the step they first touch has their contact and nobody asleep
    const touching = (r.contacts ?? []).some((c) => (c.bodyA === 'low' && c.bodyB === 'high') || (c.bodyA === 'high' && c.bodyB === 'low'));
    if (first > 0 && woke < 0 && touching) {
      woke = k;
      assert.equal(r.asleep, 0, `step ${k}`);
    }
  }
  awake.step(600);
  assert.ok(first > 0 && first <= MIN_AWAKE + 2, `low fell asleep at step ${first}`);
  assert.ok(woke > first, `woken at ${woke}`);
  const end = sleepy.records.at(-1)!;
  assert.equal(end.asleep, 2, 'both asleep at the end');
  const zs = sleepy.result().final.bodies.map((b) => b.position[2]);
  const ref = awake.result().final.bodies.map((b) => b.position[2]);
  assert.ok(Math.abs(zs[0] - 0.1) < 1e-4 && Math.abs(zs[1] - 0.3) < 1e-4, `stack at ${zs}`);
  for (let i = 0; i < 2; i++) assert.ok(Math.abs(zs[i] - ref[i]) < 1e-5, `box ${i}: ${zs[i]} asleep against ${ref[i]} awake`);
  assert.ok(awake.records.every((r) => r.asleep === undefined));
});

test('the nonlinear formulation sleeps alike: the box dropped onto a sleeping one wakes it, the stack sleeps where Newton rests it', () => {
  const boxes: BoxSpec[] = [
    { name: 'low', z: 0.1 },
    { name: 'high', z: 0.9, x: 0.02 },
  ];
  const sleepy = simOf(boxesScene(boxes, { sleep: true }, 'nonlinear'));
  const awake = simOf(boxesScene(boxes, {}, 'nonlinear'));
  const recs = sleepy.step(400);
  awake.step(400);
  const first = recs.findIndex((r) => r.asleep === 1) + 1;
  assert.ok(first > 0 && first <= MIN_AWAKE + 2, `low fell asleep at step ${first}`);
  const woke = recs.findIndex((r, k) => k >= first && r.asleep === 0) + 1;
  assert.ok(woke > first, `woken at step ${woke}`);
  assert.ok((recs[woke - 1].contacts ?? []).some((c) => c.bodyA === 'high' || c.bodyB === 'high'), 'woken by the contact with the falling box');
  assert.equal(recs.at(-1)!.asleep, 2);
  assert.ok(recs.every((r) => r.method === 'newton' && r.newton!.converged), 'Newton converges on every step');
  const zs = sleepy.result().final.bodies.map((b) => b.position[2]);
  const ref = awake.result().final.bodies.map((b) => b.position[2]);
  for (let i = 0; i < 2; i++) assert.ok(Math.abs(zs[i] - ref[i]) < 1e-5, `box ${i}: ${zs[i]} asleep against ${ref[i]} awake`);
});

test('a body pushed by an applied force never sleeps, even held at rest by friction, nor one that says sleep "never"', () => {
  const sim = simOf(boxesScene([{ name: 'pushed', z: 0.1, force: [0.5, 0, 0] }, { name: 'free', z: 0.1, x: 1 }, { name: 'wakeful', z: 0.1, x: -1, sleep: 'never' }]));
  const recs = sim.step(200);
  assert.ok(speed(sim.result().final.bodies[0]) < 1e-3, 'held by friction');
  assert.equal(recs.at(-1)!.asleep, 1, 'only the free box sleeps');
  assert.equal(sim.scene.bodies[2].sleep, 'never');
  assert.ok(recs.at(-1)!.contactCount! > 0, "the pushed box's contacts are still solved");
});

test('detection leaves out pairs of sleeping and static shapes, and keeps a sleeping shape against an awake one', () => {
  const parsed = parseScene(boxesScene([{ name: 'a', z: 0.1 }, { name: 'b', z: 0.3 }]));
  const scene = parsed.scene!;
  const states: BodyState[] = scene.bodies.map((b) => ({ p: [...b.position], q: [...b.orientation], v: [0, 0, 0], w: [0, 0, 0] }));
  const all = detectContacts(scene, states, { ...scene.solver.contacts, margin: 1e-3 });
  const pairs = (cs: typeof all) => new Set(cs.map((c) => `${c.bodyA}|${c.bodyB}`));
  assert.deepEqual([...pairs(all)].sort(), ['0|-1', '0|1'].sort());
  // a asleep: a–ground goes, a–b stays (b is awake)
  assert.deepEqual([...pairs(detectContacts(scene, states, { ...scene.solver.contacts, margin: 1e-3 }, Uint8Array.of(1, 0)))], ['0|1']);
  // both asleep: nothing
  assert.equal(detectContacts(scene, states, { ...scene.solver.contacts, margin: 1e-3 }, Uint8Array.of(1, 1)).length, 0);
});

test('the step shown after a run re-takes the sleeping islands: same pose, no contact, no acceleration, asleep as its record says', () => {
  const sim = simOf(boxesScene([{ name: 'a', z: 0.15 }]));
  sim.step(180);
  const k = 150;
  assert.equal(sim.records[k - 1].asleep, 1);
  const snap = sim.snapshotAt(k);
  const pose = sim.records[k - 1].poses.slice(0, 3);
  assert.deepEqual(snap.bodyStates[0].position, pose);
  assert.equal(snap.contacts?.length ?? 0, 0);
  assert.equal(snap.asleep, 1);
  // the box takes no free fall while it sleeps, and the snapshot shows none: a = 0, not g
  assert.ok(Array.from(snap.a.slice(0, 6)).every((x) => x === 0), `a = ${Array.from(snap.a.slice(0, 6))}`);
  assert.equal(AWAKE, -(1 + MIN_AWAKE));
});

test('an imported model with <flag sleep="enable"/> sleeps as MuJoCo: its tolerance and body/sleep read, the same bodies asleep, at rest where MuJoCo rests', async () => {
  const xml = `<mujoco model="sleepy"><option timestep="0.005" sleep_tolerance="0.002"><flag sleep="enable"/></option>
<worldbody><geom name="floor" type="plane" size="0 0 1"/>
<body name="a" pos="0 0 0.12"><freejoint/><geom type="box" size="0.1 0.1 0.1"/></body>
<body name="b" pos="0.02 0 0.35"><freejoint/><geom type="box" size="0.1 0.1 0.1"/></body>
<body name="c" pos="1 0 0.12"><freejoint/><geom type="sphere" size="0.1"/></body>
<body name="d" pos="-1 0 0.12" sleep="never"><freejoint/><geom type="sphere" size="0.1"/></body>
</worldbody></mujoco>`;
  const parse = await loadModel('sleepy.xml', xml);
  assert.ok(parse.scene, JSON.stringify(parse.diagnostics));
  assert.equal(parse.scene.solver.contacts.sleep, true);
  assert.equal(parse.scene.solver.contacts.sleepTolerance, 0.002);
  assert.deepEqual(parse.scene.bodies.map((b) => b.sleep), [undefined, undefined, undefined, 'never']);
  const sim = new Simulation(parse.scene, parse.sourceMap);
  sim.step(400);
  assert.equal(sim.records.at(-1)!.asleep, 3, 'a, b and c asleep; d never');
  // MuJoCo on the same model: every tree asleep by then too, at the same heights within its soft penetration
  const { mj } = await loadMujoco();
  const vfs = new mj.MjVFS();
  vfs.addBuffer('m.xml', new TextEncoder().encode(xml));
  const m = mj.MjModel.mj_loadXML('m.xml', vfs) as unknown as Record<string, unknown>;
  vfs.delete();
  const d = new mj.MjData(m as never) as unknown as Record<string, unknown> & { delete(): void };
  try {
    const step = (mj as unknown as { mj_step(m: unknown, d: unknown): void }).mj_step;
    for (let k = 0; k < 400; k++) step(m, d);
    const asleep = Array.from(d.tree_asleep as ArrayLike<number>).filter((t) => t >= 0).length;
    assert.equal(asleep, 3, 'MuJoCo: a, b and c asleep; d never');
    const xpos = d.xpos as ArrayLike<number>;
    const ours = sim.result().final.bodies.map((b) => b.position[2]);
    for (let i = 0; i < 4; i++) assert.ok(Math.abs(ours[i] - xpos[3 * (i + 1) + 2]) < 1e-3, `body ${i}: ${ours[i]} against MuJoCo's ${xpos[3 * (i + 1) + 2]}`);
  } finally {
    d.delete();
    (m as unknown as { delete(): void }).delete();
  }
});
