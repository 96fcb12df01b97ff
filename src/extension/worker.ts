// The analysis worker (bundled to dist/worker.js): runs `inspectScene` off the extension host's
// thread for large scenes. One request at a time; the host drops stale results and terminates the
// worker to cancel a long stale computation.
import { parentPort } from 'node:worker_threads';
import { inspectScene } from '../engine';
import { isWorkerRequest, type WorkerResponse } from './logic/workerProtocol';

const port = parentPort;
if (port) {
  port.on('message', (m: unknown) => {
    if (!isWorkerRequest(m)) return;
    let res: WorkerResponse;
    const t0 = performance.now();
    try {
      const r = inspectScene(m.text, m.opts);
      res = { id: m.id, ok: true, result: { snapshot: r.snapshot, diagnostics: r.diagnostics, hasErrors: r.hasErrors, ms: performance.now() - t0 } };
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
