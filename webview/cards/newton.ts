// The Newton card (nonlinear formulation, Axion): at the shown step, the residual of each block
// (dyn, kin, b, n, f) and ‖h‖ at every Newton iteration on a log scale with the line-search step
// lengths; the iteration count of every step over the run; and the Newton matrix ∂h/∂x as a heatmap
// with its block labels and its condition number.
import type { NewtonSnapshot, SystemSnapshot } from '../../src/protocol';
import { condBand, formatCond, formatNumber as fmt } from '../../src/shared';
import type { ConvergenceChart, StepChart } from '../contactCharts';
import { DeferredPart } from '../load';
import type { PanelState } from '../store';
import { extrasRecords } from '../history';
import { button, clear, h } from '../dom';
import { Heatmap } from '../heatmap/heatmap';
import { fromCsr, toF64, toI32, type MatrixSource } from '../matrix';
import { caps, card, type CardContext } from './card';

/** Group label of a block in the heatmap's first tier: `dyn.box:vx` → group `dyn`, component `box:vx`. */
const tiered = (block: string, label: string): string => `${block}.${label.replace(/\./g, ':')}`;

/** The Newton matrix of a snapshot as a heatmap source, with its blocks as label groups. */
function newtonMatrixSource(n: NewtonSnapshot): MatrixSource {
  const m = n.matrix;
  const csr = { rows: m.rows, cols: m.cols, rowPtr: toI32(m.rowPtr), colIdx: toI32(m.colIdx), values: toF64(m.values) };
  const labels = (blocks: NewtonSnapshot['rowBlocks'], names: string[], count: number): string[] => {
    const out: string[] = [];
    for (const b of blocks) for (let i = b.start; i < b.start + b.size; i++) out.push(tiered(b.name, names[i] ?? String(i)));
    while (out.length < count) out.push(String(out.length));
    return out;
  };
  const starts = (blocks: NewtonSnapshot['rowBlocks']): number[] => [...new Set(blocks.filter((b) => b.size > 0).map((b) => b.start))];
  const rowBlocks = starts(n.rowBlocks);
  const colBlocks = starts(n.colBlocks);
  return fromCsr('newton', '∂h/∂x', `The Newton matrix ∂h/∂x (+ regularisation on the λ diagonal) of the last iteration: ${m.rows} × ${m.cols}; rows dyn, kin, b, n, f; columns q, u, λb, λn, λf`, csr, {
    rowLabels: labels(n.rowBlocks, n.rowLabels, m.rows),
    colLabels: labels(n.colBlocks, n.colLabels, m.cols),
    rowBlocks: rowBlocks.length ? rowBlocks : [0],
    colBlocks: colBlocks.length ? colBlocks : [0],
  });
}

export function createNewtonCard({ store, actions }: CardContext): HTMLElement {
  const summary = h('div', { class: 'cl-kv cl-newton-kv' });
  const worst = h('p', { class: 'cl-desc' });
  const convCanvas = h('canvas', { role: 'img', 'aria-label': 'Residual per block at each Newton iteration (log scale) and line-search step lengths' });
  // chart.js comes with the deferred parts (load.ts): the charts are drawn once they are there
  const conv: DeferredPart<ConvergenceChart> = new DeferredPart(
    (d) => new d.ConvergenceChart(convCanvas),
    (c) => {
      const s = store.getState();
      if (s.snapshot?.newton && s.palette) c.update(s.snapshot.newton, undefined, s.palette);
    },
  );
  const itCanvas = h('canvas', { role: 'img', 'aria-label': 'Newton iterations per step over the run' });
  const iters: DeferredPart<StepChart> = new DeferredPart(
    (d) => new d.StepChart(itCanvas, { y: { title: 'iterations', log: false }, y1: { title: 'final ‖h‖ (log)', log: true } }, (step) => actions.goToStep(step)),
    () => drawIters(store.getState()),
  );
  const heatmap = new Heatmap();
  const heatDesc = h('p', { class: 'cl-desc' });
  const logBtn = button('log |x|', { title: 'Colour the Newton matrix by log₁₀ of the magnitude', pressed: true, cls: 'cl-toggle' });
  let log = true;
  logBtn.addEventListener('click', () => {
    log = !log;
    logBtn.setAttribute('aria-pressed', String(log));
    heatmap.setLogScale(log);
  });
  heatmap.setLogScale(true);
  const tools = [logBtn, button('Fit', { icon: 'fit', iconOnly: true, cls: 'cl-icon-btn', title: 'Fit the whole matrix (0, or double-click)', onClick: () => heatmap.fit() })];
  const el = card('newton', 'Newton (nonlinear system)', tools, [
    summary,
    worst,
    h('h3', { class: 'cl-subtitle', text: caps('convergence at this step') }),
    h('div', { class: 'cl-chart cl-chart-newton' }, convCanvas),
    h('h3', { class: 'cl-subtitle', text: caps('iterations per step') }),
    h('div', { class: 'cl-chart cl-chart-newton-steps' }, itCanvas),
    h('h3', { class: 'cl-subtitle', text: `${caps('Newton matrix')} ∂h/∂x` }),
    heatDesc,
    heatmap.el,
  ]);
  el.hidden = true;

  store.watch(
    (s) => s.palette,
    (p) => p && heatmap.setPalette(p),
  );
  let shown: SystemSnapshot | undefined;
  store.watch(
    (s) => [s.snapshot, s.palette],
    (_, s) => {
      const snap = s.snapshot;
      const n = snap?.newton;
      el.hidden = !n;
      if (!snap || !n || !s.palette) return;
      clear(summary);
      // labels: words in small caps, the mathematics (h, ∂h/∂x) as written
      const kv = (k: string, v: string, cls = '', math = ''): void => {
        summary.append(h('div', { class: `cl-kv-item ${cls}` }, h('span', { class: 'cl-kv-k', text: caps(k) + math }), h('span', { class: 'cl-kv-v', text: v })));
      };
      const final = n.residuals[n.residuals.length - 1] ?? 0;
      kv('status', n.converged ? 'converged' : 'not converged', n.converged ? 'cl-good' : 'cl-bad');
      kv('iterations', String(n.iterations));
      kv('final ', fmt(final, 3), '', '‖h‖');
      kv('linear solver', n.method);
      kv('', formatCond(n.cond, { estimated: true }), `cl-${condBand(n.cond, { warning: s.model?.conditionWarning, rows: n.matrix.rows })}`, 'κ₁(∂h/∂x)');
      kv('size', `${n.matrix.rows} × ${n.matrix.cols}`);
      worst.textContent = `Largest residual: block ${n.worst.block}, row ${n.worst.label.replace(/\./g, ':') || '–'} (${n.worst.owner}), |h| = ${fmt(n.worst.value, 3)}.`;
      conv.request();
      conv.value?.update(n, undefined, s.palette);
      if (snap !== shown) {
        shown = snap;
        const src = newtonMatrixSource(n);
        heatDesc.textContent = `${src.description}. κ₁ ≈ ${formatCond(n.cond)} (Hager–Higham estimate).`;
        heatmap.setMatrix(src);
      }
    },
  );
  const drawIters = (s: PanelState): void => {
    const m = s.model;
    const p = s.palette;
    if (!m || !p || !s.snapshot?.newton) return;
    iters.request();
    iters.value?.update(
      extrasRecords(s.history),
      [
        { label: 'iterations', get: (r) => r.newton?.iterations, color: p.series[0], axis: 'y' },
        { label: 'not converged', get: (r) => (r.newton && !r.newton.converged ? r.newton.iterations : NaN), color: p.error, axis: 'y', marks: true },
        { label: 'final ‖h‖', get: (r) => r.newton?.residuals[r.newton.residuals.length - 1], color: p.series[3], axis: 'y1', dash: [4, 3] },
      ],
      s.step,
      p,
    );
  };
  store.watch((s) => [s.history, s.palette, s.snapshot?.newton !== undefined], (_, s) => drawIters(s));
  store.watch(
    (s) => s.step,
    (step, s) => {
      if (s.palette && !el.hidden) iters.value?.cursor(step, s.palette.focus);
    },
    { immediate: false },
  );
  return el;
}
