// The step on screen: the store's step once a frame has been produced with it. Applying a run's
// update on a loaded page can take hundreds of milliseconds, and a click queued behind it is
// handled before the next frame, so the store's step can be one the user never saw; Pause names
// this one instead. A frame's animation callbacks run after its input events, so a step set there
// is the one that frame paints.
import type { Store } from './store';

/** What is needed of the window: its animation frames. */
export interface FrameSource {
  requestAnimationFrame(f: (t: number) => void): number;
}

export function paintedStep(store: Store, win: FrameSource = globalThis as unknown as FrameSource): () => number {
  let painted = store.getState().step;
  store.watch(
    (s) => s.step,
    (step) => {
      // several changes within one frame: only the last is painted
      win.requestAnimationFrame(() => {
        if (store.getState().step === step) painted = step;
      });
    },
  );
  return () => painted;
}
