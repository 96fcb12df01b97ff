// What the page holds outside its JavaScript heap (the 3D view's WebGL context, the charts' canvases,
// resize observers and animations) is released when the page goes away (`pagehide`: a reload, the
// webview disposed or hidden with retainContextWhenHidden off), not left to the browser's teardown
// of the page, which runs on the clock of the page that replaces it. A page kept in the
// back/forward cache (`persisted`) may come back: nothing is released then.

const releases = new Set<() => void>();
let installed = false;

/** Runs `release` once when the page goes away. Returns a function that unregisters it (the part was disposed earlier). */
export function onPageHide(release: () => void): () => void {
  if (!installed && typeof addEventListener === 'function') {
    installed = true;
    addEventListener('pagehide', (e) => {
      if ((e as PageTransitionEvent).persisted) return;
      releaseAll();
    });
  }
  releases.add(release);
  return () => releases.delete(release);
}

/** Releases everything registered (what `pagehide` does), each once; one failing does not stop the others. */
function releaseAll(): void {
  const all = [...releases];
  releases.clear();
  for (const r of all) {
    try {
      r();
    } catch (e) {
      console.error(`Constraint Lens: releasing a part of the panel failed (${e instanceof Error ? e.message : String(e)})`);
    }
  }
  document.body.dataset.clReleased = String(all.length);
}
