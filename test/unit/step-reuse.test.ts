// What the stepping path reuses between steps (to save work per step) must never change a result: the constraint
// evaluations of a record's ‖C‖ reused by the next step's assembly (only while the states are exactly
// those) and the records' arrays copied from per-Simulation templates (the world's derived data kept
// on the world object: step-scratch.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseScene, Simulation, type SimulationOptions, type StepRecord } from '../../src/engine';
import { chainParams, chainSceneText } from '../../bench/chain';

const example = (f: string) => fs.readFileSync(path.join(__dirname, '../../examples', f), 'utf8');
const SCENES: [string, string][] = [
  ['bench chain, 10 links', chainSceneText(chainParams(10))],
  ['double pendulum', example('double-pendulum.scene.json')],
  ['dependent rows', example('redundant-rods.scene.json')],
  ['velocity formulation', example('velocity-pendulum.scene.json')],
];

function simOf(text: string, opts: SimulationOptions = {}): Simulation {
  const p = parseScene(text);
  assert.ok(p.scene && !p.hasErrors);
  return new Simulation(p.scene, p.sourceMap, opts);
}

/** Records compared number by number with Object.is (deepStrictEqual: −0 and +0 differ). */
function sameRecords(a: readonly StepRecord[], b: readonly StepRecord[], what: string): void {
  assert.equal(a.length, b.length, `${what}: record count`);
  for (let k = 0; k < a.length; k++) assert.deepStrictEqual(a[k], b[k], `${what}: record ${k + 1}`);
}

for (const [name, text] of SCENES) {
  test(`reused constraint evaluations: a snapshot, a replay or a reset between steps changes no record (${name})`, () => {
    const plain = simOf(text);
    plain.step(40);
    // snapshots of other steps assemble the world at other states (overwriting its evaluations)
    // between the record's ‖C‖ and the next step's assembly: the next step must evaluate again
    const interrupted = simOf(text);
    interrupted.step(10);
    interrupted.snapshotAt(3);
    interrupted.step(1);
    interrupted.snapshotAt(0);
    interrupted.step(9);
    interrupted.snapshotAt(20);
    interrupted.step(20);
    sameRecords(interrupted.records, plain.records, `${name}, snapshots between steps`);
    assert.deepStrictEqual(interrupted.result().final, plain.result().final);
    // a reset replaces the states: the evaluations of the old state after step 7 must not be reused
    const reset = simOf(text);
    reset.step(7);
    reset.reset();
    reset.step(40);
    sameRecords(reset.records, plain.records, `${name}, reset after 7 steps`);
    // a reset right after a snapshot of the last step, and stepping one at a time
    const single = simOf(text);
    single.step(5);
    single.snapshotAt(5);
    single.reset();
    for (let k = 0; k < 40; k++) single.step(1);
    sameRecords(single.records, plain.records, `${name}, one step at a time after a reset`);
  });
}

test('reused constraint evaluations: a full history rewinds the states, a reset after it starts the run afresh', () => {
  const text = chainSceneText(chainParams(10));
  const plain = simOf(text);
  plain.step(30);
  const capped = simOf(text, { limits: { history: 2000 } });
  capped.step(30);
  assert.ok(capped.historyFull && capped.records.length > 0 && capped.records.length < 30);
  sameRecords(capped.records, plain.records.slice(0, capped.records.length), 'the kept records');
  capped.reset();
  capped.step(5);
  sameRecords(capped.records, plain.records.slice(0, 5), 'after the reset');
});

test('records copied from templates: every array is its own, writing one changes no other record or later step', () => {
  const text = chainSceneText(chainParams(10));
  const sim = simOf(text);
  const first = sim.step(6);
  const ref = simOf(text);
  ref.step(12);
  const seen = new Set<unknown>();
  for (const r of first)
    for (const a of [r.C, r.lambda, r.poses]) {
      assert.ok(Array.isArray(a) && a.length > 0);
      assert.ok(!seen.has(a), 'an array shared between records');
      seen.add(a);
    }
  // a caller scribbling over what it was given
  for (const r of first) {
    r.C.fill(NaN);
    r.lambda.fill(-1);
    r.poses.fill(7);
  }
  const later = sim.step(6);
  sameRecords(later, ref.records.slice(6), 'the steps after the writes');
  for (const r of later) for (const a of [r.C, r.lambda, r.poses]) assert.ok(!seen.has(a));
  // over the limits of what records keep, the arrays are empty, as before
  const small = simOf(text, { maxRecordRows: 10, maxRecordBodies: 5 });
  const [r] = small.step(1);
  assert.deepStrictEqual([r.lambda, r.poses], [[], []]);
  assert.equal(r.C.length, 10);
});
