// Divergence of a run: when it is declared (a value went non-finite or beyond ±1e150, the energy grew
// without a source, or a constraint's |C| grew by orders of magnitude), and where the growth began:
// the step, and the constraints and bodies whose |C|, λ or velocity grew first and fastest. The cause
// is classified in divergenceCause.ts; docs/divergence.md explains both.
import type { World } from '../assembly/assemble';
import { energyOf } from '../analysis/analysis';
import type { Finding } from './nonFinite';
import type { BodyState } from '../model/body';
import type { SolveOutput } from '../kkt/kkt';
import type { StepRecord } from '../result';

/** What declared the divergence. */
export type Trigger =
  /** A value went non-finite or beyond ±1e150 at `step`: the run stopped (no record for `step`). */
  | { kind: 'stopped'; step: number; finding: Finding }
  /** The energy exceeded its initial value by more than the scene's energy scale at `step`. */
  | { kind: 'energy'; step: number; gain: number; scale: number }
  /** |C| of constraint `constraint` (world index) exceeded `limit` at `step`. */
  | { kind: 'violation'; step: number; constraint: number; value: number; limit: number };

/** The run as the analysis reads it. */
export interface RunTrace {
  /** Records of steps 1…N (record k − 1 is step k). */
  readonly records: readonly StepRecord[];
  /** Calls `visit` with the body states after each step from…to (0 = the initial state), in order. */
  replay(from: number, to: number, visit: (step: number, states: readonly BodyState[]) => void): void;
  /** The system at step k (0 ≤ k ≤ N) solved with the analysis a step does (rank, consistency, κ, scaled κ). */
  solveAt(k: number): SolveOutput;
}

/** |C| above this many times max(driftTolerance, ‖C₀‖) is a divergence (orders of magnitude, not drift). */
export const VIOLATION_GROWTH = 100;
/** A growth rate is measured over the first this many steps of an excursion. */
export const RATE_STEPS = 20;
/** A series is "growing" once above this many times its baseline. */
export const GROWTH_FACTOR = 10;
/** About this many radians per step is where explicit integration of rotation stops being accurate. */
export const ROTATION_STEP_LIMIT = 1;
/** The body-state replay covers at most this many body·steps (bounded work on large scenes). */
const REPLAY_BUDGET = 100_000;

/** The characteristic length of the scene: the diagonal of the box around the bodies and the world anchors (at least 1e-3 m). */
export function sceneLength(world: World, states: readonly BodyState[]): number {
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  const add = (p: readonly number[]) => {
    for (let d = 0; d < 3; d++) {
      if (!Number.isFinite(p[d])) continue;
      lo[d] = Math.min(lo[d], p[d]);
      hi[d] = Math.max(hi[d], p[d]);
    }
  };
  states.forEach((s) => add(s.p));
  world.constraints.forEach((c, i) => {
    if (world.endA[i] < 0) add(c.spec.anchorA);
    if (world.endB[i] < 0) add(c.spec.anchorB);
  });
  const diag = Math.hypot(...[0, 1, 2].map((d) => (hi[d] > lo[d] ? hi[d] - lo[d] : 0)));
  return Math.max(1e-3, Number.isFinite(diag) ? diag : 1e-3);
}

/** Declares a divergence during a run: once per run, from each new record. */
export class DivergenceWatch {
  /** Initial total energy, and the energy scale a run without sources cannot gain. */
  readonly energy0: number;
  readonly energyScale: number;
  /** Applied forces or torques do work: then energy growth is not a symptom. */
  readonly hasSources: boolean;
  /** Per constraint: |C| above this is a divergence. */
  readonly violationLimit: Float64Array;
  private fired = false;

  constructor(readonly world: World, initial: readonly BodyState[], initialViolation: ArrayLike<number>) {
    const s = world.scene;
    this.energy0 = energyOf(world, initial as BodyState[]).total;
    const L = sceneLength(world, initial);
    const g = Math.hypot(...s.gravity);
    let potential = 0;
    let mass = 0;
    world.bodies.forEach((b) => {
      if (b.column < 0) return;
      mass += b.spec.mass;
      if (b.spec.gravity) potential += b.spec.mass * g * L;
    });
    const kinetic0 = energyOf(world, initial as BodyState[]).kinetic;
    // what the bodies could gain from gravity across the scene, what they had, and m·(L/1 s)² as a floor
    this.energyScale = Math.max(kinetic0 + potential, mass * L * L, Number.MIN_VALUE);
    this.hasSources = world.bodies.some((b) => b.column >= 0 && [...b.spec.force, ...b.spec.torque].some((x) => x !== 0));
    this.violationLimit = Float64Array.from(world.constraints, (_, c) => VIOLATION_GROWTH * Math.max(s.solver.driftTolerance, initialViolation[c] ?? 0, 1e-12));
  }

  get triggered(): boolean {
    return this.fired;
  }

  reset(): void {
    this.fired = false;
  }

  /** Marks the run as diverged (a stop explains itself even after an earlier trigger). */
  stop(step: number, finding: Finding): Trigger {
    this.fired = true;
    return { kind: 'stopped', step, finding };
  }

  /** A trigger at this record, or undefined (also after the first one). */
  observe(rec: StepRecord): Trigger | undefined {
    if (this.fired) return undefined;
    const gain = rec.energy.total - this.energy0;
    if (!this.hasSources && gain > this.energyScale) {
      this.fired = true;
      return { kind: 'energy', step: rec.step, gain, scale: this.energyScale };
    }
    for (let c = 0; c < rec.C.length; c++) {
      if (rec.C[c] > this.violationLimit[c]) {
        this.fired = true;
        return { kind: 'violation', step: rec.step, constraint: c, value: rec.C[c], limit: this.violationLimit[c] };
      }
    }
    return undefined;
  }
}

/** One growing series: a constraint's |C| or λ, a body's |v| or |ω|. */
export interface Growth {
  owner: { kind: 'constraint' | 'body'; index: number; name: string; fileIndex: number };
  quantity: '|C|' | '|λ|' | '|v|' | '|ω|';
  /** Its normal level: the median over the first half of the run up to the end. */
  baseline: number;
  /** First step of its final excursion above GROWTH_FACTOR × baseline. */
  start: number;
  /** Its value before the excursion and at the end. */
  from: number;
  to: number;
  /** Mean growth factor per step over the first RATE_STEPS steps of the excursion. */
  rate: number;
}

export interface GrowthReport {
  /** The last step analysed (the trigger's record, or the last good step of a stopped run). */
  end: number;
  /** The step where growth began (the earliest excursion), or undefined when no series left its baseline. */
  onset?: number;
  /** Growing series, by start (earliest first), then by rate. */
  growing: Growth[];
  first?: Growth;
  fastest?: Growth;
  /** Total energy at step 0, just before the onset, at the rotation's step and at the end. */
  energy: { initial: number; beforeOnset: number; atRotation: number; end: number };
  /** The first step where a body turned ≥ ROTATION_STEP_LIMIT rad in one step (|ω|·dt), else the largest turn, with the body. */
  rotation: { value: number; body?: string; step: number };
  /** First step with body velocities (replays are bounded). */
  replayedFrom: number;
}

function median(xs: number[]): number {
  if (xs.length === 0) return 0;
  const s = xs.slice().sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/**
 * `median` of the finite values among values[0…last], sorted in `scratch`: the same number (a typed
 * array sorts numerically, as `median`'s comparator does; the two may order -0 and +0 differently,
 * which no caller can tell apart: every series is |·| ≥ 0 and the baselines are floored above 0).
 */
function finiteMedian(values: Float64Array, last: number, scratch: Float64Array): number {
  let n = 0;
  for (let k = 0; k <= last; k++) {
    const v = values[k];
    if (Number.isFinite(v)) scratch[n++] = v;
  }
  if (n === 0) return 0;
  return scratch.subarray(0, n).sort()[Math.floor(n / 2)];
}

type Series = { owner: Growth['owner']; quantity: Growth['quantity']; values: Float64Array; first: number };

/** Baseline, excursion start and rate of each series over steps [first, end]; floors relative to the kind's typical level. */
function growthOf(series: Series[], end: number): Growth[] {
  const byKind = new Map<string, Series[]>();
  for (const s of series) {
    const group = byKind.get(s.quantity);
    if (group) group.push(s);
    else byKind.set(s.quantity, [s]);
  }
  const out: Growth[] = [];
  // one buffer for every series' reference window (the analysis runs once per divergence, but over hundreds of series)
  const scratch = new Float64Array(end + 2);
  for (const group of byKind.values()) {
    const raw = group.map((s) => finiteMedian(s.values, Math.max(0, Math.floor((end - s.first) / 2)), scratch));
    const floor = Math.max(1e-12, 1e-3 * median(raw));
    group.forEach((s, i) => {
      const baseline = Math.max(raw[i], floor);
      const at = (k: number) => s.values[k - s.first];
      const last = at(end);
      if (!(last > GROWTH_FACTOR * baseline) && Number.isFinite(last)) return;
      let k = end;
      while (k > s.first && !(at(k) <= GROWTH_FACTOR * baseline)) k--;
      const normal = at(k) <= GROWTH_FACTOR * baseline;
      const start = normal ? k + 1 : s.first;
      const from = Math.max(normal ? at(k) : at(s.first), baseline);
      const to = Number.isFinite(last) ? last : Number.MAX_VALUE;
      // the rate over the first RATE_STEPS steps of the excursion: how fast it took off, not the final explosion
      const m = Math.max(1, Math.min(RATE_STEPS, end - (start - 1)));
      const early = at(start - 1 + m);
      const rate = Math.exp(Math.log((Number.isFinite(early) ? early : Number.MAX_VALUE) / from) / m);
      out.push({ owner: s.owner, quantity: s.quantity, baseline, start, from, to, rate });
    });
  }
  return out.sort((a, b) => a.start - b.start || b.rate - a.rate);
}

/**
 * |v| and |ω| of the moving bodies at steps from…end. From the recorded poses when the records keep
 * them, inverting the integrator exactly (p_k = p_{k−1} + h·v_k; q_k ∝ (1 + ½h·(ω_k, 0))⊗q_{k−1}, so
 * q_k⊗q̄_{k−1} ∝ (½h·ω_k, 1)); otherwise replayed from the checkpoints, at most REPLAY_BUDGET body·steps.
 */
function bodySpeeds(world: World, trace: RunTrace, movers: number[], end: number): { from: number; speed: Float64Array[]; spin: Float64Array[] } {
  const recs = trace.records;
  const nb = world.bodies.length;
  const h = world.scene.solver.dt;
  if (end >= 1 && recs[0].poses.length === nb * 7) {
    const speed = movers.map(() => new Float64Array(end + 1));
    const spin = movers.map(() => new Float64Array(end + 1));
    // in scalars (no arrays per body and step: this runs over every recorded step of every body);
    // d = q_k ⊗ q̄_{k−1} written out as core/math.ts quatMulInto(q_k, quatConj(q_{k−1})), term for term
    movers.forEach((i, j) => {
      const b = world.bodies[i].spec;
      const sp = speed[j];
      const sn = spin[j];
      sp[0] = Math.hypot(...b.velocity);
      sn[0] = Math.hypot(...b.angularVelocity);
      let px = b.position[0], py = b.position[1], pz = b.position[2];
      let qx = b.orientation[0], qy = b.orientation[1], qz = b.orientation[2], qw = b.orientation[3];
      const at = i * 7;
      for (let k = 1; k <= end; k++) {
        const o = recs[k - 1].poses;
        const x = o[at], y = o[at + 1], z = o[at + 2];
        const ax = o[at + 3], ay = o[at + 4], az = o[at + 5], aw = o[at + 6];
        sp[k] = Math.hypot(x - px, y - py, z - pz) / h;
        const bx = -qx, by = -qy, bz = -qz, bw = qw;
        const d0 = aw * bx + ax * bw + ay * bz - az * by;
        const d1 = aw * by - ax * bz + ay * bw + az * bx;
        const d2 = aw * bz + ax * by - ay * bx + az * bw;
        const d3 = aw * bw - ax * bx - ay * by - az * bz;
        sn[k] = (2 * Math.hypot(d0, d1, d2)) / (h * Math.abs(d3));
        px = x;
        py = y;
        pz = z;
        qx = ax;
        qy = ay;
        qz = az;
        qw = aw;
      }
    });
    return { from: 0, speed, spin };
  }
  const window = Math.max(50, Math.floor(REPLAY_BUDGET / Math.max(1, movers.length)));
  const from = Math.max(0, end - window);
  const speed = movers.map(() => new Float64Array(end - from + 1));
  const spin = movers.map(() => new Float64Array(end - from + 1));
  trace.replay(from, end, (k, states) => {
    movers.forEach((i, j) => {
      speed[j][k - from] = Math.hypot(...states[i].v);
      spin[j][k - from] = Math.hypot(...states[i].w);
    });
  });
  return { from, speed, spin };
}

/** Where the growth began and who grew first and fastest, from the records and a replay of the body states. */
export function analyseGrowth(world: World, trace: RunTrace, trigger: Trigger, initialViolation: ArrayLike<number>, initialEnergy: number): GrowthReport {
  const recs = trace.records;
  const end = trigger.kind === 'stopped' ? recs.length : Math.min(trigger.step, recs.length);
  const series: Series[] = [];
  const owner = (kind: 'constraint' | 'body', index: number) => {
    const spec = kind === 'constraint' ? world.constraints[index].spec : world.bodies[index].spec;
    return { kind, index, name: spec.name, fileIndex: spec.index };
  };
  world.constraints.forEach((_, c) => {
    const values = new Float64Array(end + 1);
    values[0] = initialViolation[c] ?? 0;
    for (let k = 1; k <= end; k++) values[k] = recs[k - 1].C[c];
    series.push({ owner: owner('constraint', c), quantity: '|C|', values, first: 0 });
    if (end >= 1 && recs[0].lambda.length === world.nRows) {
      const lam = new Float64Array(end);
      for (let k = 1; k <= end; k++) {
        let m = 0;
        const l = recs[k - 1].lambda;
        for (let r = world.rowStart[c]; r < world.rowStart[c + 1]; r++) m = Math.max(m, Math.abs(l[r]));
        lam[k - 1] = m;
      }
      series.push({ owner: owner('constraint', c), quantity: '|λ|', values: lam, first: 1 });
    }
  });
  const movers = world.bodies.map((b, i) => (b.column >= 0 ? i : -1)).filter((i) => i >= 0);
  const { from, speed, spin } = bodySpeeds(world, trace, movers, end);
  movers.forEach((i, j) => {
    series.push({ owner: owner('body', i), quantity: '|v|', values: speed[j], first: from });
    series.push({ owner: owner('body', i), quantity: '|ω|', values: spin[j], first: from });
  });
  const growing = growthOf(series, end);
  const onset = growing.length ? growing[0].start : undefined;
  // fastest among the early growers (excursions starting within RATE_STEPS of the onset): the
  // culprits, not the bystanders swept up by the final explosion
  const early = onset === undefined ? [] : growing.filter((g) => g.start <= onset + RATE_STEPS);
  const fastest = early.reduce<Growth | undefined>((m, g) => (!m || g.rate > m.rate ? g : m), undefined);
  const E = (k: number) => (k <= 0 ? initialEnergy : recs[Math.min(k, recs.length) - 1].energy.total);
  // the first step where some body turned more than ROTATION_STEP_LIMIT rad in one step, else the largest turn
  const dt = world.scene.solver.dt;
  let rot = { value: 0, body: undefined as string | undefined, step: end };
  for (let k = from; k <= end; k++) {
    let best = rot;
    movers.forEach((i, j) => {
      const v = spin[j][k - from] * dt;
      // the earliest of equal turns (equal up to round-off: poses and replays differ in the last digits)
      if (v > best.value * (1 + 1e-9)) best = { value: v, body: world.bodies[i].spec.name, step: k };
    });
    rot = best;
    if (rot.value >= ROTATION_STEP_LIMIT) break;
  }
  return {
    end,
    onset,
    growing,
    first: growing[0],
    fastest,
    energy: { initial: initialEnergy, beforeOnset: E((onset ?? end) - 1), atRotation: E(rot.step), end: E(end) },
    rotation: rot,
    replayedFrom: from,
  };
}
