// The constraint forces card: λ per row (bar chart) and a table of the constraints with λ, the
// force and torque on body B, the violation and the status. Rows select their constraint.
import type { LambdaChart } from '../charts';
import { clear, h } from '../dom';
import { DeferredPart } from '../load';
import { formatNumber as fmt, exactNumber as fmtExact, formatVec as fmtVec, norm3 } from '../../src/shared';
import { redundantRows } from '../selectors';
import type { PanelState } from '../store';
import { caps, card, type CardContext } from './card';

/** Longest table drawn (the λ chart and the vectors view show everything). */
const MAX_ROWS = 300;
const COLUMNS = ['Constraint', 'Type', 'Bodies', 'λ', 'Force on B', 'Torque on B', '‖C‖', 'Status'];

export function createForcesCard({ store, actions }: CardContext): HTMLElement {
  const canvas = h('canvas', { 'aria-label': 'λ per constraint row (bar chart)', role: 'img' });
  // chart.js comes with the deferred parts (load.ts): the bars are drawn once they are there
  const chart: DeferredPart<LambdaChart> = new DeferredPart(
    (d) => new d.LambdaChart(canvas, (ci) => actions.select(ci, true)),
    () => drawChart(store.getState()),
  );
  const drawChart = (s: PanelState): void => {
    if (s.snapshot && s.palette) chart.value?.update(s.snapshot, s.palette, s.selected, redundantRows(s));
  };
  const note = h('p', { class: 'cl-desc' });
  const wrap = h('div', { class: 'cl-table-wrap' });
  const cardEl = card('forces', 'Constraint forces', [], [note, h('div', { class: 'cl-chart cl-chart-lambda' }, canvas), wrap]);

  store.watch(
    (s) => [s.snapshot, s.matrices, s.selected, s.palette],
    (_, s) => {
      const snap = s.snapshot;
      if (!snap || !s.palette) return;
      cardEl.dataset.step = String(snap.step);
      chart.request();
      drawChart(s);
      note.textContent =
        snap.lambda.length > 600
          ? `λ per row (first 600 of ${snap.lambda.length}); the λ column of the vectors view shows all.`
          : `λ per constraint row at step ${snap.step}. Click a bar or a row to select the constraint and reveal it in the scene file.`;
      clear(wrap);
      const table = h('table', { class: 'cl-table' });
      table.append(h('thead', {}, h('tr', {}, ...COLUMNS.map((t, k) => h('th', { scope: 'col', class: k >= 3 && k <= 6 ? 'cl-num' : '', text: caps(t) })))));
      const tb = h('tbody');
      const limit = Math.min(snap.constraints.length, MAX_ROWS);
      for (let ci = 0; ci < limit; ci++) {
        const c = snap.constraints[ci];
        const nameBtn = h('button', { type: 'button', class: 'cl-link', title: `Select ${c.name} and reveal it in the scene file`, text: c.name });
        nameBtn.addEventListener('click', () => actions.select(ci, true));
        const tr = h(
          'tr',
          { class: ci === s.selected ? 'cl-selected' : '', 'data-constraint': ci },
          h('th', { scope: 'row' }, nameBtn),
          h('td', { text: c.type }),
          h('td', { class: 'cl-bodies', text: `${c.bodyA} → ${c.bodyB}` }),
          h('td', { class: 'cl-num cl-mono', title: c.lambda.map((x) => fmtExact(x)).join(', '), text: c.lambda.length === 1 ? fmt(c.lambda[0]) : `‖${fmt(Math.hypot(...c.lambda))}‖` }),
          h('td', { class: 'cl-num cl-mono', title: `on A: ${fmtVec(c.forceA)} (|F| = ${fmt(norm3(c.forceA))})`, text: fmtVec(c.forceB) }),
          h('td', { class: 'cl-num cl-mono', title: `on A: ${fmtVec(c.torqueA)}`, text: fmtVec(c.torqueB) }),
          h('td', { class: 'cl-num cl-mono', text: fmt(c.violation, 3) }),
          h('td', {}, h('span', { class: `cl-status cl-status-${c.status}`, text: c.status })),
        );
        tr.addEventListener('click', (e) => {
          if ((e.target as HTMLElement).closest('button')) return;
          actions.select(ci, true);
        });
        tb.append(tr);
      }
      table.append(tb);
      wrap.append(table);
      if (snap.constraints.length > limit) wrap.append(h('p', { class: 'cl-desc', text: `Showing ${limit} of ${snap.constraints.length} constraints.` }));
    },
  );
  return cardEl;
}
