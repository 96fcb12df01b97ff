// Work the inspector's first paint does not need: run after the first frame painted with a model,
// for an element on screen then, else when it scrolls into view or the page is idle. The first
// paint draws the title, the numbers and the heatmap; the 3D view and the history charts follow
// in tasks of their own (bench/ui: they cost more than everything else on a first paint).

/** Most time (ms) an off-screen part waits for an idle period before it is built anyway. */
const IDLE_TIMEOUT_MS = 1000;

/**
 * Returns a function that schedules `fn` once (later calls do nothing): in the task after the next
 * frame when `el` is then on screen, else when it becomes visible or the page is idle. A hidden
 * page paints no frame: `fn` waits until the page is shown.
 */
export function afterFirstPaint(el: HTMLElement, fn: () => void): () => void {
  let scheduled = false;
  return () => {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(() =>
      setTimeout(() => {
        if (onScreen(el)) {
          fn();
          return;
        }
        let done = false;
        const once = (): void => {
          if (done) return;
          done = true;
          io.disconnect();
          fn();
        };
        const io = new IntersectionObserver((es) => es.some((e) => e.isIntersecting) && once());
        io.observe(el);
        if (typeof requestIdleCallback === 'function') requestIdleCallback(once, { timeout: IDLE_TIMEOUT_MS });
        else setTimeout(once, IDLE_TIMEOUT_MS);
      }, 0),
    );
  };
}

function onScreen(el: HTMLElement): boolean {
  const r = el.getBoundingClientRect();
  return r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth && r.width > 0;
}
