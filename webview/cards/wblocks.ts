// The W blocks card (velocity formulation): Solfec's W as a grid of blocks W_αβ, one cell per pair of
// local frames, beside the scalar heatmap of the matrices card. Empty cells are pairs of frames that
// share no body (the sparsity of the graph of local frames); hovering a cell names the two frames,
// the body they share, the sign s_αβ of the seed's rule and the block's numbers.
import { formatNumber as fmt } from '../../src/shared';
import { wBlocks, type WBlock, type WBlocks } from '../../src/shared/wblocks';
import { clear, h } from '../dom';
import type { PanelState } from '../store';
import { card, type CardContext } from './card';

const SVG = 'http://www.w3.org/2000/svg';
const svgEl = <K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>): SVGElementTagNameMap[K] => {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
};

/** The hover text of cell (α, β): its blocks (one per shared body off the diagonal) and their sum. */
export function cellText(wb: WBlocks, cell: readonly WBlock[]): string {
  const [a, b] = [wb.frames[cell[0].alpha], wb.frames[cell[0].beta]];
  const role = (f: typeof a, body: string) => (body === f.master ? 'master' : 'slave');
  const lines: string[] = [];
  if (a === b) {
    const bodies = [a.master && `${a.master} (master)`, a.slave && `${a.slave} (slave)`].filter(Boolean).join(' + ');
    lines.push(`W(${a.name}, ${a.name}): diagonal, both bodies add: ${bodies || 'no moving body'}`);
  } else {
    lines.push(`W(${a.name}, ${b.name})`);
    for (const x of cell) lines.push(`via ${x.body}: ${role(a, x.body!)} in ${a.name}, ${role(b, x.body!)} in ${b.name} → s = ${x.sign > 0 ? '+1' : '−1'}`);
  }
  const sum = cell[0].block.map((r, i) => r.map((_, j) => cell.reduce((s, x) => s + x.block[i][j], 0)));
  for (const r of sum) lines.push(`[ ${r.map((x) => fmt(x, 4)).join('  ')} ]`);
  return lines.join('\n');
}

export function createWBlocksCard({ store }: CardContext): HTMLElement {
  const desc = h('p', { class: 'cl-desc' });
  const grid = h('div', { class: 'cl-wb-grid' });
  const tip = h('div', { class: 'cl-wb-tip', role: 'tooltip' });
  tip.hidden = true;
  const el = card('wblocks', 'W blocks (Solfec)', [], [desc, h('div', { class: 'cl-wb-wrap' }, grid, tip)]);
  el.hidden = true;

  const draw = (s: PanelState): void => {
    const snap = s.snapshot;
    const wb = snap && s.model ? wBlocks(snap, s.model.dt) : undefined;
    el.hidden = !wb || wb.frames.length === 0;
    clear(grid);
    tip.hidden = true;
    if (!wb || el.hidden) return;
    const n = wb.frames.length;
    const cells = new Map<string, WBlock[]>();
    for (const b of wb.blocks) cells.set(`${b.alpha},${b.beta}`, [...(cells.get(`${b.alpha},${b.beta}`) ?? []), b]);
    let max = 0;
    for (const b of wb.blocks) for (const r of b.block) for (const x of r) max = Math.max(max, Math.abs(x));
    const size = Math.max(14, Math.min(48, Math.floor(480 / n)));
    const label = Math.min(120, 8 + 7 * Math.max(...wb.frames.map((f) => f.name.length)));
    const svg = svgEl('svg', { width: label + n * size + 2, height: label + n * size + 2, class: 'cl-wb-svg', role: 'img', 'aria-label': `W in ${n}×${n} blocks of local frames` });
    wb.frames.forEach((f, i) => {
      const t = svgEl('text', { x: label - 4, y: label + i * size + size / 2, class: 'cl-wb-label', 'text-anchor': 'end', 'dominant-baseline': 'middle' });
      t.textContent = f.name;
      const c = svgEl('text', { x: 0, y: 0, class: 'cl-wb-label', transform: `translate(${label + i * size + size / 2}, ${label - 4}) rotate(-60)` });
      c.textContent = f.name;
      svg.append(t, c);
    });
    for (let a = 0; a < n; a++) {
      for (let b = 0; b < n; b++) {
        const x0 = label + b * size, y0 = label + a * size;
        const cell = cells.get(`${a},${b}`);
        const g = svgEl('g', { class: cell ? (a === b ? 'cl-wb-cell cl-wb-diag' : 'cl-wb-cell') : 'cl-wb-empty' });
        g.append(svgEl('rect', { x: x0, y: y0, width: size, height: size, class: 'cl-wb-frame' }));
        if (cell) {
          const ra = wb.frames[a].rows, rb = wb.frames[b].rows;
          for (let i = 0; i < ra; i++) {
            for (let j = 0; j < rb; j++) {
              const v = cell.reduce((sum, x) => sum + x.block[i][j], 0);
              const alpha = max > 0 ? Math.sqrt(Math.abs(v) / max) : 0;
              g.append(svgEl('rect', { x: x0 + 1 + (j * (size - 2)) / rb, y: y0 + 1 + (i * (size - 2)) / ra, width: (size - 2) / rb, height: (size - 2) / ra, fill: v >= 0 ? `rgba(70, 130, 230, ${alpha})` : `rgba(220, 80, 60, ${alpha})` }));
            }
          }
          if (a !== b && size >= 20) {
            const sgn = svgEl('text', { x: x0 + size - 3, y: y0 + 3, class: 'cl-wb-sign', 'text-anchor': 'end', 'dominant-baseline': 'hanging' });
            sgn.textContent = cell.map((x) => (x.sign > 0 ? '+' : '−')).join('');
            g.append(sgn);
          }
          const text = cellText(wb, cell);
          g.setAttribute('aria-label', text.split('\n')[0]);
          g.dataset.alpha = String(a);
          g.dataset.beta = String(b);
          g.addEventListener('mouseenter', () => {
            tip.textContent = text;
            tip.hidden = false;
            tip.style.left = `${x0 + size + 6}px`;
            tip.style.top = `${y0}px`;
          });
          g.addEventListener('mouseleave', () => (tip.hidden = true));
        }
        svg.append(g);
      }
    }
    grid.append(svg);
    const off = wb.blocks.filter((b) => b.alpha !== b.beta).length;
    desc.textContent = `W = h·J·M⁻¹·Jᵀ as Solfec stores it: ${n} local frames (each constraint's rows in threes; master bodyA, slave bodyB), ${n} diagonal blocks W_αα (both bodies add) and ${off} off-diagonal blocks W_αβ, one per body two frames share, with the sign s_αβ = −1 where that body is the master of one frame and the slave of the other (+/− in the cell's corner). Empty cells: frames that share no body. Blue positive, red negative; hover a cell for its numbers.`;
  };
  store.watch((s) => [s.snapshot, s.model], (_, s) => draw(s));
  return el;
}
