// The paths users run, beside the bench's warmed, isolated `Simulation.step`: for a 100-link chain
// and a pile of boxes (contacts, PGS),
//   - the CLI: `node dist/cli.js simulate FILE --steps N` as a new process, whole process per step
//     (wall time / N) and per step after start ((T(N) − T(1)) / (N − 1): start-up, parsing and the
//     step-0 inspection cancel out);
//   - its phases in a fresh isolate (bench/pathsWorker.ts): inspection, the first steps while the JIT
//     warms up, the warmed steps, the extension's PlayLoop at "max" speed;
//   - the extension's analysis worker (dist/worker.js, the real one) as the panel drives it during
//     Play: a snapshot request for the current step every `stride` steps, its replica stepping
//     there first; each step asked twice, so that stepping and the snapshot are told apart.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { chainParams, chainSceneText } from './chain';
import { cellMs, fmtLoad, table } from './format';
import { pileParams, pileSceneText } from './pile';
import type { PathsPhases } from './pathsWorker';

export interface PathScene {
  name: string;
  text: string;
  /** Steps of the CLI's runs (the first is the start-up baseline, 1). */
  cliSteps: number[];
  /** Steps taken in the phases' run, of which the first `warm` count as warm-up. */
  steps: number;
  warm: number;
  /** The panel's snapshot requests: every `stride` steps up to `steps`. */
  stride: number;
}

export interface CliRun {
  steps: number;
  ms: number;
  status: number | null;
}

export interface PathResult {
  scene: string;
  cli: CliRun[];
  phases?: PathsPhases;
  phasesError?: string;
  worker?: { requests: number; steps: number; steppingMs: number; snapshotMedianMs: number };
  workerError?: string;
  loadAverage: number[];
}

export function pathScenes(): PathScene[] {
  return [
    { name: 'chain of 100 links', text: chainSceneText(chainParams(100)), cliSteps: [1, 400, 2000], steps: 2000, warm: 100, stride: 20 },
    { name: 'pile of 10 boxes (PGS)', text: pileSceneText(pileParams(10), 'velocity'), cliSteps: [1, 300, 1000], steps: 1000, warm: 100, stride: 20 },
  ];
}

/** The CLI as a user runs it: a new process, text output to a pipe (the best of `repeat` runs). */
function runCli(cli: string, file: string, steps: number, repeat: number): CliRun {
  let best: CliRun | undefined;
  for (let r = 0; r < repeat; r++) {
    const t0 = performance.now();
    const p = spawnSync(process.execPath, [cli, 'simulate', file, '--steps', String(steps)], { encoding: 'utf8', maxBuffer: 1 << 28 });
    const ms = performance.now() - t0;
    if (!best || ms < best.ms) best = { steps, ms, status: p.status };
  }
  return best!;
}

function phasesOf(script: string, s: PathScene): Promise<PathsPhases> {
  return new Promise((resolve, reject) => {
    const w = new Worker(script, { workerData: { text: s.text, steps: s.steps, warm: s.warm } });
    w.once('message', (m: { ok: true; phases: PathsPhases } | { ok: false; error: string }) => {
      void w.terminate();
      if (m.ok) resolve(m.phases);
      else reject(new Error(m.error));
    });
    w.once('error', reject);
  });
}

/** The extension's analysis worker as Play drives it (see the header). */
async function workerDuringPlay(script: string, s: PathScene): Promise<NonNullable<PathResult['worker']>> {
  const w = new Worker(script);
  let id = 0;
  const ask = (step: number) =>
    new Promise<number>((resolve, reject) => {
      const my = ++id;
      const onMessage = (m: { id: number; ok: boolean; error?: string }) => {
        if (m.id !== my) return;
        w.off('message', onMessage);
        if (m.ok) resolve(0);
        else reject(new Error(m.error));
      };
      w.on('message', onMessage);
      w.postMessage({ id: my, kind: 'snapshot', key: 'bench', version: 1, text: s.text, step });
    });
  try {
    let steppingMs = 0;
    const snaps: number[] = [];
    let requests = 0;
    for (let k = s.stride; k <= s.steps; k += s.stride) {
      let t = performance.now();
      await ask(k);
      const both = performance.now() - t;
      t = performance.now();
      await ask(k);
      const snap = performance.now() - t;
      steppingMs += Math.max(0, both - snap);
      snaps.push(snap);
      requests++;
    }
    snaps.sort((a, b) => a - b);
    return { requests, steps: s.steps, steppingMs, snapshotMedianMs: snaps[snaps.length >> 1] ?? 0 };
  } finally {
    await w.terminate();
  }
}

export async function runPaths(log: (s: string) => void, repeat = 2): Promise<PathResult[]> {
  const dist = __dirname;
  const cli = path.join(dist, 'cli.js');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cl-bench-paths-'));
  const results: PathResult[] = [];
  try {
    for (const s of pathScenes()) {
      log(`${s.name}: CLI… `);
      const file = path.join(dir, `${s.name.replace(/\W+/g, '-')}.scene.json`);
      fs.writeFileSync(file, s.text);
      const r: PathResult = { scene: s.name, cli: s.cliSteps.map((n) => runCli(cli, file, n, repeat)), loadAverage: os.loadavg() };
      log('phases… ');
      try {
        r.phases = await phasesOf(path.join(dist, 'bench-paths-worker.js'), s);
      } catch (e) {
        r.phasesError = e instanceof Error ? e.message : String(e);
      }
      log('analysis worker… ');
      try {
        r.worker = await workerDuringPlay(path.join(dist, 'worker.js'), s);
      } catch (e) {
        r.workerError = e instanceof Error ? e.message : String(e);
      }
      log('done\n');
      results.push(r);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return results;
}

export function pathsTables(results: PathResult[]): string {
  const out: string[] = [];
  const rows: string[][] = [];
  for (const r of results) {
    const base = r.cli[0];
    for (const c of r.cli.slice(1)) {
      rows.push([r.scene, String(c.steps), `${(c.ms / 1000).toFixed(2)} s`, cellMs(c.ms / c.steps), cellMs((c.ms - base.ms) / (c.steps - base.steps)), `${(base.ms / 1000).toFixed(2)} s`, c.status === 0 ? 'ok' : `exit ${c.status}`]);
    }
  }
  out.push('The CLI, `constraint-lens simulate FILE --steps N` (new process each, best of the runs):');
  out.push(table(['scene', 'N', 'whole process', 'ms/step (whole)', 'ms/step after start', 'start (N = 1)', 'status'], rows));
  const ph: string[][] = [];
  for (const r of results) {
    const p = r.phases;
    if (!p) {
      ph.push([r.scene, `failed: ${r.phasesError ?? '?'}`, '', '', '', '', '']);
      continue;
    }
    ph.push([
      r.scene,
      `${p.inspectMs.toFixed(0)} ms`,
      `${cellMs(p.warmMs / Math.max(1, p.warmSteps))} (${p.warmSteps})`,
      `${cellMs(p.restMs / Math.max(1, p.restSteps))} (${p.restSteps})`,
      p.divergenceExplained ? 'yes' : 'no',
      `${cellMs(p.play.ms / Math.max(1, p.play.steps))} (${Math.round((1000 * p.play.steps) / p.play.ms)}/s; panel keeping up ${Math.round((1000 * p.playWithPanel.steps) / p.playWithPanel.ms)}/s; alone ${Math.round((1000 * p.direct.steps) / p.direct.ms)}/s)`,
      r.worker ? `${cellMs(r.worker.steppingMs / r.worker.steps)} + ${cellMs(r.worker.snapshotMedianMs)}/snapshot` : `failed: ${r.workerError ?? '?'}`,
    ]);
  }
  out.push('');
  out.push('Its phases in a fresh isolate, Play, and the analysis worker during Play (ms per step unless said):');
  out.push(table(['scene', 'inspect', 'first steps (JIT warming; a pile also lands)', 'warmed steps', 'CL404 explained', 'PlayLoop "max"', 'analysis worker: replica + snapshot'], ph));
  out.push('PlayLoop "max": the first 400 steps of a new simulation in the warm isolate, without an inspector and with one acknowledging at once, steps/s beside the same steps in a plain loop ("alone").');
  out.push(`load average during the paths: ${results.map((r) => fmtLoad(r.loadAverage, os.cpus().length)).join('; ')}`);
  return out.join('\n');
}
