// The most likely cause of a divergence, with numbers, as one diagnostic (CL404) on the culprit's
// range, with related locations and a quick fix where one is safe; and the step-0 check of the
// stabilisation gains (CL307). The causes, in the order they are tested (docs/divergence.md):
//   gains too stiff for dt (ρ > 1) → no position correction (α = 0) while |C| grew → a conflicting
//   redundant set → an initial violation that kicked the bodies → a mass or inertia ratio across the
//   constraint that grew first (conditioning of A) → the time step too large for the motion.
import { modify } from 'jsonc-parser';
import type { World } from '../assembly/assemble';
import { Codes } from '../core/codes';
import { type GrowthReport, type RunTrace, type Trigger, analyseGrowth, type DivergenceWatch, type Growth, ROTATION_STEP_LIMIT as ROTATION_LIMIT } from './divergence';
import { bodyRange, constraintRange, formatNumber as fmt } from '../analysis/findings';
import { describeFinding } from './nonFinite';
import { segmentOf } from '../core/offsets';
import { type Recurrence, recurrenceOf, stableGains, stableRanges } from '../analysis/stability';
import type { SceneSpec, SolverSettings, SourceMap } from '../scene/spec';
import type { Diagnostic, Fix, Range, RelatedInformation } from '../types';

/** Mass or inertia ratio across a constraint above which it is named as the cause. */
export const RATIO_LIMIT = 1e3;

type Cause =
  | { kind: 'gains'; rec: Recurrence }
  | { kind: 'no-correction'; rec: Recurrence }
  | { kind: 'conflict'; step: number; constraints: string[]; residual: number }
  | { kind: 'initial-violation'; constraint: number; violation: number }
  | { kind: 'mass-ratio'; constraint: number; ratio: number; what: 'mass' | 'inertia'; light: number; heavy: number; cond: number | null; scaled: number | null; step: number }
  | { kind: 'timestep'; rec: Recurrence }
  | { kind: 'unknown'; rec: Recurrence };

const FORMAT = { formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' } };

/** A quick fix setting solver fields (jsonc edits on the scene text), or undefined without the text. */
function solverFix(sm: SourceMap, title: string, values: [string, number | string][], preferred: boolean): Fix | undefined {
  let text = sm.text;
  if (text === undefined) return undefined;
  try {
    // apply one edit at a time so that each is computed on the text the previous one produced,
    // then express the whole change as one edit of the span that changed
    const original = text;
    for (const [key, value] of values) {
      const edits = modify(text, ['solver', key], value, FORMAT);
      for (const e of [...edits].sort((x, y) => y.offset - x.offset)) text = text.slice(0, e.offset) + e.content + text.slice(e.offset + e.length);
    }
    let start = 0;
    while (start < original.length && start < text.length && original[start] === text[start]) start++;
    let endO = original.length, endN = text.length;
    while (endO > start && endN > start && original[endO - 1] === text[endN - 1]) {
      endO--;
      endN--;
    }
    if (start === endO && start === endN) return undefined;
    // whole tokens: never split a number or a word between the kept and the replaced text
    const word = (c: string | undefined) => c !== undefined && /[\w.+-]/.test(c);
    while (start > 0 && word(original[start - 1])) start--;
    while (endO < original.length && word(original[endO])) {
      endO++;
      endN++;
    }
    return { title, edits: [{ range: { start: sm.positionAt(start), end: sm.positionAt(endO) }, newText: text.slice(start, endN) }], preferred };
  } catch {
    return undefined;
  }
}

/** The range of a solver setting: its key, else the `solver` key, else `fallback`. */
function settingRange(sm: SourceMap, key: string, fallback: Range): Range {
  if (sm.nodeSpan(['solver', key])) return sm.keyRangeOf(['solver', key]);
  if (sm.nodeSpan(['solver'])) return sm.keyRangeOf(['solver']);
  return fallback;
}

const ownerRange = (sm: SourceMap, o: Growth['owner']): Range => (o.kind === 'body' ? bodyRange(sm, o.fileIndex) : constraintRange(sm, o.fileIndex));

/** Which gain to name and edit: β when h·β is out of its range, else α (velocity: erp). */
function gainKey(s: SolverSettings, rec: Recurrence): 'alpha' | 'beta' | 'erp' {
  if (rec.kind === 'velocity') return 'erp';
  return rec.b > 0 && rec.b < 2 ? 'alpha' : 'beta';
}

/** "for dt = 0.01 the gains are stable iff 0 < β < 200 and 0 < α < (4 − 2hβ)/h²: with β = 20, α in (0, 3.6e4)". */
export function stableRangeText(s: SolverSettings): string {
  const r = stableRanges(s);
  if (r.erp) return `stable for dt = ${fmt(s.dt)} iff 0 < erp < ${fmt(r.erp.hi)}`;
  if (!r.alpha || !r.beta) return 'not governed by gains (the constraint error is solved implicitly)';
  if (s.stabilization === 'aerislab-oscillator')
    return `stable for dt = ${fmt(s.dt)} iff 0 < α < ${fmt(r.alpha.hi)} (2h·α < 2) and 0 < β < 2·√(1 − h·α)/h: with α = ${fmt(s.alpha)}, β in (0, ${fmt(r.beta.hi)})`;
  const aer = s.stabilization === 'aerislab';
  const bText = aer ? `0 ≤ β < ${fmt(r.beta.hi)} (h·(1 + β) < 2)` : `0 < β < ${fmt(r.beta.hi)}`;
  const law = `stable for dt = ${fmt(s.dt)} iff ${bText} and 0 < α < (4 − 2·h·${aer ? '(1 + β)' : 'β'})/h²`;
  const bOk = aer ? s.beta < r.beta.hi : s.beta > 0 && s.beta < r.beta.hi;
  if (!bOk) return `${law}; β = ${fmt(s.beta)} is outside its range${s.beta === 0 && !aer ? ' (with β = 0 no α gives ρ < 1: the error oscillates without decaying)' : ''}`;
  return `${law}: with β = ${fmt(s.beta)}, α in (0, ${fmt(r.alpha.hi)})`;
}

function recurrenceText(s: SolverSettings, rec: Recurrence): string {
  const rhs = rec.kind === 'aerislab' ? 'AerisLab rhs −(1 + β)·Ċ − α·C' : rec.kind === 'aerislab-oscillator' ? "AerisLab's oscillator rhs −J̇v − 2α·Ċ − β²·C" : rec.kind === 'baumgarte' ? 'Baumgarte rhs −J̇v − β·Ċ − α·C' : rec.kind === 'velocity' ? 'velocity target −(erp/h)·C' : 'rhs −J̇v (no stabilisation)';
  return `with the ${rhs} the error (C, h·Ċ) follows a 2×2 recurrence with a = ${fmt(rec.a)}, b = ${fmt(rec.b)} and spectral radius ρ = ${fmt(rec.rho, 6)}`;
}

/** A fix that sets stable gains (acceleration formulation), or undefined. */
function gainsFix(sm: SourceMap, s: SolverSettings): Fix | undefined {
  const base = s.stabilization === 'none' ? { ...s, stabilization: 'baumgarte' as const, beta: 0 } : s;
  const g = stableGains(base);
  // no gains help when dt itself is too large (AerisLab with h ≥ 2: h·(1 + β) ≥ 2 for every β ≥ 0)
  if (!g || !(g.rho < 1)) return undefined;
  const values: [string, number | string][] = [];
  if (s.stabilization === 'none') values.push(['stabilization', 'baumgarte']);
  values.push(['alpha', g.alpha]);
  if (g.beta !== undefined) values.push(['beta', g.beta]);
  const title = `Set ${values.map(([k, v]) => `solver.${k} = ${typeof v === 'number' ? fmt(v) : v}`).join(', ')} (ρ = ${fmt(g.rho, 3)} per step for dt = ${fmt(s.dt)})`;
  return solverFix(sm, title, values, true);
}

/** CL307 at step 0: the scene's gains make the linearised constraint error grow (ρ > 1). */
export function stabilityDiagnostic(scene: SceneSpec, sm: SourceMap): Diagnostic | undefined {
  const s = scene.solver;
  if (scene.constraints.length === 0) return undefined;
  const rec = recurrenceOf(s);
  if (!(rec.rho > 1 + 1e-12)) return undefined;
  const key = gainKey(s, rec);
  const fallback = sm.keyRangeOf(['constraints']);
  const fix = gainsFix(sm, s);
  return {
    severity: 'warning',
    code: Codes.unstableStabilization,
    message: `The stabilisation gains are too stiff for dt = ${fmt(s.dt)}: ${recurrenceText(s, rec)} > 1, so any constraint error grows by ×${fmt(rec.rho, 4)} per step and the run will diverge. The gains are ${stableRangeText(s)}.${fix ? ` ${fix.title.replace(/^Set /, 'Set ')}.` : ' Reduce dt.'}`,
    range: settingRange(sm, key, fallback),
    fixes: fix ? [fix] : undefined,
    data: { rho: rec.rho, a: rec.a, b: rec.b, ranges: stableRanges(s) },
  };
}

/** Mass and inertia ratios across constraint c (moving ends only). */
function ratioAcross(world: World, c: number): { ratio: number; what: 'mass' | 'inertia'; light: number; heavy: number } | undefined {
  const ends = [world.endA[c], world.endB[c]].filter((i) => i >= 0 && world.bodies[i].column >= 0);
  if (ends.length < 2) return undefined;
  const [x, y] = ends.map((i) => world.bodies[i]);
  const tr = (b: typeof x) => b.inertia[0] + b.inertia[4] + b.inertia[8];
  const mr = Math.max(x.spec.mass / y.spec.mass, y.spec.mass / x.spec.mass);
  const ir = Math.max(tr(x) / tr(y), tr(y) / tr(x));
  const what = mr >= ir ? 'mass' : 'inertia';
  const key = what === 'mass' ? (b: typeof x) => b.spec.mass : tr;
  const [light, heavy] = key(x) <= key(y) ? [ends[0], ends[1]] : [ends[1], ends[0]];
  return { ratio: Math.max(mr, ir), what, light, heavy };
}

function classify(world: World, trace: RunTrace, trigger: Trigger, g: GrowthReport, C0: ArrayLike<number>): Cause {
  const s = world.scene.solver;
  const rec = recurrenceOf(s);
  if (rec.rho > 1 + 1e-12) return { kind: 'gains', rec };
  const grewC = g.growing.some((x) => x.quantity === '|C|') || trigger.kind === 'violation';
  if (rec.kind !== 'implicit' && rec.a === 0 && grewC) return { kind: 'no-correction', rec };
  const firstC = g.growing.find((x) => x.owner.kind === 'constraint')?.owner.index ?? (trigger.kind === 'violation' ? trigger.constraint : undefined);
  const at = Math.max(0, Math.min((g.onset ?? g.end) - 1, trace.records.length));
  const out = trace.solveAt(at);
  if (out.consistent === false) {
    const name = (row: number) => world.constraints[segmentOf(world.rowStart, row)].spec.name;
    const names = [...new Set(out.dependent.flatMap((d) => [...d.dependsOn.map((x) => name(x.row)), name(d.row)]))];
    return { kind: 'conflict', step: at, constraints: names, residual: out.residual };
  }
  const tol = s.violationTolerance;
  const early = Math.max(5, Math.ceil(0.02 * g.end));
  const violated = world.constraints.map((_, c) => c).filter((c) => (C0[c] ?? 0) > tol);
  if (violated.length && (g.onset ?? Infinity) <= early) {
    const c = firstC !== undefined && violated.includes(firstC) ? firstC : violated.reduce((m, c) => ((C0[c] ?? 0) > (C0[m] ?? 0) ? c : m), violated[0]);
    return { kind: 'initial-violation', constraint: c, violation: C0[c] ?? 0 };
  }
  // the constraints involved in the growth, in the order they grew (those of growing bodies too); all of them without growth data
  const involved: number[] = [];
  for (const x of g.growing) {
    if (x.owner.kind === 'constraint') involved.push(x.owner.index);
    else world.constraints.forEach((_, c) => (world.endA[c] === x.owner.index || world.endB[c] === x.owner.index) && involved.push(c));
  }
  const candidates = [...new Set(involved.length ? involved : world.constraints.map((_, c) => c))];
  const finite = (x: number) => (Number.isFinite(x) ? x : null);
  const cond = finite(out.cond);
  const ill = cond === null || cond >= s.conditionWarning;
  for (const c of candidates) {
    const r = ratioAcross(world, c);
    if (r && (r.ratio >= RATIO_LIMIT || (ill && r.ratio >= 10 && c === firstC))) {
      return { kind: 'mass-ratio', constraint: c, ...r, cond, scaled: finite(out.condScaled), step: at };
    }
  }
  const gained = g.energy.end - g.energy.initial > 0 || trigger.kind === 'energy';
  if (gained || g.rotation.value >= ROTATION_LIMIT / 10) return { kind: 'timestep', rec };
  return { kind: 'unknown', rec };
}

const J = (x: number) => `${fmt(x)} J`;

function triggerText(world: World, trigger: Trigger, g: GrowthReport): string {
  switch (trigger.kind) {
    case 'stopped':
      return `The run diverged: ${describeFinding(trigger.finding)} became ${trigger.finding.reason === 'overflow' ? 'larger than 1e150' : 'non-finite'} at step ${trigger.step}.`;
    case 'energy':
      return `The run is diverging: the energy grew from ${J(g.energy.initial)} to ${J(g.energy.end)} by step ${trigger.step} (+${J(trigger.gain)}, more than the scene's energy scale of ${J(trigger.scale)}) with no applied force or torque to supply it.`;
    case 'violation':
      return `The run is diverging: |C| of constraint \`${world.constraints[trigger.constraint].spec.name}\` reached ${fmt(trigger.value)} at step ${trigger.step}, over ${fmt(trigger.limit)} (100 × max(solver.driftTolerance, ‖C₀‖)).`;
  }
}

const growthName = (x: Growth) => `${x.quantity} of ${x.owner.kind} \`${x.owner.name}\``;

/** Fewer steps than this say nothing about growth rates: the analysis then only names the cause. */
const MIN_STEPS_FOR_GROWTH = 5;

function growthText(world: World, g: GrowthReport): string {
  if (g.onset === undefined || !g.first || g.end < MIN_STEPS_FOR_GROWTH) return '';
  const dt = world.scene.solver.dt;
  const first = `${growthName(g.first)} (${fmt(g.first.from)} → ${fmt(g.first.to)})`;
  const fastest = g.fastest && g.fastest !== g.first ? `, fastest in ${growthName(g.fastest)} (×${fmt(g.fastest.rate, 3)} per step)` : ` (×${fmt(g.first.rate, 3)} per step)`;
  const before = g.energy.beforeOnset - g.energy.initial;
  const energy = Math.abs(before) > 1e-9 * Math.max(1, Math.abs(g.energy.initial)) && g.onset > 1 ? ` Before that the energy had gone from ${J(g.energy.initial)} to ${J(g.energy.beforeOnset)}.` : '';
  return ` Growth began at step ${g.onset} (t = ${fmt(g.onset * dt)} s): first in ${first}${fastest}.${energy}`;
}

function causeText(world: World, cause: Cause, g: GrowthReport, C0: ArrayLike<number>): string {
  const s = world.scene.solver;
  switch (cause.kind) {
    case 'gains':
      return ` Most likely cause: the stabilisation gains are too stiff for dt = ${fmt(s.dt)}: ${recurrenceText(s, cause.rec)} > 1, so the error grows ×${fmt(cause.rec.rho, 4)} per step. The gains are ${stableRangeText(s)}.`;
    case 'no-correction':
      return ` Most likely cause: nothing corrects the position error: ${s.stabilization === 'none' ? 'stabilization "none"' : 'α = 0'} leaves the recurrence of (C, h·Ċ) an eigenvalue 1 (ρ = ${fmt(cause.rec.rho, 6)}), so C drifts and is never pulled back. The gains are ${stableRangeText(s.stabilization === 'none' ? { ...s, stabilization: 'baumgarte' } : s)}.`;
    case 'conflict':
      return ` Most likely cause: constraints ${cause.constraints.map((n) => `\`${n}\``).join(', ')} are redundant with incompatible targets at step ${cause.step} (least-squares residual ${fmt(cause.residual)}): no λ satisfies them all and the solver fights between them. Remove one of them or make their targets agree.`;
    case 'initial-violation': {
      const c = world.constraints[cause.constraint].spec;
      const kick = s.formulation === 'velocity' ? `the velocity target erp·|C₀|/dt = ${fmt((s.erp * cause.violation) / s.dt)} (C's units per second)` : `the acceleration target α·|C₀| = ${fmt(s.alpha * cause.violation)} (C's units per s²)`;
      return ` Most likely cause: constraint \`${c.name}\` starts violated by |C₀| = ${fmt(cause.violation)} and the stabilisation pulls it in with ${kick}, pumping energy in at the first steps (the energy went from ${J(g.energy.initial)} to ${J(g.energy.end)}). Start from a configuration that satisfies it (CL304 has a fix for distances) or soften the gains.`;
    }
    case 'mass-ratio': {
      const c = world.constraints[cause.constraint].spec;
      const [l, h] = [world.bodies[cause.light].spec, world.bodies[cause.heavy].spec];
      const k = cause.cond === null ? '∞' : fmt(cause.cond, 3);
      return ` Most likely cause: a ${cause.what} ratio of ${fmt(cause.ratio, 3)} across constraint \`${c.name}\` (\`${l.name}\` against \`${h.name}\`) makes A = J·M⁻¹·Jᵀ ill-conditioned (κ(A) = ${k} at step ${cause.step}, κ of the diagonally scaled A = ${cause.scaled === null ? '∞' : fmt(cause.scaled, 3)}): λ carries a relative error of about κ·ε and the light body is driven by forces sized for the heavy one. Bring the ratio under ${fmt(RATIO_LIMIT)} (a heavier \`${l.name}\`) or reduce dt.`;
    }
    case 'timestep': {
      const rot = g.rotation;
      const over = rot.value >= ROTATION_LIMIT;
      // the energy gained before the explosion: at the step a body first turned ≥ 1 rad, else at the end
      const gained = (over ? g.energy.atRotation : g.energy.end) - g.energy.initial;
      const spin = !rot.body
        ? ''
        : over
          ? ` Body \`${rot.body}\` then turned |ω|·dt = ${fmt(rot.value, 3)} rad in one step at step ${rot.step}: beyond about ${ROTATION_LIMIT} rad per step the explicit update of the velocity-quadratic terms (J̇·v, ω × I·ω) overshoots, and the run explodes within a few steps.`
          : ` The fastest rotation so far: body \`${rot.body}\` turned |ω|·dt = ${fmt(rot.value, 3)} rad in one step at step ${rot.step} (explicit integration breaks down near ${ROTATION_LIMIT} rad per step).`;
      return ` Most likely cause: the time step is too large for the motion. The stabilisation itself is stable (${recurrenceText(s, cause.rec)} < 1; ${stableRangeText(s)}), but semi-implicit Euler with ${s.formulation === 'velocity' ? 'velocity-level' : 'acceleration-level'} constraints does not conserve energy: its error is first order in dt, and here it added ${J(gained)} by step ${over ? rot.step : g.end} that no force supplied.${spin} Reduce dt (halving it roughly halves the energy error)${s.formulation === 'acceleration' && s.stabilization !== 'aerislab' ? ', or use a dissipative scheme (stabilization "aerislab", or formulation "velocity")' : ''}.`;
    }
    case 'unknown': {
      const maxC0 = Math.max(0, ...Array.from(C0));
      return ` No single cause stands out: the gains are stable (ρ = ${fmt(cause.rec.rho, 6)}), no constraints conflict, no mass or inertia ratio across a constraint reaches ${fmt(RATIO_LIMIT)}, and the largest initial violation is ${fmt(maxC0)}. Reduce dt and check the magnitudes in the scene.`;
    }
  }
}

/** The CL404 diagnostic of a divergence (undefined when the run has no constraints and no bodies to analyse). */
export function explainDivergence(world: World, sm: SourceMap, trace: RunTrace, trigger: Trigger, C0: ArrayLike<number>, watch: DivergenceWatch): Diagnostic | undefined {
  if (world.bodies.length === 0) return undefined;
  const s = world.scene.solver;
  let g = analyseGrowth(world, trace, trigger, C0, watch.energy0);
  const cause = classify(world, trace, trigger, g, C0);
  const fallback = g.first ? ownerRange(sm, g.first.owner) : world.constraints.length ? constraintRange(sm, world.constraints[0].spec.index) : bodyRange(sm, world.bodies[0].spec.index);
  let range = fallback;
  const fixes: Fix[] = [];
  const related: RelatedInformation[] = [];
  switch (cause.kind) {
    case 'gains':
    case 'no-correction': {
      range = settingRange(sm, cause.kind === 'gains' ? gainKey(s, cause.rec) : s.stabilization === 'none' ? 'stabilization' : 'alpha', fallback);
      const f = gainsFix(sm, s);
      if (f) fixes.push(f);
      break;
    }
    case 'conflict': {
      const idx = cause.constraints.map((n) => world.constraints.find((c) => c.spec.name === n)).filter((c) => c !== undefined);
      if (idx.length) range = constraintRange(sm, idx[idx.length - 1].spec.index);
      for (const c of idx.slice(0, -1)) related.push({ message: `\`${c.spec.name}\` conflicts with it`, range: constraintRange(sm, c.spec.index) });
      break;
    }
    case 'initial-violation':
      range = constraintRange(sm, world.constraints[cause.constraint].spec.index);
      break;
    case 'mass-ratio': {
      const light = world.bodies[cause.light].spec;
      range = sm.nodeSpan(['bodies', light.index, cause.what]) ? sm.rangeOf(['bodies', light.index, cause.what]) : bodyRange(sm, light.index);
      related.push({ message: `across constraint \`${world.constraints[cause.constraint].spec.name}\``, range: constraintRange(sm, world.constraints[cause.constraint].spec.index) });
      related.push({ message: `the heavier body \`${world.bodies[cause.heavy].spec.name}\``, range: bodyRange(sm, world.bodies[cause.heavy].spec.index) });
      break;
    }
    case 'timestep': {
      range = settingRange(sm, 'dt', fallback);
      const steps = s.steps > 0 ? s.steps * 2 : undefined;
      const f = solverFix(sm, `Halve solver.dt to ${fmt(s.dt / 2)}${steps ? ` and double solver.steps to ${steps} (the same duration)` : ''}`, steps ? [['dt', s.dt / 2], ['steps', steps]] : [['dt', s.dt / 2]], false);
      if (f) fixes.push(f);
      break;
    }
    default:
      break;
  }
  if (g.end < MIN_STEPS_FOR_GROWTH) g = { ...g, first: undefined, fastest: undefined };
  if (g.first) related.push({ message: `grew first: ${growthName(g.first)} from step ${g.first.start}`, range: ownerRange(sm, g.first.owner) });
  if (g.fastest && g.fastest !== g.first) related.push({ message: `grew fastest: ${growthName(g.fastest)}, ×${fmt(g.fastest.rate, 3)} per step`, range: ownerRange(sm, g.fastest.owner) });
  const rec = recurrenceOf(s);
  return {
    severity: trigger.kind === 'stopped' ? 'error' : 'warning',
    code: Codes.divergence,
    message: triggerText(world, trigger, g) + growthText(world, g) + causeText(world, cause, g, C0),
    range,
    related: related.length ? related : undefined,
    fixes: fixes.length ? fixes : undefined,
    data: {
      trigger: trigger.kind,
      step: trigger.step,
      onset: g.onset,
      cause: cause.kind,
      rho: rec.rho,
      gains: { a: rec.a, b: rec.b },
      stableRanges: stableRanges(s),
      first: g.first && { kind: g.first.owner.kind, name: g.first.owner.name, quantity: g.first.quantity, start: g.first.start },
      fastest: g.fastest && { kind: g.fastest.owner.kind, name: g.fastest.owner.name, quantity: g.fastest.quantity, rate: g.fastest.rate },
      energy: g.energy,
      rotation: g.rotation,
    },
  };
}
