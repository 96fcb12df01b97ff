// The engine's chain in a worker thread of its own (bench/engineIsolated.ts drives it), so that its
// typed arrays run in an isolate where no ArrayBuffer was ever detached. A WebAssembly peer in the
// bench's process (MuJoCo, Rapier) detaches ArrayBuffers whenever its memory grows, which makes V8
// guard every typed-array access in optimised code from then on, process-wide per isolate: measured
// ≈ 20–25 % on the engine's step at N = 100 and 1000 (bench/README.md). An application that embeds
// the engine does not share its isolate with MuJoCo's or Rapier's memory growth.
//
// Protocol: requests arrive on `workerData.port`; each reply is posted on that port, then the int32
// at `workerData.flag` is set to 1 and notified (the caller blocks in Atomics.wait and takes the
// reply synchronously with receiveMessageOnPort). Before the first request the worker stores 2 there
// once it listens.
import { type MessagePort, workerData } from 'node:worker_threads';
import { makeEngineChain, type EngineChain } from './engine-runner';
import type { ChainParams } from './chain';
import { type MeasurePlan, measureRound } from './timing';

export type EngineRequest =
  | { op: 'build'; params: ChainParams }
  | { op: 'round'; plan: MeasurePlan }
  | { op: 'reset' }
  | { op: 'step' }
  | { op: 'info' };

const { port, flag } = workerData as { port: MessagePort; flag: Int32Array };
let chain: EngineChain | undefined;

function reply(value: unknown): void {
  port.postMessage(value);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
}

function handle(req: EngineRequest): unknown {
  if (req.op === 'build') {
    const made = makeEngineChain(req.params);
    chain = made.ok ? made.chain : undefined;
    return made.ok ? { ok: true, rows: made.chain.rows, dofs: made.chain.dofs } : made;
  }
  if (!chain) throw new Error('no chain built');
  const c = chain;
  switch (req.op) {
    case 'round':
      return measureRound(c.reset, c.step, req.plan, () => c.stopped() !== undefined);
    case 'reset':
      c.reset();
      return null;
    case 'step':
      c.step();
      return null;
    case 'info':
      return { last: c.lastStepInfo(), jointError: c.jointError(), tipZ: c.tipZ(), positions: c.positions(), stopped: c.stopped() };
  }
}

// listening: tell the waiting caller (engineIsolated.ts SyncWorker.call)
Atomics.store(flag, 0, 2);
Atomics.notify(flag, 0);

port.on('message', (req: EngineRequest) => {
  try {
    reply({ ok: true, value: handle(req) });
  } catch (e) {
    reply({ ok: false, error: e instanceof Error ? `${e.message}\n${e.stack ?? ''}` : String(e) });
  }
});
