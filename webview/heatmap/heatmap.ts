// A canvas heatmap for large sparse matrices: the viewport (zoom, pan, cell ↔ pixel), the raster
// of the visible cells, the overlays and labels drawn over them, the legend, the tooltip and the
// input, put together on the shared canvas base.
import { CanvasView } from '../canvas';
import { h } from '../dom';
import type { MatrixSource } from '../matrix';
import type { Palette } from '../palette';
import { divergingLut } from '../theme';
import { bindHeatmapInput } from './input';
import { measureGutters, drawLabels, type Gutters } from './labels';
import { Legend } from './legend';
import { drawGridAndBlocks, drawHighlights, drawValues } from './overlays';
import { Raster, type Lut } from './raster';
import { Tooltip } from './tooltip';
import { Viewport, type Cell, type CellRange, type HeatmapSelection, type View } from './viewport';

export type { HeatmapSelection } from './viewport';

interface HeatmapCallbacks {
  /** A cell or a row label (col = -1) was clicked / activated with Enter. */
  onActivate?: (row: number, col: number) => void;
}

const NO_GUTTERS: Gutters = { L: 60, T: 40, groupW: 0, groupH: 0, rowGroups: false, colGroups: false };

export class Heatmap extends CanvasView {
  readonly el: HTMLDivElement;
  private readonly vp = new Viewport();
  private readonly raster = new Raster();
  private readonly legend = new Legend();
  private readonly tooltip = new Tooltip();
  private readonly live: HTMLDivElement;
  private m: MatrixSource | undefined;
  private pal: Palette | undefined;
  private lut: Lut | undefined;
  private log = false;
  private sel: HeatmapSelection = { rows: [], cols: [] };
  private gutters: Gutters = NO_GUTTERS;
  /** Zoom/pan per matrix id and shape, kept across snapshots. */
  private readonly views = new Map<string, View>();
  private readonly pointed: { hover: Cell | undefined; cursor: Cell } = { hover: undefined, cursor: { i: 0, j: 0 } };
  private lastDrawMs = 0;

  constructor(private readonly cb: HeatmapCallbacks = {}) {
    super(h('canvas', { class: 'cl-heatmap-canvas', tabindex: 0, role: 'application', 'aria-roledescription': 'matrix heatmap', 'aria-label': 'Matrix heatmap' }), { alpha: false });
    this.live = h('div', { class: 'cl-sr-only', 'aria-live': 'polite' });
    this.el = h('div', { class: 'cl-heatmap' }, h('div', { class: 'cl-heatmap-stage' }, this.canvas, this.tooltip.el), this.legend.el, this.live);
    bindHeatmapInput({
      canvas: this.canvas,
      vp: this.vp,
      tooltip: this.tooltip,
      matrix: () => this.m,
      pointed: this.pointed,
      pointer: (e) => this.pointer(e),
      activate: (i, j) => this.cb.onActivate?.(i, j),
      zoomBy: (f, px, py) => this.zoomBy(f, px, py),
      fit: () => this.fit(),
      announce: (text) => (this.live.textContent = text),
      invalidate: () => this.invalidate(),
    });
    this.followWidth(this.el, () => this.layout(false));
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
    if (this.m) {
      this.gutters = measureGutters(this.ctx, this.m, p);
      this.layout(false);
    }
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
    if (this.m) this.views.set(key(this.m), this.vp.view);
    const sameShape = this.m !== undefined && key(this.m) === key(m);
    this.m = m;
    this.vp.view = this.views.get(key(m)) ?? { z: 1, ox: 0, oy: 0 };
    this.vp.rows = m.rows;
    this.vp.cols = m.cols;
    this.vp.perColumnScale = m.perColumnScale === true;
    this.canvas.setAttribute('aria-label', `${m.name}: ${m.rows} × ${m.cols} heatmap. Arrow keys move between cells, plus and minus zoom, 0 fits, Enter selects the row's constraint.`);
    this.pointed.cursor.i = Math.min(this.pointed.cursor.i, Math.max(0, m.rows - 1));
    this.pointed.cursor.j = Math.min(this.pointed.cursor.j, Math.max(0, m.cols - 1));
    if (this.pal) this.gutters = measureGutters(this.ctx, m, this.pal);
    this.layout(!sameShape);
    this.drawLegend();
  }

  zoomBy(f: number, px?: number, py?: number): void {
    if (!this.m) return;
    this.vp.zoomBy(f, px, py);
    this.invalidate();
  }

  fit(): void {
    this.vp.fit();
    this.invalidate();
  }

  /** The visible block (for copying large matrices). */
  visibleRange(): CellRange {
    return this.vp.visibleRange();
  }

  /** Bring row i (and column j) into view and put the keyboard cursor there. */
  reveal(i: number, j?: number): void {
    const m = this.m;
    if (!m || i < 0 || i >= m.rows) return;
    const cursor = { i, j: j ?? this.pointed.cursor.j };
    this.pointed.cursor = cursor;
    this.vp.ensureVisible(cursor.i, cursor.j);
    this.invalidate();
  }

  private layout(refit: boolean): void {
    if (!this.m) return;
    this.vp.L = this.gutters.L;
    this.vp.T = this.gutters.T;
    this.vp.layout(this.el.clientWidth, refit);
    if (this.setSize(this.vp.W, this.vp.H)) this.raster.reset();
    this.invalidate();
  }

  private drawLegend(): void {
    if (this.pal && this.lut) this.legend.draw(this.m, this.pal, this.lut, this.log);
  }

  protected draw(): void {
    const m = this.m;
    const p = this.pal;
    const lut = this.lut;
    if (!m || !p || !lut) return;
    const t0 = performance.now();
    const ctx = this.ctx;
    const vp = this.vp;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = p.bg;
    ctx.fillRect(0, 0, this.canvas.width, this.canvas.height);
    this.raster.draw(ctx, m, vp, this.dpr, p, lut, this.log);
    ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    drawGridAndBlocks(ctx, m, vp, p);
    const values = drawValues(ctx, m, vp, p, lut, this.log);
    drawHighlights(ctx, m, vp, p, this.sel, this.pointed.hover, document.activeElement === this.canvas ? this.pointed.cursor : undefined);
    drawLabels(ctx, m, vp, this.gutters, p);
    this.lastDrawMs = performance.now() - t0;
    // Geometry and what was printed, for tests and tools: plot origin/size (CSS px), cell size/offset.
    const { sx, sy } = vp.scale();
    const d = this.canvas.dataset;
    d.renderMs = this.lastDrawMs.toFixed(1);
    d.plot = [vp.L, vp.T, vp.plotW(), vp.plotH()].map((x) => Math.round(x * 100) / 100).join(',');
    d.view = [sx, sy, vp.view.ox, vp.view.oy].join(',');
    d.matrix = m.id;
    d.values = `${values.printed}/${values.nonZero},${values.zeros}`;
    // The outlined selection: half-open row and column ranges, `rows|cols` as `a-b a-b`.
    d.selection = [this.sel.rows, this.sel.cols].map((r) => r.map(([a, b]) => `${a}-${b}`).join(' ')).join('|');
  }
}

const key = (m: MatrixSource): string => `${m.id}:${m.rows}x${m.cols}`;
