// The fast per-step path of the sparse solver against the reference paths: the planned numeric
// refactorisation (cholesky.ts) against the general up-looking path, a dense reconstruction and
// ml-matrix; buffer reuse that must not leak into factors a caller keeps; the condition estimate's
// warm start and early stop against Hager–Higham as the engine had it; and a solver fed a stream of
// systems whose pattern changes between calls against a fresh solver per system.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inverse, Matrix, solve as mlSolve } from 'ml-matrix';
import { analyze, factor, type Factor, type Symbolic } from '../../src/engine/linalg/cholesky';
import { estimateInverseNorm1, type CondestWork, type SolveFn } from '../../src/engine/linalg/condest';
import { SymmetricSolver, type SolverOptions } from '../../src/engine/linalg/solve';
import { csrNorm1, csrToDense } from '../../src/engine/linalg/sparse';
import type { CsrMatrix } from '../../src/engine/linalg/contracts';
import { chainSystem, csrFromDense, csrMulDiagTranspose, rng } from './linalg-fixtures';

/** Random sparse symmetric n×n, strictly diagonally dominant: SPD, or indefinite with the given diagonal signs. */
function randomSparseSym(n: number, rand: () => number, negative: (i: number) => boolean = () => false): CsrMatrix {
  const a: number[][] = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let i = 0; i < n; i++)
    for (let t = 0; t < 3; t++) {
      const j = Math.floor(rand() * n);
      if (j === i) continue;
      const v = 2 * rand() - 1;
      a[i][j] = v;
      a[j][i] = v;
    }
  for (let i = 0; i < n; i++) {
    let s = 1 + rand();
    for (let j = 0; j < n; j++) if (j !== i) s += Math.abs(a[i][j]);
    a[i][i] = negative(i) ? -s : s;
  }
  return csrFromDense(a);
}

/** The same pattern with other values (a symmetric perturbation keeping diagonal dominance and signs). */
function perturbed(A: CsrMatrix, rand: () => number): CsrMatrix {
  const d = csrToDense(A);
  const n = A.rows;
  for (let i = 0; i < n; i++)
    for (let j = 0; j < i; j++)
      if (d[i][j] !== 0) {
        const v = d[i][j] * (0.5 + rand());
        d[i][j] = v;
        d[j][i] = v;
      }
  for (let i = 0; i < n; i++) {
    let s = 1 + rand();
    for (let j = 0; j < n; j++) if (j !== i) s += Math.abs(d[i][j]);
    d[i][i] = Math.sign(d[i][i]) * s;
  }
  const B = csrFromDense(d);
  assert.deepEqual(B.colIdx, A.colIdx, 'perturbed keeps the pattern');
  return B;
}

function sameBits(a: ArrayLike<number>, b: ArrayLike<number>, what: string): void {
  assert.equal(a.length, b.length, `${what}: length`);
  for (let i = 0; i < a.length; i++) assert.ok(Object.is(a[i], b[i]), `${what}[${i}]: ${a[i]} vs ${b[i]}`);
}

/** max |(P·A·Pᵀ − L·D·Lᵀ)_ij| / max |A_ij| (dense). */
function reconstructionError(A: CsrMatrix, F: Factor): number {
  const n = A.rows;
  const perm = F.symbolic.perm;
  const Ad = csrToDense(A);
  const L = Array.from({ length: n }, (_, i) => Float64Array.from({ length: n }, (_, j) => (i === j ? 1 : 0)));
  const Lp = F.symbolic.Lp;
  for (let j = 0; j < n; j++) for (let p = Lp[j]; p < Lp[j + 1]; p++) L[F.Li[p]][j] = F.Lx[p];
  let err = 0;
  let scale = 0;
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let k = 0; k <= Math.min(i, j); k++) s += L[i][k] * F.D[k] * L[j][k];
      const a = Ad[perm ? perm[i] : i][perm ? perm[j] : j];
      err = Math.max(err, Math.abs(a - s));
      scale = Math.max(scale, Math.abs(a));
    }
  return err / scale;
}

function systems(): { name: string; A: CsrMatrix }[] {
  const rand = rng(7);
  return [
    { name: 'chain 25 bodies', A: chainSystem(25, 3).A },
    { name: 'random sparse SPD 60', A: randomSparseSym(60, rand) },
    { name: 'random sparse SPD 120', A: randomSparseSym(120, rand) },
  ];
}

test('planned refactorisation equals the general up-looking path bit for bit (natural and AMD orderings)', () => {
  const rand = rng(11);
  for (const { name, A } of systems())
    for (const ordering of ['natural', 'amd'] as const) {
      const sym = analyze(A, { ordering });
      for (let rep = 0; rep < 3; rep++) {
        const M = rep === 0 ? A : perturbed(A, rand);
        // 'reject' always runs the general path; with no small pivot it does the same arithmetic.
        const ref = factor(M, analyze(M, { ordering }), { shift: 0.25, onSmallPivot: 'reject' });
        assert.equal(ref.dependent.length, 0);
        for (const reuse of [false, true]) {
          const F = factor(M, sym, { shift: 0.25, onSmallPivot: 'stop', reuse });
          assert.ok(F.ok, `${name} ${ordering}`);
          sameBits(F.Li, ref.Li, `${name} ${ordering} Li`);
          sameBits(F.Lx, ref.Lx, `${name} ${ordering} Lx`);
          sameBits(F.D, ref.D, `${name} ${ordering} D`);
          assert.ok(Object.is(F.minPivotRatio, ref.minPivotRatio));
          const b = Float64Array.from({ length: M.rows }, () => rand() - 0.5);
          sameBits(F.solve(b), ref.solve(b), `${name} ${ordering} solve`);
        }
      }
    }
});

test("planned 'indefinite' mode: L·D·Lᵀ = P·A·Pᵀ, the ml-matrix solution, the negative pivots counted; 'stop' refuses it", () => {
  const rand = rng(5);
  for (const n of [30, 90]) {
    const neg = (i: number) => i % 3 === 1;
    const A = randomSparseSym(n, rand, neg);
    for (const ordering of ['natural', 'amd'] as const) {
      const sym = analyze(A, { ordering });
      const stop = factor(A, sym, { onSmallPivot: 'stop', reuse: true });
      assert.ok(!stop.ok && stop.reason === 'indefinite', 'stop mode fails on the first negative pivot');
      const F = factor(A, sym, { onSmallPivot: 'indefinite', reuse: true });
      assert.ok(F.ok);
      // Strict diagonal dominance survives elimination: each pivot has its diagonal's sign.
      let negatives = 0;
      for (let i = 0; i < n; i++) if (neg(i)) negatives++;
      assert.equal(F.negativePivots, negatives);
      assert.ok(reconstructionError(A, F) < 1e-13, `${ordering}: reconstruction ${reconstructionError(A, F)}`);
      const b = Array.from({ length: n }, () => rand() - 0.5);
      const x = F.solve(b);
      const ref = mlSolve(new Matrix(csrToDense(A)), Matrix.columnVector(b)).getColumn(0);
      for (let i = 0; i < n; i++) assert.ok(Math.abs(x[i] - ref[i]) < 1e-10 * (1 + Math.abs(ref[i])));
    }
  }
});

test('a stopped factorisation leaves no trace: the next one with the same symbolic equals a fresh one', () => {
  const rand = rng(9);
  const A = randomSparseSym(50, rand, (i) => i === 20);
  const B = csrFromDense(csrToDense(A).map((r, i) => r.map((v, j) => (i === j ? Math.abs(v) : v))));
  const sym = analyze(A, { ordering: 'natural' });
  const failed = factor(A, sym, { onSmallPivot: 'stop', reuse: true });
  assert.ok(!failed.ok && failed.step === 20);
  const F = factor(B, sym, { onSmallPivot: 'stop' });
  const G = factor(B, analyze(B, { ordering: 'natural' }), { onSmallPivot: 'stop' });
  assert.ok(F.ok && G.ok);
  sameBits(F.Lx, G.Lx, 'Lx');
  sameBits(F.D, G.D, 'D');
});

test('reuse never reaches a factor made without it; reused factors share one buffer (documented)', () => {
  const rand = rng(3);
  const A1 = chainSystem(12, 1).A;
  const sym = analyze(A1);
  const kept = factor(A1, sym);
  assert.ok(kept.ok);
  const Lx = kept.Lx.slice();
  const D = kept.D.slice();
  const A2 = perturbed(A1, rand);
  const F2 = factor(A2, sym, { reuse: true });
  const F3 = factor(perturbed(A1, rand), sym, { reuse: true });
  const F4 = factor(A2, sym);
  assert.ok(F2.ok && F3.ok && F4.ok);
  sameBits(kept.Lx, Lx, 'kept Lx');
  sameBits(kept.D, D, 'kept D');
  assert.notEqual(kept.Lx, F3.Lx);
  assert.notEqual(F4.Lx, F3.Lx);
  assert.equal(F2.Lx, F3.Lx, 'reuse writes the symbolic’s buffer');
  // the structural Li is shared (never written after the plan is built)
  assert.equal(F4.Li, F3.Li);
});

/** Hager–Higham exactly as the engine had it before the warm start (the reference of the cold start). */
function referenceInverseNorm1(n: number, solve: SolveFn, maxIter = 5): number {
  const x = new Float64Array(n).fill(1 / n);
  const xi = new Float64Array(n);
  let est = 0;
  let jPrev = -1;
  for (let iter = 0; iter < maxIter; iter++) {
    const y = solve(x);
    let e = 0;
    for (let i = 0; i < n; i++) e += Math.abs(y[i]);
    if (iter > 0 && e <= est) {
      est = Math.max(est, e);
      break;
    }
    est = e;
    for (let i = 0; i < n; i++) xi[i] = y[i] >= 0 ? 1 : -1;
    const z = solve(xi);
    let j = 0;
    let zmax = -1;
    let ztx = 0;
    for (let i = 0; i < n; i++) {
      if (Math.abs(z[i]) > zmax) {
        zmax = Math.abs(z[i]);
        j = i;
      }
      ztx += z[i] * x[i];
    }
    if (iter > 0 && (zmax <= ztx || j === jPrev)) break;
    jPrev = j;
    x.fill(0);
    x[j] = 1;
  }
  const b = Float64Array.from({ length: n }, (_, i) => (i % 2 === 0 ? 1 : -1) * (1 + (n > 1 ? i / (n - 1) : 0)));
  const y = solve(b);
  let e2 = 0;
  for (let i = 0; i < n; i++) e2 += Math.abs(y[i]);
  return Math.max(est, (2 * e2) / (3 * n));
}

function trueInverseNorm1(A: CsrMatrix): number {
  const inv = inverse(new Matrix(csrToDense(A))).to2DArray();
  let mx = 0;
  for (let j = 0; j < A.rows; j++) {
    let s = 0;
    for (let i = 0; i < A.rows; i++) s += Math.abs(inv[i][j]);
    mx = Math.max(mx, s);
  }
  return mx;
}

test('condest: the cold start equals the reference bit for bit; warm starts stay a lower bound within 3× of ‖A⁻¹‖₁', () => {
  const rand = rng(21);
  // graded: S·A·S (SPD) with S = diag(10^(i/8)), ill-conditioned
  const graded = csrFromDense(csrToDense(randomSparseSym(40, rand)).map((r, i) => r.map((v, j) => v * 10 ** ((i + j) / 8))));
  const cases = [...systems().map((s) => s.A), graded];
  for (const A of cases) {
    const n = A.rows;
    const F = factor(A, analyze(A), { onSmallPivot: 'indefinite' });
    assert.ok(F.ok);
    let solves = 0;
    const solve = (v: Float64Array) => {
      solves++;
      return F.solve(v);
    };
    const ref = referenceInverseNorm1(n, solve);
    const refSolves = solves;
    solves = 0;
    const work: CondestWork = { x: new Float64Array(n + 3), xi: new Float64Array(n + 3).fill(7) };
    const cold = estimateInverseNorm1(n, solve, solve, 5, work);
    assert.ok(Object.is(cold, ref), `cold ${cold} vs reference ${ref}`);
    assert.ok(solves <= refSolves);
    assert.ok(work.start! >= 0 && work.start! < n);
    const exact = trueInverseNorm1(A);
    for (const start of [work.start!, 0, n - 1, Math.floor(n / 2), -1, n + 5]) {
      const w: CondestWork = { x: new Float64Array(n), xi: new Float64Array(n), start };
      const est = estimateInverseNorm1(n, solve, solve, 5, w);
      assert.ok(est <= exact * (1 + 1e-10), `start ${start}: ${est} above ‖A⁻¹‖₁ = ${exact}`);
      assert.ok(est >= exact / 3, `start ${start}: ${est} below ‖A⁻¹‖₁/3 = ${exact / 3}`);
      if (start < 0 || start >= n) assert.ok(Object.is(est, ref), 'an out-of-range start is the cold start');
    }
  }
});

test('a solver fed a stream of changing patterns (SPD, semidefinite, compliant, indefinite) equals a fresh solver per system', () => {
  const rand = rng(13);
  const chain = chainSystem(20, 2);
  // semidefinite: a chain whose joint 4 is given twice (dependent rows)
  const Jd = csrToDense(chain.J);
  const Jdup = csrFromDense([...Jd.slice(0, 15), ...Jd.slice(12, 15), ...Jd.slice(15)]);
  const singular = csrMulDiagTranspose(Jdup, chain.minv);
  const spd = randomSparseSym(70, rand);
  const indef = randomSparseSym(40, rand, (i) => i % 5 === 0);
  const stream: { A: CsrMatrix; opts: SolverOptions }[] = [];
  const sparse: SolverOptions = { method: 'auto', exactCondMaxRows: 0, wantScaledCond: false };
  for (let rep = 0; rep < 4; rep++) {
    stream.push({ A: perturbed(chain.A, rand), opts: sparse });
    stream.push({ A: perturbed(spd, rand), opts: sparse });
    stream.push({ A: singular, opts: sparse });
    stream.push({ A: perturbed(chain.A, rand), opts: { ...sparse, compliance: 1e-3 } });
    stream.push({ A: perturbed(indef, rand), opts: sparse });
    stream.push({ A: perturbed(spd, rand), opts: { ...sparse, skipAnalysis: true } });
  }
  const solver = new SymmetricSolver(3); // fewer cached patterns than patterns: analyses are evicted too
  for (const [k, { A, opts }] of stream.entries()) {
    const b = Float64Array.from({ length: A.rows }, () => rand() - 0.5);
    const r = solver.solve(A, b, opts);
    const f = new SymmetricSolver().solve(A, b, opts);
    assert.equal(r.ok, f.ok, `system ${k}`);
    assert.equal(r.method, f.method, `system ${k}`);
    sameBits(r.x, f.x, `system ${k} x`);
    assert.ok(Object.is(r.residualNorm, f.residualNorm), `system ${k} residual`);
    assert.equal(r.rank, f.rank);
    assert.deepEqual(r.dependent, f.dependent);
    assert.equal(r.consistent, f.consistent);
    assert.equal(r.condEstimated, f.condEstimated);
    if (opts.skipAnalysis || !Number.isFinite(f.cond)) assert.ok(Object.is(r.cond, f.cond), `system ${k} cond ${r.cond} vs ${f.cond}`);
    else {
      const M = opts.compliance ? csrFromDense(csrToDense(A).map((row, i) => row.map((v, j) => v + (i === j ? opts.compliance! : 0)))) : A;
      const exact = csrNorm1(M) * trueInverseNorm1(M);
      assert.ok(r.cond <= exact * (1 + 1e-8) && r.cond >= exact / 3, `system ${k}: κ₁ estimate ${r.cond}, exact ${exact}`);
    }
  }
  const sym: Symbolic = solver.symbolicFor(stream[0].A);
  assert.ok(sym.plan ?? sym.block, 'the chain’s analysis kept its numeric plan (scalar, or 3×3 blocks: blockLdl.ts)');
});
