// Steps the contact scenes of the profile: imported robots (MJCF) and the falling pile, for
// `node --cpu-prof` and for side-by-side per-step timings of one build against another.
// Usage: node --import tsx bench/contactSteps.ts [--steps N] [--warm N] TARGET...
// TARGET: a model path (*.xml / *.urdf), pile:N (PGS) or pile-newton:N (Newton). --hash prints the first and last bodies' final
// heights to 17 digits, to check that a change leaves the trajectory bit for bit the same.
// After the untimed steps it calls globalThis.__startAlloc when a preloaded script defined it (an
// allocation profiler started there sees only the timed steps: inspector HeapProfiler.startSampling
// with includeObjectsCollectedByMinorGC, which is how the per-step allocation was found).
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { parseScene, Simulation } from '../src/engine';
import { loadModel, nodeFileAccess } from '../src/import/index';
import { pileParams, pileSceneText } from './pile';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { steps: { type: 'string', default: '200' }, warm: { type: 'string', default: '100' }, hash: { type: 'boolean', default: false } },
});

async function simFor(target: string): Promise<Simulation> {
  // pile:N steps the pile by PGS (velocity level), pile-newton:N by Newton (the nonlinear system)
  const pile = /^pile(-newton)?:(\d+)$/.exec(target);
  if (pile) {
    const parsed = parseScene(pileSceneText(pileParams(Number(pile[2])), pile[1] ? 'nonlinear' : 'velocity'));
    return new Simulation(parsed.scene!, parsed.sourceMap);
  }
  const parse = await loadModel(target, readFileSync(target, 'utf8'), { files: nodeFileAccess(dirname(target)) });
  return new Simulation(parse.scene!, parse.sourceMap);
}

async function main(): Promise<void> {
  const steps = Number(values.steps), warm = Number(values.warm);
  for (const t of positionals) {
    const sim = await simFor(t);
    sim.step(warm);
    (globalThis as { __startAlloc?: () => void }).__startAlloc?.();
    const times: number[] = [], cpu: number[] = [];
    for (let k = 0; k < steps && !sim.stopped; k++) {
      const t0 = performance.now(), c0 = process.cpuUsage();
      sim.step(1);
      times.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1000);
    }
    times.sort((a, b) => a - b);
    cpu.sort((a, b) => a - b);
    const med = times[Math.floor(times.length / 2)], cpuMed = cpu[Math.floor(cpu.length / 2)];
    let h = '';
    if (values.hash) {
      const b = sim.result().final.bodies;
      h = ' z0=' + (b[0]?.position[2] ?? NaN).toPrecision(17) + ' zN=' + (b[b.length - 1]?.position[2] ?? NaN).toPrecision(17);
    }
    console.log(`${t}: median ${med.toFixed(3)} ms/step (CPU ${cpuMed.toFixed(3)}) over ${times.length} steps${h}`);
  }
}
void main();
