// .npz traces written by numpy (test/fixtures/trace/make_npz.py) analysed as numpy analyses them: κ₂
// to 1e-6 (relative), the rank, the redundant rows and their coefficients to 1e-8, the first
// non-finite step; broken files give a diagnostic naming the key and the step, never an exception.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyseTrace, Codes, exportTraceNpz, readTrace, type ConstrainedSystem, type TraceSource } from '../../src/engine';
import { close, compareStep, DIR, expected, load } from './trace-helpers';

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
    const a = src.systemAt(k);
    const b: ConstrainedSystem = (back.source as TraceSource).systemAt(k);
    assert.deepEqual(b.rows.map((r) => r.label), a.rows.map((r) => r.label));
    assert.deepEqual(b.J, a.J);
    assert.deepEqual(b.mass, a.mass);
    assert.deepEqual(Array.from(b.lambda ?? []), Array.from(a.lambda ?? []));
    assert.equal(b.t, a.t);
  }
});

test("the repository's Python writer: per-step keys with M, rows that come and go, read back as numpy wrote them", () => {
  const src = load('writer-roundtrip.npz');
  const e = expected('writer-roundtrip.expected.json');
  assert.equal(src.steps, 4);
  assert.deepEqual(src.systemAt(1).rows.map((r) => r.label), ['rod', 'floor']);
  assert.deepEqual(src.systemAt(0).dofLabels, ['x', 'y']);
  assert.equal(src.systemAt(3).t, 0.30000000000000004);
  e.steps.forEach((s, k) => compareStep(src, k, s));
  const run = analyseTrace(src);
  assert.deepEqual(run.diagnostics, []);
  run.steps.forEach((s, k) => {
    close(s.normLambda ?? NaN, e.steps[k].normLambda ?? NaN, 1e-12, `step ${k} ‖λ‖`);
    assert.ok((s.residual ?? 1) < 1e-12, 'the λ solves the system it was written with');
  });
});

test('.npy variants: Fortran order, float32, int64, big-endian, bool, unicode names, headers of versions 1, 2 and 3', () => {
  const src = load('dtypes.npz');
  const e = JSON.parse(readFileSync(join(DIR, 'dtypes.expected.json'), 'utf8'));
  const s = src.systemAt(0);
  const dense = (m: ConstrainedSystem['J']) => Array.from({ length: m.rows }, (_, i) => Array.from({ length: m.cols }, (_, j) => {
    for (let p = m.rowPtr[i]; p < m.rowPtr[i + 1]; p++) if (m.colIdx[p] === j) return m.values[p];
    return 0;
  }));
  assert.deepEqual(dense(s.J), e.J);
  assert.equal(s.mass.kind, 'M');
  assert.deepEqual(s.mass.kind === 'M' ? dense(s.mass.matrix) : [], e.M);
  assert.deepEqual(Array.from(s.lambda ?? []), e.lambda);
  assert.deepEqual(Array.from(s.C ?? []), e.C);
  assert.deepEqual(s.rows.map((r) => r.label), e.row_names);
});
