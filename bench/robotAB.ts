// Interleaved A/B of the robots' per-step cost in one run: two builds of robotStep.ts (e.g. main's
// and a branch's, bundled with esbuild) and MuJoCo's mj_step, each model's three processes run one
// after the other, round after round, so that the machine's load falls on both sides alike.
// Usage: node --import tsx bench/robotAB.ts A.cjs B.cjs ROUNDS MODEL... (untimed 100, timed 300 steps)
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { basename, dirname } from 'node:path';

const [a, b, roundsArg, ...models] = process.argv.slice(2);
const rounds = Number(roundsArg);
const run = (bundle: string, model: string, mj: boolean): { wall: number; pose: string } => {
  const out = execFileSync('node', [bundle, model, '100', '300'], { env: { ...process.env, ROUNDS: '1', MJ: mj ? '1' : '0' }, encoding: 'utf8' });
  const wall = Number(/([\d.]+) ms\/step median wall/.exec(out)?.[1]);
  return { wall, pose: out.split('pose0 ')[1]?.trim() ?? '' };
};
const median = (x: number[]) => [...x].sort((p, q) => p - q)[x.length >> 1];
const rows: string[] = [];
const loads: number[] = [];
for (const model of models) {
  const A: number[] = [], B: number[] = [], M: number[] = [];
  let same = true;
  for (let r = 0; r < rounds; r++) {
    loads.push(loadavg()[0]);
    const ra = run(a, model, false), rb = run(b, model, false);
    A.push(ra.wall);
    B.push(rb.wall);
    same &&= ra.pose === rb.pose;
    M.push(run(b, model, true).wall);
  }
  const [ma, mb, mm] = [median(A), median(B), median(M)];
  rows.push(`| ${basename(dirname(model))}/${basename(model)} | ${ma.toFixed(2)} | ${mb.toFixed(2)} | ${(mb / ma).toFixed(2)} | ${mm.toFixed(3)} | ${(ma / mm).toFixed(1)}× → ${(mb / mm).toFixed(1)}× | ${same ? 'same' : 'DIFFER'} | ${B.filter((x, i) => x < A[i]).length}/${rounds} |`);
  console.error(rows[rows.length - 1]);
}
console.log(`load (1 min) ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}; ${rounds} rounds; medians of each process's median wall ms/step (100 untimed, 300 timed steps)`);
console.log('| model | A ms/step | B ms/step | B/A | mj_step ms | ratio to mj_step A → B | poses (12 decimals) | B faster |');
console.log('|---|---|---|---|---|---|---|---|');
for (const r of rows) console.log(r);
