// The trace card: a trace file of someone's own solver (PanelModel.trace) step by step — κ of what
// the producer solves, rank, ‖λ‖, ‖C‖ and the residual of its own λ, for the steps around the one
// shown (clicking a row goes there), and for Axion the κ of every Newton iteration of the shown step
// beside the κ Axion stored. It also marks the page as a trace's (body.cl-trace): what only a
// simulation has (the scene, energy and drift charts) is hidden by trace.css.
import { clear, h } from '../dom';
import { condBand, formatCond, formatNumber as fmt, formatTime as fmtTime } from '../../src/shared';
import type { TraceStepInfo } from '../../src/protocol';
import { caps, card, type CardContext } from './card';

/** Steps listed on each side of the shown one (a long trace's table stays short). */
const AROUND = 6;

const FORMAT: Record<string, string> = { npz: 'NumPy .npz', axion: 'Axion HDF5 log', 'fclib-global': 'FCLib global problem', 'fclib-local': 'FCLib local problem' };

const num = (x: number | null, digits = 4): string => (x === null ? '—' : fmt(x, digits));

export function createTraceCard({ store, actions }: CardContext): HTMLElement {
  const summary = h('p', { class: 'cl-trace-summary' });
  const wrap = h('div', { class: 'cl-table-wrap' });
  const newton = h('div', { class: 'cl-trace-newton' });
  const el = card('trace', 'Trace', [h('span', { class: 'cl-hint', text: 'Click a step to show it' })], [summary, wrap, newton]);
  el.hidden = true;

  store.watch(
    (s) => [s.model?.trace, s.step, s.model?.conditionWarning],
    (_, s) => {
      const tr = s.model?.trace;
      document.body.classList.toggle('cl-trace', tr !== undefined);
      el.hidden = tr === undefined;
      if (!tr) return;
      const warning = s.model?.conditionWarning;
      const steps = tr.steps;
      const bad = tr.firstNonFinite;
      summary.textContent = `${FORMAT[tr.format] ?? tr.format} · ${steps.length} step${steps.length === 1 ? '' : 's'}${bad !== undefined ? ` · first non-finite value at step ${bad}` : ''}`;
      const regularised = tr.format === 'axion';
      const from = Math.max(0, Math.min(s.step - AROUND, steps.length - 2 * AROUND - 1));
      const shown = steps.slice(from, from + 2 * AROUND + 1);
      const table = h('table', { class: 'cl-table cl-trace-table' });
      const cols = ['step', 't', 'rows', regularised ? 'κ(A + R)' : 'κ(A)', 'rank', '‖λ‖', '‖C‖', 'residual'];
      table.append(h('thead', {}, h('tr', {}, ...cols.map((c, k) => h('th', { scope: 'col', class: k >= 1 ? 'cl-num' : '', text: caps(c) })))));
      const body = h('tbody');
      for (const st of shown) body.append(row(st, st.step === s.step, st.step === bad, warning, () => actions.goToStep(st.step)));
      table.append(body);
      clear(wrap);
      wrap.append(table);
      clear(newton);
      const cur = steps[s.step];
      if (cur?.iterations?.length) newton.append(iterationsTable(cur, warning));
    },
  );
  return el;
}

function row(st: TraceStepInfo, current: boolean, bad: boolean, warning: number | undefined, go: () => void): HTMLElement {
  const singular = st.cond === null && st.rank !== null && st.rank < st.rows;
  const cond = st.cond !== null ? formatCond(st.cond, { rows: st.rows }) : singular ? formatCond(Infinity, { rows: st.rows }) : '—';
  const band = st.cond !== null ? condBand(st.cond, { warning, rows: st.rows }) : singular ? condBand(Infinity, { warning, rows: st.rows }) : undefined;
  const tr = h(
    'tr',
    { class: `cl-trace-row${current ? ' cl-selected' : ''}${bad ? ' cl-trace-bad' : ''}`, 'data-step': String(st.step), tabindex: 0, 'aria-current': current ? 'step' : undefined },
    h('td', { text: String(st.step) }),
    h('td', { class: 'cl-num', text: fmtTime(st.t) }),
    h('td', { class: 'cl-num', text: String(st.rows) }),
    h('td', { class: `cl-num cl-trace-cond${band ? ` cl-${band}` : ''}`, 'data-cond': st.cond === null ? '' : String(st.cond), text: cond }),
    h('td', { class: `cl-num${st.rank !== null && st.rank < st.rows ? ' cl-warn' : ''}`, text: st.rank === null ? '—' : `${st.rank}/${st.rows}` }),
    h('td', { class: 'cl-num', text: num(st.normLambda) }),
    h('td', { class: 'cl-num', text: num(st.normC) }),
    h('td', { class: 'cl-num', text: num(st.residual, 3) }),
  );
  tr.addEventListener('click', go);
  tr.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      go();
    }
  });
  return tr;
}

/** Axion: κ(A + R) of each Newton iteration of the step as analysed here, and the κ Axion stored. */
function iterationsTable(st: TraceStepInfo, warning: number | undefined): HTMLElement {
  const its = st.iterations ?? [];
  const table = h('table', { class: 'cl-table cl-trace-iterations' });
  table.append(h('caption', { text: `Step ${st.step}: κ per Newton iteration` }));
  table.append(h('thead', {}, h('tr', {}, ...['iteration', 'κ analysed', 'κ stored', 'relative difference'].map((c, k) => h('th', { scope: 'col', class: k ? 'cl-num' : '', text: caps(c) })))));
  const body = h('tbody');
  its.forEach((it, i) => {
    const diff = it.cond !== null && it.storedCond !== null ? Math.abs(it.cond - it.storedCond) / Math.max(Math.abs(it.storedCond), Number.MIN_VALUE) : null;
    const band = it.cond !== null ? condBand(it.cond, { warning, rows: st.rows }) : undefined;
    body.append(
      h(
        'tr',
        { 'data-iteration': String(i) },
        h('td', { text: String(i) }),
        h('td', { class: `cl-num${band ? ` cl-${band}` : ''}`, text: it.cond === null ? '—' : formatCond(it.cond, { rows: st.rows }) }),
        h('td', { class: 'cl-num', text: num(it.storedCond, 6) }),
        h('td', { class: 'cl-num', text: diff === null ? '—' : fmt(diff, 2) }),
      ),
    );
  });
  table.append(body);
  return table;
}
