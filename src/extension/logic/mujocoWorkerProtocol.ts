// Messages between the extension host and the MuJoCo worker (worker_threads, structured clone:
// typed arrays travel as they are). Pure: no vscode.
//
// Two uses: a one-shot run (`Run with MuJoCo`: N steps, analysed, the run's report model), and a live
// session per model behind the inspector's MuJoCo switch (`open`, then `step` in budgeted slices for
// Step, Run and Play, `snapshot` of any step taken, `close`). A session's records cross as the panel's
// StepRecords, one column per run element, so the host only appends them to what the panel has.
import type { Diagnostic, StepRecord, SystemSnapshot } from '../../engine';
import type { MujocoRunInfo, PanelModel } from '../../protocol';

/** A one-shot run of `steps` mj_steps (the `Run with MuJoCo` command). */
export interface MujocoRunRequest {
  id: number;
  kind?: 'run';
  /** The model file's path on disk (its includes and assets are read beside it) and the editor's text. */
  path: string;
  fileName: string;
  text: string;
  /** mj_steps to run from the initial state (a blow-up ends the run early). */
  steps: number;
  keyframe?: string;
}

/** Open (or open again: Reset, an edit) the live session `key` at the model's initial state. */
export interface MujocoOpenRequest {
  id: number;
  kind: 'open';
  key: string;
  path: string;
  fileName: string;
  text: string;
  keyframe?: string;
  /** Run N Steps' default (the model's). */
  plannedSteps: number;
  conditionWarning: number;
}

/**
 * Up to `steps` more mj_steps of session `key`, stopping early after `budgetMs` of work (the host asks
 * again), at a blow-up or at `maxSteps`. `findings`: also MuJoCo's diagnostics of the run so far (they
 * come anyway when the run stops).
 */
export interface MujocoStepRequest {
  id: number;
  kind: 'step';
  key: string;
  steps: number;
  budgetMs: number;
  maxSteps: number;
  findings?: boolean;
}

/** The analysed system of step `step` of session `key` (0 … steps taken). */
export interface MujocoSnapshotRequest {
  id: number;
  kind: 'snapshot';
  key: string;
  step: number;
}

export interface MujocoCloseRequest {
  id: number;
  kind: 'close';
  key: string;
}

export type MujocoWorkerRequest = MujocoRunRequest | MujocoOpenRequest | MujocoStepRequest | MujocoSnapshotRequest | MujocoCloseRequest;

/** A request as its sender writes it (the id is the channel's). */
export type MujocoRequestBody = MujocoWorkerRequest extends infer R ? (R extends unknown ? Omit<R, 'id'> : never) : never;

/** What a session's `step` answers. */
export interface MujocoStepResult {
  /** records[i] is step `from + i` (1-based), each with `columns.length` columns. */
  from: number;
  records: StepRecord[];
  /** rows[i]: the rows (nefc) of the system step `from + i` solved. */
  rows: number[];
  /** The run's element names (the history's columns); they only grow. */
  columns: string[];
  total: number;
  /** The run cannot go on (blow-up, failure, the step cap). */
  stopped: boolean;
  /** The run's facts; its `iterations` are those of steps `from`… only (the receiver appends them). */
  info: MujocoRunInfo;
  /** MuJoCo's findings on the run so far (when asked, or when it stopped). */
  diagnostics?: Diagnostic[];
}

export type MujocoWorkerResponse =
  | { id: number; ok: true; kind: 'run'; diagnostics: Diagnostic[]; steps: number; model?: PanelModel; ms: number }
  | { id: number; ok: true; kind: 'open'; diagnostics: Diagnostic[]; model?: PanelModel; ms: number }
  | ({ id: number; ok: true; kind: 'step'; ms: number } & MujocoStepResult)
  | { id: number; ok: true; kind: 'snapshot'; snapshot?: SystemSnapshot; ms: number }
  | { id: number; ok: true; kind: 'close' }
  | { id: number; ok: false; error: string };

const isObj = (m: unknown): m is Record<string, unknown> => typeof m === 'object' && m !== null;
const isCount = (x: unknown): boolean => Number.isInteger(x) && (x as number) >= 0;

export function isMujocoWorkerRequest(m: unknown): m is MujocoWorkerRequest {
  if (!isObj(m) || typeof m.id !== 'number') return false;
  const source = typeof m.path === 'string' && typeof m.fileName === 'string' && typeof m.text === 'string' && (m.keyframe === undefined || typeof m.keyframe === 'string');
  switch (m.kind) {
    case undefined:
    case 'run':
      return source && isCount(m.steps);
    case 'open':
      return source && typeof m.key === 'string' && isCount(m.plannedSteps) && typeof m.conditionWarning === 'number';
    case 'step':
      return typeof m.key === 'string' && isCount(m.steps) && typeof m.budgetMs === 'number' && m.budgetMs > 0 && isCount(m.maxSteps) && (m.findings === undefined || typeof m.findings === 'boolean');
    case 'snapshot':
      return typeof m.key === 'string' && isCount(m.step);
    case 'close':
      return typeof m.key === 'string';
    default:
      return false;
  }
}

export function isMujocoWorkerResponse(m: unknown): m is MujocoWorkerResponse {
  return isObj(m) && typeof m.id === 'number' && typeof m.ok === 'boolean';
}
