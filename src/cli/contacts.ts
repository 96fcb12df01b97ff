// Contacts, Newton and PGS in the CLI: the JSON fields (`contacts`, `newton`, `pgs`, exactly the
// fields docs/cli.md lists) and short text summaries for `inspect` and `simulate`.
import type { ContactReport, JointRowReport, NewtonStepReport, PgsStepReport, StepRecord, SystemSnapshot } from '../engine';
import { formatNumber, formatVec, safeText } from '../shared';
import { print } from './io';

/** A contact as `inspect --json` and `simulate --json` write it. */
const contactJson = (c: ContactReport) => ({
  bodyA: c.bodyA,
  bodyB: c.bodyB,
  shapeA: c.shapeA,
  shapeB: c.shapeB,
  point: c.point,
  normal: c.normal,
  gap: c.gap,
  normalForce: c.normalForce,
  frictionForce: c.frictionForce,
  state: c.state,
});
export const newtonJson = (n: NewtonStepReport) => ({ iterations: n.iterations, converged: n.converged, residuals: n.residuals, blocks: n.blocks });
export const pgsJson = (p: PgsStepReport) => ({ iterations: p.iterations, residual: p.residual });
/** A joint-limit or friction-loss row (a joint's or a tendon's: `tendon` names it) as `inspect --json` and `simulate --json` write it. */
export const jointRowJson = (r: JointRowReport) => ({
  name: r.name,
  kind: r.kind,
  ...(r.tendon && { tendon: r.constraint }),
  ...(r.side && { side: r.side, gap: r.gap }),
  q: r.q,
  bound: r.bound,
  force: r.force,
  velocity: r.velocity,
  state: r.state,
});

/** The contact fields of a step record or snapshot for JSON: present only where the step has them. */
export function contactFieldsJson(x: Pick<StepRecord, 'contacts' | 'newton' | 'pgs' | 'jointRows' | 'asleep'>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (x.asleep !== undefined) out.asleep = x.asleep;
  if (x.jointRows) out.jointRows = x.jointRows.map(jointRowJson);
  if (x.contacts) out.contacts = x.contacts.map(contactJson);
  if (x.newton) out.newton = newtonJson(x.newton);
  if (x.pgs) out.pgs = pgsJson(x.pgs);
  return out;
}

/** At most this many contacts are listed in text. */
const LISTED = 12;

/** `inspect` in text: the contacts of step 0 and the solver's convergence. */
export function printContacts(snap: SystemSnapshot): void {
  const list = snap.contacts;
  if (!list) return;
  const n = snap.contactCount ?? list.length;
  print(`Contacts: ${n}${n ? `; complementarity ${formatNumber(snap.complementarity ?? 0)}, largest penetration ${formatNumber(snap.maxPenetration ?? 0)} m` : ''}`);
  for (const c of list.slice(0, LISTED)) {
    const ft = Math.hypot(c.frictionForce[0], c.frictionForce[1]);
    print(
      `  ${safeText(`${c.bodyA}/${c.shapeA}`)} – ${safeText(`${c.bodyB}/${c.shapeB}`)} [${c.state}] at ${formatVec(c.point)}, n ${formatVec(c.normal)}, gap ${formatNumber(c.gap)} m, f_n ${formatNumber(c.normalForce)} N, |f_t| ${formatNumber(ft)} N, cone ${formatNumber(c.coneRatio, 3)}`,
    );
  }
  if (list.length > LISTED) print(`  … and ${list.length - LISTED} more`);
  printJointRows(snap.jointRows);
  if (snap.pgs) print(`PGS${snap.pgs.acceleration === 'nncg' ? ' (NNCG)' : snap.pgs.acceleration === 'nesterov' ? ' (momentum)' : ''}: ${snap.pgs.iterations} sweeps, residual ${formatNumber(snap.pgs.residual)} m/s${snap.pgs.converged ? '' : ' (not converged)'}`);
  if (snap.newton) printNewton(snap.newton);
  print();
}

/** The joint limits and friction loss of a step, one line each. */
function printJointRows(rows: readonly JointRowReport[] | undefined): void {
  for (const r of rows ?? []) {
    const where = r.side ? ` (${r.side} bound ${formatNumber(r.bound)}, gap ${formatNumber(r.gap ?? 0)})` : ` (budget ${formatNumber(r.bound)})`;
    print(`  ${safeText(r.name)}${where} [${r.state}]: q ${formatNumber(r.q)}, force ${formatNumber(r.force)}`);
  }
}

function printNewton(n: NewtonStepReport): void {
  const b = n.blocks;
  print(`Newton: ${n.converged ? 'converged' : 'NOT converged'} in ${n.iterations} iterations (${n.method}), ‖h‖: ${n.residuals.map((r) => formatNumber(r, 2)).join(' → ')}`);
  print(`  final blocks: dyn ${formatNumber(b.dyn, 2)}, kin ${formatNumber(b.kin, 2)}, b ${formatNumber(b.b, 2)}, n ${formatNumber(b.n, 2)}, f ${formatNumber(b.f, 2)}; step lengths ${n.stepLengths.map((a) => formatNumber(a, 3)).join(', ') || '–'}`);
}

/** `simulate` in text: contacts, penetration and the contact solver over the run (no spread over the steps). */
export function printContactRun(steps: readonly StepRecord[]): void {
  let most = 0, pen = 0, compl = 0, withContacts = 0;
  let nSteps = 0, nIt = 0, nMax = 0, nFail = 0;
  let pSteps = 0, pIt = 0, pMax = 0, pRes = 0, pFail = 0;
  let any = false;
  for (const s of steps) {
    if (s.contactCount === undefined) continue;
    any = true;
    if (s.contactCount > most) most = s.contactCount;
    if (s.contactCount > 0) withContacts++;
    if (!((s.maxPenetration ?? 0) <= pen)) pen = s.maxPenetration ?? 0;
    if (!((s.complementarity ?? 0) <= compl)) compl = s.complementarity ?? 0;
    if (s.newton) {
      nSteps++;
      nIt += s.newton.iterations;
      if (s.newton.iterations > nMax) nMax = s.newton.iterations;
      if (!s.newton.converged) nFail++;
    }
    if (s.pgs) {
      pSteps++;
      pIt += s.pgs.iterations;
      if (s.pgs.iterations > pMax) pMax = s.pgs.iterations;
      if (!(s.pgs.residual <= pRes)) pRes = s.pgs.residual;
      if (!s.pgs.converged) pFail++;
    }
  }
  if (!any) return;
  printJointRun(steps);
  print(`Contacts: ${withContacts} of ${steps.length} steps with contacts, at most ${most}; largest penetration ${formatNumber(pen)} m, largest complementarity residual ${formatNumber(compl)}`);
  if (nSteps) print(`Newton: ${formatNumber(nIt / nSteps, 3)} iterations per step on average, at most ${nMax}; ${nFail ? `${nFail} steps NOT converged` : 'every step converged'}`);
  if (pSteps) print(`PGS: ${pSteps} steps, ${formatNumber(pIt / pSteps, 3)} sweeps on average, at most ${pMax}; largest residual ${formatNumber(pRes)} m/s${pFail ? `; ${pFail} steps not converged` : ''}`);
  // sleeping islands (solver.contacts.sleep): how many sleep at the end, and since when any did
  const last = steps[steps.length - 1];
  if (last?.asleep !== undefined) {
    const first = steps.find((s) => (s.asleep ?? 0) > 0);
    const napping = steps.reduce((n, s) => n + ((s.asleep ?? 0) > 0 ? 1 : 0), 0);
    print(`Sleeping islands: ${last.asleep} ${last.asleep === 1 ? 'body' : 'bodies'} asleep after the last step; bodies asleep in ${napping} of ${steps.length} steps${first ? `, from step ${first.step}` : ''}`);
  }
}

/** `simulate` in text: per joint row, the steps where it acted and its largest force. */
function printJointRun(steps: readonly StepRecord[]): void {
  const acted = new Map<string, { steps: number; most: number }>();
  for (const s of steps) {
    for (const r of s.jointRows ?? []) {
      if (r.state === 'open') continue;
      const e = acted.get(r.name) ?? { steps: 0, most: 0 };
      e.steps++;
      if (!(Math.abs(r.force) <= e.most)) e.most = Math.abs(r.force);
      acted.set(r.name, e);
    }
  }
  for (const [name, e] of acted) print(`Joint row ${safeText(name)}: acted in ${e.steps} of ${steps.length} steps, largest |force| ${formatNumber(e.most)}`);
}
