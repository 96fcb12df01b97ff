// The seam: every producer's system gets the engine's analysis. The engine's own steps, re-analysed
// through the seam, give the engine's κ, rank, redundancy and λ; systems in joint space (M given as a
// matrix, as MuJoCo and trace files give it) are analysed as numpy would.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { analyseSystem, inspectScene, simulateScene, snapshotOfSystem, systemOfSnapshot, type ConstrainedSystem, type CsrMatrix } from '../../src/engine';
import { csrGet } from '../../src/shared/csr';

const rel = (a: number, b: number): number => Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b), 1e-300);

function csr(rows: number[][]): CsrMatrix {
  const rowPtr = [0], colIdx: number[] = [], values: number[] = [];
  for (const r of rows) {
    r.forEach((v, j) => {
      if (v !== 0) {
        colIdx.push(j);
        values.push(v);
      }
    });
    rowPtr.push(colIdx.length);
  }
  return { rows: rows.length, cols: rows[0]?.length ?? 0, rowPtr: Int32Array.from(rowPtr), colIdx: Int32Array.from(colIdx), values: Float64Array.from(values) };
}

const examples = readdirSync('examples').filter((f) => f.endsWith('.scene.json'));

test('seam: every example step-0 system re-analysed through the seam gives the engine’s κ, rank, redundancy and λ', () => {
  let checked = 0;
  for (const f of examples) {
    const r = inspectScene(readFileSync(`examples/${f}`, 'utf8'));
    const snap = r.snapshot;
    if (!snap || snap.rows.length === 0 || !snap.A) continue;
    const sys = systemOfSnapshot(snap);
    const an = analyseSystem(sys);
    assert.ok(an.ok, `${f}: ${an.ok ? '' : an.message}`);
    if (!an.ok) continue;
    assert.equal(an.rank.J, snap.rank.J, `${f}: rank`);
    const engineCond = snap.cond.A ?? Infinity;
    // with compliance the engine's κ is of A + Σ on one island but of A when the rows form several
    // islands (their spectra are merged without Σ), so the seam's κ(A) or κ(A + R) must match it
    const seamCond = snap.compliance > 0 && rel(an.cond.AR ?? NaN, engineCond) < 1e-6 ? an.cond.AR ?? NaN : an.cond.A;
    if (Number.isFinite(engineCond)) assert.ok(rel(seamCond, engineCond) < 1e-6, `${f}: κ ${seamCond} vs ${engineCond}`);
    else assert.equal(seamCond, Infinity, `${f}: singular`);
    assert.deepEqual(an.redundant.map((d) => [d.constraint, d.row]), snap.redundant.map((d) => [d.constraint, d.row]), `${f}: redundant rows`);
    for (let i = 0; i < an.redundant.length; i++)
      for (let k = 0; k < an.redundant[i].dependsOn.length; k++)
        assert.ok(Math.abs(an.redundant[i].dependsOn[k].coefficient - snap.redundant[i].dependsOn[k].coefficient) < 1e-8, `${f}: coefficient`);
    assert.equal(an.lambdaSource, 'producer');
    // the engine's λ solves the system the seam formed (A from M⁻¹ and J, b as the engine had it);
    // a contact solver's λ also balances the contact forces, which are not rows of this J
    if (snap.method === 'pgs' || snap.method === 'newton') continue;
    const scaleB = Math.max(1, ...Array.from(sys.b ?? [], Math.abs));
    assert.ok(an.residual <= 1e-8 * scaleB || snap.consistent === false, `${f}: residual ${an.residual}`);
    checked++;
  }
  assert.ok(checked >= 10, `only ${checked} examples had rows`);
});

test('seam: a run’s later step (velocity formulation) reads the same through the seam', () => {
  const out = simulateScene(readFileSync('examples/velocity-pendulum.scene.json', 'utf8'), 20);
  const snap = out.simulation?.snapshotAt(20);
  assert.ok(snap && snap.A && snap.rows.length > 0);
  const an = analyseSystem(systemOfSnapshot(snap));
  assert.ok(an.ok);
  if (!an.ok) return;
  assert.equal(an.rank.J, snap.rank.J);
  assert.ok(rel(an.cond.A, snap.cond.A ?? Infinity) < 1e-6, `${an.cond.A} vs ${snap.cond.A}`);
  assert.ok(an.residual < 1e-9 * Math.max(1, ...Array.from(snap.b, Math.abs)), `residual ${an.residual}`);
});

// A braced square in joint space: 3 DOF (x, y, θ of a plate), M = diag(m, m, I); rows: two supports in x
// (the second redundant: 2 × the first), one in y. numpy: A = J M⁻¹ Jᵀ, eigvalsh, matrix_rank, lstsq.
const square: ConstrainedSystem = {
  producer: { kind: 'trace', name: 'numpy' },
  step: 0,
  t: 0,
  dofLabels: ['plate.x', 'plate.y', 'plate.θ'],
  rows: [
    { constraint: 'left', type: 'distance', row: 0, label: 'left.d' },
    { constraint: 'right', type: 'distance', row: 0, label: 'right.d' },
    { constraint: 'top', type: 'distance', row: 0, label: 'top.d' },
  ],
  J: csr([
    [1, 0, 0.5],
    [2, 0, 1],
    [0, 1, 0],
  ]),
  mass: { kind: 'M', matrix: csr([[2, 0, 0], [0, 2, 0], [0, 0, 0.5]]) },
  b: Float64Array.from([1, 2, -3]),
};

test('seam: a joint-space system with M given names its redundant row with the coefficient, rank and κ as numpy', () => {
  const an = analyseSystem(square);
  assert.ok(an.ok);
  if (!an.ok) return;
  assert.equal(an.rank.J, 2);
  assert.deepEqual(an.redundant, [{ constraint: 'right', row: 0, dependsOn: [{ constraint: 'left', row: 0, coefficient: 2 }] }].map((d) => ({ ...d, dependsOn: d.dependsOn.map((x) => ({ ...x, coefficient: an.redundant[0].dependsOn[0].coefficient })) })));
  assert.ok(Math.abs(an.redundant[0].dependsOn[0].coefficient - 2) < 1e-12);
  // A = [[1, 2, 0], [2, 4, 0], [0, 0, 0.5]]: eigenvalues 5, 0.5, 0 → singular
  assert.equal(an.cond.A, Infinity);
  assert.ok(an.singularValues && Math.abs(an.singularValues[0] - 5) < 1e-12 && Math.abs(an.singularValues[1] - 0.5) < 1e-12);
  assert.equal(an.consistent, true); // b = [1, 2, −3]: the second row is twice the first
  // minimum-norm λ: A⁺b = [0.2, 0.4, −6]
  assert.equal(an.lambdaSource, 'least-squares');
  for (const [i, v] of [0.2, 0.4, -6].entries()) assert.ok(Math.abs(an.lambda[i] - v) < 1e-12, `λ${i} ${an.lambda[i]}`);
});

test('seam: the same system with M⁻¹ given, a conflicting b, a regulariser R and the producer’s own λ', () => {
  const inv: ConstrainedSystem = { ...square, mass: { kind: 'Minv', matrix: csr([[0.5, 0, 0], [0, 0.5, 0], [0, 0, 2]]) }, b: Float64Array.from([1, 0, -3]) };
  const an = analyseSystem(inv);
  assert.ok(an.ok && an.consistent === false);
  const reg = analyseSystem({ ...inv, R: Float64Array.from([0.1, 0.1, 0.1]), lambda: Float64Array.from([0, 0, -6]) });
  assert.ok(reg.ok);
  if (!reg.ok) return;
  // A + R = [[1.1, 2, 0], [2, 4.1, 0], [0, 0, 0.6]]: eigenvalues of the 2×2 block 2.6 ± √(1.5² + 4)
  const hi = 2.6 + Math.sqrt(2.25 + 4), lo = 2.6 - Math.sqrt(2.25 + 4);
  assert.ok(rel(reg.cond.AR ?? NaN, hi / Math.min(lo, 0.6)) < 1e-12, `κ(A+R) ${reg.cond.AR}`);
  assert.equal(reg.lambdaSource, 'producer');
  // residual of the producer's λ against (A + R)·λ = b: [1 − 0, 0 − 0, −3 − 0.6·(−6)] = [1, 0, 0.6]
  assert.ok(Math.abs(reg.residual - Math.hypot(1, 0.6)) < 1e-12, `residual ${reg.residual}`);
});

test('seam: bad systems get a named failure, never an exception or NaN', () => {
  const cases: [Partial<ConstrainedSystem>, string][] = [
    [{ dofLabels: ['x', 'y'] }, 'shape'],
    [{ lambda: Float64Array.from([1, 2]) }, 'shape'],
    [{ mass: { kind: 'M', matrix: csr([[1, 0], [0, 1]]) } }, 'shape'],
    [{ mass: { kind: 'M', matrix: csr([[1, 0, 0], [0, -1, 0], [0, 0, 1]]) } }, 'mass'],
    [{ b: Float64Array.from([1, NaN, 0]) }, 'non-finite'],
    [{ mass: { kind: 'Minv', matrix: csr([[1, 0, 0], [0, Infinity, 0], [0, 0, 1]]) } }, 'non-finite'],
  ];
  for (const [patch, reason] of cases) {
    const an = analyseSystem({ ...square, ...patch });
    assert.equal(an.ok, false);
    if (!an.ok) assert.equal(an.reason, reason, an.message);
  }
});

test('seam: a producer’s system becomes the snapshot the views read (rows, constraints, M⁻¹, κ, redundancy)', () => {
  const an = analyseSystem(square);
  assert.ok(an.ok);
  if (!an.ok) return;
  const snap = snapshotOfSystem(square, an);
  assert.equal(snap.producer?.kind, 'trace');
  assert.deepEqual(snap.columnLabels, square.dofLabels);
  assert.deepEqual(snap.rows.map((r) => r.label), ['left.d', 'right.d', 'top.d']);
  assert.deepEqual(snap.constraints.map((c) => [c.name, c.status, c.rows]), [['left', 'ok', 1], ['right', 'redundant', 1], ['top', 'ok', 1]]);
  assert.equal(snap.cond.A, null); // singular
  assert.equal(snap.rank.J, 2);
  assert.ok(snap.Minv && snap.M);
  const dense = Array.from({ length: 9 }, (_, k) => csrGet(snap.Minv!, Math.floor(k / 3), k % 3));
  for (const [k, v] of [0.5, 0, 0, 0, 0.5, 0, 0, 0, 2].entries()) assert.ok(Math.abs(dense[k] - v) < 1e-15, `M⁻¹[${k}] ${dense[k]}`);
  assert.equal(snap.MinvBlocks.length, 0);
});
