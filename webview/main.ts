// Constraint Lens inspector: the webview's bootstrap (also the standalone report, read-only).
// transport (host messages, snapshot requests) → store (state, reducers) → cards (render from it).
import { decodeFromJson, isPanelModel, type HostMessage } from '../src/protocol';
import { createActions } from './actions';
import { framedStore } from './frame';
import { installRunKeys } from './panelKeys';
import { soloBanner } from './cards/banner';
import { mountPanel } from './cards/layout';
import { deferredParts, loadDeferred } from './load';
import { isConsistent, nextSnapshotRequest, persistedState } from './selectors';
import { createStore, initialState } from './store';
import { onThemeChange, readPalette } from './theme';
import { connectToHost } from './transport';

/** When this script started running (ms after the page's navigation start). */
const SCRIPT_START = performance.now();

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

function boot(): void {
  const root = document.getElementById('app') ?? document.body;
  const embedded = document.getElementById('cl-model')?.textContent?.trim();
  const report = !!embedded;
  const transport = report ? undefined : connectToHost();
  if (!report && !transport) {
    root.textContent = 'Constraint Lens: no data (open a *.scene.json file and run “Constraint Lens: Open Inspector”).';
    return;
  }
  // Ask for the model first: the host's answer arrives as a message event, after this task,
  // whatever else the boot does before its end (the listener is in place by then).
  transport?.post({ type: 'ready', startup: { navigationStart: Math.round(performance.timeOrigin), scriptStart: Math.round(performance.timeOrigin + SCRIPT_START), readyAt: Date.now() } });
  document.body.classList.toggle('cl-report', report);
  const palette = readPalette();

  let failing = false;
  const onError = (e: unknown): void => {
    transport?.log('error', `webview: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    if (failing) return; // the banner itself failed: do not loop
    failing = true;
    try {
      store.dispatch({ type: 'renderFailed', message: message(e) });
    } finally {
      failing = false;
    }
  };
  const store = createStore(initialState({ report, restored: transport?.restored, palette }), { onError });
  // The cards render from one state per frame; Pause names that state's step (frame.ts).
  const framed = framedStore(store, undefined, { onError });
  // the browser tests and bench:ui apply a host message and read the page it renders
  (globalThis as { __clRender?: () => void }).__clRender = framed.flush;
  const actions = createActions(store, (m) => transport?.post(m), framed.shownStep);
  installRunKeys(framed, actions);
  onThemeChange(() => {
    const p = readPalette();
    deferredParts()?.applyChartTheme(p);
    store.dispatch({ type: 'themeChanged', palette: p });
  });

  // The step the header, forces, matrices and scene show, on the page for tests and bug reports.
  framed.watch(
    (s) => [s.step, s.snapshot?.step, isConsistent(s)],
    ([step, shown, ok]) => {
      document.body.dataset.clStep = String(step);
      document.body.dataset.clSnapshotStep = shown === undefined ? '' : String(shown);
      document.body.dataset.clConsistent = ok ? '1' : '0';
    },
  );

  // The page is built with the first model; before it, a banner (if any) is the whole page.
  let mounted = false;
  framed.watch(
    (s) => [s.model !== undefined, s.banner],
    (_, s) => {
      if (!s.model) {
        if (s.banner) soloBanner(root, s.banner.kind, s.banner.text);
      } else if (!mounted) {
        mounted = true;
        mountPanel(root, { store: framed, actions, report });
        // the 3D view and the charts, after the first frame (cards that show them ask too)
        void loadDeferred().catch(() => undefined);
      }
    },
  );

  const receive = (m: HostMessage): void => {
    const t0 = performance.now();
    try {
      store.dispatch({ type: 'host', message: m });
    } catch (e) {
      onError(e);
      return;
    } finally {
      // Applied (or failed): either way the host may send the next one.
      if ('seq' in m && m.seq !== undefined) {
        const entry = flowEntry(m, t0);
        const appliedMs = performance.now() - t0;
        transport?.ack(m.seq, () => appliedMs + framed.lastRenderMs(), () => (entry.ackMs = Math.round(performance.now() - t0)));
      }
    }
    if (m.type === 'model') {
      // the model is on the page when this says so (its first paint is the next frame)
      framed.flush();
      document.body.dataset.clReady = '1';
      document.body.dataset.clModelMs = (performance.now() - t0).toFixed(0);
    }
  };

  if (!transport) {
    try {
      const model = decodeFromJson<unknown>(embedded!);
      if (!isPanelModel(model)) throw new Error('the embedded model is not valid');
      receive({ type: 'model', model });
    } catch (e) {
      root.textContent = `Constraint Lens: could not read the embedded report data (${message(e)}).`;
    }
    return;
  }

  // Effects: ask for the snapshot the panel is missing (one at a time), persist the view.
  store.watch(nextSnapshotRequest, (step) => {
    if (step === undefined) return;
    store.dispatch({ type: 'snapshotRequested', step });
    // a panel following the run asks for the end it knows, which the run may have left by the time the
    // host reads the request: it says so, and the status bar and CodeLens follow the run instead
    transport.requestSnapshot(step, store.getState().follow).catch((e: unknown) => store.dispatch({ type: 'snapshotFailed', step, reason: message(e) }));
  });
  store.watch(persistedState, (state) => state && transport.persist(state));
  transport.onMessage(receive);
}

/**
 * The last flow-controlled messages the panel applied: when each came, the step it brought, how
 * long applying it took and how long until its acknowledgement went (applied and painted). On the
 * page (`__clFlow`) for the end-to-end tests and bug reports: the host paces a run's updates by
 * the acknowledgement time, so this is where a lagging panel shows why.
 */
interface FlowEntry {
  at: number;
  type: string;
  step: number | undefined;
  total: number | undefined;
  applyMs: number;
  ackMs: number | undefined;
}
const FLOW_LOG = 200;
const flowLog: FlowEntry[] = ((globalThis as { __clFlow?: FlowEntry[] }).__clFlow = []);

function flowEntry(m: HostMessage, t0: number): FlowEntry {
  const snap = m.type === 'snapshot' ? m.snapshot : m.type === 'historyAppend' ? m.snapshot : m.type === 'model' ? m.model.snapshot : undefined;
  const total = m.type === 'historyAppend' ? m.total : m.type === 'historyReset' ? m.length : m.type === 'model' ? (m.model.steps ?? m.model.history.length) : undefined;
  const e: FlowEntry = { at: Date.now(), type: m.type, step: snap?.step, total, applyMs: Math.round(performance.now() - t0), ackMs: undefined };
  flowLog.push(e);
  if (flowLog.length > FLOW_LOG) flowLog.splice(0, flowLog.length - FLOW_LOG);
  return e;
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', boot);
else boot();
