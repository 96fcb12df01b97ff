// Shared by the import-*.test.ts files: load a fixture through the importer, and read MuJoCo's own
// compiled model and kinematics straight from the bindings (independently of src/import/mujoco.ts's
// copies), to check the conversion against MuJoCo to 1e-12.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inspectModel, nodeFileAccess, type LoadOptions } from '../../src/import/index';
import { loadMujoco, type MjModelHandle } from '../../src/import/mujoco';
import { type Diagnostic, type SystemSnapshot, type Vec3 } from '../../src/engine';
import { perpendicularBasis } from '../../src/engine/core/math';

export const FIXTURES = join(__dirname, '..', 'fixtures', 'import');

export async function importFixture(name: string, opts: LoadOptions = {}) {
  const path = join(FIXTURES, name);
  const text = readFileSync(path, 'utf8');
  const r = await inspectModel(path, text, { files: nodeFileAccess(FIXTURES), ...opts });
  return { ...r, text, path };
}

/**
 * No diagnostic at all: the converted scene solves the contacts of its `shapes` shapes (velocity
 * formulation, contacts on), so nothing is left out of a model of joints and geoms.
 */
export function assertContactsSolved(diagnostics: readonly Diagnostic[], scene: { solver: { formulation: string; contacts: { enabled: boolean } }; world: { shapes: unknown[] }; bodies: { shapes: unknown[] }[] } | undefined, shapes: number): void {
  assert.deepEqual(diagnostics, []);
  assert.ok(scene);
  assert.equal(scene.world.shapes.length + scene.bodies.reduce((n, b) => n + b.shapes.length, 0), shapes);
  assert.equal(scene.solver.formulation, 'velocity');
  assert.equal(scene.solver.contacts.enabled, true);
}

/** 0-based line of the first line containing `needle` (after `after`, if given). */
export function lineOf(text: string, needle: string, after?: string): number {
  const lines = text.split(/\r?\n/);
  const from = after ? lines.findIndex((l) => l.includes(after)) : 0;
  const i = lines.findIndex((l, k) => k >= from && l.includes(needle));
  assert.ok(i >= 0, `no line with ${needle}`);
  return i;
}

export interface MujocoReference {
  bodyNames: string[];
  jointNames: string[];
  eqNames: string[];
  mass: number[];
  inertia: Vec3[];
  xipos: Vec3[];
  ximat: number[][];
  xpos: Vec3[];
  xmat: number[][];
  xanchor: Vec3[];
  xaxis: Vec3[];
  /** COM velocity [ω, v] from cvel via mj_objectVelocity. */
  comVel: number[][];
  /** Equality rows: efc_id, efc_pos, efc_vel, efc_force. */
  efc: { id: number; pos: number; vel: number; force: number }[];
  eqData: number[][];
  qpos: number[];
}

type Raw = Record<string, ArrayLike<number> & { length: number }>;

/** Compile with the raw bindings and run mj_forward at (qpos, qvel) or a key. */
export async function mujocoReference(name: string, key?: string): Promise<MujocoReference> {
  const { mj } = await loadMujoco();
  const path = join(FIXTURES, name);
  const vfs = new mj.MjVFS();
  vfs.addBuffer(name, readFileSync(path));
  if (name.startsWith('include')) vfs.addBuffer('parts/pendulum.xml', readFileSync(join(FIXTURES, 'parts', 'pendulum.xml')));
  const m = mj.MjModel.mj_loadXML(name, vfs);
  vfs.delete();
  const d = new mj.MjData(m);
  const res = new mj.DoubleBuffer(6);
  try {
    const M = m as unknown as Raw & MjModelHandle;
    const names = new TextDecoder().decode(Uint8Array.from(M.names, (x) => x & 0xff));
    const nameAt = (adr: number) => names.slice(adr, names.indexOf('\0', adr));
    const nb = Number(m.nbody), nj = Number(m.njnt), neq = Number(m.neq), nq = Number(m.nq), nv = Number(m.nv);
    if (key !== undefined) {
      const k = Array.from({ length: Number(m.nkey) }, (_, i) => nameAt(M.name_keyadr[i])).indexOf(key);
      assert.ok(k >= 0, `key ${key}`);
      (d.qpos as Float64Array).set(Array.from(M.key_qpos).slice(k * nq, k * nq + nq));
      (d.qvel as Float64Array).set(Array.from(M.key_qvel).slice(k * nv, k * nv + nv));
    } else {
      (d.qpos as Float64Array).set(Array.from(M.qpos0));
    }
    mj.mj_forward(m, d);
    const D = d as unknown as Raw;
    const v3 = (a: ArrayLike<number>, i: number): Vec3 => [a[3 * i], a[3 * i + 1], a[3 * i + 2]];
    const m9 = (a: ArrayLike<number>, i: number) => Array.from({ length: 9 }, (_, k) => a[9 * i + k]);
    const comVel = Array.from({ length: nb }, (_, i) => {
      mj.mj_objectVelocity(m, d, mj.mjtObj.mjOBJ_BODY.value, i, res, 0);
      return Array.from(res.GetView());
    });
    const efc = Array.from({ length: Number(d.nefc) }, (_, r) => ({ type: D.efc_type[r], id: D.efc_id[r], pos: D.efc_pos[r], vel: D.efc_vel[r], force: D.efc_force[r] }))
      .filter((e) => e.type === 0)
      .map(({ id, pos, vel, force }) => ({ id, pos, vel, force }));
    return {
      bodyNames: Array.from({ length: nb }, (_, i) => nameAt(M.name_bodyadr[i])),
      jointNames: Array.from({ length: nj }, (_, i) => nameAt(M.name_jntadr[i])),
      eqNames: Array.from({ length: neq }, (_, i) => nameAt(M.name_eqadr[i])),
      mass: Array.from(M.body_mass),
      inertia: Array.from({ length: nb }, (_, i) => v3(M.body_inertia, i)),
      xipos: Array.from({ length: nb }, (_, i) => v3(D.xipos, i)),
      ximat: Array.from({ length: nb }, (_, i) => m9(D.ximat, i)),
      xpos: Array.from({ length: nb }, (_, i) => v3(D.xpos, i)),
      xmat: Array.from({ length: nb }, (_, i) => m9(D.xmat, i)),
      xanchor: Array.from({ length: nj }, (_, i) => v3(D.xanchor, i)),
      xaxis: Array.from({ length: nj }, (_, i) => v3(D.xaxis, i)),
      comVel,
      efc,
      eqData: Array.from({ length: neq }, (_, i) => Array.from(M.eq_data).slice(11 * i, 11 * i + 11)),
      qpos: Array.from(D.qpos),
    };
  } finally {
    res.delete();
    d.delete();
    m.delete();
  }
}

export const close = (a: number, b: number, tol = 1e-12) => Math.abs(a - b) <= tol * Math.max(1, Math.abs(a), Math.abs(b));
export function assertClose(a: ArrayLike<number>, b: ArrayLike<number>, what: string, tol = 1e-12): void {
  assert.equal(a.length, b.length, `${what}: length`);
  for (let i = 0; i < a.length; i++) assert.ok(close(a[i], b[i], tol), `${what}[${i}]: ${a[i]} vs ${b[i]}`);
}

/** Every moving body: COM = MuJoCo's xipos, M⁻¹ block = [I/m, ximat·diag(1/I)·ximatᵀ]. Returns the worst relative error. */
export function checkMassProperties(snap: SystemSnapshot, ref: MujocoReference): number {
  let worst = 0;
  snap.bodies.forEach((name, k) => {
    const b = ref.bodyNames.indexOf(name);
    assert.ok(b > 0, `body ${name} in MuJoCo`);
    const state = snap.bodyStates.find((s) => s.name === name)!;
    assertClose(state.position, ref.xipos[b], `${name} centre of mass`);
    const blk = snap.MinvBlocks.subarray(36 * k, 36 * k + 36);
    const R = ref.ximat[b], I = ref.inertia[b];
    const expected = new Array(36).fill(0);
    for (let i = 0; i < 3; i++) expected[i * 7] = 1 / ref.mass[b];
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) {
      let s = 0;
      for (let q = 0; q < 3; q++) s += (R[i * 3 + q] * R[j * 3 + q]) / I[q];
      expected[(3 + i) * 6 + 3 + j] = s;
    }
    const scale = Math.max(...expected.map(Math.abs));
    for (let i = 0; i < 36; i++) {
      const err = Math.abs(blk[i] - expected[i]) / scale;
      worst = Math.max(worst, err);
      assert.ok(err <= 1e-12, `${name} M⁻¹[${Math.floor(i / 6)}][${i % 6}]: ${blk[i]} vs ${expected[i]}`);
    }
  });
  return worst;
}

/** Dense row of J. */
export function jRow(snap: SystemSnapshot, row: number): number[] {
  const out = new Array(snap.J.cols).fill(0);
  for (let k = snap.J.rowPtr[row]; k < snap.J.rowPtr[row + 1]; k++) out[snap.J.colIdx[k]] = snap.J.values[k];
  return out;
}

const cross = (a: Vec3, b: Vec3): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const mv = (m: number[], v: Vec3): Vec3 => [0, 1, 2].map((i) => m[i * 3] * v[0] + m[i * 3 + 1] * v[1] + m[i * 3 + 2] * v[2]) as Vec3;
const mtv = (m: number[], v: Vec3): Vec3 => [0, 1, 2].map((i) => m[i] * v[0] + m[3 + i] * v[1] + m[6 + i] * v[2]) as Vec3;

/** Expected rows as {body → 6-vector} maps ('world' contributes nothing). */
export type RowSpec = Map<string, number[]>;

/** The analytic ball rows at world point x between A and B (docs/formulas.md). */
export function ballRows(ref: MujocoReference, A: string, B: string, x: Vec3): RowSpec[] {
  const pA = A === 'world' ? ([0, 0, 0] as Vec3) : ref.xipos[ref.bodyNames.indexOf(A)];
  const pB = ref.xipos[ref.bodyNames.indexOf(B)];
  const rA = sub(x, pA), rB = sub(x, pB);
  return [0, 1, 2].map((i) => {
    const e: Vec3 = [0, 0, 0];
    e[i] = 1;
    return new Map([
      [A, [...e, ...cross(rA, e)]],
      [B, [...e.map((v) => -v), ...cross(rB, e).map((v) => -v)]],
    ]);
  });
}

/** The hinge's ⊥ rows: [0, a×p_k] on A, the negative on B, p_k = R_B·u_k, u_k = perpendicularBasis(R_Bᵀa). */
export function hingePerpRows(ref: MujocoReference, A: string, B: string, a: Vec3): RowSpec[] {
  const RB = ref.ximat[ref.bodyNames.indexOf(B)];
  const aB = mtv(RB, a);
  const n = Math.hypot(...aB);
  return perpendicularBasis([aB[0] / n, aB[1] / n, aB[2] / n]).map((u) => {
    const c = cross(a, mv(RB, u));
    return new Map([
      [A, [0, 0, 0, ...c]],
      [B, [0, 0, 0, ...c.map((v) => -v)]],
    ]);
  });
}

/** Compare a constraint's rows in J with the expected ones (all other columns zero). */
export function assertRows(snap: SystemSnapshot, constraint: string, expected: RowSpec[], tol = 1e-12): void {
  const c = snap.constraints.find((x) => x.name === constraint);
  assert.ok(c, `constraint ${constraint}`);
  assert.equal(c.rows, expected.length, `${constraint}: rows`);
  expected.forEach((spec, r) => {
    const got = jRow(snap, c.firstRow + r);
    const want = new Array(snap.J.cols).fill(0);
    for (const [body, vals] of spec) {
      if (body === 'world') continue;
      const k = snap.bodies.indexOf(body);
      assert.ok(k >= 0, `${constraint}: body ${body} owns columns`);
      for (let j = 0; j < 6; j++) want[6 * k + j] += vals[j];
    }
    assertClose(got, want, `${constraint} row ${r} (${snap.rows[c.firstRow + r].label})`, tol);
  });
}
