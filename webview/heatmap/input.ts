// The heatmap's input: hover tooltips, drag to pan, click / Enter to activate a row, wheel and
// keys to zoom, arrow keys to move a cursor cell (announced to screen readers).
import type { MatrixSource } from '../matrix';
import { describeCell, describeCol, describeRow, type Tooltip } from './tooltip';
import { keyAction, type Cell, type Viewport } from './viewport';

interface HeatmapInputHost {
  readonly canvas: HTMLCanvasElement;
  readonly vp: Viewport;
  readonly tooltip: Tooltip;
  matrix(): MatrixSource | undefined;
  /** Hovered cell and keyboard cursor (shared with the overlays). */
  readonly pointed: { hover: Cell | undefined; cursor: Cell };
  pointer(e: MouseEvent): { x: number; y: number };
  activate(row: number, col: number): void;
  zoomBy(f: number, px?: number, py?: number): void;
  fit(): void;
  announce(text: string): void;
  invalidate(): void;
}

export function bindHeatmapInput(host: HeatmapInputHost): void {
  const c = host.canvas;
  const vp = host.vp;
  let drag: { x: number; y: number; ox: number; oy: number; moved: boolean } | undefined;
  const tip = (x: number, y: number, content: Parameters<Tooltip['show']>[2]): void => host.tooltip.show(x, y, content, vp.W, vp.H);

  c.addEventListener('mousemove', (e) => {
    const m = host.matrix();
    if (!m) return;
    const { x, y } = host.pointer(e);
    if (drag) {
      const dx = x - drag.x;
      const dy = y - drag.y;
      if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
      if (drag.moved) {
        vp.dragFrom(drag.ox, drag.oy, dx, dy);
        host.tooltip.hide();
        host.invalidate();
        return;
      }
    }
    const cell = vp.cellAt(x, y);
    const prev = host.pointed.hover;
    host.pointed.hover = cell;
    if (cell) {
      tip(x, y, describeCell(m, cell.i, cell.j));
      c.style.cursor = 'crosshair';
    } else {
      const r = vp.rowAtGutter(x, y);
      const col = vp.colAtGutter(x, y);
      if (r !== undefined) {
        tip(x, y, describeRow(m, r));
        c.style.cursor = m.rowConstraint ? 'pointer' : 'default';
      } else if (col !== undefined) {
        tip(x, y, describeCol(m, col));
        c.style.cursor = 'default';
      } else {
        host.tooltip.hide();
        c.style.cursor = 'default';
      }
    }
    if (prev?.i !== cell?.i || prev?.j !== cell?.j) host.invalidate();
  });
  c.addEventListener('mouseleave', () => {
    host.pointed.hover = undefined;
    drag = undefined;
    host.tooltip.hide();
    host.invalidate();
  });
  c.addEventListener('mousedown', (e) => {
    if (e.button !== 0) return;
    const { x, y } = host.pointer(e);
    drag = { x, y, ox: vp.view.ox, oy: vp.view.oy, moved: false };
  });
  c.addEventListener('mouseup', (e) => {
    const d = drag;
    drag = undefined;
    if (!d || d.moved || !host.matrix()) return;
    const { x, y } = host.pointer(e);
    const cell = vp.cellAt(x, y);
    if (cell) {
      host.pointed.cursor = { ...cell };
      host.activate(cell.i, cell.j);
      host.invalidate();
      return;
    }
    const r = vp.rowAtGutter(x, y);
    if (r !== undefined) host.activate(r, -1);
  });
  c.addEventListener('dblclick', () => host.fit());
  c.addEventListener(
    'wheel',
    (e) => {
      if (!host.matrix()) return;
      const { x, y } = host.pointer(e);
      if (x < vp.L || y < vp.T) return;
      const f = Math.exp(-e.deltaY * (e.deltaMode === 1 ? 0.05 : 0.0018));
      // At fit, scrolling out lets the page scroll instead of being swallowed.
      if (f < 1 && vp.view.z <= 1.0001) return;
      e.preventDefault();
      host.zoomBy(f, x - vp.L, y - vp.T);
    },
    { passive: false },
  );
  c.addEventListener('focus', () => host.invalidate());
  c.addEventListener('blur', () => {
    host.tooltip.hide();
    host.invalidate();
  });
  c.addEventListener('keydown', (e) => onKey(host, e));
}

function onKey(host: HeatmapInputHost, e: KeyboardEvent): void {
  const m = host.matrix();
  if (!m) return;
  const vp = host.vp;
  const page = Math.max(1, Math.floor(vp.plotH() / vp.scale().sy) - 1);
  // A cursor scrolled out of view (after zoom/pan with the mouse) restarts at the view's corner.
  const r = vp.visibleRange();
  const cur = host.pointed.cursor;
  if (cur.i < r.i0 || cur.i >= r.i1 || cur.j < r.j0 || cur.j >= r.j1) {
    host.pointed.cursor = { i: Math.min(m.rows - 1, Math.ceil(vp.view.oy)), j: Math.min(m.cols - 1, Math.ceil(vp.view.ox)) };
  }
  const a = keyAction(e.key, { shift: e.shiftKey, ctrl: e.ctrlKey }, host.pointed.cursor, page, m.rows, m.cols);
  if (!a) return;
  e.preventDefault();
  if (a.kind === 'zoom') host.zoomBy(a.factor);
  else if (a.kind === 'fit') host.fit();
  else if (a.kind === 'activate') host.activate(a.i, a.j);
  else if (a.kind === 'dismiss') host.tooltip.hide();
  else if (a.i !== host.pointed.cursor.i || a.j !== host.pointed.cursor.j) {
    host.pointed.cursor = { i: a.i, j: a.j };
    vp.ensureVisible(a.i, a.j);
    const d = describeCell(m, a.i, a.j);
    host.announce(`${d.lines[0][1]}, ${d.lines[1][1]}: ${d.lines[2][1]}`);
    const { sx, sy } = vp.scale();
    host.tooltip.show(vp.L + (a.j - vp.view.ox + 1) * sx, vp.T + (a.i - vp.view.oy + 1) * sy, d, vp.W, vp.H);
  }
  host.invalidate();
}
