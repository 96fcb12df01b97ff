// One request/reply helper for every message channel of the project: the panel asking the
// extension host for a step's snapshot, the extension host asking its analysis worker for an
// inspection. Pure TypeScript: no DOM, no Node, no vscode (timers come from globalThis or are
// injected), so the webview, the extension host and a worker thread can all import it.
//
//   const client = createRpcClient<Methods>(post, onMessage, { timeoutMs: 4000 });
//   const result = await client.request('inspect', { text });          // typed by Methods
//
//   const stop = handleRequests<Methods>(post, onMessage, { inspect: ({ text }) => … });
//
// What travels on the wire is a `RpcWire`'s business. The default (`envelopeWire`) wraps each
// request as `{ rpc: 'request', id, method, params }` and each reply as `{ rpc: 'reply', id, ok, … }`
// with a fresh correlation id per request. A protocol whose messages are fixed already (the
// panel's `requestSnapshot` → `snapshot`, which carries no id) supplies its own wire that maps a
// request to its message and a correlation key (there: the step), and recognises replies.

/** A method's request parameters and reply result. */
interface RpcSpec {
  params: unknown;
  result: unknown;
}
/** Request/reply map: method name → `{ params, result }`. Interfaces and type literals both fit. */
type RpcMethods<M> = { [K in keyof M]: RpcSpec };
type RpcParams<M, K extends keyof M> = M[K] extends RpcSpec ? M[K]['params'] : never;
type RpcResult<M, K extends keyof M> = M[K] extends RpcSpec ? M[K]['result'] : never;

/** Correlation key: the envelope's numeric id, or whatever a custom wire derives from a request. */
type RpcKey = string | number;

/** Subscribes a listener to incoming messages; returns the unsubscribe function. */
export type Subscribe<In> = (listener: (message: In) => void) => () => void;

/** A reply as a wire decodes it: its correlation key and the outcome. */
export type RpcReply = { key: RpcKey; ok: true; result: unknown } | { key: RpcKey; ok: false; error: string };

/** Client side of a wire: how a request is sent and how a reply is recognised. */
export interface RpcWire<M, Out, In> {
  /** The message carrying a request, and the key its reply will carry. `id` is fresh per request. */
  request<K extends keyof M>(method: K, params: RpcParams<M, K>, id: number): { message: Out; key: RpcKey };
  /** The reply this message is, or undefined when it is no reply (it is then ignored). */
  reply(message: In): RpcReply | undefined;
}

/** Server side of a wire: how a request is recognised and how its reply is built. */
interface RpcServerWire<In, Out> {
  /** The request this message is (`id` is echoed in the reply), or undefined when it is none. */
  request(message: In): { id: RpcKey; method: string; params: unknown } | undefined;
  reply(id: RpcKey, outcome: { ok: true; result: unknown } | { ok: false; error: string }): Out;
}

// ---- the default envelope -------------------------------------------------------------------

interface RpcRequestMessage<M = Record<string, RpcSpec>> {
  rpc: 'request';
  id: number;
  method: keyof M & string;
  params: unknown;
}
type RpcReplyMessage = { rpc: 'reply'; id: RpcKey; ok: true; result: unknown } | { rpc: 'reply'; id: RpcKey; ok: false; error: string };

const isObj = (m: unknown): m is Record<string, unknown> => typeof m === 'object' && m !== null;

function isRpcRequestMessage(m: unknown): m is RpcRequestMessage {
  return isObj(m) && m.rpc === 'request' && typeof m.id === 'number' && typeof m.method === 'string';
}
function isRpcReplyMessage(m: unknown): m is RpcReplyMessage {
  return isObj(m) && m.rpc === 'reply' && (typeof m.id === 'number' || typeof m.id === 'string') && (m.ok === true || (m.ok === false && typeof m.error === 'string'));
}

/** `{ rpc: 'request', id, method, params }` out, `{ rpc: 'reply', id, ok, result | error }` back. */
function envelopeWire<M>(): RpcWire<M, RpcRequestMessage<M>, unknown> {
  return {
    request: (method, params, id) => ({ message: { rpc: 'request', id, method: method as keyof M & string, params }, key: id }),
    reply: (m) => {
      if (!isRpcReplyMessage(m)) return undefined;
      return m.ok ? { key: m.id, ok: true, result: m.result } : { key: m.id, ok: false, error: m.error };
    },
  };
}

/** The server side of `envelopeWire`. */
function envelopeServerWire(): RpcServerWire<unknown, RpcReplyMessage> {
  return {
    request: (m) => (isRpcRequestMessage(m) ? { id: m.id, method: m.method, params: m.params } : undefined),
    reply: (id, o) => (o.ok ? { rpc: 'reply', id, ok: true, result: o.result } : { rpc: 'reply', id, ok: false, error: o.error }),
  };
}

// ---- errors and timers ----------------------------------------------------------------------

/**
 * Why a request failed: `timeout` (no reply in time), `remote` (the other side replied with an
 * error), `closed` (the client was disposed first), `send` (posting the request threw).
 */
export class RpcError extends Error {
  constructor(
    readonly code: 'timeout' | 'remote' | 'closed' | 'send',
    message: string,
    readonly method?: string,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}

interface RpcTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The host environment's timers (browser, Node and workers all have them on globalThis). */
const globalTimers = (): RpcTimers => {
  const g = globalThis as unknown as { setTimeout(fn: () => void, ms: number): unknown; clearTimeout(h: unknown): void };
  return { setTimeout: (fn, ms) => g.setTimeout(fn, ms), clearTimeout: (h) => g.clearTimeout(h) };
};

// ---- client ---------------------------------------------------------------------------------

interface RpcClientOptions {
  /** Default time (ms) to wait for a reply; 0 or absent: wait until disposed. */
  timeoutMs?: number;
  timers?: RpcTimers;
}

export interface RpcClient<M> {
  /**
   * Sends a request and resolves with its reply's result. A request whose correlation key is
   * already waiting (possible with keyed wires only) joins that request: nothing is posted again.
   */
  request<K extends keyof M>(method: K, params: RpcParams<M, K>, opts?: { timeoutMs?: number }): Promise<RpcResult<M, K>>;
  /** Keys of the requests waiting for a reply, oldest first. */
  pending(): RpcKey[];
  /** Rejects every waiting request (`closed`) and stops listening. */
  dispose(reason?: string): void;
}

interface Waiting {
  method: string;
  promise: Promise<unknown>;
  resolve(v: unknown): void;
  reject(e: Error): void;
  timer: unknown;
}

/** A client over the default envelope. */
export function createRpcClient<M extends RpcMethods<M>>(post: (message: RpcRequestMessage<M>) => void, onMessage: Subscribe<unknown>, options?: RpcClientOptions): RpcClient<M>;
/** A client over a custom wire (fixed message shapes, keys derived from the messages). */
export function createRpcClient<M extends RpcMethods<M>, Out, In>(post: (message: Out) => void, onMessage: Subscribe<In>, options: RpcClientOptions & { wire: RpcWire<M, Out, In> }): RpcClient<M>;
export function createRpcClient<M extends RpcMethods<M>, Out, In>(
  post: (message: Out) => void,
  onMessage: Subscribe<In>,
  options: RpcClientOptions & { wire?: RpcWire<M, Out, In> } = {},
): RpcClient<M> {
  const wire = options.wire ?? (envelopeWire<M>() as unknown as RpcWire<M, Out, In>);
  const timers = options.timers ?? globalTimers();
  const waiting = new Map<RpcKey, Waiting>();
  let nextId = 1;
  let closed: string | undefined;

  const settle = (key: RpcKey, fn: (w: Waiting) => void): void => {
    const w = waiting.get(key);
    if (!w) return;
    waiting.delete(key);
    if (w.timer !== undefined) timers.clearTimeout(w.timer);
    fn(w);
  };

  const unsubscribe = onMessage((message) => {
    const r = wire.reply(message);
    if (!r) return;
    settle(r.key, (w) => (r.ok ? w.resolve(r.result) : w.reject(new RpcError('remote', r.error, w.method))));
  });

  return {
    request<K extends keyof M>(method: K, params: RpcParams<M, K>, opts: { timeoutMs?: number } = {}): Promise<RpcResult<M, K>> {
      const name = String(method);
      if (closed !== undefined) return Promise.reject(new RpcError('closed', `${name}: ${closed}`, name));
      const { message, key } = wire.request(method, params, nextId++);
      const joined = waiting.get(key);
      if (joined) return joined.promise as Promise<RpcResult<M, K>>;
      let resolve!: (v: unknown) => void;
      let reject!: (e: Error) => void;
      const promise = new Promise<unknown>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      const w: Waiting = { method: name, promise, resolve, reject, timer: undefined };
      waiting.set(key, w);
      const ms = opts.timeoutMs ?? options.timeoutMs ?? 0;
      if (ms > 0) w.timer = timers.setTimeout(() => settle(key, (x) => x.reject(new RpcError('timeout', `${name}: no reply within ${ms} ms`, name))), ms);
      try {
        post(message);
      } catch (e) {
        settle(key, (x) => x.reject(new RpcError('send', `${name}: ${e instanceof Error ? e.message : String(e)}`, name)));
      }
      return promise as Promise<RpcResult<M, K>>;
    },
    pending: () => [...waiting.keys()],
    dispose(reason = 'disposed') {
      if (closed !== undefined) return;
      closed = reason;
      unsubscribe();
      for (const key of [...waiting.keys()]) settle(key, (w) => w.reject(new RpcError('closed', `${w.method}: ${reason}`, w.method)));
    },
  };
}

// ---- server ---------------------------------------------------------------------------------

type RpcHandlers<M> = { [K in keyof M]: (params: RpcParams<M, K>) => RpcResult<M, K> | Promise<RpcResult<M, K>> };

/**
 * Answers requests with `handlers` (one per method; sync or async). A handler that throws or
 * rejects replies `ok: false` with the message; an unknown method replies `ok: false` too.
 * Returns the unsubscribe function.
 */
export function handleRequests<M extends RpcMethods<M>>(post: (message: RpcReplyMessage) => void, onMessage: Subscribe<unknown>, handlers: RpcHandlers<M>): () => void;
export function handleRequests<M extends RpcMethods<M>, In, Out>(post: (message: Out) => void, onMessage: Subscribe<In>, handlers: RpcHandlers<M>, wire: RpcServerWire<In, Out>): () => void;
export function handleRequests<M extends RpcMethods<M>, In, Out>(post: (message: Out) => void, onMessage: Subscribe<In>, handlers: RpcHandlers<M>, wire?: RpcServerWire<In, Out>): () => void {
  const w = wire ?? (envelopeServerWire() as unknown as RpcServerWire<In, Out>);
  const table = handlers as unknown as Record<string, ((p: unknown) => unknown) | undefined>;
  const send = (m: Out): void => {
    try {
      post(m);
    } catch {
      // The channel is gone: nobody is left to tell.
    }
  };
  return onMessage((message) => {
    const req = w.request(message);
    if (!req) return;
    const fn = Object.prototype.hasOwnProperty.call(table, req.method) ? table[req.method] : undefined;
    if (typeof fn !== 'function') {
      send(w.reply(req.id, { ok: false, error: `unknown method '${req.method}'` }));
      return;
    }
    let out: unknown;
    try {
      out = fn(req.params);
    } catch (e) {
      send(w.reply(req.id, { ok: false, error: errorText(e) }));
      return;
    }
    Promise.resolve(out).then(
      (result) => send(w.reply(req.id, { ok: true, result })),
      (e: unknown) => send(w.reply(req.id, { ok: false, error: errorText(e) })),
    );
  });
}

const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));
