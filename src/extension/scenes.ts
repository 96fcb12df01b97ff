// The per-document state of every open scene: the latest inspection (versioned), the fixes of its
// diagnostics, and the simulation (created lazily, dropped when the text changes). The scene file
// is the source of truth: nothing here ever writes it.
import * as vscode from 'vscode';
import { Simulation } from '../engine';
import type { InspectResult, Diagnostic, SystemSnapshot } from '../engine';
import type { Analyzer } from './analyzer';
import type { Config } from './config';
import { FixIndex } from './logic/diagnostics';
import { KeyedDebouncer } from './logic/schedule';
import { errorMessage, fileNameOf, isSceneDocument, keyOf } from './util';

export type SceneEventKind =
  /** A new inspection result is available. */
  | 'inspected'
  /** The text changed: the shown results and the simulation are out of date (re-analysis pending). */
  | 'invalidated'
  /** Steps were taken (history grew). */
  | 'stepped'
  /** The simulation was reset or replaced. */
  | 'reset'
  /** A run started or stopped. */
  | 'running'
  /** The document was closed and its state dropped. */
  | 'closed';

export interface SceneEvent {
  state: SceneState;
  kind: SceneEventKind;
  /** The run's diagnostics changed (republish). Always implied by 'inspected' and 'closed'. */
  diagnosticsChanged?: boolean;
  /** 'stepped': no more steps follow right away (single step, end of a run, pause). */
  settled?: boolean;
}

export interface RunHandle {
  kind: 'run' | 'play';
  cancel(): void;
  readonly done: Promise<void>;
}

export class SceneState {
  readonly key: string;
  /** Document version of the latest result (−1: none yet). */
  resultVersion = -1;
  result: InspectResult | undefined;
  fixes: FixIndex | undefined;
  /** The text of the latest result, and a counter that changes with every new result. */
  text: string | undefined;
  generation = 0;
  /** Version being analysed right now, if any. */
  inFlightVersion: number | undefined;
  sim: Simulation | undefined;
  /** Run diagnostics already published (to republish only when they change). */
  publishedSimDiagnostics = 0;
  run: RunHandle | undefined;
  /** The step the inspector shows when it is not the current one (Go to Step, a chart click). */
  shownStep: number | undefined;
  /** Set once 'invalidated' was emitted for the current burst of edits. */
  invalidated = false;
  readonly waiters: { version: number; resolve: (r: InspectResult | undefined) => void }[] = [];
  private readonly idleWaiters: (() => void)[] = [];

  constructor(public uri: vscode.Uri) {
    this.key = keyOf(uri);
  }

  get fileName(): string {
    return fileNameOf(this.uri);
  }

  get running(): boolean {
    return this.run !== undefined;
  }

  /** Diagnostics of the analysis and of the run so far. */
  allDiagnostics(): Diagnostic[] {
    const base = this.result?.diagnostics ?? [];
    const run = this.sim?.diagnostics ?? [];
    return run.length ? [...base, ...run.filter((d) => !base.includes(d))] : base;
  }

  whenIdle(): Promise<void> {
    if (!this.run) return Promise.resolve();
    return new Promise((res) => this.idleWaiters.push(res));
  }

  /** @internal called by the runner when a run ends. */
  notifyIdle(): void {
    for (const w of this.idleWaiters.splice(0)) w();
  }
}

export class SceneManager implements vscode.Disposable {
  private readonly states = new Map<string, SceneState>();
  private readonly debouncer = new KeyedDebouncer();
  private readonly emitter = new vscode.EventEmitter<SceneEvent>();
  readonly onDidChange = this.emitter.event;
  private readonly activeEmitter = new vscode.EventEmitter<SceneState | undefined>();
  /** The scene shown by the status bar and the tree changed. */
  readonly onDidChangeActive = this.activeEmitter.event;
  private readonly disposables: vscode.Disposable[] = [];
  private activeKey: string | undefined;
  /** Keys of scenes kept alive by an open inspector panel although their document is closed. */
  private readonly pinned = new Map<string, number>();

  constructor(
    private readonly analyzer: Analyzer,
    private readonly log: vscode.LogOutputChannel,
    private readonly config: () => Config,
  ) {
    this.disposables.push(
      this.emitter,
      this.activeEmitter,
      vscode.workspace.onDidOpenTextDocument((d) => {
        if (!isSceneDocument(d)) return;
        // Versions restart at 1 when a document is reopened: the kept result may be of other text.
        const s = this.get(d.uri);
        if (s) s.resultVersion = -1;
        this.schedule(d, 5);
      }),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length === 0 || !isSceneDocument(e.document)) return;
        this.onEdited(e.document);
      }),
      vscode.workspace.onDidSaveTextDocument((d) => {
        if (isSceneDocument(d) && !this.isFresh(d)) this.schedule(d, 0);
      }),
      vscode.workspace.onDidCloseTextDocument((d) => {
        if (isSceneDocument(d)) this.onClosed(d);
      }),
      vscode.window.onDidChangeActiveTextEditor((e) => this.updateActive(e)),
      vscode.window.onDidChangeVisibleTextEditors((eds) => {
        for (const e of eds) if (isSceneDocument(e.document) && !this.isFresh(e.document)) this.schedule(e.document, 5);
      }),
    );
  }

  /** Start tracking what is already open (called once after activation, not during it). */
  start(): void {
    for (const e of vscode.window.visibleTextEditors) if (isSceneDocument(e.document)) this.schedule(e.document, 5);
    this.updateActive(vscode.window.activeTextEditor);
  }

  get(uri: vscode.Uri | string): SceneState | undefined {
    return this.states.get(typeof uri === 'string' ? uri : keyOf(uri));
  }

  all(): SceneState[] {
    return [...this.states.values()];
  }

  stateFor(uri: vscode.Uri): SceneState {
    const k = keyOf(uri);
    let s = this.states.get(k);
    if (!s) {
      s = new SceneState(uri);
      this.states.set(k, s);
    }
    return s;
  }

  get active(): SceneState | undefined {
    return this.activeKey ? this.states.get(this.activeKey) : undefined;
  }

  /** Make a scene the active one (its editor or its inspector panel got focus). */
  setActive(uri: vscode.Uri | undefined): void {
    const k = uri ? keyOf(uri) : undefined;
    if (k === this.activeKey) return;
    this.activeKey = k;
    if (uri) this.stateFor(uri);
    this.activeEmitter.fire(this.active);
  }

  private updateActive(e: vscode.TextEditor | undefined): void {
    if (!e) return; // focus moved to a panel or view: keep the last scene
    if (isSceneDocument(e.document)) {
      this.setActive(e.document.uri);
      if (!this.isFresh(e.document)) this.schedule(e.document, 5);
    } else if (e.viewColumn !== undefined) this.setActive(undefined);
  }

  isFresh(doc: vscode.TextDocument): boolean {
    const s = this.get(doc.uri);
    return !!s && (s.resultVersion === doc.version || s.inFlightVersion === doc.version);
  }

  /** Analyse `doc` after `delayMs` (debounced per document). */
  schedule(doc: vscode.TextDocument, delayMs = this.config().debounceMs): void {
    this.stateFor(doc.uri);
    this.debouncer.trigger(keyOf(doc.uri), () => void this.analyzeNow(doc), delayMs);
  }

  private onEdited(doc: vscode.TextDocument): void {
    const s = this.stateFor(doc.uri);
    // The simulation belongs to the old text: stop it and drop it.
    s.run?.cancel();
    if (s.sim) {
      s.sim = undefined;
      s.publishedSimDiagnostics = 0;
    }
    if (!s.invalidated && s.result) {
      s.invalidated = true;
      this.emitter.fire({ state: s, kind: 'invalidated' });
    }
    this.schedule(doc);
  }

  private onClosed(doc: vscode.TextDocument): void {
    const k = keyOf(doc.uri);
    this.debouncer.cancel(k);
    if (this.pinned.has(k)) return; // an inspector panel still shows it
    this.drop(k);
  }

  private drop(k: string): void {
    const s = this.states.get(k);
    this.analyzer.forget(k);
    if (!s) return;
    s.run?.cancel();
    this.states.delete(k);
    for (const w of s.waiters.splice(0)) w.resolve(undefined);
    this.emitter.fire({ state: s, kind: 'closed' });
    if (this.activeKey === k) this.setActive(undefined);
  }

  /** Keep a scene's state while a panel shows it (released with the returned disposable). */
  pin(uri: vscode.Uri): vscode.Disposable {
    const k = keyOf(uri);
    this.pinned.set(k, (this.pinned.get(k) ?? 0) + 1);
    return new vscode.Disposable(() => {
      const n = (this.pinned.get(k) ?? 1) - 1;
      if (n > 0) {
        this.pinned.set(k, n);
        return;
      }
      this.pinned.delete(k);
      if (!vscode.workspace.textDocuments.some((d) => keyOf(d.uri) === k && !d.isClosed)) this.drop(k);
    });
  }

  /** Analyse the document's current text now. */
  async analyzeNow(doc: vscode.TextDocument): Promise<InspectResult | undefined> {
    if (doc.isClosed && !this.pinned.has(keyOf(doc.uri))) return undefined;
    const s = this.stateFor(doc.uri);
    const version = doc.version;
    const text = doc.getText();
    s.inFlightVersion = version;
    let result: InspectResult | undefined;
    try {
      result = await this.analyzer.analyze(s.key, version, text);
    } catch (e) {
      this.log.error(`analysis of ${s.key} failed: ${errorMessage(e)}`);
    }
    if (s.inFlightVersion === version) s.inFlightVersion = undefined;
    if (!result) return undefined; // superseded (or failed: logged)
    if (this.states.get(s.key) !== s) return undefined; // closed meanwhile
    this.store(s, version, result, text);
    return result;
  }

  private store(s: SceneState, version: number, result: InspectResult, text: string): void {
    if (s.resultVersion !== version || !s.result) {
      // A new text: any simulation belongs to the old one.
      s.run?.cancel();
      s.sim = undefined;
      s.publishedSimDiagnostics = 0;
      s.shownStep = undefined;
    }
    s.result = result;
    s.resultVersion = version;
    s.text = text;
    s.generation++;
    s.invalidated = false;
    s.fixes = new FixIndex(version, s.allDiagnostics());
    for (let i = s.waiters.length - 1; i >= 0; i--) {
      if (s.waiters[i].version <= version) {
        s.waiters[i].resolve(result);
        s.waiters.splice(i, 1);
      }
    }
    this.emitter.fire({ state: s, kind: 'inspected' });
  }

  /** Resolves with the inspection of the document's current version (analysing it now if needed). */
  whenInspected(doc: vscode.TextDocument): Promise<InspectResult | undefined> {
    const s = this.stateFor(doc.uri);
    if (s.result && s.resultVersion === doc.version) return Promise.resolve(s.result);
    const p = new Promise<InspectResult | undefined>((resolve) => s.waiters.push({ version: doc.version, resolve }));
    if (s.inFlightVersion !== doc.version) {
      this.debouncer.cancel(s.key);
      void this.analyzeNow(doc).then((r) => {
        // Superseded without a newer request in flight (should not happen): do not leave waiters hanging.
        if (!r && s.inFlightVersion === undefined && !this.debouncer.isPending(s.key)) {
          for (const w of s.waiters.splice(0)) w.resolve(s.result);
        }
      });
    }
    return p;
  }

  /** `whenInspected` for a URI (opens the document if needed). Never rejects. */
  async whenInspectedUri(uri: vscode.Uri): Promise<InspectResult | undefined> {
    try {
      const doc = await vscode.workspace.openTextDocument(uri);
      return await this.whenInspected(doc);
    } catch (e) {
      this.log.error(`cannot open ${uri.toString()}: ${errorMessage(e)}`);
      return undefined;
    }
  }

  /** The scene's simulation for its latest result, created on first use. */
  simulation(s: SceneState): Simulation | undefined {
    if (s.sim) return s.sim;
    const r = s.result;
    if (!r?.parse.scene || !r.snapshot) return undefined;
    try {
      s.sim = new Simulation(r.parse.scene, r.parse.sourceMap);
    } catch (e) {
      this.log.error(`cannot create the simulation of ${s.key}: ${errorMessage(e)}`);
      return undefined;
    }
    return s.sim;
  }

  /** True when analysing a step of this scene is slow enough to belong in the worker. */
  isLarge(s: SceneState): boolean {
    return this.analyzer.usesWorkerFor(s.result?.parse.scene?.bodies.length ?? 0);
  }

  /**
   * The analysed system at `step` (clamped to the run): step 0 is the inspection's snapshot; for
   * large scenes past steps are analysed in the worker (on a replica of the run), otherwise here.
   * Undefined when superseded or the scene cannot be analysed.
   */
  async snapshotAt(s: SceneState, step: number): Promise<SystemSnapshot | undefined> {
    const sim = s.sim;
    const r = s.result;
    if (!r) return undefined;
    if (!sim || step <= 0 || sim.currentStep === 0) return r.snapshot;
    const k = Math.min(step, sim.currentStep);
    if (this.isLarge(s) && s.text !== undefined) {
      const snap = await this.analyzer.snapshotInWorker(s.key, s.generation, s.text, k);
      if (snap === 'superseded' || s.sim !== sim) return undefined;
      if (snap) return snap;
      this.log.warn(`worker analysis of step ${k} failed; analysing in the extension host`);
    }
    return sim.snapshotAt(k);
  }

  /** Tell listeners (diagnostics, panel, tree, status) what happened. */
  fire(s: SceneState, kind: SceneEventKind, settled = false): void {
    let diagnosticsChanged = false;
    if (kind === 'stepped' || kind === 'reset' || kind === 'running') {
      // The run may have produced diagnostics (drift, NaN): refresh the fix index.
      const n = s.sim?.diagnostics.length ?? 0;
      if (n !== s.publishedSimDiagnostics) {
        s.publishedSimDiagnostics = n;
        s.fixes = new FixIndex(s.resultVersion, s.allDiagnostics());
        diagnosticsChanged = true;
      }
    }
    this.emitter.fire({ state: s, kind, diagnosticsChanged, settled });
  }

  dispose(): void {
    for (const s of this.states.values()) s.run?.cancel();
    this.debouncer.dispose();
    for (const d of this.disposables) d.dispose();
  }
}
