// `report TRACE` and the trace's panel model: what the HTML embeds (read back from the page as the
// panel reads it) against numpy's numbers for the fixtures, and the step the report opens at.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { analyseTrace, readTrace, type Hdf5Open, type TraceSource } from '../../src/engine';
import { loadHdf5Open } from '../../src/import/hdf5';
import { buildTraceReportModel, defaultTraceReportPath } from '../../src/cli/traceReport';
import { decodeFromJson, isPanelModel, type PanelModel } from '../../src/protocol';
import { buildReportHtml } from '../../src/report';
import { initialState, reduce } from '../../webview/store';
import { close, DIR, expected } from './trace-helpers';

let openHdf5: Hdf5Open | undefined;
before(async () => {
  openHdf5 = await loadHdf5Open();
  assert.ok(openHdf5, 'h5wasm loads');
});

function read(file: string): { source: TraceSource; model: (step: number) => PanelModel } {
  const r = readTrace(new Uint8Array(readFileSync(join(DIR, file))), file, { openHdf5 });
  assert.ok(r.source, file);
  const source = r.source;
  const run = analyseTrace(source);
  return { source, model: (step) => buildTraceReportModel(file, source, run, [...r.diagnostics, ...run.diagnostics], step, 'test') };
}

/** The model as the report's page carries it: through the HTML, decoded as the panel decodes it. */
function embedded(model: PanelModel): PanelModel {
  const html = buildReportHtml(model, { js: '/* panel */', css: '/* css */' });
  const m = /<script type="application\/json" id="cl-model">([\s\S]*?)<\/script>/.exec(html);
  assert.ok(m, 'the model is embedded');
  assert.doesNotMatch(html, /<script[^>]*\ssrc=/, 'no external script');
  const text = m[1].replace(/\\u003c/g, '<').replace(/\\u003e/g, '>').replace(/\\u0026/g, '&');
  const out = decodeFromJson<unknown>(text);
  assert.ok(isPanelModel(out), 'a valid panel model');
  return out;
}

test('report of a run that turns non-finite: per-step κ, ‖λ‖ and the first bad step; CL401 says its step', () => {
  const { model } = read('nonfinite-run.npz');
  const m = embedded(model(2));
  const want = expected('nonfinite-run.expected.json');
  assert.ok(m.trace);
  assert.equal(m.trace.format, 'npz');
  assert.equal(m.trace.steps.length, 6);
  assert.equal(m.trace.firstNonFinite, 4);
  for (let k = 0; k < 4; k++) {
    close(m.trace.steps[k].cond ?? NaN, want.steps[k].cond as number, 1e-6, `step ${k}: κ`);
    assert.equal(m.trace.steps[k].rank, want.steps[k].rank);
  }
  assert.deepEqual(m.trace.steps.slice(4).map((s) => s.cond), [null, null], 'no κ of a non-finite step');
  [1, 1, 10, 100].forEach((x, k) => close(m.trace!.steps[k].normLambda ?? NaN, x, 1e-12, `step ${k}: ‖λ‖`));
  // the timeline runs over the trace's steps: step 0 is the snapshot, steps 1 … 5 the records
  assert.equal(m.steps, 5);
  assert.deepEqual(m.history.map((r) => r.step), [1, 2, 3, 4, 5]);
  close(Math.hypot(...m.history[1].lambda), 10, 1e-12, "step 2's record: the trace's own λ");
  assert.ok(m.history.every((r) => r.C.every((c) => Number.isNaN(c))), 'no C in the trace: no violation charted');
  // the chosen step's matrices, every step embedded (a short trace)
  assert.equal(m.snapshot.step, 2);
  assert.deepEqual(m.snapshots?.map((s) => s.step), [0, 1, 2, 3, 4, 5]);
  const d = m.diagnostics.find((x) => x.code === 'CL401-non-finite');
  assert.ok(d);
  assert.match(d.message, /^step 4:/);
  assert.equal((d.data as { step: number }).step, 4);
  // a step that cannot be analysed still has a snapshot, whose diagnostics say why
  const bad = m.snapshots!.find((s) => s.step === 4)!;
  assert.equal(bad.cond.A, null);
  assert.ok(bad.diagnostics.some((x) => x.severity === 'error' && /step 4/.test(x.message)));
});

test("report of a braced square: the redundant row and its coefficients in the chosen step's snapshot", () => {
  const { model } = read('braced-square.npz');
  const m = embedded(model(0));
  const want = expected('braced-square.expected.json').steps[0];
  assert.equal(m.snapshot.rank.J, want.rank);
  assert.equal(m.snapshot.rank.rows, want.rows);
  assert.equal(m.trace!.steps[0].cond, null, 'κ = ∞ (singular) travels as null, the rank says why');
  assert.equal(m.trace!.steps[0].rank, 5);
  const label = (r: { constraint: string; row: number }) => m.snapshot.rows.find((x) => x.constraint === r.constraint && x.row === r.row)?.label;
  assert.equal(m.snapshot.redundant.length, 1);
  const r = m.snapshot.redundant[0];
  assert.equal(label(r), want.redundant[0].row);
  for (const dep of want.redundant[0].dependsOn) close(r.dependsOn.find((x) => label(x) === dep.row)?.coefficient ?? 0, dep.coefficient, 1e-8, dep.row);
  assert.ok(m.diagnostics.some((x) => x.code === 'CL301-redundant-constraint' && /^step 0:/.test(x.message)));
});

test("report of an Axion log: κ per Newton iteration beside Axion's stored κ, as numpy computes them", () => {
  const { model } = read('axion-newton.h5');
  const m = embedded(model(1));
  const want = expected('axion-newton.expected.json').steps as unknown as { iterations: { cond: number; storedCond: number }[] }[];
  assert.equal(m.trace!.format, 'axion');
  assert.equal(m.trace!.steps.length, want.length);
  want.forEach((s, k) =>
    s.iterations.forEach((it, i) => {
      const got = m.trace!.steps[k].iterations![i];
      close(got.cond ?? NaN, it.cond, 1e-6 * it.cond, `step ${k} iteration ${i}: κ`);
      close(got.storedCond ?? NaN, it.storedCond, 1e-12, `step ${k} iteration ${i}: stored κ`);
    }),
  );
  assert.equal(m.snapshot.step, 1);
});

test('the report opens at the step it was made for (a scene report opens at the run end)', () => {
  const { model } = read('nonfinite-run.npz');
  const s = reduce(initialState({ report: true }), { type: 'host', message: { type: 'model', model: embedded(model(2)) } });
  assert.equal(s.step, 2);
  assert.equal(s.snapshot?.step, 2);
  assert.equal(s.total, 5);
  const end = reduce(s, { type: 'goToStep', step: 5 });
  assert.equal(end.snapshot?.step, 5, 'every step is embedded: the slider reaches each');
});

test('report TRACE: a bad file is exit status 1 with its diagnostic; usage errors are exit status 2', () => {
  const root = join(__dirname, '..', '..');
  const cli = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', join(root, 'src', 'cli.ts'), ...args], { encoding: 'utf8', cwd: root });
  const bad = cli('report', join('test', 'fixtures', 'trace', 'bad-missing-mass.npz'), '-o', join('out', 'never.report.html'));
  assert.equal(bad.status, 1, bad.stderr);
  assert.match(bad.stdout + bad.stderr, /CL802/);
  assert.equal(cli('report', join('test', 'fixtures', 'trace', 'braced-square.npz'), '--json').status, 2);
  assert.equal(cli('report', join('test', 'fixtures', 'trace', 'braced-square.npz'), '--step', '7').status, 2);
  assert.equal(defaultTraceReportPath('runs/a.b.npz'), 'runs/a.b.report.html');
  assert.equal(defaultTraceReportPath('log.HDF5'), 'log.report.html');
});

test("the history's ‖C‖ per constraint is the trace's C at that step (AerisLab's rod)", () => {
  const { source, model } = read('aerislab-rod.npz');
  const m = model(0);
  assert.equal(m.history.length, source.steps - 1);
  m.history.forEach((r) => {
    const C = source.systemAt(r.step).C!;
    assert.equal(r.C.length, 1);
    close(r.C[0], Math.abs(C[0]), 1e-15, `step ${r.step}: ‖C‖`);
    close(m.trace!.steps[r.step].normC ?? NaN, Math.abs(C[0]), 1e-15, `step ${r.step}: ‖C‖ in the trace card`);
  });
});
