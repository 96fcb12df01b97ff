// The standalone test page of the 3D view: bundled by the browser test (esbuild, in memory) and
// loaded under the panel's CSP. With an embedded model (#cl-model, report-style) it shows it at
// once; otherwise it exposes `window.cl3d` for the tests and the bench.
import { SceneView3D, type Selection3D } from '../../../webview/scene3d';
import type { ArrowSpec } from '../../../webview/scene3d/arrowLayout';
import { decodeFromJson, type PanelModel } from '../../../src/protocol';

export interface Api {
  create(modelJson: string, opts?: { step?: number; forces?: 'all' | 'selected' | 'off'; trail?: 'off' | 'selected' | 'all'; preset?: 'XY' | 'XZ' | 'YZ' | 'persp'; antialias?: boolean; axes?: boolean }): { available: boolean; firstPaintMs?: number };
  setStep(k: number): void;
  setHistory(historyJson: string, k: number): void;
  /** WEBGL_lose_context: lose (true) or restore (false) the view's context. */
  loseContext(lose: boolean): void;
  select(sel: Selection3D): void;
  selections: Selection3D[];
  screen(sel: Selection3D): { x: number; y: number } | undefined;
  /** Renders synchronously and reads the canvas pixel at CSS (x, y) (top-left origin). */
  pixel(x: number, y: number): [number, number, number];
  /** Renders synchronously and reads a w × h block of canvas pixels from CSS (x, y): RGB triples, row by row from the top. */
  region(x: number, y: number, w: number, h: number): number[];
  /** CSS pixel position of a world point. */
  project(p: [number, number, number]): { x: number; y: number } | undefined;
  /**
   * First paint of a new view (the model decoded beforehand, as the panel holds it): `jsMs` is the
   * view's own figure (constructor → render call returned), `pixelsMs` until the GPU has drawn it
   * (a 1-pixel readPixels waits for it), `frameMs` until the browser has shown the next frame.
   */
  paint(modelJson: string, opts?: { preset?: 'XY' | 'XZ' | 'YZ' | 'persp' }): Promise<{ jsMs: number; pixelsMs: number; frameMs: number; available: boolean }>;
  /** `n` orbit steps, each rendered and waited for (readPixels): the cost of a frame, GPU (or SwiftShader) work included. */
  orbitFinish(n: number): { msPerFrame: number };
  /** Orbits for `ms` milliseconds, one step per animation frame (see the implementation). */
  orbitFps(ms: number): Promise<{ fps: number; frames: number; cpuMs: number }>;
  /** `arrows`: the contact arrows of the shown step as laid out (origin, vector, shaft radius). */
  info(): { calls: number; triangles: number; arrows: readonly ArrowSpec[]; available: boolean; selection: Selection3D; selectionText: string; gl: { renderer: string; software: boolean; antialias: boolean } };
  theme(): void;
  dispose(): void;
}

declare global {
  interface Window {
    cl3d: Api;
  }
}

let view: SceneView3D | undefined;
let loseExt: WEBGL_lose_context | undefined;
const host = document.getElementById('app')!;
host.textContent = '';

/** Reads one pixel of the view's canvas without rendering: returns once the GPU has drawn what was submitted. */
function waitForGpu(): void {
  const gl = view!.canvas.getContext('webgl2')!;
  gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
}

const api: Api = {
  selections: [],
  create(text, opts = {}) {
    view?.dispose();
    const model = decodeFromJson<PanelModel>(text);
    view = new SceneView3D(host, { onSelect: (s) => api.selections.push(s), forces: opts.forces, trail: opts.trail, preset: opts.preset, antialias: opts.antialias, axes: opts.axes });
    view.setModel(model);
    if (opts.step !== undefined) view.setStep(opts.step);
    view.renderNow();
    return { available: view.available, firstPaintMs: view.firstPaintMs };
  },
  setStep: (k) => {
    view!.setStep(k);
    view!.renderNow();
  },
  setHistory: (text, k) => {
    view!.setHistory(decodeFromJson<PanelModel['history']>(text), k);
    view!.renderNow();
  },
  loseContext: (lose) => {
    // The extension object must be kept: a lost context returns null for getExtension.
    if (lose) {
      loseExt = view!.canvas.getContext('webgl2')!.getExtension('WEBGL_lose_context')!;
      loseExt.loseContext();
    } else loseExt?.restoreContext();
  },
  select: (s) => {
    view!.select(s);
    view!.renderNow();
  },
  screen: (s) => view!.screenPosition(s),
  pixel(x, y) {
    view!.renderNow();
    const c = view!.canvas;
    const gl = c.getContext('webgl2')!;
    const k = c.width / c.clientWidth;
    const out = new Uint8Array(4);
    gl.readPixels(Math.round(x * k), Math.round(c.height - 1 - y * k), 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, out);
    return [out[0], out[1], out[2]];
  },
  region(x, y, w, h) {
    view!.renderNow();
    const c = view!.canvas;
    const gl = c.getContext('webgl2')!;
    const k = c.width / c.clientWidth;
    const [X, Y, W, H] = [Math.round(x * k), Math.round(c.height - (y + h) * k), Math.round(w * k), Math.round(h * k)];
    const buf = new Uint8Array(W * H * 4);
    gl.readPixels(X, Y, W, H, gl.RGBA, gl.UNSIGNED_BYTE, buf);
    const out: number[] = [];
    for (let r = H - 1; r >= 0; r--) for (let q = 0; q < W; q++) out.push(buf[(r * W + q) * 4], buf[(r * W + q) * 4 + 1], buf[(r * W + q) * 4 + 2]);
    return out;
  },
  project: (p) => view!.project(p),
  paint(text, opts = {}) {
    view?.dispose();
    const model = decodeFromJson<PanelModel>(text);
    const t0 = performance.now();
    view = new SceneView3D(host, { onSelect: (sel) => api.selections.push(sel), preset: opts.preset });
    view.setModel(model);
    const jsMs = view.firstPaintMs ?? NaN;
    const available = view.available;
    if (available) waitForGpu();
    const pixelsMs = performance.now() - t0;
    return new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve({ jsMs, pixelsMs, frameMs: performance.now() - t0, available }))));
  },
  orbitFinish(n) {
    const v = view!;
    const t0 = performance.now();
    for (let i = 0; i < n; i++) {
      v.orbitBy(0.01, 0);
      v.renderNow();
      waitForGpu();
    }
    return { msPerFrame: (performance.now() - t0) / n };
  },
  orbitFps(ms) {
    // One orbit step per animation frame, as a user drags: the frame rate, and the main thread's
    // time per frame (orbit + three's render call + overlay: what a GPU leaves to the CPU).
    const v = view!;
    return new Promise((resolve) => {
      let frames = 0;
      let busy = 0;
      const t0 = performance.now();
      const tick = (): void => {
        const a = performance.now();
        v.orbitBy(0.01, 0);
        v.renderNow();
        busy += performance.now() - a;
        frames++;
        const t = performance.now() - t0;
        if (t < ms) requestAnimationFrame(tick);
        else resolve({ fps: (frames * 1000) / t, frames, cpuMs: busy / frames });
      };
      requestAnimationFrame(tick);
    });
  },
  info: () => ({ ...view!.info, available: view!.available, selection: view!.selection, selectionText: view!.selectionText, gl: view!.glInfo }),
  theme: () => view!.setTheme(),
  dispose: () => {
    view?.dispose();
    view = undefined;
  },
};
window.cl3d = api;

const embedded = document.getElementById('cl-model');
if (embedded?.textContent) api.create(embedded.textContent);
document.body.dataset.clReady = '1';
