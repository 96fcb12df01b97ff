// The request/reply helper: correlation, timeouts, errors, custom wires, disposal.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRpcClient, handleRequests, RpcError, type RpcReply, type RpcWire, type Subscribe } from '../../src/shared/rpc';
import { fakeTimers } from './fake-timers';

/** A one-way in-memory channel: post() delivers synchronously to every subscriber. */
function channel<T>(): { post: (m: T) => void; subscribe: Subscribe<T>; listeners: () => number; sent: T[] } {
  const subs = new Set<(m: T) => void>();
  const sent: T[] = [];
  return {
    post: (m) => {
      sent.push(m);
      for (const l of [...subs]) l(m);
    },
    subscribe: (l) => {
      subs.add(l);
      return () => subs.delete(l);
    },
    listeners: () => subs.size,
    sent,
  };
}

interface Methods {
  add: { params: { a: number; b: number }; result: number };
  slow: { params: { ms: number }; result: string };
  fail: { params: { why: string }; result: never };
}

/** Settles pending promise callbacks. */
const flush = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('rpc over the default envelope', () => {
  test('a request reaches its handler and the typed result comes back', async () => {
    const up = channel<unknown>();
    const down = channel<unknown>();
    const stop = handleRequests<Methods>(down.post, up.subscribe, {
      add: ({ a, b }) => a + b,
      slow: async ({ ms }) => `waited ${ms}`,
      fail: ({ why }) => {
        throw new Error(why);
      },
    });
    const client = createRpcClient<Methods>(up.post, down.subscribe);
    const sum: number = await client.request('add', { a: 2, b: 3 });
    assert.equal(sum, 5);
    assert.equal(await client.request('slow', { ms: 7 }), 'waited 7');
    assert.deepEqual(up.sent[0], { rpc: 'request', id: 1, method: 'add', params: { a: 2, b: 3 } });
    assert.deepEqual(down.sent[0], { rpc: 'reply', id: 1, ok: true, result: 5 });
    assert.deepEqual(client.pending(), []);
    stop();
    assert.equal(up.listeners(), 0, 'handleRequests unsubscribes');
  });

  test('a throwing or rejecting handler and an unknown method reply with an error', async () => {
    const up = channel<unknown>();
    const down = channel<unknown>();
    handleRequests<Methods>(down.post, up.subscribe, {
      add: () => Promise.reject(new Error('no adding today')),
      slow: () => 'x',
      fail: ({ why }) => {
        throw new Error(why);
      },
    });
    const client = createRpcClient<Methods>(up.post, down.subscribe);
    await assert.rejects(client.request('fail', { why: 'bad input' }), (e: unknown) => e instanceof RpcError && e.code === 'remote' && e.message === 'bad input' && e.method === 'fail');
    await assert.rejects(client.request('add', { a: 1, b: 1 }), /no adding today/);
    up.post({ rpc: 'request', id: 99, method: 'toString', params: {} });
    assert.deepEqual(down.sent.at(-1), { rpc: 'reply', id: 99, ok: false, error: "unknown method 'toString'" });
  });

  test('replies out of order settle the right requests; foreign messages are ignored', async () => {
    const up = channel<unknown>();
    const down = channel<unknown>();
    const client = createRpcClient<Methods>(up.post, down.subscribe);
    const p1 = client.request('add', { a: 1, b: 1 });
    const p2 = client.request('add', { a: 2, b: 2 });
    assert.deepEqual(client.pending(), [1, 2]);
    down.post({ type: 'model' });
    down.post({ rpc: 'reply', id: 2, ok: true, result: 4 });
    down.post({ rpc: 'reply', id: 1, ok: true, result: 2 });
    assert.deepEqual(await Promise.all([p1, p2]), [2, 4]);
    down.post({ rpc: 'reply', id: 1, ok: true, result: 'late duplicate' });
    assert.deepEqual(client.pending(), []);
  });

  test('no reply in time: the request rejects with a timeout and a late reply is dropped', async () => {
    const clock = fakeTimers();
    const up = channel<unknown>();
    const down = channel<unknown>();
    const client = createRpcClient<Methods>(up.post, down.subscribe, { timeoutMs: 4000, timers: clock });
    let outcome: unknown;
    client.request('slow', { ms: 1 }).then(
      (v) => (outcome = v),
      (e: unknown) => (outcome = e),
    );
    const quick = client.request('add', { a: 1, b: 2 }, { timeoutMs: 100_000 });
    clock.advance(3999);
    await flush();
    assert.equal(outcome, undefined, 'still waiting just before the deadline');
    clock.advance(1);
    await flush();
    const failed = outcome as unknown;
    assert.ok(failed instanceof RpcError && failed.code === 'timeout', String(failed));
    assert.deepEqual(client.pending(), [2], 'the other request (own longer timeout) still waits');
    down.post({ rpc: 'reply', id: 1, ok: true, result: 'too late' });
    down.post({ rpc: 'reply', id: 2, ok: true, result: 3 });
    assert.equal(await quick, 3);
  });

  test('dispose rejects what waits, unsubscribes, and refuses new requests', async () => {
    const up = channel<unknown>();
    const down = channel<unknown>();
    const client = createRpcClient<Methods>(up.post, down.subscribe);
    const p = client.request('add', { a: 1, b: 1 });
    client.dispose('panel closed');
    await assert.rejects(p, (e: unknown) => e instanceof RpcError && e.code === 'closed' && /panel closed/.test(e.message));
    assert.equal(down.listeners(), 0);
    await assert.rejects(client.request('add', { a: 1, b: 1 }), (e: unknown) => e instanceof RpcError && e.code === 'closed');
    assert.equal(up.sent.length, 1, 'nothing posted after dispose');
  });

  test('a post that throws rejects the request at once', async () => {
    const down = channel<unknown>();
    const client = createRpcClient<Methods>(() => {
      throw new Error('channel gone');
    }, down.subscribe);
    await assert.rejects(client.request('add', { a: 1, b: 1 }), (e: unknown) => e instanceof RpcError && e.code === 'send' && /channel gone/.test(e.message));
    assert.deepEqual(client.pending(), []);
  });
});

describe('rpc over a custom wire', () => {
  // The panel's shapes: `{ type: 'requestSnapshot', step }` out, `{ type: 'snapshot', snapshot: { step } }` back.
  interface Panel {
    snapshot: { params: { step: number }; result: { step: number; tag: string } };
  }
  type Out = { type: 'requestSnapshot'; step: number };
  type In = { type: 'snapshot'; snapshot: { step: number; tag: string } } | { type: 'other' };
  const wire: RpcWire<Panel, Out, In> = {
    request: (_method, params) => ({ message: { type: 'requestSnapshot', step: params.step }, key: `step:${params.step}` }),
    reply: (m): RpcReply | undefined => (m.type === 'snapshot' ? { key: `step:${m.snapshot.step}`, ok: true, result: m.snapshot } : undefined),
  };

  test('the key comes from the message: a second request for the same step joins the first', async () => {
    const up = channel<Out>();
    const down = channel<In>();
    const client = createRpcClient<Panel, Out, In>(up.post, down.subscribe, { wire });
    const a = client.request('snapshot', { step: 5 });
    const b = client.request('snapshot', { step: 5 });
    const c = client.request('snapshot', { step: 6 });
    assert.deepEqual(up.sent, [
      { type: 'requestSnapshot', step: 5 },
      { type: 'requestSnapshot', step: 6 },
    ]);
    down.post({ type: 'other' });
    down.post({ type: 'snapshot', snapshot: { step: 6, tag: 'six' } });
    down.post({ type: 'snapshot', snapshot: { step: 5, tag: 'five' } });
    assert.deepEqual(await Promise.all([a, b, c]), [
      { step: 5, tag: 'five' },
      { step: 5, tag: 'five' },
      { step: 6, tag: 'six' },
    ]);
  });

  test('a server wire answers in the same fixed shapes', async () => {
    const up = channel<Out>();
    const down = channel<In>();
    handleRequests<Panel, Out, In>(down.post, up.subscribe, { snapshot: ({ step }) => ({ step, tag: `s${step}` }) }, {
      request: (m) => ({ id: m.step, method: 'snapshot', params: { step: m.step } }),
      reply: (_id, o) => (o.ok ? { type: 'snapshot', snapshot: o.result as { step: number; tag: string } } : { type: 'other' }),
    });
    const client = createRpcClient<Panel, Out, In>(up.post, down.subscribe, { wire });
    assert.deepEqual(await client.request('snapshot', { step: 3 }), { step: 3, tag: 's3' });
  });

  test('the analysis worker’s shapes fit too: `{ id, kind, …params }` out, `{ id, ok, result | error }` back', async () => {
    interface Worker {
      inspect: { params: { text: string }; result: { chars: number } };
      snapshot: { params: { key: string; step: number }; result: { step: number } };
    }
    type Req = ({ kind: 'inspect'; text: string } | { kind: 'snapshot'; key: string; step: number }) & { id: number };
    type Res = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: string };
    const up = channel<Req>();
    const down = channel<Res>();
    handleRequests<Worker, Req, Res>(
      down.post,
      up.subscribe,
      {
        inspect: ({ text }) => ({ chars: text.length }),
        snapshot: ({ step }) => (step > 10 ? Promise.reject(new Error('past the run')) : { step }),
      },
      {
        request: (m) => ({ id: m.id, method: m.kind, params: m }),
        reply: (id, o) => ({ id: id as number, ...o }),
      },
    );
    const client = createRpcClient<Worker, Req, Res>(up.post, down.subscribe, {
      wire: {
        request: (method, params, id) => ({ message: { id, kind: method, ...params } as Req, key: id }),
        reply: (m) => (m.ok ? { key: m.id, ok: true, result: m.result } : { key: m.id, ok: false, error: m.error }),
      },
    });
    assert.deepEqual(await client.request('inspect', { text: 'abc' }), { chars: 3 });
    assert.deepEqual(await client.request('snapshot', { key: 'k', step: 4 }), { step: 4 });
    await assert.rejects(client.request('snapshot', { key: 'k', step: 40 }), /past the run/);
    assert.deepEqual(up.sent[1], { id: 2, kind: 'snapshot', key: 'k', step: 4 });
    assert.deepEqual(down.sent[0], { id: 1, ok: true, result: { chars: 3 } });
  });
});
