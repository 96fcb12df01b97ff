// HDF5 traces written by h5py in Axion's and FCLib's own layouts (test/fixtures/trace/make_axion.py,
// make_fclib.py), read through h5wasm (src/import/hdf5.ts) and analysed as numpy analyses them.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { analyseSystem, analyseTrace, Codes, readTrace, type Hdf5Open, type TraceSource } from '../../src/engine';
import { loadHdf5Open } from '../../src/import/hdf5';
import { compareStep, DIR, expected } from './trace-helpers';

let openHdf5: Hdf5Open;

before(async () => {
  const open = await loadHdf5Open();
  assert.ok(open, 'h5wasm loads in Node');
  openHdf5 = open;
});

const read = (file: string, bytes = new Uint8Array(readFileSync(join(DIR, file)))) => readTrace(bytes, file, { openHdf5 });

function load(file: string): TraceSource {
  const r = read(file);
  assert.deepEqual(r.diagnostics, [], `${file} reads without diagnostics`);
  assert.ok(r.source);
  return r.source;
}

test("Axion's log: two steps of three Newton iterations, κ of J·M⁻¹·Jᵀ + C_dense per iteration beside the stored cond(A)", () => {
  const src = load('axion-newton.h5');
  const e = expected('axion-newton.expected.json') as unknown as { steps: { iterations: (Parameters<typeof compareStep>[2] & { storedCond: number; lambda: number[] })[] }[] };
  assert.equal(src.format, 'axion');
  assert.equal(src.steps, 2);
  const run = analyseTrace(src);
  e.steps.forEach((step, k) => {
    const its = src.iterationsAt?.(k) ?? [];
    assert.equal(its.length, 3);
    step.iterations.forEach((want, i) => {
      const sys = its[i].system;
      assert.ok(sys);
      const an = analyseSystem(sys);
      assert.ok(an.ok);
      assert.ok(Math.abs((an.cond.AR ?? NaN) - (want.cond as number)) <= 1e-6 * (want.cond as number), `step ${k} iteration ${i}: κ(A + C) ${an.cond.AR} vs ${want.cond}`);
      assert.equal(an.rank.J, want.rank);
      assert.equal(its[i].cond, want.storedCond, 'the cond Axion stored, as stored');
      assert.deepEqual(Array.from(sys.lambda ?? []), want.lambda, 'λ: joint, contact and friction body_lambda in J row order');
      const summary = run.steps[k].iterations?.[i];
      assert.equal(summary?.storedCond, want.storedCond);
      assert.ok(Math.abs((summary?.cond ?? NaN) - (want.cond as number)) <= 1e-6 * (want.cond as number));
    });
    // the step's system is its last Newton iteration
    compareStep(src, k, step.iterations[2]);
  });
  const s0 = src.systemAt(0);
  assert.deepEqual(s0.rows.map((r) => r.label), ['joint0', 'joint1', 'joint2', 'contact0', 'friction0', 'friction1']);
  assert.equal(s0.C, undefined, "Axion's C_values are compliances, not violations");
  assert.equal(s0.dofLabels[0], 'body0.ωx', 'M_inv_dense orders angular before linear');
});

test('FCLib global problem, a box on a plane with friction: J = [Hᵀ], μ per contact, six redundant rows with numpy\'s coefficients', () => {
  const src = load('box-on-plane.global.hdf5');
  const e = expected('box-on-plane.global.expected.json') as unknown as { steps: Parameters<typeof compareStep>[2][]; mu: number[]; r: number[] };
  assert.equal(src.format, 'fclib-global');
  compareStep(src, 0, e.steps[0]);
  assert.deepEqual(src.contacts?.map((c) => c.mu), e.mu);
  const s = src.systemAt(0);
  assert.deepEqual(s.rows.slice(0, 3).map((r) => [r.label, r.type]), [['contact0.n', 'contact'], ['contact0.t1', 'friction'], ['contact0.t2', 'friction']]);
  assert.deepEqual(Array.from(s.lambda ?? []), e.r, "λ is the solution's r");
  const run = analyseTrace(src);
  assert.deepEqual(run.diagnostics.map((d) => [d.code, d.data?.step]), [[Codes.redundantConstraint, 0]]);
});

test('FCLib local problem: A is W itself, with the same redundancy as the global problem', () => {
  const src = load('box-on-plane.local.hdf5');
  assert.equal(src.format, 'fclib-local');
  compareStep(src, 0, expected('box-on-plane.local.expected.json').steps[0]);
});

test('broken HDF5: a truncated file, a shape mismatch and no HDF5 reader are diagnostics, never exceptions', () => {
  const bytes = new Uint8Array(readFileSync(join(DIR, 'axion-newton.h5')));
  const cut = read('cut.h5', bytes.subarray(0, 4096));
  assert.equal(cut.source, undefined);
  assert.deepEqual(cut.diagnostics.map((d) => d.code), [Codes.traceUnreadable]);
  assert.match(cut.diagnostics[0].message, /truncated: 4096 bytes of the \d+ its superblock records/);
  // damaged in the superblock, in the object headers, in the data: a diagnostic each time
  for (const [lo, hi] of [[60, 200], [200, 2000], [2000, 14000]]) {
    const damaged = new Uint8Array(readFileSync(join(DIR, 'box-on-plane.global.hdf5')));
    damaged.fill(0x5a, lo, hi);
    const r = read('damaged.hdf5', damaged);
    assert.ok(r.diagnostics.length > 0 && r.diagnostics.every((d) => d.severity === 'error'), `bytes ${lo}–${hi}`);
  }
  const shape = read('bad-fclib-shape.hdf5');
  assert.deepEqual(shape.diagnostics.map((d) => [d.code, d.data?.key, d.data?.step]), [[Codes.traceShapeMismatch, '/fclib_global/H', 0]]);
  assert.match(shape.diagnostics[0].message, /^step 0: '\/fclib_global\/H' has 5 rows but '\/fclib_global\/M' is 6×6/);
  const noReader = readTrace(bytes, 'x.h5');
  assert.equal(noReader.diagnostics[0].code, Codes.traceUnreadable);
});
