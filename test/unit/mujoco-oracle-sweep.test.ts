// MuJoCo's system under the lens, model by model against MuJoCo itself: at several steps of each
// repository model and public model, the rows and J the lens shows are MuJoCo's efc arrays of that
// step (read here straight from the bindings, on a second MjData stepped alone), and κ(A), κ(A + R),
// rank and the redundant rows are what an independent SVD (ml-matrix) finds on MuJoCo's own J, M and
// R. The blow-ups are named at the step MuJoCo's own state first goes bad.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { Matrix, SingularValueDecomposition } from 'ml-matrix';
import { Codes } from '../../src/engine';
import { loadModel, nodeFileAccess } from '../../src/import/index';
import { loadMujoco } from '../../src/import/mujoco';
import { solveWithMujoco } from '../../src/import/mujocoSolver';
import { csrToDense } from '../../src/shared/csr';
import { FIXTURES } from './import-helpers';

type Arr = ArrayLike<number>;
interface Data {
  nefc: number;
  time: number;
  efc_J: Arr;
  efc_force: Arr;
  efc_R: Arr;
  efc_pos: Arr;
  efc_margin: Arr;
  efc_type: Arr;
  qpos: Arr;
  qvel: Arr;
  qacc: Arr;
  ctrl: Float64Array;
  delete(): void;
}

/** The row type the lens gives each efc_type (MuJoCo's mjtConstraint order), the convention. */
const TYPE_OF = ['equality', 'frictionloss', 'frictionloss', 'limit', 'limit', 'contact', 'contact', 'contact'];

/** MuJoCo's own model and data for a fixture, at the run's initial state (its keyframe, energy on, no autoreset). */
async function direct(file: string, keyframe: number) {
  const { mj } = await loadMujoco();
  const vfs = new mj.MjVFS();
  vfs.addBuffer(basename(file), readFileSync(file));
  const m = mj.MjModel.mj_loadXML(basename(file), vfs);
  vfs.delete();
  const anyMj = mj as unknown as Record<string, (...a: unknown[]) => void> & { mjtDisableBit: Record<string, { value: number }>; mjtEnableBit: Record<string, { value: number }> };
  const opt = m.opt as { enableflags: number; disableflags: number };
  opt.enableflags = opt.enableflags | anyMj.mjtEnableBit.mjENBL_ENERGY.value;
  opt.disableflags = opt.disableflags | anyMj.mjtDisableBit.mjDSBL_AUTORESET.value;
  const d = new mj.MjData(m) as unknown as Data;
  if (keyframe >= 0) anyMj.mj_resetDataKeyframe(m, d, keyframe);
  anyMj.mj_forward(m, d);
  const nv = Number(m.nv);
  const fullM = (): number[][] => {
    const buf = new Float64Array(nv * nv);
    const M = new mj.DoubleBuffer(nv * nv) as unknown as { GetView(): Float64Array; delete(): void };
    anyMj.mj_fullM(m, d, M);
    buf.set(M.GetView());
    M.delete();
    return Array.from({ length: nv }, (_, i) => Array.from(buf.subarray(i * nv, (i + 1) * nv)));
  };
  return {
    m,
    d,
    nv,
    step: () => anyMj.mj_step(m, d),
    forward: () => anyMj.mj_forward(m, d),
    fullM,
    dispose: () => {
      d.delete();
      m.delete();
    },
  };
}

const svd = (X: Matrix) => new SingularValueDecomposition(X, { autoTranspose: true }).diagonal;

/** Rank by the rule: singular values above max(rows, cols)·ε·σ_max. */
function rankOf(X: Matrix): number {
  const s = svd(X);
  const tol = Math.max(X.rows, X.columns) * 2 ** -52 * (s[0] ?? 0);
  return s.filter((x) => x > tol).length;
}

function kappa(X: Matrix): number {
  if (rankOf(X) < X.rows) return Infinity;
  const s = svd(X);
  return s[0] / s[s.length - 1];
}

const sameKappa = (got: number | undefined, want: number, what: string) => {
  if (want === Infinity) assert.equal(got, Infinity, `${what}: MuJoCo's matrix is singular, the lens says ${got}`);
  else assert.ok(got !== undefined && Math.abs(got / want - 1) < Math.max(1e-6, 1e-13 * want), `${what}: lens ${got}, SVD ${want}`);
};

interface Case {
  file: string;
  /** Steps whose system is compared (0 = the initial state's). */
  steps: number[];
}

const CASES: Case[] = [
  { file: 'four-bar.xml', steps: [0, 1, 50, 200] },
  { file: 'slider-crank.xml', steps: [0, 1, 120] },
  { file: 'joint-equality.xml', steps: [0, 1, 80] },
  { file: 'weld.xml', steps: [0, 1, 80] },
  { file: 'mujoco/gear-blowup.xml', steps: [0, 1, 3] },
  { file: 'mujoco/solref-clamp.xml', steps: [0, 1, 60] },
  { file: 'mujoco/servo-damping.xml', steps: [0, 1, 5] },
  { file: 'mujoco/servo-implicit.xml', steps: [0, 1, 200] },
  { file: 'mujoco/box-stack.xml', steps: [0, 1, 150, 300] },
  { file: 'mujoco/weld-offset.xml', steps: [0, 1, 40] },
  { file: 'mujoco/massless-link.xml', steps: [0, 1, 40] },
  { file: 'public/hopper/hopper.xml', steps: [0, 1, 100] },
  { file: 'public/reacher/reacher.xml', steps: [0, 1, 100] },
  { file: 'public/ant/ant.xml', steps: [0, 1, 60] },
];

for (const c of CASES) {
  test(`MuJoCo’s system of ${c.file} at steps ${c.steps.join(', ')}: rows and J are MuJoCo’s arrays; κ, rank and redundancy are an independent SVD’s`, async () => {
    const path = join(FIXTURES, c.file);
    const parse = await loadModel(path, readFileSync(path, 'utf8'), { files: nodeFileAccess(join(path, '..')) });
    assert.ok(parse.model, JSON.stringify(parse.diagnostics.filter((d) => d.severity === 'error')));
    const last = Math.max(...c.steps);
    const { run } = await solveWithMujoco(parse, last);
    assert.ok(run);
    assert.equal(run.currentStep, last, `${c.file} ran ${run.currentStep} of ${last} steps`);
    const key = parse.model.keyframe === undefined ? -1 : parse.model.compiled.keys.findIndex((k) => k.name === parse.model?.keyframe);
    const mj = await direct(path, key);
    try {
      let at = 0; // the direct data's steps taken; the system of step k is the state before the k-th mj_step
      for (const k of c.steps) {
        while (at < Math.max(0, k - 1)) {
          mj.step();
          at++;
        }
        mj.forward();
        const { snapshot, analysis, system } = run.snapshotAt(k);
        const d = mj.d, nv = mj.nv, m = Number(d.nefc);
        const where = `${c.file} step ${k}`;
        assert.ok(analysis, `${where}: the lens analysed it`);
        // the rows and J: MuJoCo's efc arrays, bit for bit
        assert.equal(system.rows.length, m, `${where}: nefc`);
        assert.equal(system.J.cols, nv);
        const J = csrToDense(system.J);
        for (let r = 0; r < m; r++) {
          assert.equal(system.rows[r].type === 'friction' ? 'contact' : system.rows[r].type, TYPE_OF[d.efc_type[r]], `${where}: row ${r}'s type`);
          for (let j = 0; j < nv; j++) assert.equal(J[r][j] + 0, d.efc_J[r * nv + j] + 0, `${where}: J[${r}][${j}]`); // + 0: CSR stores no −0
          assert.equal(system.lambda?.[r], d.efc_force[r], `${where}: λ[${r}]`);
          assert.equal(system.R?.[r], d.efc_R[r], `${where}: R[${r}]`);
          assert.equal(system.C?.[r], d.efc_pos[r] - d.efc_margin[r], `${where}: violation[${r}]`);
        }
        if (m === 0) {
          assert.equal(snapshot.rank.J, 0);
          continue;
        }
        // the analysis against an SVD of A = J·M⁻¹·Jᵀ formed from MuJoCo's own J and full M
        const Jm = new Matrix(Array.from({ length: m }, (_, r) => Array.from({ length: nv }, (_, j) => d.efc_J[r * nv + j])));
        const M = new Matrix(mj.fullM());
        const A = Jm.mmul(new SingularValueDecomposition(M).solve(Jm.transpose()));
        const Asym = A.add(A.transpose()).mul(0.5);
        const AR = Asym.clone();
        for (let i = 0; i < m; i++) AR.set(i, i, AR.get(i, i) + d.efc_R[i]);
        const rank = rankOf(Jm);
        assert.equal(analysis.rank.J, rank, `${where}: rank of J (SVD ${svd(Jm).join(', ')})`);
        sameKappa(analysis.cond.A, kappa(Asym), `${where}: κ(A)`);
        sameKappa(analysis.cond.AR, kappa(AR), `${where}: κ(A + R)`);
        // redundancy: one named row per lost rank, each the combination of earlier rows it claims
        assert.equal(analysis.redundant.length, m - rank, `${where}: redundant rows`);
        const scale = Math.max(1, ...Array.from(Jm.to1DArray(), Math.abs));
        const index = (name: string, row: number) => system.rows.findIndex((x) => x.constraint === name && x.row === row);
        for (const red of analysis.redundant) {
          const i = index(red.constraint, red.row);
          const res = Jm.getRow(i);
          for (const dep of red.dependsOn) {
            const p = index(dep.constraint, dep.row);
            assert.ok(p >= 0 && p < i, `${where}: ${red.constraint}[${red.row}] depends on an earlier row`);
            const rowP = Jm.getRow(p);
            for (let j = 0; j < nv; j++) res[j] -= dep.coefficient * rowP[j];
          }
          assert.ok(Math.max(...res.map(Math.abs)) < 1e-8 * scale, `${where}: ${red.constraint}[${red.row}] = Σ c·J[dependsOn] (residual ${Math.max(...res.map(Math.abs))})`);
        }
      }
    } finally {
      mj.dispose();
      run.dispose();
    }
  });
}

/** The first step (1-based) at which MuJoCo's own state goes bad: non-finite, |q̇| over 1e4, or a bad-value warning. */
async function firstBadStep(path: string, key: number, limit: number): Promise<number> {
  const mj = await direct(path, key);
  try {
    const warn = (mj.d as unknown as { warning: { size(): number; get(i: number): { number: number } } }).warning;
    const counts = () => Array.from({ length: warn.size() }, (_, i) => warn.get(i).number);
    const before = counts();
    for (let k = 1; k <= limit; k++) {
      mj.step();
      let worst = 0, finite = true;
      for (const x of [mj.d.qpos, mj.d.qvel, mj.d.qacc]) for (let i = 0; i < x.length; i++) finite &&= Number.isFinite(x[i]);
      for (let i = 0; i < mj.d.qvel.length; i++) worst = Math.max(worst, Math.abs(mj.d.qvel[i]));
      // badqacc (index 6) and badqvel (5), badqpos (4): MuJoCo's bad-value warnings
      const now = counts();
      const bad = [4, 5, 6].some((i) => now[i] > before[i]);
      if (!finite || worst > 1e4 || bad) return k;
    }
    return -1;
  } finally {
    mj.dispose();
  }
}

for (const [file, culprit] of [
  ['mujoco/gear-blowup.xml', 'j1'],
  ['mujoco/servo-damping.xml', 'shoulder'],
] as const) {
  test(`${file}: the blow-up is named at the step MuJoCo’s own state first goes bad, on ${culprit}’s line`, async () => {
    const path = join(FIXTURES, file);
    const text = readFileSync(path, 'utf8');
    const parse = await loadModel(path, text, { files: nodeFileAccess(join(path, '..')) });
    const { run, diagnostics } = await solveWithMujoco(parse, 500);
    run?.dispose();
    const model = parse.model;
    assert.ok(model);
    const want = await firstBadStep(path, model.keyframe === undefined ? -1 : model.compiled.keys.findIndex((k) => k.name === model.keyframe), 500);
    assert.ok(want > 0, `${file}: MuJoCo alone blows up within 500 steps`);
    const [d] = diagnostics.filter((x) => x.code === Codes.mujocoBlowUp);
    assert.ok(d, JSON.stringify(diagnostics));
    assert.equal(d.data?.step, want);
    assert.match(d.message, new RegExp(`^MuJoCo blew up at step ${want} `));
    const line = text.split('\n').findIndex((l) => l.includes(`<joint name="${culprit}"`));
    assert.equal(d.range.start.line, line);
  });
}
