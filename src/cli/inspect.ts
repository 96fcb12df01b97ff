// `constraint-lens inspect` in text: the step-0 system, labelled.
import type { Diagnostic, IntegratorInfo, SystemSnapshot } from '../engine';
import { blockDiagonalCsr, COND_BAND_LABEL, condBand, csrToDense, formatCond, formatNumber, formatQuantity, safeText, UNITS, WORDS } from '../shared';
import { print } from './io';
import { diagnosticLine, listed, matrixSummary, textColumns, textMatrix } from './text';
import { printContacts } from './contacts';

/** Matrices with at most this many rows and columns are printed in full. */
const SMALL = 24;

export function printDiagnostics(file: string, diags: readonly Diagnostic[]): void {
  if (diags.length === 0) {
    print('Diagnostics: none');
    return;
  }
  print(`Diagnostics (${diags.filter((d) => d.severity === 'error').length} errors, ${diags.filter((d) => d.severity === 'warning').length} warnings):`);
  for (const d of diags) print('  ' + diagnosticLine(file, d));
}

function printMatrix(title: string, rows: number, cols: number, dense: () => number[][], rl: string[], cl: string[], summary: () => string): void {
  print(`${title} (${rows}×${cols}):`);
  if (rows === 0 || cols === 0) print('  (empty)');
  else if (rows <= SMALL && cols <= SMALL) print(textMatrix(dense(), rl, cl).replace(/^/gm, '  '));
  else print('  ' + summary());
  print();
}

function maxAbs(values: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < values.length; i++) {
    const a = Math.abs(values[i]);
    if (!(a <= m)) m = a; // NaN wins: a non-finite entry must show
  }
  return m;
}

function printVectors(title: string, labels: string[], columns: { name: string; values: ArrayLike<number> }[]): void {
  const cols = columns.filter((c) => c.values.length === labels.length);
  if (labels.length === 0 || cols.length === 0) return;
  if (labels.length <= SMALL * 2) {
    print(`${title}:`);
    print(textColumns(labels, cols).replace(/^/gm, '  '));
  } else {
    print(`${title}: ${labels.length} entries each; max |·|: ${cols.map((c) => `${c.name} ${formatNumber(maxAbs(c.values))}`).join(', ')}`);
  }
  print();
}

/** κ(A) with its band: `1.41e4 (caution)`, `∞ (singular)`, `– (no constraints)`, `≈1.2e7 (ill-conditioned, estimated)`. */
function condLine(cond: number | null, estimated: boolean, rows: number, rankDeficient: boolean, warning: number): string {
  const band = condBand(cond, { warning, rows, rankDeficient });
  return `${formatCond(cond, { rows, estimated })} (${COND_BAND_LABEL[band]}${estimated && band !== 'none' ? ', estimated' : ''})`;
}

/** "Integrator: what runs (the model asks for X: how they differ)". */
export function integratorLine(i: IntegratorInfo): string {
  return `Integrator: ${i.runs}${i.requested ? ` (the model asks for MuJoCo's ${i.requested}${i.difference ? `: ${i.difference}` : ', which this matches'})` : ''}`;
}

export function printInspect(file: string, snap: SystemSnapshot | undefined, diags: readonly Diagnostic[], sceneName: string, conditionWarning: number): void {
  print(`Scene: ${safeText(sceneName)} (${safeText(file)})`);
  if (!snap) {
    printDiagnostics(file, diags);
    return;
  }
  const rl = snap.rows.map((r) => r.label);
  const cl = snap.columnLabels;
  const s = (x: string) => safeText(x);
  const fixed = snap.bodyStates.filter((b) => b.fixed).map((b) => s(b.name));
  // msd-sim's quaternion coordinates: 7 position columns per moving body, its own b
  const msd = snap.producer?.name === 'msd-sim';
  if (msd) print(`Bodies: ${snap.J.cols / 7} owning columns (${snap.rank.dofs} DOFs: x, y, z, qw, qx, qy, qz per body; quaternion coordinates, msd-sim)`);
  else print(`Bodies: ${snap.bodies.length} owning columns (${snap.rank.dofs} DOFs)${fixed.length ? `, fixed: ${listed(fixed)}` : ''}`);
  print(`Constraints: ${snap.constraints.length} (${snap.rank.rows} rows)${snap.constraints.length ? `: ${listed(snap.constraints.map((c) => `${s(c.name)} [${s(c.type)}, ${s(c.bodyA)}–${s(c.bodyB)}]`))}` : `: ${WORDS.noConstraints}`}`);
  print(msd ? 'Formulation: msd-sim ConstraintSolver, b = −J·M⁻¹·F − α·C − β·Ċ, LLT' : `Formulation: ${snap.formulation}, stabilization: ${snap.stabilization}`);
  if (snap.integrator) print(integratorLine(snap.integrator));
  const dr = snap.drives;
  if (dr) {
    const joints = dr.joints.map((j, k) => `${s(j)} q = ${formatNumber(dr.q[k])}, q̇ = ${formatNumber(dr.qd[k])}, τ = ${formatNumber(dr.tau[k])}`);
    const acts = dr.actuators.map((a, k) => `${s(a)} ctrl ${formatNumber(dr.ctrl[k])} → force ${formatNumber(dr.force[k])}`);
    print(`Joint drives: ${listed(joints)}${acts.length ? `; actuators: ${listed(acts)}` : ''}`);
  }
  const rows = snap.rank.rows;
  const kappa = condLine(snap.cond.A, snap.condEstimated, rows, snap.rank.J < rows, conditionWarning);
  print(`Method: ${snap.method}   κ₂(A) = ${kappa}   κ(scaled A) = ${formatCond(snap.cond.scaled, { rows })}   rank(J) = ${snap.rank.J}/${rows}   residual ‖J·a − rhs‖ = ${formatNumber(snap.residual)}`);
  if (snap.islands.length > 1) print(`Islands: ${snap.islands.map((i, k) => `#${k + 1} ${i.bodies.length} bodies, ${i.rows} rows, κ ${formatCond(i.cond, { estimated: i.condEstimated, rows: i.rows })}`).join('; ')}`);
  print();
  // a producer in joint space (MuJoCo, a trace) gives a general M⁻¹; the engine's is one 6×6 block per body
  const minv = snap.Minv ?? blockDiagonalCsr(snap.MinvBlocks, 6, true);
  const minvShape = snap.Minv ? `${snap.Minv.rows}×${snap.Minv.cols} in joint space` : `block diagonal, ${snap.bodies.length} blocks of 6×6`;
  printMatrix('M⁻¹', minv.rows, minv.cols, () => csrToDense(minv), cl, cl, () => `${minvShape}; ${matrixSummary(minv)}`);
  printMatrix('J', snap.J.rows, snap.J.cols, () => csrToDense(snap.J), rl, cl, () => matrixSummary(snap.J));
  const A = snap.A;
  if (A) printMatrix('A = J·M⁻¹·Jᵀ', A.rows, A.cols, () => csrToDense(A), rl, rl, () => matrixSummary(A));
  else if (snap.omitted?.A) print(`A (${rows}×${rows}): ${snap.omitted.A}\n`);
  const W = snap.W;
  if (W) printMatrix('W = h·J·M⁻¹·Jᵀ (Delassus operator)', W.rows, W.cols, () => csrToDense(W), rl, rl, () => matrixSummary(W));
  // Σ beside A and W, never folded in
  if (snap.compliance > 0) print(`Σ = ${formatNumber(snap.compliance)}·I (solver.compliance): the matrix solved is ${W ? 'W' : 'A'} + Σ\n`);
  printVectors('Per column (body DOF)', cl, [
    { name: 'F', values: snap.F },
    { name: 'v', values: snap.v },
    { name: 'a0 = M⁻¹F', values: snap.a0 },
    { name: 'a', values: snap.a },
    { name: 'Jᵀλ', values: snap.constraintForce },
  ]);
  printVectors('Per row (constraint row)', rl, [
    { name: 'C', values: snap.C },
    { name: 'Ċ = J·v', values: snap.Cdot },
    ...(snap.B ? [{ name: 'B (free)', values: snap.B }] : []),
    { name: 'rhs', values: snap.rhs },
    { name: 'b', values: snap.b },
    { name: snap.R ? 'R = λ' : 'λ', values: snap.lambda },
  ]);
  if (snap.constraints.length && snap.constraints.length <= 50) {
    print('Constraint forces (world frame, on each body):');
    const v3 = (v: number[]) => `(${v.map((x) => formatNumber(x, 9)).join(', ')})`;
    for (const c of snap.constraints) {
      print(`  ${s(c.name)} [${c.status}] |C| = ${formatNumber(c.violation)}  λ = [${c.lambda.map((x) => formatNumber(x, 12)).join(', ')}]`);
      print(`    on ${s(c.bodyA)}: F = ${v3(c.forceA)} ${UNITS.force}, τ = ${v3(c.torqueA)} ${UNITS.torque}`);
      // a unit-quaternion row has one body
      if (c.bodyB) print(`    on ${s(c.bodyB)}: F = ${v3(c.forceB)} ${UNITS.force}, τ = ${v3(c.torqueB)} ${UNITS.torque}`);
    }
    print();
  }
  if (snap.redundant.length) {
    print(`Redundant rows (${snap.consistent ? 'consistent: λ exists, minimum-norm λ shown' : 'CONFLICTING: no exact λ, least-squares λ shown'}):`);
    for (const r of snap.redundant) print(`  ${s(r.constraint)}[${r.row}] = ${r.dependsOn.map((d) => `${formatNumber(d.coefficient)}·${s(d.constraint)}[${d.row}]`).join(' + ') || '0'}`);
    print();
  }
  printContacts(snap);
  const e = snap.energy;
  print(`Energy: kinetic ${formatQuantity(e.kinetic, UNITS.energy)}, potential ${formatQuantity(e.potential, UNITS.energy)}, total ${formatQuantity(e.total, UNITS.energy)}`);
  printDiagnostics(file, diags);
}
