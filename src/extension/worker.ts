// The analysis worker (bundled to dist/worker.js): runs `inspectScene` and the analysis of past
// steps (`snapshotAt`) off the extension host's thread for large scenes. One request at a time;
// the host drops stale results and terminates the worker to cancel a long stale computation.
import { parentPort } from 'node:worker_threads';
import { createSimulation, inspectScene, parseScene, type SimulationApi } from '../engine';
import { sourceMapSeed } from './logic/lazySourceMap';
import { Lru, isWorkerRequest, type WorkerRequest, type WorkerResponse } from './logic/workerProtocol';

/** Replica simulations: key → the version they were built for. */
const replicas = new Lru<string, { version: number; sim: SimulationApi | undefined }>(3);

function replica(key: string, version: number, text: string): SimulationApi | undefined {
  const r = replicas.get(key);
  if (r && r.version === version) return r.sim;
  const parse = parseScene(text);
  const sim = parse.scene ? createSimulation(parse.scene, parse.sourceMap) : undefined;
  replicas.set(key, { version, sim });
  return sim;
}

/** Handle one request (exported for tests; the worker calls it for each message). */
export function handle(m: WorkerRequest): WorkerResponse {
  const t0 = performance.now();
  if (m.kind === 'inspect') {
    const r = inspectScene(m.text, m.opts);
    const p = r.parse;
    // One message: the objects shared by r.diagnostics and p.diagnostics stay shared on the host.
    const parse = { scene: p.scene, diagnostics: p.diagnostics, hasErrors: p.hasErrors, ...sourceMapSeed(p.sourceMap, p.scene) };
    return { id: m.id, ok: true, result: { snapshot: r.snapshot, diagnostics: r.diagnostics, hasErrors: r.hasErrors, parse, ms: performance.now() - t0 } };
  }
  const sim = replica(m.key, m.version, m.text);
  if (!sim) return { id: m.id, ok: true, result: { snapshot: undefined, ms: performance.now() - t0 } };
  if (sim.currentStep < m.step) sim.step(m.step - sim.currentStep);
  const step = Math.min(m.step, sim.currentStep);
  return { id: m.id, ok: true, result: { snapshot: sim.snapshotAt(step), ms: performance.now() - t0 } };
}

const port = parentPort;
if (port) {
  port.on('message', (m: unknown) => {
    if (!isWorkerRequest(m)) return;
    let res: WorkerResponse;
    try {
      res = handle(m);
    } catch (e) {
      res = { id: m.id, ok: false, error: e instanceof Error ? (e.stack ?? e.message) : String(e) };
    }
    try {
      port.postMessage(res);
    } catch (e) {
      // Not cloneable (should not happen: snapshots are plain data): report as an error.
      port.postMessage({ id: m.id, ok: false, error: `cannot send the result: ${String(e)}` } satisfies WorkerResponse);
    }
  });
}
