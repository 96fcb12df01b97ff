// `node --import tsx bench/mujocoSolverMain.ts [DIR] [--steps N]`: MuJoCo as the solver, what the lens
// adds to each mj_step (bench/mujocoSolver.ts), on the repository's MuJoCo fixtures (and DIR's public
// models when given). `npm run bench` runs it last, in a process of its own.
import { join } from 'node:path';
import { mujocoSolverBench } from './mujocoSolver';

const args = process.argv.slice(2);
const at = args.indexOf('--steps');
const steps = at >= 0 ? Number(args[at + 1]) : 2000;
const dir = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--steps') ?? join(__dirname, '..', 'test', 'fixtures', 'import');
console.log(`MuJoCo as the solver: ${steps} steps or more (at least 100 ms of the bare mj_step a round, at most ${20 * steps}) timed after the first 1000 from the initial state (untimed; fewer when a run ends first), medians of 5 rounds (≈: computed from the medians)`);
void mujocoSolverBench(dir, Number.isInteger(steps) && steps > 0 ? steps : 2000).then((lines) => {
  for (const l of lines) console.log(l);
});
