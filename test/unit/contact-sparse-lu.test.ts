// The sparse LU of the Newton matrix against ml-matrix's dense LU: random unsymmetric sparse
// matrices (zero diagonals that force pivoting, every column order), singular matrices, and the
// Newton matrix of a contact system.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rng as prng, CsrBuilder, csrTranspose } from './linalg-fixtures';
import { csrMulVec } from '../../src/engine/linalg/sparse';
import { denseSolveLU } from '../../src/engine/linalg/dense';
import type { CsrMatrix } from '../../src/engine/linalg/contracts';
import { sparseLu, sparseLuNnz, sparseLuSolve, sparseLuSolveTranspose } from '../../src/engine/linalg/sparseLu';
import { inverse, Matrix } from 'ml-matrix';
import { NonlinearSystem } from '../../src/engine/contact/system';
import { PatternAssembler } from '../../src/engine/linalg/triplets';
import { newtonCondition, solveNewtonSystem } from '../../src/engine/contact/newton';
import { body, boxInertia, boxPlaneContacts, joint, nonlinearSettings, scene, worldOf } from './contact-helpers';

/** Nonsingular by construction: a dominant entry (2..3) at (i, π(i)) per row plus small sparse noise. */
function randomSparse(n: number, density: number, seed: number, shifted: boolean): CsrMatrix {
  const r = prng(seed);
  const B = new CsrBuilder(n, n);
  // π: a cyclic shift (no diagonal at all: every pivot must move) or the identity
  for (let i = 0; i < n; i++) B.add(i, shifted ? (i + 1) % n : i, 2 + r());
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (r() < density) B.add(i, j, 0.3 * (2 * r() - 1));
  return B.build();
}

const residualNorm = (A: CsrMatrix, x: Float64Array, b: Float64Array) => {
  const r = csrMulVec(A, x);
  let s = 0;
  for (let i = 0; i < b.length; i++) s = Math.max(s, Math.abs(r[i] - b[i]));
  return s;
};

test('sparse LU solves random unsymmetric systems like dense LU (AMD and natural order, strict and threshold pivoting)', () => {
  for (const [n, density] of [[5, 0.3], [40, 0.08], [120, 0.03]] as const) {
    for (let seed = 1; seed <= 4; seed++) {
      const A = randomSparse(n, density, seed, seed % 2 === 0);
      const r = prng(100 + seed);
      const b = Float64Array.from({ length: n }, () => 2 * r() - 1);
      const lu = denseSolveLU(A, b);
      assert.ok(lu.ok, 'reference solve');
      const ref = lu.x;
      for (const opts of [{}, { natural: true }, { tol: 1 }, { tol: 1e-3 }]) {
        const f = sparseLu(A, opts);
        assert.ok(f, `factorised (n=${n}, seed=${seed}, ${JSON.stringify(opts)})`);
        const x = sparseLuSolve(f, b);
        let d = 0;
        for (let i = 0; i < n; i++) d = Math.max(d, Math.abs(x[i] - ref[i]) / Math.max(1, Math.abs(ref[i])));
        assert.ok(d < 1e-9, `solution differs by ${d}`);
        assert.ok(residualNorm(A, x, b) < 1e-10);
        assert.ok(residualNorm(csrTranspose(A), sparseLuSolveTranspose(f, b), b) < 1e-10, 'transpose solve');
      }
    }
  }
});

test('sparse LU reports structurally and numerically singular matrices', () => {
  const B = new CsrBuilder(3, 3);
  B.add(0, 0, 1).add(0, 1, 2).add(1, 0, 2).add(1, 1, 4).add(2, 2, 1); // rows 0 and 1 dependent
  assert.equal(sparseLu(B.build()), undefined);
  const Z = new CsrBuilder(2, 2);
  Z.add(0, 0, 1).add(1, 0, 1); // empty column 1
  assert.equal(sparseLu(Z.build()), undefined);
  const N = new CsrBuilder(1, 1).add(0, 0, NaN).build();
  assert.equal(sparseLu(N), undefined);
});

test('the Newton matrix of a box on a plane and a pendulum is solved by the sparse LU with little fill', (t) => {
  const e: [number, number, number] = [0.2, 0.1, 0.05];
  const s = scene(
    [body('box', 2, boxInertia(2, e), [0, 0, 0.05]), body('bob', 1, [1e-3, 1e-3, 1e-3], [0.5, 0, -1])],
    [joint('ball', 'bob', 'world', { anchorA: [-0.5, 0, 1] })],
  );
  const { world, states } = worldOf(s);
  const contacts = boxPlaneContacts(states, 0, e, [0, 0, 1], 0, 0.01, 0.5);
  const sys = new NonlinearSystem(world, states, contacts, nonlinearSettings(), 0.01);
  const x = sys.initialGuess();
  const A = sys.jacobian(x, sys.frozenFriction(x), 1e-6);
  const h = sys.residual(x, sys.frozenFriction(x));
  const rhs = h.map((v) => -v);
  const { x: dx, method } = solveNewtonSystem(sys, A, rhs);
  assert.equal(method, 'sparse-lu');
  assert.ok(residualNorm(A, dx, rhs) < 1e-12);
  const lu = denseSolveLU(A, rhs);
  assert.ok(lu.ok);
  const ref = lu.x;
  for (let i = 0; i < dx.length; i++) assert.ok(Math.abs(dx[i] - ref[i]) <= 1e-8 * Math.max(1, Math.abs(ref[i])));
  const f = sparseLu(A)!;
  t.diagnostic(`n = ${A.rows}, nnz(A) = ${A.rowPtr[A.rows]}, nnz(L+U) = ${sparseLuNnz(f)}`);
  assert.ok(sparseLuNnz(f) < 4 * A.rowPtr[A.rows]);
  // κ₁ estimate against ‖A‖₁·‖A⁻¹‖₁ from the dense inverse
  const D = new Matrix(Array.from({ length: A.rows }, (_, i) => { const r = new Array(A.rows).fill(0); for (let p = A.rowPtr[i]; p < A.rowPtr[i + 1]; p++) r[A.colIdx[p]] = A.values[p]; return r; }));
  const norm1 = (M: Matrix) => Math.max(...Array.from({ length: M.columns }, (_, j) => M.getColumn(j).reduce((a, v) => a + Math.abs(v), 0)));
  const exact = norm1(D) * norm1(inverse(D));
  const est = newtonCondition(sys, A);
  t.diagnostic(`κ₁ = ${exact.toExponential(3)}, estimate ${est.toExponential(3)}`);
  assert.ok(est <= exact * (1 + 1e-8) && est >= exact / 10);
});

test('pattern assembler: repeated passes refill the recorded pattern, a different sequence rebuilds it', () => {
  const r = prng(5);
  const A = new PatternAssembler(30, 30);
  const trip = Array.from({ length: 200 }, () => [Math.floor(30 * r()), Math.floor(30 * r())]);
  const pass = (tr: number[][], scale: number) => {
    A.begin();
    const B = new CsrBuilder(30, 30);
    tr.forEach(([i, j], k) => {
      A.add(i, j, scale * (k + 1));
      B.add(i, j, scale * (k + 1));
    });
    return { got: A.end(), want: B.build() };
  };
  const first = pass(trip, 1);
  const kept = Float64Array.from(first.got.values);
  for (const [tr, scale] of [[trip, 2], [trip, -3], [trip.slice(0, 150), 1], [[...trip].reverse(), 5]] as const) {
    const { got, want } = pass(tr as number[][], scale);
    assert.deepEqual(Array.from(got.rowPtr), Array.from(want.rowPtr));
    assert.deepEqual(Array.from(got.colIdx), Array.from(want.colIdx));
    for (let k = 0; k < want.values.length; k++) assert.ok(Math.abs(got.values[k] - want.values[k]) < 1e-9);
  }
  assert.deepEqual(Array.from(first.got.values), Array.from(kept), 'earlier results are not overwritten');
  assert.throws(() => (A.begin(), A.add(30, 0, 1), A.end()), RangeError);
});
