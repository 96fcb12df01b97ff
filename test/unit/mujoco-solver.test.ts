// MuJoCo as the solver: its system at a step is MuJoCo's own arrays (read here straight from the
// bindings), analysed as an independent SVD analyses it; each pathology of the fixtures is named on its
// element's line at the right step.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Matrix, SingularValueDecomposition } from 'ml-matrix';
import { Codes, type Diagnostic } from '../../src/engine';
import { loadModel, nodeFileAccess } from '../../src/import/index';
import { loadMujoco } from '../../src/import/mujoco';
import { solveWithMujoco } from '../../src/import/mujocoSolver';
import { csrToDense } from '../../src/shared/csr';
import { FIXTURES, lineOf } from './import-helpers';

async function solve(name: string, steps: number, keyframe?: string) {
  const path = join(FIXTURES, name);
  const text = readFileSync(path, 'utf8');
  const parse = await loadModel(path, text, { files: nodeFileAccess(FIXTURES) });
  const out = await solveWithMujoco(parse, steps, keyframe ? { keyframe } : {});
  return { ...out, text, parse };
}

const only = (ds: readonly Diagnostic[], code: string) => ds.filter((d) => d.code === code);

test('MuJoCo solver: the four-bar system is MuJoCo’s efc arrays, analysed as an independent SVD analyses it', async () => {
  const { run, snapshot } = await solve('four-bar.xml', 200);
  assert.ok(run && snapshot);
  try {
    // MuJoCo's own arrays at step 0, from the bindings (not through src/import/mujocoSystem.ts)
    const { mj } = await loadMujoco();
    const vfs = new mj.MjVFS();
    vfs.addBuffer('four-bar.xml', readFileSync(join(FIXTURES, 'four-bar.xml')));
    const m = mj.MjModel.mj_loadXML('four-bar.xml', vfs);
    vfs.delete();
    const d = new mj.MjData(m) as unknown as Record<string, ArrayLike<number>> & { delete(): void };
    mj.mj_forward(m, d as never);
    const nv = Number(m.nv), nefc = Number((d as unknown as { nefc: number }).nefc);
    const J = csrToDense(snapshot.J);
    assert.equal(J.length, nefc);
    for (let r = 0; r < nefc; r++) for (let c = 0; c < nv; c++) assert.equal(J[r][c], d.efc_J[r * nv + c], `J[${r}][${c}]`);
    for (let r = 0; r < nefc; r++) assert.equal(snapshot.lambda[r], d.efc_force[r]);
    assert.deepEqual(snapshot.rows.map((x) => x.label), ['close.x', 'close.y', 'close.z']);
    assert.deepEqual(snapshot.columnLabels, ['j_crank', 'j_coupler', 'j_rocker']);
    // A = J·M⁻¹·Jᵀ from MuJoCo's full M, then an SVD (ml-matrix) as numpy's matrix_rank and cond would
    const M = new Matrix(csrToDense(snapshot.M ?? snapshot.J));
    const Jm = new Matrix(J);
    const A = Jm.mmul(new SingularValueDecomposition(M).solve(Jm.transpose()));
    const sv = new SingularValueDecomposition(A).diagonal;
    const tol = Math.max(nefc, nefc) * 2 ** -52 * sv[0];
    assert.equal(snapshot.rank.J, sv.filter((s) => s > tol).length);
    assert.equal(snapshot.cond.A, null); // the out-of-plane row is zero in joint space: A is singular
    assert.deepEqual(snapshot.redundant.map((r) => [r.constraint, r.row]), [['close', 1]]);
    // κ(A + R) with MuJoCo's own R
    const AR = A.clone();
    for (let i = 0; i < nefc; i++) AR.set(i, i, AR.get(i, i) + d.efc_R[i]);
    const svr = new SingularValueDecomposition(AR).diagonal;
    assert.ok(Math.abs((snapshot.condAR ?? NaN) / (svr[0] / svr[svr.length - 1]) - 1) < 1e-6, `κ(A+R) ${snapshot.condAR}`);
    d.delete();
    m.delete();
  } finally {
    run.dispose();
  }
});

test('MuJoCo solver: a later step’s system is read again exactly from its checkpoint (the record’s λ)', async () => {
  const { run } = await solve('four-bar.xml', 0);
  assert.ok(run);
  try {
    run.step(100);
    for (const k of [1, 31, 32, 33, 77, 100]) {
      const s = run.systemAt(k);
      const rec = run.records[k] as { elementLambda: Float64Array };
      const norm = Math.sqrt(Array.from(s.lambda ?? []).reduce((a, x) => a + x * x, 0));
      assert.equal(rec.elementLambda[0], norm, `step ${k}`);
    }
  } finally {
    run.dispose();
  }
});

test('MuJoCo solver: a huge gear on tiny links is named at its step, on the joint, with the time step as the cause', async () => {
  const { diagnostics, text, run } = await solve('mujoco/gear-blowup.xml', 500);
  run?.dispose();
  const [d] = only(diagnostics, Codes.mujocoBlowUp);
  assert.ok(d, JSON.stringify(diagnostics));
  assert.equal(d.severity, 'error');
  assert.match(d.message, /^MuJoCo blew up at step \d+/);
  assert.match(d.message, /too large for the stiffness at j2/);
  assert.ok(typeof d.data?.step === 'number' && d.data.step < 20, `step ${d.data?.step}`);
  assert.equal(d.range.start.line, lineOf(text, '<joint name="j1"'));
});

test('MuJoCo solver: velocity feedback blows up under Euler (named: damping, use implicitfast) and not under implicitfast', async () => {
  const euler = await solve('mujoco/servo-damping.xml', 500);
  euler.run?.dispose();
  const [d] = only(euler.diagnostics, Codes.mujocoBlowUp);
  assert.ok(d, JSON.stringify(euler.diagnostics));
  assert.match(d.message, /damping at shoulder/);
  assert.match(d.message, /implicitfast/);
  assert.equal(d.range.start.line, lineOf(euler.text, '<joint name="shoulder"'));
  const implicit = await solve('mujoco/servo-implicit.xml', 500);
  assert.equal(implicit.run?.currentStep, 500);
  implicit.run?.dispose();
  assert.deepEqual(only(implicit.diagnostics, Codes.mujocoBlowUp), []);
});

test('MuJoCo solver: solref below 2·timestep, written or inherited from a default class, is named on its element', async () => {
  const { diagnostics, text, run } = await solve('mujoco/solref-clamp.xml', 10);
  run?.dispose();
  const ds = only(diagnostics, Codes.solrefClamped);
  assert.deepEqual(ds.map((d) => d.range.start.line), [lineOf(text, '<connect name="pin"'), lineOf(text, '<connect name="link"')]);
  assert.match(ds[0].message, /0\.001 s is below 2·timestep = 0\.004 s.*16× softer/);
  assert.match(ds[1].message, /inherited from a default class/);
});

test('MuJoCo solver: a weld started away from its relpose and a near-massless link are named on their elements', async () => {
  const weld = await solve('mujoco/weld-offset.xml', 10);
  weld.run?.dispose();
  const [w] = only(weld.diagnostics, Codes.initialViolation);
  assert.ok(w);
  assert.equal(w.range.start.line, lineOf(weld.text, '<weld name="grip"'));
  const light = await solve('mujoco/massless-link.xml', 10);
  light.run?.dispose();
  const [m] = only(light.diagnostics, Codes.illConditionedMass);
  assert.ok(m, JSON.stringify(light.diagnostics));
  assert.equal(m.range.start.line, lineOf(light.text, '<joint name="finger"'));
  assert.match(m.message, /no armature/);
});

test('MuJoCo solver: a box stack’s contacts are named by both geoms, unique per contact; no redundancy noise from pyramids', async () => {
  const { run, diagnostics } = await solve('mujoco/box-stack.xml', 300);
  assert.ok(run);
  try {
    const s = run.systemAt(300);
    const names = new Set<string>();
    for (const r of s.rows) if (r.type === 'contact' && r.row === 0) names.add(r.constraint);
    assert.ok([...names].some((n) => n.startsWith('floor/crate1_box')), [...names].join(', '));
    assert.ok([...names].some((n) => n.startsWith('crate1_box/crate2_box#')), [...names].join(', '));
    assert.equal(names.size, s.contacts?.length);
    assert.deepEqual(only(diagnostics, Codes.redundantConstraint), []);
    // the stack rests: total normal force ≈ the weight (3 kg)
    const fn = (s.contacts ?? []).filter((c) => c.shapeB === 'floor').reduce((a, c) => a + c.normalForce, 0);
    assert.ok(Math.abs(fn - 3 * 9.81) < 0.05 * 3 * 9.81, `floor force ${fn}`);
  } finally {
    run.dispose();
  }
});
