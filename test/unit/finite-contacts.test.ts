// The contact solve in the finite checks (src/engine/guards/nonFiniteContacts.ts): a NaN, ∞ or 1e200 put into
// each quantity of a real contact step (box stack, Newton; box on plane, PGS) is found as the right
// symbol and owner, κ₁ = ∞ (singular) is not a finding, and through inspect a bad value lands on
// the shape's range (CL401/CL403 at step 0).
import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { assemble, buildWorld } from '../../src/engine/assembly/assemble';
import { checkContactStep, checkShapes } from '../../src/engine/guards/nonFiniteContacts';
import { initialState } from '../../src/engine/model/body';
import { parseScene } from '../../src/engine/scene/parse';
import { contactMode, ContactStepper, NO_WARM, type ContactStep } from '../../src/engine/contact/stepContacts';
import { Codes, inspectScene, Simulation } from '../../src/engine';

const example = (name: string): string => readFileSync(join(__dirname, '../../examples', `${name}.scene.json`), 'utf8');

function firstStep(text: string) {
  const scene = parseScene(text).scene!;
  const world = buildWorld(scene);
  const states = scene.bodies.map(initialState);
  const stepper = new ContactStepper(world, scene, contactMode(scene)!);
  const cs = stepper.step(states, NO_WARM, assemble(world, states))!;
  assert.ok(cs && cs.contacts.length > 0, 'contacts at step 0');
  return { world, cs };
}

/** A deep enough copy of a contact step to poison one number. */
function copy(cs: ContactStep): ContactStep {
  return {
    ...cs,
    contacts: cs.contacts.map((c) => ({ ...c, point: [...c.point], normal: [...c.normal], t1: [...c.t1], t2: [...c.t2] })),
    forces: cs.forces.map((f) => ({ ...f, frictionForce: [...f.frictionForce] as [number, number] })),
    lambda: Float64Array.from(cs.lambda),
    uPlus: Float64Array.from(cs.uPlus),
    gapsAfter: Float64Array.from(cs.gapsAfter),
    newton: cs.newton && {
      ...cs.newton,
      residuals: [...cs.newton.residuals],
      stepLengths: [...cs.newton.stepLengths],
      blocks: { ...cs.newton.blocks },
      blockResiduals: cs.newton.blockResiduals.map((b) => ({ ...b })),
      matrix: { ...cs.newton.matrix, values: Float64Array.from(cs.newton.matrix.values) },
    },
    pgs: cs.pgs && { ...cs.pgs },
  };
}

test('Newton box stack: each contact quantity poisoned is found with its symbol and owner', () => {
  const { world, cs } = firstStep(example('box-stack'));
  assert.equal(checkContactStep(world, cs), undefined, 'the real step is clean');
  const cases: [string, (c: ContactStep) => void, string, string | undefined, 'non-finite' | 'overflow'][] = [
    ['point', (c) => (c.contacts[0].point[2] = NaN), 'x_c', 'bottom', 'non-finite'],
    ['normal', (c) => (c.contacts[1].normal[0] = Infinity), 'n', 'bottom', 'non-finite'],
    ['gap', (c) => (c.contacts[2].gap = -1e200), 'gap', 'bottom', 'overflow'],
    ['f_n', (c) => (c.forces[3].normalForce = Infinity), 'f_n', 'bottom', 'non-finite'],
    ['f_t', (c) => (c.forces[0].frictionForce[1] = -1e160), 'f_t', 'bottom', 'overflow'],
    ['u⁺', (c) => (c.uPlus[7] = NaN), 'u⁺', 'middle', 'non-finite'],
    ['gap after', (c) => (c.gapsAfter[0] = NaN), 'gap⁺', 'bottom', 'non-finite'],
    ['complementarity', (c) => (c.complementarity = NaN), 'complementarity', undefined, 'non-finite'],
    ['penetration', (c) => (c.maxPenetration = 1e151), 'penetration', undefined, 'overflow'],
    ['Newton residual', (c) => (c.newton!.residuals[1] = NaN), '‖h‖', undefined, 'non-finite'],
    ['block norm', (c) => (c.newton!.blockResiduals[0].n = Infinity), '‖h‖', undefined, 'non-finite'],
    ['step length', (c) => (c.newton!.stepLengths[0] = NaN), 'α', undefined, 'non-finite'],
    ['κ₁', (c) => (c.newton!.cond = NaN), 'κ₁', undefined, 'non-finite'],
    ['κ₁ beyond 1e150', (c) => (c.newton!.cond = 1e170), 'κ₁', undefined, 'overflow'],
  ];
  for (const [what, poison, symbol, owner, reason] of cases) {
    const c = copy(cs);
    poison(c);
    const f = checkContactStep(world, c);
    assert.ok(f, `${what}: found`);
    assert.equal(f.symbol, symbol, what);
    if (owner) assert.equal(f.owner?.name, owner, what);
    assert.equal(f.reason, reason, what);
  }
  // the Newton matrix: the row's owner (first row: dyn of the first body)
  const c = copy(cs);
  c.newton!.matrix.values[0] = 1e300;
  const f = checkContactStep(world, c)!;
  assert.equal(f.symbol, '∂h/∂x');
  assert.equal(f.owner?.name, 'bottom');
  // κ₁ = ∞ says "singular": not a finding
  const s = copy(cs);
  s.newton!.cond = Infinity;
  assert.equal(checkContactStep(world, s), undefined);
});

test('PGS box on plane: its residual and the shapes\' own numbers are checked', () => {
  const { world, cs } = firstStep(example('box-on-plane.velocity'));
  assert.ok(cs.pgs, 'PGS ran');
  assert.equal(checkContactStep(world, cs), undefined);
  const c = copy(cs);
  c.pgs!.residual = NaN;
  assert.equal(checkContactStep(world, c)?.symbol, 'r');
  assert.equal(checkShapes(world), undefined);
  // the parser refuses sizes beyond 1e15 m (CL005): the shape check still guards a spec built otherwise
  const scene = parseScene(example('box-on-plane.velocity')).scene!;
  const box = scene.bodies.find((b) => b.shapes.length > 0)!.shapes[0] as { halfExtents: number[] };
  box.halfExtents[1] = 1e200;
  const bad = checkShapes(buildWorld(scene))!;
  assert.equal(bad.symbol, 'shape.halfExtents');
  assert.deepEqual(bad.path?.slice(-2), ['halfExtents', 1]);
});

test('inspect: a contact finding at step 0 is an error (an inertia of 1e308: Newton\'s matrix overflows)', () => {
  const text = example('box-on-plane').replace('0.006667', '1e308');
  assert.notEqual(text, example('box-on-plane'));
  const r = inspectScene(text);
  const d = r.diagnostics.find((x) => x.code === Codes.overflow);
  assert.ok(d, r.diagnostics.map((x) => x.code).join(', '));
  assert.equal(d.data?.step, 0);
  assert.equal(d.data?.quantity, '∂h/∂x');
  assert.equal(r.hasErrors, true);
  assert.match(d.message, /contact solve from the initial state overflows/);
  // a plane offset beyond 1e15 m is refused where it is read (CL005 on `offset`), before any contact
  const off = example('box-on-plane').replace(/"offset":\s*0/, '"offset": 1e155');
  assert.notEqual(off, example('box-on-plane'));
  const r2 = inspectScene(off);
  const d2 = r2.diagnostics.find((x) => x.code === Codes.invalidValue)!;
  assert.match(d2.message, /must be within ±1e15 m/);
  const line = off.split('\n')[d2.range.start.line];
  assert.equal(line.slice(d2.range.start.character, d2.range.end.character), '1e155');
});

test('the snapshot of the last step shows the next contact solve: a bad value there carries its finding for the next step', () => {
  const text = readFileSync(join(__dirname, '../fixtures/nonfinite/fuzz-contact-chain-newton-residual.scene.json'), 'utf8');
  const r = inspectScene(text);
  const sim = new Simulation(r.parse.scene!, r.parse.sourceMap);
  sim.step(40);
  assert.equal(sim.stopped, false);
  const d = sim.snapshotAt(40).diagnostics.find((x) => x.code === Codes.overflow);
  assert.ok(d, 'the snapshot says its Newton residual overflows');
  assert.equal(d.data?.step, 41);
  assert.equal(d.data?.quantity, '‖h‖');
  assert.deepEqual(sim.snapshotAt(39).diagnostics.filter((x) => x.code === Codes.overflow), [], 'earlier snapshots are clean');
  sim.step(1);
  assert.equal(sim.result().stoppedAt, 41, 'and the run stops there');
});
