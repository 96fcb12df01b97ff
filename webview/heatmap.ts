// A canvas heatmap for large sparse matrices: renders only the visible cells from the CSR data,
// aggregates max-|value| per device pixel when zoomed out, two-tier labels (block name + row
// component), tooltip, wheel/button zoom, drag/keyboard pan, block lines and highlights.
import { entry, lowerBound, type MatrixSource } from './matrix';
import { divergingLut, lutCss, lutIsDark, withAlpha, type Palette } from './theme';
import { fmtCell, fmtExact, fmt } from './format';
import { h } from './dom';

export interface HeatmapSelection {
  /** Half-open row ranges to outline (selected constraint). */
  rows: [number, number][];
  /** Half-open column ranges to outline. */
  cols: [number, number][];
}

export interface HeatmapCallbacks {
  /** A cell or a row label was clicked / activated with Enter. */
  onActivate?: (row: number, col: number) => void;
}

interface View {
  z: number; // zoom relative to fit
  ox: number; // first visible column (fractional)
  oy: number; // first visible row (fractional)
}

const MAX_CELL = 56;
const PAD = 8;

const splitLabel = (s: string): [string, string] => {
  const k = s.lastIndexOf('.');
  return k > 0 ? [s.slice(0, k), s.slice(k + 1)] : ['', s];
};

export class Heatmap {
  readonly el: HTMLDivElement;
  private readonly canvas: HTMLCanvasElement;
  private readonly ctx: CanvasRenderingContext2D;
  private readonly tooltip: HTMLDivElement;
  private readonly live: HTMLDivElement;
  private readonly legendCanvas: HTMLCanvasElement;
  private readonly legendMin: HTMLSpanElement;
  private readonly legendMax: HTMLSpanElement;
  private readonly legendNote: HTMLSpanElement;
  private m: MatrixSource | undefined;
  private pal!: Palette;
  private lut!: { pos: Uint32Array; neg: Uint32Array };
  private log = false;
  private sel: HeatmapSelection = { rows: [], cols: [] };
  private views = new Map<string, View>();
  private view: View = { z: 1, ox: 0, oy: 0 };
  // geometry (CSS px)
  private W = 300;
  private H = 200;
  private L = 60;
  private T = 40;
  private groupW = 0;
  private groupH = 0;
  private rowGroups = false;
  private colGroups = false;
  private fitSx = 10;
  private fitSy = 10;
  private dpr = 1;
  private img: ImageData | undefined;
  private buf: Float32Array | undefined;
  private raf = 0;
  private hover: { i: number; j: number } | undefined;
  private cursor = { i: 0, j: 0 };
  private drag: { x: number; y: number; ox: number; oy: number; moved: boolean } | undefined;
  private lastDrawMs = 0;

  constructor(private readonly cb: HeatmapCallbacks = {}) {
    this.canvas = h('canvas', {
      class: 'cl-heatmap-canvas',
      tabindex: 0,
      role: 'application',
      'aria-roledescription': 'matrix heatmap',
      'aria-label': 'Matrix heatmap',
    });
    this.ctx = this.canvas.getContext('2d', { alpha: false })!;
    this.tooltip = h('div', { class: 'cl-tooltip', role: 'tooltip', hidden: true });
    this.live = h('div', { class: 'cl-sr-only', 'aria-live': 'polite' });
    this.legendCanvas = h('canvas', { class: 'cl-legend-bar', width: 160, height: 10, 'aria-hidden': 'true' });
    this.legendMin = h('span', { class: 'cl-legend-val' });
    this.legendMax = h('span', { class: 'cl-legend-val' });
    this.legendNote = h('span', { class: 'cl-legend-note' });
    const legend = h('div', { class: 'cl-legend' }, this.legendMin, this.legendCanvas, this.legendMax, this.legendNote);
    this.el = h('div', { class: 'cl-heatmap' }, h('div', { class: 'cl-heatmap-stage' }, this.canvas, this.tooltip), legend, this.live);
    this.bindEvents();
    // React to width changes only (the height follows the matrix), one frame later: no RO loops.
    let lastW = -1;
    new ResizeObserver(() => {
      const w = Math.floor(this.el.clientWidth);
      if (w === lastW) return;
      lastW = w;
      requestAnimationFrame(() => this.layout(false));
    }).observe(this.el);
  }

  get matrix(): MatrixSource | undefined {
    return this.m;
  }
  get canvasElement(): HTMLCanvasElement {
    return this.canvas;
  }
  /** Milliseconds the last full render took (for perf tests). */
  get lastRenderMs(): number {
    return this.lastDrawMs;
  }

  setPalette(p: Palette): void {
    this.pal = p;
    this.lut = divergingLut(p);
    this.measureGutters();
    this.drawLegend();
    this.invalidate();
  }

  setLogScale(on: boolean): void {
    this.log = on;
    this.drawLegend();
    this.invalidate();
  }

  setSelection(sel: HeatmapSelection): void {
    this.sel = sel;
    this.invalidate();
  }

  /** Show a matrix; the zoom/pan of the same matrix id (and size) is kept across snapshots. */
  setMatrix(m: MatrixSource): void {
    if (this.m) this.views.set(this.key(this.m), this.view);
    const sameShape = this.m !== undefined && this.key(this.m) === this.key(m);
    this.m = m;
    this.view = this.views.get(this.key(m)) ?? { z: 1, ox: 0, oy: 0 };
    this.canvas.setAttribute('aria-label', `${m.name}: ${m.rows} × ${m.cols} heatmap. Arrow keys move between cells, plus and minus zoom, 0 fits, Enter selects the row's constraint.`);
    this.cursor.i = Math.min(this.cursor.i, Math.max(0, m.rows - 1));
    this.cursor.j = Math.min(this.cursor.j, Math.max(0, m.cols - 1));
    this.measureGutters();
    this.layout(!sameShape);
    this.drawLegend();
  }

  private key(m: MatrixSource): string {
    return `${m.id}:${m.rows}x${m.cols}`;
  }

  zoomBy(f: number, cx?: number, cy?: number): void {
    const m = this.m;
    if (!m) return;
    const pw = this.plotW();
    const ph = this.plotH();
    const px = cx ?? pw / 2;
    const py = cy ?? ph / 2;
    const { sx, sy } = this.scale();
    const cellX = this.view.ox + px / sx;
    const cellY = this.view.oy + py / sy;
    const zmax = Math.max(1, 160 / Math.min(this.fitSx, this.fitSy));
    this.view.z = Math.min(zmax, Math.max(1, this.view.z * f));
    const s2 = this.scale();
    this.view.ox = cellX - px / s2.sx;
    this.view.oy = cellY - py / s2.sy;
    this.clampView();
    this.invalidate();
  }

  fit(): void {
    this.view = { z: 1, ox: 0, oy: 0 };
    this.invalidate();
  }

  /** The visible block (for copying large matrices). */
  visibleRange(): { i0: number; i1: number; j0: number; j1: number } {
    const m = this.m!;
    const { sx, sy } = this.scale();
    return {
      i0: Math.max(0, Math.floor(this.view.oy)),
      i1: Math.min(m.rows, Math.ceil(this.view.oy + this.plotH() / sy)),
      j0: Math.max(0, Math.floor(this.view.ox)),
      j1: Math.min(m.cols, Math.ceil(this.view.ox + this.plotW() / sx)),
    };
  }

  /** Bring row i (and column j) into view and put the keyboard cursor there. */
  reveal(i: number, j?: number): void {
    const m = this.m;
    if (!m || i < 0 || i >= m.rows) return;
    this.cursor = { i, j: j ?? this.cursor.j };
    this.ensureCursorVisible();
    this.invalidate();
  }

  private plotW(): number {
    return Math.max(10, this.W - this.L - PAD);
  }
  private plotH(): number {
    return Math.max(10, this.H - this.T - PAD);
  }
  private scale(): { sx: number; sy: number } {
    const sx = this.fitSx * this.view.z;
    const sy = this.fitSy * this.view.z;
    return { sx, sy };
  }

  private font(size: number, bold = false): string {
    return `${bold ? '600 ' : ''}${size}px ${this.pal?.font ?? 'sans-serif'}`;
  }

  private measureGutters(): void {
    const m = this.m;
    if (!m || !this.pal) return;
    const ctx = this.ctx;
    const rowSplit = m.rowLabels.some((l) => l.includes('.'));
    const colSplit = m.colLabels.some((l) => l.includes('.'));
    this.rowGroups = rowSplit;
    this.colGroups = colSplit;
    const maxW = (labels: Iterable<string>, font: string, cap: number): number => {
      ctx.font = font;
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
      const [g, c] = rowSplit ? splitLabel(l) : ['', l];
      if (g) rg.add(g);
      rc.add(c);
      if (rg.size > 4000) break;
    }
    this.groupW = rowSplit ? maxW(rg, this.font(11, true), 120) + 14 : 0;
    const compW = maxW(rc, this.font(11), rowSplit ? 64 : 150) + 12;
    this.L = Math.max(36, this.groupW + compW);
    const cc = new Set<string>();
    for (const l of m.colLabels) {
      cc.add(colSplit ? splitLabel(l)[1] : l);
      if (cc.size > 4000) break;
    }
    this.groupH = colSplit ? 20 : 0;
    const ccw = maxW(cc, this.font(11), 90);
    // Component labels are drawn horizontally when the cells are wide enough, rotated otherwise.
    this.T = this.groupH + Math.max(20, Math.min(96, ccw + 10));
    if (m.perColumnScale) this.T = 24;
  }

  private layout(refit: boolean): void {
    const m = this.m;
    if (!m) return;
    const W = Math.max(200, Math.floor(this.el.clientWidth || 600));
    const pw = W - this.L - PAD;
    // Height follows the matrix: square cells up to MAX_CELL px, between 160 and 560 px.
    const idealCell = m.perColumnScale ? 22 : Math.min(MAX_CELL, pw / Math.max(1, m.cols));
    const H = Math.round(Math.max(150, Math.min(560, this.T + PAD + m.rows * idealCell)));
    const dpr = window.devicePixelRatio || 1;
    const changed = W !== this.W || H !== this.H || dpr !== this.dpr;
    this.W = W;
    this.H = H;
    this.dpr = dpr;
    if (changed || !this.img) {
      this.canvas.width = Math.round(W * dpr);
      this.canvas.height = Math.round(H * dpr);
      this.canvas.style.width = `${W}px`;
      this.canvas.style.height = `${H}px`;
      this.img = undefined;
    }
    const ph = this.plotH();
    let fsx = pw / Math.max(1, m.cols);
    let fsy = ph / Math.max(1, m.rows);
    if (m.perColumnScale) {
      fsx = Math.min(fsx, 130);
      fsy = Math.min(fsy, 22);
    } else {
      const s = Math.min(fsx, fsy, MAX_CELL);
      fsx = s;
      fsy = s;
    }
    this.fitSx = fsx;
    this.fitSy = fsy;
    if (refit) this.view = { z: 1, ox: 0, oy: 0 };
    this.clampView();
    this.invalidate();
  }

  private clampView(): void {
    const m = this.m;
    if (!m) return;
    const { sx, sy } = this.scale();
    const maxOx = Math.max(0, m.cols - this.plotW() / sx);
    const maxOy = Math.max(0, m.rows - this.plotH() / sy);
    this.view.ox = Math.min(maxOx, Math.max(0, this.view.ox));
    this.view.oy = Math.min(maxOy, Math.max(0, this.view.oy));
  }

  invalidate(): void {
    if (this.raf) return;
    this.raf = requestAnimationFrame(() => {
      this.raf = 0;
      this.draw();
    });
  }

  /** Draw synchronously (tests, screenshots). */
  drawNow(): void {
    if (this.raf) cancelAnimationFrame(this.raf);
    this.raf = 0;
    this.draw();
  }

  private draw(): void {
    const m = this.m;
    if (!m || !this.pal) return;
    const t0 = performance.now();
    const ctx = this.ctx;
    const p = this.pal;
    const dpr = this.dpr;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = p.bg;
    ctx.fillRect(0, 0, this.canvas.width, this.canvas.height);
    this.drawCells();
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    this.drawGridAndBlocks();
    this.drawNumbers();
    this.drawHighlights();
    this.drawLabels();
    this.lastDrawMs = performance.now() - t0;
    this.canvas.dataset.renderMs = this.lastDrawMs.toFixed(1);
    // Geometry for tests and tools: plot origin/size (CSS px) and cell size/offset.
    const { sx, sy } = this.scale();
    this.canvas.dataset.plot = [this.L, this.T, this.plotW(), this.plotH()].map((x) => Math.round(x * 100) / 100).join(',');
    this.canvas.dataset.view = [sx, sy, this.view.ox, this.view.oy].join(',');
    this.canvas.dataset.matrix = m.id;
  }

  private drawCells(): void {
    const m = this.m!;
    const dpr = this.dpr;
    const x0 = Math.round(this.L * dpr);
    const y0 = Math.round(this.T * dpr);
    const pwD = Math.max(1, Math.round(this.plotW() * dpr));
    const phD = Math.max(1, Math.round(this.plotH() * dpr));
    if (!this.img || this.img.width !== pwD || this.img.height !== phD) {
      this.img = this.ctx.createImageData(pwD, phD);
      this.buf = new Float32Array(pwD * phD);
    }
    const buf = this.buf!;
    buf.fill(0);
    const { sx, sy } = this.scale();
    const sxD = sx * dpr;
    const syD = sy * dpr;
    const { ox, oy } = this.view;
    const i0 = Math.max(0, Math.floor(oy));
    const i1 = Math.min(m.rows, Math.ceil(oy + phD / syD));
    const j0 = Math.max(0, Math.floor(ox));
    const j1 = Math.min(m.cols, Math.ceil(ox + pwD / sxD));
    const per = m.perColumnScale === true;
    const gmax = m.maxAbs[0] || 1;
    const matW = Math.min(pwD, Math.ceil((m.cols - ox) * sxD));
    const matH = Math.min(phD, Math.ceil((m.rows - oy) * syD));
    for (let i = i0; i < i1; i++) {
      let py0 = Math.floor((i - oy) * syD);
      let py1 = Math.floor((i + 1 - oy) * syD);
      if (py1 <= py0) py1 = py0 + 1;
      if (py0 < 0) py0 = 0;
      if (py1 > phD) py1 = phD;
      if (py0 >= phD) break;
      const end = m.rowPtr[i + 1];
      for (let k = lowerBound(m, i, j0); k < end; k++) {
        const c = m.colIdx[k];
        if (c >= j1) break;
        let v = m.values[k];
        if (v === 0) continue;
        v = Number.isFinite(v) ? v / (per ? m.maxAbs[c] || 1 : gmax) : NaN;
        let px0 = Math.floor((c - ox) * sxD);
        let px1 = Math.floor((c + 1 - ox) * sxD);
        if (px1 <= px0) px1 = px0 + 1;
        if (px0 < 0) px0 = 0;
        if (px1 > pwD) px1 = pwD;
        const av = Math.abs(v);
        for (let y = py0; y < py1; y++) {
          const row = y * pwD;
          for (let x = px0; x < px1; x++) {
            const cur = buf[row + x];
            if (Number.isNaN(cur)) continue;
            if (Number.isNaN(v) || av > Math.abs(cur)) buf[row + x] = v;
          }
        }
      }
    }
    // Colourise.
    const out = new Uint32Array(this.img.data.buffer);
    const bg = (255 << 24) | (this.pal.bgRgb[2] << 16) | (this.pal.bgRgb[1] << 8) | this.pal.bgRgb[0];
    const nanColor = (255 << 24) | (200 << 16) | (0 << 8) | 200; // magenta: non-finite
    const { pos, neg } = this.lut;
    const ref = per ? Math.max(...m.maxAbs) : gmax;
    const decades = Math.max(1, Math.min(12, Math.log10(ref / (m.minAbs || ref)) || 1));
    const log = this.log;
    for (let q = 0; q < buf.length; q++) {
      const u = buf[q];
      if (u === 0) {
        out[q] = bg;
        continue;
      }
      if (Number.isNaN(u)) {
        out[q] = nanColor;
        continue;
      }
      let t = Math.abs(u);
      if (log) t = 1 + Math.log10(t) / decades;
      const idx = t <= 0 ? 0 : t >= 1 ? 255 : Math.round(t * 255);
      out[q] = u > 0 ? pos[idx] : neg[idx];
    }
    this.ctx.putImageData(this.img, x0, y0);
    // Matrix extent frame (when the matrix is smaller than the plot area).
    const ctx = this.ctx;
    ctx.strokeStyle = this.pal.border;
    ctx.lineWidth = 1;
    ctx.strokeRect(x0 - 0.5, y0 - 0.5, matW + 1, matH + 1);
  }

  private drawGridAndBlocks(): void {
    const m = this.m!;
    const ctx = this.ctx;
    const p = this.pal;
    const { sx, sy } = this.scale();
    const { ox, oy } = this.view;
    const L = this.L;
    const T = this.T;
    const pw = Math.min(this.plotW(), (m.cols - ox) * sx);
    const ph = Math.min(this.plotH(), (m.rows - oy) * sy);
    ctx.save();
    ctx.beginPath();
    ctx.rect(L, T, pw, ph);
    ctx.clip();
    // Cell grid when cells are large.
    ctx.lineWidth = 1;
    if (sx >= 9 && sy >= 9) {
      ctx.strokeStyle = p.grid;
      ctx.beginPath();
      const { i0, i1, j0, j1 } = this.visibleRange();
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

  private drawNumbers(): void {
    const m = this.m!;
    const { sx, sy } = this.scale();
    if (sx < 30 || sy < 14) return;
    const ctx = this.ctx;
    const { ox, oy } = this.view;
    const { i0, i1, j0, j1 } = this.visibleRange();
    const size = Math.min(11, Math.floor(sy * 0.55));
    ctx.font = `${size}px ${this.pal.mono}`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    const per = m.perColumnScale === true;
    const gmax = m.maxAbs[0] || 1;
    ctx.save();
    ctx.beginPath();
    ctx.rect(this.L, this.T, this.plotW(), this.plotH());
    ctx.clip();
    for (let i = i0; i < i1; i++) {
      const end = m.rowPtr[i + 1];
      for (let k = lowerBound(m, i, j0); k < end; k++) {
        const c = m.colIdx[k];
        if (c >= j1) break;
        const v = m.values[k];
        const text = fmtCell(v);
        if (ctx.measureText(text).width > sx - 4) continue;
        let t = Math.abs(v) / (per ? m.maxAbs[c] || 1 : gmax);
        if (this.log && t > 0) t = 1 + Math.log10(t) / Math.max(1, Math.min(12, Math.log10((per ? Math.max(...m.maxAbs) : gmax) / (m.minAbs || gmax)) || 1));
        const idx = Math.max(0, Math.min(255, Math.round(t * 255)));
        const col = v > 0 ? this.lut.pos[idx] : v < 0 ? this.lut.neg[idx] : 0;
        ctx.fillStyle = v === 0 ? this.pal.muted : lutIsDark(col) ? '#ffffff' : '#000000';
        if (v === 0) ctx.globalAlpha = 0.6;
        ctx.fillText(text, this.L + (c - ox + 0.5) * sx, this.T + (i - oy + 0.5) * sy + 0.5);
        ctx.globalAlpha = 1;
      }
    }
    ctx.restore();
  }

  private rowRect(a: number, b: number): [number, number] {
    const { sy } = this.scale();
    return [this.T + (a - this.view.oy) * sy, (b - a) * sy];
  }
  private colRect(a: number, b: number): [number, number] {
    const { sx } = this.scale();
    return [this.L + (a - this.view.ox) * sx, (b - a) * sx];
  }

  private drawHighlights(): void {
    const m = this.m!;
    const ctx = this.ctx;
    const p = this.pal;
    const { sx, sy } = this.scale();
    const pw = Math.min(this.plotW(), (m.cols - this.view.ox) * sx);
    const ph = Math.min(this.plotH(), (m.rows - this.view.oy) * sy);
    ctx.save();
    ctx.beginPath();
    ctx.rect(0, this.T - 1, this.L + pw + 2, ph + 2);
    ctx.rect(this.L - 1, 0, pw + 2, this.T);
    ctx.clip();
    // Redundant rows: warning-coloured stripe in the label gutter and a dashed outline across.
    const stripe = (rows: Set<number> | undefined, color: string, dash: number[], fillAlpha: number): void => {
      if (!rows || rows.size === 0) return;
      ctx.setLineDash(dash);
      ctx.strokeStyle = color;
      ctx.lineWidth = 1.5;
      for (const r of rows) {
        const [y, hh] = this.rowRect(r, r + 1);
        if (y + hh < this.T || y > this.T + ph) continue;
        ctx.fillStyle = withAlpha(color, fillAlpha);
        ctx.fillRect(0, y, this.L - 2, Math.max(1, hh));
        ctx.strokeRect(this.L + 0.5, y + 0.5, pw - 1, Math.max(1, hh) - 1);
        if (m.symmetric) {
          const [x, ww] = this.colRect(r, r + 1);
          ctx.fillRect(x, 0, Math.max(1, ww), this.T - 2);
          ctx.strokeRect(x + 0.5, this.T + 0.5, Math.max(1, ww) - 1, ph - 1);
        }
      }
      ctx.setLineDash([]);
    };
    stripe(m.dependsRows, p.info, [4, 3], 0.16);
    stripe(m.redundantRows, p.warning, [], 0.28);
    // Selection (selected constraint's rows, its bodies' columns).
    ctx.strokeStyle = p.focus;
    ctx.lineWidth = 2;
    for (const [a, b] of this.sel.rows) {
      const [y, hh] = this.rowRect(a, b);
      ctx.fillStyle = withAlpha(p.focus, 0.18);
      ctx.fillRect(0, y, this.L - 2, hh);
      ctx.strokeRect(this.L + 1, y + 1, pw - 2, Math.max(2, hh - 2));
    }
    for (const [a, b] of this.sel.cols) {
      const [x, ww] = this.colRect(a, b);
      ctx.fillStyle = withAlpha(p.focus, 0.18);
      ctx.fillRect(x, 0, ww, this.T - 2);
      ctx.setLineDash(this.sel.rows.length ? [3, 3] : []);
      ctx.strokeRect(x + 1, this.T + 1, Math.max(2, ww - 2), ph - 2);
      ctx.setLineDash([]);
    }
    // Hover and keyboard cursor.
    const cellBox = (i: number, j: number): [number, number, number, number] => {
      const [y, hh] = this.rowRect(i, i + 1);
      const [x, ww] = this.colRect(j, j + 1);
      return [x, y, Math.max(2, ww), Math.max(2, hh)];
    };
    if (this.hover) {
      const [x, y, w, hh] = cellBox(this.hover.i, this.hover.j);
      ctx.strokeStyle = p.fg;
      ctx.lineWidth = 1;
      ctx.strokeRect(x + 0.5, y + 0.5, w - 1, hh - 1);
    }
    if (document.activeElement === this.canvas) {
      const [x, y, w, hh] = cellBox(this.cursor.i, this.cursor.j);
      ctx.strokeStyle = p.focus;
      ctx.lineWidth = 2;
      ctx.strokeRect(x - 1, y - 1, w + 2, hh + 2);
    }
    ctx.restore();
  }

  private drawLabels(): void {
    const m = this.m!;
    const ctx = this.ctx;
    const p = this.pal;
    const { sx, sy } = this.scale();
    const { ox, oy } = this.view;
    const { i0, i1, j0, j1 } = this.visibleRange();
    const L = this.L;
    const T = this.T;
    const pw = Math.min(this.plotW(), (m.cols - ox) * sx);
    const ph = Math.min(this.plotH(), (m.rows - oy) * sy);
    const fitText = (s: string, w: number): string => {
      if (ctx.measureText(s).width <= w) return s;
      let lo = 0;
      let hi = s.length;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (ctx.measureText(s.slice(0, mid) + '…').width <= w) lo = mid;
        else hi = mid - 1;
      }
      return lo > 0 ? s.slice(0, lo) + '…' : '';
    };
    ctx.textBaseline = 'middle';
    // ---- rows
    ctx.save();
    ctx.beginPath();
    ctx.rect(0, T, L, ph + 1);
    ctx.clip();
    const compX = L - 6;
    let drewRowComps = false;
    if (sy >= 10) {
      drewRowComps = true;
      ctx.font = this.font(Math.min(11, Math.max(9, sy - 2)));
      ctx.fillStyle = p.fg;
      ctx.textAlign = 'right';
      const cw = L - this.groupW - 8;
      for (let i = i0; i < i1; i++) {
        const lab = this.rowGroups ? splitLabel(m.rowLabels[i])[1] : m.rowLabels[i];
        ctx.fillText(fitText(lab, cw), compX, T + (i - oy + 0.5) * sy);
      }
    }
    if (this.rowGroups) {
      this.drawGroups(m.rowLabels, m.rowBlocks, m.rows, i0, i1, sy, oy, T, ph, false, fitText);
    }
    if (!drewRowComps && !this.groupsVisible(m.rowBlocks, m.rows, sy)) this.drawIndexTicks(m.rows, sy, oy, T, ph, false);
    ctx.restore();
    // ---- columns
    ctx.save();
    ctx.beginPath();
    ctx.rect(L, 0, pw + 1, T);
    ctx.clip();
    ctx.fillStyle = p.fg;
    const compTop = this.groupH;
    let drewColComps = false;
    if (sx >= 10) {
      drewColComps = true;
      ctx.font = this.font(Math.min(11, Math.max(9, sx - 2)));
      const labs: string[] = [];
      let maxw = 0;
      for (let j = j0; j < j1; j++) {
        const lab = this.colGroups ? splitLabel(m.colLabels[j])[1] : m.colLabels[j];
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
          ctx.fillText(fitText(lab, T - compTop - 8), 0, 0);
          ctx.restore();
        }
      }
    }
    if (this.colGroups) {
      this.drawGroups(m.colLabels, m.colBlocks, m.cols, j0, j1, sx, ox, L, pw, true, fitText);
    }
    if (!drewColComps && !this.groupsVisible(m.colBlocks, m.cols, sx)) this.drawIndexTicks(m.cols, sx, ox, L, pw, true);
    ctx.restore();
    // Axis corner: the matrix name.
    ctx.font = this.font(12, true);
    ctx.fillStyle = p.muted;
    ctx.textAlign = 'left';
    ctx.textBaseline = 'top';
    if (this.groupW > 0 || L > 40) ctx.fillText(fitText(`${m.rows}×${m.cols}`, L - 8), 6, 6);
  }

  private groupsVisible(blocks: number[], n: number, s: number): boolean {
    return blocks.length > 0 && (n / blocks.length) * s >= 14;
  }

  private drawGroups(labels: string[], blocks: number[], n: number, a0: number, a1: number, s: number, o: number, origin: number, extent: number, horizontal: boolean, fitText: (s: string, w: number) => string): void {
    const ctx = this.ctx;
    const p = this.pal;
    ctx.font = this.font(11, true);
    ctx.fillStyle = p.fg;
    // Find blocks overlapping [a0, a1).
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
      // separator tick
      ctx.strokeStyle = p.gridStrong;
      ctx.lineWidth = 1;
      ctx.beginPath();
      if (horizontal) {
        const x = Math.round(origin + (start - o) * s) + 0.5;
        ctx.moveTo(x, 2);
        ctx.lineTo(x, this.T);
      } else {
        const y = Math.round(origin + (start - o) * s) + 0.5;
        ctx.moveTo(2, y);
        ctx.lineTo(this.L, y);
      }
      ctx.stroke();
      if (span < 13) continue;
      const name = splitLabel(labels[start] ?? '')[0];
      if (horizontal) {
        const t = fitText(name, span - 6);
        if (!t) continue;
        ctx.textAlign = 'center';
        ctx.textBaseline = 'middle';
        ctx.fillText(t, origin + (p0 + p1) / 2, this.groupH / 2 + 1);
      } else {
        const t = fitText(name, this.groupW - 10);
        if (!t) continue;
        ctx.textAlign = 'left';
        ctx.textBaseline = 'middle';
        // Sticky: centre of the visible part, but near the top for tall blocks.
        const y = span > 60 ? origin + p0 + 10 : origin + (p0 + p1) / 2;
        ctx.fillText(t, 6, y);
      }
    }
  }

  private drawIndexTicks(n: number, s: number, o: number, origin: number, extent: number, horizontal: boolean): void {
    const ctx = this.ctx;
    ctx.font = this.font(10);
    ctx.fillStyle = this.pal.muted;
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
        ctx.fillText(String(k), origin + pos, this.T - 10);
      } else {
        ctx.textAlign = 'right';
        ctx.fillText(String(k), this.L - 6, origin + pos);
      }
    }
  }

  private drawLegend(): void {
    const m = this.m;
    if (!this.pal || !this.lut) return;
    const c = this.legendCanvas;
    const ctx = c.getContext('2d');
    if (!ctx) return;
    const w = c.width;
    const img = ctx.createImageData(w, c.height);
    const out = new Uint32Array(img.data.buffer);
    for (let x = 0; x < w; x++) {
      const u = (x / (w - 1)) * 2 - 1;
      const idx = Math.min(255, Math.round(Math.abs(u) * 255));
      const col = Math.abs(u) < 1 / w ? (255 << 24) | (this.pal.bgRgb[2] << 16) | (this.pal.bgRgb[1] << 8) | this.pal.bgRgb[0] : u > 0 ? this.lut.pos[idx] : this.lut.neg[idx];
      for (let y = 0; y < c.height; y++) out[y * w + x] = col;
    }
    ctx.putImageData(img, 0, 0);
    if (!m) return;
    const mx = m.perColumnScale ? Math.max(...m.maxAbs) : m.maxAbs[0];
    if (m.perColumnScale) {
      this.legendMin.textContent = '−max';
      this.legendMax.textContent = '+max';
    } else {
      this.legendMin.textContent = fmt(-mx, 3);
      this.legendMax.textContent = fmt(mx, 3);
    }
    const decades = Math.max(1, Math.min(12, Math.round(Math.log10(mx / (m.minAbs || mx))) || 1));
    this.legendNote.textContent =
      (this.log ? `log₁₀|x| over ${decades} decade${decades === 1 ? '' : 's'}` : 'linear, centred on 0') +
      (m.perColumnScale ? ' · each column scaled to its max |x|' : '') +
      ` · nnz ${m.values.length.toLocaleString('en-US')}`;
    this.legendCanvas.title = `negative ${lutCss(this.lut.neg[255])} · zero = background · positive ${lutCss(this.lut.pos[255])}`;
  }

  // ---- interaction --------------------------------------------------------------------

  private cellAt(x: number, y: number): { i: number; j: number } | undefined {
    const m = this.m;
    if (!m) return undefined;
    const { sx, sy } = this.scale();
    if (x < this.L || y < this.T) return undefined;
    const j = Math.floor(this.view.ox + (x - this.L) / sx);
    const i = Math.floor(this.view.oy + (y - this.T) / sy);
    if (i < 0 || j < 0 || i >= m.rows || j >= m.cols) return undefined;
    return { i, j };
  }

  private rowAtGutter(x: number, y: number): number | undefined {
    const m = this.m;
    if (!m || x >= this.L || y < this.T) return undefined;
    const i = Math.floor(this.view.oy + (y - this.T) / this.scale().sy);
    return i >= 0 && i < m.rows ? i : undefined;
  }

  private colAtGutter(x: number, y: number): number | undefined {
    const m = this.m;
    if (!m || y >= this.T || x < this.L) return undefined;
    const j = Math.floor(this.view.ox + (x - this.L) / this.scale().sx);
    return j >= 0 && j < m.cols ? j : undefined;
  }

  private describe(i: number, j: number): { title: string; lines: [string, string][] } {
    const m = this.m!;
    const { value, stored } = entry(m, i, j);
    const lines: [string, string][] = [];
    const redundant = m.redundantRows?.has(i) ? ' · redundant' : m.dependsRows?.has(i) ? ' · basis of a redundant row' : '';
    lines.push(['row', `${m.rowLabels[i] ?? i}${redundant}`]);
    lines.push(['col', m.colLabels[j] ?? String(j)]);
    lines.push(['value', stored ? fmtExact(value) : '0 (structural zero)']);
    return { title: `${m.name}[${i}, ${j}]`, lines };
  }

  private showTooltip(x: number, y: number, content: { title: string; lines: [string, string][] }): void {
    const tt = this.tooltip;
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
    if (left + tw > this.W - 4) left = Math.max(4, x - tw - 12);
    if (top + th > this.H + 40) top = Math.max(4, y - th - 12);
    tt.style.left = `${left}px`;
    tt.style.top = `${top}px`;
  }

  private hideTooltip(): void {
    this.tooltip.hidden = true;
  }

  private pointer(e: MouseEvent): { x: number; y: number } {
    const r = this.canvas.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  }

  private bindEvents(): void {
    const c = this.canvas;
    c.addEventListener('mousemove', (e) => {
      const { x, y } = this.pointer(e);
      if (this.drag) {
        const dx = x - this.drag.x;
        const dy = y - this.drag.y;
        if (Math.abs(dx) + Math.abs(dy) > 3) this.drag.moved = true;
        if (this.drag.moved) {
          const { sx, sy } = this.scale();
          this.view.ox = this.drag.ox - dx / sx;
          this.view.oy = this.drag.oy - dy / sy;
          this.clampView();
          this.hideTooltip();
          this.invalidate();
          return;
        }
      }
      const cell = this.cellAt(x, y);
      const prev = this.hover;
      this.hover = cell;
      if (cell) {
        this.showTooltip(x, y, this.describe(cell.i, cell.j));
        c.style.cursor = 'crosshair';
      } else {
        const r = this.rowAtGutter(x, y);
        const col = this.colAtGutter(x, y);
        if (r !== undefined) {
          this.showTooltip(x, y, { title: this.m!.rowLabels[r], lines: [['row', String(r)], ...(this.m!.redundantRows?.has(r) ? [['status', 'redundant'] as [string, string]] : [])] });
          c.style.cursor = this.m?.rowConstraint ? 'pointer' : 'default';
        } else if (col !== undefined) {
          this.showTooltip(x, y, { title: this.m!.colLabels[col], lines: [['column', String(col)]] });
          c.style.cursor = 'default';
        } else {
          this.hideTooltip();
          c.style.cursor = 'default';
        }
      }
      if (prev?.i !== cell?.i || prev?.j !== cell?.j) this.invalidate();
    });
    c.addEventListener('mouseleave', () => {
      this.hover = undefined;
      this.drag = undefined;
      this.hideTooltip();
      this.invalidate();
    });
    c.addEventListener('mousedown', (e) => {
      if (e.button !== 0) return;
      const { x, y } = this.pointer(e);
      this.drag = { x, y, ox: this.view.ox, oy: this.view.oy, moved: false };
    });
    c.addEventListener('mouseup', (e) => {
      const d = this.drag;
      this.drag = undefined;
      if (!d || d.moved) return;
      const { x, y } = this.pointer(e);
      const cell = this.cellAt(x, y);
      if (cell) {
        this.cursor = { ...cell };
        this.cb.onActivate?.(cell.i, cell.j);
        this.invalidate();
        return;
      }
      const r = this.rowAtGutter(x, y);
      if (r !== undefined) this.cb.onActivate?.(r, -1);
    });
    c.addEventListener('dblclick', () => this.fit());
    c.addEventListener(
      'wheel',
      (e) => {
        const { x, y } = this.pointer(e);
        if (x < this.L || y < this.T) return;
        const f = Math.exp(-e.deltaY * (e.deltaMode === 1 ? 0.05 : 0.0018));
        // At fit, scrolling out lets the page scroll instead of being swallowed.
        if (f < 1 && this.view.z <= 1.0001) return;
        e.preventDefault();
        this.zoomBy(f, x - this.L, y - this.T);
      },
      { passive: false },
    );
    c.addEventListener('focus', () => this.invalidate());
    c.addEventListener('blur', () => {
      this.hideTooltip();
      this.invalidate();
    });
    c.addEventListener('keydown', (e) => this.onKey(e));
  }

  private ensureCursorVisible(): void {
    const { sx, sy } = this.scale();
    const vw = this.plotW() / sx;
    const vh = this.plotH() / sy;
    const { i, j } = this.cursor;
    if (i < this.view.oy) this.view.oy = i;
    if (i + 1 > this.view.oy + vh) this.view.oy = i + 1 - vh;
    if (j < this.view.ox) this.view.ox = j;
    if (j + 1 > this.view.ox + vw) this.view.ox = j + 1 - vw;
    this.clampView();
  }

  private onKey(e: KeyboardEvent): void {
    const m = this.m;
    if (!m) return;
    const { sy } = this.scale();
    const page = Math.max(1, Math.floor(this.plotH() / sy) - 1);
    // A cursor scrolled out of view (after zoom/pan with the mouse) restarts at the view's corner.
    const vr = this.visibleRange();
    if (this.cursor.i < vr.i0 || this.cursor.i >= vr.i1 || this.cursor.j < vr.j0 || this.cursor.j >= vr.j1) {
      this.cursor = { i: Math.min(m.rows - 1, Math.ceil(this.view.oy)), j: Math.min(m.cols - 1, Math.ceil(this.view.ox)) };
    }
    let { i, j } = this.cursor;
    let handled = true;
    switch (e.key) {
      case 'ArrowUp':
        i -= e.shiftKey ? page : 1;
        break;
      case 'ArrowDown':
        i += e.shiftKey ? page : 1;
        break;
      case 'ArrowLeft':
        j -= e.shiftKey ? 6 : 1;
        break;
      case 'ArrowRight':
        j += e.shiftKey ? 6 : 1;
        break;
      case 'PageUp':
        i -= page;
        break;
      case 'PageDown':
        i += page;
        break;
      case 'Home':
        j = 0;
        if (e.ctrlKey) i = 0;
        break;
      case 'End':
        j = m.cols - 1;
        if (e.ctrlKey) i = m.rows - 1;
        break;
      case '+':
      case '=':
        this.zoomBy(1.5);
        break;
      case '-':
      case '_':
        this.zoomBy(1 / 1.5);
        break;
      case '0':
        this.fit();
        break;
      case 'Enter':
      case ' ':
        this.cb.onActivate?.(i, j);
        break;
      case 'Escape':
        this.hideTooltip();
        break;
      default:
        handled = false;
    }
    if (!handled) return;
    e.preventDefault();
    i = Math.max(0, Math.min(m.rows - 1, i));
    j = Math.max(0, Math.min(m.cols - 1, j));
    if (i !== this.cursor.i || j !== this.cursor.j) {
      this.cursor = { i, j };
      this.ensureCursorVisible();
      const d = this.describe(i, j);
      this.live.textContent = `${d.lines[0][1]}, ${d.lines[1][1]}: ${d.lines[2][1]}`;
      const { sx, sy: sy2 } = this.scale();
      this.showTooltip(this.L + (j - this.view.ox + 1) * sx, this.T + (i - this.view.oy + 1) * sy2, d);
    }
    this.invalidate();
  }
}
