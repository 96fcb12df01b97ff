// The contact benchmark of `npm run bench`: a falling pile of N boxes on a plane, per-step time of
// both contact solvers of this engine (velocity formulation: detection + PGS; nonlinear
// formulation: detection + Axion's Newton system) and of MuJoCo (mj_step, box geoms, contacts on),
// measured in the same run. Each contender: reset, the untimed fall (the first steps have no
// contact), then timed steps while the boxes land and pile up.
import { makeEnginePile, makeMujocoPile, pileParams, type PileParams, type PileRunner } from './pile';
import { collectGarbage, cpuMs, median, nowMs } from './timing';

export interface PileTiming {
  ok: boolean;
  reason?: string;
  /** Lowest of the rounds' per-step medians (ms), and the per-step mean of the best round. */
  medianMs?: number;
  meanMs?: number;
  /** The same round's per-step median of the process's CPU time (ms): robust to other processes' load. */
  cpuMedianMs?: number;
  /** Over the timed steps: mean contacts per step, mean and largest solver iterations, steps not converged. */
  contacts?: number;
  iterations?: number;
  maxIterations?: number;
  unconverged?: number;
  /** After the timed steps: largest penetration (m) and the lowest box centre (m). */
  penetration?: number;
  lowestZ?: number;
  /** Bodies asleep after the timed steps (sleeping islands). */
  asleep?: number;
}

/** The pile at rest, with and without sleeping islands on both sides (same tolerance and rule as MuJoCo's). */
export interface RestingResult {
  untimed: number;
  timed: number;
  pgs: PileTiming;
  pgsSleep: PileTiming;
  mujoco: PileTiming;
  mujocoSleep: PileTiming;
}

export interface PileResult {
  n: number;
  untimed: number;
  timed: number;
  pgs: PileTiming;
  /** PGS with `solver.pgs.acceleration` 'none': plain Gauss–Seidel sweeps without NNCG (the solve before it), same run. */
  pgsPlain: PileTiming;
  newton: PileTiming;
  mujoco: PileTiming;
  /** Below BIG_PILE boxes: the same pile later, at rest (RESTING_FROM on). */
  resting?: RestingResult;
}

/** The resting window: steps RESTING_FROM + 1 … RESTING_FROM + 100 (2 s after the drop: every pile up to 100 boxes has landed). */
export const RESTING_FROM = 400;


/** Reset, `untimed` steps, then `timed` steps timed one by one; the best of `rounds` rounds (lowest per-step median). */
export function timeRunner(r: PileRunner, untimed: number, timed: number, rounds: number): PileTiming {
  let best: PileTiming | undefined;
  for (let round = 0; round < rounds; round++) {
    r.reset();
    for (let k = 0; k < untimed; k++) r.step();
    collectGarbage();
    const times: number[] = [], cpu: number[] = [];
    let contacts = 0, its = 0, maxIt = 0, unconverged = 0;
    for (let k = 0; k < timed; k++) {
      const t0 = nowMs(), c0 = cpuMs();
      r.step();
      times.push(nowMs() - t0);
      cpu.push(cpuMs() - c0);
      const l = r.last();
      contacts += l.contacts;
      its += l.iterations;
      maxIt = Math.max(maxIt, l.iterations);
      if (!l.converged) unconverged++;
      const stop = r.stopped();
      if (stop) return { ok: false, reason: `stopped: ${stop}` };
    }
    const med = median(times);
    if (!best || med < best.medianMs!) {
      best = {
        ok: true,
        medianMs: med,
        meanMs: times.reduce((a, b) => a + b, 0) / times.length,
        cpuMedianMs: median(cpu),
        contacts: contacts / timed,
        iterations: its / timed,
        maxIterations: maxIt,
        unconverged,
        penetration: r.penetration(),
        lowestZ: r.lowestZ(),
        asleep: r.last().asleep ?? 0,
      };
    }
  }
  return best!;
}

/** From this many boxes on: 20 timed steps, one round, no Newton. */
export const BIG_PILE = 1000;

function guard(f: () => PileTiming): PileTiming {
  try {
    return f();
  } catch (e) {
    return { ok: false, reason: e instanceof Error ? e.message : String(e) };
  }
}

/** The pile at each size: untimed fall (0.5 s), then `timed` steps (default 100, 0.5 s) of landing and piling. */
export interface PileRun {
  results: PileResult[];
  mujocoVersion?: string;
  params: Omit<PileParams, 'poses' | 'n'>;
}

export async function runPileBench(sizes: number[], rounds: number, log: (s: string) => void, opts: { newton?: boolean } = {}): Promise<PileRun> {
  const results: PileResult[] = [];
  let mujocoVersion: string | undefined;
  for (const n of sizes) {
    const p = pileParams(n);
    // the largest piles take a second a step: fewer timed steps and one round (the landing of the
    // lowest layers is under way by step 100 at every size)
    const big = n >= BIG_PILE;
    const untimed = 100, timed = big ? 20 : 100, nRounds = big ? 1 : rounds;
    log(`pile N = ${n}: PGS… `);
    const pgs = guard(() => timeRunner(makeEnginePile(p, 'velocity'), untimed, timed, nRounds));
    log(`${pgs.ok ? `${pgs.medianMs!.toFixed(2)} ms` : 'n/a'}; PGS plain… `);
    const pgsPlain = guard(() => timeRunner(makeEnginePile(p, 'velocity', { pgs: { acceleration: 'none' } }), untimed, timed, nRounds));
    log(`${pgsPlain.ok ? `${pgsPlain.medianMs!.toFixed(2)} ms` : 'n/a'}; Newton… `);
    // Newton is the slow one: a single round at 100 boxes, none from BIG_PILE on (its sparse LU of
    // ≈ 3000² took seconds a step at 100 boxes; at ten times the rows it would take the bench's hour)
    const newton: PileTiming = opts.newton === false
      ? { ok: false, reason: 'not run (--no-pile-newton)' }
      : big
      ? { ok: false, reason: `not run at N ≥ ${BIG_PILE}` }
      : guard(() => timeRunner(makeEnginePile(p, 'nonlinear'), untimed, timed, n > 50 ? 1 : rounds));
    log(`${newton.ok ? `${newton.medianMs!.toFixed(2)} ms` : 'n/a'}; MuJoCo… `);
    let mujoco: PileTiming;
    try {
      const mj = await makeMujocoPile(p);
      mujocoVersion ??= mj.version;
      mujoco = timeRunner(mj, untimed, timed, nRounds);
      mj.dispose();
    } catch (e) {
      mujoco = { ok: false, reason: `MuJoCo: ${e instanceof Error ? e.message : String(e)}` };
    }
    log(`${mujoco.ok ? `${mujoco.medianMs!.toFixed(3)} ms` : 'n/a'}\n`);
    const resting = big ? undefined : await restingPile(p, log);
    results.push({ n, untimed, timed, pgs, pgsPlain, newton, mujoco, ...(resting ? { resting } : {}) });
  }
  const { poses: _poses, n: _n, ...params } = pileParams(1);
  void _poses;
  void _n;
  return { results, mujocoVersion, params };
}

/** The pile at rest, one round each: PGS and MuJoCo as they are, then both with sleeping islands. */
async function restingPile(p: PileParams, log: (s: string) => void): Promise<RestingResult> {
  const untimed = RESTING_FROM, timed = 100;
  const mujocoRun = async (sleep: boolean): Promise<PileTiming> => {
    try {
      const mj = await makeMujocoPile(p, { sleep });
      const t = timeRunner(mj, untimed, timed, 1);
      mj.dispose();
      return t;
    } catch (e) {
      return { ok: false, reason: `MuJoCo: ${e instanceof Error ? e.message : String(e)}` };
    }
  };
  log(`  at rest: PGS… `);
  const pgs = guard(() => timeRunner(makeEnginePile(p, 'velocity'), untimed, timed, 1));
  log(`${pgs.ok ? `${pgs.medianMs!.toFixed(3)} ms` : 'n/a'}; PGS + sleep… `);
  const pgsSleep = guard(() => timeRunner(makeEnginePile(p, 'velocity', { sleep: true }), untimed, timed, 1));
  log(`${pgsSleep.ok ? `${pgsSleep.medianMs!.toFixed(3)} ms` : 'n/a'}; MuJoCo… `);
  const mujoco = await mujocoRun(false);
  log(`${mujoco.ok ? `${mujoco.medianMs!.toFixed(3)} ms` : 'n/a'}; MuJoCo + sleep… `);
  const mujocoSleep = await mujocoRun(true);
  log(`${mujocoSleep.ok ? `${mujocoSleep.medianMs!.toFixed(3)} ms` : 'n/a'}\n`);
  return { untimed, timed, pgs, pgsSleep, mujoco, mujocoSleep };
}

const msOf = (t: PileTiming, clock: 'wall' | 'cpu'): number | undefined => (t.ok ? (clock === 'wall' ? t.medianMs : t.cpuMedianMs) : undefined);
const cell = (t: PileTiming, clock: 'wall' | 'cpu'): string => {
  const v = msOf(t, clock);
  return v === undefined ? 'n/a' : v.toFixed(v < 1 ? 3 : 2);
};
const ratio = (a: PileTiming, b: PileTiming, clock: 'wall' | 'cpu'): string => {
  const x = msOf(a, clock), y = msOf(b, clock);
  if (x === undefined || y === undefined || !(y > 0)) return '—';
  const r = x / y;
  // two significant digits below 0.1 (a 0.05× must not read 0.0×)
  return `${r < 0.1 ? r.toPrecision(2) : r.toFixed(r < 10 ? 1 : 0)}×`;
};

const pen = (t: PileTiming): string => (t.ok && Number.isFinite(t.penetration!) ? t.penetration!.toExponential(1) : '—');
const converged = (t: PileTiming, timed: number): string => (t.ok ? `${((100 * (timed - t.unconverged!)) / timed).toFixed(0)} %` : '—');

export function pileTables(results: PileResult[], table: (h: string[], rows: string[][]) => string, mujocoVersion?: string): string {
  const out: string[] = [];
  out.push('Falling pile of N boxes (0.2 m, 1 kg, μ 0.5) on a plane, dt 0.005: per-step median, ms, wall clock / CPU time of the process');
  out.push(`(timed: steps 101–200, landing and piling; from ${BIG_PILE} boxes on, steps 101–120 in one round)\n`);
  out.push(
    table(
      ['N', 'engine PGS (velocity)', 'PGS plain (before)', 'engine Newton (nonlinear)', 'MuJoCo 3.14', 'PGS/MuJoCo', 'plain/MuJoCo', 'Newton/MuJoCo', 'steps converged PGS / plain / Newton'],
      results.map((r) => [
        String(r.n),
        `${cell(r.pgs, 'wall')} / ${cell(r.pgs, 'cpu')}`,
        `${cell(r.pgsPlain, 'wall')} / ${cell(r.pgsPlain, 'cpu')}`,
        `${cell(r.newton, 'wall')} / ${cell(r.newton, 'cpu')}`,
        `${cell(r.mujoco, 'wall')} / ${cell(r.mujoco, 'cpu')}`,
        `${ratio(r.pgs, r.mujoco, 'wall')} / ${ratio(r.pgs, r.mujoco, 'cpu')}`,
        `${ratio(r.pgsPlain, r.mujoco, 'wall')} / ${ratio(r.pgsPlain, r.mujoco, 'cpu')}`,
        `${ratio(r.newton, r.mujoco, 'wall')} / ${ratio(r.newton, r.mujoco, 'cpu')}`,
        `${converged(r.pgs, r.timed)} / ${converged(r.pgsPlain, r.timed)} / ${converged(r.newton, r.timed)}`,
      ]),
    ),
  );
  out.push('\nPer timed step: mean contacts, mean / max solver iterations, steps not converged; after them: largest penetration (m), lowest box centre (m)');
  const info = (t: PileTiming): string =>
    t.ok ? `${t.contacts!.toFixed(0)} c, ${t.iterations!.toFixed(1)}/${t.maxIterations} it, ${t.unconverged} nc, pen ${Number.isFinite(t.penetration!) ? t.penetration!.toExponential(1) : '?'}, z ${t.lowestZ!.toFixed(3)}` : (t.reason ?? 'n/a');
  out.push(table(['N', 'engine PGS', 'PGS plain (before)', 'engine Newton', 'MuJoCo'], results.map((r) => [String(r.n), info(r.pgs), info(r.pgsPlain), info(r.newton), info(r.mujoco)])));
  const resting = results.filter((r) => r.resting);
  if (resting.length) {
    out.push(`\nThe same piles at rest (steps ${RESTING_FROM + 1}–${RESTING_FROM + 100}, one round): as they are, and with sleeping islands on both sides`);
    out.push('(engine: solver.contacts.sleep; MuJoCo: <flag sleep="enable"/>; the same rule: 10 steps below 1e-3 m/s, then the island sleeps)\n');
    const asleep = (t: PileTiming): string => (t.ok ? String(t.asleep ?? 0) : '—');
    out.push(
      table(
        ['N', 'engine PGS', 'PGS + sleep', 'MuJoCo', 'MuJoCo + sleep', 'PGS/MuJoCo', 'PGS+sleep / MuJoCo+sleep', 'bodies asleep: engine / MuJoCo', 'penetration: engine / MuJoCo (m)'],
        resting.map(({ n, resting: x }) => [
          String(n),
          `${cell(x!.pgs, 'wall')} / ${cell(x!.pgs, 'cpu')}`,
          `${cell(x!.pgsSleep, 'wall')} / ${cell(x!.pgsSleep, 'cpu')}`,
          `${cell(x!.mujoco, 'wall')} / ${cell(x!.mujoco, 'cpu')}`,
          `${cell(x!.mujocoSleep, 'wall')} / ${cell(x!.mujocoSleep, 'cpu')}`,
          `${ratio(x!.pgs, x!.mujoco, 'wall')} / ${ratio(x!.pgs, x!.mujoco, 'cpu')}`,
          `${ratio(x!.pgsSleep, x!.mujocoSleep, 'wall')} / ${ratio(x!.pgsSleep, x!.mujocoSleep, 'cpu')}`,
          `${asleep(x!.pgsSleep)} / ${asleep(x!.mujocoSleep)} of ${n}`,
          `${pen(x!.pgs)} / ${pen(x!.mujoco)}`,
        ]),
      ),
    );
  }
  out.push(
    [
      '',
      'Notes (pile):',
      '  engine     Simulation.step(1) of the scene read by parseScene: contact detection (sweep and prune, box–box and',
      '             box–plane manifolds) + the contact solver + integration + the history record (contacts with names).',
      '             PGS: velocity formulation, solver.pgs defaults (100 sweeps, tolerance 1e-10, dead band slop 1e-5 m,',
      '             NNCG), warm-started; "plain": the same with acceleration "none" (Gauss–Seidel sweeps alone). Newton:',
      '             nonlinear formulation, position-level contacts, solver.newton defaults (20 iterations, 1e-10), sparse LU.',
      `  MuJoCo     ${mujocoVersion ?? 'MuJoCo'} (WebAssembly, single thread): mj_step: free bodies with box geoms`,
      '             (explicit <inertial>), a plane, condim 3, friction 0.5, default solver (Newton), soft contacts, Euler.',
      '  MuJoCo counts contacts per geom pair point (ncon); the engine counts contact points (up to 4 per box face).',
      '  at rest    the same piles from step 401 on: each contender reset and stepped 400 steps untimed, then 100 timed. Sleeping',
      '             islands are off by default in both; "+ sleep" turns them on in both (a sleeping body leaves detection and',
      '             the solve until an awake body touches it). Penetration: the contenders as they are, after the timed steps.',
    ].join('\n'),
  );
  return out.join('\n');
}
