// Messages between the extension host and the analysis worker (worker_threads; structured clone,
// so typed arrays travel as they are). Pure: no vscode.
import type { InspectOptions } from '../../engine/api';
import type { SystemSnapshot } from '../../engine/result';
import type { Diagnostic } from '../../engine/types';

export interface WorkerRequest {
  id: number;
  kind: 'inspect';
  text: string;
  opts?: InspectOptions;
}

/** InspectResult less `parse` (its SourceMap has functions; the host parses the text itself). */
export interface WorkerInspectResult {
  snapshot?: SystemSnapshot;
  diagnostics: Diagnostic[];
  hasErrors: boolean;
  /** Time spent in the worker (ms). */
  ms: number;
}

export type WorkerResponse = { id: number; ok: true; result: WorkerInspectResult } | { id: number; ok: false; error: string };

export function isWorkerRequest(m: unknown): m is WorkerRequest {
  return typeof m === 'object' && m !== null && (m as WorkerRequest).kind === 'inspect' && typeof (m as WorkerRequest).id === 'number' && typeof (m as WorkerRequest).text === 'string';
}

export function isWorkerResponse(m: unknown): m is WorkerResponse {
  return typeof m === 'object' && m !== null && typeof (m as WorkerResponse).id === 'number' && typeof (m as WorkerResponse).ok === 'boolean';
}
