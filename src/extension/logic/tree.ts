// The scene tree's items: state classification, icons (codicon + theme colour ids), labels and
// tooltips, at step 0 (the analysis) or at the current step of a run (a StepRecord on top of the
// step-0 snapshot). Pure: no vscode (../tree.ts turns these into TreeItems).
import type { BodyReport, BodySpec, ConstraintReport, ConstraintSpec, Diagnostic, IslandReport, Range, Severity, SourceMap, StepRecord, SystemSnapshot } from '../../engine';
import { condBand, formatCond, formatNumber, formatTime, formatVec, isIllConditioned } from '../../shared';

export type ItemState = 'ok' | 'redundant' | 'violated' | 'conflicting' | 'ill-conditioned' | 'fixed' | 'unknown';

interface IconSpec {
  /** Codicon id for `new ThemeIcon(id, new ThemeColor(color))`. */
  id: string;
  color?: string;
}

export const STATE_ICONS: Record<ItemState, IconSpec> = {
  ok: { id: 'pass', color: 'testing.iconPassed' },
  redundant: { id: 'warning', color: 'list.warningForeground' },
  violated: { id: 'error', color: 'list.errorForeground' },
  conflicting: { id: 'error', color: 'list.errorForeground' },
  'ill-conditioned': { id: 'alert', color: 'list.warningForeground' },
  fixed: { id: 'lock', color: 'descriptionForeground' },
  unknown: { id: 'circle-outline', color: 'disabledForeground' },
};

// ---- severity: the same as the item's diagnostics in the Problems panel -------------------------

/**
 * The severity of the diagnostic the engine gives each state (CL301 redundant: warning, CL302
 * conflicting: error, CL304 initial violation and CL402 drift: warning, CL303 ill-conditioned:
 * warning); none for the others.
 */
const STATE_SEVERITY: Record<ItemState, Severity | undefined> = {
  ok: undefined,
  redundant: 'warning',
  violated: 'warning',
  conflicting: 'error',
  'ill-conditioned': 'warning',
  fixed: undefined,
  unknown: undefined,
};

/** The icons of the Problems panel, in its colours. Hints are not shown there, so they have none. */
export const SEVERITY_ICONS: Record<Severity, IconSpec | undefined> = {
  error: { id: 'error', color: 'problemsErrorIcon.foreground' },
  warning: { id: 'warning', color: 'problemsWarningIcon.foreground' },
  information: { id: 'info', color: 'problemsInfoIcon.foreground' },
  hint: undefined,
};

const RANK: Record<Severity, number> = { error: 3, warning: 2, information: 1, hint: 0 };

const before = (a: Range['start'], b: Range['start']): boolean => a.line < b.line || (a.line === b.line && a.character <= b.character);

/** True when range `inner` lies within `outer`. */
function rangeWithin(inner: Range, outer: Range): boolean {
  return before(outer.start, inner.start) && before(inner.end, outer.end);
}

/** The diagnostics that lie on an item (within its source range: its object in the file). */
function diagnosticsOn<D extends Pick<Diagnostic, 'range'>>(diagnostics: readonly D[], itemRange: Range | undefined): D[] {
  return itemRange ? diagnostics.filter((d) => rangeWithin(d.range, itemRange)) : [];
}

/**
 * An item's severity: the highest of its own diagnostics' (those published on its range) and its
 * state's. `undefined`: nothing to flag.
 */
export function itemSeverity(state: ItemState, own: readonly Pick<Diagnostic, 'severity'>[]): Severity | undefined {
  let best = STATE_SEVERITY[state];
  for (const d of own) if (best === undefined || RANK[d.severity] > RANK[best]) best = d.severity;
  return best === 'hint' ? undefined : best;
}

/**
 * The severity of a body or constraint of the scene (the tree's icon): its state's and that of
 * every diagnostic within its object in the file (`diagnostics`: all the Problems panel shows).
 */
export function severityOfItem(
  state: ItemState,
  diagnostics: readonly Pick<Diagnostic, 'severity' | 'range'>[],
  sourceMap: Pick<SourceMap, 'rangeOf'> | undefined,
  group: 'bodies' | 'constraints',
  fileIndex: number,
): Severity | undefined {
  let range: Range | undefined;
  try {
    range = sourceMap?.rangeOf([group, fileIndex]);
  } catch {
    range = undefined;
  }
  return itemSeverity(state, diagnosticsOn(diagnostics, range));
}

/** The item's icon: its severity's (as in the Problems panel), else its state's. */
export function itemIcon(state: ItemState, severity: Severity | undefined): IconSpec {
  return (severity && SEVERITY_ICONS[severity]) || STATE_ICONS[state];
}

/** The island (connected component) a constraint belongs to, if any. */
function islandOf(islands: readonly IslandReport[], constraint: string): IslandReport | undefined {
  let by = islandIndex.get(islands);
  if (!by) {
    by = new Map();
    // the first island that lists the constraint, as a search in order would find
    for (const i of islands) for (const name of i.constraints) if (!by.has(name)) by.set(name, i);
    islandIndex.set(islands, by);
  }
  return by.get(constraint);
}

/**
 * Constraint name → its island, per islands array (a snapshot's, never changed once made): one
 * pass over the islands instead of a search of every island's list for every constraint, which
 * was quadratic for one big island (the 3D view asks for every constraint at every step shown).
 */
const islandIndex = new WeakMap<readonly IslandReport[], Map<string, IslandReport>>();

/**
 * A constraint's state: the engine's status (conflicting > violated > redundant), else
 * `ill-conditioned` when its island's κ is at or above the warning threshold.
 */
export function constraintState(c: ConstraintReport, snapshot: Pick<SystemSnapshot, 'islands'>, conditionWarning: number): ItemState {
  if (c.status === 'conflicting' || c.status === 'violated' || c.status === 'redundant') return c.status;
  const island = islandOf(snapshot.islands, c.name);
  if (island && island.rows > 0 && isIllConditioned(condBand(island.cond, { warning: conditionWarning, rows: island.rows }))) return 'ill-conditioned';
  return 'ok';
}

export function bodyState(b: Pick<BodyReport, 'fixed'> | Pick<BodySpec, 'fixed'>): ItemState {
  return b.fixed ? 'fixed' : 'ok';
}

// ---- the current step of a run ---------------------------------------------------------------

/** What the tree needs of a step record (the latest one of the run). */
export type StepFacts = Pick<StepRecord, 'step' | 't' | 'C' | 'lambda' | 'cond' | 'condEstimated'>;

export interface TreeThresholds {
  /** The scene's `solver.violationTolerance`: ‖C‖ above it is `violated` (as at step 0). */
  violationTolerance: number;
  /** κ at or above it is `ill-conditioned` (the setting, else the scene's `solver.conditionWarning`). */
  conditionWarning: number;
}

/** A constraint as of one step: step 0 is the analysis, later steps come from the run's record. */
export interface ConstraintAtStep {
  step: number;
  /** Simulated time (s); undefined at step 0. */
  t?: number;
  state: ItemState;
  /** ‖C‖₂ over the constraint's rows at that step. */
  violation: number;
  /** ‖Ċ‖₂: known at step 0 only (records do not keep it). */
  velocityViolation?: number;
  /** λ per row at that step; undefined when the run does not record λ (very large scenes). */
  lambda?: number[];
  /** κ(A) of the whole system at that step (runs only: step 0 shows the island's). */
  cond?: number | null;
  condEstimated?: boolean;
}

/** The step-0 view of a constraint (the analysis as it is). */
export function constraintAtStep0(c: ConstraintReport, snapshot: Pick<SystemSnapshot, 'islands'>, conditionWarning: number): ConstraintAtStep {
  return { step: 0, state: constraintState(c, snapshot, conditionWarning), violation: c.violation, velocityViolation: c.velocityViolation, lambda: c.lambda };
}

/**
 * A constraint at the step of `record` (the latest of a run), on top of the step-0 analysis:
 * - `redundant` / `conflicting` are structural: they come from step 0 and stay;
 * - otherwise `violated` when the step's ‖C‖ exceeds `violationTolerance` (or is not finite) —
 *   the same rule as step 0 (the run's own drift warning, CL402, uses `solver.driftTolerance`);
 * - otherwise `ill-conditioned` when its island was at step 0 and the step's κ(A) is still at or
 *   above the threshold (no island's κ exceeds the whole system's, and records keep only that);
 * - else `ok`.
 * `index` is the constraint's position in `snapshot.constraints` (the order of `record.C`).
 * Without a record (step 0, or a record of another shape) this is the step-0 view.
 */
export function constraintAt(
  c: ConstraintReport,
  index: number,
  snapshot: Pick<SystemSnapshot, 'islands'>,
  record: StepFacts | undefined,
  th: TreeThresholds,
): ConstraintAtStep {
  const base = constraintAtStep0(c, snapshot, th.conditionWarning);
  if (!record || record.step <= 0 || index < 0 || index >= record.C.length) return base;
  const violation = record.C[index];
  const lambda = record.lambda.length >= c.firstRow + c.rows ? record.lambda.slice(c.firstRow, c.firstRow + c.rows) : undefined;
  let state: ItemState;
  if (c.status === 'redundant' || c.status === 'conflicting') state = c.status;
  else if (!(violation <= th.violationTolerance)) state = 'violated';
  else {
    const islandWasIll = constraintState({ ...c, status: 'ok' }, snapshot, th.conditionWarning) === 'ill-conditioned';
    const stillIll = isIllConditioned(condBand(record.cond.A, { warning: th.conditionWarning }));
    state = islandWasIll && stillIll ? 'ill-conditioned' : 'ok';
  }
  return { step: record.step, t: record.t, state, violation, lambda, cond: record.cond.A, condEstimated: record.condEstimated };
}

const vec = (v: readonly number[]): string => formatVec(v, 4);

/** Markdown tooltip of a constraint (λ per row, |C|, |Ċ|, the island's κ) at step 0. */
export function constraintTooltip(c: ConstraintReport, state: ItemState, snapshot: Pick<SystemSnapshot, 'islands' | 'rows'>): string {
  return constraintTooltipAt(c, { step: 0, state, violation: c.violation, velocityViolation: c.velocityViolation, lambda: c.lambda }, snapshot);
}

/** Markdown tooltip of a constraint at a step: λ per row and ‖C‖ of that step, the island's κ of step 0. */
export function constraintTooltipAt(c: ConstraintReport, at: ConstraintAtStep, snapshot: Pick<SystemSnapshot, 'islands' | 'rows'>, violationTolerance?: number): string {
  const labels = snapshot.rows.filter((r) => r.constraint === c.name).map((r) => r.label);
  const lambda = at.lambda === undefined ? 'not recorded' : at.lambda.map((l, i) => `${labels[i] ?? `#${i}`} = ${formatNumber(l)}`).join(', ') || '—';
  const island = islandOf(snapshot.islands, c.name);
  const run = at.step > 0;
  const tol = violationTolerance !== undefined ? ` (tolerance ${formatNumber(violationTolerance)})` : '';
  const lines = [
    `**${escapeMd(c.name)}** · ${c.type} · ${at.state}${run ? ` · step ${at.step}${at.t !== undefined ? ` (t = ${formatTime(at.t)})` : ''}` : ''}`,
    `${escapeMd(c.bodyA)} ↔ ${escapeMd(c.bodyB)} · ${c.rows} row${c.rows === 1 ? '' : 's'}`,
    `λ: ${lambda}`,
    at.velocityViolation !== undefined ? `|C| = ${formatNumber(at.violation)}${tol} · |Ċ| = ${formatNumber(at.velocityViolation)}` : `|C| = ${formatNumber(at.violation)}${tol}`,
  ];
  if (island) lines.push(`island κ${run ? ' at step 0' : ''} = ${formatCond(island.cond, { estimated: island.condEstimated, rows: island.rows })} · rank ${island.rank}/${island.rows}`);
  if (run && at.cond !== undefined) lines.push(`κ(A) at step ${at.step} = ${formatCond(at.cond, { estimated: at.condEstimated })}`);
  return lines.join('  \n');
}

/** `distance · λ 4.2 · |C| 1e-9` (step 0). */
export function constraintDescription(c: ConstraintReport): string {
  return describe(c.type, c.lambda, c.violation);
}

/** The item's description at a step: the state first unless ok, then type, λ and ‖C‖ of that step. */
export function constraintDescriptionAt(c: Pick<ConstraintReport, 'type'>, at: ConstraintAtStep): string {
  return `${at.state === 'ok' ? '' : `${at.state} · `}${describe(c.type, at.lambda, at.violation)}`;
}

function describe(type: string, lambda: readonly number[] | undefined, violation: number): string {
  const l = lambda === undefined || lambda.length === 0 ? 'λ –' : lambda.length === 1 ? `λ ${formatNumber(lambda[0])}` : `λ‖${formatNumber(Math.hypot(...lambda))}‖`;
  return `${type} · ${l} · |C| ${formatNumber(violation)}`;
}

/** The step and κ(A) the tree's header shows: `step 120 · κ 1230` (`κ ∞` when singular, `≈` when estimated, `κ –` without rows). */
export function stepHeader(f: { step: number; cond: number | null; condEstimated: boolean; rows?: number }): string {
  return `step ${f.step} · κ ${formatCond(f.cond, { estimated: f.condEstimated, rows: f.rows })}`;
}

export function specDescription(c: Pick<ConstraintSpec, 'type' | 'bodyA' | 'bodyB'>): string {
  return `${c.type} · ${c.bodyA} ↔ ${c.bodyB}`;
}

export function bodyTooltip(b: BodyReport): string {
  return [
    `**${escapeMd(b.name)}**${b.fixed ? ' · fixed' : ''} · m = ${formatNumber(b.mass)}`,
    `p = ${vec(b.position)}`,
    `q = ${vec(b.orientation)}`,
    `v = ${vec(b.velocity)} · ω = ${vec(b.angularVelocity)}`,
  ].join('  \n');
}

export function bodyDescription(b: Pick<BodyReport, 'mass' | 'fixed'>): string {
  return b.fixed ? `fixed · m ${formatNumber(b.mass)}` : `m ${formatNumber(b.mass)}`;
}

function escapeMd(s: string): string {
  return s.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}
