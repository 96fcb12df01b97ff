// What the heatmap draws over its cells (CSS px, after the DPR transform): the cell grid and the
// block lines, the printed values, the redundant-row stripes, the selection, the hover cell and
// the keyboard cursor.
import { csrLowerBound as lowerBound } from '../../src/shared';
import { type MatrixSource } from '../matrix';
import type { Palette } from '../palette';
import { lutIsDark, withAlpha } from '../theme';
import { cellFontSizes, fitCellText, MIN_LABEL_CELL } from './cellText';
import { decadesOf, lutIndex, type Lut } from './raster';
import type { Cell, HeatmapSelection, Viewport } from './viewport';

export function drawGridAndBlocks(ctx: CanvasRenderingContext2D, m: MatrixSource, vp: Viewport, p: Palette): void {
  const { sx, sy } = vp.scale();
  const { ox, oy } = vp.view;
  const { L, T } = vp;
  const { pw, ph } = vp.matrixExtent();
  ctx.save();
  ctx.beginPath();
  ctx.rect(L, T, pw, ph);
  ctx.clip();
  // Cell grid when cells are large.
  ctx.lineWidth = 1;
  if (sx >= 9 && sy >= 9) {
    ctx.strokeStyle = p.grid;
    ctx.beginPath();
    const { i0, i1, j0, j1 } = vp.visibleRange();
    for (let j = j0; j <= j1; j++) {
      const x = Math.round(L + (j - ox) * sx) + 0.5;
      ctx.moveTo(x, T);
      ctx.lineTo(x, T + ph);
    }
    for (let i = i0; i <= i1; i++) {
      const y = Math.round(T + (i - oy) * sy) + 0.5;
      ctx.moveTo(L, y);
      ctx.lineTo(L + pw, y);
    }
    ctx.stroke();
  }
  // Block lines (bodies every 6 columns, constraints) when they are not too dense.
  ctx.strokeStyle = p.gridStrong;
  ctx.lineWidth = 1;
  ctx.beginPath();
  const blockLines = (blocks: number[], n: number, s: number, o: number, vertical: boolean): void => {
    if (blocks.length < 2) return;
    if ((n / blocks.length) * s < 3) return;
    for (const b of blocks) {
      if (b === 0) continue;
      const pos = (b - o) * s;
      if (vertical) {
        if (pos < 0 || pos > pw) continue;
        const x = Math.round(L + pos) + 0.5;
        ctx.moveTo(x, T);
        ctx.lineTo(x, T + ph);
      } else {
        if (pos < 0 || pos > ph) continue;
        const y = Math.round(T + pos) + 0.5;
        ctx.moveTo(L, y);
        ctx.lineTo(L + pw, y);
      }
    }
  };
  blockLines(m.colBlocks, m.cols, sx, ox, true);
  blockLines(m.rowBlocks, m.rows, sy, oy, false);
  ctx.stroke();
  ctx.restore();
}

/**
 * Prints the stored values whose text fits their cell (fewer digits or a smaller font before none),
 * non-zero values first: zeros are printed only when every visible non-zero value was, so a "0"
 * never speaks louder than a coloured neighbour. Returns how many of each were printed.
 */
export function drawValues(ctx: CanvasRenderingContext2D, m: MatrixSource, vp: Viewport, p: Palette, lut: Lut, log: boolean): { nonZero: number; printed: number; zeros: number } {
  const counts = { nonZero: 0, printed: 0, zeros: 0 };
  const { sx, sy } = vp.scale();
  if (sx < MIN_LABEL_CELL.width || sy < MIN_LABEL_CELL.height) return counts;
  const { ox, oy } = vp.view;
  const { i0, i1, j0, j1 } = vp.visibleRange();
  const { base, small } = cellFontSizes(sy);
  const font = (size: number): string => `${size}px ${p.mono}`;
  ctx.font = font(base);
  const widths = new Map<string, number>();
  const measure = (t: string): number => {
    let w = widths.get(t);
    if (w === undefined) {
      w = ctx.measureText(t).width;
      widths.set(t, w);
    }
    return w;
  };
  const per = m.perColumnScale === true;
  const gmax = m.maxAbs[0] || 1;
  const decades = decadesOf(m);
  const maxWidth = sx - 4;
  const labels: { x: number; y: number; text: string; size: number; color: string }[] = [];
  const zeros: { x: number; y: number }[] = [];
  let allFit = true;
  for (let i = i0; i < i1; i++) {
    const end = m.rowPtr[i + 1];
    for (let k = lowerBound(m, i, j0); k < end; k++) {
      const c = m.colIdx[k];
      if (c >= j1) break;
      const v = m.values[k];
      const x = vp.L + (c - ox + 0.5) * sx;
      const y = vp.T + (i - oy + 0.5) * sy + 0.5;
      if (v === 0) {
        zeros.push({ x, y });
        continue;
      }
      counts.nonZero++;
      const fit = fitCellText(v, maxWidth, measure, base, small);
      if (!fit) {
        allFit = false;
        continue;
      }
      const idx = Number.isFinite(v) ? lutIndex(v / (per ? m.maxAbs[c] || 1 : gmax), log, decades) : 255;
      const col = v > 0 ? lut.pos[idx] : lut.neg[idx];
      labels.push({ x, y, text: fit.text, size: fit.size, color: Number.isNaN(v) || lutIsDark(col) ? '#ffffff' : '#000000' });
    }
  }
  ctx.save();
  ctx.beginPath();
  ctx.rect(vp.L, vp.T, vp.plotW(), vp.plotH());
  ctx.clip();
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  let size = base;
  for (const l of labels) {
    if (l.size !== size) {
      size = l.size;
      ctx.font = font(size);
    }
    ctx.fillStyle = l.color;
    ctx.fillText(l.text, l.x, l.y);
  }
  counts.printed = labels.length;
  if (allFit && zeros.length && measure('0') <= maxWidth) {
    ctx.font = font(base);
    ctx.fillStyle = p.muted;
    ctx.globalAlpha = 0.6;
    for (const z of zeros) ctx.fillText('0', z.x, z.y);
    ctx.globalAlpha = 1;
    counts.zeros = zeros.length;
  }
  ctx.restore();
  return counts;
}

export function drawHighlights(ctx: CanvasRenderingContext2D, m: MatrixSource, vp: Viewport, p: Palette, sel: HeatmapSelection, hover: Cell | undefined, cursor: Cell | undefined): void {
  const { pw, ph } = vp.matrixExtent();
  const { L, T } = vp;
  ctx.save();
  ctx.beginPath();
  ctx.rect(0, T - 1, L + pw + 2, ph + 2);
  ctx.rect(L - 1, 0, pw + 2, T);
  ctx.clip();
  // Redundant rows: warning-coloured stripe in the label gutter and a dashed outline across.
  const stripe = (rows: Set<number> | undefined, color: string, dash: number[], fillAlpha: number): void => {
    if (!rows || rows.size === 0) return;
    ctx.setLineDash(dash);
    ctx.strokeStyle = color;
    ctx.lineWidth = 1.5;
    for (const r of rows) {
      const [y, hh] = vp.rowRect(r, r + 1);
      if (y + hh < T || y > T + ph) continue;
      ctx.fillStyle = withAlpha(color, fillAlpha);
      ctx.fillRect(0, y, L - 2, Math.max(1, hh));
      ctx.strokeRect(L + 0.5, y + 0.5, pw - 1, Math.max(1, hh) - 1);
      if (m.symmetric) {
        const [x, ww] = vp.colRect(r, r + 1);
        ctx.fillRect(x, 0, Math.max(1, ww), T - 2);
        ctx.strokeRect(x + 0.5, T + 0.5, Math.max(1, ww) - 1, ph - 1);
      }
    }
    ctx.setLineDash([]);
  };
  stripe(m.dependsRows, p.info, [4, 3], 0.16);
  stripe(m.redundantRows, p.warning, [], 0.28);
  // Selection (selected constraint's rows, its bodies' columns).
  ctx.strokeStyle = p.focus;
  ctx.lineWidth = 2;
  for (const [a, b] of sel.rows) {
    const [y, hh] = vp.rowRect(a, b);
    ctx.fillStyle = withAlpha(p.focus, 0.18);
    ctx.fillRect(0, y, L - 2, hh);
    ctx.strokeRect(L + 1, y + 1, pw - 2, Math.max(2, hh - 2));
  }
  for (const [a, b] of sel.cols) {
    const [x, ww] = vp.colRect(a, b);
    ctx.fillStyle = withAlpha(p.focus, 0.18);
    ctx.fillRect(x, 0, ww, T - 2);
    ctx.setLineDash(sel.rows.length ? [3, 3] : []);
    ctx.strokeRect(x + 1, T + 1, Math.max(2, ww - 2), ph - 2);
    ctx.setLineDash([]);
  }
  // Hover and keyboard cursor.
  const cellBox = (c: Cell): [number, number, number, number] => {
    const [y, hh] = vp.rowRect(c.i, c.i + 1);
    const [x, ww] = vp.colRect(c.j, c.j + 1);
    return [x, y, Math.max(2, ww), Math.max(2, hh)];
  };
  if (hover) {
    const [x, y, w, hh] = cellBox(hover);
    ctx.strokeStyle = p.fg;
    ctx.lineWidth = 1;
    ctx.strokeRect(x + 0.5, y + 0.5, w - 1, hh - 1);
  }
  if (cursor) {
    const [x, y, w, hh] = cellBox(cursor);
    ctx.strokeStyle = p.focus;
    ctx.lineWidth = 2;
    ctx.strokeRect(x - 1, y - 1, w + 2, hh + 2);
  }
  ctx.restore();
}
