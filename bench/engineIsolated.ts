// The engine's chain driven synchronously in its own worker thread (bench/engineWorker.ts says why).
// Every call blocks the bench's thread (Atomics.wait) until the worker replies, so the scheduler in
// timing.ts stays synchronous: a timed round runs entirely in the worker (measureRound there), and
// the process's CPU clock then counts the worker alone (the waiting thread uses none).
import * as path from 'node:path';
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';
import type { ChainParams } from './chain';
import type { EngineChain, EngineChainResult } from './engine-runner';
import type { EngineRequest } from './engineWorker';
import type { MeasurePlan, RoundTimes } from './timing';

/** dist/bench-engine-worker.js, next to the bench's own bundle. */
export const ENGINE_WORKER = path.join(__dirname, 'bench-engine-worker.js');

class SyncWorker {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly flag = new Int32Array(new SharedArrayBuffer(4));
  readonly file: string;

  constructor(file: string, execArgv?: string[]) {
    this.file = file;
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.worker = new Worker(file, { workerData: { port: port2, flag: this.flag }, transferList: [port2], ...(execArgv ? { execArgv } : {}) });
    this.worker.unref();
    this.port.unref();
  }

  /** Set once the worker signalled that it listens (its first reply). */
  private ready = false;

  call<T>(req: EngineRequest, timeoutMs = 600_000): T {
    if (!this.ready) {
      // the worker stores 2 once it listens; one that fails to load never does (its 'error' event
      // cannot reach this thread while it waits, hence the bounded wait)
      if (Atomics.wait(this.flag, 0, 0, 60_000) === 'timed-out' && Atomics.load(this.flag, 0) !== 2) throw new Error(`engine worker ${this.file} did not start within 60 s`);
      this.ready = true;
    }
    Atomics.store(this.flag, 0, 0);
    this.port.postMessage(req);
    if (Atomics.wait(this.flag, 0, 0, timeoutMs) === 'timed-out') throw new Error(`engine worker: no reply to ${req.op} within ${timeoutMs} ms`);
    const m = receiveMessageOnPort(this.port);
    if (!m) throw new Error(`engine worker: no message after ${req.op}`);
    const r = m.message as { ok: true; value: T } | { ok: false; error: string };
    if (!r.ok) throw new Error(`engine worker: ${r.error}`);
    return r.value;
  }

  terminate(): void {
    void this.worker.terminate();
  }
}

let shared: SyncWorker | undefined;

interface Info {
  last: ReturnType<EngineChain['lastStepInfo']>;
  jointError: number;
  tipZ: number;
  positions: number[];
  stopped: string | undefined;
}

/** The chain built in the (one, shared) engine worker, with `round` to time a whole round there. */
export function makeIsolatedEngineChain(
  p: ChainParams,
  /** The worker's script and Node options (tests run bench/engineWorker.ts through tsx). */
  worker: { file: string; execArgv?: string[] } = { file: ENGINE_WORKER },
): { ok: true; chain: EngineChain; round: (plan: MeasurePlan) => RoundTimes } | Extract<EngineChainResult, { ok: false }> {
  if (shared && shared.file !== worker.file) closeEngineWorker();
  shared ??= new SyncWorker(worker.file, worker.execArgv);
  const w = shared;
  const built = w.call<{ ok: true; rows: number; dofs: number } | { ok: false; reason: string }>({ op: 'build', params: p });
  if (!built.ok) return built;
  let info: Info | undefined;
  const latest = (): Info => (info ??= w.call<Info>({ op: 'info' }));
  const changed = (): void => {
    info = undefined;
  };
  const chain: EngineChain = {
    rows: built.rows,
    dofs: built.dofs,
    reset: () => {
      w.call({ op: 'reset' });
      changed();
    },
    step: () => {
      w.call({ op: 'step' });
      changed();
    },
    lastStepInfo: () => latest().last,
    jointError: () => latest().jointError,
    tipZ: () => latest().tipZ,
    positions: () => latest().positions,
    stopped: () => latest().stopped,
  };
  return {
    ok: true,
    chain,
    round: (plan) => {
      const r = w.call<RoundTimes>({ op: 'round', plan });
      changed();
      return r;
    },
  };
}

/** Stop the engine worker (the bench's end). */
export function closeEngineWorker(): void {
  shared?.terminate();
  shared = undefined;
}
