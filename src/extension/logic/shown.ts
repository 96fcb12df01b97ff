// The step every view shows of a scene, and its κ(A), rank and rows: the status bar, the CodeLens
// and the tree read it here, so they agree with each other and with the inspector (which shows
// the same step: Go to Step or a chart click, else the run's current step). Step 0 is the
// analysis; a later step is the run's record of it. Pure: no vscode.
import type { SceneSpec, StepRecord, SystemSnapshot } from '../../engine';
import { DEFAULT_CONDITION_WARNING, kappaOf } from '../../shared';
import type { CondFacts } from './format';

/** What of a scene's state the views read (a SceneState has it). */
export interface ShownSource {
  readonly result: { readonly snapshot?: SystemSnapshot; readonly parse: { readonly scene?: SceneSpec } } | undefined;
  readonly sim: { readonly currentStep: number; readonly records: readonly StepRecord[] } | undefined;
  readonly shownStep: number | undefined;
  /** Rows of the system solved at a step, where they change over the run (MuJoCo's contacts come and go); else the analysis's. */
  readonly rowsAt?: (step: number) => number | undefined;
}

/** The step shown: the inspector's chosen step (clamped to the history), else the run's current step, else 0. */
export function shownStepOf(s: ShownSource | undefined): number {
  const current = s?.sim?.currentStep ?? 0;
  const chosen = s?.shownStep;
  if (chosen === undefined || !Number.isInteger(chosen) || chosen < 0) return current;
  return Math.min(chosen, current);
}

/** The run's record of the shown step; undefined at step 0 (the analysis). */
export function shownRecord(s: ShownSource | undefined): StepRecord | undefined {
  const k = shownStepOf(s);
  return k > 0 ? s?.sim?.records[k - 1] : undefined;
}

/** κ(A), rank and rows of the shown step; undefined when the scene has no analysis. */
export function shownCondFacts(s: ShownSource | undefined): CondFacts | undefined {
  const snap = s?.result?.snapshot;
  if (!snap) return undefined;
  const f = stepCondFacts(snap, shownRecord(s));
  const rows = f.step > 0 ? s?.rowsAt?.(f.step) : undefined;
  return rows === undefined ? f : { ...f, rows };
}

/** κ(A), rank and rows at a step: the step-0 analysis, or a run's record on top of it. */
export function stepCondFacts(snap: Pick<SystemSnapshot, 'cond' | 'condEstimated' | 'rank'>, record?: Pick<StepRecord, 'step' | 'cond' | 'condEstimated' | 'rank'>): CondFacts {
  const rows = snap.rank.rows;
  // The one rule of every view (src/shared/stepKappa.ts): the record of the step, else step 0's analysis.
  const k = record && record.step > 0 ? kappaOf(record.step, { record }) : undefined;
  if (k) return { step: k.step, cond: k.cond, condEstimated: k.estimated, rank: record?.rank, rows };
  return { step: 0, cond: snap.cond.A, condEstimated: snap.condEstimated, rank: snap.rank.J, rows };
}

/** The κ warning threshold of a scene: the `constraintLens.conditionWarning` setting, else the scene's `solver.conditionWarning`. */
export function conditionWarningOf(scene: Pick<SceneSpec, 'solver'> | undefined, override: number | undefined): number {
  return override ?? scene?.solver.conditionWarning ?? DEFAULT_CONDITION_WARNING;
}

/** What the views need of a model's panel switched to MuJoCo (a MujocoPanelSession has it). */
export interface MujocoShownSession {
  readonly initial: SystemSnapshot | undefined;
  readonly records: readonly StepRecord[];
  readonly shown: number | undefined;
  /** Rows (nefc) of the system step k solved. */
  rowsAt(step: number): number | undefined;
}

/**
 * The views' source for a model whose panel runs MuJoCo: MuJoCo's analysis of the initial state as
 * step 0 and MuJoCo's records as the run, at the step the panel shows (its run's end when it named
 * none), so the status bar, CodeLens and tree print the κ the panel's header prints. Undefined until
 * the session has opened.
 */
export function mujocoShownSource(mj: MujocoShownSession, scene: SceneSpec | undefined): ShownSource | undefined {
  const snapshot = mj.initial;
  if (!snapshot) return undefined;
  return { result: { snapshot, parse: { scene } }, sim: { currentStep: mj.records.length, records: mj.records }, shownStep: mj.shown, rowsAt: (k) => mj.rowsAt(k) };
}

/** A panel's message naming the step it shows (protocol.ts: requestSnapshot, showStep). */
export type PanelStepMessage = { type: 'requestSnapshot'; step: number; follow?: boolean } | { type: 'showStep'; step: number };

/**
 * The step a panel's message leaves every view on: the step the panel chose, or undefined (the
 * run's end) when the panel follows the run. A following panel's request names the end it knew,
 * which the run may have left by the time the host reads it (a Step from the CodeLens, Play
 * started from a paused panel): pinning that step would leave the status bar, CodeLens and tree
 * behind the run until the next Step or Reset. `knownEnd`: the last step the panel has the record
 * of; a panel going to it without a request (End, the slider's end, during a run) follows the run.
 */
export function panelShownStep(m: PanelStepMessage, knownEnd?: number): number | undefined {
  if (m.type === 'requestSnapshot') return m.follow ? undefined : m.step;
  return knownEnd !== undefined && m.step > 0 && m.step >= knownEnd ? undefined : m.step;
}
