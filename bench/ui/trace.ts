// A Chromium performance trace (DevTools protocol Tracing domain) around one measurement, summed
// per event name on the page's main thread (CrRendererMain) as self time: how much of a first
// paint is script evaluation and compilation, style, layout, paint, garbage collection… (what the
// sampling profiler lumps together as "(program)"), and per thread in total (the compositor and
// the raster / GPU threads, for the pan).
import type { CDPSession, Page } from 'playwright-core';

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string; data?: { isLoadingMainFrame?: boolean; documentLoaderURL?: string } };
}

export const TRACE_CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.frame',
  'toplevel',
  'blink',
  'cc',
  'gpu',
  'viz',
  'v8',
  'v8.execute',
].join(',');

/** Runs `run` while tracing; returns its result and the trace's events. */
export async function traced<T>(page: Page, run: () => Promise<T>, categories = TRACE_CATEGORIES): Promise<{ result: T; events: TraceEvent[] }> {
  const cdp: CDPSession = await page.context().newCDPSession(page);
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (e: { value: unknown[] }) => events.push(...(e.value as TraceEvent[])));
  await cdp.send('Tracing.start', { categories, transferMode: 'ReportEvents' });
  const result = await run();
  const done = new Promise<void>((res) => cdp.once('Tracing.tracingComplete', () => res()));
  await cdp.send('Tracing.end');
  await done;
  await cdp.detach();
  return { result, events };
}

export interface ThreadSummary {
  thread: string;
  /** Sum of the top-level events' durations (ms; thread time where the trace gives it). */
  busyMs: number;
  /** Self time per event name (ms), largest first. */
  self: [string, number][];
}

/** Self time per event name for every named thread (complete events only), busiest thread first. */
export function summarise(events: TraceEvent[]): ThreadSummary[] {
  const names = new Map<string, string>();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name' && e.args?.name) names.set(`${e.pid}:${e.tid}`, e.args.name);
  const byThread = new Map<string, TraceEvent[]>();
  for (const e of events) {
    if (e.ph !== 'X' || e.dur === undefined) continue;
    const k = `${e.pid}:${e.tid}`;
    let l = byThread.get(k);
    if (!l) byThread.set(k, (l = []));
    l.push(e);
  }
  const out: ThreadSummary[] = [];
  for (const [k, list] of byThread) {
    list.sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
    const self = new Map<string, number>();
    const stack: { end: number; name: string; d: number }[] = [];
    let busy = 0;
    const dur = (e: TraceEvent): number => (e.tdur ?? e.dur ?? 0) / 1000;
    for (const e of list) {
      while (stack.length && stack[stack.length - 1].end <= e.ts) stack.pop();
      const d = dur(e);
      const parent = stack[stack.length - 1];
      if (parent) self.set(parent.name, (self.get(parent.name) ?? 0) - d);
      else busy += d;
      self.set(e.name, (self.get(e.name) ?? 0) + d);
      stack.push({ end: e.ts + (e.dur ?? 0), name: e.name, d });
    }
    out.push({ thread: `${names.get(k) ?? 'thread'} (${k})`, busyMs: busy, self: [...self.entries()].filter(([, v]) => v > 0.05).sort((a, b) => b[1] - a[1]) });
  }
  return out.sort((a, b) => b.busyMs - a.busyMs);
}

/** Prints the busiest threads and the main thread's largest self times. */
export function printSummary(what: string, events: TraceEvent[], top = 16): void {
  const threads = summarise(events).filter((t) => t.busyMs >= 1);
  console.log(`\n${what}: trace, busy time per thread (ms; thread CPU time where recorded)`);
  for (const t of threads.slice(0, 8)) console.log(`  ${t.busyMs.toFixed(1).padStart(8)} ms  ${t.thread}`);
  const main = threads.find((t) => t.thread.startsWith('CrRendererMain'));
  if (main) {
    console.log(`  main thread self time by event:`);
    for (const [n, ms] of main.self.slice(0, top)) console.log(`    ${ms.toFixed(1).padStart(8)} ms  ${n}`);
  }
  const others = threads.filter((t) => t !== main).slice(0, 3);
  for (const t of others) console.log(`  ${t.thread}: ${t.self.slice(0, 6).map(([n, ms]) => `${n} ${ms.toFixed(1)}`).join(', ')}`);
}

/**
 * The main thread's top-level tasks of at least `minMs` in time order (ms from the first event),
 * each with its largest child events: where a first paint's wall clock goes, step by step.
 */
export function printTimeline(events: TraceEvent[], minMs = 4): void {
  const names = new Map<string, string>();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name' && e.args?.name) names.set(`${e.pid}:${e.tid}`, e.args.name);
  const mainKey = [...names].find(([, n]) => n === 'CrRendererMain')?.[0];
  const list = events.filter((e) => e.ph === 'X' && e.dur !== undefined && `${e.pid}:${e.tid}` === mainKey).sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  if (!list.length) return;
  const t0 = list[0].ts;
  console.log('  main thread tasks in time order (start ms, wall ms, CPU ms: largest parts):');
  let i = 0;
  while (i < list.length) {
    const top = list[i];
    const end = top.ts + (top.dur ?? 0);
    const kids = new Map<string, number>();
    let j = i + 1;
    for (; j < list.length && list[j].ts < end; j++) {
      const k = list[j];
      const label = k.name === 'FunctionCall' || k.name === 'EvaluateScript' || k.name === 'TimerFire' || k.name === 'EventDispatch' ? k.name : k.name;
      kids.set(label, Math.max(kids.get(label) ?? 0, (k.dur ?? 0) / 1000));
    }
    const wall = (top.dur ?? 0) / 1000;
    if (wall >= minMs) {
      const parts = [...kids].sort((a, b) => b[1] - a[1]).slice(0, 4).map(([n, ms]) => `${n} ${ms.toFixed(1)}`).join(', ');
      console.log(`    ${((top.ts - t0) / 1000).toFixed(0).padStart(6)}  ${wall.toFixed(1).padStart(7)}  ${((top.tdur ?? top.dur ?? 0) / 1000).toFixed(1).padStart(7)}  ${top.name}: ${parts}`);
    }
    i = j;
  }
}

/** The few categories cpuBefore needs (light enough to leave on during the bench's reloads). */
export const CPU_CATEGORIES = 'toplevel,blink.user_timing';

/**
 * Main-thread CPU time (ms, thread time of the top-level tasks) of the page loaded last in the
 * trace, from its navigation start to `atMs` after it (a time of that page's performance.now()).
 * Undefined when the trace lacks the navigation or thread times.
 */
export function cpuBefore(events: TraceEvent[], atMs: number): number | undefined {
  const navs = events.filter((e) => e.name === 'navigationStart' && e.args?.data?.isLoadingMainFrame && (e.args.data.documentLoaderURL ?? '').startsWith('http'));
  const nav = navs.sort((a, b) => a.ts - b.ts).at(-1);
  if (!nav) return undefined;
  const end = nav.ts + atMs * 1000;
  const tasks = events
    .filter((e) => e.ph === 'X' && e.pid === nav.pid && e.tid === nav.tid && e.dur !== undefined && e.ts >= nav.ts && e.ts + (e.dur ?? 0) <= end)
    .sort((a, b) => a.ts - b.ts);
  let cpu = 0;
  let until = -Infinity;
  for (const e of tasks) {
    if (e.ts < until) continue; // nested in a task already counted
    if (e.tdur === undefined) return undefined;
    cpu += e.tdur;
    until = e.ts + (e.dur ?? 0);
  }
  return cpu / 1000;
}
