// MuJoCo's constraint system at one state, read out of its data as the seam's ConstrainedSystem:
// J = efc_J (nefc × nv, dense or sparse as MuJoCo stored it), M from mj_fullM, λ = efc_force,
// b = efc_aref − J·qacc_smooth (MuJoCo solves (A + R)·f = aref − J·a₀ in its dual), R = efc_R and the
// violation efc_pos − efc_margin; rows named by the XML element they come from, degrees of freedom by
// joint. The naming rules are documented in docs/cli.md ("MuJoCo as the solver").
import type { ConstrainedSystem, ContactReport, CsrMatrix, SystemIteration, SystemRow, Vec3 } from '../engine';
import type { CompiledModel, MjModelHandle, MujocoModule, MujocoRuntime } from './mujoco';

type Num = ArrayLike<number>;
interface Handle {
  delete(): void;
}
interface Buffer extends Handle {
  GetView(): Float64Array;
}
export interface MjDataLike extends Handle {
  [field: string]: unknown;
}
interface VecOf<T> {
  size(): number;
  get(i: number): T | undefined;
}
interface MjContactLike extends Handle {
  geom1: number;
  geom2: number;
  dist: number;
  pos: Num;
  frame: Num;
  dim: number;
  efc_address: number;
  exclude: number;
  mu: number;
}
interface MjSolverStatLike extends Handle {
  improvement: number;
  gradient: number;
  lineslope: number;
  nactive: number;
  nchange: number;
}

/** The functions of the bindings the solver uses besides those the importer declares (mujoco.ts). */
export interface MujocoSolverModule extends MujocoModule {
  mj_fullM(m: MjModelHandle, d: MjDataLike, dst: Buffer): void;
  mj_contactForce(m: MjModelHandle, d: MjDataLike, id: number, result: Buffer): void;
  mj_stateSize(m: MjModelHandle, spec: number): number;
  mj_getState(m: MjModelHandle, d: MjDataLike, state: Buffer, spec: number): void;
  mj_setState(m: MjModelHandle, d: MjDataLike, state: Float64Array, spec: number): void;
  mj_resetDataKeyframe(m: MjModelHandle, d: MjDataLike, key: number): void;
  mj_kinematics(m: MjModelHandle, d: MjDataLike): void;
  mj_comPos(m: MjModelHandle, d: MjDataLike): void;
  mj_comVel(m: MjModelHandle, d: MjDataLike): void;
  mjtConstraint: Record<string, { value: number }>;
  mjtState: Record<string, { value: number }>;
}

export const solverModule = (rt: MujocoRuntime): MujocoSolverModule => rt.mj as MujocoSolverModule;

/** MuJoCo's constraint types (mjtConstraint), by value. */
export const EFC = { equality: 0, frictionDof: 1, frictionTendon: 2, limitJoint: 3, limitTendon: 4, frictionless: 5, pyramidal: 6, elliptic: 7 } as const;

/** One label per degree of freedom: `joint` for hinges and slides, `.x … .rz` for free joints, `.rx … .rz` for balls. */
export function dofLabels(cm: CompiledModel): string[] {
  const out: string[] = new Array<string>(cm.nv).fill('');
  cm.joints.forEach((j, i) => {
    const name = j.name || `joint${i}`;
    const sub = j.type === 'free' ? ['x', 'y', 'z', 'rx', 'ry', 'rz'] : j.type === 'ball' ? ['rx', 'ry', 'rz'] : [''];
    sub.forEach((s, k) => (out[j.dofadr + k] = s ? `${name}.${s}` : name));
  });
  return out.map((l, i) => l || `dof${i}`);
}

/** The joint a degree of freedom belongs to. */
function jointOfDof(cm: CompiledModel, dof: number): number {
  for (let i = cm.joints.length - 1; i >= 0; i--) if (cm.joints[i].dofadr <= dof) return i;
  return -1;
}

const geomName = (cm: CompiledModel, g: number): string => cm.geoms[g]?.name || `geom${g}`;
const jointName = (cm: CompiledModel, j: number): string => cm.joints[j]?.name || `joint${j}`;
const tendonName = (cm: CompiledModel, t: number): string => cm.tendons[t]?.name || `tendon${t}`;
const eqName = (cm: CompiledModel, e: number): string => cm.equalities[e]?.name || `${cm.equalities[e]?.type ?? 'equality'}${e}`;

const EQ_ROW_LABELS: Record<string, string[]> = { connect: ['x', 'y', 'z'], weld: ['x', 'y', 'z', 'rx', 'ry', 'rz'], joint: ['q'], tendon: ['l'] };

/** A contact of MuJoCo's data, copied out (its handle deleted). */
export interface MjContactCopy {
  geom1: number;
  geom2: number;
  dist: number;
  pos: Vec3;
  frame: number[];
  dim: number;
  efcAddress: number;
  mu: number;
}

export function readContacts(d: MjDataLike): MjContactCopy[] {
  const vec = d.contact as VecOf<MjContactLike>;
  const n = Number(d.ncon);
  const out: MjContactCopy[] = [];
  for (let i = 0; i < n; i++) {
    const c = vec.get(i);
    if (!c) continue;
    try {
      out.push({ geom1: c.geom1, geom2: c.geom2, dist: c.dist, pos: [c.pos[0], c.pos[1], c.pos[2]], frame: Array.from(c.frame), dim: c.dim, efcAddress: c.efc_address, mu: c.mu });
    } finally {
      c.delete();
    }
  }
  return out;
}

/** Names of every efc row (see the module comment): element, type, row within the element, label. */
export function rowNames(cm: CompiledModel, d: MjDataLike, contacts: readonly MjContactCopy[]): SystemRow[] {
  const nefc = Number(d.nefc);
  const type = d.efc_type as Num, id = d.efc_id as Num;
  // contacts sharing both geoms get #k in the order MuJoCo made them
  const pairCount = new Map<string, number>();
  for (const c of contacts) pairCount.set(`${c.geom1}/${c.geom2}`, (pairCount.get(`${c.geom1}/${c.geom2}`) ?? 0) + 1);
  const seen = new Map<string, number>();
  const contactName = contacts.map((c) => {
    const key = `${c.geom1}/${c.geom2}`;
    const k = seen.get(key) ?? 0;
    seen.set(key, k + 1);
    const base = `${geomName(cm, c.geom1)}/${geomName(cm, c.geom2)}`;
    return (pairCount.get(key) ?? 0) > 1 ? `${base}#${k}` : base;
  });
  const rows: SystemRow[] = [];
  const perElement = new Map<string, number>();
  for (let r = 0; r < nefc; r++) {
    const t = type[r], i = id[r];
    let constraint: string, kind: string, sub: string | undefined;
    if (t === EFC.equality) {
      constraint = eqName(cm, i);
      kind = 'equality';
      sub = EQ_ROW_LABELS[cm.equalities[i]?.type ?? '']?.[perElement.get(`e${constraint}`) ?? 0];
    } else if (t === EFC.frictionDof) {
      constraint = jointName(cm, jointOfDof(cm, i));
      kind = 'frictionloss';
      sub = 'frictionloss';
    } else if (t === EFC.frictionTendon) {
      constraint = tendonName(cm, i);
      kind = 'frictionloss';
      sub = 'frictionloss';
    } else if (t === EFC.limitJoint) {
      constraint = jointName(cm, i);
      kind = 'limit';
      sub = 'limit';
    } else if (t === EFC.limitTendon) {
      constraint = tendonName(cm, i);
      kind = 'limit';
      sub = 'limit';
    } else {
      constraint = contactName[i] ?? `contact${i}`;
      const k = perElement.get(`c${constraint}`) ?? 0;
      kind = t === EFC.elliptic && k > 0 ? 'friction' : 'contact';
      sub = t === EFC.elliptic ? (k === 0 ? 'n' : `t${k}`) : t === EFC.frictionless ? 'n' : `p${k}`;
    }
    const key = `${t === EFC.equality ? 'e' : t >= EFC.frictionless ? 'c' : `${t}:`}${constraint}`;
    const row = perElement.get(key) ?? 0;
    perElement.set(key, row + 1);
    rows.push({ constraint, type: kind, row, label: `${constraint}.${sub ?? row}` });
  }
  return rows;
}

/** efc_J as CSR (MuJoCo keeps it dense or sparse: m.opt.jacobian and nv decide). */
export function efcJacobian(d: MjDataLike, nv: number): CsrMatrix {
  const nefc = Number(d.nefc);
  const values = d.efc_J as Num;
  const rownnz = d.efc_J_rownnz as Num | undefined, rowadr = d.efc_J_rowadr as Num | undefined, colind = d.efc_J_colind as Num | undefined;
  const sparse = rownnz && rowadr && colind && nefc > 0 && values.length < nefc * nv;
  const rowPtr = new Int32Array(nefc + 1);
  const cols: number[] = [], vals: number[] = [];
  for (let r = 0; r < nefc; r++) {
    if (sparse) {
      // MuJoCo's sparse rows list their columns in increasing order
      for (let k = 0; k < rownnz[r]; k++) {
        const v = values[rowadr[r] + k];
        if (v !== 0) {
          cols.push(colind[rowadr[r] + k]);
          vals.push(v);
        }
      }
    } else {
      for (let c = 0; c < nv; c++) {
        const v = values[r * nv + c];
        if (v !== 0) {
          cols.push(c);
          vals.push(v);
        }
      }
    }
    rowPtr[r + 1] = cols.length;
  }
  return { rows: nefc, cols: nv, rowPtr, colIdx: Int32Array.from(cols), values: Float64Array.from(vals) };
}

/** M (nv × nv, symmetric) from mj_fullM, as CSR without structural zeros (the diagonal always stored). */
export function massMatrix(rt: MujocoRuntime, m: MjModelHandle, d: MjDataLike, nv: number): CsrMatrix {
  const mj = solverModule(rt);
  const buf = new mj.DoubleBuffer(Math.max(1, nv * nv)) as Buffer;
  try {
    mj.mj_fullM(m, d, buf);
    const full = buf.GetView();
    const rowPtr = new Int32Array(nv + 1);
    const cols: number[] = [], vals: number[] = [];
    for (let i = 0; i < nv; i++) {
      for (let j = 0; j < nv; j++) {
        const v = full[i * nv + j];
        if (v !== 0 || i === j) {
          cols.push(j);
          vals.push(v);
        }
      }
      rowPtr[i + 1] = cols.length;
    }
    return { rows: nv, cols: nv, rowPtr, colIdx: Int32Array.from(cols), values: Float64Array.from(vals) };
  } finally {
    buf.delete();
  }
}

/** MuJoCo's solver statistics of the last step (one entry per iteration, solver_niter of them). */
export function solverIterations(d: MjDataLike): SystemIteration[] {
  const niter = Math.min(Number((d.solver_niter as Num)[0] ?? 0), 1000);
  const stats = d.solver as VecOf<MjSolverStatLike> | undefined;
  const out: SystemIteration[] = [];
  for (let i = 0; i < niter && stats && i < stats.size(); i++) {
    const s = stats.get(i);
    if (!s) continue;
    try {
      out.push({ residual: s.gradient, values: { improvement: s.improvement, gradient: s.gradient, lineslope: s.lineslope, nactive: s.nactive, nchange: s.nchange } });
    } finally {
      s.delete();
    }
  }
  return out;
}

const bodyOf = (cm: CompiledModel, g: number): number => cm.geoms[g]?.body ?? 0;
const neg = (v: Vec3): Vec3 => [-v[0], -v[1], -v[2]];
const bodyNameOf = (cm: CompiledModel, g: number): string => {
  const b = bodyOf(cm, g);
  return b === 0 ? 'world' : cm.bodies[b]?.name || `body${b}`;
};

/** The contacts as the views show them: where, the normal and tangents, the gap and MuJoCo's contact force. */
export function contactReports(rt: MujocoRuntime, m: MjModelHandle, d: MjDataLike, cm: CompiledModel, contacts: readonly MjContactCopy[]): ContactReport[] {
  const mj = solverModule(rt);
  const buf = new mj.DoubleBuffer(6) as Buffer;
  try {
    return contacts.map((c, i) => {
      mj.mj_contactForce(m, d, i, buf);
      const f = buf.GetView();
      const fn = f[0], ft: [number, number] = [f[1] ?? 0, f[2] ?? 0];
      const tang = Math.hypot(ft[0], ft[1]);
      const budget = c.mu * fn;
      const coneRatio = tang === 0 ? 0 : budget > 0 ? Math.min(tang / budget, 1e6) : 1e6;
      const fr = c.frame;
      const n: Vec3 = [fr[0], fr[1], fr[2]], t1: Vec3 = [fr[3], fr[4], fr[5]], t2: Vec3 = [fr[6], fr[7], fr[8]];
      // MuJoCo's frame (n, t1, t2) points from geom1 to geom2, and f is the force on geom2. The engine's
      // normal points from B to A, its forces act on A, (t1, t2, n) is right-handed, and the world is B
      // (its arrows are drawn on the body): A is geom2 when geom1 is the world's, else geom1 with the
      // frame turned about t2 (−n, −t1, t2) and the force negated (f1 along −t1 stays, f2 along t2 flips).
      const swap = bodyOf(cm, c.geom1) === 0 && bodyOf(cm, c.geom2) !== 0;
      const [gA, gB] = swap ? [c.geom2, c.geom1] : [c.geom1, c.geom2];
      return {
        bodyA: bodyNameOf(cm, gA),
        bodyB: bodyNameOf(cm, gB),
        shapeA: geomName(cm, gA),
        shapeB: geomName(cm, gB),
        point: c.pos,
        normal: swap ? n : neg(n),
        t1: swap ? t1 : neg(t1),
        t2,
        gap: c.dist,
        normalForce: fn,
        frictionForce: swap ? ft : [ft[0], -ft[1]],
        state: fn <= 0 ? 'open' : coneRatio >= 1 - 1e-9 ? 'slip' : 'stick',
        coneRatio,
      };
    });
  } finally {
    buf.delete();
  }
}

/** The constrained system of MuJoCo's data after mj_forward (or mj_step) at step `step`. */
export function readSystem(rt: MujocoRuntime, m: MjModelHandle, d: MjDataLike, cm: CompiledModel, step: number): ConstrainedSystem {
  const nv = cm.nv;
  const nefc = Number(d.nefc);
  const contacts = readContacts(d);
  const J = efcJacobian(d, nv);
  const aref = d.efc_aref as Num, force = d.efc_force as Num, pos = d.efc_pos as Num, margin = d.efc_margin as Num, R = d.efc_R as Num;
  const qaccSmooth = d.qacc_smooth as Num;
  const b = new Float64Array(nefc);
  for (let r = 0; r < nefc; r++) {
    let ja = 0;
    for (let p = J.rowPtr[r]; p < J.rowPtr[r + 1]; p++) ja += J.values[p] * qaccSmooth[J.colIdx[p]];
    b[r] = aref[r] - ja;
  }
  return {
    producer: { kind: 'mujoco', name: cm.name || 'MuJoCo', method: 'mj_step' },
    step,
    t: Number(d.time),
    dofLabels: dofLabels(cm),
    rows: rowNames(cm, d, contacts),
    J,
    mass: { kind: 'M', matrix: massMatrix(rt, m, d, nv) },
    lambda: Float64Array.from({ length: nefc }, (_, r) => force[r]),
    b,
    R: Float64Array.from({ length: nefc }, (_, r) => R[r]),
    C: Float64Array.from({ length: nefc }, (_, r) => pos[r] - margin[r]),
    contacts: contactReports(rt, m, d, cm, contacts),
    iterations: solverIterations(d),
  };
}
