// The history card: |C|, λ, κ, energy and drift over the run. Clicking a chart moves the timeline;
// moving the timeline only moves the charts' cursor (a full update follows new history, a new
// selection or a theme change).
import { HISTORY_CHARTS, HistoryChart, type HistoryContext } from '../charts';
import { h } from '../dom';
import { card, type CardContext } from './card';

export function createHistoryCard({ store, actions }: CardContext): HTMLElement {
  const grid = h('div', { class: 'cl-history-grid' });
  const empty = h('p', { class: 'cl-empty', text: 'No steps taken yet. Step or run the simulation to see the history.' });
  const charts = HISTORY_CHARTS.map((spec) => {
    const canvas = h('canvas', { role: 'img', 'aria-label': `${spec.title} over time` });
    const note = h('span', { class: 'cl-chart-note' });
    const figure = h('figure', { class: 'cl-history-item', 'data-chart': spec.id }, h('figcaption', {}, h('span', { text: spec.title }), note), h('div', { class: 'cl-chart cl-chart-history' }, canvas));
    grid.append(figure);
    return { chart: new HistoryChart(spec, canvas, (step) => actions.goToStep(step)), note, figure };
  });

  store.watch(
    (s) => [s.history, s.initial, s.palette, s.selected],
    (_, s) => {
      const m = s.model;
      const snap = s.snapshot;
      if (!m || !snap || !s.palette) return;
      empty.hidden = s.history.length !== 0;
      const ctx: HistoryContext = { history: s.history, snapshot: snap, initial: s.initial, palette: s.palette, selectedConstraint: s.selected, conditionWarning: m.conditionWarning };
      for (const c of charts) {
        c.note.textContent = c.chart.update(ctx, s.step) ?? '';
        // The most points a series of this chart draws (the decimation bounds it whatever the run's length).
        c.figure.dataset.points = String(c.chart.chart.data.datasets.reduce((m, d) => Math.max(m, d.data.length), 0));
      }
    },
  );
  store.watch(
    (s) => s.step,
    (step, s) => {
      if (!s.palette) return;
      for (const c of charts) c.chart.updateCursor(step, s.palette.focus);
    },
    { immediate: false },
  );
  return card('history', 'History', [h('span', { class: 'cl-hint', text: 'Click a chart to jump to a step' })], [empty, grid]);
}
