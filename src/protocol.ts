// The typed messages between the extension host and the inspector webview (and the data
// embedded in a standalone report). The only module both sides import.
import type { StepRecord, SystemSnapshot } from './engine/result';
import type { Diagnostic } from './engine/types';

export type { StepRecord, SystemSnapshot, Diagnostic };

/** Everything the panel needs to render one scene. */
export interface PanelModel {
  sceneName: string;
  /** File name (not a full path) shown in the header. */
  fileName: string;
  /** The step shown in the matrices. */
  snapshot: SystemSnapshot;
  /** Per-step records of the run so far (index k = step k+1). */
  history: StepRecord[];
  /** Step count set in the scene (default for Run N Steps). */
  plannedSteps: number;
  dt: number;
  /** All diagnostics of the scene (parse + analysis + run). */
  diagnostics: Diagnostic[];
  /** Body names in scene order with fixed flags, for the scene view (poses in history/snapshot). */
  sceneBodies: { name: string; fixed: boolean }[];
}

// ---- host → webview -------------------------------------------------------
export type HostMessage =
  | { type: 'model'; model: PanelModel }
  | { type: 'snapshot'; snapshot: SystemSnapshot }
  | { type: 'history'; history: StepRecord[]; currentStep: number }
  | { type: 'running'; running: boolean }
  | { type: 'invalidated'; reason: string }
  | { type: 'select'; constraint?: string; body?: string }
  | { type: 'error'; message: string };

// ---- webview → host -------------------------------------------------------
export type WebviewMessage =
  | { type: 'ready' }
  | { type: 'requestSnapshot'; step: number }
  | { type: 'command'; command: 'step' | 'run' | 'playPause' | 'reset' }
  | { type: 'reveal'; constraintIndex?: number; bodyIndex?: number }
  | { type: 'log'; level: 'info' | 'error'; message: string };

/** State persisted by the webview (`setState`) and restored by the serializer. */
export interface WebviewState {
  sceneUri?: string;
  selectedMatrix?: string;
  selectedStep?: number;
  logScale?: boolean;
  projection?: 'XY' | 'XZ' | 'YZ';
}

const isObj = (m: unknown): m is Record<string, unknown> => typeof m === 'object' && m !== null;

/** Runtime validation of a message received from the webview (untrusted). */
export function isWebviewMessage(m: unknown): m is WebviewMessage {
  if (!isObj(m) || typeof m.type !== 'string') return false;
  switch (m.type) {
    case 'ready':
      return true;
    case 'requestSnapshot':
      return typeof m.step === 'number' && Number.isInteger(m.step) && m.step >= 0;
    case 'command':
      return m.command === 'step' || m.command === 'run' || m.command === 'playPause' || m.command === 'reset';
    case 'reveal':
      return (
        (m.constraintIndex === undefined || (typeof m.constraintIndex === 'number' && Number.isInteger(m.constraintIndex))) &&
        (m.bodyIndex === undefined || (typeof m.bodyIndex === 'number' && Number.isInteger(m.bodyIndex)))
      );
    case 'log':
      return (m.level === 'info' || m.level === 'error') && typeof m.message === 'string';
    default:
      return false;
  }
}

/** Runtime validation of a message received from the host. */
export function isHostMessage(m: unknown): m is HostMessage {
  if (!isObj(m) || typeof m.type !== 'string') return false;
  switch (m.type) {
    case 'model':
      return isObj(m.model) && isObj((m.model as Record<string, unknown>).snapshot);
    case 'snapshot':
      return isObj(m.snapshot);
    case 'history':
      return Array.isArray(m.history) && typeof m.currentStep === 'number';
    case 'running':
      return typeof m.running === 'boolean';
    case 'invalidated':
    case 'error':
      return typeof (m.type === 'error' ? m.message : m.reason) === 'string';
    case 'select':
      return true;
    default:
      return false;
  }
}

// ---- typed-array-safe JSON (for reports and for hosts that serialise with JSON) ----------

/** JSON.stringify replacer that keeps Float64Array/Int32Array and non-finite numbers. */
export function encodeForJson(value: unknown): string {
  return JSON.stringify(value, (_k, v) => {
    if (v instanceof Float64Array) return { __f64: Array.from(v, encNum) };
    if (v instanceof Int32Array) return { __i32: Array.from(v) };
    if (typeof v === 'number' && !Number.isFinite(v)) return { __num: String(v) };
    return v;
  });
}
const encNum = (x: number): number | string => (Number.isFinite(x) ? x : String(x));
const decNum = (x: number | string): number => (typeof x === 'number' ? x : Number(x));

/** Inverse of `encodeForJson`. */
export function decodeFromJson<T>(text: string): T {
  return JSON.parse(text, (_k, v) => {
    if (isObj(v)) {
      if (Array.isArray(v.__f64)) return Float64Array.from(v.__f64 as (number | string)[], decNum);
      if (Array.isArray(v.__i32)) return Int32Array.from(v.__i32 as number[]);
      if (typeof v.__num === 'string') return Number(v.__num);
    }
    return v;
  }) as T;
}
