// .npz traces written by numpy (test/fixtures/trace/make_npz.py) analysed as numpy analyses them: κ₂
// to 1e-6 (relative), the rank, the redundant rows and their coefficients to 1e-8, the first
// non-finite step; broken files give a diagnostic naming the key and the step, never an exception.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyseSystem, analyseTrace, Codes, exportTraceNpz, readTrace, type RedundantRow, type TraceSource } from '../../src/engine';

const DIR = join(__dirname, '..', 'fixtures', 'trace');

interface Expected {
  cond: number | 'Infinity' | null;
  rank: number;
  rows: number;
  redundant: { row: string; dependsOn: { row: string; coefficient: number }[] }[];
  normLambda?: number;
  normC?: number;
}

export function load(file: string): TraceSource {
  const r = readTrace(new Uint8Array(readFileSync(join(DIR, file))), file);
  assert.deepEqual(r.diagnostics, [], `${file} reads without diagnostics`);
  assert.ok(r.source);
  return r.source;
}

export const expected = (file: string): { steps: Expected[]; [k: string]: unknown } => JSON.parse(readFileSync(join(DIR, file), 'utf8'));

const close = (a: number, b: number, rel: number, what: string) => assert.ok(Math.abs(a - b) <= rel * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);

/** The step's analysis against numpy's: κ when A is nonsingular, the rank, redundant rows and coefficients. */
export function compareStep(source: TraceSource, k: number, e: Expected): void {
  const an = analyseSystem(source.systemAt(k));
  assert.ok(an.ok, `step ${k} analysed`);
  assert.equal(an.rank.rows, e.rows);
  assert.equal(an.rank.J, e.rank, `step ${k}: rank`);
  const cond = an.cond.AR ?? an.cond.A;
  if (e.rank === e.rows && typeof e.cond === 'number') close(cond, e.cond, 1e-6 * e.cond, `step ${k}: κ`);
  else assert.equal(cond, Infinity, `step ${k}: a singular A has κ = ∞`);
  const labels = source.systemAt(k).rows;
  const name = (r: { constraint: string; row: number }) => labels.find((x) => x.constraint === r.constraint && x.row === r.row)?.label;
  assert.equal(an.redundant.length, e.redundant.length, `step ${k}: redundant rows`);
  an.redundant.forEach((r: RedundantRow, i) => {
    const want = e.redundant[i];
    assert.equal(name(r), want.row);
    const got = new Map(r.dependsOn.map((d) => [name(d), d.coefficient]));
    for (const d of want.dependsOn) close(got.get(d.row) ?? 0, d.coefficient, 1e-8, `${want.row} on ${d.row}`);
    for (const [row, c] of got) if (!want.dependsOn.some((d) => d.row === row)) assert.ok(Math.abs(c) < 1e-8, `${want.row} on ${row}: ${c}`);
  });
}

test('the AerisLab seed rod: ten stacked steps, κ, rank, λ and C as numpy has them', () => {
  const src = load('aerislab-rod.npz');
  const e = expected('aerislab-rod.expected.json');
  assert.equal(src.steps, 10);
  const s0 = src.systemAt(0);
  assert.deepEqual(s0.rows.map((r) => r.label), ['rod']);
  assert.equal(s0.dofLabels[6], 'Payload.vx');
  assert.deepEqual(Array.from(s0.lambda ?? []), e.lambda0);
  e.steps.forEach((step, k) => compareStep(src, k, step));
  const run = analyseTrace(src);
  assert.deepEqual(run.diagnostics, []);
  run.steps.forEach((s, k) => {
    close(s.normLambda ?? NaN, e.steps[k].normLambda ?? NaN, 1e-12, `step ${k} ‖λ‖`);
    close(s.normC ?? NaN, e.steps[k].normC ?? NaN, 1e-12, `step ${k} ‖C‖`);
    assert.ok(s.residual !== null && s.residual < 1e-9 * Math.max(1, s.normLambda ?? 1), `step ${k}: the seed's λ solves its own system`);
  });
});

test('a braced square: the second diagonal is redundant, with numpy\'s coefficients; CL301 says step 0', () => {
  const src = load('braced-square.npz');
  compareStep(src, 0, expected('braced-square.expected.json').steps[0]);
  const run = analyseTrace(src);
  const d = run.diagnostics.find((x) => x.code === Codes.redundantConstraint);
  assert.ok(d && d.message.startsWith('step 0:') && d.data?.step === 0, JSON.stringify(run.diagnostics));
});

test('a conflicting pair: the same row with two right-hand sides is CL302 at step 0', () => {
  const src = load('conflicting-pair.npz');
  compareStep(src, 0, expected('conflicting-pair.expected.json').steps[0]);
  const run = analyseTrace(src);
  assert.deepEqual(run.diagnostics.map((x) => [x.code, x.data?.step]), [[Codes.conflictingConstraints, 0]]);
});

test('an ill-conditioned chain: κ to 1e-6 and CL303 at step 0', () => {
  const src = load('ill-chain.npz');
  compareStep(src, 0, expected('ill-chain.expected.json').steps[0]);
  const run = analyseTrace(src);
  assert.deepEqual(run.diagnostics.map((x) => [x.code, x.data?.step]), [[Codes.illConditioned, 0]]);
});

test('a run whose λ becomes NaN at step 4: CL401 names the step, the key and where the growth began', () => {
  const src = load('nonfinite-run.npz');
  const e = expected('nonfinite-run.expected.json');
  assert.equal(src.steps, 6);
  assert.equal(src.systemAt(1).rows.length, 1);
  assert.equal(src.systemAt(2).rows.length, 2);
  for (let k = 0; k < 4; k++) compareStep(src, k, e.steps[k]);
  const run = analyseTrace(src);
  assert.equal(run.firstNonFinite, e.firstNonFinite);
  const d = run.diagnostics.filter((x) => x.code === Codes.nonFinite);
  assert.equal(d.length, 1);
  assert.match(d[0].message, /^step 4: 'lambda_4' has a NaN/);
  assert.equal(d[0].data?.step, 4);
  assert.equal(d[0].data?.onset, e.onset);
  assert.equal(run.steps[4].cond, null);
});

test('broken files: a diagnostic naming the key and the step, never an exception', () => {
  const read = (f: string) => readTrace(new Uint8Array(readFileSync(join(DIR, f))), f);
  const cols = read('bad-columns.npz');
  assert.equal(cols.source?.steps, 1, 'the steps before the bad one are kept');
  assert.deepEqual(cols.diagnostics.map((d) => [d.code, d.data?.key, d.data?.step]), [[Codes.traceShapeMismatch, 'Minv', 1]]);
  assert.match(cols.diagnostics[0].message, /^step 1: 'J_1' has 2 columns but 'Minv' is 3×3/);
  const missing = read('bad-missing-mass.npz');
  assert.equal(missing.source, undefined);
  assert.deepEqual(missing.diagnostics.map((d) => [d.code, d.data?.step]), [[Codes.traceMissingKey, 0]]);
  assert.match(missing.diagnostics[0].message, /'Minv' nor 'M'/);
  const nan = read('bad-nan-mass.npz');
  const run = analyseTrace(nan.source as TraceSource);
  assert.deepEqual(run.diagnostics.map((d) => [d.code, d.data?.key, d.data?.step]), [[Codes.nonFinite, 'M', 2]]);
  const cut = read('bad-truncated.npz');
  assert.equal(cut.source, undefined);
  assert.deepEqual(cut.diagnostics.map((d) => d.code), [Codes.traceUnreadable]);
  for (const bytes of [new Uint8Array(0), new Uint8Array([0x50, 0x4b, 3, 4, 1, 2]), new TextEncoder().encode('{"not": "a trace"}')]) {
    const r = readTrace(bytes, 'x');
    assert.equal(r.source, undefined);
    assert.equal(r.diagnostics[0].code, Codes.traceUnreadable);
  }
});

test("the engine's own export reopens with the same systems", () => {
  const src = load('nonfinite-run.npz');
  const back = readTrace(exportTraceNpz(src), 'again.npz');
  assert.deepEqual(back.diagnostics, []);
  assert.equal(back.source?.steps, src.steps);
  for (let k = 0; k < src.steps; k++) {
    const a = src.systemAt(k), b = (back.source as TraceSource).systemAt(k);
    assert.deepEqual(b.rows.map((r) => r.label), a.rows.map((r) => r.label));
    assert.deepEqual(b.J, a.J);
    assert.deepEqual(b.mass, a.mass);
    assert.deepEqual(Array.from(b.lambda ?? []), Array.from(a.lambda ?? []));
    assert.equal(b.t, a.t);
  }
});
