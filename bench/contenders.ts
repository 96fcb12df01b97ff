// Prepares each contender for one chain size (this engine, the dense seed path, a peer engine) as
// a runner that bench.ts times round by round, interleaved with the others (timing.ts), and turns
// its rounds into an Outcome. Every contender gets the same schedule (reset, 10 untimed + 50 timed
// steps per round) and is checked afterwards: the worst joint error and the tip height show that
// it simulated the chain.
import { chainJointError, chainParams, half, linkPosition, type ChainParams } from './chain';
import { denseStep, denseStepMacs, makeBody, type DenseWorld } from './dense-seed';
import { makeIsolatedEngineChain } from './engineIsolated';
import { makeEngineChain } from './engine-runner';
import { fmtBytes, fmtMs } from './format';
import { errorText, type Peer, type PeerChain } from './peer';
import { measureRound, nowMs, projectMs, roundsWithin, STANDARD_PLAN, timingOf, type MeasurePlan, type RoundRunner, type RoundsOrError, type RoundTimes, type Timing } from './timing';

/** Where the chain is after the timed steps: the same for every contender up to its formulation. */
export interface Sanity {
  /** max over joints of |x_A − x_B| (m). */
  jointError: number;
  /** z of the last link's centre (m). */
  tipZ: number;
  /** Steps taken (warm-up + timed) before these figures. */
  steps: number;
  /** False when the chain came apart (joint error above half a link) or a figure is not finite. */
  sane: boolean;
}

export type Outcome<T = object> =
  | ({ ok: true; timing: Timing; sanity: Sanity } & T)
  | { ok: false; reason: string; /** Projected per-step time of a skipped size. */ projectedMs?: number; /** Projected time to build the chain of a skipped size. */ projectedBuildMs?: number };

/** Joint error above which the chain counts as broken: a whole link length. */
const BROKEN_M = 0.1;

function sanityOf(jointError: number, tipZ: number, timing: Timing): Sanity {
  return {
    jointError,
    tipZ,
    steps: timing.warmupSteps + timing.measuredSteps,
    sane: Number.isFinite(jointError) && Number.isFinite(tipZ) && jointError < BROKEN_M,
  };
}

/** Per contender, the sizes measured so far (for the projection of larger sizes). */
export type History = { n: number; ms: number }[];

/** A contender ready to be timed at one size, or why not. */
export type Prepared<T> =
  | { ok: true; runner: RoundRunner; finish(rounds: RoundTimes[]): Outcome<T>; abort?(): void }
  | { ok: false; outcome: Outcome<T> };

function skipped<T>(what: string, projectedMs: number, budgetS: number, plan: MeasurePlan = STANDARD_PLAN): Prepared<T> {
  const totalS = ((plan.warmup + plan.steps) * projectedMs) / 1000;
  return { ok: false, outcome: { ok: false, projectedMs, reason: `skipped: ${what} projected ≈ ${fmtMs(projectedMs)}/step, one round ≈ ${totalS.toFixed(0)} s > budget ${budgetS} s` } };
}
const failed = <T>(reason: string): Prepared<T> => ({ ok: false, outcome: { ok: false, reason } });

/** Turn the rounds (or the error) of a runner into its outcome. */
export function settle<T>(prep: Prepared<T>, res: RoundsOrError, label: string): Outcome<T> {
  if (!prep.ok) return prep.outcome;
  if ('error' in res) {
    prep.abort?.();
    return { ok: false, reason: `${label} threw: ${errorText(res.error)}` };
  }
  try {
    return prep.finish(res.rounds);
  } catch (e) {
    return { ok: false, reason: `${label}: ${errorText(e)}` };
  }
}

// ---------------------------------------------------------------------------------------------
// this engine

export interface EngineExtra {
  /** Not written to the JSON (see the replacer in report.ts). */
  positions?: number[];
  method: string;
  cond: number | null;
  condEstimated: boolean;
}

export function prepareEngine(p: ChainParams, budgetS: number, history: History, isolated = false): Prepared<EngineExtra> {
  const proj = projectMs(history, p.n);
  const maxRounds = roundsWithin(proj, STANDARD_PLAN, Infinity, budgetS);
  if (maxRounds === 0) return skipped('the engine', proj!, budgetS);
  let made;
  try {
    made = isolated ? makeIsolatedEngineChain(p) : makeEngineChain(p);
  } catch (e) {
    return failed(`engine failed to build the chain: ${errorText(e)}`);
  }
  if (!made.ok) return failed(made.reason);
  const c = made.chain;
  const round = (made as { round?: (plan: MeasurePlan) => RoundTimes }).round;
  return {
    ok: true,
    runner: { plan: STANDARD_PLAN, maxRounds, reset: c.reset, step: c.step, stopped: () => c.stopped() !== undefined, ...(round ? { round } : {}) },
    finish: (rounds) => {
      const stop = c.stopped();
      if (stop) return { ok: false, reason: `engine run stopped: ${stop}` };
      const timing = timingOf(rounds, STANDARD_PLAN);
      history.push({ n: p.n, ms: timing.medianMs });
      return { ok: true, timing, sanity: sanityOf(c.jointError(), c.tipZ(), timing), ...c.lastStepInfo(), positions: c.positions() };
    },
  };
}

// ---------------------------------------------------------------------------------------------
// the dense seed path

export interface DenseExtra {
  positions?: number[];
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

export function prepareDense(p: ChainParams, budgetS: number): Prepared<DenseExtra> {
  const nv = 6 * p.n, m = 3 * p.n;
  const macs = denseStepMacs(nv, m);
  // M⁻¹, J, M⁻¹Jᵀ, A and LU's copy, as Float64Array
  const bytes = 8 * (nv * nv + 2 * m * nv + 2 * m * m);
  const projectedMs = macs / calibrateDense();
  // The standard plan if it fits the budget (then the engine can be checked against it step for
  // step), else fewer steps, else skip.
  const plans: MeasurePlan[] = [STANDARD_PLAN, { warmup: 2, steps: 20 }, { warmup: 1, steps: 3 }];
  const plan = plans.find((pl) => ((pl.warmup + pl.steps) * projectedMs) / 1000 <= budgetS) ?? plans[plans.length - 1];
  const projectedTotalS = ((plan.warmup + plan.steps) * projectedMs) / 1000;
  if (projectedTotalS > budgetS) {
    const reason =
      `skipped: projected ≈ ${fmtMs(projectedMs)}/step (${macs.toExponential(1)} multiply-adds at ` +
      `${(calibrateDense() / 1e6).toFixed(2)} GMAC/s; dense M⁻¹ ${nv}×${nv}, ${fmtBytes(bytes)} of matrices), ` +
      `${plan.warmup + plan.steps} steps ≈ ${projectedTotalS.toFixed(0)} s > --dense-budget ${budgetS} s`;
    return { ok: false, outcome: { ok: false, projectedMs, reason } };
  }
  let w = denseWorld(p);
  return {
    ok: true,
    runner: {
      plan,
      // more rounds only while they fit in the budget
      maxRounds: Math.max(1, Math.floor(budgetS / Math.max(projectedTotalS, 1e-9))),
      reset: () => {
        w = denseWorld(p);
      },
      step: () => denseStep(w, p.dt),
    },
    finish: (rounds) => {
      const timing = timingOf(rounds, plan);
      denseMacsPerMs = Math.max(denseMacsPerMs ?? 0, macs / timing.medianMs);
      const jointError = chainJointError(p, (k) => ({ pos: w.bodies[k].p, quatXyzw: w.bodies[k].q }));
      return {
        ok: true,
        timing,
        sanity: sanityOf(jointError, w.bodies[p.n - 1].p[2], timing),
        macsPerStep: macs,
        gmacPerS: macs / timing.medianMs / 1e6,
        bytes,
        positions: w.bodies.flatMap((b) => b.p),
      };
    },
  };
}

// ---------------------------------------------------------------------------------------------
// peers

export interface PeerExtra {
  /** Building the world / compiling the model (ms, not part of the per-step figure). */
  loadMs: number;
  /** Of the last step (solver iterations, constraint rows, …). */
  info: Record<string, number>;
}

export interface PeerRun {
  main: Outcome<PeerExtra>;
  variants: { label: string; outcome: Outcome<PeerExtra> }[];
}

function preparePeerChain(label: string, make: () => PeerChain, maxRounds: number): Prepared<PeerExtra> {
  const t0 = nowMs();
  let c: PeerChain;
  try {
    c = make();
  } catch (e) {
    return failed(`${label} could not build the chain: ${errorText(e)}`);
  }
  const loadMs = nowMs() - t0;
  return {
    ok: true,
    runner: { plan: STANDARD_PLAN, maxRounds, reset: c.reset, step: c.step },
    abort: () => c.dispose(),
    finish: (rounds) => {
      try {
        const timing = timingOf(rounds, STANDARD_PLAN);
        return { ok: true, timing, sanity: sanityOf(c.jointError(), c.tipZ(), timing), loadMs, info: c.lastStepInfo() };
      } finally {
        c.dispose();
      }
    },
  };
}

export function preparePeer(peer: Peer, p: ChainParams, budgetS: number, history: History): Prepared<PeerExtra> {
  const proj = projectMs(history, p.n);
  const maxRounds = roundsWithin(proj, STANDARD_PLAN, Infinity, budgetS);
  if (maxRounds === 0) return skipped(peer.label, proj!, budgetS);
  return preparePeerChain(peer.label, () => peer.make(p), maxRounds);
}

/**
 * The peer's other configurations, one round each and one after the other (they are for
 * comparison only), while they cost little next to the main figure.
 */
export function runVariants(peer: Peer, p: ChainParams, main: Outcome<PeerExtra>, budgetS: number): PeerRun['variants'] {
  if (!peer.variants || !main.ok) return [];
  if ((2 * (STANDARD_PLAN.warmup + STANDARD_PLAN.steps) * main.timing.medianMs) / 1000 > budgetS) return [];
  return peer.variants(p).map((v) => {
    const prep = preparePeerChain(`${peer.label} ${v.label}`, v.make, 1);
    if (!prep.ok) return { label: v.label, outcome: prep.outcome };
    let res: RoundsOrError;
    try {
      res = { rounds: [measureRound(prep.runner.reset, prep.runner.step, prep.runner.plan)] };
    } catch (e) {
      res = { error: e };
    }
    return { label: v.label, outcome: settle(prep, res, `${peer.label} ${v.label}`) };
  });
}
