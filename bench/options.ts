// Command line of `node dist/bench.js` (see the usage text below and bench/README.md).
import * as path from 'node:path';

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
  /** Run the tall-systems bench (m distance rows on one body, inspected end to end). */
  tall: boolean;
  tallSizes: number[];
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
  --pile-sizes a,b     boxes in the falling piles (contacts: engine PGS and Newton vs MuJoCo; default 10,100)
  --no-pile            skip the falling piles
  --pile-only          only the falling piles (no chain, no typing bench)
  --tall-sizes a,b     rows of the tall-systems bench (default 1000,2000,10000; the target: 10000 in < 1 s)
  --no-tall            skip the tall-systems bench
  --tall-only          only the tall-systems bench (same as --no-chain --no-typing)
  --out FILE           where to write the JSON (default bench/results/latest.json)`;

function sizesOf(s: string, what: string): number[] {
  const out = s.split(',').map((x) => Number(x.trim()));
  if (!out.length || out.some((n) => !Number.isInteger(n) || n < 1)) throw new Error(`${what}: positive integers, comma-separated`);
  return out;
}

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
    pileSizes: [10, 100],
    tall: true,
    tallSizes: [1000, 2000, 10000],
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--quick') {
      o.sizes = [10, 100];
      o.typingSizes = [100];
    } else if (a === '--sizes') o.sizes = sizesOf(next(), '--sizes');
    else if (a === '--dense-budget') o.denseBudgetS = Number(next());
    else if (a === '--budget') o.budgetS = Number(next());
    else if (a === '--no-variants') o.variants = false;
    else if (a === '--engine-in-process') o.engineIsolated = false;
    else if (a === '--no-chain') o.chain = false;
    else if (a === '--no-typing') o.typing = false;
    else if (a === '--typing-sizes') o.typingSizes = sizesOf(next(), '--typing-sizes');
    else if (a === '--typing-runs') o.typingRuns = Number(next());
    else if (a === '--tall-sizes') o.tallSizes = sizesOf(next(), '--tall-sizes');
    else if (a === '--no-tall') o.tall = false;
    else if (a === '--tall-only') {
      o.chain = false;
      o.typing = false;
    }
    else if (a === '--rounds') o.rounds = Number(next());
    else if (a === '--max-rounds') o.maxRounds = Number(next());
    else if (a === '--min-timed-ms') o.minTimedMs = Number(next());
    else if (a === '--pile-sizes') o.pileSizes = sizesOf(next(), '--pile-sizes');
    else if (a === '--no-pile') o.pileSizes = [];
    else if (a === '--pile-only') {
      o.chain = false;
      o.typing = false;
    } else if (a === '--out') o.outFile = path.resolve(next());
    else if (a === '--only') {
      const ids = next().split(',').map((s) => s.trim());
      const bad = ids.filter((x) => !(CONTENDERS as readonly string[]).includes(x));
      if (bad.length) throw new Error(`--only: unknown contender(s) ${bad.join(', ')} (known: ${CONTENDERS.join(', ')})`);
      o.contenders = ids as ContenderId[];
    } else if (a === '--help' || a === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else throw new Error(`unknown argument ${a}\n${USAGE}`);
  }
  if (!(o.denseBudgetS >= 0)) throw new Error('--dense-budget: a number of seconds ≥ 0');
  if (!(o.budgetS >= 0)) throw new Error('--budget: a number of seconds ≥ 0');
  if (!Number.isInteger(o.rounds) || o.rounds < 1) throw new Error('--rounds: a positive integer');
  if (!Number.isInteger(o.maxRounds) || o.maxRounds < 1) throw new Error('--max-rounds: a positive integer');
  if (!(o.minTimedMs >= 0)) throw new Error('--min-timed-ms: a number of milliseconds ≥ 0');
  if (!Number.isInteger(o.typingRuns) || o.typingRuns < 1) throw new Error('--typing-runs: a positive integer');
  return o;
}
