// Steps one imported robot with the engine only, for `node --cpu-prof`: prints ms/step (median of
// the timed steps). Usage: node --import tsx bench/robotStep.ts FILE [untimed] [timed]
// With MJ=1 it times MuJoCo's mj_step on the same file instead (robotAB.ts puts both in one table).
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Simulation } from '../src/engine';
import { loadModel, nodeFileAccess } from '../src/import/index';
import { mujocoStepper } from './robotBench';

async function main(): Promise<void> {
  const [file, u = '100', t = '300'] = process.argv.slice(2);
  const mj = process.env.MJ === '1';
  let stepper: { reset(): void; step(): void };
  let sim: Simulation | undefined;
  if (mj) stepper = await mujocoStepper(file);
  else {
    const parse = await loadModel(file, readFileSync(file, 'utf8'), { files: nodeFileAccess(dirname(file)) });
    if (!parse.scene) throw new Error('import failed');
    const s = (sim = new Simulation(parse.scene, parse.sourceMap));
    stepper = { reset: () => s.reset(), step: () => void s.step(1) };
  }
  const rounds = Number(process.env.ROUNDS ?? 3);
  const times: number[] = [];
  // CPU time of each round's timed steps (less disturbed than wall time on a shared machine): the least
  let cpu = Infinity;
  for (let r = 0; r < rounds; r++) {
    stepper.reset();
    for (let i = 0; i < Number(u); i++) stepper.step();
    const c0 = process.cpuUsage();
    for (let i = 0; i < Number(t); i++) {
      const t0 = performance.now();
      stepper.step();
      times.push(performance.now() - t0);
    }
    const c = process.cpuUsage(c0);
    cpu = Math.min(cpu, (c.user + c.system) / 1000 / Number(t));
  }
  times.sort((a, b) => a - b);
  const last = sim?.records[sim.records.length - 1];
  console.log(`${file}: ${times[times.length >> 1].toFixed(3)} ms/step median wall, ${cpu.toFixed(3)} ms/step CPU (least round mean), contacts ${last?.contactCount}, z ${last?.poses[2]?.toFixed(6)} pose0 ${Array.from(last?.poses ?? []).slice(0, 14).map((x) => x.toFixed(12)).join(',')}`);
}
void main();
