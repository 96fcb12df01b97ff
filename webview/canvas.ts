// The plumbing every canvas view shares (the heatmap, the scene view): sizing for the device
// pixel ratio, following the container's width with a ResizeObserver, and redraws coalesced into
// one animation frame (the frame being rendered, when a card invalidates while rendering: frame.ts).
import { onNextFrame } from './frame';

/**
 * The 2D context of `canvas`, drawn by the CPU (`willReadFrequently`), made before anyone else asks
 * for one (chart.js asks for it again and gets this one). The panel's 2D canvases are small and
 * redrawn with every update of a run; on a GPU-accelerated canvas each redraw is work for the GPU
 * process, and where that process is a software renderer sharing a loaded machine (SwiftShader in
 * VS Code on a headless or GPU-less host) a frame of the page's sixteen canvases stalled the
 * panel for 5–15 s, so its acknowledgements, and with them the run's updates, came that late.
 */
export function cpuCanvas(canvas: HTMLCanvasElement, options?: CanvasRenderingContext2DSettings): HTMLCanvasElement {
  canvas.getContext('2d', { ...options, willReadFrequently: true });
  return canvas;
}

export abstract class CanvasView {
  readonly canvas: HTMLCanvasElement;
  protected readonly ctx: CanvasRenderingContext2D;
  /** Canvas size (CSS px) and the device pixel ratio its backing store was sized for. */
  protected cssWidth = 0;
  protected cssHeight = 0;
  protected dpr = 1;
  private cancelDraw: (() => void) | undefined;

  constructor(canvas: HTMLCanvasElement, ctxOptions?: CanvasRenderingContext2DSettings) {
    this.canvas = canvas;
    this.ctx = cpuCanvas(canvas, ctxOptions).getContext('2d')!;
  }

  /** Draws the whole view (called at most once per frame). */
  protected abstract draw(): void;

  /**
   * Calls `onWidth(width)` one frame after `el`'s width changes. Only the width: the views choose
   * their height from their content, so observing it would loop.
   */
  protected followWidth(el: HTMLElement, onWidth: (width: number) => void): void {
    let last = -1;
    new ResizeObserver(() => {
      const w = Math.floor(el.clientWidth);
      if (w === last) return;
      last = w;
      requestAnimationFrame(() => onWidth(w));
    }).observe(el);
  }

  /** Sizes the canvas to w × h CSS px at the current device pixel ratio; true when that changed anything. */
  protected setSize(w: number, h: number): boolean {
    const dpr = window.devicePixelRatio || 1;
    if (w === this.cssWidth && h === this.cssHeight && dpr === this.dpr) return false;
    this.cssWidth = w;
    this.cssHeight = h;
    this.dpr = dpr;
    this.canvas.width = Math.round(w * dpr);
    this.canvas.height = Math.round(h * dpr);
    this.canvas.style.width = `${w}px`;
    this.canvas.style.height = `${h}px`;
    return true;
  }

  /** Schedules a redraw on the next animation frame (several calls, one draw). */
  invalidate(): void {
    if (this.cancelDraw) return;
    this.cancelDraw = onNextFrame(() => {
      this.cancelDraw = undefined;
      this.draw();
    });
  }

  /** Draws synchronously (tests, screenshots). */
  drawNow(): void {
    this.cancelDraw?.();
    this.cancelDraw = undefined;
    this.draw();
  }

  /** A mouse event's position in CSS px of the canvas. */
  protected pointer(e: MouseEvent): { x: number; y: number } {
    const r = this.canvas.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  }
}
