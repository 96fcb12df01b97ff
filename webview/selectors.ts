// Derived views of the panel state: pure functions the cards render from and the bootstrap's
// effects act on (which snapshot to ask for, what to persist). No DOM; tested in Node.
import type { Diagnostic, PanelModel, StepRecord, SystemSnapshot, WebviewState } from '../src/protocol';
import { kappaOf, type StepKappa } from '../src/shared';
import type { HeatmapSelection } from './heatmap/viewport';
import { DIVERGENCE_CODE, divergenceOnsetOf, noiseFloor } from './scene3d/robust';
import { recordAt } from './history';
import type { PanelState } from './store';

/** The step the transport should ask the host for now, if any (one request in flight at a time). */
export function nextSnapshotRequest(s: PanelState): number | undefined {
  return !s.report && s.wanted !== undefined && s.loading === undefined ? s.wanted : undefined;
}

/** What the webview persists (`setState`) so a restored panel shows the same view; none before a model. */
export function persistedState(s: PanelState): WebviewState | undefined {
  if (!s.model) return undefined;
  return {
    sceneUri: s.sceneUri,
    selectedMatrix: s.matrix,
    selectedStep: s.step,
    following: s.follow,
    logScale: s.logScale,
    selectedConstraint: s.snapshot?.constraints[s.selected]?.name,
  };
}

/** The history record of step k (k ≥ 1), if received. */
export function stepRecord(s: PanelState, k: number): StepRecord | undefined {
  return k > 0 ? recordAt(s.history, k - 1) : undefined;
}

/** Simulated time at the shown step. */
export function shownTime(s: PanelState): number {
  const rec = stepRecord(s, s.step);
  if (rec) return rec.t;
  if (s.snapshot && s.snapshot.step === s.step) return s.snapshot.t;
  return s.step * (s.model?.dt ?? 0);
}

/** Waiting for the shown step's snapshot (requested or about to be). */
export function isLoading(s: PanelState): boolean {
  return !s.report && s.snapshot !== undefined && s.snapshot.step !== s.step && (s.loading !== undefined || s.wanted !== undefined);
}

/**
 * The step each part of the panel shows: the header, timeline and scene show `step`, the forces and
 * the matrices the snapshot's step. They agree except while the shown step's snapshot loads (or
 * after its request failed), and then the timeline's note says so.
 */
export function shownSteps(s: PanelState): { header: number; scene: number; forces: number | undefined; matrices: number | undefined } {
  return { header: s.step, scene: s.step, forces: s.snapshot?.step, matrices: s.snapshot?.step };
}

/** True when the header, forces, matrices and scene show the same step, or the note explains why not. */
export function isConsistent(s: PanelState): boolean {
  const k = shownSteps(s);
  const same = k.forces === undefined || (k.forces === k.header && k.matrices === k.header && k.scene === k.header);
  return same || stepNote(s) !== '';
}

/** The note beside the timeline when the matrices are not those of the shown step ('' otherwise). */
export function stepNote(s: PanelState): string {
  const snap = s.snapshot;
  if (!snap || snap.step === s.step) return '';
  if (s.report) return `matrices from step ${snap.step} (nearest embedded)`;
  return isLoading(s) ? 'loading matrices…' : `matrices from step ${snap.step}`;
}

/** κ(A), its estimate flag and the method at the shown step (history record when the snapshot lags). */
export function shownCondition(s: PanelState): { cond: number | null; estimated: boolean; method: string; step: number; source: StepKappa['source'] } | undefined {
  const snap = s.snapshot;
  if (!snap) return undefined;
  const rec = stepRecord(s, s.step);
  // The one rule of every view (src/shared/stepKappa.ts); while neither the record nor the snapshot
  // of the shown step is here, the snapshot at hand (the timeline's note names its step).
  const k = kappaOf(s.step, { record: rec, snapshot: snap }) ?? kappaOf(snap.step, { snapshot: snap })!;
  return { cond: k.cond, estimated: k.estimated, method: rec?.method ?? snap.method, step: k.step, source: k.source };
}

export interface ProblemCounts {
  error: number;
  warning: number;
  info: number;
}
export function problemCounts(diags: readonly Diagnostic[]): ProblemCounts {
  const c = { error: 0, warning: 0, info: 0 };
  for (const d of diags) {
    if (d.severity === 'error') c.error++;
    else if (d.severity === 'warning') c.warning++;
    else c.info++;
  }
  return c;
}

/**
 * Everything the panel lists and counts: the scene's diagnostics and the JSON syntax errors VS
 * Code's JSON language service reports in the Problems panel instead of us (PanelModel.syntaxErrors),
 * so the panel's count equals the Problems panel's. `syntax` marks the latter.
 */
export function panelProblems(m: Pick<PanelModel, 'diagnostics' | 'syntaxErrors'> | undefined): { diagnostics: Diagnostic[]; syntax: Set<Diagnostic> } {
  const syntax = new Set(m?.syntaxErrors ?? []);
  return { diagnostics: [...(m?.syntaxErrors ?? []), ...(m?.diagnostics ?? [])], syntax };
}

/** Diagnostics by severity then line, identical (code, message) repeats collapsed with a count. */
export function groupDiagnostics(diags: readonly Diagnostic[]): { d: Diagnostic; n: number }[] {
  const order: Record<string, number> = { error: 0, warning: 1, information: 2, hint: 3 };
  const sorted = [...diags].sort((a, b) => (order[a.severity] ?? 9) - (order[b.severity] ?? 9) || a.range.start.line - b.range.start.line);
  const seen = new Map<string, { d: Diagnostic; n: number }>();
  for (const d of sorted) {
    const k = `${d.code}\u0000${d.message}`;
    const e = seen.get(k);
    if (e) e.n++;
    else seen.set(k, { d, n: 1 });
  }
  return [...seen.values()];
}

/** Rows (of J) flagged redundant in any matrix of the shown snapshot. */
export function redundantRows(s: PanelState): Set<number> {
  const red = new Set<number>();
  for (const m of s.matrices) for (const r of m.redundantRows ?? []) red.add(r);
  return red;
}

/** First column of a body's 6-column block in J (its velocity and angular velocity), or -1. */
export function bodyColumn(snap: SystemSnapshot, name: string): number {
  const col = snap.bodyStates.find((x) => x.name === name)?.column ?? snap.bodies.indexOf(name) * 6;
  return col >= 0 ? col : -1;
}

/** Row ranges (in J, A) of the constraints acting on a body. */
export function bodyConstraintRows(snap: SystemSnapshot, name: string): [number, number][] {
  return snap.constraints.filter((c) => c.rows > 0 && (c.bodyA === name || c.bodyB === name)).map((c) => [c.firstRow, c.firstRow + c.rows]);
}

/**
 * What the heatmap outlines for the selection in the shown matrix. A constraint: its rows (and in
 * J its bodies' columns; in A and W its rows and columns). A body: its columns in J, its block in
 * M⁻¹ and the body vectors, and the rows and columns of the constraints acting on it in A and W.
 */
export function heatmapSelection(s: PanelState): HeatmapSelection {
  const sel: HeatmapSelection = { rows: [], cols: [] };
  const snap = s.snapshot;
  const id = s.matrix;
  if (!snap || !s.matrices.some((m) => m.id === id)) return sel;
  const block = (name: string): [number, number][] => {
    const x = bodyColumn(snap, name);
    return x >= 0 ? [[x, x + 6]] : [];
  };
  const c = snap.constraints[s.selected];
  if (!c) {
    if (s.selectedBody === undefined) return sel;
    const cols = block(s.selectedBody);
    const rows = bodyConstraintRows(snap, s.selectedBody);
    if (id === 'J') sel.cols.push(...cols);
    else if (id === 'A' || id === 'W') {
      sel.rows.push(...rows);
      sel.cols.push(...rows);
    } else if (id === 'rowVectors') sel.rows.push(...rows);
    else if (id === 'Minv' || id === 'bodyVectors') {
      sel.rows.push(...cols);
      if (id === 'Minv') sel.cols.push(...cols);
    }
    return sel;
  }
  const rowRange: [number, number] = [c.firstRow, c.firstRow + c.rows];
  const bodyCols = (): [number, number][] => [c.bodyA, c.bodyB].flatMap(block);
  if (id === 'J') {
    sel.rows.push(rowRange);
    for (const c of bodyCols()) sel.cols.push(c);
  } else if (id === 'A' || id === 'W') {
    sel.rows.push(rowRange);
    sel.cols.push(rowRange);
  } else if (id === 'rowVectors') {
    sel.rows.push(rowRange);
  } else if (id === 'Minv' || id === 'bodyVectors') {
    for (const r of bodyCols()) {
      sel.rows.push(r);
      if (id === 'Minv') sel.cols.push(r);
    }
  }
  return sel;
}

/** Matrices whose rows are constraint rows (the heatmap scrolls to a selected constraint's rows). */
export const ROW_MATRICES: ReadonlySet<string> = new Set(['J', 'A', 'W', 'rowVectors']);

export { DIVERGENCE_CODE };

/** The divergence onset step of the run (CL404's data), when the run diverged and the growth was found. */
export function divergenceOnset(s: PanelState): number | undefined {
  return divergenceOnsetOf(s.model?.diagnostics ?? []);
}

/** Forces below this (N) are round-off on this scene: NOISE_RELATIVE of its weight scale (scene3d/robust.ts). */
export function forceNoiseFloor(s: PanelState): number {
  const m = s.model;
  const masses = m ? (m.sceneBodies.length ? m.sceneBodies.filter((b) => !b.fixed).map((b) => b.mass) : m.snapshot.bodyStates.map((b) => b.mass)) : [];
  return noiseFloor(masses, 1).force;
}
