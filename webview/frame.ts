// One truth per frame: the cards render the run from a copy of the store's state taken once per
// animation frame, all in that frame's callback (header step and time, κ, the charts' cursor, the
// forces, the matrices, the 3D pose), and that copy's step is the one Pause names. Before this the
// cards rendered on every dispatch while a separate callback recorded which step a frame had
// painted; under load the header's text ran hundreds of steps ahead of the step recorded as
// painted, and Pause landed behind what the user read. Now there is nothing to keep in step: the
// DOM the next frame paints is the framed state, and `shownStep()` is that state's step.
// Canvases invalidated while a frame is being rendered draw in the same callback (`onNextFrame`),
// not one frame later. Pure apart from the injectable frame source (test/unit/webview-play.test.ts).
import { watcherSet, type Store } from './store';

/** What is needed of the window: its animation frames, timers and whether the page is hidden. */
export interface FrameSource {
  requestAnimationFrame(f: (t: number) => void): number;
  setTimeout(f: () => void, ms: number): unknown;
  clearTimeout(h: unknown): void;
  /** A hidden page paints no frame: its state is rendered on a timer instead. */
  hidden(): boolean;
  /** The clock that times a render (default: performance.now()). */
  now?(): number;
}

export interface FramedStore extends Store {
  /** The step of the state the cards rendered last: the one on screen (or painted at the end of this frame). */
  shownStep(): number;
  /** Render the store's newest state now (tests, a report's first paint). */
  flush(): void;
  /** How long the last render took (ms): the panel's own work per frame, which paces the host's updates. */
  lastRenderMs(): number;
}

/**
 * Most time a changed state waits for a frame before it is rendered anyway (ms). A page whose
 * frames stall (a software renderer on a loaded machine) still shows the run; what it renders
 * outside a frame is still the one state Pause names, as the next frame paints that DOM.
 */
const FRAME_FALLBACK_MS = 500;
/** Rounds of rendering in one frame when listeners dispatch while rendering. */
const MAX_ROUNDS = 4;

/** Work queued for the end of the frame being rendered (undefined: none is). */
let tail: (() => void)[] | undefined;

/**
 * Runs `fn` at the end of the frame being rendered when there is one (a canvas invalidated by a
 * card draws in the frame that shows the card's text), else on the next animation frame.
 * Returns a function that cancels it.
 */
export function onNextFrame(fn: () => void, win: Pick<FrameSource, 'requestAnimationFrame'> = globalThis as unknown as FrameSource): () => void {
  let live = true;
  const once = (): void => {
    if (live) fn();
    live = false;
  };
  if (tail) tail.push(once);
  else win.requestAnimationFrame(once);
  return () => (live = false);
}

/** The page's frames and timers (read through globalThis: the unit tests compile this without the DOM's types). */
export function browserFrames(): FrameSource {
  const g = globalThis as unknown as {
    requestAnimationFrame(f: (t: number) => void): number;
    setTimeout(f: () => void, ms: number): unknown;
    clearTimeout(h: unknown): void;
    document?: { visibilityState: string };
  };
  return {
    requestAnimationFrame: (f) => g.requestAnimationFrame(f),
    setTimeout: (f, ms) => g.setTimeout(f, ms),
    clearTimeout: (h) => g.clearTimeout(h),
    hidden: () => g.document?.visibilityState === 'hidden',
  };
}

/**
 * A view of `store` for the cards: dispatch goes to the store; `getState` and `watch` see the
 * state of the last frame rendered, and watchers are called once per frame with the newest state.
 */
export function framedStore(store: Store, win: FrameSource = browserFrames(), opts: { onError?: (e: unknown) => void } = {}): FramedStore {
  let shown = store.getState();
  const watchers = watcherSet(() => shown, opts.onError);
  const guard = watchers.guard;
  let pending = false;
  let timer: unknown;
  let renderMs = 0;
  const now = (): number => (win.now ? win.now() : (globalThis.performance?.now() ?? Date.now()));
  const render = (): void => {
    const t0 = now();
    if (timer !== undefined) win.clearTimeout(timer);
    timer = undefined;
    pending = false;
    const outer = tail;
    tail = outer ?? [];
    try {
      // a listener that dispatches (a card choosing a default) is rendered in this frame too
      for (let round = 0; round < MAX_ROUNDS && shown !== store.getState(); round++) {
        shown = store.getState();
        watchers.notify();
      }
      if (!outer) while (tail.length) guard(tail.shift()!);
    } finally {
      if (!outer) tail = undefined;
    }
    renderMs = now() - t0;
    if (shown !== store.getState()) schedule();
  };
  const schedule = (): void => {
    if (pending) return;
    pending = true;
    if (win.hidden()) {
      timer = win.setTimeout(render, 0);
      return;
    }
    win.requestAnimationFrame(() => pending && render());
    timer = win.setTimeout(() => pending && render(), FRAME_FALLBACK_MS);
  };
  store.watch(
    (s) => s,
    () => schedule(),
    { immediate: false },
  );
  return {
    getState: () => shown,
    dispatch: (a) => store.dispatch(a),
    watch: watchers.watch,
    shownStep: () => shown.step,
    lastRenderMs: () => renderMs,
    flush: () => {
      if (shown !== store.getState()) render();
    },
  };
}
