// The PGS card (velocity formulation with contacts): projected Gauss–Seidel sweeps and residual of
// every step over the run, and the numbers of the shown step.
import { formatNumber as fmt } from '../../src/shared';
import type { StepChart } from '../contactCharts';
import { DeferredPart } from '../load';
import type { PanelState } from '../store';
import { extrasRecords } from '../history';
import { clear, h } from '../dom';
import { caps, card, type CardContext } from './card';

export function createPgsCard({ store, actions }: CardContext): HTMLElement {
  const summary = h('div', { class: 'cl-kv cl-pgs-kv' });
  const note = h('p', { class: 'cl-desc' });
  const canvas = h('canvas', { role: 'img', 'aria-label': 'PGS sweeps and residual per step over the run' });
  // chart.js comes with the deferred parts (load.ts): the chart is drawn once they are there
  const chart: DeferredPart<StepChart> = new DeferredPart(
    (d) => new d.StepChart(canvas, { y: { title: 'sweeps', log: false }, y1: { title: 'residual (m/s, log)', log: true } }, (step) => actions.goToStep(step)),
    () => draw(store.getState()),
  );
  const el = card('pgs', 'Projected Gauss–Seidel', [], [summary, note, h('div', { class: 'cl-chart cl-chart-pgs' }, canvas)]);
  el.hidden = true;

  const draw = (s: PanelState): void => {
    const m = s.model;
    const p = s.palette;
    const snap = s.snapshot;
    // the velocity formulation with contacts: records carry contact fields, PGS solves their steps
    const applies = !!snap && snap.formulation === 'velocity' && snap.contacts !== undefined;
    el.hidden = !applies;
    if (!applies || !m || !p) return;
    clear(summary);
    const kv = (k: string, v: string, cls = ''): void => {
      summary.append(h('div', { class: `cl-kv-item ${cls}` }, h('span', { class: 'cl-kv-k', text: caps(k) }), h('span', { class: 'cl-kv-v', text: v })));
    };
    const g = snap.pgs;
    kv('this step', g ? `${g.iterations} sweep${g.iterations === 1 ? '' : 's'}${g.acceleration === 'nncg' ? ' (NNCG)' : g.acceleration === 'nesterov' ? ' (momentum)' : ''}` : 'direct solve (no contacts)');
    kv('residual', g ? `${fmt(g.residual, 3)} m/s` : '–', g && !g.converged ? 'cl-warn' : '');
    let n = 0, sum = 0, most = 0, failed = 0;
    const run = extrasRecords(s.history);
    for (const r of run) {
      if (!r.pgs) continue;
      n++;
      sum += r.pgs.iterations;
      most = Math.max(most, r.pgs.iterations);
      if (!r.pgs.converged) failed++;
    }
    kv('steps by PGS', `${n} of ${s.history.length}`);
    kv('mean / max sweeps', n ? `${fmt(sum / n, 3)} / ${most}` : '–');
    kv('not converged', String(failed), failed ? 'cl-warn' : '');
    note.textContent = 'Sweeps until the residual (the natural-map residual of every row at its last visit) fell below solver.pgs.tolerance, or solver.pgs.iterations. NNCG: the sweeps of an island of contacts alone were accelerated by conjugate steps (solver.pgs.acceleration). Steps without contacts are solved directly and have no sweeps.';
    chart.request();
    chart.value?.update(
      run,
      [
        { label: 'sweeps', get: (r) => r.pgs?.iterations, color: p.series[0], axis: 'y' },
        { label: 'residual', get: (r) => r.pgs?.residual, color: p.series[3], axis: 'y1', dash: [4, 3] },
      ],
      s.step,
      p,
    );
  };
  store.watch((s) => [s.history, s.snapshot, s.palette], (_, s) => draw(s));
  store.watch(
    (s) => s.step,
    (step, s) => {
      if (s.palette && !el.hidden) chart.value?.cursor(step, s.palette.focus);
    },
    { immediate: false },
  );
  return el;
}
