// The first-paint phase table of `npm run bench:ui`: where the time from navigation start to the
// painted inspector goes (the HTML, the first-paint bundle fetched and evaluated, `ready` posted,
// the model message arriving through the stub host, the panel's own work until painted).
import { median } from '../timing';
import { PHASE_NAMES, type FirstPaint, type Phases } from './measure';

export const PHASE_HEADINGS = ['HTML', 'bundle fetched', 'evaluated', 'ready posted', 'host answered', 'model arrived', 'painted'];

/** Each phase's end and, after it, its own length: `120 (+35)`. */
export function phaseCells(p: Phases): string[] {
  let prev = 0;
  return PHASE_NAMES.map((k) => {
    const v = p[k];
    if (v === null) return '—';
    const cell = `${v.toFixed(0)} (+${(v - prev).toFixed(0)})`;
    prev = v;
    return cell;
  });
}

/** The per-phase medians over `paints` (each phase's end: the median of the loads' medians). */
export function medianPhases(paints: FirstPaint[], how: 'warm' | 'fresh' = 'warm'): Phases {
  const out = {} as Phases;
  for (const k of PHASE_NAMES) {
    const v = paints.map((p) => p[how]?.phases[k] ?? null).filter((x): x is number => x !== null);
    out[k] = v.length ? median(v) : null;
  }
  return out;
}

/** The median length of each phase over `paints` (the differences of consecutive ends, per load, then the median). */
export function medianPhaseLengths(paints: FirstPaint[], how: 'warm' | 'fresh' = 'warm'): Record<keyof Phases, number | null> {
  const out = {} as Record<keyof Phases, number | null>;
  PHASE_NAMES.forEach((k, i) => {
    const v: number[] = [];
    for (const p of paints) {
      const ph = p[how]?.phases;
      if (!ph) continue;
      const end = ph[k];
      const start = i === 0 ? 0 : ph[PHASE_NAMES[i - 1]];
      if (end !== null && start !== null) v.push(end - start);
    }
    out[k] = v.length ? median(v) : null;
  });
  return out;
}

export const PHASE_NOTES = [
  '  phases:      ends in ms since navigation start (medians), the phase\'s own length in brackets. HTML: the panel\'s',
  '               HTML received (Navigation Timing responseEnd); bundle fetched: the first script resource received',
  '               (Resource Timing); evaluated: DOMContentLoaded started (the parser-blocking bundle has run); ready posted:',
  '               the page\'s `ready` message (recorded by the stub host\'s acquireVsCodeApi); host answered: the stub host\'s',
  '               answer reached the page (a Playwright binding to Node, where the extension\'s PanelFeed posts the model',
  '               without its history, encoded as text, and back); model arrived: the model message event, once the page',
  '               decoded the text into objects with typed arrays (what VS Code\'s postMessage delivers);',
  '               painted: the inspector drawn (the panel\'s own work, as "panel" above).',
  '  reloads / from a blank page: a reload of the panel also tears the previous panel page down (its WebGL context,',
  '               charts, heap) after navigation start, on the new page\'s time, before its first script runs (the gap',
  '               before "bundle fetched"). Opening an inspector in VS Code makes a new webview with nothing to tear down:',
  '               the loads from a blank page (about:blank, then the panel; as many, alternating with the reloads, same',
  '               code cache) measure that. Both are printed; the verdicts above are on the loads from a blank page.',
];
