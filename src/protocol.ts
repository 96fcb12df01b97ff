// The typed messages between the extension host and the inspector webview (and the data
// embedded in a standalone report). The only module both sides import: pure TypeScript,
// no vscode, no DOM, no Node APIs.
import type { BodySpec, ConstraintSpec, ShapeSpec, StepRecord, SystemSnapshot, Diagnostic, NotSimulatedCategory, Range } from './engine';
import { isHistoryChunk, type HistoryChunk } from './shared/history';
import { decodeFromJson } from './protocolJson';

export { encodeForJson, decodeFromJson } from './protocolJson';

export type { StepRecord, SystemSnapshot, Diagnostic, Range, HistoryChunk };
export type { ContactReport, JointRowReport, NewtonSnapshot, NewtonStepReport, PgsStepReport } from './engine';

/** A body as the scene file defines it (what the 3D view draws besides the poses): the scene's BodySpec fields. */
export interface SceneBodyInfo extends Pick<BodySpec, 'name' | 'fixed'>, Partial<Pick<BodySpec, 'mass' | 'shapes'>> {
  /** Index in the file's bodies array (the `reveal` message's bodyIndex); the array position when absent. */
  fileIndex?: number;
  /** Body-frame inertia, row-major 3×3 (for the inertia box); a plain array, as JSON carries it. */
  inertia?: number[];
}

/**
 * A constraint as the scene file defines it: the report's identity (name, type, file index, bodies)
 * and the scene's anchors and axes in the bodies' frames (world frame for "world").
 */
export type SceneConstraintInfo = Pick<SystemSnapshot['constraints'][number], 'name' | 'type' | 'fileIndex' | 'bodyA' | 'bodyB'> &
  Pick<ConstraintSpec, 'anchorA' | 'anchorB' | 'axisA' | 'axisB' | 'linear' | 'angular'>;

/** A number of the MuJoCo section; null where it is not finite (messages travel as JSON). */
export type MaybeNumber = number | null;

/**
 * One equality constraint of a MuJoCo comparison (units in docs/import.md), its numbers of type N:
 * `number` where src/import/compare.ts computes it, MaybeNumber in the panel.
 */
export interface MujocoEqualityOf<N> {
  /** MuJoCo's name (or `<type><id>`), its type, and the constraint it became here (none: not converted). */
  name: string;
  type: string;
  constraint?: string;
  /** Our row labels (`close.x` …). */
  rows: string[];
  /** At t = 0: MuJoCo's efc_force of the rows, our λ, MuJoCo's regulariser R and A diagonal, ours. */
  mujocoForce: N[];
  ourLambda: N[];
  mujocoR: N[];
  mujocoDiagA: N[];
  ourDiagA: N[];
  solref: [number, number];
  solimp: number[];
  /** ‖C‖ per recorded state (t = 0 first), both in our units, and its maximum and final value. */
  violation: { mujoco: N[]; ours: N[]; mujocoMax: N; oursMax: N; mujocoFinal: N; oursFinal: N };
}
export type MujocoEquality = MujocoEqualityOf<MaybeNumber>;

/**
 * MuJoCo's and our run in joint space and body positions (models without equalities too): series at the
 * steps `samples` (at most a few hundred, the last step included); the maxima and their steps are over every step.
 */
export interface MujocoTrajectoryOf<N> {
  samples: number[];
  /** Per hinge or slide joint of MuJoCo: q and q̇ (rad, rad/s or m, m/s); ours is empty where no hinge or slider constraint holds it alone (`why`). */
  joints: { name: string; type: 'hinge' | 'slide'; constraint?: string; why?: string; mujoco: { q: N[]; qd: N[] }; ours: { q: N[]; qd: N[] }; dq: { max: N; step: number }; dqd: { max: N; step: number } }[];
  /** Per moving body: the distance between MuJoCo's and our centre of mass (m) and its maximum. */
  bodies: { name: string; error: N[]; max: N; step: number }[];
}
export type MujocoTrajectory = MujocoTrajectoryOf<MaybeNumber>;

/** MuJoCo's run of the model next to ours (the inspector's "MuJoCo" section), its numbers of type N as above. */
export interface MujocoComparisonOf<N> {
  steps: number;
  dt: number;
  keyframe?: string;
  equalities: MujocoEqualityOf<N>[];
  /** MuJoCo's solver iterations per step and its warnings. */
  solver: { iterationsMin: number; iterationsMax: number; iterationsMean: number; warnings: { name: string; count: number }[] };
  /**
   * MuJoCo's constraint rows that are not equalities — contacts, joint limits, friction loss — as the most
   * rows in one state and the number of states with any. Our engine simulates none of them here.
   */
  otherRows: Record<'contacts' | 'limits' | 'friction', { max: number; states: number }>;
  /** Distance between MuJoCo's and our centre of mass of each body after the run (m). */
  bodies: { name: string; distance: N }[];
  /** Joints' q, q̇ and bodies' positions over the run, MuJoCo's and ours. */
  trajectory?: MujocoTrajectoryOf<N>;
  /** Our run stopped early (non-finite value) at this step. */
  stoppedAt?: number;
  timing: { wasmLoadMs: number; mujocoMs: number; oursMs: number };
  notes: string[];
}
export type MujocoComparison = MujocoComparisonOf<MaybeNumber>;

/**
 * The "MuJoCo" section of an MJCF or URDF model's inspector (absent for scene files). The host fills
 * it on request — the Compare with MuJoCo command or button — never on an edit; an edit of the
 * model makes it idle again.
 */
export interface MujocoSection {
  status: 'idle' | 'running' | 'done' | 'failed';
  comparison?: MujocoComparison;
  /** Why the comparison failed. */
  error?: string;
  /** The <key> the model starts from (undefined: qpos0) and the model's named keys. */
  keyframe?: string;
  keyframes: string[];
}

/** One step of a trace as its timeline shows it (null: not finite, or the step cannot be analysed). */
export interface TraceStepInfo {
  step: number;
  t: number;
  rows: number;
  /** κ₂ of what the producer solves: A, or A + R when it regularises (Axion's A includes its compliance). */
  cond: MaybeNumber;
  rank: MaybeNumber;
  normLambda: MaybeNumber;
  normC: MaybeNumber;
  /** ‖(A + R)·λ − b‖ of the producer's own λ, when the trace has both. */
  residual: MaybeNumber;
  /** The producer's iterations within the step (Axion's Newton iterations): κ as analysed beside the κ it stored. */
  iterations?: { cond: MaybeNumber; storedCond: MaybeNumber }[];
}

/**
 * A trace file of someone's own solver shown in the panel (docs/traces.md): read-only, its steps
 * are the trace's steps (no simulation runs), step k's snapshot is the trace's system at step k.
 */
export interface TraceSection {
  format: 'npz' | 'axion' | 'fclib-global' | 'fclib-local';
  steps: TraceStepInfo[];
  /** The first step with a NaN or infinite value, when there is one. */
  firstNonFinite?: number;
}

/** MuJoCo as the solver (`--solver mujoco`, the panel's MuJoCo switch): the run's own facts. */
export interface MujocoRunInfo {
  /** MuJoCo's integrator by name (Euler, RK4, implicit, implicitfast) and its time step (s). */
  integrator: string;
  timestep: number;
  /** MuJoCo's solver iterations per mj_step (index k: step k + 1), and their most. */
  iterations: number[];
  maxIterations: number;
  /** MuJoCo's warnings that fired (badqacc …): the first step each fired at and how many steps did. */
  warnings: { name: string; firstStep: number; count: number }[];
  /** The run stopped at this step on a NaN or infinite state. */
  nonFiniteAt?: number;
  /** MuJoCo's WebAssembly failed (the run cannot go on). */
  failure?: string;
}

/** Everything the panel needs to render one scene. */
export interface PanelModel {
  sceneName: string;
  /** File name (not a full path) shown in the header. */
  fileName: string;
  /** The scene's URI (extension only): the webview keeps it in its state so the serializer can restore the panel. */
  sceneUri?: string;
  /** The step shown in the matrices. */
  snapshot: SystemSnapshot;
  /**
   * Per-step records of the run (index k = step k+1). A live panel's model carries none: the host
   * streams the history in `historyAppend` messages after it (`steps` says how long the run is).
   */
  history: StepRecord[];
  /** Steps taken so far (default: `history.length`). */
  steps?: number;
  /** Step count set in the scene (default for Run N Steps). */
  plannedSteps: number;
  dt: number;
  /**
   * The threshold of the κ bands (src/shared/kappa.ts `condBand`): the scene's
   * `solver.conditionWarning`, or in the extension the `constraintLens.conditionWarning` setting
   * when it is set (as the status bar, CodeLens and tree use it).
   */
  conditionWarning?: number;
  /**
   * The scene's diagnostics (parse + analysis + run). In the extension: exactly those published
   * in the Problems panel (src/extension/logic/diagnostics.ts `publishedDiagnostics`), replaced by
   * a `diagnostics` message when a run adds some; in a report: all of them.
   */
  diagnostics: Diagnostic[];
  /** Imported models: what the model file describes and the run leaves out, by category (its CL606 note; shown in the header). */
  notSimulated?: NotSimulatedCategory[];
  /**
   * Extension only: the JSON syntax errors (CL001) left out of `diagnostics` because VS Code's
   * JSON language service shows them in the Problems panel itself. The panel lists them with the
   * others and counts them, so its count equals the Problems panel's for the file.
   */
  syntaxErrors?: Diagnostic[];
  /** Body names in scene order with fixed flags, for the scene view (poses in history/snapshot); mass, inertia and shapes when known. */
  sceneBodies: SceneBodyInfo[];
  /** The scene's constraints (local anchors and axes), for the 3D view. Optional: older reports lack it. */
  sceneConstraints?: SceneConstraintInfo[];
  /** Shapes of the world (e.g. a ground plane), when the scene gives any. */
  worldShapes?: ShapeSpec[];
  /** The scene's `solver.violationTolerance` and `solver.conditionWarning` (state colours at a step, as in the tree). */
  thresholds?: { violationTolerance: number; conditionWarning: number; penetrationTolerance?: number };
  /**
   * Report mode: analysed snapshots of several steps (e.g. first and last, or all when small),
   * sorted by step. The panel shows the nearest embedded step ≤ the selected one. Optional; the
   * extension host answers `requestSnapshot` instead.
   */
  snapshots?: SystemSnapshot[];
  /** Free text shown in the report footer (e.g. "constraint-lens 0.1.0, 2025-01-01"). */
  generator?: string;
  /** MJCF and URDF models: the MuJoCo section (see MujocoSection); absent for scene files. */
  mujoco?: MujocoSection;
  /** A trace file (not a scene): its per-step timeline; the panel offers no simulation controls. */
  trace?: TraceSection;
  /**
   * The names of the history's columns when they are not the shown step's constraints and rows: a
   * MuJoCo run, whose rows change from step to step, keeps one column per element (‖C‖ as its largest
   * |violation|, λ as ‖λ‖ of its rows), `constraints` naming the C columns and `rows` the λ columns.
   */
  historyColumns?: { constraints: string[]; rows: string[] };
  /** MuJoCo is the solver of this run (an MJCF or URDF model with `--solver mujoco` or the panel's switch). */
  mujocoRun?: MujocoRunInfo;
  /** An MJCF or URDF model's live panel: which solver steps it (the header's switch offers the other). */
  solver?: PanelSolver;
}

/** Who steps an imported model in the panel: the engine's formulation, or MuJoCo's own mj_step. */
export type PanelSolver = 'engine' | 'mujoco';

// ---- host → webview -------------------------------------------------------
// A message with a `seq` is flow-controlled: the host sends the next one only after the panel
// answered `{ type: 'ack', seq }` (one such message in flight per panel).
export type HostMessage =
  /** Everything anew (the panel's history becomes `model.history`). */
  | { type: 'model'; model: PanelModel; seq?: number }
  /**
   * The analysed system of a step: the reply to `requestSnapshot`, or the current step pushed
   * during and after a run (shown when the panel follows the run). `goTo`: the panel moves there
   * (Go to Step).
   */
  | { type: 'snapshot'; snapshot: SystemSnapshot; goTo?: boolean; seq?: number }
  /**
   * Records [chunk.from, chunk.from + chunk.count) of the run; `total`: steps taken on the host;
   * `snapshot`: the current step's (the last record's), applied with the records.
   */
  | { type: 'historyAppend'; chunk: HistoryChunk; total: number; snapshot?: SystemSnapshot; seq?: number }
  /** The run is `length` steps long now (reset: 0): the panel drops the records past it. */
  | { type: 'historyReset'; length: number; seq?: number }
  /**
   * The scene's diagnostics changed during a run (drift CL402, non-finite CL401…): they replace
   * PanelModel.diagnostics and .syntaxErrors ('model' carries them otherwise).
   */
  | { type: 'diagnostics'; diagnostics: Diagnostic[]; syntaxErrors?: Diagnostic[] }
  | { type: 'running'; running: boolean }
  | { type: 'invalidated'; reason: string }
  | { type: 'select'; constraint?: string; body?: string }
  /** The MuJoCo section changed (a comparison started, finished or failed; the model changed). */
  | { type: 'mujoco'; mujoco: MujocoSection }
  | { type: 'error'; message: string };

// ---- webview → host -------------------------------------------------------
/** The panel's buttons; the host runs the registered command of each (src/extension/commandIds.ts). */
export const PANEL_COMMANDS = ['step', 'run', 'playPause', 'reset', 'compareMujoco', 'chooseKeyframe'] as const;
export type PanelCommand = (typeof PANEL_COMMANDS)[number];

/** Play's speed, chosen in the panel: a multiple of real time, as fast as possible, or the setting's steps per second. */
export type PlaySpeed = { realTime: number } | 'max' | 'setting';

export const isPlaySpeed = (x: unknown): x is PlaySpeed =>
  x === 'max' || x === 'setting' || (isObj(x) && typeof x.realTime === 'number' && Number.isFinite(x.realTime) && x.realTime >= 0.01 && x.realTime <= 1000);

export type WebviewMessage =
  /** `startup`: when the page started loading, its script ran and it said ready (epoch ms): where the panel's start-up goes. */
  | { type: 'ready'; startup?: { navigationStart: number; scriptStart: number; readyAt: number } }
  /** The panel applied the host message carrying this `seq`. */
  /** `ms`: the panel's own work for the message (applying it, and rendering the frame that shows it), without the transport's round trip or the wait for a frame. */
  | { type: 'ack'; seq: number; ms?: number }
  /** `follow`: the panel follows the run's end, so this step is only the end it knows (the run may have moved on): the views follow the run. */
  | { type: 'requestSnapshot'; step: number; follow?: boolean }
  /** The step the panel went to when it needed no snapshot for it (step 0, or back on the one it holds): every view follows. */
  | { type: 'showStep'; step: number }
  /** `step`: the step the panel shows when the user pressed it (Pause lands there, not where the run has got to). */
  | { type: 'command'; command: PanelCommand; step?: number }
  /** Play's speed: `realTime` × 1/dt steps per second, `max` as fast as the host allows, `setting` the configured steps per second. */
  | { type: 'playSpeed'; speed: PlaySpeed }
  /** The header's switch: run this model with the other solver, from the initial state (or keyframe). */
  | { type: 'solver'; solver: PanelSolver }
  /**
   * Show something in the scene file. `constraintIndex`/`bodyIndex` are indices in the file's
   * arrays (ConstraintReport.fileIndex); `range` (optional) is a diagnostic's range.
   */
  | { type: 'reveal'; constraintIndex?: number; bodyIndex?: number; range?: Range }
  | { type: 'log'; level: 'info' | 'error'; message: string };

/**
 * State persisted by the webview (`setState`) and restored by the serializer. A state saved by an
 * older version may hold more (the 2D view's `projection`): unknown fields are ignored.
 */
export interface WebviewState {
  sceneUri?: string;
  selectedMatrix?: string;
  selectedStep?: number;
  /** The panel followed the run's live end (a reloaded panel goes on following it, wherever it is now). */
  following?: boolean;
  logScale?: boolean;
  /** Name of the selected constraint. */
  selectedConstraint?: string;
}

const isObj = (m: unknown): m is Record<string, unknown> => typeof m === 'object' && m !== null;
const isInt = (x: unknown): x is number => typeof x === 'number' && Number.isInteger(x);
const optInt = (x: unknown): boolean => x === undefined || (isInt(x) && x >= 0);
const optStr = (x: unknown): boolean => x === undefined || typeof x === 'string';
const isPos = (p: unknown): boolean => isObj(p) && isInt(p.line) && isInt(p.character) && p.line >= 0 && p.character >= 0;
const isRange = (r: unknown): r is Range => isObj(r) && isPos(r.start) && isPos(r.end);

/** Runtime validation of a message received from the webview (untrusted). */
export function isWebviewMessage(m: unknown): m is WebviewMessage {
  if (!isObj(m) || typeof m.type !== 'string') return false;
  switch (m.type) {
    case 'ready':
      return m.startup === undefined || (isObj(m.startup) && [m.startup.navigationStart, m.startup.scriptStart, m.startup.readyAt].every((x) => typeof x === 'number' && Number.isFinite(x)));
    case 'ack':
      return isInt(m.seq) && m.seq >= 0 && (m.ms === undefined || (typeof m.ms === 'number' && Number.isFinite(m.ms) && m.ms >= 0));
    case 'requestSnapshot':
      return isInt(m.step) && m.step >= 0 && (m.follow === undefined || typeof m.follow === 'boolean');
    case 'showStep':
      return isInt(m.step) && m.step >= 0;
    case 'command':
      return (PANEL_COMMANDS as readonly unknown[]).includes(m.command) && optInt(m.step);
    case 'playSpeed':
      return isPlaySpeed(m.speed);
    case 'solver':
      return m.solver === 'engine' || m.solver === 'mujoco';
    case 'reveal':
      return optInt(m.constraintIndex) && optInt(m.bodyIndex) && (m.range === undefined || isRange(m.range));
    case 'log':
      return (m.level === 'info' || m.level === 'error') && typeof m.message === 'string';
    default:
      return false;
  }
}

// Typed arrays, plain arrays, or the `{"0":…}` objects a typed array becomes through plain JSON.
const isArrayLike = (x: unknown): boolean => Array.isArray(x) || ArrayBuffer.isView(x) || isObj(x);

const isCsr = (x: unknown): boolean =>
  isObj(x) && isInt(x.rows) && isInt(x.cols) && isArrayLike(x.rowPtr) && isArrayLike(x.colIdx) && isArrayLike(x.values);

/** Structural check of a snapshot (enough for the panel not to crash on it). */
export function isSystemSnapshot(s: unknown): s is SystemSnapshot {
  return (
    isObj(s) &&
    typeof s.step === 'number' &&
    typeof s.t === 'number' &&
    Array.isArray(s.bodies) &&
    Array.isArray(s.columnLabels) &&
    Array.isArray(s.rows) &&
    Array.isArray(s.constraints) &&
    isCsr(s.J) &&
    (s.A === undefined || isCsr(s.A)) &&
    isObj(s.rank) &&
    isObj(s.cond)
  );
}

function isStepRecord(r: unknown): r is StepRecord {
  return isObj(r) && typeof r.step === 'number' && typeof r.t === 'number' && Array.isArray(r.C) && Array.isArray(r.lambda) && isObj(r.energy);
}

/** Structural check of a diagnostic (enough for the panel to list it and reveal its range). */
function isDiagnostic(d: unknown): d is Diagnostic {
  return isObj(d) && typeof d.message === 'string' && typeof d.code === 'string' && typeof d.severity === 'string' && isRange(d.range);
}

const optDiagnostics = (x: unknown): boolean => x === undefined || (Array.isArray(x) && x.every(isDiagnostic));

const isNumbers = (x: unknown): boolean => Array.isArray(x) && x.every((v) => v === null || typeof v === 'number');

/** Structural check of a MuJoCo section (enough for the card to render it). */
export function isMujocoSection(x: unknown): x is MujocoSection {
  if (!isObj(x) || !['idle', 'running', 'done', 'failed'].includes(x.status as string)) return false;
  if (!Array.isArray(x.keyframes) || !x.keyframes.every((k) => typeof k === 'string') || !optStr(x.keyframe) || !optStr(x.error)) return false;
  const c = x.comparison;
  if (c === undefined) return x.status !== 'done';
  return (
    isObj(c) &&
    typeof c.steps === 'number' &&
    typeof c.dt === 'number' &&
    isObj(c.solver) &&
    isObj(c.otherRows) &&
    isObj(c.timing) &&
    Array.isArray(c.notes) &&
    Array.isArray(c.bodies) &&
    Array.isArray(c.equalities) &&
    c.equalities.every(
      (e: unknown) =>
        isObj(e) &&
        typeof e.name === 'string' &&
        Array.isArray(e.rows) &&
        isNumbers(e.mujocoForce) &&
        isNumbers(e.ourLambda) &&
        isNumbers(e.mujocoR) &&
        isNumbers(e.mujocoDiagA) &&
        isNumbers(e.ourDiagA) &&
        isObj(e.violation) &&
        isNumbers(e.violation.mujoco) &&
        isNumbers(e.violation.ours),
    ) &&
    (c.trajectory === undefined || isTrajectory(c.trajectory))
  );
}

const isDeviation = (d: unknown): boolean => isObj(d) && (d.max === null || typeof d.max === 'number') && typeof d.step === 'number';

function isTrajectory(t: unknown): boolean {
  return (
    isObj(t) &&
    isNumbers(t.samples) &&
    Array.isArray(t.joints) &&
    t.joints.every((j: unknown) => isObj(j) && typeof j.name === 'string' && isObj(j.mujoco) && isObj(j.ours) && isNumbers(j.mujoco.q) && isNumbers(j.mujoco.qd) && isNumbers(j.ours.q) && isNumbers(j.ours.qd) && isDeviation(j.dq) && isDeviation(j.dqd)) &&
    Array.isArray(t.bodies) &&
    t.bodies.every((b: unknown) => isObj(b) && typeof b.name === 'string' && isNumbers(b.error) && isDeviation(b))
  );
}

export function isPanelModel(m: unknown): m is PanelModel {
  return (
    isObj(m) &&
    typeof m.sceneName === 'string' &&
    isSystemSnapshot(m.snapshot) &&
    Array.isArray(m.history) &&
    m.history.every(isStepRecord) &&
    optInt(m.steps) &&
    Array.isArray(m.diagnostics) &&
    optDiagnostics(m.syntaxErrors) &&
    (m.notSimulated === undefined ||
      (Array.isArray(m.notSimulated) && m.notSimulated.every((c) => isObj(c) && typeof c.category === 'string' && Array.isArray(c.items) && c.items.every((x) => typeof x === 'string')))) &&
    (m.snapshots === undefined || (Array.isArray(m.snapshots) && m.snapshots.every(isSystemSnapshot))) &&
    (m.mujoco === undefined || isMujocoSection(m.mujoco)) &&
    (m.trace === undefined || isTraceSection(m.trace)) &&
    (m.historyColumns === undefined || (isObj(m.historyColumns) && isStrings(m.historyColumns.constraints) && isStrings(m.historyColumns.rows))) &&
    (m.mujocoRun === undefined || isMujocoRunInfo(m.mujocoRun)) &&
    (m.solver === undefined || m.solver === 'engine' || m.solver === 'mujoco')
  );
}

const isStrings = (x: unknown): x is string[] => Array.isArray(x) && x.every((s) => typeof s === 'string');

function isMujocoRunInfo(x: unknown): x is MujocoRunInfo {
  return isObj(x) && typeof x.integrator === 'string' && typeof x.timestep === 'number' && Array.isArray(x.iterations) && Array.isArray(x.warnings) && optInt(x.nonFiniteAt);
}

/** Structural check of a trace section (enough for the timeline to render it). */
function isTraceSection(x: unknown): x is TraceSection {
  return isObj(x) && typeof x.format === 'string' && Array.isArray(x.steps) && x.steps.every((s) => isObj(s) && isInt(s.step) && isInt(s.rows) && typeof s.t === 'number') && optInt(x.firstNonFinite);
}

/** Runtime validation of a message received from the host. */
export function isHostMessage(m: unknown): m is HostMessage {
  if (!isObj(m) || typeof m.type !== 'string') return false;
  if (!optInt(m.seq)) return false;
  switch (m.type) {
    case 'model':
      return isPanelModel(m.model);
    case 'snapshot':
      return isSystemSnapshot(m.snapshot) && (m.goTo === undefined || typeof m.goTo === 'boolean');
    case 'historyAppend':
      return isHistoryChunk(m.chunk) && isInt(m.total) && m.total >= m.chunk.from + m.chunk.count && (m.snapshot === undefined || isSystemSnapshot(m.snapshot));
    case 'historyReset':
      return isInt(m.length) && m.length >= 0;
    case 'diagnostics':
      return Array.isArray(m.diagnostics) && optDiagnostics(m.diagnostics) && optDiagnostics(m.syntaxErrors);
    case 'running':
      return typeof m.running === 'boolean';
    case 'invalidated':
      return typeof m.reason === 'string';
    case 'error':
      return typeof m.message === 'string';
    case 'select':
      return optStr(m.constraint) && optStr(m.body);
    case 'mujoco':
      return isMujocoSection(m.mujoco);
    default:
      return false;
  }
}

/**
 * Accepts what arrives in the webview's `message` event: an object (typed arrays transferred
 * as such) or a string produced by `encodeForJson`. Returns the validated message, or
 * undefined when it is not a valid host message.
 */
export function parseHostMessage(data: unknown): HostMessage | undefined {
  let m = data;
  if (typeof data === 'string') {
    try {
      m = decodeFromJson<unknown>(data);
    } catch {
      return undefined;
    }
  }
  return isHostMessage(m) ? m : undefined;
}
