// Loads the deferred parts of the panel (deferred.ts: the 3D view and the charts, three.js and
// chart.js) after the first paint. The panel's first script (dist/panel.js) holds only what the
// first paint needs; dist/panel-deferred.js, next to it, is added as a <script> carrying the
// first script's CSP nonce (the page's script-src allows nothing else: no eval, no other origin),
// from the same directory (VS Code serves both through asWebviewUri from the extension's dist/), or
// from the URL in the script's data-deferred when the panel's script is inlined in the page.
// In the standalone report (dist/webview.js, all.ts) the parts are already in the page.
import type * as Parts from './deferred';
import { onPageHide } from './lifecycle';
import { readPalette } from './theme';

export type Deferred = typeof Parts;

/** The deferred bundle's file name, next to the panel's script. */
const DEFERRED_SCRIPT = 'panel-deferred.js';

const G = globalThis as { __clDeferred?: Deferred };
/** The panel's own <script>, while it is being evaluated (its nonce and URL). */
const SELF = typeof document !== 'undefined' ? (document.currentScript as HTMLScriptElement | null) : null;

let loading: Promise<Deferred> | undefined;
let loaded: Deferred | undefined;

/** The deferred parts when loaded (after loadDeferred resolved). */
export function deferredParts(): Deferred | undefined {
  return loaded;
}

/**
 * The deferred parts: at once in the report, else after the next frame (the first paint is not
 * kept waiting for the script, nor for its evaluation) from dist/panel-deferred.js. Resolves once;
 * the chart theme is applied before any caller gets them. `body[data-cl-deferred]` says when they
 * are there and every caller has made its part ("1"), or that loading failed ("error").
 */
export function loadDeferred(): Promise<Deferred> {
  loading ??= fetchParts().then(
    (d) => {
      d.applyChartTheme(readPalette());
      loaded = d;
      // after every `then` of this promise (the cards making their charts and views) has run
      setTimeout(() => (document.body.dataset.clDeferred = '1'), 0);
      return d;
    },
    (e: unknown) => {
      document.body.dataset.clDeferred = 'error';
      console.error(`Constraint Lens: the 3D view and the charts could not be loaded (${e instanceof Error ? e.message : String(e)})`);
      throw e;
    },
  );
  return loading;
}

function fetchParts(): Promise<Deferred> {
  if (G.__clDeferred) return Promise.resolve(G.__clDeferred);
  return new Promise((resolve, reject) => {
    // The panel's script names the deferred bundle's URL when it is inlined in the page (no src of its own).
    const src = SELF?.dataset.deferred || (SELF?.src ? new URL(DEFERRED_SCRIPT, SELF.src).href : undefined);
    if (!src || !SELF) {
      reject(new Error(`no ${DEFERRED_SCRIPT} in this page`));
      return;
    }
    requestAnimationFrame(() =>
      setTimeout(() => {
        const s = document.createElement('script');
        s.nonce = SELF.nonce;
        s.src = src;
        s.onload = () => (G.__clDeferred ? resolve(G.__clDeferred) : reject(new Error(`${DEFERRED_SCRIPT} did not register its parts`)));
        s.onerror = () => reject(new Error(`cannot load ${s.src}`));
        document.head.append(s);
      }, 0),
    );
  });
}

/**
 * A part of a card made from the deferred parts: `value` is undefined until they are loaded and
 * `make` has run; then `made` runs once with it (to draw the state the card holds by then).
 * `request()` starts the loading (once; later calls do nothing).
 */
export class DeferredPart<T> {
  value: T | undefined;
  private requested = false;

  constructor(
    private readonly make: (d: Deferred) => T,
    private readonly made: (value: T) => void,
  ) {}

  request(): void {
    if (this.requested) return;
    this.requested = true;
    loadDeferred().then(
      (d) => {
        const value = this.make(d);
        this.value = value;
        this.made(value);
        // a chart (chart.js: its canvas, resize observer, animations) goes with the page (lifecycle.ts)
        const release = releaseOf(value);
        if (release) {
          onPageHide(() => {
            this.value = undefined;
            release();
          });
        }
      },
      () => undefined, // reported by loadDeferred
    );
  }
}

/** How a deferred part is released: its own `destroy()`, else its chart.js chart's (the chart wrappers expose `chart`). */
function releaseOf(value: unknown): (() => void) | undefined {
  const destroyable = (x: unknown): x is { destroy(): void } => typeof x === 'object' && x !== null && typeof (x as { destroy?: unknown }).destroy === 'function';
  if (destroyable(value)) return () => value.destroy();
  const chart = typeof value === 'object' && value !== null ? (value as { chart?: unknown }).chart : undefined;
  return destroyable(chart) ? () => chart.destroy() : undefined;
}
