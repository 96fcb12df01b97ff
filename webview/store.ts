// The panel's state and the pure reducer over host messages and user actions. No DOM: the cards
// render from this state, the transport feeds it, and test/unit/webview-store.test.ts runs it in
// Node. Derived views (what the header says, what the heatmap outlines…) live in selectors.ts.
import type { HostMessage, PanelModel, SystemSnapshot, WebviewState } from '../src/protocol';
import { normalizeChunk } from '../src/shared/history';
import { appendHistory, emptyHistory, historyFromRecords, truncateHistory, type History } from './history';
import { matricesOf, normalizeSnapshot, type MatrixSource } from './matrix';
import type { Palette } from './palette';

interface Banner {
  kind: 'warning' | 'error';
  text: string;
}

export interface PanelState {
  /** Standalone report: read-only, the snapshots are embedded in the model, nothing is requested. */
  readonly report: boolean;
  /** The scene's model; its `history` is always empty here: the run is `history`. */
  readonly model: PanelModel | undefined;
  /** The run's records received so far, in columns (history.ts). */
  readonly history: History;
  /** Steps taken on the host as far as the panel knows (≥ history.length; records may still be on their way). */
  readonly total: number;
  /** The snapshot shown in the matrices (it lags `step` while that step's snapshot loads). */
  readonly snapshot: SystemSnapshot | undefined;
  /** The matrices and vector tables of `snapshot`. */
  readonly matrices: readonly MatrixSource[];
  /** The step-0 snapshot when known (history charts compare against it; step 0 needs no request). */
  readonly initial: SystemSnapshot | undefined;
  /** The step shown by the timeline, the header and the scene (0 … total). */
  readonly step: number;
  /**
   * Following the live end of the run: the current step's snapshot, pushed by the host during and
   * after a run, moves the step (header, forces, matrices and scene move together with it).
   */
  readonly follow: boolean;
  /** Index of the selected constraint in `snapshot.constraints`, or -1. */
  readonly selected: number;
  /** Name of the selected body (one thing is selected: a body or a constraint, never both). */
  readonly selectedBody: string | undefined;
  /** Counts select actions, so re-selecting the same constraint reveals it again. */
  readonly selectSeq: number;
  readonly running: boolean;
  /** Id of the matrix shown in the heatmap. */
  readonly matrix: string;
  readonly logScale: boolean;
  readonly sceneUri: string | undefined;
  /** The step whose snapshot the panel still needs (undefined: nothing missing). */
  readonly wanted: number | undefined;
  /**
   * The snapshot request in flight: the "loading…" state. Set by `snapshotRequested`, cleared by
   * the reply (a `snapshot` message of that step) or by `snapshotFailed`; it never outlives it.
   */
  readonly loading: number | undefined;
  readonly banner: Banner | undefined;
  /** The scene changed and the results shown are from its previous version. */
  readonly stale: boolean;
  readonly palette: Palette | undefined;
  /** What the webview state asked to restore, consumed by the first model. */
  readonly restore: { step?: number; following?: boolean; constraint?: string } | undefined;
}

export type Action =
  /** A validated message from the extension host (or the report's embedded model). */
  | { type: 'host'; message: HostMessage }
  /** The user moved the timeline or clicked a history chart. */
  | { type: 'goToStep'; step: number }
  /**
   * Pause pressed: the panel stays on the step it shows (no longer following the run's end): `step`,
   * the last one painted, when an update applied since then has not reached the screen yet.
   */
  | { type: 'pause'; step?: number }
  | { type: 'select'; index: number }
  /** Select a body by name (undefined: none); the constraint selection is cleared. */
  | { type: 'selectBody'; name: string | undefined }
  | { type: 'showMatrix'; id: string }
  | { type: 'toggleLog' }
  /** The transport sent `requestSnapshot` for this step. */
  | { type: 'snapshotRequested'; step: number }
  /** That request failed (timed out, or the channel closed). */
  | { type: 'snapshotFailed'; step: number; reason: string }
  | { type: 'themeChanged'; palette: Palette }
  | { type: 'renderFailed'; message: string };

export function initialState(opts: { report: boolean; restored?: WebviewState; palette?: Palette }): PanelState {
  const r = opts.restored ?? {};
  return {
    report: opts.report,
    model: undefined,
    history: emptyHistory(),
    total: 0,
    snapshot: undefined,
    matrices: [],
    initial: undefined,
    step: 0,
    follow: true,
    selected: -1,
    selectedBody: undefined,
    selectSeq: 0,
    running: false,
    matrix: r.selectedMatrix ?? 'J',
    logScale: !!r.logScale,
    sceneUri: r.sceneUri,
    wanted: undefined,
    loading: undefined,
    banner: undefined,
    stale: false,
    palette: opts.palette,
    restore: r.selectedStep !== undefined || r.selectedConstraint !== undefined ? { step: r.selectedStep, following: r.following, constraint: r.selectedConstraint } : undefined,
  };
}

export function reduce(s: PanelState, a: Action): PanelState {
  switch (a.type) {
    case 'host':
      return onHost(s, a.message);
    case 'goToStep':
      return goToStep(s, a.step);
    case 'pause':
      return { ...goToStep(s, a.step ?? s.step), follow: false };
    case 'select':
      return select(s, a.index);
    case 'selectBody':
      return selectBody(s, a.name);
    case 'showMatrix':
      return s.matrices.some((m) => m.id === a.id) ? { ...s, matrix: a.id } : s;
    case 'toggleLog':
      return { ...s, logScale: !s.logScale };
    case 'snapshotRequested':
      return s.report ? s : { ...s, loading: a.step };
    case 'snapshotFailed':
      // Give up on that step (no retry loop); a different wanted step is asked for next.
      return { ...s, loading: s.loading === a.step ? undefined : s.loading, wanted: s.wanted === a.step ? undefined : s.wanted };
    case 'themeChanged':
      return { ...s, palette: a.palette };
    case 'renderFailed':
      return { ...s, banner: { kind: 'error', text: `The panel failed to render: ${a.message}` } };
  }
}

function onHost(s: PanelState, m: HostMessage): PanelState {
  switch (m.type) {
    case 'model':
      return setModel(s, m.model);
    case 'snapshot':
      return onSnapshot(s, m.snapshot, m.goTo === true);
    case 'historyAppend': {
      if (!s.model) return s;
      const history = appendHistory(s.history, normalizeChunk(m.chunk));
      const next: PanelState = { ...s, history, total: Math.max(m.total, history.length) };
      return m.snapshot ? onSnapshot(next, m.snapshot, false) : next;
    }
    case 'historyReset': {
      if (!s.model) return s;
      const next: PanelState = { ...s, history: truncateHistory(s.history, m.length), total: m.length };
      return s.step > m.length ? goToStep(next, m.length) : next;
    }
    case 'diagnostics': {
      if (!s.model) return s;
      const model: PanelModel = { ...s.model, diagnostics: m.diagnostics };
      if (m.syntaxErrors?.length) model.syntaxErrors = m.syntaxErrors;
      else delete model.syntaxErrors;
      return { ...s, model };
    }
    case 'running':
      // A run that starts (Play, Run N Steps) is watched: the panel follows it from its end, even
      // when it was left on an earlier step (Pause from the panel lands on the step it showed).
      if (m.running && !s.running && s.model && !s.follow) return { ...goToStep(s, s.total), running: true };
      return { ...s, running: m.running };
    case 'invalidated':
      return { ...s, stale: true, banner: { kind: 'warning', text: `The scene changed (${m.reason}). The results below are from the previous version until it is re-analysed.` } };
    case 'error':
      return { ...s, banner: { kind: 'error', text: m.message } };
    case 'select': {
      if (m.body !== undefined && m.constraint === undefined) return selectBody(s, m.body);
      if (!s.snapshot || m.constraint === undefined) return s;
      const name = m.constraint;
      return select(s, s.snapshot.constraints.findIndex((c) => c.name === name));
    }
    case 'mujoco':
      // A model's MuJoCo section (cards/mujoco.ts); the next model message carries it too.
      return s.model ? { ...s, model: { ...s.model, mujoco: m.mujoco } } : s;
  }
}

/** A snapshot from the host: a reply, the run's current step (shown when following), or Go to Step (`goTo`). */
function onSnapshot(s: PanelState, raw: SystemSnapshot, goTo: boolean): PanelState {
  const snap = normalizeSnapshot(raw);
  const next: PanelState = { ...s, loading: s.loading === snap.step ? undefined : s.loading, initial: snap.step === 0 ? snap : s.initial };
  // Go to Step from the host: the panel moves there.
  if (goTo && s.model) {
    const step = Math.max(0, Math.min(snap.step, next.total));
    return setSnapshot({ ...next, step, follow: step === next.total, wanted: undefined }, snap);
  }
  // The step on screen, or what was asked for.
  if (snap.step === s.step || s.wanted === snap.step) return setSnapshot({ ...next, wanted: undefined }, snap);
  // The run's current step while following it: the step moves with its snapshot (never back). A
  // request still in flight for the step being left (End pressed as the run moved on) is
  // superseded: its late reply is older than the step shown and leaves it alone.
  if (s.follow && snap.step > s.step && snap.step <= s.total) return setSnapshot({ ...next, step: snap.step, wanted: undefined }, snap);
  return next;
}

function setModel(s: PanelState, raw: PanelModel): PanelState {
  const snapshot = normalizeSnapshot(raw.snapshot);
  const snapshots = raw.snapshots?.map(normalizeSnapshot).sort((a, b) => a.step - b.step);
  const history = historyFromRecords(raw.history);
  const model: PanelModel = { ...raw, history: [], snapshot, ...(snapshots ? { snapshots } : {}) };
  const first = s.model === undefined;
  const live = Math.max(history.length, raw.steps ?? 0);
  let step = snapshot.step;
  // What VS Code kept of the page is this scene's only: a panel that went on to another scene keeps
  // the state its page saved for the one before.
  const sameScene = raw.sceneUri === undefined || s.sceneUri === undefined || raw.sceneUri === s.sceneUri;
  const restore = first && sameScene ? s.restore : undefined;
  // A restored step, unless the panel was following the run: then the run's end, wherever it is now.
  if (restore?.step !== undefined && restore.step <= live && !restore.following) step = restore.step;
  // A scene's report opens at the run's end; a trace's at the step its report was made for.
  if (s.report && snapshots?.length && !raw.trace) step = snapshots[snapshots.length - 1].step;
  step = Math.min(step, live);
  let next: PanelState = {
    ...s,
    model,
    history,
    total: live,
    sceneUri: model.sceneUri ?? s.sceneUri,
    initial: snapshot.step === 0 ? snapshot : snapshots?.find((x) => x.step === 0),
    selectedBody: model.sceneBodies.some((b) => b.name === s.selectedBody) ? s.selectedBody : undefined,
    banner: undefined,
    stale: false,
    step,
    follow: step === live,
    restore: undefined,
  };
  const shown = snapshot.step === step ? snapshot : (nearestEmbedded(model, step) ?? snapshot);
  next = setSnapshot(next, shown);
  next = { ...next, wanted: !s.report && shown.step !== step ? step : undefined };
  if (restore?.constraint !== undefined) {
    const name = restore.constraint;
    const i = shown.constraints.findIndex((c) => c.name === name);
    if (i >= 0) next = { ...next, selected: i };
  }
  return next;
}

function setSnapshot(s: PanelState, snap: SystemSnapshot): PanelState {
  const matrices = matricesOf(snap);
  return {
    ...s,
    snapshot: snap,
    matrices,
    selected: s.selected < snap.constraints.length ? s.selected : -1,
    matrix: shownMatrix(matrices, s.matrix),
  };
}

/**
 * The matrix to show: the chosen one while it has entries, else the first that has any (a contact
 * scene without constraints opens on M⁻¹ or its contact matrices, not on an empty 0×18 J).
 */
function shownMatrix(matrices: readonly MatrixSource[], chosen: string): string {
  const empty = (m: MatrixSource): boolean => m.rows === 0 || m.cols === 0;
  const c = matrices.find((m) => m.id === chosen);
  if (c && !empty(c)) return chosen;
  return (matrices.find((m) => !empty(m)) ?? c ?? matrices[0])?.id ?? 'J';
}

function goToStep(s: PanelState, k: number): PanelState {
  const m = s.model;
  if (!m) return s;
  const step = Math.max(0, Math.min(s.total, Math.round(k)));
  let next: PanelState = { ...s, step, follow: step === s.total };
  if (s.report) {
    const snap = nearestEmbedded(m, step);
    if (snap && snap !== s.snapshot) next = setSnapshot(next, snap);
  } else if (s.snapshot?.step === step) {
    next = { ...next, wanted: undefined };
  } else if (step === 0 && s.initial) {
    next = setSnapshot({ ...next, wanted: undefined }, s.initial);
  } else {
    next = { ...next, wanted: step };
  }
  return next;
}

function select(s: PanelState, i: number): PanelState {
  const snap = s.snapshot;
  if (!snap) return s;
  return { ...s, selected: i >= 0 && i < snap.constraints.length ? i : -1, selectedBody: undefined, selectSeq: s.selectSeq + 1 };
}

function selectBody(s: PanelState, name: string | undefined): PanelState {
  if (!s.model) return s;
  const known = name !== undefined && s.model.sceneBodies.some((b) => b.name === name);
  return { ...s, selected: -1, selectedBody: known ? name : undefined, selectSeq: s.selectSeq + 1 };
}

/** Report mode: the embedded snapshot nearest at or below `step` (the first one when none is). */
function nearestEmbedded(m: PanelModel, step: number): SystemSnapshot | undefined {
  const list = m.snapshots;
  if (!list || !list.length) return undefined;
  let best = list[0];
  for (const x of list) if (x.step <= step) best = x;
  return best;
}

// ---- the store ------------------------------------------------------------------------------

export interface Store {
  getState(): PanelState;
  dispatch(a: Action): void;
  /**
   * Calls `listener(slice, state)` now and whenever `selector(state)` changes (compared shallowly:
   * a selector may return a tuple or an object of slices). Returns the unsubscribe function.
   */
  watch<T>(selector: (s: PanelState) => T, listener: (slice: T, s: PanelState) => void, opts?: { immediate?: boolean }): () => void;
}

/** Equal by value for primitives, element-wise (===) for arrays, key-wise (===) for plain objects. */
export function shallowEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => Object.is(x, b[i]));
  if (!a || !b || typeof a !== 'object' || typeof b !== 'object' || Array.isArray(a) || Array.isArray(b)) return false;
  if (Object.getPrototypeOf(a) !== Object.prototype || Object.getPrototypeOf(b) !== Object.prototype) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.is((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

interface Watcher {
  selector: (s: PanelState) => unknown;
  listener: (slice: unknown, s: PanelState) => void;
  last: unknown;
  active: boolean;
}

/**
 * A tiny store: one state, one reducer, watchers by slice. A listener may dispatch; every watcher
 * then sees the newest state (a watcher compares against the last slice it was given, so nested
 * dispatches never hand it a stale one). A throwing listener is reported to `onError` and the
 * other listeners still run.
 */
export function createStore(initial: PanelState, opts: { onError?: (e: unknown) => void } = {}): Store {
  let state = initial;
  const watchers = watcherSet(() => state, opts.onError);
  return {
    getState: () => state,
    dispatch(a) {
      const next = reduce(state, a);
      if (next === state) return;
      state = next;
      watchers.notify();
    },
    watch: watchers.watch,
  };
}

/**
 * The watchers of a state read by `read` (the store's, or the state a frame renders: frame.ts):
 * `notify` calls each whose slice changed; a throwing listener goes to `onError` (else throws) and
 * the others still run; `guard` runs any other callback the same way.
 */
export function watcherSet(read: () => PanelState, onError?: (e: unknown) => void): { watch: Store['watch']; notify(): void; guard(fn: () => void): void } {
  const watchers: Watcher[] = [];
  const guard = (fn: () => void): void => {
    try {
      fn();
    } catch (e) {
      if (onError) onError(e);
      else throw e;
    }
  };
  const call = (w: Watcher): void =>
    guard(() => {
      const state = read();
      const slice = w.selector(state);
      if (shallowEqual(slice, w.last)) return;
      w.last = slice;
      w.listener(slice, state);
    });
  return {
    guard,
    notify: () => {
      for (const w of [...watchers]) if (w.active) call(w);
    },
    watch(selector, listener, o = {}) {
      const w: Watcher = { selector, listener: listener as Watcher['listener'], last: undefined, active: true };
      watchers.push(w);
      guard(() => {
        const state = read();
        w.last = selector(state);
        if (o.immediate !== false) listener(w.last as never, state);
      });
      return () => {
        w.active = false;
        const i = watchers.indexOf(w);
        if (i >= 0) watchers.splice(i, 1);
      };
    },
  };
}
