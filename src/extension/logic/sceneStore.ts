// The state of every open scene and the only place that changes it. Everything else (the runner,
// the panel, the commands, the views) reads a scene through the read-only `SceneState` and changes
// it through the store's named transitions, each of which fires its event here: inspected,
// invalidated, stepped, shown, reset, running, closed. Pure: no vscode at run time (the document
// tracking lives in ../scenes.ts, which extends this class), so the transitions are unit-tested.
import { createSimulation, type SimulationApi } from '../../engine';
import type { Diagnostic, InspectResult, SceneSpec, SystemSnapshot } from '../../engine';
import type { Log } from '../analyzer';
import { Disposable } from '../dispose';
import { FixIndex } from './diagnostics';
import { errorMessage } from './errors';
import { fileNameOf, keyOf, type SceneUri } from './uri';
import { RUN_EXACT_COND_MAX_ROWS } from '../../shared';

export type SceneEventKind =
  /** A new inspection result is available. */
  | 'inspected'
  /** The text changed: the shown results and the simulation are out of date (re-analysis pending). */
  | 'invalidated'
  /** Steps were taken (history grew). */
  | 'stepped'
  /** The step the inspector shows changed (Go to Step, a chart click, back to the current step). */
  | 'shown'
  /** The simulation was reset or replaced. */
  | 'reset'
  /** A run started or stopped. */
  | 'running'
  /** The document was closed and its state dropped. */
  | 'closed';

export interface SceneEvent<U extends SceneUri = SceneUri> {
  state: SceneState<U>;
  kind: SceneEventKind;
  /** The run's diagnostics changed (republish). Always implied by 'inspected' and 'closed'. */
  diagnosticsChanged?: boolean;
  /** 'stepped': no more steps follow right away (single step, end of a run, pause). */
  settled?: boolean;
}

/** A run in progress (Run N Steps or Play) of one simulation. */
export interface RunHandle {
  readonly kind: 'run' | 'play';
  /** The simulation it steps. */
  readonly sim: SimulationApi;
  cancel(): void;
}

/** What the rest of the extension sees of a scene: read-only (changes go through the store). */
export interface SceneState<U extends SceneUri = SceneUri> {
  readonly key: string;
  readonly uri: U;
  readonly fileName: string;
  /** The latest inspection, of document version `resultVersion` (−1: none yet, or reopened). */
  readonly result: InspectResult | undefined;
  readonly resultVersion: number;
  readonly fixes: FixIndex | undefined;
  /** The text of the latest result, and a counter that changes with every new result. */
  readonly text: string | undefined;
  readonly generation: number;
  /** The simulation of the latest result (created on first use, dropped when the text changes). */
  readonly sim: SimulationApi | undefined;
  readonly run: RunHandle | undefined;
  readonly running: boolean;
  /** The step the inspector shows when it is not the current one (Go to Step, a chart click). */
  readonly shownStep: number | undefined;
  /** Diagnostics of the analysis and of the run so far. */
  allDiagnostics(): Diagnostic[];
  /** Resolves when no run is in progress. */
  whenIdle(): Promise<void>;
}

/** A scene that can be simulated: its analysis, scene and simulation are all there. */
export interface ReadyScene<U extends SceneUri = SceneUri> {
  readonly state: SceneState<U>;
  readonly result: InspectResult;
  readonly scene: SceneSpec;
  readonly snapshot: SystemSnapshot;
  readonly sim: SimulationApi;
}

class Scene<U extends SceneUri> implements SceneState<U> {
  readonly key: string;
  readonly fileName: string;
  resultVersion = -1;
  result: InspectResult | undefined;
  fixes: FixIndex | undefined;
  text: string | undefined;
  generation = 0;
  /** Version being analysed right now, if any. */
  inFlightVersion: number | undefined;
  sim: SimulationApi | undefined;
  /** Run diagnostics already published (to republish only when they change). */
  publishedSimDiagnostics = 0;
  run: RunHandle | undefined;
  shownStep: number | undefined;
  /** Set once 'invalidated' was emitted for the current burst of edits. */
  invalidated = false;
  readonly waiters: { version: number; resolve: (r: InspectResult | undefined) => void }[] = [];
  readonly idleWaiters: (() => void)[] = [];

  constructor(readonly uri: U) {
    this.key = keyOf(uri);
    this.fileName = fileNameOf(uri);
  }

  get running(): boolean {
    return this.run !== undefined;
  }

  allDiagnostics(): Diagnostic[] {
    const base = this.result?.diagnostics ?? [];
    const run = this.sim?.diagnostics ?? [];
    // a run that cannot start (a bad initial state) repeats inspect's step-0 diagnostic: show it once
    const same = (a: Diagnostic, b: Diagnostic) => a === b || (a.code === b.code && a.message === b.message && a.range.start.line === b.range.start.line && a.range.start.character === b.range.start.character);
    return run.length ? [...base, ...run.filter((d) => !base.some((b) => same(b, d)))] : base;
  }

  whenIdle(): Promise<void> {
    if (!this.run) return Promise.resolve();
    return new Promise((res) => this.idleWaiters.push(res));
  }
}

export class SceneStore<U extends SceneUri = SceneUri> extends Disposable {
  private readonly states = new Map<string, Scene<U>>();

  constructor(
    private readonly emit: (e: SceneEvent<U>) => void,
    protected readonly log: Log,
  ) {
    super();
  }

  /** The store's own object behind a read-only state (every SceneState is made by a store). */
  private own(s: SceneState<U>): Scene<U> {
    if (s instanceof Scene) return s;
    throw new TypeError(`not a scene of this store: ${s.key}`);
  }

  get(uri: U | string): SceneState<U> | undefined {
    return this.states.get(typeof uri === 'string' ? uri : keyOf(uri));
  }

  all(): SceneState<U>[] {
    return [...this.states.values()];
  }

  /** The state of a document, created when it has none. */
  stateFor(uri: U): SceneState<U> {
    const k = keyOf(uri);
    let s = this.states.get(k);
    if (!s) {
      s = new Scene(uri);
      this.states.set(k, s);
    }
    return s;
  }

  /** False once the state was dropped (its document closed). */
  isTracked(s: SceneState<U>): boolean {
    return this.states.get(s.key) === s;
  }

  // ---- analysis -----------------------------------------------------------------------------

  /** Versions restart at 1 when a document is reopened: the kept result may be of other text. */
  forgetVersion(s: SceneState<U>): void {
    this.own(s).resultVersion = -1;
  }

  /** True when `version` is analysed already or being analysed now. */
  isFresh(s: SceneState<U>, version: number): boolean {
    return s.resultVersion === version || this.own(s).inFlightVersion === version;
  }

  isAnalysing(s: SceneState<U>, version?: number): boolean {
    const v = this.own(s).inFlightVersion;
    return version === undefined ? v !== undefined : v === version;
  }

  beginAnalysis(s: SceneState<U>, version: number): void {
    this.own(s).inFlightVersion = version;
  }

  endAnalysis(s: SceneState<U>, version: number): void {
    const m = this.own(s);
    if (m.inFlightVersion === version) m.inFlightVersion = undefined;
  }

  /** A new inspection of `version`: drops a simulation of other text, resolves waiters, fires 'inspected'. */
  storeResult(s: SceneState<U>, version: number, result: InspectResult, text: string): void {
    const m = this.own(s);
    if (m.resultVersion !== version || !m.result) {
      m.run?.cancel();
      m.sim = undefined;
      m.publishedSimDiagnostics = 0;
      m.shownStep = undefined;
    }
    m.result = result;
    m.resultVersion = version;
    m.text = text;
    m.generation++;
    m.invalidated = false;
    m.fixes = new FixIndex(version, m.allDiagnostics());
    for (let i = m.waiters.length - 1; i >= 0; i--) {
      const w = m.waiters[i];
      if (w.version <= version) {
        w.resolve(result);
        m.waiters.splice(i, 1);
      }
    }
    this.emit({ state: m, kind: 'inspected' });
  }

  /** Resolves with the inspection of `version` (or a later one); undefined when the scene is dropped. */
  waitForVersion(s: SceneState<U>, version: number): Promise<InspectResult | undefined> {
    const m = this.own(s);
    return new Promise((resolve) => m.waiters.push({ version, resolve }));
  }

  /** Resolve every waiter with `value` (none will be answered otherwise). */
  releaseWaiters(s: SceneState<U>, value: InspectResult | undefined): void {
    for (const w of this.own(s).waiters.splice(0)) w.resolve(value);
  }

  /** The text changed: the run stops, the simulation (of the old text) is dropped, 'invalidated' fires once per burst of edits. */
  invalidate(s: SceneState<U>): void {
    const m = this.own(s);
    m.run?.cancel();
    if (m.sim) {
      m.sim = undefined;
      m.publishedSimDiagnostics = 0;
    }
    if (!m.invalidated && m.result) {
      m.invalidated = true;
      this.emit({ state: m, kind: 'invalidated' });
    }
  }

  /** Forget a document: its run stops, waiters get undefined, 'closed' fires. */
  protected drop(key: string): SceneState<U> | undefined {
    const m = this.states.get(key);
    if (!m) return undefined;
    m.run?.cancel();
    this.states.delete(key);
    this.releaseWaiters(m, undefined);
    this.emit({ state: m, kind: 'closed' });
    return m;
  }

  // ---- simulation ---------------------------------------------------------------------------

  /** The scene's simulation for its latest result, created on first use. */
  simulation(s: SceneState<U>): SimulationApi | undefined {
    const m = this.own(s);
    if (m.sim) return m.sim;
    const r = m.result;
    if (!r?.parse.scene || !r.snapshot) return undefined;
    try {
      m.sim = createSimulation(r.parse.scene, r.parse.sourceMap, { stepExactCondMaxRows: RUN_EXACT_COND_MAX_ROWS });
    } catch (e) {
      this.log.error(`cannot create the simulation of ${m.key}: ${errorMessage(e)}`);
      return undefined;
    }
    return m.sim;
  }

  /** The scene with everything a simulation command needs (the simulation created), or undefined. */
  ready(s: SceneState<U>): ReadyScene<U> | undefined {
    const sim = this.simulation(s);
    const result = s.result;
    const scene = result?.parse.scene;
    const snapshot = result?.snapshot;
    if (!sim || !result || !scene || !snapshot) return undefined;
    return { state: s, result, scene, snapshot, sim };
  }

  /** Show `step` in the inspector instead of the current one (undefined: follow the current step); 'shown' fires when it changes. */
  showStep(s: SceneState<U>, step: number | undefined): void {
    const m = this.own(s);
    if (m.shownStep === step) return;
    m.shownStep = step;
    this.emit({ state: m, kind: 'shown' });
  }

  /** A run starts: the inspector follows the current step; 'running' fires. */
  markRunning(s: SceneState<U>, handle: RunHandle): void {
    const m = this.own(s);
    m.run = handle;
    m.shownStep = undefined;
    this.fire(m, 'running');
  }

  /**
   * A run ended: 'stepped' (settled, when its simulation is still the scene's) and 'running' fire
   * and `whenIdle` resolves. False (nothing done) when `handle` is not the scene's run any more.
   */
  markIdle(s: SceneState<U>, handle: RunHandle): boolean {
    const m = this.own(s);
    if (m.run !== handle) return false;
    m.run = undefined;
    if (m.sim === handle.sim) this.fire(m, 'stepped', true);
    this.fire(m, 'running');
    for (const w of m.idleWaiters.splice(0)) w();
    return true;
  }

  /** Stop the scene's run, if any. */
  cancelRun(s: SceneState<U>): void {
    s.run?.cancel();
  }

  /** Steps were taken; `settled`: no more follow right away. */
  stepped(s: SceneState<U>, settled: boolean): void {
    this.fire(this.own(s), 'stepped', settled);
  }

  /** Back to the initial state (history cleared; a simulation that fails to reset is dropped); 'reset' fires. */
  resetRun(s: SceneState<U>): void {
    const m = this.own(s);
    m.run?.cancel();
    try {
      m.sim?.reset();
    } catch (e) {
      this.log.error(`reset failed: ${errorMessage(e)}`);
      m.sim = undefined;
    }
    m.shownStep = undefined;
    this.fire(m, 'reset');
  }

  /** Tell listeners what happened; after run events, refresh the fix index when the run added diagnostics. */
  private fire(m: Scene<U>, kind: 'stepped' | 'reset' | 'running', settled = false): void {
    let diagnosticsChanged = false;
    const n = m.sim?.diagnostics.length ?? 0;
    if (n !== m.publishedSimDiagnostics) {
      m.publishedSimDiagnostics = n;
      m.fixes = new FixIndex(m.resultVersion, m.allDiagnostics());
      diagnosticsChanged = true;
    }
    this.emit({ state: m, kind, diagnosticsChanged, settled });
  }

  override dispose(): void {
    for (const s of this.states.values()) s.run?.cancel();
    super.dispose();
  }
}
