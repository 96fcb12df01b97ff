// The panel measurements of `npm run bench:ui`, driven through the browser-test harness
// (test/browser/harness.ts: the real panel bundle in headless Chromium, a stub host answering
// `ready` with a PanelModel) and the page instrumentation in page.ts.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { openPanel } from '../../test/browser/harness';
import type { Fixture } from '../../test/browser/fixtures';
import { median } from '../timing';
import { hooksScript, IDLE_FPS, panScript, READ_LOAD, tabSwitchScript } from './page';
import { cpuBefore, CPU_CATEGORIES, traced } from './trace';

/**
 * `browser` with every new context given the instrumentation as an init script, so that it runs
 * before the panel's own scripts on the first load as on every reload (openPanel creates the
 * context itself).
 */
function instrumented(browser: Browser, sceneName: string): Browser {
  const script = hooksScript(sceneName);
  return new Proxy(browser, {
    get(target, prop, receiver) {
      if (prop === 'newContext') {
        return async (...args: Parameters<Browser['newContext']>): Promise<BrowserContext> => {
          const ctx = await target.newContext(...args);
          await ctx.addInitScript(script);
          return ctx;
        };
      }
      const v: unknown = Reflect.get(target, prop, receiver);
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

/**
 * The CPU time of the page's main thread (ms) from the DevTools protocol's Performance domain in
 * thread ticks; undefined when unavailable. It counts from the start of the current document (it
 * restarts at every navigation, reloads included) or from this call, whichever is later.
 * Within one document, differences of it are what the panel cost regardless of how busy the
 * machine is (the wall-clock figures are not).
 */
export async function threadCpu(page: Page): Promise<() => Promise<number | undefined>> {
  try {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
    return async () => {
      try {
        const { metrics } = await cdp.send('Performance.getMetrics');
        const t = metrics.find((m) => m.name === 'ThreadTime');
        return t ? t.value * 1000 : undefined;
      } catch {
        return undefined;
      }
    };
  } catch {
    return async () => undefined;
  }
}

const medianOf = (xs: (number | undefined)[]): number | undefined => {
  const v = xs.filter((x): x is number => x !== undefined);
  return v.length ? median(v) : undefined;
};

const cpuDelta = (a: number | undefined, b: number | undefined): number | undefined => (a !== undefined && b !== undefined && b >= a ? b - a : undefined);

export interface LoadFigures {
  /** Navigation start → the inspector painted (ms). */
  paintMs: number;
  /** The model message reaching the page → painted (ms): the panel's own share. */
  modelToPaintMs: number;
  /** Navigation start → the last drawing / DOM change (ms). */
  settledMs: number;
  /** Main-thread CPU time of the reloaded document up to settled (ms; reloads only). */
  cpuMs?: number;
  /** Main-thread CPU time from navigation start to painted (ms; reloads only, from a light trace). */
  cpuToPaintMs?: number;
  /** Where the time to paint went (ms since navigation start, each phase's end; see page.ts PHASES_IN_PAGE). */
  phases: Phases;
}

/**
 * The ends of the phases of a load, ms since navigation start (null: not available): the HTML
 * received, the first-paint bundle received, evaluated (DOMContentLoaded), `ready` posted, the
 * host's answer received, the model message arrived (decoded), the inspector painted.
 */
export interface Phases {
  html: number | null;
  script: number | null;
  evaluated: number | null;
  ready: number | null;
  /** The stub host's answer to `ready` (the model as text) reached the page; decoding it into objects follows. */
  answered: number | null;
  model: number | null;
  painted: number | null;
}

export const PHASE_NAMES: (keyof Phases)[] = ['html', 'script', 'evaluated', 'ready', 'answered', 'model', 'painted'];

function medianPhases(loads: LoadFigures[]): Phases {
  const out = {} as Phases;
  for (const k of PHASE_NAMES) {
    const v = loads.map((l) => l.phases[k]).filter((x): x is number => x !== null);
    out[k] = v.length ? median(v) : null;
  }
  return out;
}

/** Poll the page (page.evaluate, which the panel's CSP allows; waitForFunction would need eval). */
async function readLoad(page: Page, timeoutMs: number): Promise<LoadFigures> {
  const t0 = Date.now();
  for (;;) {
    const r = (await page.evaluate(READ_LOAD)) as { modelAt: number; paintedAt: number; settledAt: number; phases: Omit<Phases, 'model' | 'painted'> } | null;
    if (r) return { paintMs: r.paintedAt, modelToPaintMs: r.paintedAt - r.modelAt, settledMs: r.settledAt, phases: { ...r.phases, model: r.modelAt, painted: r.paintedAt } };
    if (Date.now() - t0 > timeoutMs) throw new Error(`the inspector did not paint within ${timeoutMs} ms (no <h1> with the scene name and a drawn heatmap canvas)`);
    await new Promise((res) => setTimeout(res, 50));
  }
}

export interface FirstPaint {
  name: string;
  /** The first load in a fresh browser context (no code cache). */
  cold: LoadFigures;
  /** Reloads of the same page: each figure is the median over them. */
  warm: LoadFigures;
  /**
   * Loads of the panel from a blank page (about:blank, then the panel), as many as the reloads,
   * alternating with them: medians. A reload also tears down the previous panel page (its WebGL
   * context, charts, heap) after navigation start, on the new page's time; opening an inspector
   * in VS Code starts a new webview and has none of that to do.
   */
  fresh?: LoadFigures;
  reloads: number;
  consoleErrors: string[];
}

/** The median of each figure over `loads` (`cold`'s figures when there are none). */
function medianLoad(loads: LoadFigures[], cold: LoadFigures): LoadFigures {
  const med = (f: (x: LoadFigures) => number) => (loads.length ? median(loads.map(f)) : f(cold));
  const cpus = loads.map((x) => x.cpuMs).filter((x): x is number => x !== undefined);
  return {
    paintMs: med((x) => x.paintMs),
    modelToPaintMs: med((x) => x.modelToPaintMs),
    settledMs: med((x) => x.settledMs),
    cpuMs: cpus.length ? median(cpus) : undefined,
    cpuToPaintMs: medianOf(loads.map((x) => x.cpuToPaintMs)),
    phases: medianPhases(loads.length ? loads : [cold]),
  };
}

/**
 * How long a new browser context's page waits before its cold load. Headless Chromium (156) starts
 * the browser window's own WebUI with every new window (the omnibox popup: ≈ 300 chrome://
 * resources in a renderer of its own for about 1.3 s, seen in a trace), which VS Code's webviews
 * never compete with; the cold load starts once that is done, still with nothing of the panel in
 * any cache.
 */
export const COLD_QUIET_MS = 2000;

/**
 * First paint of the inspector for `fixture`: one cold load, then `reloads` reloads and as many
 * loads from a blank page (`fresh`), alternating. Returns the
 * page, still open, for further measurements (the caller closes its context).
 */
export async function firstPaint(
  browser: Browser,
  name: string,
  fixture: Fixture,
  reloads: number,
  timeoutMs: number,
  webviewDir?: string,
): Promise<{ figures: FirstPaint; page: Page }> {
  const p = await openPanel(instrumented(browser, fixture.model.sceneName), fixture, { webviewDir, beforeLoad: (page) => page.waitForTimeout(COLD_QUIET_MS) });
  const page = p.page;
  const cold = await readLoad(page, timeoutMs);
  const cpu = await threadCpu(page);
  const url = page.url();
  const warm: LoadFigures[] = [];
  const fresh: LoadFigures[] = [];
  const load = async (into: LoadFigures[], navigate: () => Promise<unknown>): Promise<void> => {
    const { result: f, events } = await traced(
      page,
      async () => {
        await navigate();
        return readLoad(page, timeoutMs);
      },
      CPU_CATEGORIES,
    );
    // the counter restarted with the new document: its value is the load's main-thread CPU
    // (plus the few polling evaluations of readLoad)
    into.push({ ...f, cpuMs: await cpu(), cpuToPaintMs: cpuBefore(events, f.paintMs) });
  };
  const reload = () => load(warm, () => page.reload());
  const fromBlank = async (): Promise<void> => {
    await page.goto('about:blank');
    await load(fresh, () => page.goto(url));
  };
  // alternating which goes first; the page ends on a loaded panel either way
  for (let k = 0; k < reloads; k++) {
    if (k % 2 === 0) {
      await reload();
      await fromBlank();
    } else {
      await fromBlank();
      await reload();
    }
  }
  return {
    figures: {
      name,
      cold,
      warm: medianLoad(warm, cold),
      ...(fresh.length ? { fresh: medianLoad(fresh, cold) } : {}),
      reloads: warm.length,
      consoleErrors: p.consoleErrors,
    },
    page,
  };
}

export interface HeatmapDraw {
  /** Click on the matrix tab → the heatmap painted, median over the switches (ms). */
  medianMs: number;
  minMs: number;
  /** Median of the panel's own data-render-ms, when it publishes one. */
  renderMedianMs: number | null;
  /** Main-thread CPU time per switch (ms, median), including the frames the measurement waits. */
  cpuMedianMs?: number;
  switches: number;
}

/** Time switching the heatmap to matrix `name` (from `other`) `times` times. */
export async function heatmapDraw(page: Page, name: string, other: string, times: number): Promise<HeatmapDraw> {
  const ms: number[] = [];
  const render: number[] = [];
  const cpus: number[] = [];
  const cpu = await threadCpu(page);
  // the first switch pays for the first drawing of both matrices: untimed
  await page.evaluate(tabSwitchScript(name, other));
  for (let k = 0; k < times; k++) {
    const c0 = await cpu();
    const r = (await page.evaluate(tabSwitchScript(name, other))) as { ms: number; settledMs: number; renderMs: number | null };
    const d = cpuDelta(c0, await cpu());
    if (d !== undefined) cpus.push(d / 2); // two switches per call (to `other`, back to `name`)
    ms.push(r.ms);
    if (r.renderMs !== null) render.push(r.renderMs);
  }
  return {
    medianMs: median(ms),
    minMs: Math.min(...ms),
    renderMedianMs: render.length ? median(render) : null,
    cpuMedianMs: cpus.length ? median(cpus) : undefined,
    switches: times,
  };
}

export interface Pan {
  zoom: string;
  /** The browser's compositing: GPU (SwiftShader GL here) or software; set by the caller. */
  compositing?: string;
  fps: number;
  frames: number;
  redrawnFrames: number;
  longestFrameMs: number;
  renderMedianMs: number | null;
  /** Main-thread CPU time per frame while panning (ms): under 16.7 ms, 60 fps is within reach on a quiet machine. */
  cpuPerFrameMs?: number;
}

/** The idle frame rate of the page (the ceiling for the pan figures). */
export async function idleFps(page: Page): Promise<number> {
  return (await page.evaluate(IDLE_FPS)) as number;
}

/** Show matrix `name` (from `other`), zoom in with `wheels` wheel events and drag-pan for `frames` frames. */
export async function pan(page: Page, name: string, other: string, wheels: number, frames: number): Promise<Pan> {
  await page.evaluate(tabSwitchScript(name, other));
  const cpu = await threadCpu(page);
  const c0 = await cpu();
  const r = (await page.evaluate(panScript(wheels, frames, 120))) as Omit<Pan, 'zoom'>;
  const d = cpuDelta(c0, await cpu());
  // the zoom before the drag settles for a few frames too: spread over all of them (an upper bound per drag frame)
  return { zoom: `${wheels} wheel notches in`, ...r, cpuPerFrameMs: d !== undefined ? d / r.frames : undefined };
}
