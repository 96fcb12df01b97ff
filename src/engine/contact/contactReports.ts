// A contact step as the history and the snapshot show it: contacts with names, the PGS and Newton
// summaries, the Newton matrix with its block labels. Plain data, every number finite or null.
import type { World } from '../assembly/assemble';
import type { Contact, ContactForce } from '../collision/contacts';
import type { NewtonReport } from './newton';
import type { SolveOutput } from '../kkt/kkt';
import type { Assembly } from '../assembly/assemble';
import { csrTransposeMulVec } from '../linalg/sparse';
import type { ContactReport, ContactStepFields, NewtonSnapshot, NewtonStepReport, SystemSnapshot } from '../result';
import type { SceneSpec } from '../scene/spec';
import type { ContactStep } from './stepContacts';
import type { Vec3 } from '../types';

/** The cone ratio reported when friction acts without any friction budget (μ·f_n = 0), and the cap of all ratios. */
export const CONE_RATIO_MAX = 1e6;

const v3 = (v: Vec3): Vec3 => [v[0], v[1], v[2]];

/** Names of the two ends of a contact. */
export function contactNames(scene: SceneSpec, c: Contact): { bodyA: string; bodyB: string; shapeA: string; shapeB: string } {
  return { bodyA: bodyName(scene, c.bodyA), bodyB: bodyName(scene, c.bodyB), shapeA: shapeName(scene, c.bodyA, c.shapeA), shapeB: shapeName(scene, c.bodyB, c.shapeB) };
}
// (module-level functions: a record names every contact of every step, so no closures per call)
function bodyName(scene: SceneSpec, i: number): string {
  return i < 0 ? 'world' : (scene.bodies[i]?.name ?? `#${i}`);
}
function shapeName(scene: SceneSpec, i: number, k: number): string {
  return (i < 0 ? scene.world.shapes[k]?.name : scene.bodies[i]?.shapes[k]?.name) ?? `shape${k}`;
}

/** `Box/box0–world/ground`: a contact's ends in messages and labels. */
export function contactTitle(scene: SceneSpec, c: Contact): string {
  const n = contactNames(scene, c);
  return `${n.bodyA}/${n.shapeA}–${n.bodyB}/${n.shapeB}`;
}

/** The finite cone ratio: ∞ and anything above CONE_RATIO_MAX read CONE_RATIO_MAX. */
export const finiteConeRatio = (r: number): number => (r >= 0 && r < CONE_RATIO_MAX ? r : CONE_RATIO_MAX);

export function contactReport(scene: SceneSpec, c: Contact, f: ContactForce): ContactReport {
  return {
    bodyA: bodyName(scene, c.bodyA),
    bodyB: bodyName(scene, c.bodyB),
    shapeA: shapeName(scene, c.bodyA, c.shapeA),
    shapeB: shapeName(scene, c.bodyB, c.shapeB),
    point: v3(c.point),
    normal: v3(c.normal),
    t1: v3(c.t1),
    t2: v3(c.t2),
    gap: c.gap,
    normalForce: f.normalForce,
    frictionForce: [f.frictionForce[0], f.frictionForce[1]],
    state: f.state,
    coneRatio: finiteConeRatio(f.coneRatio),
  };
}

const METHOD_ORDER = ['schur-cr', 'sparse-lu', 'dense-lu', 'dense-lstsq', 'failed'] as const;

/** Newton's summary for the history: the least robust linear solver any iteration needed. */
export function newtonStepReport(r: NewtonReport): NewtonStepReport {
  let m = -1;
  for (const s of r.linearSolvers) m = Math.max(m, METHOD_ORDER.indexOf(s));
  return {
    iterations: r.iterations,
    converged: r.converged,
    residuals: r.residuals.slice(),
    blocks: { ...r.blocks },
    stepLengths: r.stepLengths.slice(),
    method: m < 0 ? 'none' : METHOD_ORDER[m],
    cond: Number.isFinite(r.cond) ? r.cond : null,
  };
}

/** The contact fields of a step record; contacts listed up to `maxContacts`. */
export function contactRecordFields(scene: SceneSpec, cs: ContactStep, maxContacts: number): ContactStepFields & { newton?: NewtonStepReport } {
  const out: ContactStepFields & { newton?: NewtonStepReport } = {
    contacts: cs.contacts.length <= maxContacts ? cs.contacts.map((c, k) => contactReport(scene, c, cs.forces[k])) : [],
    contactCount: cs.contacts.length,
    complementarity: cs.complementarity,
    maxPenetration: cs.maxPenetration,
  };
  if (cs.pgs) out.pgs = { iterations: cs.pgs.iterations, residual: cs.pgs.residual, converged: cs.pgs.converged };
  if (cs.jointRows) out.jointRows = cs.jointRows;
  if (cs.newton) out.newton = newtonStepReport(cs.newton);
  return out;
}

/** The contact fields of a velocity step without contacts (solved directly). */
export const NO_CONTACT_FIELDS: Readonly<ContactStepFields> = { contacts: [], contactCount: 0, complementarity: 0, maxPenetration: 0 };

const DOF = ['vx', 'vy', 'vz', 'ωx', 'ωy', 'ωz'];
const POS = ['px', 'py', 'pz', 'Qx', 'Qy', 'Qz', 'Qw'];

/** Row and column labels of the Newton matrix (rows dyn, kin, b, n, f; columns q, u, λb, λn, λf). */
export function newtonLabels(world: World, nc: number): { rows: string[]; cols: string[] } {
  const names = world.colBodies.map((bi) => world.bodies[bi].spec.name);
  const dyn = names.flatMap((n) => DOF.map((d) => `${n}.${d}`));
  const kin = names.flatMap((n) => POS.map((d) => `${n}.${d}`));
  const b: string[] = [];
  world.constraints.forEach((c) => {
    for (let r = 0; r < c.rows; r++) b.push(`${c.spec.name}.${c.rowLabels[r] ?? r}`);
  });
  const n = Array.from({ length: nc }, (_, k) => `c${k}.n`);
  const f = Array.from({ length: nc }, (_, k) => [`c${k}.t1`, `c${k}.t2`]).flat();
  return { rows: [...dyn, ...kin, ...b, ...n, ...f], cols: [...kin, ...dyn, ...b, ...n, ...f] };
}

/** Newton on the analysed step, with the matrix, its labels and the largest residual named. */
export function newtonSnapshot(world: World, scene: SceneSpec, contacts: readonly Contact[], r: NewtonReport): NewtonSnapshot {
  const labels = newtonLabels(world, contacts.length);
  const blk = r.rowBlocks.find((b) => b.name === r.worst.block);
  const o = r.worst.owner;
  const owner =
    o.kind === 'body'
      ? `body \`${world.bodies[o.index]?.spec.name ?? o.index}\``
      : o.kind === 'constraint'
        ? `constraint \`${world.constraints[o.index]?.spec.name ?? o.index}\``
        : `contact c${o.index} (${contacts[o.index] ? contactTitle(scene, contacts[o.index]) : '?'})`;
  return {
    ...newtonStepReport(r),
    blockResiduals: r.blockResiduals.map((b) => ({ ...b })),
    matrix: r.matrix,
    rowBlocks: r.rowBlocks.map((b) => ({ ...b })),
    colBlocks: r.colBlocks.map((b) => ({ ...b })),
    rowLabels: labels.rows,
    colLabels: labels.cols,
    worst: { block: r.worst.block, label: blk ? (labels.rows[blk.start + r.worst.index] ?? '') : '', value: r.worst.value, owner },
  };
}

/**
 * Put a contact step's bilateral reactions into the solve output the snapshot is built from, so
 * that λ, Jᵀλ, the per-constraint forces and a = (u⁺ − u⁻)/h are what the step used.
 */
export function applyContactStep(world: World, asm: Assembly, out: SolveOutput, cs: ContactStep): void {
  const h = world.scene.solver.dt;
  out.lambda = Float64Array.from(cs.lambda);
  out.constraintForce = csrTransposeMulVec(asm.J, out.lambda);
  const a = new Float64Array(asm.v.length);
  for (let i = 0; i < a.length; i++) a[i] = (cs.uPlus[i] - asm.v[i]) / h;
  out.a = a;
  out.uPlus = Float64Array.from(cs.uPlus);
  if (out.R) out.R = out.lambda;
}

/** The contact fields of a snapshot (also sets its method and residual to the contact solver's). */
export function addContactSnapshotFields(snap: SystemSnapshot, world: World, scene: SceneSpec, cs: ContactStep | undefined): void {
  if (!cs) {
    Object.assign(snap, NO_CONTACT_FIELDS);
    return;
  }
  Object.assign(snap, contactRecordFields(scene, cs, Infinity));
  snap.method = cs.mode === 'velocity' ? 'pgs' : 'newton';
  snap.residual = cs.residual;
  if (snap.pgs && cs.pgs) snap.pgs.acceleration = cs.pgs.acceleration;
  if (cs.newton) snap.newton = newtonSnapshot(world, scene, cs.contacts, cs.newton);
}
