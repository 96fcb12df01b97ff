// Messages between the extension host and the MuJoCo worker (worker_threads, structured clone:
// typed arrays travel as they are). Pure: no vscode.
import type { Diagnostic } from '../../engine';
import type { PanelModel } from '../../protocol';

export interface MujocoWorkerRequest {
  id: number;
  /** The model file's path on disk (its includes and assets are read beside it) and the editor's text. */
  path: string;
  fileName: string;
  text: string;
  /** mj_steps to run from the initial state (a blow-up ends the run early). */
  steps: number;
  keyframe?: string;
}

export type MujocoWorkerResponse =
  | { id: number; ok: true; diagnostics: Diagnostic[]; steps: number; model?: PanelModel; ms: number }
  | { id: number; ok: false; error: string };

export function isMujocoWorkerRequest(m: unknown): m is MujocoWorkerRequest {
  if (typeof m !== 'object' || m === null) return false;
  const r = m as Record<string, unknown>;
  return typeof r.id === 'number' && typeof r.path === 'string' && typeof r.fileName === 'string' && typeof r.text === 'string' && Number.isInteger(r.steps) && (r.steps as number) >= 0 && (r.keyframe === undefined || typeof r.keyframe === 'string');
}

export function isMujocoWorkerResponse(m: unknown): m is MujocoWorkerResponse {
  return typeof m === 'object' && m !== null && typeof (m as MujocoWorkerResponse).id === 'number' && typeof (m as MujocoWorkerResponse).ok === 'boolean';
}
