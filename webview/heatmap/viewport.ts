// The heatmap's geometry, pure: plot area inside the label gutters, fit scale, zoom and pan, and
// the transforms between cells and CSS pixels of the canvas. No DOM (tested in Node).

/** Largest cell edge (CSS px) at fit. */
export const MAX_CELL = 56;
/** Margin right of and below the plot. */
export const PAD = 8;

export interface View {
  /** Zoom relative to fit (≥ 1). */
  z: number;
  /** First visible column (fractional). */
  ox: number;
  /** First visible row (fractional). */
  oy: number;
}

export interface Cell {
  i: number;
  j: number;
}

/** Half-open block of cells: rows i0 … i1-1, columns j0 … j1-1. */
export interface CellRange {
  i0: number;
  i1: number;
  j0: number;
  j1: number;
}

export interface HeatmapSelection {
  /** Half-open row ranges to outline (selected constraint). */
  rows: [number, number][];
  /** Half-open column ranges to outline. */
  cols: [number, number][];
}

export class Viewport {
  /** Canvas size (CSS px). */
  W = 300;
  H = 200;
  /** Row-label gutter width and column-label gutter height (CSS px). */
  L = 60;
  T = 40;
  rows = 0;
  cols = 0;
  /** Vector tables: wide, short cells (each column has its own colour scale). */
  perColumnScale = false;
  /** Cell size (CSS px) at zoom 1. */
  fitSx = 10;
  fitSy = 10;
  view: View = { z: 1, ox: 0, oy: 0 };

  plotW(): number {
    return Math.max(10, this.W - this.L - PAD);
  }
  plotH(): number {
    return Math.max(10, this.H - this.T - PAD);
  }
  /** Cell size (CSS px) at the current zoom. */
  scale(): { sx: number; sy: number } {
    return { sx: this.fitSx * this.view.z, sy: this.fitSy * this.view.z };
  }
  /** Most zoom: cells up to 160 px. */
  zmax(): number {
    return Math.max(1, 160 / Math.min(this.fitSx, this.fitSy));
  }

  /**
   * Lays the matrix out in a canvas `width` wide: the height follows the matrix (square cells up
   * to MAX_CELL, 150–560 px), the fit scale fills the plot. `refit` resets zoom and pan.
   */
  layout(width: number, refit: boolean): void {
    const W = Math.max(200, Math.floor(width || 600));
    const pw = W - this.L - PAD;
    const idealCell = this.perColumnScale ? 22 : Math.min(MAX_CELL, pw / Math.max(1, this.cols));
    this.W = W;
    this.H = Math.round(Math.max(150, Math.min(560, this.T + PAD + this.rows * idealCell)));
    const ph = this.plotH();
    let fsx = pw / Math.max(1, this.cols);
    let fsy = ph / Math.max(1, this.rows);
    if (this.perColumnScale) {
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
    this.clamp();
  }

  /** Keeps the view inside the matrix (no panning past its last row or column). */
  clamp(): void {
    const { sx, sy } = this.scale();
    const maxOx = Math.max(0, this.cols - this.plotW() / sx);
    const maxOy = Math.max(0, this.rows - this.plotH() / sy);
    this.view.ox = Math.min(maxOx, Math.max(0, this.view.ox));
    this.view.oy = Math.min(maxOy, Math.max(0, this.view.oy));
  }

  /** Zoom by `f` about a point of the plot (plot px; default its centre), which stays put. */
  zoomBy(f: number, px = this.plotW() / 2, py = this.plotH() / 2): void {
    const { sx, sy } = this.scale();
    const cellX = this.view.ox + px / sx;
    const cellY = this.view.oy + py / sy;
    this.view.z = Math.min(this.zmax(), Math.max(1, this.view.z * f));
    const s2 = this.scale();
    this.view.ox = cellX - px / s2.sx;
    this.view.oy = cellY - py / s2.sy;
    this.clamp();
  }

  fit(): void {
    this.view = { z: 1, ox: 0, oy: 0 };
  }

  /** Pan so that the view starts at (ox, oy) moved by (dx, dy) CSS px (a drag from there). */
  dragFrom(ox: number, oy: number, dx: number, dy: number): void {
    const { sx, sy } = this.scale();
    this.view.ox = ox - dx / sx;
    this.view.oy = oy - dy / sy;
    this.clamp();
  }

  /** The cells (partly) visible. */
  visibleRange(): CellRange {
    const { sx, sy } = this.scale();
    const { ox, oy } = this.view;
    return {
      i0: Math.max(0, Math.floor(oy)),
      i1: Math.min(this.rows, Math.ceil(oy + this.plotH() / sy)),
      j0: Math.max(0, Math.floor(ox)),
      j1: Math.min(this.cols, Math.ceil(ox + this.plotW() / sx)),
    };
  }

  /** Pans the least needed to show cell (i, j) whole. */
  ensureVisible(i: number, j: number): void {
    const { sx, sy } = this.scale();
    const vw = this.plotW() / sx;
    const vh = this.plotH() / sy;
    if (i < this.view.oy) this.view.oy = i;
    if (i + 1 > this.view.oy + vh) this.view.oy = i + 1 - vh;
    if (j < this.view.ox) this.view.ox = j;
    if (j + 1 > this.view.ox + vw) this.view.ox = j + 1 - vw;
    this.clamp();
  }

  /** The cell under canvas point (x, y) (CSS px), if any. */
  cellAt(x: number, y: number): Cell | undefined {
    if (x < this.L || y < this.T) return undefined;
    const { sx, sy } = this.scale();
    const j = Math.floor(this.view.ox + (x - this.L) / sx);
    const i = Math.floor(this.view.oy + (y - this.T) / sy);
    if (i < 0 || j < 0 || i >= this.rows || j >= this.cols) return undefined;
    return { i, j };
  }
  /** The row whose label is under (x, y), if the point is in the row gutter. */
  rowAtGutter(x: number, y: number): number | undefined {
    if (x >= this.L || y < this.T) return undefined;
    const i = Math.floor(this.view.oy + (y - this.T) / this.scale().sy);
    return i >= 0 && i < this.rows ? i : undefined;
  }
  /** The column whose label is under (x, y), if the point is in the column gutter. */
  colAtGutter(x: number, y: number): number | undefined {
    if (y >= this.T || x < this.L) return undefined;
    const j = Math.floor(this.view.ox + (x - this.L) / this.scale().sx);
    return j >= 0 && j < this.cols ? j : undefined;
  }

  /** Centre of cell (i, j) in canvas CSS px. */
  cellCentre(i: number, j: number): { x: number; y: number } {
    const { sx, sy } = this.scale();
    return { x: this.L + (j - this.view.ox + 0.5) * sx, y: this.T + (i - this.view.oy + 0.5) * sy };
  }
  /** Rows a … b-1 as [top, height] in canvas CSS px. */
  rowRect(a: number, b: number): [number, number] {
    return [this.T + (a - this.view.oy) * this.scale().sy, (b - a) * this.scale().sy];
  }
  /** Columns a … b-1 as [left, width] in canvas CSS px. */
  colRect(a: number, b: number): [number, number] {
    return [this.L + (a - this.view.ox) * this.scale().sx, (b - a) * this.scale().sx];
  }
  /** Width and height of the drawn part of the matrix (the plot, or less when the matrix ends). */
  matrixExtent(): { pw: number; ph: number } {
    const { sx, sy } = this.scale();
    return { pw: Math.min(this.plotW(), (this.cols - this.view.ox) * sx), ph: Math.min(this.plotH(), (this.rows - this.view.oy) * sy) };
  }
}

type KeyAction = { kind: 'move'; i: number; j: number } | { kind: 'zoom'; factor: number } | { kind: 'fit' } | { kind: 'activate'; i: number; j: number } | { kind: 'dismiss' };

/**
 * What a key does on the focused heatmap with the cursor at `cursor`: arrows move a cell (Shift: a
 * page of rows, or 6 columns = one body), PageUp/Down a page, Home/End to the row's ends (Ctrl:
 * the matrix's), + / − zoom, 0 fits, Enter / Space activate, Escape dismisses the tooltip.
 * Moves are clamped to the matrix. Undefined: not a heatmap key.
 */
export function keyAction(key: string, mods: { shift: boolean; ctrl: boolean }, cursor: Cell, page: number, rows: number, cols: number): KeyAction | undefined {
  let { i, j } = cursor;
  switch (key) {
    case 'ArrowUp':
      i -= mods.shift ? page : 1;
      break;
    case 'ArrowDown':
      i += mods.shift ? page : 1;
      break;
    case 'ArrowLeft':
      j -= mods.shift ? 6 : 1;
      break;
    case 'ArrowRight':
      j += mods.shift ? 6 : 1;
      break;
    case 'PageUp':
      i -= page;
      break;
    case 'PageDown':
      i += page;
      break;
    case 'Home':
      j = 0;
      if (mods.ctrl) i = 0;
      break;
    case 'End':
      j = cols - 1;
      if (mods.ctrl) i = rows - 1;
      break;
    case '+':
    case '=':
      return { kind: 'zoom', factor: 1.5 };
    case '-':
    case '_':
      return { kind: 'zoom', factor: 1 / 1.5 };
    case '0':
      return { kind: 'fit' };
    case 'Enter':
    case ' ':
      return { kind: 'activate', i, j };
    case 'Escape':
      return { kind: 'dismiss' };
    default:
      return undefined;
  }
  return { kind: 'move', i: Math.max(0, Math.min(rows - 1, i)), j: Math.max(0, Math.min(cols - 1, j)) };
}
