// Analysis of one solved step: per-constraint quantities, energy, islands, redundancy,
// and the SystemSnapshot the CLI, panel and report show.
import { type Assembly, minvBlocks, poseOf, type World, WORLD_POSE } from '../assembly/assemble';
import type { BodyState } from '../model/body';
import { norm2 } from '../core/math';
import { worldPoint } from '../core/math';
import type { SolveOutput } from '../kkt/kkt';
import type { BodyReport, ConstraintReport, Energy, IslandReport, RedundantRow, RowInfo, SystemSnapshot } from '../result';
import type { Vec3 } from '../types';
import { integratorInfo } from '../model/integrator';
import { driveSnapshot } from '../model/tendonForces';

const DOF = ['vx', 'vy', 'vz', 'ωx', 'ωy', 'ωz'];

function columnLabels(world: World): string[] {
  const out: string[] = [];
  for (const bi of world.colBodies) for (const d of DOF) out.push(`${world.bodies[bi].spec.name}.${d}`);
  return out;
}

function rowInfos(world: World): RowInfo[] {
  const out: RowInfo[] = [];
  world.constraints.forEach((c, ci) => {
    for (let r = 0; r < c.rows; r++)
      out.push({ constraint: c.spec.name, modelIndex: ci, row: r, label: `${c.spec.name}.${c.rowLabels[r] ?? r}` });
  });
  return out;
}

export function energyOf(world: World, states: BodyState[]): Energy {
  let kinetic = 0;
  let potential = 0;
  const g = world.scene.gravity;
  const gx = g[0], gy = g[1], gz = g[2];
  const bodies = world.bodies;
  // one loop, no closure and no temporaries per body: the same operations in the same order as
  // quatRotateInv (Rᵀω = q*·ω·q) and mat3MulVec (I_body·Rᵀω) inlined
  for (let i = 0; i < bodies.length; i++) {
    const b = bodies[i];
    if (b.column < 0) continue;
    const s = states[i];
    const m = b.spec.mass;
    const v = s.v, w = s.w, q = s.q;
    kinetic += 0.5 * m * (v[0] ** 2 + v[1] ** 2 + v[2] ** 2);
    // ½ ωᵀ I_world ω = ½ (Rᵀω)ᵀ I_body (Rᵀω)
    const x = q[0], y = q[1], z = q[2], qw = q[3];
    const w0 = w[0], w1 = w[1], w2 = w[2];
    const ix = qw * w0 - y * w2 + z * w1;
    const iy = qw * w1 - z * w0 + x * w2;
    const iz = qw * w2 - x * w1 + y * w0;
    const iw = x * w0 + y * w1 + z * w2;
    const b0 = ix * qw + iw * x + iy * z - iz * y;
    const b1 = iy * qw + iw * y + iz * x - ix * z;
    const b2 = iz * qw + iw * z + ix * y - iy * x;
    const I = b.inertia;
    const I0 = I[0] * b0 + I[1] * b1 + I[2] * b2;
    const I1 = I[3] * b0 + I[4] * b1 + I[5] * b2;
    const I2 = I[6] * b0 + I[7] * b1 + I[8] * b2;
    kinetic += 0.5 * (b0 * I0 + b1 * I1 + b2 * I2);
    if (b.spec.gravity) {
      const p = s.p;
      // gravity compensation cancels that fraction of the weight, and of its potential
      potential -= (1 - (b.spec.gravityCompensation ?? 0)) * m * (gx * p[0] + gy * p[1] + gz * p[2]);
    }
  }
  // the joints' springs (model/forces.ts): ½·k·(q − q_ref)²
  if (world.forces) potential += world.forces.springEnergy(states);
  // the tendons' springs (model/tendonForces.ts): ½·k·(L − s)² outside the dead band
  if (world.tendons) potential += world.tendons.springEnergy((i) => (i < 0 ? WORLD_POSE : poseOf(states[i], true)));
  return { kinetic, potential, total: kinetic + potential };
}

function redundantRows(world: World, out: SolveOutput): RedundantRow[] {
  const infos = rowInfos(world);
  return out.dependent.map((d) => ({
    constraint: infos[d.row].constraint,
    row: infos[d.row].row,
    dependsOn: d.dependsOn.map((x) => ({ constraint: infos[x.row].constraint, row: infos[x.row].row, coefficient: x.coefficient })),
  }));
}

function constraintReports(world: World, asm: Assembly, out: SolveOutput, tolerance: number): ConstraintReport[] {
  const depRows = new Set(out.dependent.map((d) => d.row));
  return world.constraints.map((c, ci) => {
    const r0 = world.rowStart[ci];
    const ev = world.evals[ci];
    const lambda: number[] = [];
    let redundant = false;
    const fA: number[] = [0, 0, 0, 0, 0, 0];
    const fB: number[] = [0, 0, 0, 0, 0, 0];
    for (let r = 0; r < c.rows; r++) {
      const l = out.lambda[r0 + r];
      lambda.push(l);
      if (depRows.has(r0 + r)) redundant = true;
      // J_Xᵀ λ (ev holds this constraint's blocks for the assembled state)
      for (let j = 0; j < 6; j++) {
        fA[j] += ev.JA[r * 6 + j] * l;
        fB[j] += ev.JB[r * 6 + j] * l;
      }
    }
    const viol = norm2(asm.C, r0, r0 + c.rows);
    const vviol = norm2(asm.Cdot, r0, r0 + c.rows);
    const ia = world.endA[ci];
    const ib = world.endB[ci];
    const anchorWorld = (i: number, anchor: Vec3): Vec3 => {
      if (i < 0) return [anchor[0], anchor[1], anchor[2]];
      const p = asm.poses[i];
      return worldPoint(p.p, p.R, anchor);
    };
    const status: ConstraintReport['status'] =
      redundant && out.consistent === false ? 'conflicting' : redundant ? 'redundant' : viol > tolerance ? 'violated' : 'ok';
    return {
      name: c.spec.name,
      type: c.spec.type,
      fileIndex: c.spec.index,
      bodyA: c.spec.bodyA,
      bodyB: c.spec.bodyB,
      firstRow: r0,
      rows: c.rows,
      violation: viol,
      velocityViolation: vviol,
      lambda,
      forceA: [fA[0], fA[1], fA[2]],
      torqueA: [fA[3], fA[4], fA[5]],
      forceB: [fB[0], fB[1], fB[2]],
      torqueB: [fB[3], fB[4], fB[5]],
      status,
      anchorAWorld: anchorWorld(ia, c.spec.anchorA),
      anchorBWorld: anchorWorld(ib, c.spec.anchorB),
    };
  });
}

function bodyReports(world: World, states: BodyState[], quatDrift?: Float64Array): BodyReport[] {
  return world.bodies.map((b, i) => ({
    name: b.spec.name,
    column: b.column,
    fixed: b.spec.fixed,
    mass: b.spec.mass,
    position: [...states[i].p] as Vec3,
    orientation: [...states[i].q] as BodyReport['orientation'],
    velocity: [...states[i].v] as Vec3,
    angularVelocity: [...states[i].w] as Vec3,
    quatDrift: quatDrift ? quatDrift[i] : 0,
  }));
}

function islandReports(world: World, out: SolveOutput): IslandReport[] {
  return out.islands.map(({ island, result }) => ({
    bodies: island.bodies.map((i) => world.bodies[i].spec.name),
    constraints: island.constraints.map((c) => world.constraints[c].spec.name),
    rows: island.rows.length,
    cond: result ? (Number.isFinite(result.cond) ? result.cond : null) : null,
    condEstimated: result?.condEstimated ?? false,
    rank: result?.rank ?? 0,
    method: result?.method ?? 'none',
  }));
}

const finiteOrNull = (x: number): number | null => (Number.isFinite(x) ? x : null);

/** Assemble the full snapshot of a solved step. */
export function buildSnapshot(
  world: World,
  step: number,
  states: BodyState[],
  asm: Assembly,
  out: SolveOutput,
  quatDrift?: Float64Array,
): SystemSnapshot {
  const s = world.scene.solver;
  const omitted = world.aOmitted;
  const drives = driveSnapshot(world.forces, world.tendons, world.scene.actuators ?? []);
  return {
    step,
    t: step * s.dt,
    formulation: s.formulation,
    integrator: integratorInfo(world.scene),
    // the assembly of `states` just ran the joint forces: their report is this state's
    ...(drives ? { drives } : {}),
    stabilization: s.stabilization,
    bodies: world.colBodies.map((i) => world.bodies[i].spec.name),
    columnLabels: columnLabels(world),
    rows: rowInfos(world),
    MinvBlocks: minvBlocks(asm.minvCompact),
    J: asm.J,
    ...(omitted ? { omitted: { A: omitted.reason } } : { A: asm.A }),
    compliance: s.compliance,
    F: asm.F,
    v: asm.v,
    rhs: out.rhs,
    a0: out.a0,
    b: out.b,
    lambda: out.lambda,
    a: out.a,
    C: asm.C,
    Cdot: asm.Cdot,
    constraintForce: out.constraintForce,
    W: omitted ? undefined : out.W,
    B: out.B,
    R: out.R,
    method: out.method,
    cond: { A: finiteOrNull(out.cond), scaled: finiteOrNull(out.condScaled) },
    condEstimated: out.condEstimated,
    ...(out.spectrumCapped ? { spectrumCapped: true as const } : {}),
    singularValues: out.singularValues,
    rankTolerance: out.rankTolerance,
    rank: { J: out.rank, rows: world.nRows, dofs: world.nCols },
    redundant: redundantRows(world, out),
    consistent: out.consistent,
    residual: out.residual,
    constraints: constraintReports(world, asm, out, s.violationTolerance),
    bodyStates: bodyReports(world, states, quatDrift),
    energy: energyOf(world, states),
    islands: islandReports(world, out),
    diagnostics: [],
  };
}
