// The matrices card: one tab per matrix of the shown snapshot, the heatmap, its tools (log
// scale, zoom, fit) and copying as CSV / NumPy.
import { button, clear, h } from '../dom';
import { Heatmap } from '../heatmap/heatmap';
import type { MatrixSource } from '../matrix';
import { bodyColumn, bodyConstraintRows, heatmapSelection, ROW_MATRICES } from '../selectors';
import { card, type CardContext } from './card';
import { FULL_COPY_CELLS, matrixText, writeClipboard } from './copy';

export function createMatricesCard({ store, actions }: CardContext): HTMLElement {
  const tabs = h('div', { class: 'cl-tabs', role: 'tablist', 'aria-label': 'Matrix' });
  const heatmap = new Heatmap({
    onActivate: (row) => {
      const ci = heatmap.matrix?.rowConstraint?.[row] ?? -1;
      if (ci >= 0) actions.select(ci, true);
    },
  });
  const logBtn = button('log |x|', { title: 'Colour by log₁₀ of the magnitude (sign kept)', pressed: store.getState().logScale, cls: 'cl-toggle', onClick: () => actions.toggleLog() });
  const desc = h('p', { class: 'cl-desc' });
  const copyStatus = h('span', { class: 'cl-copy-status', role: 'status' });
  let statusTimer: ReturnType<typeof setTimeout> | undefined;
  const flash = (text: string): void => {
    copyStatus.textContent = text;
    copyStatus.classList.add('cl-visible');
    if (statusTimer) clearTimeout(statusTimer);
    statusTimer = setTimeout(() => copyStatus.classList.remove('cl-visible'), 2500);
  };
  const copy = async (kind: 'csv' | 'numpy'): Promise<void> => {
    const m = heatmap.matrix;
    if (!m) return;
    const full = m.rows * m.cols <= FULL_COPY_CELLS;
    const r = full ? { i0: 0, i1: m.rows, j0: 0, j1: m.cols } : heatmap.visibleRange();
    const ok = await writeClipboard(matrixText(m, r, kind));
    const what = `${r.i1 - r.i0}×${r.j1 - r.j0}${full ? '' : ' (visible part)'}`;
    flash(ok ? `Copied ${m.name} ${what} as ${kind === 'csv' ? 'CSV' : 'NumPy'}` : 'Copy failed: clipboard not available');
  };
  const tools = h(
    'div',
    { class: 'cl-toolbar', role: 'toolbar', 'aria-label': 'Heatmap tools' },
    logBtn,
    h('span', { class: 'cl-sep', 'aria-hidden': 'true' }),
    button('Zoom out', { icon: 'zoomOut', iconOnly: true, cls: 'cl-icon-btn', title: 'Zoom out (−)', onClick: () => heatmap.zoomBy(1 / 1.6) }),
    button('Zoom in', { icon: 'zoomIn', iconOnly: true, cls: 'cl-icon-btn', title: 'Zoom in (+, or mouse wheel)', onClick: () => heatmap.zoomBy(1.6) }),
    button('Fit', { icon: 'fit', iconOnly: true, cls: 'cl-icon-btn', title: 'Fit the whole matrix (0, or double-click)', onClick: () => heatmap.fit() }),
    h('span', { class: 'cl-sep', 'aria-hidden': 'true' }),
    button('CSV', { icon: 'copy', title: 'Copy as CSV (with labels)', onClick: () => void copy('csv') }),
    button('NumPy', { icon: 'copy', title: 'Copy as a NumPy array literal', onClick: () => void copy('numpy') }),
  );

  const cardEl = card('matrices', 'Matrices', [tabs, tools], [h('div', { class: 'cl-desc-row' }, desc, copyStatus), heatmap.el]);
  let tabButtons: HTMLButtonElement[] = [];
  const renderTabs = (list: readonly MatrixSource[], current: string): void => {
    clear(tabs);
    tabButtons = list.map((m) => {
      const b = h('button', { type: 'button', role: 'tab', class: 'cl-tab', id: `cl-tab-${m.id}`, 'aria-selected': String(m.id === current), tabindex: m.id === current ? 0 : -1, title: m.description }, h('span', { text: m.name }), h('span', { class: 'cl-tab-dim', text: `${m.rows}×${m.cols}` }));
      b.dataset.matrix = m.id;
      b.addEventListener('click', () => actions.showMatrix(m.id));
      b.addEventListener('keydown', (e) => {
        const i = tabButtons.indexOf(b);
        const n = tabButtons.length;
        const j = e.key === 'ArrowRight' ? (i + 1) % n : e.key === 'ArrowLeft' ? (i - 1 + n) % n : e.key === 'Home' ? 0 : e.key === 'End' ? n - 1 : -1;
        if (j < 0) return;
        e.preventDefault();
        tabButtons[j].focus();
        actions.showMatrix(tabButtons[j].dataset.matrix!);
      });
      tabs.append(b);
      return b;
    });
  };

  store.watch(
    (s) => s.palette,
    (p) => p && heatmap.setPalette(p),
  );
  store.watch(
    (s) => s.logScale,
    (on) => {
      logBtn.setAttribute('aria-pressed', String(on));
      heatmap.setLogScale(on);
    },
  );
  let shownList: readonly MatrixSource[] | undefined;
  store.watch(
    (s) => [s.matrices, s.matrix],
    (_, s) => {
      if (s.matrices !== shownList) {
        shownList = s.matrices;
        renderTabs(s.matrices, s.matrix);
      }
      const m = s.matrices.find((x) => x.id === s.matrix);
      if (!m) return;
      if (s.snapshot) cardEl.dataset.step = String(s.snapshot.step);
      for (const t of tabButtons) {
        const on = t.dataset.matrix === m.id;
        t.setAttribute('aria-selected', String(on));
        t.tabIndex = on ? 0 : -1;
      }
      heatmap.el.setAttribute('aria-labelledby', `cl-tab-${m.id}`);
      desc.textContent = m.description;
      heatmap.setMatrix(m);
    },
  );
  store.watch(
    (s) => [s.snapshot, s.selected, s.selectedBody, s.matrix, s.matrices],
    (_, s) => heatmap.setSelection(heatmapSelection(s)),
  );
  // A selected constraint scrolls into view in matrices whose rows are constraint rows; a selected
  // body's columns in J, its first constraint's rows in A and W, its block in M⁻¹.
  store.watch(
    (s) => s.selectSeq,
    (_, s) => {
      const c = s.snapshot?.constraints[s.selected];
      const m = heatmap.matrix;
      if (!m || !s.snapshot) return;
      if (c) {
        if (ROW_MATRICES.has(m.id)) heatmap.reveal(c.firstRow);
        return;
      }
      if (s.selectedBody === undefined) return;
      const col = bodyColumn(s.snapshot, s.selectedBody);
      const row = bodyConstraintRows(s.snapshot, s.selectedBody)[0]?.[0];
      if (m.id === 'J' && col >= 0) heatmap.reveal(row ?? 0, col);
      else if (ROW_MATRICES.has(m.id) && row !== undefined) heatmap.reveal(row);
      else if ((m.id === 'Minv' || m.id === 'bodyVectors') && col >= 0) heatmap.reveal(col);
    },
    { immediate: false },
  );

  return cardEl;
}
