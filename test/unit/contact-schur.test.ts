// The Newton step's linear system reduced to the contact space (contact/schurNewton.ts) against a
// dense LU of the full Newton matrix: random iterates of a system with joints and contacts at every
// level and friction Jacobian, its transposed solve, and the Newton trajectory of a falling pile of
// 10 boxes against the sparse LU's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rng as prng, csrTranspose } from './linalg-fixtures';
import { denseSolveLU } from '../../src/engine/linalg/dense';
import { NonlinearSystem, type NonlinearSettings } from '../../src/engine/contact/system';
import { SchurNewton } from '../../src/engine/contact/schurNewton';
import { MAX_PAIR_CONTACTS, newtonRowBlocks } from '../../src/engine/contact/schurBlocks';
import { INEXACT_MAX_ITERATIONS, stepNonlinear, schurFor, schurCondition, newtonCondition } from '../../src/engine/contact/newton';
import { ContactStepper } from '../../src/engine/contact/stepContacts';
import { defaultNonlinearSettings } from '../../src/engine/contact/settings';
import { buildWorld } from '../../src/engine/assembly/assemble';
import { initialState } from '../../src/engine/model/body';
import { parseScene } from '../../src/engine';
import type { BodyState } from '../../src/engine/model/body';
import type { Quat } from '../../src/engine/types';
import { body, boxInertia, boxOnBoxContacts, boxPlaneContacts, joint, nonlinearSettings, scene, worldOf } from './contact-helpers';
import { pileParams, pileSceneText } from '../../bench/pile';

const relDiff = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let d = 0, s = 0;
  for (let i = 0; i < a.length; i++) {
    d = Math.max(d, Math.abs(a[i] - b[i]));
    s = Math.max(s, Math.abs(b[i]));
  }
  return d / Math.max(s, 1e-300);
};

/** Three tilted, moving boxes stacked on a plane, a pendulum on a ball joint and a distance link. */
function stackSystem(settings: NonlinearSettings, seed: number) {
  const r = prng(seed);
  const e: [number, number, number] = [0.2, 0.15, 0.1];
  const tilt = (a: number): Quat => [Math.sin(a / 2), 0, 0, Math.cos(a / 2)];
  const rv = (k: number): [number, number, number] => [k * (2 * r() - 1), k * (2 * r() - 1), k * (2 * r() - 1)];
  const s = scene(
    [
      body('a', 2, boxInertia(2, e), [0, 0, 0.098], { orientation: tilt(0.01 * r()), velocity: rv(0.3), angularVelocity: rv(0.5) }),
      body('b', 1, boxInertia(1, e), [0.01, 0, 0.297], { orientation: tilt(0.01 * r()), velocity: rv(0.3), angularVelocity: rv(0.5) }),
      body('c', 3, boxInertia(3, e), [0, 0.01, 0.496], { orientation: tilt(0.01 * r()), velocity: rv(0.3), angularVelocity: rv(0.5) }),
      body('bob', 1, [1e-3, 2e-3, 1.5e-3], [0.5, 2, -1], { velocity: rv(1) }),
      body('bob2', 0.5, [1e-3, 1e-3, 1e-3], [1.1, 2, -1.2], { velocity: rv(1) }),
    ],
    [joint('ball', 'bob', 'world', { anchorA: [-0.5, 0, 1] }), joint('distance', 'bob', 'bob2', { length: 0.65 })],
  );
  const { world, states } = worldOf(s);
  const cs = [...boxPlaneContacts(states, 0, e, [0, 0, 1], 0, 0.01, 0.5), ...boxOnBoxContacts(states, 1, e, 0, e, 0.01, 0.5), ...boxOnBoxContacts(states, 2, e, 1, e, 0.01, 0.5)];
  assert.ok(cs.length >= 8, `${cs.length} contacts`);
  const sys = new NonlinearSystem(world, states, cs, settings, 0.01);
  // a random iterate near x₀: positive and negative impulses, perturbed positions and velocities (so W and φ's derivatives vary)
  const x = sys.initialGuess();
  for (let i = 0; i < sys.N; i++) x[i] += i < sys.clb ? 1e-3 * (2 * r() - 1) : 0.05 * (2 * r() - 0.7);
  return { sys, x, r };
}

test('the reduced solve equals a dense LU of the Newton matrix, and so does its transpose, at every level and friction Jacobian', (t) => {
  let worst = 0, worstT = 0, its = 0;
  for (const contactLevel of ['position', 'velocity'] as const)
    for (const jointLevel of ['position', 'velocity'] as const)
      for (const frictionJacobian of ['exact', 'fixed-point'] as const)
        for (let seed = 1; seed <= 3; seed++) {
          const { sys, x, r } = stackSystem(nonlinearSettings({ contactLevel, jointLevel, frictionJacobian }), seed);
          const K = sys.jacobian(x, sys.frozenFriction(x), 1e-6);
          const S = SchurNewton.from(K, { nb: sys.nb, m: sys.N - 13 * sys.nb });
          assert.ok(S, 'the Newton matrix has the structure the reduction needs');
          const b = Float64Array.from({ length: sys.N }, () => 2 * r() - 1);
          const ref = denseSolveLU(K, b);
          assert.ok(ref.ok);
          const out = new Float64Array(sys.N);
          const res = S.solve(b, out, 1e-12, 500);
          assert.ok(res.converged, `converged (${res.relResidual})`);
          its = Math.max(its, res.iterations);
          const d = relDiff(out, ref.x);
          worst = Math.max(worst, d);
          assert.ok(d < 1e-9, `${contactLevel}/${jointLevel}/${frictionJacobian} seed ${seed}: ${d}`);
          const refT = denseSolveLU(csrTranspose(K), b);
          assert.ok(refT.ok);
          assert.ok(S.solveTranspose(b, out, 1e-12, 500).converged);
          const dT = relDiff(out, refT.x);
          worstT = Math.max(worstT, dT);
          assert.ok(dT < 1e-9, `transpose ${contactLevel}/${jointLevel}/${frictionJacobian} seed ${seed}: ${dT}`);
        }
  t.diagnostic(`worst relative difference ${worst.toExponential(2)}, transposed ${worstT.toExponential(2)}, ≤ ${its} Krylov iterations`);
});

test('κ₁ of the Newton matrix from the reduced solves equals the sparse LU estimate (the same Hager–Higham iteration)', (t) => {
  for (let seed = 4; seed <= 6; seed++) {
    const { sys, x } = stackSystem(nonlinearSettings(), seed);
    const K = sys.jacobian(x, sys.frozenFriction(x), 1e-6);
    const lu = newtonCondition(sys, K);
    const cr = schurCondition(K, schurFor(sys, K)!);
    t.diagnostic(`κ₁ ≈ ${lu.toExponential(4)} (LU), ${cr?.toExponential(4)} (reduced)`);
    assert.ok(Number.isFinite(lu) && cr !== undefined);
    assert.ok(Math.abs(cr - lu) <= 1e-6 * lu, `${cr} vs ${lu}`);
  }
});

test('a structure the reduction does not handle (a dyn row touching another body) is refused, not solved wrongly', () => {
  const { sys, x } = stackSystem(nonlinearSettings(), 5);
  const K = sys.jacobian(x, sys.frozenFriction(x), 1e-6);
  const bad = { ...K, values: K.values.slice() };
  // kin row 0 (body 0's p_x) gets an entry in body 1's q column
  const row = 6 * sys.nb;
  const cols = Array.from(K.colIdx.subarray(K.rowPtr[row], K.rowPtr[row + 1]));
  assert.ok(!cols.includes(7), 'no such entry to begin with');
  const dyn = 0;
  const p = K.rowPtr[dyn + 1] - 1; // the last entry of dyn row 0 is a λ column: move it to body 1's u column
  const badIdx = K.colIdx.slice();
  badIdx[p] = sys.cu + 6;
  assert.equal(SchurNewton.from({ ...bad, colIdx: badIdx }, { nb: sys.nb, m: sys.N - 13 * sys.nb }), undefined);
});

// The pile's later steps (boxes resting on boxes, four corners a face) have nearly redundant contacts:
// their roots are not isolated at the tolerance, and the same step from the same state reaches roots
// up to 1e-4 apart with two solvers that differ by round-off. So: the whole trajectory while the
// boxes land, and afterwards each step from the LU trajectory's state: the same convergence, and both
// results roots to the tolerance.
test('the Newton trajectory of a falling pile of 10 boxes with the reduced solve follows the sparse LU to 1e-8 while the boxes land', (t) => {
  const parsed = parseScene(pileSceneText(pileParams(10), 'nonlinear'));
  assert.ok(parsed.scene && !parsed.hasErrors);
  const sc = parsed.scene;
  const world = buildWorld(sc);
  const stepper = new ContactStepper(world, sc, 'nonlinear');
  const s = sc.solver;
  const base = defaultNonlinearSettings({ newton: { ...s.newton }, fb: { ...s.fb }, regularization: s.regularization, contactLevel: s.contacts.level, compliance: s.compliance, erp: s.erp });
  const flat = (st: BodyState[]) => st.flatMap((b) => [...b.p, ...b.q, ...b.v, ...b.w]);
  let lu: BodyState[] = sc.bodies.map(initialState), cr = lu;
  const methods = new Set<string>();
  let maxIts = 0, contacts = 0, landing = 0, later = 0, converged = 0;
  for (let k = 0; k < 50; k++) {
    const together = k < 24;
    const a = stepNonlinear(world, lu, stepper.detect(lu), { ...base, linearSolver: 'sparse-lu' }, s.dt);
    const from = together ? cr : lu;
    const cs = stepper.detect(from);
    const b = stepNonlinear(world, from, cs, { ...base, linearSolver: 'schur-cr' }, s.dt);
    b.report.linearSolvers.forEach((m) => methods.add(m));
    maxIts = Math.max(maxIts, ...b.report.linearIterations);
    contacts = Math.max(contacts, cs.length);
    const fa = flat(a.states), fb = flat(b.states);
    let d = 0;
    for (let i = 0; i < fa.length; i++) d = Math.max(d, Math.abs(fa[i] - fb[i]));
    if (together) landing = Math.max(landing, d);
    else later = Math.max(later, d);
    assert.equal(b.report.converged, a.report.converged, `step ${k}: the same convergence`);
    if (b.report.converged) {
      converged++;
      assert.ok(b.report.residuals[b.report.residuals.length - 1] <= s.newton.tolerance);
    }
    lu = a.states;
    cr = b.states;
  }
  t.diagnostic(`max |Δ| over the 24 landing steps ${landing.toExponential(2)}, steps 24–49 from the same state ${later.toExponential(2)}; methods ${[...methods].join('/')}; ≤ ${maxIts} Krylov iterations; ${converged}/50 converged; up to ${contacts} contacts`);
  assert.ok(contacts > 10, 'the pile is in contact');
  assert.ok(methods.has('schur-cr'));
  assert.ok(landing < 1e-8, `trajectories differ by ${landing} while the boxes land`);
});

const pairKey = (cs: readonly { bodyA: number; bodyB: number }[]) => (c: number) => {
  const { bodyA: a, bodyB: b } = cs[c];
  return a < b ? `${a} ${b}` : `${b} ${a}`;
};

test('the preconditioner blocks: each joint\'s rows, and the rows of all contacts of one pair of bodies, every row once', () => {
  // two joints of 3 and 7 rows (the second split 6 + 1), 11 contacts: 9 on one pair (split 8 + 1), 2 on another
  const pairs = ['0 1', '0 1', '-1 2', '0 1', '0 1', '0 1', '-1 2', '0 1', '0 1', '0 1', '0 1'];
  const mb = 10, nc = pairs.length;
  const { ptr, rows } = newtonRowBlocks(mb, nc, [0, 3, 10], (c) => pairs[c]);
  const seen = new Uint8Array(mb + 3 * nc);
  for (const r of rows) seen[r]++;
  assert.ok(seen.every((v) => v === 1), 'a partition of the λ rows');
  const sizes = Array.from({ length: ptr.length - 1 }, (_, b) => ptr[b + 1] - ptr[b]);
  assert.deepEqual(sizes, [3, 6, 1, 3 * MAX_PAIR_CONTACTS, 3, 6]);
  // a contact's normal row travels with its two friction rows, and a block holds one pair only
  for (let b = 3; b < sizes.length; b++) {
    const block = Array.from(rows.subarray(ptr[b], ptr[b + 1]));
    const cs = block.filter((r) => r >= mb && r < mb + nc).map((r) => r - mb);
    for (const c of cs) assert.ok(block.includes(mb + nc + 2 * c) && block.includes(mb + nc + 2 * c + 1));
    assert.equal(new Set(cs.map((c) => pairs[c])).size, 1);
  }
});

test('the block preconditioner solves with A\'s diagonal blocks to round-off (and its transpose with theirs), and the reduced solve still equals a dense LU', (t) => {
  for (const contactLevel of ['position', 'velocity'] as const)
    for (let seed = 1; seed <= 2; seed++) {
      const { sys, x, r } = stackSystem(nonlinearSettings({ contactLevel }), seed);
      const K = sys.jacobian(x, sys.frozenFriction(x), 1e-6);
      const S = schurFor(sys, K)!;
      const m = S.m;
      const blocks = newtonRowBlocks(sys.mb, sys.nc, sys.world.rowStart, pairKey(sys.contacts));
      assert.ok(blocks.ptr.length - 1 < m, 'some blocks hold several rows');
      // A's columns, densely, from the matrix-free product
      const cols: Float64Array[] = [], colsT: Float64Array[] = [];
      for (let j = 0; j < m; j++) {
        const e = new Float64Array(m);
        e[j] = 1;
        const a = new Float64Array(m), at = new Float64Array(m);
        S.apply(e, a);
        S.apply(e, at, true);
        cols.push(a);
        colsT.push(at);
      }
      // B·(B⁻¹·v) = v on each block for a random v (a backward-error check: the pair blocks of resting faces
      // are themselves ill-conditioned, so B⁻¹·B − I is only as small as κ(B)·ε)
      let worst = 0;
      for (let b = 0; b + 1 < blocks.ptr.length; b++) {
        const rs = Array.from(blocks.rows.subarray(blocks.ptr[b], blocks.ptr[b + 1]));
        for (const [c, transposed] of [[cols, false], [colsT, true]] as const) {
          const v = new Float64Array(m), z = new Float64Array(m);
          for (const i of rs) v[i] = 2 * r() - 1;
          if (transposed) S.preconditioner.transposed.apply(v, z);
          else S.preconditioner.apply(v, z);
          let normB = 0, normZ = 0, normR = 0;
          for (const i of rs) {
            let bz = 0;
            for (const j of rs) {
              bz += c[j][i] * z[j];
              normB = Math.max(normB, Math.abs(c[j][i]));
            }
            normZ = Math.max(normZ, Math.abs(z[i]));
            normR = Math.max(normR, Math.abs(bz - v[i]));
          }
          worst = Math.max(worst, normR / (normB * normZ * rs.length));
        }
      }
      t.diagnostic(`${contactLevel} seed ${seed}: backward error of the block solves ${worst.toExponential(2)}`);
      assert.equal(S.preconditioner.singularBlocks, 0);
      assert.ok(worst < 1e-13, `‖B·B⁻¹·v − v‖ / (‖B‖·‖B⁻¹·v‖·n): ${worst}`);
      const b = Float64Array.from({ length: sys.N }, () => 2 * r() - 1);
      const ref = denseSolveLU(K, b);
      assert.ok(ref.ok);
      const out = new Float64Array(sys.N);
      assert.ok(S.solve(b, out, 1e-12, 500).converged);
      assert.ok(relDiff(out, ref.x) < 1e-9);
    }
});

test('on the resting 10-box pile the block-preconditioned reduced solve takes ≥ 95 % of the Newton iterations (the LU the rest), in far fewer Krylov iterations than Jacobi\'s', (t) => {
  const parsed = parseScene(pileSceneText(pileParams(10), 'nonlinear'));
  assert.ok(parsed.scene && !parsed.hasErrors);
  const sc = parsed.scene;
  const world = buildWorld(sc);
  const stepper = new ContactStepper(world, sc, 'nonlinear');
  const s = sc.solver;
  const base = defaultNonlinearSettings({ newton: { ...s.newton }, fb: { ...s.fb }, regularization: s.regularization, contactLevel: s.contacts.level, compliance: s.compliance, erp: s.erp });
  let st: BodyState[] = sc.bodies.map(initialState);
  let blockIts = 0, jacobiIts = 0, jacobiFailed = 0, solves = 0, luSteps = 0, newtonIts = 0, krylovIts = 0, maxKrylov = 0, blockFailed = 0, luIts = 0;
  for (let k = 0; k < 50; k++) {
    const cs = stepper.detect(st);
    const r = stepNonlinear(world, st, cs, { ...base, linearSolver: 'schur-cr' }, s.dt);
    if (k >= 30) {
      if (r.report.linearSolvers.some((m) => m !== 'schur-cr')) luSteps++;
      luIts += r.report.linearSolvers.filter((m) => m !== 'schur-cr').length;
      newtonIts += r.report.iterations;
      for (const i of r.report.linearIterations) {
        krylovIts += i;
        maxKrylov = Math.max(maxKrylov, i);
      }
      // the same Newton matrix at the step's end, solved with either preconditioner to 1e-6 (an arbitrary
      // right-hand side reaches into the near-null space of the resting faces, which −h does not)
      const sys = new NonlinearSystem(world, st, cs, { ...base }, s.dt);
      const K = r.report.matrix;
      const rhs = Float64Array.from({ length: K.rows }, (_, i) => Math.sin(i + k));
      const out = new Float64Array(K.rows);
      const a = schurFor(sys, K, 'block')!.solve(rhs, out, 1e-6, 200);
      const b = schurFor(sys, K, 'jacobi')!.solve(rhs, out, 1e-6, 200);
      blockIts += a.iterations;
      if (!a.converged) blockFailed++;
      jacobiIts += b.iterations;
      if (!b.converged) jacobiFailed++;
      solves++;
    }
    st = r.states;
  }
  t.diagnostic(`steps 30–49: ${(krylovIts / newtonIts).toFixed(1)} Krylov iterations per Newton iteration (at most ${maxKrylov}), ${luIts} Newton iterations of ${luSteps} steps by the LU; a solve to 1e-6: ${(blockIts / solves).toFixed(1)} iterations (block, ${blockFailed} of ${solves} at the cap) against ${(jacobiIts / solves).toFixed(1)} (Jacobi, ${jacobiFailed} at the cap)`);
  assert.ok(luIts <= 0.05 * newtonIts, `${luIts} of ${newtonIts} Newton iterations fell back to the LU`);
  assert.ok(krylovIts < 20 * newtonIts, `${krylovIts} Krylov iterations in ${newtonIts} Newton iterations`);
  assert.ok(2 * blockIts < jacobiIts, `${blockIts} against ${jacobiIts}`);
});

// Where a step does not converge within the iteration cap (the pile's first contact step, for either solver),
// the two end at different non-roots and the trajectories part; so each step starts from the LU's state.
test('inexact Newton (forcing terms, at most 16 Krylov iterations each): the same outer tolerance on ‖h‖, and each landing step\'s root next to the LU\'s', (t) => {
  const parsed = parseScene(pileSceneText(pileParams(10), 'nonlinear'));
  assert.ok(parsed.scene && !parsed.hasErrors);
  const sc = parsed.scene;
  const world = buildWorld(sc);
  const stepper = new ContactStepper(world, sc, 'nonlinear');
  const s = sc.solver;
  const base = defaultNonlinearSettings({ newton: { ...s.newton }, fb: { ...s.fb }, regularization: s.regularization, contactLevel: s.contacts.level, compliance: s.compliance, erp: s.erp });
  const flat = (st: BodyState[]) => st.flatMap((b) => [...b.p, ...b.q, ...b.v, ...b.w]);
  let lu: BodyState[] = sc.bodies.map(initialState);
  let landing = 0, converged = 0, luConverged = 0, its = 0, luIts = 0, maxKrylov = 0;
  for (let k = 0; k < 24; k++) {
    const cs = stepper.detect(lu);
    const a = stepNonlinear(world, lu, cs, { ...base, linearSolver: 'sparse-lu' }, s.dt);
    const b = stepNonlinear(world, lu, cs, { ...base, linearSolver: 'schur-cr', linearTolerance: 'forcing' }, s.dt);
    b.report.linearSolvers.forEach((m, i) => {
      if (m === 'schur-cr') maxKrylov = Math.max(maxKrylov, b.report.linearIterations[i]);
    });
    if (b.report.converged) {
      converged++;
      assert.ok(b.report.residuals[b.report.residuals.length - 1] <= s.newton.tolerance, `step ${k}: ‖h‖ within the tolerance`);
    }
    if (a.report.converged) luConverged++;
    its += b.report.iterations;
    luIts += a.report.iterations;
    if (a.report.converged && b.report.converged) {
      const fa = flat(a.states), fb = flat(b.states);
      for (let i = 0; i < fa.length; i++) landing = Math.max(landing, Math.abs(fa[i] - fb[i]));
    }
    lu = a.states;
  }
  t.diagnostic(`landing (24 steps, each from the LU's state): max |Δ| ${landing.toExponential(2)} where both converged; converged ${converged} (LU ${luConverged}); Newton iterations ${its} (LU ${luIts}); ≤ ${maxKrylov} Krylov iterations`);
  assert.ok(maxKrylov <= INEXACT_MAX_ITERATIONS);
  assert.ok(converged >= luConverged - 1, `${converged} against ${luConverged} converged steps`);
  // both are roots to ‖h‖ ≤ 1e-10; ‖K⁻¹‖ of a landing step is a few hundred
  assert.ok(landing < 1e-6, `${landing}`);
});
