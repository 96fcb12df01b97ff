// Command line of `node dist/bench.js` (see the usage text below and bench/README.md).
import * as path from 'node:path';
import { nonNegativeNumber, positiveWholeNumber, positiveWholeNumbers, scanArgv, UsageError, type OptionSpec } from '../src/cli/argv';

export const CONTENDERS = ['engine', 'dense', 'mujoco', 'mujoco-old', 'rapier', 'cannon'] as const;
export type ContenderId = (typeof CONTENDERS)[number];

export interface Options {
  sizes: number[];
  denseBudgetS: number;
  /** Seconds any other contender may take per size (projected); larger sizes are skipped. */
  budgetS: number;
  variants: boolean;
  /** Step the engine in a worker thread of its own (bench/engineWorker.ts), not in the peers' isolate. */
  engineIsolated: boolean;
  rounds: number;
  /** Cheap sizes get more rounds, up to maxRounds, while a contender's timed steps add up to less than minTimedMs. */
  maxRounds: number;
  minTimedMs: number;
  outFile: string;
  contenders: ContenderId[];
  /** Run the chain-step comparison. */
  chain: boolean;
  /** Run the "while typing" bench (scene text → diagnostics). */
  typing: boolean;
  typingSizes: number[];
  typingRuns: number;
  /** The falling piles of boxes (contacts; bench/pileBench.ts): sizes, none when empty. */
  pileSizes: number[];
  /** Time Newton on the piles (its sparse LU takes seconds a step from 100 boxes on). */
  pileNewton: boolean;
  /** Real robots with contacts against MuJoCo (bench/robotBench.ts). */
  robots: boolean;
  /** Run the tall-systems bench (m distance rows on one body, inspected end to end). */
  tall: boolean;
  tallSizes: number[];
  /** MuJoCo as the solver: the lens's and the inspector session's cost per mj_step (bench/mujocoSolver.ts). */
  mujocoSolver: boolean;
  /** The paths users run: the CLI's simulate, the extension's Play and analysis worker (bench/paths.ts). */
  paths: boolean;
}

export const USAGE = `usage: node dist/bench.js [options]
  --quick              N = 10, 100 only; typing bench at N = 100 only (smoke test)
  --sizes a,b,...      chain sizes (default 10,100,1000,3000,10000)
  --rounds R           at least R rounds per contender and size (reset, 10 untimed + 50 timed steps), the
                       contenders' rounds interleaved; the figure is the lowest per-round median (default 3)
  --max-rounds R       cheap contenders get more rounds, up to R (default 15), while their timed steps add up
                       to less than --min-timed-ms (default 1000)
  --only a,b,...       contenders to run: ${CONTENDERS.join(', ')} (default all)
  --dense-budget S     seconds the dense path may take per size (default 30), projected; larger sizes are skipped
  --budget S           seconds any other contender may take per size (default 90), projected from smaller sizes
  --no-variants        time only MuJoCo's main configuration (Newton, sparse Jacobian)
  --engine-in-process  step the engine in the bench's own thread, beside the WebAssembly peers, instead of in a
                       worker thread of its own (their memory growth detaches ArrayBuffers, which slows every
                       typed-array access of the engine by ≈ 20–25 %: bench/README.md)
  --no-chain           skip the chain comparison (typing bench only)
  --no-typing          skip the typing bench
  --typing-sizes a,b   chain sizes of the typing bench (default 10,100,1000; the target is at 100)
  --typing-runs K      timed edits per typing size (default 40)
  --pile-sizes a,b     boxes in the falling piles (contacts: engine PGS and Newton vs MuJoCo; default 10,100,1000)
  --no-pile            skip the falling piles
  --no-pile-newton     time only PGS (with and without its dead band) and MuJoCo on the piles, not Newton
  --pile-only          only the contact benches: the falling piles and the robots (no chain, no typing bench)
  --no-robots          skip the robots with contacts (shipped humanoid and ant vs MuJoCo)
  --tall-sizes a,b     rows of the tall-systems bench (default 1000,2000,10000; the target: 10000 in < 1 s)
  --no-tall            skip the tall-systems bench
  --tall-only          only the tall-systems bench (same as --no-chain --no-typing)
  --no-mujoco-solver   skip MuJoCo as the solver (what the lens and the inspector's MuJoCo session add to mj_step)
  --mujoco-solver-only only that (bench/mujocoSolverMain.ts, run in a process of its own)
  --no-paths           skip the paths users run (the CLI's simulate, Play, the analysis worker)
  --paths-only         only the paths users run
  --out FILE           where to write the JSON (default bench/results/latest.json)`;

/** The bench's options (node:util parseArgs through the CLI's scanArgv; values checked by the CLI's validators). */
const flag: OptionSpec = { type: 'boolean' };
const value: OptionSpec = { type: 'string' };
const TABLE: Record<string, OptionSpec> = {
  quick: flag, sizes: value, rounds: value, 'max-rounds': value, 'min-timed-ms': value, only: value,
  'dense-budget': value, budget: value, 'no-variants': flag, 'engine-in-process': flag, 'no-chain': flag,
  'no-typing': flag, 'typing-sizes': value, 'typing-runs': value, 'pile-sizes': value, 'no-pile': flag, 'no-pile-newton': flag, 'no-robots': flag,
  'pile-only': flag, 'tall-sizes': value, 'no-tall': flag, 'tall-only': flag, out: value,
  'no-mujoco-solver': flag, 'mujoco-solver-only': flag,
  'no-paths': flag, 'paths-only': flag,
  help: { type: 'boolean', short: 'h' },
};

export function parseArgs(argv: string[]): Options {
  const o: Options = {
    sizes: [10, 100, 1000, 3000, 10000],
    denseBudgetS: 30,
    budgetS: 90,
    variants: true,
    engineIsolated: true,
    rounds: 3,
    maxRounds: 15,
    minTimedMs: 1000,
    outFile: path.resolve(__dirname, '..', 'bench', 'results', 'latest.json'),
    contenders: [...CONTENDERS],
    chain: true,
    typing: true,
    typingSizes: [10, 100, 1000],
    typingRuns: 40,
    pileSizes: [10, 100, 1000],
    pileNewton: true,
    robots: true,
    tall: true,
    tallSizes: [1000, 2000, 10000],
    mujocoSolver: true,
    paths: true,
  };
  for (const item of scanArgv(argv, TABLE)) {
    if (item.kind !== 'option') throw new UsageError(`unknown argument ${item.kind === 'unknown' ? item.raw : item.value}\n${USAGE}`);
    const a = item.raw.startsWith('--') ? item.raw : `--${item.name}`;
    const v = item.value ?? '';
    switch (item.name) {
      case 'quick':
        o.sizes = [10, 100];
        o.typingSizes = [100];
        break;
      case 'sizes': o.sizes = positiveWholeNumbers(a, v); break;
      case 'dense-budget': o.denseBudgetS = nonNegativeNumber(a, v); break;
      case 'budget': o.budgetS = nonNegativeNumber(a, v); break;
      case 'no-variants': o.variants = false; break;
      case 'engine-in-process': o.engineIsolated = false; break;
      case 'no-chain': o.chain = false; break;
      case 'no-typing': o.typing = false; break;
      case 'typing-sizes': o.typingSizes = positiveWholeNumbers(a, v); break;
      case 'typing-runs': o.typingRuns = positiveWholeNumber(a, v); break;
      case 'tall-sizes': o.tallSizes = positiveWholeNumbers(a, v); break;
      case 'no-tall': o.tall = false; break;
      case 'no-mujoco-solver': o.mujocoSolver = false; break;
      case 'mujoco-solver-only':
        o.chain = false;
        o.typing = false;
        o.tall = false;
        o.pileSizes = [];
        o.robots = false;
        o.paths = false;
        break;
      case 'tall-only':
        o.robots = false;
        o.chain = false;
        o.typing = false;
        o.paths = false;
        o.mujocoSolver = false;
        break;
      case 'pile-only':
        o.chain = false;
        o.typing = false;
        o.paths = false;
        o.mujocoSolver = false;
        break;
      case 'no-paths': o.paths = false; break;
      case 'paths-only':
        o.chain = false;
        o.typing = false;
        o.tall = false;
        o.pileSizes = [];
        o.robots = false;
        o.mujocoSolver = false;
        break;
      case 'rounds': o.rounds = positiveWholeNumber(a, v); break;
      case 'max-rounds': o.maxRounds = positiveWholeNumber(a, v); break;
      case 'min-timed-ms': o.minTimedMs = nonNegativeNumber(a, v); break;
      case 'pile-sizes': o.pileSizes = positiveWholeNumbers(a, v); break;
      case 'no-pile': o.pileSizes = []; break;
      case 'no-pile-newton': o.pileNewton = false; break;
      case 'no-robots': o.robots = false; break;
      case 'out': o.outFile = path.resolve(v); break;
      case 'only': {
        const ids = v.split(',').map((s) => s.trim());
        const bad = ids.filter((x) => !(CONTENDERS as readonly string[]).includes(x));
        if (bad.length) throw new UsageError(`--only: unknown contender(s) ${bad.join(', ')} (known: ${CONTENDERS.join(', ')})`);
        o.contenders = ids as ContenderId[];
        break;
      }
      case 'help':
        console.log(USAGE);
        process.exit(0);
    }
  }
  return o;
}
