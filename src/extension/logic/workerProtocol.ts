// Messages between the extension host and the analysis worker (worker_threads; structured clone,
// so typed arrays travel as they are). Pure: no vscode.
import type { InspectOptions, SystemSnapshot, Diagnostic, SceneSpec } from '../../engine';
import type { SourceMapSeed } from './lazySourceMap';
import type { RpcWire } from '../../shared/rpc';

export type WorkerRequest =
  | { id: number; kind: 'inspect'; text: string; opts?: InspectOptions }
  /**
   * The analysed system at `step` of a run of `text`. The worker keeps a replica simulation per
   * (key, version) and steps it as far as needed: the engine is deterministic, so the replica's
   * states equal the host's.
   */
  | { id: number; kind: 'snapshot'; key: string; version: number; text: string; step: number };

/**
 * InspectResult with `parse` as plain data: its SourceMap has functions, so the host makes one
 * lazily from the text (logic/lazySourceMap.ts) and does not parse the text again for the rest.
 */
export interface WorkerInspectResult {
  snapshot?: SystemSnapshot;
  diagnostics: Diagnostic[];
  hasErrors: boolean;
  /** The parse's scene, diagnostics and error flag, and the ranges of the root and of each item. */
  parse?: WorkerParse;
  /** Time spent in the worker (ms). */
  ms: number;
}

/** The parse as plain data, with the SourceMap's ranges the views ask for (logic/lazySourceMap.ts). */
export interface WorkerParse extends SourceMapSeed {
  scene: SceneSpec | undefined;
  diagnostics: Diagnostic[];
  hasErrors: boolean;
}

export interface WorkerSnapshotResult {
  snapshot?: SystemSnapshot;
  ms: number;
}

export type WorkerResponse =
  | { id: number; ok: true; result: WorkerInspectResult | WorkerSnapshotResult }
  | { id: number; ok: false; error: string };

/** The worker's methods for the shared request/reply helper (src/shared/rpc.ts). */
export interface WorkerMethods {
  inspect: { params: { text: string; opts?: InspectOptions }; result: WorkerInspectResult };
  snapshot: { params: { key: string; version: number; text: string; step: number }; result: WorkerSnapshotResult };
}

/** The worker's fixed message shapes as an rpc wire: `{ id, kind, …params }` out, `{ id, ok, result | error }` back. */
export const workerWire: RpcWire<WorkerMethods, WorkerRequest, unknown> = {
  request: (method, params, id) => ({ message: { id, kind: method, ...params } as WorkerRequest, key: id }),
  reply: (m) => (isWorkerResponse(m) ? (m.ok ? { key: m.id, ok: true, result: m.result } : { key: m.id, ok: false, error: m.error }) : undefined),
};

export function isWorkerRequest(m: unknown): m is WorkerRequest {
  if (typeof m !== 'object' || m === null) return false;
  const r = m as Record<string, unknown>;
  if (typeof r.id !== 'number' || typeof r.text !== 'string') return false;
  if (r.kind === 'inspect') return true;
  return r.kind === 'snapshot' && typeof r.key === 'string' && typeof r.version === 'number' && Number.isInteger(r.step) && (r.step as number) >= 0;
}

function isWorkerResponse(m: unknown): m is WorkerResponse {
  return typeof m === 'object' && m !== null && typeof (m as WorkerResponse).id === 'number' && typeof (m as WorkerResponse).ok === 'boolean';
}

/** A small LRU map (the worker's replica simulations). */
export class Lru<K, V> {
  private readonly map = new Map<K, V>();
  constructor(private readonly max: number) {}
  get(k: K): V | undefined {
    const v = this.map.get(k);
    if (v !== undefined) {
      this.map.delete(k);
      this.map.set(k, v);
    }
    return v;
  }
  set(k: K, v: V): void {
    this.map.delete(k);
    this.map.set(k, v);
    while (this.map.size > this.max) this.map.delete(this.map.keys().next().value as K);
  }
  get size(): number {
    return this.map.size;
  }
}
