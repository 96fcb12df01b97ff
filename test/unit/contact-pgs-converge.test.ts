// Convergence of projected Gauss–Seidel (src/engine/contact/pgs.ts) on stacks: the tolerance
// relative to the problem's scale, warm starts matched across steps by contact identity, and the
// visit variants (order, symmetric sweeps, block step, over-relaxation) reaching the same answer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assemble, buildWorld } from '../../src/engine/assembly/assemble';
import { stepVelocity, type VelocitySettings } from '../../src/engine/contact/pgs';
import { ContactStepper, NO_WARM, type WarmStart } from '../../src/engine/contact/stepContacts';
import { initialState, type BodyState } from '../../src/engine/model/body';
import { parseScene } from '../../src/engine';
import type { Contact } from '../../src/engine/collision/contacts';
import type { Vec3 } from '../../src/engine/types';
import { body, boxInertia, boxOnBoxContacts, boxPlaneContacts, normalSum, scene, velocitySettings, worldOf } from './contact-helpers';

const g = 9.81, m = 1, N = 5;
const e: Vec3 = [0.1, 0.1, 0.1];

function stackContacts(states: BodyState[], mu: number): Contact[] {
  const cs = [...boxPlaneContacts(states, 0, e, [0, 0, 1], 0, 0.01, mu)];
  for (let i = 1; i < N; i++) cs.push(...boxOnBoxContacts(states, i, e, i - 1, e, 0.01, mu));
  return cs;
}

/** A stack of 5 boxes resting face on face (gaps 0), stepped `steps` times, warm-started from the previous step. */
function runStack(settings: VelocitySettings, steps: number, mu: number) {
  const { world, states: initial } = worldOf(scene(Array.from({ length: N }, (_, i) => body(`b${i}`, m, boxInertia(m, e), [0, 0, e[2] * (1 + 2 * i)]))));
  let states = initial;
  let warm: Float64Array | undefined;
  const sweeps: number[] = [], converged: boolean[] = [], groundError: number[] = [], warmed: number[] = [];
  for (let k = 0; k < steps; k++) {
    const cs = stackContacts(states, mu);
    const r = stepVelocity(world, states, cs, settings, 0.01, { contacts: warm });
    states = r.states;
    warm = r.report.R;
    sweeps.push(r.report.iterations);
    converged.push(r.report.converged);
    warmed.push(r.report.warmStarted);
    groundError.push(Math.abs(normalSum(cs, r.report.contacts, -1) - N * m * g) / (N * m * g));
  }
  return { sweeps, converged, groundError, warmed, states };
}

test('stack of 5 boxes (PGS, frictionless): converged by the relative tolerance, warm-started steps in ≤ 5 sweeps, ground force 5·m·g to 1e-6', (t) => {
  const s = velocitySettings({ pgs: { iterations: 300, tolerance: 1e-7 } });
  const r = runStack(s, 20, 0);
  t.diagnostic(`sweeps per step ${r.sweeps.join(' ')}; warm-started contacts ${r.warmed.join(' ')}`);
  assert.ok(r.converged.every(Boolean), 'every step converged');
  // the cold first step pays Gauss–Seidel's rate on a 5-layer chain; every later step starts at the answer
  assert.ok(r.sweeps[0] < 300);
  for (let k = 1; k < r.sweeps.length; k++) assert.ok(r.sweeps[k] <= 5, `step ${k}: ${r.sweeps[k]} sweeps`);
  assert.equal(r.warmed[0], 0);
  for (let k = 1; k < r.warmed.length; k++) assert.equal(r.warmed[k], 4 * N, 'every contact warm-started');
  for (const err of r.groundError) assert.ok(err < 1e-6, `ground force relative error ${err}`);
  for (let i = 0; i < N; i++) assert.ok(Math.abs(r.states[i].p[2] - e[2] * (1 + 2 * i)) < 1e-9, 'the stack does not move');
});

test('PGS convergence is relative to the scale: the same stack at 10× the mass converges in the same sweeps', () => {
  const s = velocitySettings({ pgs: { iterations: 300, tolerance: 1e-7 } });
  const { world, states } = worldOf(scene(Array.from({ length: N }, (_, i) => body(`b${i}`, 10 * m, boxInertia(10 * m, e), [0, 0, e[2] * (1 + 2 * i)]))));
  const heavy = stepVelocity(world, states, stackContacts(states, 0), s, 0.01).report;
  const light = runStack(s, 1, 0);
  assert.ok(heavy.converged, `heavy ${heavy.iterations} light ${light.sweeps[0]} scale ${heavy.islands[0].scale} ${g * 0.01 * Math.sqrt(4 * N)}`);
  assert.equal(heavy.iterations, light.sweeps[0]);
  // scale: ‖B − t‖ of the rows the free motion closes: the 4 ground rows at g·h each (the boxes fall
  // together, so their mutual rows close at 0), whatever the mass
  const want = g * 0.01 * 2;
  assert.ok(Math.abs(heavy.islands[0].scale - want) < 1e-12 * want, `scale ${heavy.islands[0].scale}, 2·g·h ${want}`);
});

test('PGS variants (ground-up order, symmetric sweeps, block step, over-relaxation) reach the same frictionless stack answer', () => {
  const base = velocitySettings({ pgs: { iterations: 2000, tolerance: 1e-9 } });
  const ref = runStack(base, 3, 0);
  for (const v of [{ order: 'ground-up' as const }, { symmetric: true }, { block: true }, { relaxation: 1.5 }]) {
    const r = runStack({ ...base, ...v }, 3, 0);
    assert.ok(r.converged.every(Boolean), JSON.stringify(v));
    for (const err of r.groundError) assert.ok(err < 1e-7, `${JSON.stringify(v)}: ${err}`);
    for (let i = 0; i < N; i++) assert.ok(Math.abs(r.states[i].p[2] - ref.states[i].p[2]) < 1e-10);
  }
});

test("warm starts are matched across steps by contact identity (shape pair and witness point) and used", (t) => {
  const box = (name: string, z: number) => ({ name, mass: 1, inertia: [0.0066667, 0.0066667, 0.0066667], position: [0, 0, z], shapes: [{ type: 'box', name: `${name}Box`, halfExtents: [0.1, 0.1, 0.1] }] });
  const text = JSON.stringify({ name: 't', solver: { formulation: 'velocity', dt: 0.005, pgs: { tolerance: 1e-6 } }, world: { shapes: [{ type: 'plane', name: 'ground' }] }, bodies: [box('a', 0.1), box('b', 0.3)] });
  const parsed = parseScene(text);
  assert.ok(parsed.scene && !parsed.hasErrors);
  const world = buildWorld(parsed.scene);
  const stepper = new ContactStepper(world, parsed.scene, 'velocity');
  let states = parsed.scene.bodies.map(initialState);
  let warm: WarmStart = NO_WARM;
  const runs: Array<{ n: number; warmed: number; sweeps: number }> = [];
  let last: ReturnType<ContactStepper['step']>;
  for (let k = 0; k < 40; k++) {
    last = stepper.step(states, warm, assemble(world, states));
    assert.ok(last?.pgs);
    runs.push({ n: last.contacts.length, warmed: last.pgs.warmStarted, sweeps: last.pgs.iterations });
    states = last.states;
    warm = last.warm;
  }
  assert.equal(runs[0].warmed, 0, 'nothing to start from at the first step');
  // every pressed contact of a step finds its predecessor (same bodies, shapes and witness point)
  for (const r of runs.slice(1)) assert.equal(r.warmed, r.n);
  // a warm start matched to the wrong contact would leave the solver far from the answer; matched, it is there
  t.diagnostic(`sweeps ${runs.map((r) => r.sweeps).join(" ")}`);
  for (const r of runs.slice(20)) assert.ok(r.sweeps <= 5, `sweeps ${r.sweeps}`);
  // shuffling the previous step's contacts (their keys and data together) changes nothing: identity, not index
  const w = last!.warm;
  const n = w.keys!.length / 4;
  const perm = Array.from({ length: n }, (_, i) => (i * 7 + 3) % n);
  const shuffled: WarmStart = { ...w, keys: new Int32Array(4 * n), data: new Float64Array(7 * n) };
  perm.forEach((p, i) => {
    shuffled.keys!.set(w.keys!.subarray(4 * p, 4 * p + 4), 4 * i);
    shuffled.data!.set(w.data!.subarray(7 * p, 7 * p + 7), 7 * i);
  });
  const a = stepper.step(states, w, assemble(world, states))!.pgs!;
  const b = stepper.step(states, shuffled, assemble(world, states))!.pgs!;
  assert.deepEqual(Array.from(b.R), Array.from(a.R));
});
