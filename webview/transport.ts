// The host transport: the VS Code webview API behind one small interface. Incoming messages are
// validated (invalid ones are logged to the host and dropped); snapshot requests go through the
// shared request/reply helper, correlated by step (the protocol's messages carry no id) and
// bounded by a timeout, so a request never waits forever. Flow-controlled host messages (those
// with a `seq`) are acknowledged once applied and painted: the host sends the next one only then.
import { parseHostMessage, type HostMessage, type SystemSnapshot, type WebviewMessage, type WebviewState } from '../src/protocol';
import { createRpcClient, type RpcWire } from '../src/shared/rpc';

interface VsCodeApi {
  postMessage(m: WebviewMessage): void;
  getState(): WebviewState | undefined;
  setState(s: WebviewState): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

/** The panel's requests: method → params and result. */
interface PanelRequests {
  snapshot: { params: { step: number; follow?: boolean }; result: SystemSnapshot };
}

/** `requestSnapshot {step}` out; a `snapshot` message of that step is its reply (the host also pushes unasked ones). */
const snapshotWire: RpcWire<PanelRequests, WebviewMessage, HostMessage> = {
  request: (_method, { step, follow }) => ({ message: { type: 'requestSnapshot', step, ...(follow ? { follow } : {}) }, key: step }),
  reply: (m) => (m.type === 'snapshot' ? { key: m.snapshot.step, ok: true, result: m.snapshot } : undefined),
};

/** How long a snapshot request may take before the panel stops waiting for it. */
const SNAPSHOT_TIMEOUT_MS = 4000;

interface Transport {
  post(m: WebviewMessage): void;
  /** Valid host messages, in arrival order. Returns the unsubscribe function. */
  onMessage(listener: (m: HostMessage) => void): () => void;
  /** Resolves with the host's snapshot of `step` (`follow`: the panel follows the run's end); rejects with an RpcError on timeout. */
  requestSnapshot(step: number, follow?: boolean): Promise<SystemSnapshot>;
  /** Acknowledge the host message `seq` after the next frame (so the host never runs ahead of the painting), with `panelMs()`, the panel's own work for it (applying and rendering, not the wait for a frame); `acked` runs as it goes. */
  ack(seq: number, panelMs: () => number, acked?: () => void): void;
  /** The state VS Code kept for this panel (restored after a reload). */
  readonly restored: WebviewState | undefined;
  persist(s: WebviewState): void;
  log(level: 'info' | 'error', message: string): void;
  dispose(): void;
}

/** The transport of a webview inside VS Code, or undefined outside one (no `acquireVsCodeApi`). */
export function connectToHost(win: Window = window): Transport | undefined {
  let api: VsCodeApi | undefined;
  try {
    api = typeof acquireVsCodeApi === 'function' ? acquireVsCodeApi() : undefined;
  } catch {
    api = undefined;
  }
  if (!api) return undefined;
  const vscode = api;
  const listeners = new Set<(m: HostMessage) => void>();
  const post = (m: WebviewMessage): void => vscode.postMessage(m);
  const log = (level: 'info' | 'error', message: string): void => post({ type: 'log', level, message });
  const onEvent = (e: MessageEvent): void => {
    const m = parseHostMessage(e.data);
    if (!m) {
      log('error', `webview: ignored invalid message ${describe(e.data)}`);
      return;
    }
    for (const l of [...listeners]) l(m);
  };
  const onError = (e: ErrorEvent): void => log('error', `webview error: ${e.message} (${e.filename}:${e.lineno})`);
  win.addEventListener('message', onEvent);
  win.addEventListener('error', onError);
  const subscribe = (l: (m: HostMessage) => void): (() => void) => {
    listeners.add(l);
    return () => listeners.delete(l);
  };
  const rpc = createRpcClient<PanelRequests, WebviewMessage, HostMessage>(post, subscribe, { wire: snapshotWire, timeoutMs: SNAPSHOT_TIMEOUT_MS });
  return {
    post,
    onMessage: subscribe,
    requestSnapshot: (step, follow) => rpc.request('snapshot', { step, follow }),
    ack: (seq, panelMs, acked) =>
      afterPaint(win, () => {
        const ms = panelMs();
        post(Number.isFinite(ms) && ms >= 0 ? { type: 'ack', seq, ms: Math.round(ms * 10) / 10 } : { type: 'ack', seq });
        acked?.();
      }),
    restored: vscode.getState(),
    persist: (s) => vscode.setState(s),
    log,
    dispose() {
      rpc.dispose('panel disposed');
      win.removeEventListener('message', onEvent);
      win.removeEventListener('error', onError);
      listeners.clear();
    },
  };
}

/** Most time an acknowledgement waits for a frame (a hidden page gets none). */
const ACK_FALLBACK_MS = 250;

/** Runs `fn` once, after the next animation frame or after ACK_FALLBACK_MS, whichever comes first. */
function afterPaint(win: Window, fn: () => void): void {
  let done = false;
  const once = (): void => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    fn();
  };
  const timer = setTimeout(once, ACK_FALLBACK_MS);
  win.requestAnimationFrame(() => setTimeout(once, 0));
}

function describe(x: unknown): string {
  try {
    const s = typeof x === 'string' ? x : JSON.stringify(x);
    return (s ?? String(x)).slice(0, 120);
  } catch {
    return String(x);
  }
}
