// The spectrum card: κ(A), scaled κ, rank and tolerance, σ max/min, and the singular values of A.
import type { SpectrumChart } from '../charts';
import { clear, h } from '../dom';
import { DeferredPart } from '../load';
import { condBand, formatNumber as fmt, formatCond } from '../../src/shared';
import { caps, card, type CardContext } from './card';
import { shownCondition } from '../selectors';
import type { PanelState } from '../store';

export function createSpectrumCard({ store }: CardContext): HTMLElement {
  const canvas = h('canvas', { role: 'img', 'aria-label': 'Singular values of A (log scale)' });
  // chart.js comes with the deferred parts (load.ts): the chart is drawn once they are there
  const chart: DeferredPart<SpectrumChart> = new DeferredPart(
    (d) => new d.SpectrumChart(canvas),
    (c) => {
      const s = store.getState();
      if (s.snapshot?.singularValues?.length && s.palette) c.update(s.snapshot, s.palette);
    },
  );
  const summary = h('div', { class: 'cl-kv' });
  // The header's κ (one rule for every view: src/shared/stepKappa.ts), also when only the step or
  // the records moved; σ below are of the snapshot's state.
  const showCond = (s: PanelState): void => {
    const snap = s.snapshot;
    const item = summary.querySelector<HTMLElement>('.cl-spectrum-cond');
    const v = item?.querySelector<HTMLElement>('.cl-kv-v');
    if (!snap || !item || !v) return;
    const k = shownCondition(s) ?? { cond: snap.cond.A, estimated: snap.condEstimated };
    v.textContent = formatCond(k.cond, { estimated: k.estimated, rows: snap.rank.rows });
    item.className = `cl-kv-item cl-spectrum-cond cl-${condBand(k.cond, { warning: s.model?.conditionWarning, rows: snap.rank.rows })}`;
  };
  const empty = h('p', { class: 'cl-empty', hidden: true });
  const chartWrap = h('div', { class: 'cl-chart cl-chart-spectrum' }, canvas);

  store.watch(
    (s) => [s.snapshot, s.palette],
    (_, s) => {
      const snap = s.snapshot;
      if (!snap || !s.palette) return;
      clear(summary);
      const kv = (k: string, v: string, cls = ''): void => {
        summary.append(h('div', { class: `cl-kv-item ${cls}` }, h('span', { class: 'cl-kv-k', text: caps(k) }), h('span', { class: 'cl-kv-v', text: v })));
      };
      const sv = snap.singularValues;
      kv('κ(A)', '', 'cl-spectrum-cond');
      showCond(s);
      kv('κ scaled', formatCond(snap.cond.scaled, { estimated: snap.condEstimated, rows: snap.rank.rows }));
      kv('rank A', `${snap.rank.J} / ${snap.rank.rows}`, snap.rank.J < snap.rank.rows ? 'cl-warn' : '');
      kv('tolerance', fmt(snap.rankTolerance, 3));
      if (sv && sv.length) {
        kv('σ max', fmt(sv[0], 4));
        kv('σ min', fmt(sv[sv.length - 1], 4));
        chartWrap.hidden = false;
        empty.hidden = true;
        chart.request();
        chart.value?.update(snap, s.palette);
      } else {
        chartWrap.hidden = true;
        empty.hidden = false;
        empty.textContent = `Singular values were not computed for this step (${snap.rank.rows} rows${snap.condEstimated ? '; κ is an estimate' : ''}).`;
      }
    },
  );
  store.watch((s) => [s.step, s.history], (_, s) => showCond(s));
  return card('spectrum', 'Spectrum of A', [], [summary, chartWrap, empty]);
}
