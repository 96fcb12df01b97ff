// The exact spectrum's eigenvalue iteration has a cap; when a matrix reaches it, κ falls back to the
// factorisation's estimate and the analysis says so (CL308) instead of silently showing "≈".
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyseSystem, inspectScene, type ConstrainedSystem } from '../../src/engine';
import { csrFromDense, solveSymmetric } from './linalg-fixtures';

/** A fixed SPD matrix with well-separated eigenvalues (QL needs more than one iteration for them). */
function spd(n: number): number[][] {
  const B = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => Math.sin(1 + 3 * i + 7 * j)));
  return B.map((_, i) => B.map((_, j) => B[i].reduce((s, _, k) => s + B[i][k] * B[j][k], 0) + (i === j ? 0.5 + i : 0)));
}

test('a capped eigenvalue iteration: κ estimated, the solve still exact, spectrumCapped set', () => {
  const D = spd(8);
  const A = csrFromDense(D);
  const b = Float64Array.from({ length: 8 }, (_, i) => i - 3);
  const exact = solveSymmetric(A, b, { method: 'auto', exactCondMaxRows: 1000, wantSpectrum: true });
  assert.equal(exact.spectrumCapped, undefined);
  assert.equal(exact.condEstimated, false);
  assert.ok(exact.singularValues && exact.singularValues.length === 8);
  const capped = solveSymmetric(A, b, { method: 'auto', exactCondMaxRows: 1000, wantSpectrum: true, eigenIterations: 1 });
  assert.equal(capped.spectrumCapped, true);
  assert.equal(capped.condEstimated, true);
  assert.equal(capped.singularValues, undefined);
  assert.equal(capped.rank, 8);
  // the estimate is a lower bound of κ₁ within a modest factor of κ₂ (n = 8)
  assert.ok(capped.cond > exact.cond / 8 && capped.cond < exact.cond * 8, `${capped.cond} vs ${exact.cond}`);
  for (let i = 0; i < 8; i++) assert.ok(Math.abs(capped.x[i] - exact.x[i]) <= 1e-10 * (1 + Math.abs(exact.x[i])));
});

test('inspect: CL308 on the constraints key when the spectrum is capped, nothing by default', () => {
  const text = readFileSync(join(__dirname, '../../examples/chain.scene.json'), 'utf8');
  const plain = inspectScene(text);
  assert.ok(plain.snapshot);
  assert.equal(plain.snapshot.spectrumCapped, undefined);
  assert.equal(plain.snapshot.condEstimated, false);
  assert.ok(!plain.diagnostics.some((d) => d.code === 'CL308-spectrum-capped'));
  const capped = inspectScene(text, { eigenIterations: 1 });
  assert.ok(capped.snapshot);
  assert.equal(capped.snapshot.spectrumCapped, true);
  assert.equal(capped.snapshot.condEstimated, true);
  const d = capped.diagnostics.filter((x) => x.code === 'CL308-spectrum-capped');
  assert.equal(d.length, 1);
  assert.equal(d[0].severity, 'warning');
  assert.match(d[0].message, /κ\(A\) is estimated \(≈[0-9.e+]+\)/);
  assert.match(d[0].message, /did not converge/);
  // on the "constraints" key, as CL303
  const line = text.split('\n')[d[0].range.start.line];
  assert.match(line.slice(d[0].range.start.character), /^"constraints"/);
  // κ from the estimate agrees with the exact κ to within the estimator's factor
  const k = plain.snapshot.cond.A!, ke = capped.snapshot.cond.A!;
  assert.ok(ke > k / 30 && ke < k * 30, `${ke} vs ${k}`);
});

test('analyseSystem (traces, MuJoCo) carries the same flag', () => {
  const J = csrFromDense([[1, 0, 0.5], [0, 1, -0.25], [0.3, 0.2, 1]]);
  const sys: ConstrainedSystem = {
    producer: { kind: 'trace', name: 'test' },
    step: 0,
    t: 0,
    dofLabels: ['q0', 'q1', 'q2'],
    rows: [0, 1, 2].map((r) => ({ constraint: 'c', type: 'equality', row: r, label: `c.${r}` })),
    J,
    mass: { kind: 'M', matrix: csrFromDense(spd(3)) },
  };
  const plain = analyseSystem(sys);
  const capped = analyseSystem(sys, { eigenIterations: 1 });
  assert.ok(plain.ok && capped.ok);
  assert.equal(plain.spectrumCapped, undefined);
  assert.equal(capped.spectrumCapped, true);
  assert.equal(capped.condEstimated, true);
});
