// Mutation fuzzing of the example scenes toward extreme values: every number literal may
// become 0, ±1e-320, ±1e155, ±1e300, ±1e308, 1e309, a string ("NaN", "Infinity", …) or a huge array,
// and the engine must answer every mutant with finite, bounded numbers or with a diagnostic:
//   - no exception, no CL900;
//   - every number inspect shows at step 0 is finite and within ±1e150, or inspect reports CL401/CL403
//     at step 0 (an error, so the CLI exits 1);
//   - every record of a run (C, λ, κ, energy, |q|−1, poses), the final state and the snapshots the
//     panel asks for are finite and within ±1e150, and a run that stops names its stop step in a
//     CL401/CL403 diagnostic (data.step) whose records before it are all clean;
//   - the CLI (`inspect`, `simulate --steps`) exits 1 exactly when there are errors, and never prints
//     NaN without a diagnostic.
// test/fuzz/run.ts runs it for as long as you like; test/unit/fuzz-mutate.test.ts runs a short version.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { visit } from 'jsonc-parser';
import { Codes, inspectScene, Simulation, stepWithinBudget, type ContactStepFields, type Diagnostic, type NewtonSnapshot, type NewtonStepReport, type SystemSnapshot, type TimeBudget } from '../../src/engine';

export const HUGE = 1e150;
export const EXAMPLES_DIR = join(__dirname, '../../examples');

export function loadExamples(dir = EXAMPLES_DIR): { name: string; text: string }[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.scene.json'))
    .sort()
    .map((f) => ({ name: f, text: readFileSync(join(dir, f), 'utf8') }));
}

/** A small deterministic PRNG (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const EXTREMES = ['0', '-0', '1e-320', '-1e-320', '5e-324', '1e-150', '1e-160', '1e155', '-1e155', '1e300', '-1e300', '1e308', '-1e308', '1.7976931348623157e308', '1e309', '1e-12', '1e12', '1e75', '1e100', '-1', '2', '0.5'];
const STRINGS = ['"NaN"', '"Infinity"', '"-Infinity"', '"1e999"', '""', 'null', 'true'];

interface Span {
  offset: number;
  length: number;
  kind: 'number' | 'array';
}

function spans(text: string): Span[] {
  const out: Span[] = [];
  const arrays: number[] = [];
  visit(text, {
    onLiteralValue: (value, offset, length) => {
      if (typeof value === 'number') out.push({ offset, length, kind: 'number' });
    },
    onArrayBegin: (offset) => {
      arrays.push(offset);
    },
    onArrayEnd: (offset) => {
      const start = arrays.pop();
      if (start !== undefined) out.push({ offset: start, length: offset + 1 - start, kind: 'array' });
    },
  }, { allowTrailingComma: true, disallowComments: false });
  return out;
}

/** One mutant: 1–3 edits of number literals (or, rarely, of whole arrays). */
export function mutate(text: string, rand: () => number): { text: string; edits: string[] } {
  const all = spans(text);
  const numbers = all.filter((s) => s.kind === 'number');
  const arrays = all.filter((s) => s.kind === 'array');
  const n = 1 + Math.floor(rand() * 3);
  const chosen: { span: Span; to: string }[] = [];
  for (let k = 0; k < n && numbers.length; k++) {
    const r = rand();
    if (r < 0.06 && arrays.length) {
      const span = arrays[Math.floor(rand() * arrays.length)];
      const len = [0, 1, 2, 4, 5, 100, 20000][Math.floor(rand() * 7)];
      const item = EXTREMES[Math.floor(rand() * EXTREMES.length)];
      chosen.push({ span, to: `[${Array(len).fill(item).join(', ')}]` });
      continue;
    }
    const span = numbers[Math.floor(rand() * numbers.length)];
    const original = Number(text.slice(span.offset, span.offset + span.length));
    let to: string;
    if (r < 0.12) to = STRINGS[Math.floor(rand() * STRINGS.length)];
    else if (r < 0.3) to = String(original * 10 ** Math.round(rand() * 600 - 300));
    else if (r < 0.38) to = String((rand() - 0.5) * 2e6);
    else to = EXTREMES[Math.floor(rand() * EXTREMES.length)];
    chosen.push({ span, to });
  }
  // apply from the end; skip overlaps (an array that contains an edited number)
  chosen.sort((a, b) => b.span.offset - a.span.offset);
  let out = text;
  let limit = Infinity;
  const edits: string[] = [];
  for (const c of chosen) {
    if (c.span.offset + c.span.length > limit) continue;
    edits.push(`${text.slice(c.span.offset, c.span.offset + Math.min(c.span.length, 40))} → ${c.to.slice(0, 40)}`);
    out = out.slice(0, c.span.offset) + c.to + out.slice(c.span.offset + c.span.length);
    limit = c.span.offset;
  }
  return { text: out, edits };
}

const bad = (x: number) => !(Math.abs(x) <= HUGE);

function firstBadIn(label: string, xs: ArrayLike<number> | undefined): string | undefined {
  if (!xs) return undefined;
  for (let i = 0; i < xs.length; i++) if (bad(xs[i])) return `${label}[${i}] = ${xs[i]}`;
  return undefined;
}

/**
 * The first bad number among a record's or snapshot's contact fields: each contact's point, normal,
 * tangents, gap, forces and cone ratio, the complementarity residual and the largest penetration,
 * PGS's residual, Newton's residuals, block norms, step lengths and κ (null: singular) and, in a
 * snapshot, the Newton matrix, its per-iteration block norms and the worst residual.
 */
export function badInContacts(s: ContactStepFields & { newton?: NewtonStepReport & Partial<Pick<NewtonSnapshot, 'blockResiduals' | 'matrix' | 'worst'>> }): string | undefined {
  for (const [k, c] of (s.contacts ?? []).entries()) {
    const b = firstBadIn(`contacts[${k}]`, [...c.point, ...c.normal, ...c.t1, ...c.t2, c.gap, c.normalForce, ...c.frictionForce, c.coneRatio]);
    if (b) return b;
  }
  const scalars: [string, number | undefined][] = [['complementarity', s.complementarity], ['maxPenetration', s.maxPenetration], ['pgs.residual', s.pgs?.residual], ['newton.cond', s.newton?.cond ?? undefined], ['newton.worst', s.newton?.worst?.value]];
  for (const [l, x] of scalars) if (x !== undefined && bad(x)) return `${l} = ${x}`;
  const n = s.newton;
  if (!n) return undefined;
  const blockNorms = (b: { dyn: number; kin: number; b: number; n: number; f: number }) => [b.dyn, b.kin, b.b, b.n, b.f];
  return (
    firstBadIn('newton.residuals', n.residuals) ??
    firstBadIn('newton.stepLengths', n.stepLengths) ??
    (n.blocks ? firstBadIn('newton.blocks', blockNorms(n.blocks)) : undefined) ??
    firstBadIn('newton.blockResiduals', n.blockResiduals?.flatMap(blockNorms)) ??
    firstBadIn('newton.matrix', n.matrix?.values)
  );
}

/** The first number a snapshot shows that is NaN, ±∞ or beyond ±1e150 (κ may be null: singular). */
export function badInSnapshot(s: SystemSnapshot): string | undefined {
  const vectors: [string, ArrayLike<number> | undefined][] = [
    ['MinvBlocks', s.MinvBlocks], ['J', s.J.values], ['A', s.A?.values ?? []], ['F', s.F], ['v', s.v], ['rhs', s.rhs], ['a0', s.a0], ['b', s.b],
    ['lambda', s.lambda], ['a', s.a], ['C', s.C], ['Cdot', s.Cdot], ['constraintForce', s.constraintForce], ['W', s.W?.values], ['B', s.B], ['R', s.R],
    ['singularValues', s.singularValues],
  ];
  for (const [l, x] of vectors) {
    const b = firstBadIn(l, x);
    if (b) return b;
  }
  for (const [l, x] of [['t', s.t], ['residual', s.residual], ['energy.kinetic', s.energy.kinetic], ['energy.potential', s.energy.potential], ['energy.total', s.energy.total], ['cond.A', s.cond.A ?? 0], ['cond.scaled', s.cond.scaled ?? 0]] as const) {
    if (bad(x)) return `${l} = ${x}`;
  }
  for (const c of s.constraints) {
    const b =
      firstBadIn(`${c.name}.lambda`, c.lambda) ??
      firstBadIn(`${c.name}.violation`, [c.violation, c.velocityViolation]) ??
      firstBadIn(`${c.name}.forces`, [...c.forceA, ...c.torqueA, ...c.forceB, ...c.torqueB]) ??
      firstBadIn(`${c.name}.anchors`, [...c.anchorAWorld, ...c.anchorBWorld]);
    if (b) return b;
  }
  for (const b of s.bodyStates) {
    const x = firstBadIn(`${b.name}.state`, [...b.position, ...b.orientation, ...b.velocity, ...b.angularVelocity, b.quatDrift]);
    if (x) return x;
  }
  return badInContacts(s);
}

const isFinding = (d: Diagnostic) => d.code === Codes.nonFinite || d.code === Codes.overflow;

export interface Verdict {
  /** Why the mutant fails the invariants, or undefined. */
  failure?: string;
  /** What the engine said (for statistics). */
  outcome: 'parse-error' | 'step0-finding' | 'run-stopped' | 'ran' | 'no-scene';
  steps: number;
}

/** Inspect and run one scene text (at most `maxSteps` steps) and check the invariants. */
export function checkScene(text: string, maxSteps = 150, budget?: TimeBudget): Verdict {
  let steps = 0;
  try {
    const r = inspectScene(text);
    const internal = r.diagnostics.find((d) => d.code === Codes.internalError);
    if (internal) return { failure: `CL900: ${internal.message}`, outcome: 'no-scene', steps };
    if (!r.parse.scene) return { outcome: 'no-scene', steps };
    if (!r.snapshot) return { outcome: r.parse.hasErrors ? 'parse-error' : 'no-scene', steps };
    const step0 = r.diagnostics.find((d) => isFinding(d) && d.data?.step === 0);
    const b0 = badInSnapshot(r.snapshot);
    if (b0 && !step0) return { failure: `step 0 shows ${b0} without a CL401/CL403 at step 0`, outcome: 'ran', steps };
    if (step0 && !r.hasErrors) return { failure: 'a step-0 finding but hasErrors is false', outcome: 'step0-finding', steps };
    if (step0) return { outcome: 'step0-finding', steps };
    const scene = r.parse.scene;
    const sim = new Simulation(scene, r.parse.sourceMap);
    const total = Math.min(maxSteps, scene.solver.steps);
    // (a run over its time budget ends there, as in the editor: CL406 is an answer, not a hang)
    while (sim.currentStep < total && !sim.stopped) if (stepWithinBudget(sim, Math.min(50, total - sim.currentStep), budget, text)) break;
    steps = sim.currentStep;
    for (const rec of sim.records) {
      const b =
        firstBadIn(`step ${rec.step} C`, rec.C) ??
        firstBadIn(`step ${rec.step} lambda`, rec.lambda) ??
        firstBadIn(`step ${rec.step} poses`, rec.poses) ??
        firstBadIn(`step ${rec.step} energy, |q|−1, κ, t`, [rec.energy.kinetic, rec.energy.potential, rec.energy.total, rec.quatDrift, rec.cond.A ?? 0, rec.t]) ??
        badInContacts(rec);
      if (b) return { failure: `recorded ${b}`, outcome: 'ran', steps };
    }
    const res = sim.result();
    for (const body of res.final.bodies) {
      const b = firstBadIn(`final ${body.name}`, [...body.position, ...body.orientation, ...body.velocity, ...body.angularVelocity]);
      if (b) return { failure: b, outcome: 'ran', steps };
    }
    if (sim.stopped) {
      const d = sim.diagnostics.find(isFinding);
      if (!d) return { failure: `the run stopped at ${res.stoppedAt} without CL401/CL403`, outcome: 'run-stopped', steps };
      if (d.data?.step !== res.stoppedAt) return { failure: `stopped at ${res.stoppedAt} but the finding names step ${String(d.data?.step)}`, outcome: 'run-stopped', steps };
      if (d.severity !== 'error') return { failure: 'the finding is not an error', outcome: 'run-stopped', steps };
    }
    // A stopped run's last good step is the state whose solve failed: its snapshot shows the bad
    // system (the finding names the next step), so only the steps before it are checked.
    const ks = [...new Set([0, Math.floor(steps / 2), steps])].filter((k) => !sim.stopped || k < steps);
    for (const k of ks) {
      const snap = sim.snapshotAt(k);
      const b = badInSnapshot(snap);
      // the snapshot of the last step shows the next step's contact solve, which the run has not
      // taken: a bad value there must come with its CL401/CL403 for step k + 1
      const next = k === steps && snap.diagnostics.some((d) => isFinding(d) && d.data?.step === k + 1 && d.severity === 'error');
      if (b && !next) return { failure: `snapshotAt(${k}) shows ${b}`, outcome: sim.stopped ? 'run-stopped' : 'ran', steps };
    }
    return { outcome: sim.stopped ? 'run-stopped' : 'ran', steps };
  } catch (e) {
    return { failure: `exception: ${e instanceof Error ? (e.stack ?? e.message).split('\n').slice(0, 4).join(' | ') : String(e)}`, outcome: 'no-scene', steps };
  }
}
