// `npm run bench:profile`: where the engine's time goes on the small chains and while typing.
// Runs the built bench (dist/bench.js) under `node --cpu-prof` three times — the engine alone at
// N = 10 and N = 100 (many rounds of Simulation.step) and the typing path at N = 100
// (inspectScene) — without --expose-gc, so that the garbage collector's share is the allocation's.
// Then prints, for the samples inside the function of interest, the functions with the most self
// time and the most total time, mapped back to the TypeScript sources through the bundle's
// source map. The .cpuprofile files stay in bench/results/profiles/ (open them in
// Chrome DevTools or VS Code for the full picture).
//
// Usage: node --import tsx bench/profile.ts [--top K] [--interval MICROSECONDS] [--summarize FILE.cpuprofile WITHIN]
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { SourceMap } from 'node:module';
import * as path from 'node:path';
import { table } from './format';

const ROOT = path.join(__dirname, '..');
const BUNDLE = path.join(ROOT, 'dist', 'bench.js');
const OUT = path.join(ROOT, 'bench', 'results', 'profiles');

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** "name (src/file.ts:line)" of a frame, through the bundle's source map when it has one. */
function framer(): (f: CallFrame) => string {
  const maps = new Map<string, SourceMap | null>();
  const mapFor = (url: string): SourceMap | null => {
    if (!maps.has(url)) {
      let m: SourceMap | null = null;
      const file = url.startsWith('file://') ? new URL(url).pathname : url;
      if (file.endsWith('.js') && fs.existsSync(`${file}.map`)) m = new SourceMap(JSON.parse(fs.readFileSync(`${file}.map`, 'utf8')));
      maps.set(url, m);
    }
    return maps.get(url) ?? null;
  };
  return (f) => {
    const name = f.functionName || '(anonymous)';
    if (!f.url) return name;
    const m = mapFor(f.url);
    const e = m?.findEntry(f.lineNumber, f.columnNumber) as { originalSource?: string; originalLine?: number } | undefined;
    if (e?.originalSource) {
      const src = e.originalSource.replace(/^.*?\/(src|bench|node_modules)\//, '$1/');
      return `${name} (${src}:${(e.originalLine ?? 0) + 1})`;
    }
    return `${name} (${path.basename(f.url)}:${f.lineNumber + 1})`;
  };
}

export interface Row {
  frame: string;
  selfMs: number;
  selfPct: number;
  totalMs: number;
  totalPct: number;
}

/**
 * Self and total time per function over the samples whose stack contains a frame matching
 * `within` (a substring of "name (file:line)"); percentages of those samples' time.
 */
export function summarize(profile: CpuProfile, within: string): { rows: Row[]; windowMs: number; allMs: number } {
  const label = framer();
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const labels = new Map(profile.nodes.map((n) => [n.id, label(n.callFrame)]));
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  let windowMs = 0, allMs = 0;
  profile.samples.forEach((id, i) => {
    const dt = (profile.timeDeltas[i + 1] ?? profile.timeDeltas[i] ?? 0) / 1000;
    allMs += dt;
    const stack: string[] = [];
    for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) stack.push(labels.get(n)!);
    if (!stack.some((s) => s.includes(within))) return;
    windowMs += dt;
    self.set(stack[0], (self.get(stack[0]) ?? 0) + dt);
    for (const s of new Set(stack)) total.set(s, (total.get(s) ?? 0) + dt);
  });
  const rows = [...total.keys()].map((frame) => ({
    frame,
    selfMs: self.get(frame) ?? 0,
    selfPct: (100 * (self.get(frame) ?? 0)) / windowMs,
    totalMs: total.get(frame)!,
    totalPct: (100 * total.get(frame)!) / windowMs,
  }));
  return { rows, windowMs, allMs };
}

function print(title: string, file: string, within: string, top: number): void {
  const prof = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const { rows, windowMs, allMs } = summarize(prof, within);
  // Garbage collection runs outside any JavaScript stack: its share of everything profiled, next to
  // the window's, shows how much the allocation in the window costs on top of the window itself.
  const gcMs = summarize(prof, '(garbage collector)').windowMs;
  console.log(
    `\n${title}\n  ${path.relative(ROOT, file)}: ${windowMs.toFixed(0)} ms of samples inside ${within} (${((100 * windowMs) / allMs).toFixed(1)} % ` +
      `of ${allMs.toFixed(0)} ms profiled); garbage collector ${((100 * gcMs) / allMs).toFixed(1)} % of all samples\n`,
  );
  const fmt = (r: Row) => [r.frame.length > 96 ? r.frame.slice(0, 93) + '…' : r.frame, `${r.selfPct.toFixed(1)} %`, `${r.totalPct.toFixed(1)} %`];
  const skip = (r: Row) => r.frame.startsWith('(program)') || r.frame.startsWith('(idle)');
  console.log('  by self time');
  console.log(table(['function', 'self', 'total'], rows.filter((r) => !skip(r)).sort((a, b) => b.selfMs - a.selfMs).slice(0, top).map(fmt)));
  console.log('\n  by total time (inclusive)');
  console.log(table(['function', 'self', 'total'], rows.filter((r) => !skip(r)).sort((a, b) => b.totalMs - a.totalMs).slice(0, top).map(fmt)));
}

function run(name: string, args: string[], interval: number): string {
  fs.mkdirSync(OUT, { recursive: true });
  const file = path.join(OUT, `${name}.cpuprofile`);
  const r = spawnSync(
    process.execPath,
    ['--cpu-prof', `--cpu-prof-interval=${interval}`, `--cpu-prof-dir=${OUT}`, `--cpu-prof-name=${name}.cpuprofile`, BUNDLE, ...args, '--out', path.join(OUT, `${name}.json`)],
    { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  );
  if (r.status !== 0) throw new Error(`profiling ${name} failed:\n${r.stdout}`);
  return file;
}

function main(): void {
  const argv = process.argv.slice(2);
  let top = 25, interval = 100;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--top') top = Number(argv[++i]);
    else if (argv[i] === '--interval') interval = Number(argv[++i]);
    else if (argv[i] === '--summarize') {
      print('profile', path.resolve(argv[++i]), argv[++i] ?? '', top);
      return;
    } else throw new Error(`unknown argument ${argv[i]}`);
  }
  if (!fs.existsSync(BUNDLE)) throw new Error('dist/bench.js is missing: run npm run build first');
  const step = 'step (src/engine/stepping/simulation.ts';
  // in the bench's own thread: `--cpu-prof` writes one profile per thread, and the engine's worker
  // (bench/engineWorker.ts) would leave Simulation.step out of the main thread's; with `--only engine`
  // no WebAssembly peer is loaded, so nothing detaches ArrayBuffers in this thread either
  const engineArgs = ['--only', 'engine', '--engine-in-process', '--no-typing', '--no-pile', '--no-tall', '--rounds', '200', '--max-rounds', '200'];
  print('Engine step, N = 10 (Simulation.step: 200 rounds of 10 + 50 steps)', run('engine-n10', [...engineArgs, '--sizes', '10'], interval), step, top);
  print('Engine step, N = 100 (Simulation.step: 200 rounds of 10 + 50 steps)', run('engine-n100', [...engineArgs, '--sizes', '100'], interval), step, top);
  print('While typing, N = 100 (inspectScene, 400 edits)', run('typing-n100', ['--no-chain', '--no-pile', '--no-tall', '--typing-sizes', '100', '--typing-runs', '400'], interval), 'inspectScene (src/engine/pipeline.ts', top);
}

main();
