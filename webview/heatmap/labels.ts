// The heatmap's axis labels: two tiers (block name, e.g. the body or constraint, and the row
// component) in the gutters left of and above the plot, index ticks when neither fits, and the
// gutter sizes they need.
import type { MatrixSource } from '../matrix';
import type { Palette } from '../palette';
import type { Viewport } from './viewport';

/** "link3.vx" → ["link3", "vx"]; a label without a dot has no group. */
const splitLabel = (s: string): [string, string] => {
  const k = s.lastIndexOf('.');
  return k > 0 ? [s.slice(0, k), s.slice(k + 1)] : ['', s];
};

export interface Gutters {
  L: number;
  T: number;
  /** Width of the row-group column (0: rows have no groups). */
  groupW: number;
  /** Height of the column-group band (0: columns have no groups). */
  groupH: number;
  rowGroups: boolean;
  colGroups: boolean;
}

export const font = (p: Palette, size: number, bold = false): string => `${bold ? '600 ' : ''}${size}px ${p.font ?? 'sans-serif'}`;

/** Gutter sizes for the labels of `m` (measured with `ctx`; at most 4000 distinct labels looked at). */
export function measureGutters(ctx: CanvasRenderingContext2D, m: MatrixSource, p: Palette): Gutters {
  const rowGroups = m.rowLabels.some((l) => l.includes('.'));
  const colGroups = m.colLabels.some((l) => l.includes('.'));
  const maxW = (labels: Iterable<string>, f: string, cap: number): number => {
    ctx.font = f;
    let w = 0;
    let n = 0;
    for (const s of labels) {
      w = Math.max(w, ctx.measureText(s).width);
      if (++n > 4000) break;
    }
    return Math.min(cap, Math.ceil(w));
  };
  const rg = new Set<string>();
  const rc = new Set<string>();
  for (const l of m.rowLabels) {
    const [g, c] = rowGroups ? splitLabel(l) : ['', l];
    if (g) rg.add(g);
    rc.add(c);
    if (rg.size > 4000) break;
  }
  const groupW = rowGroups ? maxW(rg, font(p, 11, true), 120) + 14 : 0;
  const compW = maxW(rc, font(p, 11), rowGroups ? 64 : 150) + 12;
  const cc = new Set<string>();
  for (const l of m.colLabels) {
    cc.add(colGroups ? splitLabel(l)[1] : l);
    if (cc.size > 4000) break;
  }
  const groupH = colGroups ? 20 : 0;
  const ccw = maxW(cc, font(p, 11), 90);
  // Component labels are drawn horizontally when the cells are wide enough, rotated otherwise.
  const T = m.perColumnScale ? 24 : groupH + Math.max(20, Math.min(96, ccw + 10));
  return { L: Math.max(36, groupW + compW), T, groupW, groupH, rowGroups, colGroups };
}

/** The longest prefix of `s` (with "…") that fits `w` px in the current font. */
function fitText(ctx: CanvasRenderingContext2D, s: string, w: number): string {
  if (ctx.measureText(s).width <= w) return s;
  let lo = 0;
  let hi = s.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (ctx.measureText(s.slice(0, mid) + '…').width <= w) lo = mid;
    else hi = mid - 1;
  }
  return lo > 0 ? s.slice(0, lo) + '…' : '';
}

export function drawLabels(ctx: CanvasRenderingContext2D, m: MatrixSource, vp: Viewport, g: Gutters, p: Palette): void {
  const { sx, sy } = vp.scale();
  const { ox, oy } = vp.view;
  const { i0, i1, j0, j1 } = vp.visibleRange();
  const { L, T } = vp;
  const { pw, ph } = vp.matrixExtent();
  ctx.textBaseline = 'middle';
  // ---- rows
  ctx.save();
  ctx.beginPath();
  ctx.rect(0, T, L, ph + 1);
  ctx.clip();
  let drewRowComps = false;
  if (sy >= 10) {
    drewRowComps = true;
    ctx.font = font(p, Math.min(11, Math.max(9, sy - 2)));
    ctx.fillStyle = p.fg;
    ctx.textAlign = 'right';
    const cw = L - g.groupW - 8;
    for (let i = i0; i < i1; i++) {
      const lab = g.rowGroups ? splitLabel(m.rowLabels[i])[1] : m.rowLabels[i];
      ctx.fillText(fitText(ctx, lab, cw), L - 6, T + (i - oy + 0.5) * sy);
    }
  }
  if (g.rowGroups) drawGroups(ctx, m.rowLabels, m.rowBlocks, m.rows, i0, i1, sy, oy, T, ph, false, vp, g, p);
  if (!drewRowComps && !groupsVisible(m.rowBlocks, m.rows, sy)) drawIndexTicks(ctx, m.rows, sy, oy, T, ph, false, vp, p);
  ctx.restore();
  // ---- columns
  ctx.save();
  ctx.beginPath();
  ctx.rect(L, 0, pw + 1, T);
  ctx.clip();
  ctx.fillStyle = p.fg;
  let drewColComps = false;
  if (sx >= 10) {
    drewColComps = true;
    ctx.font = font(p, Math.min(11, Math.max(9, sx - 2)));
    const labs: string[] = [];
    let maxw = 0;
    for (let j = j0; j < j1; j++) {
      const lab = g.colGroups ? splitLabel(m.colLabels[j])[1] : m.colLabels[j];
      labs.push(lab);
      maxw = Math.max(maxw, ctx.measureText(lab).width);
    }
    const horizontal = maxw + 4 <= sx;
    for (let j = j0; j < j1; j++) {
      const lab = labs[j - j0];
      const cx = L + (j - ox + 0.5) * sx;
      if (horizontal) {
        ctx.textAlign = 'center';
        ctx.fillText(lab, cx, T - 10);
      } else {
        ctx.save();
        ctx.translate(cx, T - 5);
        ctx.rotate(-Math.PI / 2);
        ctx.textAlign = 'left';
        ctx.fillText(fitText(ctx, lab, T - g.groupH - 8), 0, 0);
        ctx.restore();
      }
    }
  }
  if (g.colGroups) drawGroups(ctx, m.colLabels, m.colBlocks, m.cols, j0, j1, sx, ox, L, pw, true, vp, g, p);
  if (!drewColComps && !groupsVisible(m.colBlocks, m.cols, sx)) drawIndexTicks(ctx, m.cols, sx, ox, L, pw, true, vp, p);
  ctx.restore();
  // Axis corner: the matrix size.
  ctx.font = font(p, 12, true);
  ctx.fillStyle = p.muted;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'top';
  if (g.groupW > 0 || L > 40) ctx.fillText(fitText(ctx, `${m.rows}×${m.cols}`, L - 8), 6, 6);
}

function groupsVisible(blocks: number[], n: number, s: number): boolean {
  return blocks.length > 0 && (n / blocks.length) * s >= 14;
}

/** Block names (first tier) with separator ticks, for the blocks overlapping [a0, a1). */
function drawGroups(ctx: CanvasRenderingContext2D, labels: string[], blocks: number[], n: number, a0: number, a1: number, s: number, o: number, origin: number, extent: number, horizontal: boolean, vp: Viewport, g: Gutters, p: Palette): void {
  ctx.font = font(p, 11, true);
  ctx.fillStyle = p.fg;
  let b = 0;
  let lo = 0;
  let hi = blocks.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (blocks[mid] <= a0) {
      b = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  const ticks = (n / Math.max(1, blocks.length)) * s >= 4;
  for (; b < blocks.length && blocks[b] < a1; b++) {
    const start = blocks[b];
    const end = b + 1 < blocks.length ? blocks[b + 1] : n;
    const p0 = Math.max(0, (start - o) * s);
    const p1 = Math.min(extent, (end - o) * s);
    const span = p1 - p0;
    if (!ticks) continue;
    ctx.strokeStyle = p.gridStrong;
    ctx.lineWidth = 1;
    ctx.beginPath();
    if (horizontal) {
      const x = Math.round(origin + (start - o) * s) + 0.5;
      ctx.moveTo(x, 2);
      ctx.lineTo(x, vp.T);
    } else {
      const y = Math.round(origin + (start - o) * s) + 0.5;
      ctx.moveTo(2, y);
      ctx.lineTo(vp.L, y);
    }
    ctx.stroke();
    if (span < 13) continue;
    const name = splitLabel(labels[start] ?? '')[0];
    if (horizontal) {
      const t = fitText(ctx, name, span - 6);
      if (!t) continue;
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      ctx.fillText(t, origin + (p0 + p1) / 2, g.groupH / 2 + 1);
    } else {
      const t = fitText(ctx, name, g.groupW - 10);
      if (!t) continue;
      ctx.textAlign = 'left';
      ctx.textBaseline = 'middle';
      // Sticky: centre of the visible part, but near the top for tall blocks.
      ctx.fillText(t, 6, span > 60 ? origin + p0 + 10 : origin + (p0 + p1) / 2);
    }
  }
}

/** Index ticks at a 1-2-5 spacing when neither component labels nor group names fit. */
function drawIndexTicks(ctx: CanvasRenderingContext2D, n: number, s: number, o: number, origin: number, extent: number, horizontal: boolean, vp: Viewport, p: Palette): void {
  ctx.font = font(p, 10);
  ctx.fillStyle = p.muted;
  const raw = 50 / s;
  const pow = Math.pow(10, Math.floor(Math.log10(Math.max(1, raw))));
  const step = [1, 2, 5, 10].map((k) => k * pow).find((k) => k >= raw) ?? 10 * pow;
  const first = Math.ceil(o / step) * step;
  for (let k = first; k <= n; k += step) {
    const pos = (k - o) * s;
    if (pos > extent - 8) break;
    if (pos < 8) continue; // would be clipped at the corner
    if (horizontal) {
      ctx.textAlign = 'center';
      ctx.fillText(String(k), origin + pos, vp.T - 10);
    } else {
      ctx.textAlign = 'right';
      ctx.fillText(String(k), vp.L - 6, origin + pos);
    }
  }
}
