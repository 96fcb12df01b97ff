// In-page instrumentation for `npm run bench:ui`, as script text (tsx would wrap nested functions
// in a `__name` helper the page lacks, as the browser-test harness notes). It only uses what any
// page exposes: the window `message` event, DOM mutations, the 2D canvas API, animation frames,
// and synthetic click / wheel / mouse events. The panel's own modules are never touched, so the
// measurements survive a restructuring of the panel as long as these stay true:
//   - the scene name appears in an <h1>;
//   - the matrix heatmap is a <canvas> matching HEATMAP_SELECTORS (else the largest canvas is used);
//   - matrix tabs are [role="tab"] elements whose text starts with the matrix name (e.g. "J600×1200");
//   - the heatmap zooms on wheel and pans on mouse drag.
//
// "Painted" is the end of the first animation frame (a task posted from requestAnimationFrame,
// which runs after that frame's main-thread paint) at which the condition holds; "settled" is the
// end of the last frame with any canvas drawing or DOM change before 5 quiet frames.

/** Where the heatmap canvas is, most specific first (accessible description, then class). */
export const HEATMAP_SELECTORS = ['canvas[aria-roledescription="matrix heatmap"]', 'canvas.cl-heatmap-canvas'];

/**
 * Installed before any page script (context init script): records when the host's model message
 * arrives, every 2D drawing call per canvas, DOM activity, and watches frames until the inspector
 * of `sceneName` is painted and settled.
 */
export function hooksScript(sceneName: string): string {
  return `(() => {
  if (window.__clBench) return;
  const SCENE = ${JSON.stringify(sceneName)};
  const SELECTORS = ${JSON.stringify(HEATMAP_SELECTORS)};
  const now = () => performance.now();
  const B = window.__clBench = { modelAt: null, paintedAt: null, settledAt: null, lastActivity: 0, error: null };
  window.addEventListener('message', (e) => {
    const d = e.data;
    const type = typeof d === 'string' ? (/^\\s*\\{\\s*"type"\\s*:\\s*"([A-Za-z]+)"/.exec(d.slice(0, 80)) || [])[1] : d && d.type;
    if (type === 'model' && B.modelAt === null) B.modelAt = now();
  }, true);
  const P = CanvasRenderingContext2D.prototype;
  for (const name of ['fillRect', 'putImageData', 'drawImage', 'fillText', 'fill', 'stroke']) {
    const f = P[name];
    P[name] = function () {
      const c = this.canvas;
      const t = now();
      c.__clDrawnAt = t;
      c.__clDraws = (c.__clDraws || 0) + 1;
      B.lastActivity = t;
      return f.apply(this, arguments);
    };
  }
  new MutationObserver(() => { B.lastActivity = now(); }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  B.heatmap = () => {
    for (const s of SELECTORS) { const c = document.querySelector(s); if (c) return c; }
    let best = null;
    for (const c of document.querySelectorAll('canvas')) if (!best || c.width * c.height > best.width * best.height) best = c;
    return best;
  };
  // Post-frame watcher: resolves { paintedAt, settledAt } once cond() held and 5 frames passed
  // quietly; rejects when cond() has not held within 120 s (a measurement must never hang).
  B.watch = (cond) => new Promise((resolve, reject) => {
    const ch = new MessageChannel();
    let painted = null, lastActiveEnd = 0, quiet = 0, lastCheck = now();
    const started = now();
    ch.port1.onmessage = () => {
      const t = now();
      if (painted === null && t - started > 120000) { ch.port1.close(); reject(new Error('bench:ui: the awaited drawing did not happen within 120 s')); return; }
      if (painted === null && cond()) { painted = t; lastActiveEnd = t; }
      else if (painted !== null) {
        if (B.lastActivity > lastCheck) { lastActiveEnd = t; quiet = 0; } else quiet++;
        if (quiet >= 5) { ch.port1.close(); resolve({ paintedAt: painted, settledAt: lastActiveEnd }); return; }
      }
      lastCheck = t;
      requestAnimationFrame(() => ch.port2.postMessage(0));
    };
    requestAnimationFrame(() => ch.port2.postMessage(0));
  });
  const inspectorPainted = () => {
    if (B.modelAt === null) return false;
    let titled = false;
    for (const h of document.querySelectorAll('h1')) if ((h.textContent || '').includes(SCENE)) titled = true;
    const hm = B.heatmap();
    return titled && !!hm && hm.width > 0 && (hm.__clDrawnAt || 0) > B.modelAt;
  };
  B.watch(inspectorPainted).then((r) => { B.paintedAt = r.paintedAt; B.settledAt = r.settledAt; });
})();`;
}

/**
 * Where a load's time went before the model arrived (ms since navigation start), from Navigation
 * and Resource Timing and the `ready` time the stub host records (test/browser/harness.ts):
 * html: the panel's HTML received; script: the first-paint bundle received (the first script
 * resource); evaluated: DOMContentLoaded started (the parser-blocking bundle has run by then);
 * ready: the page posted `ready`; answered: the stub host's answer (the model's text) reached the
 * page. null where the page does not have the figure.
 */
const PHASES_IN_PAGE = `() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const script = performance.getEntriesByType('resource').find((r) => r.initiatorType === 'script');
  const ready = typeof window.__clReadyPostedAt === 'number' ? window.__clReadyPostedAt : null;
  const answered = window.__clReadyAnswer ? window.__clReadyAnswer.at : null;
  return { html: nav ? nav.responseEnd : null, script: script ? script.responseEnd : null, evaluated: nav && nav.domContentLoadedEventStart > 0 ? nav.domContentLoadedEventStart : null, ready, answered };
}`;

/** Read the first-paint figures of the current load (ms since navigation start). */
export const READ_LOAD = `(() => { const B = window.__clBench; return B && B.settledAt !== null ? { modelAt: B.modelAt, paintedAt: B.paintedAt, settledAt: B.settledAt, phases: (${PHASES_IN_PAGE})() } : null; })()`;

/**
 * Click the matrix tab `name` (after clicking `other` and letting it settle, when `other` was
 * not already selected) and time until the
 * heatmap canvas has been drawn again: { ms, settledMs, renderMs? } (renderMs: the panel's own
 * figure when it publishes one as data-render-ms).
 */
export function tabSwitchScript(name: string, other: string): string {
  return `(async () => {
  const B = window.__clBench;
  const tab = (n) => {
    const re = new RegExp('^' + n.replace(/[.*+?^\${}()|[\\]\\\\]/g, '\\\\$&') + '(\\\\s|\\\\d|$)');
    for (const t of document.querySelectorAll('[role="tab"]')) if (re.test((t.textContent || '').trim())) return t;
    throw new Error('no [role="tab"] whose text starts with ' + n);
  };
  const hm = B.heatmap();
  if (!hm) throw new Error('no heatmap canvas');
  let t0 = performance.now();
  const first = tab(${JSON.stringify(other)});
  // a click on the tab already selected draws nothing: only wait for a redraw that will come
  const wasSelected = first.getAttribute('aria-selected') === 'true';
  first.click();
  if (!wasSelected) await B.watch(() => (hm.__clDrawnAt || 0) > t0);
  t0 = performance.now();
  tab(${JSON.stringify(name)}).click();
  const r = await B.watch(() => (hm.__clDrawnAt || 0) > t0);
  return { ms: r.paintedAt - t0, settledMs: r.settledAt - t0, renderMs: hm.dataset.renderMs !== undefined ? Number(hm.dataset.renderMs) : null };
})()`;
}

/** Animation frames per second of the page doing nothing else (the ceiling of the pan figure). */
export const IDLE_FPS = `new Promise((resolve) => {
  const ts = [];
  const f = (t) => { ts.push(t); if (ts.length > 60) resolve((ts.length - 1) / (ts[ts.length - 1] - ts[0]) * 1000); else requestAnimationFrame(f); };
  requestAnimationFrame(f);
})`;

/**
 * Zoom the heatmap in with `wheels` wheel events (deltaY −400 each) at the centre of its visible
 * part, then drag it around a circle of `radius` px for `frames` animation frames (one mousemove
 * per frame). Returns the frame rate, the frames in which the heatmap was redrawn, the longest
 * frame, and the panel's own render times if it publishes them.
 */
export function panScript(wheels: number, frames: number, radius: number): string {
  return `(async () => {
  const B = window.__clBench;
  const c = B.heatmap();
  if (!c) throw new Error('no heatmap canvas');
  c.scrollIntoView({ block: 'center' });
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const rect = c.getBoundingClientRect();
  const top = Math.max(rect.top, 0), bottom = Math.min(rect.bottom, innerHeight);
  const left = Math.max(rect.left, 0), right = Math.min(rect.right, innerWidth);
  // the centre of the visible part, nudged right/down off the label gutters
  const cx = left + 0.6 * (right - left), cy = top + 0.6 * (bottom - top);
  const ev = (type, x, y, extra) => Object.assign({ bubbles: true, cancelable: true, clientX: x, clientY: y, view: window }, extra);
  let t0 = performance.now();
  for (let k = 0; k < ${wheels}; k++) c.dispatchEvent(new WheelEvent('wheel', ev('wheel', cx, cy, { deltaY: -400, deltaMode: 0 })));
  await B.watch(() => (c.__clDrawnAt || 0) > t0);
  c.dispatchEvent(new MouseEvent('mousedown', ev('mousedown', cx, cy, { button: 0, buttons: 1 })));
  const ts = [], render = [];
  let drawn = 0, lastT = performance.now();
  await new Promise((resolve) => {
    let k = 0;
    const frame = (t) => {
      ts.push(t);
      if ((c.__clDrawnAt || 0) > lastT) drawn++;
      lastT = performance.now();
      if (c.dataset.renderMs !== undefined) render.push(Number(c.dataset.renderMs));
      if (k > ${frames}) { resolve(); return; }
      const th = (2 * Math.PI * k) / 90;
      const x = cx + ${radius} * (Math.cos(th) - 1) + (k ? 0 : 5), y = cy + ${radius} * Math.sin(th);
      c.dispatchEvent(new MouseEvent('mousemove', ev('mousemove', x, y, { button: 0, buttons: 1 })));
      k++;
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
  c.dispatchEvent(new MouseEvent('mouseup', ev('mouseup', cx, cy, { button: 0, buttons: 0 })));
  let longest = 0;
  for (let i = 1; i < ts.length; i++) longest = Math.max(longest, ts[i] - ts[i - 1]);
  render.sort((a, b) => a - b);
  return {
    fps: ((ts.length - 1) / (ts[ts.length - 1] - ts[0])) * 1000,
    frames: ts.length - 1,
    redrawnFrames: drawn,
    longestFrameMs: longest,
    renderMedianMs: render.length ? render[render.length >> 1] : null,
    view: c.dataset.view || null,
  };
})()`;
}
