// Timing helpers shared by every contender: per-step medians over rounds, the interleaved round
// scheduler, and the projection used to skip a size that would take too long.
//
// Each step is timed twice: wall clock (process.hrtime) and the process's CPU time
// (process.cpuUsage, microseconds). On a quiet machine the two agree; on a shared one the wall
// clock also counts the time the OS gave to other processes, while the CPU time does not.

export interface Timing {
  /** The reported figure: the lowest of the rounds' per-step wall-clock medians (robust to background load). */
  medianMs: number;
  /** The same from the per-step CPU time of the process (excludes time the OS gave to other processes). */
  cpuMedianMs: number;
  /** Per-step wall-clock median of each round (each round: reset, warm-up, timed steps). */
  roundMedians: number[];
  cpuRoundMedians: number[];
  minMs: number;
  maxMs: number;
  /** Per round. */
  warmupSteps: number;
  measuredSteps: number;
}

export interface MeasurePlan {
  /** Untimed steps first (JIT, caches). */
  warmup: number;
  /** Timed steps (one call each). */
  steps: number;
}

/** Per-step times of one round (ms). */
export interface RoundTimes {
  wall: number[];
  cpu: number[];
}

/**
 * The same number of steps for every contender (so the chains are compared at the same simulated
 * time, t = 0.3 s): 10 untimed + 50 timed. Only the dense path drops to fewer steps when large.
 */
export const STANDARD_PLAN: MeasurePlan = { warmup: 10, steps: 50 };

export const nowMs = (): number => Number(process.hrtime.bigint()) / 1e6;

/** CPU time of the process so far (user + system, ms; microsecond resolution). */
export const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Collect garbage left by the previous contender when node runs with --expose-gc. */
export function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) gc();
}

/** One round: `reset()`, the untimed warm-up, then `plan.steps` steps timed one call at a time. */
export function measureRound(reset: () => void, step: () => void, plan: MeasurePlan, stopped: () => boolean = () => false): RoundTimes {
  reset();
  collectGarbage();
  for (let k = 0; k < plan.warmup; k++) step();
  const wall: number[] = [];
  const cpu: number[] = [];
  while (wall.length < plan.steps && !stopped()) {
    // the CPU clock outside the wall-clock window: its system call is not in the wall figure
    const c0 = cpuMs();
    const a = nowMs();
    step();
    const b = nowMs();
    cpu.push(cpuMs() - c0);
    wall.push(b - a);
  }
  return { wall, cpu };
}

/** The Timing of a contender from the per-step times of each of its rounds. */
export function timingOf(rounds: RoundTimes[], plan: MeasurePlan): Timing {
  const done = rounds.filter((t) => t.wall.length);
  if (!done.length) throw new Error('no step could be measured');
  const roundMedians = done.map((r) => median(r.wall));
  const cpuRoundMedians = done.map((r) => median(r.cpu));
  let minMs = Infinity, maxMs = 0;
  for (const r of done) {
    for (const t of r.wall) {
      if (t < minMs) minMs = t;
      if (t > maxMs) maxMs = t;
    }
  }
  return {
    medianMs: Math.min(...roundMedians),
    cpuMedianMs: Math.min(...cpuRoundMedians),
    roundMedians,
    cpuRoundMedians,
    minMs,
    maxMs,
    warmupSteps: plan.warmup,
    measuredSteps: done[done.length - 1].wall.length,
  };
}

/** Something the scheduler can time round by round. */
export interface RoundRunner {
  plan: MeasurePlan;
  /** Never more rounds than this (the time budget of large sizes). */
  maxRounds: number;
  reset(): void;
  step(): void;
  /** True once the run cannot continue (the round ends early). */
  stopped?(): boolean;
  /** A whole round (reset, warm-up, timed steps) run elsewhere (the engine's worker: engineIsolated.ts); measureRound otherwise. */
  round?(plan: MeasurePlan): RoundTimes;
}

export interface RoundsPolicy {
  /** Every runner gets at least this many rounds (unless its maxRounds is lower). */
  minRounds: number;
  /** Cheap runners get more rounds, up to this many, ... */
  maxRounds: number;
  /** ... while the CPU time of their timed steps so far adds up to less than this (ms). */
  minTimedMs: number;
}

export type RoundsOrError = { rounds: RoundTimes[] } | { error: unknown };

/**
 * Rounds of all runners interleaved (round 1 of each, then round 2 of each, starting with a
 * different runner each time), so that a burst of background load hits all of them alike rather
 * than whichever happened to run then. Returns each runner's rounds, or the error it threw.
 */
export function interleavedRounds(runners: RoundRunner[], policy: RoundsPolicy): RoundsOrError[] {
  const out: RoundsOrError[] = runners.map(() => ({ rounds: [] }));
  const timed = runners.map(() => 0);
  const cut = runners.map(() => false);
  const wants = (i: number): boolean => {
    const o = out[i];
    if (!('rounds' in o) || cut[i]) return false;
    const r = o.rounds.length;
    if (r >= Math.min(runners[i].maxRounds, policy.maxRounds)) return false;
    return r < policy.minRounds || timed[i] < policy.minTimedMs;
  };
  for (let round = 0; runners.some((_, i) => wants(i)); round++) {
    for (let k = 0; k < runners.length; k++) {
      const i = (k + round) % runners.length;
      if (!wants(i)) continue;
      const run = runners[i];
      try {
        const times = run.round ? run.round(run.plan) : measureRound(run.reset, run.step, run.plan, run.stopped);
        (out[i] as { rounds: RoundTimes[] }).rounds.push(times);
        timed[i] += times.cpu.reduce((a, b) => a + b, 0);
        if (!times.wall.length) out[i] = { error: new Error('no step could be measured') };
        // stopped early: keep the state it stopped in for the report, no further rounds
        else if (times.wall.length < run.plan.steps) cut[i] = true;
      } catch (e) {
        out[i] = { error: e };
      }
    }
  }
  return out;
}

/**
 * Projected per-step time at size `n` from the sizes measured so far (ascending): a power law
 * through the last two (exponent clamped to [1, 3]), or linear from a single one.
 */
export function projectMs(measured: readonly { n: number; ms: number }[], n: number): number | undefined {
  if (!measured.length) return undefined;
  const b = measured[measured.length - 1];
  let e = 1;
  if (measured.length >= 2) {
    const a = measured[measured.length - 2];
    if (a.ms > 0 && b.n > a.n) e = Math.log(b.ms / a.ms) / Math.log(b.n / a.n);
  }
  e = Math.min(3, Math.max(1, Number.isFinite(e) ? e : 1));
  return b.ms * Math.pow(n / b.n, e);
}

/**
 * How many rounds of `plan` fit in `budgetS` at `projectedMs` per step (at least 1, at most
 * `rounds`), or 0 when even one round does not fit.
 */
export function roundsWithin(projectedMs: number | undefined, plan: MeasurePlan, rounds: number, budgetS: number): number {
  if (projectedMs === undefined) return rounds;
  const roundS = ((plan.warmup + plan.steps) * projectedMs) / 1000;
  if (roundS > budgetS) return 0;
  return Math.max(1, Math.min(rounds, Math.floor(budgetS / Math.max(roundS, 1e-9))));
}
