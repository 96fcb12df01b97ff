// `npm run bench`: per-step time of a hanging chain of N links (ball joints, dt 0.005) for
//   1. this engine (Simulation.step: assemble + solve + analysis + integrate),
//   2. the seed's dense path followed literally (bench/dense-seed.ts),
//   3. MuJoCo (mujoco-js, WebAssembly) with <connect> equality constraints.
// Prints a table of per-step medians and writes bench/results/latest.json.
//
// Usage: node dist/bench.js [--quick] [--sizes 10,100,1000] [--rounds R] [--dense-budget SECONDS] [--no-variants] [--out FILE]
//   --quick          N = 10, 100 only (smoke test)
//   --sizes a,b,...  choose the chain sizes
//   --rounds R       each contender runs R rounds (reset, 10 untimed + 50 timed steps); the figure is the
//                    lowest per-round median (default 3), which shrugs off background load
//   --dense-budget   seconds the dense path may take per size (default 30); larger sizes are skipped
//                    with the projected time printed
//   --no-variants    time only MuJoCo's main configuration (Newton, sparse Jacobian)
//   --out FILE       where to write the JSON (default bench/results/latest.json)
//   --pile-sizes a,b the falling piles of boxes timed after the chains (default 10,100; bench/pileBench.ts)
//   --no-pile        skip the piles; --pile-only: only the piles
import * as os from 'node:os';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chainJointError, chainParams, half, linkPosition, type ChainParams } from './chain';
import { denseStep, denseStepMacs, makeBody, type DenseWorld } from './dense-seed';
import { makeEngineChain } from './engine-runner';
import { loadMujoco, makeMujocoChain, type MjJacobian, type MjSolver, type MujocoChain, type MujocoSettings } from './mujoco';
import { pileTables, runPileBench } from './pileBench';

// ---------------------------------------------------------------------------------------------
// options

interface Options {
  sizes: number[];
  denseBudgetS: number;
  variants: boolean;
  rounds: number;
  outFile: string;
  pileSizes: number[];
  pileOnly: boolean;
}

function parseArgs(argv: string[]): Options {
  const o: Options = {
    sizes: [10, 100, 1000, 3000],
    denseBudgetS: 30,
    variants: true,
    rounds: 3,
    outFile: path.resolve(__dirname, '..', 'bench', 'results', 'latest.json'),
    pileSizes: [10, 100],
    pileOnly: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--quick') o.sizes = [10, 100];
    else if (a === '--sizes') o.sizes = next().split(',').map((s) => Number(s.trim()));
    else if (a === '--dense-budget') o.denseBudgetS = Number(next());
    else if (a === '--no-variants') o.variants = false;
    else if (a === '--rounds') o.rounds = Number(next());
    else if (a === '--out') o.outFile = path.resolve(next());
    else if (a === '--pile-sizes') o.pileSizes = next().split(',').map((x) => Number(x.trim()));
    else if (a === '--no-pile') o.pileSizes = [];
    else if (a === '--pile-only') o.pileOnly = true;
    else if (a === '--help' || a === '-h') {
      console.log('usage: node dist/bench.js [--quick] [--sizes 10,100,1000,3000] [--rounds 3] [--dense-budget SECONDS] [--no-variants] [--out FILE]');
      process.exit(0);
    } else throw new Error(`unknown argument ${a}`);
  }
  if (!o.sizes.length || o.sizes.some((n) => !Number.isInteger(n) || n < 1)) throw new Error('--sizes: positive integers, comma-separated');
  if (o.pileSizes.some((n) => !Number.isInteger(n) || n < 1)) throw new Error('--pile-sizes: positive integers, comma-separated');
  if (!(o.denseBudgetS >= 0)) throw new Error('--dense-budget: a number of seconds ≥ 0');
  if (!Number.isInteger(o.rounds) || o.rounds < 1) throw new Error('--rounds: a positive integer');
  return o;
}

// ---------------------------------------------------------------------------------------------
// timing

interface Timing {
  /** The reported figure: the lowest of the rounds' per-step medians (robust to background load). */
  medianMs: number;
  /** Per-step median of each round (each round: reset, warm-up, timed steps). */
  roundMedians: number[];
  minMs: number;
  maxMs: number;
  /** Per round. */
  warmupSteps: number;
  measuredSteps: number;
}

interface MeasurePlan {
  /** Untimed steps first (JIT, caches). */
  warmup: number;
  /** Timed steps (one call each). */
  steps: number;
}

const nowMs = (): number => Number(process.hrtime.bigint()) / 1e6;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * `rounds` times: `reset()`, the warm-up, then time `step` one call at a time. Stops a round early
 * when `stopped()` turns true.
 */
function measure(
  reset: () => void,
  step: () => void,
  plan: MeasurePlan,
  rounds: number,
  stopped: () => boolean = () => false,
): Timing {
  const roundMedians: number[] = [];
  let minMs = Infinity, maxMs = 0, measured = 0;
  for (let r = 0; r < rounds; r++) {
    reset();
    for (let k = 0; k < plan.warmup; k++) step();
    const times: number[] = [];
    while (times.length < plan.steps && !stopped()) {
      const a = nowMs();
      step();
      times.push(nowMs() - a);
    }
    if (!times.length) throw new Error('no step could be measured');
    roundMedians.push(median(times));
    minMs = Math.min(minMs, ...times);
    maxMs = Math.max(maxMs, ...times);
    measured = times.length;
  }
  return { medianMs: Math.min(...roundMedians), roundMedians, minMs, maxMs, warmupSteps: plan.warmup, measuredSteps: measured };
}

/**
 * The same number of steps for every contender (so the chains are compared at the same simulated
 * time, t = 0.3 s): 10 untimed + 50 timed. Only the dense path drops to fewer steps when large.
 */
const STANDARD_PLAN: MeasurePlan = { warmup: 10, steps: 50 };

// ---------------------------------------------------------------------------------------------
// contenders

type Outcome<T> = ({ ok: true; timing: Timing } & T) | { ok: false; reason: string; projectedMs?: number };

interface EngineExtra {
  /** Not written to the JSON (see `replacer`). */
  positions?: number[];
  method: string;
  cond: number | null;
  condEstimated: boolean;
  jointError: number;
  rows: number;
  dofs: number;
}

function runEngine(p: ChainParams, rounds: number): Outcome<EngineExtra> {
  let made;
  try {
    made = makeEngineChain(p);
  } catch (e) {
    return { ok: false, reason: `engine failed to build the chain: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (!made.ok) return { ok: false, reason: made.reason };
  const c = made.chain;
  try {
    const timing = measure(c.reset, c.step, STANDARD_PLAN, rounds, () => c.stopped() !== undefined);
    const stop = c.stopped();
    if (stop) return { ok: false, reason: `engine run stopped: ${stop}` };
    return { ok: true, timing, ...c.lastStepInfo(), jointError: c.jointError(), rows: c.rows, dofs: c.dofs, positions: c.positions() };
  } catch (e) {
    return { ok: false, reason: `engine threw: ${e instanceof Error ? e.message : String(e)}` };
  }
}

interface DenseExtra {
  positions?: number[];
  jointError: number;
  macsPerStep: number;
  gmacPerS: number;
  bytes: number;
}

function denseWorld(p: ChainParams): DenseWorld {
  const h = half(p);
  const bodies = [];
  for (let k = 0; k < p.n; k++) {
    bodies.push(makeBody({ mass: p.mass, inertia: [p.inertia, p.inertia, p.inertia], position: linkPosition(p, k) }));
  }
  const constraints: DenseWorld['constraints'] = [{ type: 'ball', bodyA: 0, bodyB: -1, anchorA: [-h, 0, 0], anchorB: [-h, 0, 0] }];
  for (let k = 0; k + 1 < p.n; k++) constraints.push({ type: 'ball', bodyA: k, bodyB: k + 1, anchorA: [h, 0, 0], anchorB: [-h, 0, 0] });
  return { bodies, constraints, gravity: p.gravity, alpha: p.alpha, beta: p.beta };
}

/** Dense throughput (multiply-adds per ms) seen so far, to project the cost of larger sizes. */
let denseMacsPerMs: number | undefined;

function calibrateDense(): number {
  if (denseMacsPerMs === undefined) {
    const p = chainParams(60);
    const w = denseWorld(p);
    denseStep(w, p.dt);
    denseStep(w, p.dt);
    const t0 = nowMs();
    denseStep(w, p.dt);
    denseStep(w, p.dt);
    denseMacsPerMs = (2 * denseStepMacs(6 * p.n, 3 * p.n)) / (nowMs() - t0);
  }
  return denseMacsPerMs;
}

function runDense(p: ChainParams, budgetS: number, rounds: number): Outcome<DenseExtra> {
  const nv = 6 * p.n, m = 3 * p.n;
  const macs = denseStepMacs(nv, m);
  // M⁻¹, J, M⁻¹Jᵀ, A and LU's copy, as Float64Array
  const bytes = 8 * (nv * nv + 2 * m * nv + 2 * m * m);
  const projectedMs = macs / calibrateDense();
  // The standard plan if it fits the budget (then the engine can be checked against it step for
  // step), else fewer steps, else skip.
  const plans: MeasurePlan[] = [STANDARD_PLAN, { warmup: 2, steps: 20 }, { warmup: 1, steps: 3 }];
  const plan = plans.find((pl) => ((pl.warmup + pl.steps) * projectedMs) / 1000 <= budgetS) ?? plans[plans.length - 1];
  const { warmup, steps } = plan;
  const projectedTotalS = ((warmup + steps) * projectedMs) / 1000;
  if (projectedTotalS > budgetS) {
    return {
      ok: false,
      projectedMs,
      reason:
        `skipped: projected ≈ ${fmtMs(projectedMs)}/step (${macs.toExponential(1)} multiply-adds at ` +
        `${(calibrateDense() / 1e6).toFixed(2)} GMAC/s; dense M⁻¹ ${nv}×${nv}, ${fmtBytes(bytes)} of matrices), ` +
        `${warmup + steps} steps ≈ ${projectedTotalS.toFixed(0)} s > --dense-budget ${budgetS} s`,
    };
  }
  // more rounds only while they fit in the budget
  const denseRounds = Math.max(1, Math.min(rounds, Math.floor(budgetS / Math.max(projectedTotalS, 1e-9))));
  let w = denseWorld(p);
  const timing = measure(
    () => {
      w = denseWorld(p);
    },
    () => denseStep(w, p.dt),
    plan,
    denseRounds,
  );
  const gmac = macs / timing.medianMs / 1e6;
  denseMacsPerMs = Math.max(denseMacsPerMs ?? 0, macs / timing.medianMs);
  const jointError = chainJointError(p, (k) => ({ pos: w.bodies[k].p, quatXyzw: w.bodies[k].q }));
  const positions = w.bodies.flatMap((b) => b.p);
  return { ok: true, timing, jointError, macsPerStep: macs, gmacPerS: gmac, bytes, positions };
}

interface MujocoExtra {
  /** `<size memory>` used for this N. */
  memory: string;
  solver: MjSolver;
  jacobian: MjJacobian;
  nefc: number;
  iterations: number;
  jointError: number;
  loadMs: number;
}

interface MujocoRun {
  main: Outcome<MujocoExtra>;
  variants: Outcome<MujocoExtra>[];
  version?: string;
  settings?: MujocoSettings;
}

async function runMujoco(p: ChainParams, variants: boolean, rounds: number): Promise<MujocoRun> {
  const configs: [MjSolver, MjJacobian][] = [['Newton', 'sparse']];
  if (variants) {
    configs.push(['CG', 'sparse']);
    if (p.n <= 100) configs.push(['Newton', 'dense']);
  }
  const out: Outcome<MujocoExtra>[] = [];
  let chain: MujocoChain;
  let loadMs: number;
  try {
    const t0 = nowMs();
    chain = await makeMujocoChain(p);
    loadMs = nowMs() - t0;
  } catch (e) {
    const reason = `MuJoCo could not load the chain: ${e instanceof Error ? e.message : String(e)}`;
    return { main: { ok: false, reason }, variants: [] };
  }
  const version = chain.version;
  let settings: MujocoSettings | undefined;
  for (const [solver, jacobian] of configs) {
    try {
      chain.use(solver, jacobian);
      settings ??= chain.settings();
      // the dense-Jacobian variant is slow and only of interest for comparison: one round
      const timing = measure(() => chain.use(solver, jacobian), chain.step, STANDARD_PLAN, jacobian === 'dense' ? 1 : rounds);
      const info = chain.lastStepInfo();
      const jointError = chain.jointError();
      // Sanity: the equality constraints really hold the chain together (links are 0.1 m long).
      if (!(jointError < 0.05)) throw new Error(`the chain came apart (joint error ${jointError} m)`);
      out.push({ ok: true, timing, memory: chain.settings().memory, solver, jacobian, nefc: info.nefc, iterations: info.iterations, jointError, loadMs });
    } catch (e) {
      out.push({ ok: false, reason: `MuJoCo ${solver}/${jacobian} failed: ${e instanceof Error ? e.message : String(e)}` });
    }
  }
  chain.dispose();
  return { main: out[0], variants: out.slice(1), version, settings };
}

// ---------------------------------------------------------------------------------------------
// output

function fmtMs(ms: number): string {
  if (ms >= 10_000) return `${(ms / 1000).toFixed(0)} s`;
  if (ms >= 1000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms >= 100) return `${ms.toFixed(0)} ms`;
  if (ms >= 10) return `${ms.toFixed(1)} ms`;
  if (ms >= 1) return `${ms.toFixed(2)} ms`;
  return `${ms.toFixed(3)} ms`;
}
function fmtBytes(b: number): string {
  return b >= 1e9 ? `${(b / 1e9).toFixed(1)} GB` : `${(b / 1e6).toFixed(0)} MB`;
}
const ms = (o: Outcome<object>): string => (o.ok ? o.timing.medianMs.toFixed(o.timing.medianMs < 1 ? 4 : 3) : 'n/a');
const ratio = (a: Outcome<object>, b: Outcome<object>): string =>
  a.ok && b.ok ? `${(a.timing.medianMs / b.timing.medianMs).toFixed(a.timing.medianMs / b.timing.medianMs < 10 ? 2 : 0)}×` : '—';

function table(header: string[], rows: string[][]): string {
  const w = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(w[i]) : c.padStart(w[i]))).join(' | ');
  return [line(header), w.map((x) => '-'.repeat(x)).join('-|-'), ...rows.map(line)].join('\n');
}

interface SizeResult {
  n: number;
  dofs: number;
  rows: number;
  engine: Outcome<EngineExtra>;
  dense: Outcome<DenseExtra>;
  mujoco: Outcome<MujocoExtra>;
  mujocoVariants: Outcome<MujocoExtra>[];
  /** max |p_engine − p_dense| over links after the same number of steps (m), when both ran them. */
  engineVsDense?: { steps: number; maxPositionDiff: number };
}

function engineVsDense(e: Outcome<EngineExtra>, d: Outcome<DenseExtra>): SizeResult['engineVsDense'] {
  if (!e.ok || !d.ok || !e.positions || !d.positions) return undefined;
  const steps = e.timing.warmupSteps + e.timing.measuredSteps;
  if (steps !== d.timing.warmupSteps + d.timing.measuredSteps || e.positions.length !== d.positions.length) return undefined;
  let max = 0;
  for (let i = 0; i < e.positions.length; i++) max = Math.max(max, Math.abs(e.positions[i] - d.positions[i]));
  return { steps, maxPositionDiff: max };
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  const wall0 = nowMs();
  const cpu = os.cpus()[0]?.model ?? 'unknown';
  const load0 = os.loadavg();
  const machine = {
    node: process.version,
    v8: process.versions.v8,
    cpu,
    cores: os.cpus().length,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    totalMemGB: Math.round(os.totalmem() / 1e9),
    loadAverageAtStart: load0.map((x) => Number(x.toFixed(2))),
  };
  console.log('Constraint Lens benchmark: hanging chain of N links, ball joints, dt 0.005, α = β = 0');
  console.log(`machine: node ${machine.node}, ${cpu} (${machine.cores} cores), ${machine.platform}`);
  console.log(`load average ${load0.map((x) => x.toFixed(2)).join(' ')}${load0[0] > machine.cores ? '  (busy machine: expect noisy timings)' : ''}`);
  console.log(`sizes: ${opts.sizes.join(', ')}; ${opts.rounds} round(s) per contender (per-step medians; warm-up steps are not timed)\n`);

  let mjVersion: string | undefined;
  try {
    const t0 = nowMs();
    await loadMujoco();
    console.log(`MuJoCo WebAssembly loaded in ${fmtMs(nowMs() - t0)}`);
  } catch (e) {
    console.log(`MuJoCo could not be loaded: ${e instanceof Error ? e.message : String(e)}`);
  }

  const results: SizeResult[] = [];
  let mjSettings: MujocoSettings | undefined;
  for (const n of opts.pileOnly ? [] : [...opts.sizes].sort((a, b) => a - b)) {
    const p = chainParams(n);
    process.stdout.write(`N = ${n}: engine… `);
    const engine = runEngine(p, opts.rounds);
    process.stdout.write(`${engine.ok ? fmtMs(engine.timing.medianMs) : 'n/a'}; dense seed… `);
    const dense = runDense(p, opts.denseBudgetS, opts.rounds);
    process.stdout.write(`${dense.ok ? fmtMs(dense.timing.medianMs) : 'skipped'}; MuJoCo… `);
    const mj = await runMujoco(p, opts.variants, opts.rounds);
    mjVersion ??= mj.version;
    mjSettings ??= mj.settings;
    console.log(`${mj.main.ok ? fmtMs(mj.main.timing.medianMs) : 'n/a'}`);
    results.push({ n, dofs: 6 * n, rows: 3 * n, engine, dense, mujoco: mj.main, mujocoVariants: mj.variants, engineVsDense: engineVsDense(engine, dense) });
  }

  if (results.length) {
    console.log('\nPer-step median, ms (one full step; see notes below)\n');
    console.log(
      table(
        ['N', 'unknowns', 'rows', 'engine', 'dense seed', 'MuJoCo', 'dense/engine', 'engine/MuJoCo', 'engine solve', 'engine κ'],
        results.map((r) => [
          String(r.n),
          String(r.dofs),
          String(r.rows),
          r.engine.ok ? ms(r.engine) : 'n/a',
          r.dense.ok || r.dense.projectedMs === undefined ? ms(r.dense) : `skipped (≈${fmtMs(r.dense.projectedMs)} proj.)`,
          ms(r.mujoco),
          !r.dense.ok && r.dense.projectedMs !== undefined && r.engine.ok
            ? `≈${(r.dense.projectedMs / r.engine.timing.medianMs).toFixed(0)}× proj.`
            : ratio(r.dense, r.engine),
          ratio(r.engine, r.mujoco),
          r.engine.ok ? r.engine.method : '—',
          r.engine.ok ? (r.engine.condEstimated ? 'estimated' : 'exact') : '—',
        ]),
      ),
    );

    const notes: string[] = [];
    for (const r of results) {
      if (!r.engine.ok) notes.push(`N=${r.n} engine: ${r.engine.reason}`);
      if (!r.dense.ok) notes.push(`N=${r.n} dense seed: ${r.dense.reason}`);
      if (!r.mujoco.ok) notes.push(`N=${r.n} MuJoCo: ${r.mujoco.reason}`);
    }
    if (notes.length) console.log('\n' + notes.map((s) => `  • ${s}`).join('\n'));

    console.log('\nMax joint error |x_A − x_B| after the timed steps (m) and steps timed');
    console.log(
      table(
        ['N', 'engine', 'dense seed', 'MuJoCo', 'steps (engine/dense/MuJoCo)', 'max |p_engine − p_dense|'],
        results.map((r) => [
          String(r.n),
          r.engine.ok ? r.engine.jointError.toExponential(1) : '—',
          r.dense.ok ? r.dense.jointError.toExponential(1) : '—',
          r.mujoco.ok ? r.mujoco.jointError.toExponential(1) : '—',
          [r.engine, r.dense, r.mujoco].map((o) => (o.ok ? `${o.timing.warmupSteps}+${o.timing.measuredSteps}` : '—')).join(' / '),
          r.engineVsDense ? `${r.engineVsDense.maxPositionDiff.toExponential(1)} (${r.engineVsDense.steps} steps)` : '—',
        ]),
      ),
    );

    if (results.some((r) => r.mujocoVariants.length)) {
      console.log('\nMuJoCo configurations (ms/step median; solver iterations of the last step)');
      const cfgs = ['Newton/sparse', 'CG/sparse', 'Newton/dense'];
      console.log(
        table(
          ['N', ...cfgs],
          results.map((r) => [
            String(r.n),
            ...cfgs.map((cfg) => {
              const o = [r.mujoco, ...r.mujocoVariants].find((x) => x.ok && `${x.solver}/${x.jacobian}` === cfg);
              return o && o.ok ? `${ms(o)} (${o.iterations} it)` : '—';
            }),
          ]),
        ),
      );
    }

    console.log(
      [
        '',
        'Notes:',
        '  engine     Simulation.step(1) from parseScene(scene text): assemble + solve + analysis (κ, rank, residual,',
        '             energy, drift check) + semi-implicit Euler + the history record.',
        '  dense seed AerisLab assemble_system + solve_kkt + HybridSolver step followed literally: dense M⁻¹ (6N×6N),',
        '             dense J, A = J·(M⁻¹·Jᵀ) by dense products, λ by dense LU with partial pivoting (≈ numpy solve /',
        '             LAPACK gesv), plain Float64Array loops (single thread, no BLAS); no analysis.',
        `  MuJoCo     ${mjVersion ? `MuJoCo ${mjVersion}` : 'MuJoCo'} (mujoco-js WebAssembly, single thread), mj_step per step. N free bodies`,
        '             (<freejoint/>, explicit <inertial> 1 kg, diag 0.01, no geoms → no contacts), one <connect> equality per',
        '             joint (soft constraints, default solref/solimp), integrator Euler, timestep 0.005.',
        mjSettings
          ? `             main configuration: solver ${mjSettings.solver}, jacobian ${mjSettings.jacobian}, integrator ${mjSettings.integrator}, ` +
            `iterations ${mjSettings.iterations}, tolerance ${mjSettings.tolerance}, equality solref [${mjSettings.solref.join(', ')}], ` +
            `solimp [${mjSettings.solimp.join(', ')}]; <size memory> = max(64, N/10) MB (automatic sizing exceeds the 2 GB wasm heap at N ≈ 1000)`
          : '',
        '             The figure is the lowest of the rounds\' medians; each round resets the chain (10 untimed + 50 timed steps).',
        '  The seed formulation (rhs = −(1+β)J·v − α·C, no J̇v term) with α = β = 0 lets the joints drift apart as the',
        '  chain swings (see the joint-error table); MuJoCo\'s soft equality constraints hold them to a few mm.',
      ]
        .filter((s) => s !== '')
        .join('\n'),
    );
  }

  // the contact benchmark: falling piles of boxes, both contact solvers vs MuJoCo
  let pile: Awaited<ReturnType<typeof runPileBench>> | undefined;
  if (opts.pileSizes.length) {
    console.log('');
    pile = await runPileBench(opts.pileSizes, opts.rounds, (x) => process.stdout.write(x));
    console.log('\n' + pileTables(pile.results, table, pile.mujocoVersion));
  }

  const wallS = (nowMs() - wall0) / 1000;
  const json = {
    date: new Date().toISOString(),
    machine,
    chain: {
      description:
        'link k: 1 kg, inertia diag(0.01,0.01,0.01), at (0.1k,0,0); ball joints at the midpoints (anchors ±0.05 x) and world–link0 at (−0.05,0,0)',
      ...chainParams(0),
      n: undefined,
    },
    mujoco: { version: mjVersion, settings: mjSettings },
    wallSeconds: wallS,
    loadAverageAtEnd: os.loadavg().map((x) => Number(x.toFixed(2))),
    options: { sizes: opts.sizes, rounds: opts.rounds, denseBudgetS: opts.denseBudgetS, variants: opts.variants },
    results,
    pile,
  };
  fs.mkdirSync(path.dirname(opts.outFile), { recursive: true });
  const replacer = (key: string, value: unknown) => (key === 'positions' ? undefined : value);
  fs.writeFileSync(opts.outFile, JSON.stringify(json, replacer, 2) + '\n');
  console.log(`\nwrote ${path.relative(process.cwd(), opts.outFile)} (total ${wallS.toFixed(0)} s)`);
}

main().catch((e) => {
  console.error(e instanceof Error ? e.stack ?? e.message : e);
  process.exit(1);
});
