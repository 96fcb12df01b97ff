// The history card: |C|, λ, κ, energy and drift over the run. Clicking a chart moves the timeline;
// moving the timeline only moves the charts' cursor (a full update follows new history, a new
// selection or a theme change). While a run streams in, the charts redraw at most every
// REDRAW_MS (the last state is always drawn): they are the panel's costliest part. Each chart's
// axis is automatic (log or symmetric log when its values span decades) or the user's choice; the
// divergence onset is marked on every chart, and "Zoom to onset" shows the steps around it.
import type { HistoryChart } from '../charts';
import type { HistoryContext } from '../historySpecs';
import { afterFirstPaint } from '../defer';
import { button, h } from '../dom';
import { onsetWindow, type AxisChoice } from '../chartScale';
import { divergenceOnset, forceNoiseFloor } from '../selectors';
import { onPageHide } from '../lifecycle';
import type { History } from '../history';
import { loadDeferred } from '../load';
import type { PanelState } from '../store';
import { card, type CardContext } from './card';

/** Least time between two redraws of the charts for new history (ms). */
const REDRAW_MS = 250;

export function createHistoryCard({ store, actions }: CardContext): HTMLElement {
  const grid = h('div', { class: 'cl-history-grid' });
  const empty = h('p', { class: 'cl-empty', text: 'No steps taken yet. Step or run the simulation to see the history.' });
  // The charts (chart.js, with the deferred parts: load.ts) are made after the first paint, when
  // the card is shown (see defer.ts); until then the grid stays empty and nothing else waits for them.
  let charts: { chart: HistoryChart; note: HTMLElement; readout: HTMLElement; figure: HTMLElement; axis: HTMLButtonElement }[] = [];
  /** The user's axis per chart (absent: automatic) and the zoom to the onset. */
  const axes: Record<string, AxisChoice> = {};
  let zoomed = false;
  const zoom = button('Zoom to onset', {
    cls: 'cl-history-zoom',
    title: 'Show the steps around the divergence onset (again: the whole run)',
    onClick: () => {
      zoomed = !zoomed;
      draw(store.getState());
    },
  });
  zoom.hidden = true;
  const el = card('history', 'History', [zoom, h('span', { class: 'cl-hint', text: 'Click a chart to jump to a step' })], [empty, grid]);
  const nextAxis: Record<AxisChoice, AxisChoice> = { auto: 'log', log: 'linear', linear: 'auto' };
  let made = false;
  const make = afterFirstPaint(el, () => {
    loadDeferred().then(
      (d) => {
        made = true;
        charts = d.HISTORY_CHARTS.map((spec) => {
          const canvas = h('canvas', { role: 'img', 'aria-label': `${spec.title} over time` });
          const note = h('span', { class: 'cl-chart-note' });
          const readout = h('span', { class: 'cl-chart-readout', 'aria-live': 'off' });
          const axis = button('axis', {
            cls: 'cl-axis-toggle',
            title: 'y axis: automatic (log when the values span decades), log, linear; click to change',
            onClick: () => {
              axes[spec.id] = nextAxis[axes[spec.id] ?? 'auto'];
              draw(store.getState());
            },
          });
          const figure = h('figure', { class: 'cl-history-item', 'data-chart': spec.id }, h('figcaption', {}, h('span', { text: spec.title }), readout, note, axis), h('div', { class: 'cl-chart cl-chart-history' }, canvas));
          grid.append(figure);
          return { chart: new d.HistoryChart(spec, canvas, (step) => actions.goToStep(step)), note, readout, figure, axis };
        });
        draw(store.getState());
        onPageHide(() => {
          if (timer !== undefined) clearTimeout(timer);
          for (const c of charts.splice(0)) c.chart.destroy();
        });
      },
      () => undefined, // reported by loadDeferred
    );
  });

  let lastDraw = Number.NEGATIVE_INFINITY;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let drawn: History | undefined;
  const draw = (s: PanelState): void => {
    lastDraw = performance.now();
    drawn = s.history;
    const m = s.model;
    const snap = s.snapshot;
    if (!m || !snap || !s.palette) return;
    empty.hidden = s.history.length !== 0;
    const cols = m.historyColumns;
    // a MuJoCo run's columns are its elements: the selected constraint is found among them by name
    const selected = cols ? cols.constraints.indexOf(snap.constraints[s.selected]?.name ?? '\u0000') : s.selected;
    const onset = divergenceOnset(s);
    zoom.hidden = onset === undefined;
    zoom.setAttribute('aria-pressed', String(zoomed && onset !== undefined));
    zoom.querySelector('.cl-btn-label')!.textContent = zoomed && onset !== undefined ? 'Whole run' : `Zoom to onset (${onset ?? ''})`;
    const range = zoomed && onset !== undefined ? onsetWindow(onset, s.history.length) : undefined;
    const ctx: HistoryContext = { history: s.history, snapshot: snap, initial: s.initial, palette: s.palette, selectedConstraint: selected, conditionWarning: m.conditionWarning, onset, range, noise: forceNoiseFloor(s), axes, ...(cols ? { columns: cols } : {}) };
    for (const c of charts) {
      c.note.textContent = c.chart.update(ctx, s.step) ?? '';
      c.readout.textContent = c.chart.readoutAt(s.step) ?? '';
      const choice = axes[c.chart.spec.id];
      c.axis.querySelector('.cl-btn-label')!.textContent = `${c.chart.mode}${choice && choice !== 'auto' ? '' : ' (auto)'}`;
      c.figure.dataset.axis = c.chart.mode;
      // The most points a series of this chart draws (the decimation bounds it whatever the run's length).
      c.figure.dataset.points = String(c.chart.chart.data.datasets.reduce((n, d) => Math.max(n, d.data.length), 0));
    }
  };
  store.watch(
    (s) => [s.history, s.initial, s.palette, s.selected, s.model],
    (_, s) => {
      if (!made) {
        empty.hidden = s.history.length !== 0;
        if (s.model) make();
        return;
      }
      if (timer !== undefined) return; // a redraw is due: it reads the state then
      // Only new records of the same run wait; a new selection, theme or run is drawn at once.
      const onlyNewRecords = drawn !== undefined && s.history !== drawn && s.history.buf === drawn.buf;
      const wait = onlyNewRecords ? lastDraw + REDRAW_MS - performance.now() : 0;
      if (wait <= 0) {
        draw(s);
        return;
      }
      timer = setTimeout(() => {
        timer = undefined;
        draw(store.getState());
      }, wait);
    },
  );
  store.watch(
    (s) => s.step,
    (step, s) => {
      if (!s.palette) return;
      for (const c of charts) {
        c.chart.updateCursor(step, s.palette.focus);
        c.readout.textContent = c.chart.readoutAt(step) ?? '';
      }
    },
    { immediate: false },
  );
  return el;
}
