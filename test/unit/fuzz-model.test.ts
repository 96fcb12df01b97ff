// The model fuzzer (test/fuzz/model-mutate.ts) in the unit-test budget: a fixed seed, a slice of
// mutants of the MJCF/URDF fixtures through the importer in this process, each answered without an
// exception, a CL900 or a range outside the document, each converted one exported and run, and the
// four-bar still loading after them. The long run is `node --import tsx test/fuzz/model-run.ts --count 50000`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkModel, fuzzWorkspace, goodModelLoads, mutateModel, rangeProblem } from '../fuzz/model-mutate';
import { mutantAt } from '../fuzz/model-run';
import { rng } from '../fuzz/mutate';

test('model mutator: deterministic per (seed, index), and it changes the text', () => {
  const a = mutantAt(3, 17);
  const b = mutantAt(3, 17);
  assert.deepEqual(a, b);
  assert.ok(a.edits.length >= 1 && a.edits.length <= 3);
  const m = mutateModel('<mujoco><worldbody><body pos="0 0 1"><joint/><geom size="0.1"/></body></worldbody></mujoco>', rng(1));
  assert.notEqual(m.text, '<mujoco><worldbody><body pos="0 0 1"><joint/><geom size="0.1"/></body></worldbody></mujoco>');
});

test('the model checker: a range outside the document is caught; a good model runs; a NaN model is rejected', async () => {
  const at = (line: number, character: number) => ({ start: { line, character }, end: { line, character } });
  const d = (line: number, character: number) => ({ severity: 'error' as const, code: 'CL601-xml-syntax', message: 'x', range: at(line, character) });
  assert.equal(rangeProblem('<a/>\n<b/>', [d(1, 4)]), undefined);
  assert.match(rangeProblem('<a/>\n<b/>', [d(2, 0)]) ?? '', /outside the document/);
  assert.match(rangeProblem('<a/>', [d(0, 5)]) ?? '', /outside the document/);
  const ws = fuzzWorkspace();
  const ok = await checkModel(ws, join(ws, 'mutant.xml'), '<mujoco><worldbody><body><joint axis="0 1 0"/><geom size="0.1" pos="0 0 -1"/></body></worldbody></mujoco>');
  assert.equal(ok.failure, undefined);
  assert.equal(ok.outcome, 'ran');
  const bad = await checkModel(ws, join(ws, 'mutant.xml'), '<mujoco><worldbody><geom type="plane" size="1 1 1" pos="0 0 nan"/></worldbody></mujoco>');
  assert.equal(bad.outcome, 'rejected');
});

test('a deterministic slice of 150 model mutants: no exception, no CL900, ranges inside the document, a good model loads after', async () => {
  const ws = fuzzWorkspace();
  const failures: string[] = [];
  const outcomes: Record<string, number> = {};
  for (let i = 0; i < 150; i++) {
    const m = mutantAt(1, i);
    const v = await checkModel(ws, join(ws, `mutant.${m.ext}`), m.text, 10);
    outcomes[v.outcome] = (outcomes[v.outcome] ?? 0) + 1;
    if (v.failure) failures.push(`#${i} (${m.seed}: ${m.edits.join('; ')}): ${v.failure}`);
    if (v.outcome === 'crash-isolated' || i % 25 === 0) {
      const poisoned = await goodModelLoads(ws);
      if (poisoned) failures.push(`#${i}: ${poisoned}`);
    }
  }
  assert.deepEqual(failures, []);
  assert.ok((outcomes.ran ?? 0) > 10, `some mutants convert and run: ${JSON.stringify(outcomes)}`);
  assert.ok((outcomes.rejected ?? 0) > 10, `some are rejected with diagnostics: ${JSON.stringify(outcomes)}`);
});

test('the model fuzzer\'s regression cases (test/fixtures/import-fuzz/) pass its checks', async () => {
  const dir = join(__dirname, '..', 'fixtures', 'import-fuzz');
  const ws = fuzzWorkspace();
  const cases = readdirSync(dir).filter((f) => /\.(xml|urdf)$/.test(f));
  assert.ok(cases.length >= 2);
  for (const f of cases) {
    const v = await checkModel(ws, join(ws, `mutant.${f.endsWith('.urdf') ? 'urdf' : 'xml'}`), readFileSync(join(dir, f), 'utf8'), 10);
    assert.equal(v.failure, undefined, f);
    // rejected-*: a model the importer must refuse with a diagnostic (the mutant used to pass and break later)
    if (f.startsWith('rejected-')) assert.equal(v.outcome, 'rejected', `${f}: rejected with a diagnostic`);
    else assert.equal(v.outcome, 'ran', `${f}: converts and runs`);
  }
  assert.equal(await goodModelLoads(ws), undefined);
});
