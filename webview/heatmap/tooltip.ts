// The heatmap's tooltip: a cell's row, column and exact value (or a gutter label), placed beside
// the pointer and kept inside the canvas.
import { h } from '../dom';
import { exactNumber as fmtExact } from '../../src/shared';
import { csrEntry as entry } from '../../src/shared';
import { type MatrixSource } from '../matrix';

interface TipContent {
  title: string;
  lines: [string, string][];
}

export function describeCell(m: MatrixSource, i: number, j: number): TipContent {
  const { value, stored } = entry(m, i, j);
  const redundant = m.redundantRows?.has(i) ? ' · redundant' : m.dependsRows?.has(i) ? ' · basis of a redundant row' : '';
  return {
    title: `${m.name}[${i}, ${j}]`,
    lines: [
      ['row', `${m.rowLabels[i] ?? i}${redundant}`],
      ['col', m.colLabels[j] ?? String(j)],
      ['value', stored ? fmtExact(value) : '0 (structural zero)'],
    ],
  };
}

export function describeRow(m: MatrixSource, r: number): TipContent {
  return { title: m.rowLabels[r], lines: [['row', String(r)], ...(m.redundantRows?.has(r) ? [['status', 'redundant'] as [string, string]] : [])] };
}

export function describeCol(m: MatrixSource, c: number): TipContent {
  return { title: m.colLabels[c], lines: [['column', String(c)]] };
}

export class Tooltip {
  readonly el = h('div', { class: 'cl-tooltip', role: 'tooltip', hidden: true });

  /** Shows `content` near (x, y) (CSS px of a canvas W × H). */
  show(x: number, y: number, content: TipContent, W: number, H: number): void {
    const tt = this.el;
    while (tt.firstChild) tt.removeChild(tt.firstChild);
    tt.append(h('div', { class: 'cl-tooltip-title', text: content.title }));
    const dl = h('dl', { class: 'cl-tooltip-grid' });
    for (const [k, v] of content.lines) dl.append(h('dt', { text: k }), h('dd', { class: k === 'value' ? 'cl-mono' : '', text: v }));
    tt.append(dl);
    tt.hidden = false;
    const tw = tt.offsetWidth;
    const th = tt.offsetHeight;
    let left = x + 14;
    let top = y + 14;
    if (left + tw > W - 4) left = Math.max(4, x - tw - 12);
    if (top + th > H + 40) top = Math.max(4, y - th - 12);
    tt.style.left = `${left}px`;
    tt.style.top = `${top}px`;
  }

  hide(): void {
    this.el.hidden = true;
  }
}
