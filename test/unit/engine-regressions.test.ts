// Four rules that a plausible slip would break while every other test still passed: each test here
// fails if its rule is changed in the way named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyze, factor } from '../../src/engine/linalg/cholesky';
import { estimateInverseNorm1 } from '../../src/engine/linalg/condest';
import { reduceManifold } from '../../src/engine/collision/boxbox';
import { NonlinearSystem } from '../../src/engine/contact/system';
import { makeEval } from '../../src/engine/model/constraint';
import { statePose } from '../../src/engine/contact/rigid';
import { csrFromDense } from './linalg-fixtures';
import { body, joint, nonlinearSettings, scene, worldOf } from './contact-helpers';

test('Cholesky, reject mode: the small-pivot test is relative to the diagonal (an absolute one fails both ways)', () => {
  // a full-rank SPD matrix at the scale 1e-14: every pivot is below an absolute 1e-10, none is small
  const spd = [
    [4, 1, 0.5],
    [1, 3, 0.25],
    [0.5, 0.25, 2],
  ];
  const tiny = csrFromDense(spd.map((r) => r.map((v) => v * 1e-14)));
  const Ft = factor(tiny, analyze(tiny), { onSmallPivot: 'reject' });
  assert.equal(Ft.dependent.length, 0, 'no row of a tiny but well-conditioned matrix is dependent');
  // a rank-2 Gram matrix at the scale 1e8: the third pivot is round-off (far above an absolute 1e-10,
  // far below 1e-10 of its diagonal), so the third row is dependent
  const G = [
    [0.3, 1.7, -0.9, 2.3],
    [1.1, -0.4, 0.6, 0.8],
  ];
  G.push(G[0].map((v, j) => 0.7 * v - 1.3 * G[1][j]));
  const gram = G.map((a) => G.map((b) => 1e8 * a.reduce((s, v, j) => s + v * b[j], 0)));
  const big = csrFromDense(gram);
  const Fb = factor(big, analyze(big, { ordering: 'natural' }), { onSmallPivot: 'reject' });
  assert.equal(Fb.dependent.length, 1, 'the combination row is dependent');
  assert.equal(Fb.D[2], 0);
});

test('κ estimate: Higham’s alternating vector is a safeguard of its own (Hager alone stops at a local maximum)', () => {
  // found by search: Hager's iteration from the uniform vector settles on ‖B·e_j‖₁ = 2 here, where
  // Higham's b = [1, −1.5, 2] gives 2·‖B·b‖₁/(3n) = 2·28/9 (‖B‖₁ = 8)
  const B = [
    [-1, -2, 2],
    [-1, 3, -3],
    [0, 3, -3],
  ];
  const solve = (x: Float64Array) => Float64Array.from(B, (row) => row.reduce((s, v, j) => s + v * x[j], 0));
  const solveT = (x: Float64Array) => Float64Array.from(B, (_, j) => B.reduce((s, row, i) => s + row[j] * x[i], 0));
  const est = estimateInverseNorm1(3, solve, solveT);
  assert.ok(Math.abs(est - 56 / 9) < 1e-12, `estimate ${est}`);
  assert.ok(est <= 8, 'never above ‖B‖₁');
});

test('box–box manifold: the deepest point is kept even where the spread rules alone would drop it', () => {
  // a square's corners and edge midpoints at one depth, and its centre deepest: by area alone the four
  // corners win; the rule keeps the centre first
  const pts = [
    { x: 1, y: 1, z: -0.1 },
    { x: 0, y: 1, z: -0.1 },
    { x: -1, y: 1, z: -0.1 },
    { x: 0, y: 0, z: -0.5 },
    { x: -1, y: -1, z: -0.1 },
    { x: 1, y: -1, z: -0.1 },
  ];
  const kept = reduceManifold(pts);
  assert.equal(kept.length, 4);
  assert.ok(kept.includes(3), `the deepest point is kept: ${kept}`);
});

test('Newton residual: a velocity-level joint row is J·u + Υ·C/h (the 1/h scales the violation to a velocity)', () => {
  const h = 0.01;
  const erp = 0.2;
  // a pendulum bob 5 mm off its rod length, moving
  const s = scene([body('bob', 1, [1e-3, 1e-3, 1e-3], [0.3, 0, -0.955], { velocity: [0.4, 0, 0.2] })], [joint('distance', 'bob', 'world', { length: 1 })], [0, 0, -9.81], h);
  const { world, states } = worldOf(s);
  const settings = { ...nonlinearSettings(), jointLevel: 'velocity' as const, erp, compliance: 0 };
  const sys = new NonlinearSystem(world, states, [], settings, h);
  const x = sys.initialGuess();
  const r = sys.residual(x, sys.frozenFriction(x));
  const ev = makeEval(1);
  world.constraints[0].evaluate(statePose(states, world.endA[0]), statePose(states, world.endB[0]), ev);
  // J·u with u the guess's velocities (the bob is body A; its 6 columns: v then ω)
  const u = Array.from(x.slice(sys.cu, sys.cu + 6));
  const Ju = ev.JA.slice(0, 6).reduce((acc, v, j) => acc + v * u[j], 0);
  const expected = Ju + (erp * ev.C[0]) / h;
  assert.ok(Math.abs(ev.C[0]) > 1e-3, `the rod is violated (C = ${ev.C[0]})`);
  assert.ok(Math.abs(r[sys.rb] - expected) < 1e-12 * Math.max(1, Math.abs(expected)), `b row ${r[sys.rb]} vs ${expected}`);
});
