// `node --import tsx bench/ui/profile.ts [paint|heatmap|pan]… [--example NAME]`: where the panel's time goes in
// the figures of `npm run bench:ui`, from Chromium's own CPU profile (DevTools Profiler domain,
// the page's main thread) taken around one measurement: the functions with the most self time,
// the total sampled, and the wall clock of the same measurement. With --trace FILE it also
// records a performance trace (devtools.timeline) of the pan, for the frame / raster split
// between the page's main thread and the GPU process (load FILE in DevTools' Performance panel).
// A first paint is also traced and summed per trace event on the main thread (bench/ui/trace.ts):
// script compilation, style, layout, paint, GC — what the profile calls "(program)". --example NAME
// profiles the first paint of examples/NAME.scene.json instead of the 1000-link chain.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CDPSession, Page } from 'playwright-core';
import { chainParams, chainSceneText } from '../chain';
import { fixtureFromText, ROOT } from '../../test/browser/fixtures';
import { requireChromium, ensureBuilt, launch } from '../../test/browser/harness';
import { fmtLoad } from '../format';
import { firstPaint, heatmapDraw, pan } from './measure';
import { READ_LOAD } from './page';
import { printSummary, printTimeline, traced } from './trace';
import { buildFixture } from '../../test/browser/fixtures';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  hitCount?: number;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/**
 * Original positions of the minified bundle (dist/webview.js.map, source map v3): for each
 * generated line, its segments [column, source, line] in column order.
 */
function loadSourceMap(file: string): ((line: number, col: number) => string | undefined) | undefined {
  if (!fs.existsSync(file)) return undefined;
  const map = JSON.parse(fs.readFileSync(file, 'utf8')) as { sources: string[]; mappings: string };
  const lines: number[][][] = [];
  let src = 0;
  let oline = 0;
  for (const l of map.mappings.split(';')) {
    const segs: number[][] = [];
    let col = 0;
    for (const seg of l.split(',')) {
      if (!seg) continue;
      const v: number[] = [];
      let shift = 0;
      let acc = 0;
      for (const ch of seg) {
        const d = B64.indexOf(ch);
        acc += (d & 31) << shift;
        if (d & 32) shift += 5;
        else {
          v.push(acc & 1 ? -(acc >>> 1) : acc >>> 1);
          acc = 0;
          shift = 0;
        }
      }
      col += v[0];
      if (v.length >= 4) {
        src += v[1];
        oline += v[2];
        segs.push([col, src, oline]);
      }
    }
    lines.push(segs);
  }
  return (line, col) => {
    const segs = lines[line];
    if (!segs?.length) return undefined;
    let lo = 0;
    let hi = segs.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (segs[mid][0] <= col) lo = mid;
      else hi = mid - 1;
    }
    const [, s, ol] = segs[lo];
    const name = map.sources[s] ?? '?';
    return `${name.replace(/^(\.\.\/)+/, '')}:${ol + 1}`;
  };
}

/** Source maps of the panel's scripts (dist/panel.js, dist/panel-deferred.js; a build before the split had dist/webview.js). */
const resolvers = new Map(['panel.js', 'panel-deferred.js', 'webview.js'].map((f) => [f, loadSourceMap(path.join(ROOT, 'dist', `${f}.map`))] as const));
/** The original position of a position in the served script `url`, when it is one of the panel's. */
const resolveIn = (url: string, line: number, col: number): string | undefined => resolvers.get(url.slice(url.lastIndexOf('/') + 1))?.(line, col);

/**
 * Inclusive time per source file of the panel (webview/… and src/…, libraries under them
 * included): a sample counts once for every distinct such file on its stack.
 */
function inclusiveByFile(p: Profile): [string, number][] {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const fileOf = new Map<number, string | undefined>();
  for (const n of p.nodes) {
    const f = n.callFrame;
    const where = resolveIn(f.url, f.lineNumber, f.columnNumber);
    fileOf.set(n.id, where && !where.startsWith('node_modules') ? where.replace(/:\d+$/, '') : undefined);
  }
  const incl = new Map<string, number>();
  const samples = p.samples ?? [];
  const deltas = p.timeDeltas ?? [];
  for (let k = 0; k < samples.length; k++) {
    const dt = (deltas[k + 1] ?? 0) / 1000;
    const seen = new Set<string>();
    for (let id: number | undefined = samples[k]; id !== undefined; id = parent.get(id)) {
      const f = fileOf.get(id);
      if (f) seen.add(f);
      if (!byId.has(id)) break;
    }
    for (const f of seen) incl.set(f, (incl.get(f) ?? 0) + dt);
  }
  return [...incl.entries()].sort((a, b) => b[1] - a[1]);
}

/** Self time per function (ms), from the sample deltas. */
function selfTimes(p: Profile): { total: number; rows: [string, number][] } {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  const samples = p.samples ?? [];
  const deltas = p.timeDeltas ?? [];
  let total = 0;
  for (let k = 0; k < samples.length; k++) {
    const n = byId.get(samples[k]);
    const dt = (deltas[k + 1] ?? 0) / 1000;
    if (!n) continue;
    const f = n.callFrame;
    const file = f.url ? f.url.slice(f.url.lastIndexOf('/') + 1) : '';
    const where = resolveIn(f.url, f.lineNumber, f.columnNumber);
    const key = `${f.functionName || '(anonymous)'}${where ? ` ${where}` : file ? ` ${file}:${f.lineNumber + 1}` : ''}`;
    self.set(key, (self.get(key) ?? 0) + dt);
    if (f.functionName !== '(idle)' && f.functionName !== '(program)') total += dt;
  }
  return { total, rows: [...self.entries()].sort((a, b) => b[1] - a[1]) };
}

async function profiled<T>(page: Page, what: string, run: () => Promise<T>): Promise<T> {
  const cdp: CDPSession = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  const t0 = Date.now();
  const r = await run();
  const wall = Date.now() - t0;
  const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: Profile };
  const { total, rows } = selfTimes(profile);
  console.log(`\n${what}: ${wall} ms wall clock, ${total.toFixed(0)} ms of JavaScript and native calls sampled on the main thread (idle and "(program)" excluded)`);
  for (const [name, ms] of rows.slice(0, Number(process.env.PROFILE_ROWS ?? 18))) console.log(`  ${ms.toFixed(1).padStart(8)} ms  ${name}`);
  console.log('  inclusive time per source file of the panel (libraries called from it included):');
  for (const [name, ms] of inclusiveByFile(profile).slice(0, 24)) console.log(`  ${ms.toFixed(1).padStart(8)} ms  ${name}`);
  await cdp.detach();
  return r;
}

/** Reload the page and wait until the inspector has painted and settled (the bench's figures of that load). */
async function reloadToSettled(page: Page): Promise<unknown> {
  await page.reload();
  for (let k = 0; k < 2400; k++) {
    const r: unknown = await page.evaluate(READ_LOAD);
    if (r) return r;
    await new Promise((res) => setTimeout(res, 50));
  }
  return null;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const ti = args.indexOf('--trace');
  const traceFile = ti >= 0 ? args.splice(ti, 2)[1] : undefined;
  const extra: string[] = [];
  for (let ci = args.indexOf('--chromium-arg'); ci >= 0; ci = args.indexOf('--chromium-arg')) extra.push(args.splice(ci, 2)[1]);
  const ei = args.indexOf('--example');
  const example = ei >= 0 ? args.splice(ei, 2)[1] : undefined;
  const what = new Set(args.length ? args : ['paint', 'heatmap', 'pan']);
  requireChromium();
  ensureBuilt();
  console.log(`load average ${fmtLoad(os.loadavg(), os.cpus().length)}`);
  const { browser, close } = await launch(extra);
  try {
    if (!example && what.has('heatmap')) {
      const fx = fixtureFromText('chain-200.scene.json', chainSceneText(chainParams(200)), 20);
      const { page } = await firstPaint(browser, fx.model.sceneName, fx, 0, 60_000);
      const h = await profiled(page, 'heatmap J 600×1200 (3 tab switches J→A→J)', () => heatmapDraw(page, 'J', 'A', 3));
      console.log(`  → ${JSON.stringify(h)}`);
      await page.context().close();
    }
    if (example) {
      const fx = buildFixture(example);
      const { figures, page } = await firstPaint(browser, fx.model.sceneName, fx, 0, 60_000);
      console.log(`  ${example}, cold first paint: ${JSON.stringify(figures.cold)}`);
      const again = await profiled(page, `${example}: one reload to settled`, () => reloadToSettled(page));
      console.log(`  → ${JSON.stringify(again)}`);
      const t = await traced(page, () => reloadToSettled(page));
      printSummary(`${example}: one reload to settled`, t.events);
      printTimeline(t.events);
      console.log(`  → ${JSON.stringify(t.result)}`);
      await page.context().close();
    }
    if (!example && (what.has('paint') || what.has('pan'))) {
      const fx = fixtureFromText('chain-1000.scene.json', chainSceneText(chainParams(1000)), 100);
      const { figures, page } = await firstPaint(browser, fx.model.sceneName, fx, 0, 120_000);
      console.log(`  1000-link chain, cold first paint: ${JSON.stringify(figures.cold)}`);
      if (what.has('paint')) {
        const again = await profiled(page, '1000-link chain: one reload to settled', () => reloadToSettled(page));
        console.log(`  → ${JSON.stringify(again)}`);
        const t = await traced(page, () => reloadToSettled(page));
        printSummary('1000-link chain: one reload to settled', t.events);
        printTimeline(t.events, 10);
        console.log(`  → ${JSON.stringify(t.result)}`);
      }
      if (what.has('pan')) {
        let cdp: CDPSession | undefined;
        const chunks: unknown[] = [];
        if (traceFile) {
          cdp = await page.context().newCDPSession(page);
          cdp.on('Tracing.dataCollected', (e: { value: unknown[] }) => chunks.push(...e.value));
          await cdp.send('Tracing.start', { categories: 'devtools.timeline,disabled-by-default-devtools.timeline.frame,gpu,cc,viz', transferMode: 'ReportEvents' });
        }
        const p = await profiled(page, 'pan A 3000×3000, 3 wheel notches in, 60 frames', () => pan(page, 'A', 'J', 3, 60));
        console.log(`  → ${JSON.stringify(p)}`);
        if (cdp && traceFile) {
          const done = new Promise<void>((res) => cdp!.once('Tracing.tracingComplete', () => res()));
          await cdp.send('Tracing.end');
          await done;
          fs.writeFileSync(traceFile, JSON.stringify({ traceEvents: chunks }));
          printSummary('pan A 3000×3000', chunks as Parameters<typeof printSummary>[1], 24);
          console.log(`  trace: ${traceFile} (${chunks.length} events)`);
        }
      }
      await page.context().close();
    }
  } finally {
    await close();
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : e);
  process.exit(1);
});
