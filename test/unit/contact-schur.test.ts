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
import { stepNonlinear, schurFor, schurCondition, newtonCondition } from '../../src/engine/contact/newton';
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
