// A producer's system as the SystemSnapshot every view reads (the CLI's JSON and text, the panel, the
// report): the analysis of the seam fills κ, rank, redundancy and λ; what only the engine has (bodies,
// poses, energy, islands) is empty, and M⁻¹ is a general matrix instead of 6×6 blocks.
import { csrTransposeMulVec } from '../linalg/sparse';
import type { ConstraintReport, IslandReport, RowInfo, SystemSnapshot } from '../result';
import type { ConstrainedSystem } from './contract';
import { massInverse, type SystemAnalysis } from './analyse';

const EMPTY = new Float64Array(0);
const finiteOrNull = (x: number | undefined): number | null => (x !== undefined && Number.isFinite(x) ? x : null);

/** The snapshot of a producer's step, analysed by `analyseSystem`. */
export function snapshotOfSystem(s: ConstrainedSystem, an: SystemAnalysis): SystemSnapshot {
  const m = s.J.rows, n = s.J.cols;
  const lambda = an.lambda;
  const C = s.C ?? new Float64Array(m);
  const rows: RowInfo[] = [];
  const constraints: ConstraintReport[] = [];
  const redundantOf = new Set(an.redundant.map((d) => `${d.constraint}\u0000${d.row}`));
  for (let i = 0; i < m; i++) {
    const r = s.rows[i];
    let c = constraints[constraints.length - 1];
    if (!c || c.name !== r.constraint) {
      c = { name: r.constraint, type: r.type, fileIndex: -1, bodyA: '', bodyB: '', firstRow: i, rows: 0, violation: 0, velocityViolation: 0, lambda: [], forceA: [0, 0, 0], torqueA: [0, 0, 0], forceB: [0, 0, 0], torqueB: [0, 0, 0], status: 'ok', anchorAWorld: [0, 0, 0], anchorBWorld: [0, 0, 0] };
      constraints.push(c);
    }
    c.rows++;
    c.lambda.push(lambda[i]);
    c.violation = Math.hypot(c.violation, C[i]);
    if (redundantOf.has(`${r.constraint}\u0000${r.row}`)) c.status = an.consistent === false ? 'conflicting' : 'redundant';
    rows.push({ constraint: r.constraint, modelIndex: constraints.length - 1, row: r.row, label: r.label });
  }
  const b = s.b ?? new Float64Array(m);
  const Minv = s.mass.kind === 'blocks' ? undefined : s.mass.kind === 'Minv' ? s.mass.matrix : massInverse(s.mass.matrix);
  const island: IslandReport = { bodies: [], constraints: constraints.map((c) => c.name), rows: m, cond: finiteOrNull(an.cond.A), condEstimated: an.condEstimated, rank: an.rank.J, method: an.method };
  return {
    step: s.step,
    t: s.t,
    formulation: 'acceleration',
    stabilization: 'none',
    producer: s.producer,
    bodies: [],
    columnLabels: s.dofLabels,
    rows,
    MinvBlocks: s.mass.kind === 'blocks' ? s.mass.Minv : EMPTY,
    ...(Minv ? { Minv } : {}),
    ...(s.mass.kind === 'M' ? { M: s.mass.matrix } : {}),
    J: s.J,
    A: an.A,
    compliance: 0,
    ...(s.R ? { Rdiag: s.R, condAR: finiteOrNull(an.cond.AR) } : {}),
    F: new Float64Array(n),
    v: new Float64Array(n),
    rhs: b,
    a0: new Float64Array(n),
    b,
    lambda,
    a: new Float64Array(n),
    C,
    Cdot: new Float64Array(m),
    constraintForce: csrTransposeMulVec(s.J, lambda),
    method: an.method,
    cond: { A: finiteOrNull(an.cond.A), scaled: null },
    condEstimated: an.condEstimated,
    ...(an.spectrumCapped ? { spectrumCapped: true as const } : {}),
    ...(an.singularValues ? { singularValues: an.singularValues } : {}),
    rankTolerance: an.rankTolerance,
    rank: an.rank,
    redundant: an.redundant,
    consistent: an.consistent,
    residual: an.residual,
    constraints,
    bodyStates: [],
    energy: { kinetic: 0, potential: 0, total: 0 },
    islands: m > 0 ? [island] : [],
    diagnostics: [],
    ...(s.contacts ? { contacts: s.contacts, contactCount: s.contacts.length } : {}),
  };
}
