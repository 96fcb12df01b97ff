// `constraint-lens simulate` in text: a summary of the run (no spread or recursion over the
// run's length: a run may have hundreds of thousands of steps).
import type { SimulateOutput } from '../engine';
import { formatCond, formatNumber, formatTime, safeText, UNITS, WORDS } from '../shared';
import { print } from './io';
import { printContactRun } from './contacts';
import { integratorLine } from './inspect';

export function printSimulate(file: string, sim: SimulateOutput, csvPath: string | undefined): void {
  const { inspect, result: res } = sim;
  print(`Scene: ${safeText(inspect.parse.scene?.name ?? file)} (${safeText(file)})`);
  if (!res || !sim.simulation) return;
  const steps = res.steps;
  const last = steps[steps.length - 1];
  const names = (inspect.snapshot?.constraints ?? []).map((c) => safeText(c.name));
  const rows = inspect.snapshot?.rank.rows ?? names.length;
  print(`Ran ${steps.length} steps of ${formatTime(inspect.parse.scene!.solver.dt)} (t = ${formatTime(last?.t ?? 0)})${res.stoppedAt ? `, stopped at step ${res.stoppedAt}` : ''}${res.historyFullAt !== undefined ? ', stopped there: the history is full (CL405)' : ''}.`);
  if (inspect.snapshot?.integrator) print(integratorLine(inspect.snapshot.integrator));
  if (last) {
    const maxC = new Float64Array(names.length);
    let kMin = Infinity;
    let kMax = -Infinity;
    let estimated = false;
    let drift = 0;
    const methods = new Set<string>();
    for (const s of steps) {
      for (let c = 0; c < names.length; c++) if (!(s.C[c] <= maxC[c])) maxC[c] = s.C[c];
      const k = s.cond.A ?? Infinity;
      if (k < kMin) kMin = k;
      if (k > kMax) kMax = k;
      estimated ||= s.condEstimated;
      if (!(s.quatDrift <= drift)) drift = s.quatDrift;
      methods.add(s.method);
    }
    print(`Constraint violation |C|: ${names.map((n, c) => `${n} final ${formatNumber(last.C[c])}, max ${formatNumber(maxC[c])}`).join('; ') || WORDS.noConstraints}`);
    const kappa = rows === 0 ? formatCond(null, { rows }) : `min ${formatCond(kMin)}, max ${formatCond(kMax)}${estimated ? ' (estimated)' : ''}`;
    print(`κ(A): ${kappa}; methods: ${[...methods].join(', ')}`);
    printContactRun(steps);
    print(`Energy: first step ${formatNumber(steps[0].energy.total)} ${UNITS.energy}, last ${formatNumber(last.energy.total)} ${UNITS.energy}; max ||q|−1| ${formatNumber(drift)}`);
  }
  print('Final state:');
  for (const b of res.final.bodies)
    print(`  ${safeText(b.name)}: p = (${b.position.map((x) => formatNumber(x, 9)).join(', ')}) ${UNITS.length}, v = (${b.velocity.map((x) => formatNumber(x, 6)).join(', ')}) ${UNITS.velocity}`);
  if (csvPath) print(`CSV written to ${csvPath}`);
}
