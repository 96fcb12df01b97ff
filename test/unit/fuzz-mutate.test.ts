// The mutation fuzzer (test/fuzz/) in the unit-test budget: a fixed seed, a few hundred mutants of the
// examples toward extreme values, every one answered with bounded numbers or a diagnostic. The long
// run is `node --import tsx test/fuzz/run.ts --count 20000`; its failures live in test/fixtures/nonfinite/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspectScene } from '../../src/engine';
import { badInSnapshot, checkScene, loadExamples, mutate, rng } from '../fuzz/mutate';
import { checkCli } from '../fuzz/run';

test('mutator: deterministic, edits only number literals (or whole arrays), the text stays JSON', () => {
  const [ex] = loadExamples();
  const a = mutate(ex.text, rng(5));
  const b = mutate(ex.text, rng(5));
  assert.deepEqual(a, b);
  assert.ok(a.edits.length >= 1 && a.edits.length <= 3);
  assert.notEqual(a.text, ex.text);
});

test('the checker itself fails on bad values: a NaN, an ∞ or 1e151 anywhere in a snapshot is found', () => {
  const snap = inspectScene(loadExamples().find((e) => e.name === 'double-pendulum.scene.json')!.text).snapshot!;
  assert.equal(badInSnapshot(snap), undefined);
  for (const bad of [NaN, Infinity, 1e151]) {
    const lambda = Float64Array.from(snap.lambda);
    lambda[3] = bad;
    assert.match(badInSnapshot({ ...snap, lambda }) ?? '', /^lambda\[3\]/);
    const bodyStates = snap.bodyStates.map((b, i) => (i === 1 ? { ...b, velocity: [0, bad, 0] as [number, number, number] } : b));
    assert.match(badInSnapshot({ ...snap, bodyStates }) ?? '', /lower\.state/);
  }
  // and in the contact fields: contacts, Newton's residuals and matrix, PGS's residual
  const stack = inspectScene(loadExamples().find((e) => e.name === 'box-stack.scene.json')!.text).snapshot!;
  assert.equal(badInSnapshot(stack), undefined);
  const n = stack.newton!;
  for (const bad of [NaN, Infinity, 1e151]) {
    assert.match(badInSnapshot({ ...stack, newton: { ...n, residuals: [bad] } }) ?? '', /^newton\.residuals\[0\]/);
    assert.match(badInSnapshot({ ...stack, newton: { ...n, matrix: { ...n.matrix, values: Float64Array.from([bad]) } } }) ?? '', /^newton\.matrix/);
    assert.match(badInSnapshot({ ...stack, contacts: [{ ...stack.contacts![0], normalForce: bad }] }) ?? '', /^contacts\[0\]/);
    assert.match(badInSnapshot({ ...stack, pgs: { iterations: 1, residual: bad, converged: false } }) ?? '', /^pgs\.residual/);
  }
  // and a scene whose step 0 is bad passes only because inspect reports it at step 0
  const v = checkScene(JSON.stringify({ bodies: [{ name: 'b', mass: 1, velocity: [1e155, 0, 0] }] }));
  assert.deepEqual(v, { outcome: 'step0-finding', steps: 0 });
});

test('300 mutants of the examples: no exception, no NaN or |x| > 1e150 without CL401/CL403, exact stop steps', async () => {
  // every example, the contact ones included (their contacts, forces, PGS and Newton reports are checked too)
  const examples = loadExamples();
  assert.ok(examples.some((e) => e.text.includes('"shapes"')), 'the contact examples take part');
  const rand = rng(20260208);
  const work = mkdtempSync(join(tmpdir(), 'cl-fuzz-test-'));
  const failures: string[] = [];
  const outcomes: Record<string, number> = {};
  try {
    for (let i = 0; i < 300; i++) {
      const ex = examples[Math.floor(rand() * examples.length)];
      const m = mutate(ex.text, rand);
      const v = checkScene(m.text, 40);
      outcomes[v.outcome] = (outcomes[v.outcome] ?? 0) + 1;
      let failure = v.failure;
      if (!failure && i % 30 === 0) {
        const file = join(work, `m${i}.scene.json`);
        writeFileSync(file, m.text);
        failure = await checkCli(file, 20);
      }
      if (failure) failures.push(`#${i} ${ex.name} (${m.edits.join('; ')}): ${failure}`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  assert.deepEqual(failures, []);
  // the mutants reach every outcome: step-0 findings, runs that stop, runs that finish
  for (const k of ['step0-finding', 'run-stopped', 'ran']) assert.ok((outcomes[k] ?? 0) > 0, `${k}: ${JSON.stringify(outcomes)}`);
});
