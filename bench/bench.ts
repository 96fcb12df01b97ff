// `npm run bench`: per-step time of a hanging chain of N links (ball joints, dt 0.005), all
// contenders measured in one run, side by side:
//   this engine (Simulation.step: assemble + solve + analysis + integrate), the seed's dense path
//   (bench/dense-seed.ts), MuJoCo newest (@mujoco/mujoco) and the older mujoco-js build, Rapier
//   (spherical impulse joints) and cannon-es (point-to-point constraints);
// then "while typing": scene text → diagnostics (inspectScene) for chains of 10, 100, 1000 bodies;
// then the falling piles of boxes (contacts: engine PGS and Newton vs MuJoCo, bench/pileBench.ts).
// Prints the tables and writes bench/results/latest.json. Usage: see options.ts (--help).
import * as os from 'node:os';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { CHAIN_ALPHA, CHAIN_BETA, chainParams } from './chain';
import { prepareDense, prepareEngine, preparePeer, runVariants, settle, type DenseExtra, type EngineExtra, type History, type Outcome, type PeerExtra, type Prepared } from './contenders';
import { loadCannonPeer } from './cannon';
import { fmtLoad, fmtMs } from './format';
import { loadMujocoPeer } from './mujoco';
import { parseArgs, type ContenderId, type Options } from './options';
import { errorText, type Peer, type PeerLoadFailure } from './peer';
import { loadRapierPeer } from './rapier';
import { engineVsDense, fastestPeer, jsonReplacer, printChainTables, printNotes, printTyping, type Clock, type SizeResult } from './report';
import { collectGarbage, cpuMs, interleavedRounds, nowMs, projectMs, type RoundsPolicy } from './timing';
import { runTyping, type TypingResult } from './typing';
import { benchTall, type TallResult } from './tall';
import { pileTables, runPileBench, type PileRun } from './pileBench';
import { robotTables, runRobotBench, type RobotResult } from './robotBench';
import { table } from './format';
import { pathsTables, runPaths, type PathResult } from './paths';

const PEER_LOADERS: { id: ContenderId; label: string; load: (o: Options) => Promise<Peer> }[] = [
  { id: 'mujoco', label: 'MuJoCo (@mujoco/mujoco)', load: (o) => loadMujocoPeer('@mujoco/mujoco', { variants: o.variants }) },
  { id: 'mujoco-old', label: 'MuJoCo (mujoco-js)', load: () => loadMujocoPeer('mujoco-js', { variants: false }) },
  { id: 'rapier', label: 'Rapier', load: () => loadRapierPeer() },
  { id: 'cannon', label: 'cannon-es', load: async () => loadCannonPeer() },
];

async function loadPeers(opts: Options): Promise<{ peers: Peer[]; failures: PeerLoadFailure[] }> {
  const peers: Peer[] = [];
  const failures: PeerLoadFailure[] = [];
  for (const l of PEER_LOADERS) {
    if (!opts.contenders.includes(l.id)) continue;
    const t0 = nowMs();
    try {
      const p = await l.load(opts);
      peers.push(p);
      console.log(`loaded ${p.version} in ${fmtMs(nowMs() - t0)}`);
    } catch (e) {
      failures.push({ id: l.id, label: l.label, reason: errorText(e) });
      console.log(`${l.label} could not be loaded: ${errorText(e)}`);
    }
  }
  return { peers, failures };
}

async function runChain(opts: Options, peers: Peer[]): Promise<SizeResult[]> {
  const engineOn = opts.contenders.includes('engine');
  const denseOn = opts.contenders.includes('dense');
  const histories = new Map<string, History>();
  const hist = (id: string): History => {
    let h = histories.get(id);
    if (!h) histories.set(id, (h = []));
    return h;
  };
  const policy: RoundsPolicy = { minRounds: opts.rounds, maxRounds: Math.max(opts.rounds, opts.maxRounds), minTimedMs: opts.minTimedMs };
  const results: SizeResult[] = [];
  for (const n of [...opts.sizes].sort((a, b) => a - b)) {
    const p = chainParams(n);
    process.stdout.write(`N = ${n}: preparing… `);
    // Build every contender's chain first (timed: model compilation can be slow at large N), then
    // time them round by round, interleaved.
    const r: SizeResult = { n, dofs: 6 * n, rows: 3 * n, peers: {}, prepareMs: {} };
    const todo: { label: string; prepare: () => Prepared<object>; done: (o: Outcome<object>) => void }[] = [];
    if (engineOn) todo.push({ label: 'engine', prepare: () => prepareEngine(p, opts.budgetS, hist('engine'), opts.engineIsolated), done: (o) => (r.engine = o as Outcome<EngineExtra>) });
    if (denseOn) todo.push({ label: 'dense seed', prepare: () => prepareDense(p, opts.denseBudgetS), done: (o) => (r.dense = o as Outcome<DenseExtra>) });
    for (const peer of peers) {
      todo.push({
        label: peer.label,
        prepare: () => preparePeer(peer, p, opts.budgetS, hist(peer.id)),
        done: (o) => (r.peers[peer.id] = { main: o as Outcome<PeerExtra>, variants: [] }),
      });
    }
    const jobs = todo.map((t) => {
      // Building can grow faster than stepping (MuJoCo's compiler): skip it, too, when its CPU time
      // (robust to background load) is projected over budget.
      const built = hist(`build:${t.label}`);
      const proj = t.label === 'dense seed' ? undefined : projectMs(built, n);
      if (proj !== undefined && proj > opts.budgetS * 1000) {
        const last = built[built.length - 1];
        const reason = `skipped: building the chain projected ≈ ${fmtMs(proj)} of CPU (${fmtMs(last.ms)} at N = ${last.n}) > budget ${opts.budgetS} s`;
        return { ...t, prep: { ok: false, outcome: { ok: false, reason, projectedBuildMs: proj } } as Prepared<object> };
      }
      const t0 = nowMs();
      const c0 = cpuMs();
      const prep = t.prepare();
      const ms = nowMs() - t0;
      r.prepareMs[t.label] = Math.round(ms);
      if (prep.ok) built.push({ n, ms: cpuMs() - c0 });
      if (ms > 1000) process.stdout.write(`${t.label} built in ${fmtMs(ms)}; `);
      return { ...t, prep };
    });
    const live = jobs.filter((j) => j.prep.ok);
    process.stdout.write(`timing ${live.map((j) => j.label).join(', ')}… `);
    const timed = interleavedRounds(
      live.map((j) => (j.prep as Extract<Prepared<object>, { ok: true }>).runner),
      policy,
    );
    for (const j of jobs) {
      const k = live.indexOf(j);
      j.done(k >= 0 ? settle(j.prep, timed[k], j.label) : settle(j.prep, { rounds: [] }, j.label));
    }
    collectGarbage();
    for (const peer of peers) r.peers[peer.id].variants = runVariants(peer, p, r.peers[peer.id].main, opts.budgetS);
    r.engineVsDense = engineVsDense(r.engine, r.dense);
    const best = fastestPeer(r, peers);
    const bestCpu = fastestPeer(r, peers, 'cpu');
    const e = r.engine?.ok ? r.engine.timing : undefined;
    console.log(
      best && bestCpu && e
        ? `engine ${fmtMs(e.medianMs)} (CPU ${fmtMs(e.cpuMedianMs)}, ${e.roundMedians.length} rounds); engine/fastest peer ` +
            `${(e.medianMs / best.ms).toFixed(2)} (${best.peer.label}), by CPU time ${(e.cpuMedianMs / bestCpu.ms).toFixed(2)} (${bestCpu.peer.label})`
        : 'done',
    );
    results.push(r);
  }
  return results;
}

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  const wall0 = nowMs();
  const cores = os.cpus().length;
  const load0 = os.loadavg();
  const machine = {
    node: process.version,
    v8: process.versions.v8,
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cores,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    totalMemGB: Math.round(os.totalmem() / 1e9),
    loadAverageAtStart: load0.map((x) => Number(x.toFixed(2))),
    gcBetweenRounds: typeof (globalThis as { gc?: unknown }).gc === 'function',
  };
  console.log(
    opts.chain || opts.typing
      ? `Constraint Lens benchmark: hanging chain of N links, ball joints, dt 0.005, α = ${CHAIN_ALPHA}, β = ${CHAIN_BETA}`
      : 'Constraint Lens benchmark: falling piles of boxes (contacts)',
  );
  console.log(`machine: node ${machine.node}, ${machine.cpu} (${cores} cores), ${machine.platform}`);
  console.log(`load average ${fmtLoad(load0, cores)}`);

  let results: SizeResult[] = [];
  let peers: Peer[] = [];
  let failures: PeerLoadFailure[] = [];
  if (opts.chain) {
    console.log(`sizes: ${opts.sizes.join(', ')}; ${opts.rounds} round(s) per contender (per-step medians; warm-up steps are not timed)\n`);
    ({ peers, failures } = await loadPeers(opts));
    results = await runChain(opts, peers);
    printChainTables(results, peers, opts.contenders.includes('engine'), opts.contenders.includes('dense'));
    printNotes(results, peers, failures);
    console.log(`load average after the chain runs: ${fmtLoad(os.loadavg(), cores)}`);
  }

  let typing: TypingResult[] = [];
  if (opts.typing) {
    typing = opts.typingSizes.map((n) => runTyping(n, opts.typingRuns));
    printTyping(typing);
    console.log(`load average after the typing bench: ${fmtLoad(os.loadavg(), cores)}`);
  }

  // tall systems: thousands of rows on one body (rank, redundancy and κ through J's column space)
  const tall: TallResult[] = opts.tall ? benchTall(opts.tallSizes) : [];

  // the contact benchmark: falling piles of boxes, both contact solvers vs MuJoCo
  let pile: PileRun | undefined;
  if (opts.pileSizes.length) {
    console.log('');
    pile = await runPileBench(opts.pileSizes, opts.rounds, (x) => process.stdout.write(x), { newton: opts.pileNewton });
    console.log('\n' + pileTables(pile.results, table, pile.mujocoVersion));
    console.log(`load average after the piles: ${fmtLoad(os.loadavg(), cores)}`);
  }
  // real robots with contacts, MuJoCo on the same models in the same run
  let robots: RobotResult[] = [];
  if (opts.robots) {
    console.log('');
    robots = await runRobotBench(path.resolve(__dirname, '..'), opts.rounds, (x) => process.stdout.write(x));
    console.log('\n' + robotTables(robots, table));
    console.log(`load average after the robots: ${fmtLoad(os.loadavg(), cores)}`);
  }

  // MuJoCo as the solver: what the lens and the inspector's live MuJoCo session add to each mj_step. It
  // runs from the sources in a process of its own (it reads the repository's MuJoCo fixtures).
  if (opts.mujocoSolver) {
    console.log('');
    const root = path.resolve(__dirname, '..');
    const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'bench', 'mujocoSolverMain.ts')], { cwd: root, stdio: 'inherit' });
    if (r.status !== 0) console.log(`MuJoCo as the solver: the bench failed (${r.error?.message ?? `exit ${r.status}`})`);
    console.log(`load average after MuJoCo as the solver: ${fmtLoad(os.loadavg(), cores)}`);
  }

  // the paths users run: the CLI's simulate and the extension's Play, beside the isolated step
  let paths: PathResult[] = [];
  if (opts.paths) {
    console.log('');
    paths = await runPaths((x) => process.stdout.write(x));
    console.log('\n' + pathsTables(paths));
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
    peers: peers.map((p) => ({ id: p.id, label: p.label, version: p.version, description: p.describe(), settings: p.settings() })),
    peerLoadFailures: failures,
    wallSeconds: wallS,
    loadAverageAtEnd: os.loadavg().map((x) => Number(x.toFixed(2))),
    options: { ...opts, outFile: undefined },
    results: results.map((r) => {
      const fastest = (clock: Clock) => {
        const best = fastestPeer(r, peers, clock);
        const e = r.engine?.ok ? (clock === 'wall' ? r.engine.timing.medianMs : r.engine.timing.cpuMedianMs) : undefined;
        return best ? { id: best.peer.id, ms: best.ms, engineRatio: e !== undefined ? e / best.ms : undefined } : undefined;
      };
      return { ...r, fastestPeer: { wall: fastest('wall'), cpu: fastest('cpu') } };
    }),
    typing,
    tall,
    pile,
    robots,
    paths,
  };
  fs.mkdirSync(path.dirname(opts.outFile), { recursive: true });
  fs.writeFileSync(opts.outFile, JSON.stringify(json, jsonReplacer, 2) + '\n');
  console.log(`\nwrote ${path.relative(process.cwd(), opts.outFile)} (total ${wallS.toFixed(0)} s)`);
}

main().catch((e) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : e);
  process.exit(1);
});
