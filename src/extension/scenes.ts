// The scenes of the open documents: tracks scene documents (open, edit, save, close, focus),
// debounces and runs their analysis, keeps a scene alive while an inspector shows it, and knows the
// active scene. The state itself and every change to it are the SceneStore's (logic/sceneStore.ts):
// this class only adds the VS Code side. The scene file is the source of truth: nothing here ever
// writes it.
import * as vscode from 'vscode';
import type { InspectResult, SystemSnapshot } from '../engine';
import type { Analyzer } from './analyzer';
import type { Config } from './config';
import { KeyedDebouncer, analysisLead } from './logic/schedule';
import { SceneStore, type ReadyScene as AnyReadyScene, type SceneEvent as AnySceneEvent, type SceneState as AnySceneState } from './logic/sceneStore';
import { isModelKind, isModelPath } from './logic/fileKind';
import type { ModelService } from './models';
import { errorMessage, fileKindOfDocument, isSceneDocument, keyOf } from './util';

export type { RunHandle, SceneEventKind } from './logic/sceneStore';
export type SceneState = AnySceneState<vscode.Uri>;
export type SceneEvent = AnySceneEvent<vscode.Uri>;
export type ReadyScene = AnyReadyScene<vscode.Uri>;

export class SceneManager extends SceneStore<vscode.Uri> {
  private readonly debouncer = new KeyedDebouncer();
  readonly onDidChange: vscode.Event<SceneEvent>;
  private readonly activeEmitter = this._register(new vscode.EventEmitter<SceneState | undefined>());
  /** The scene shown by the status bar and the tree changed. */
  readonly onDidChangeActive = this.activeEmitter.event;
  private activeKey: string | undefined;
  /** Keys of scenes kept alive by an open inspector panel although their document is closed. */
  private readonly pinned = new Map<string, number>();

  constructor(
    private readonly analyzer: Analyzer,
    log: vscode.LogOutputChannel,
    private readonly config: () => Config,
    /** MJCF and URDF documents are loaded through the importer (models.ts). */
    private readonly models?: ModelService,
  ) {
    const emitter = new vscode.EventEmitter<SceneEvent>();
    super((e) => emitter.fire(e), log);
    this._register(emitter);
    this.onDidChange = emitter.event;
    this._register(this.debouncer);
    this._register(
      vscode.workspace.onDidOpenTextDocument((d) => {
        if (!isSceneDocument(d)) return;
        const s = this.get(d.uri);
        if (s) this.forgetVersion(s);
        this.schedule(d, 5);
      }),
    );
    this._register(
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length === 0) return;
        if (!isSceneDocument(e.document)) {
          // An .xml whose root element stopped being <mujoco>: no longer a model.
          if (this.get(e.document.uri)) this.drop(keyOf(e.document.uri));
          return;
        }
        // The simulation belongs to the old text: stop it and drop it.
        this.invalidate(this.stateFor(e.document.uri));
        this.schedule(e.document);
      }),
    );
    this._register(
      vscode.workspace.onDidSaveTextDocument((d) => {
        if (isSceneDocument(d) && !this.isFreshDoc(d)) this.schedule(d, 0);
      }),
    );
    this._register(
      vscode.workspace.onDidCloseTextDocument((d) => {
        if (isSceneDocument(d)) this.onClosed(d);
      }),
    );
    this._register(vscode.window.onDidChangeActiveTextEditor((e) => this.updateActive(e)));
    this._register(
      vscode.window.onDidChangeVisibleTextEditors((eds) => {
        for (const e of eds) if (isSceneDocument(e.document) && !this.isFreshDoc(e.document)) this.schedule(e.document, 5);
      }),
    );
  }

  /** Start tracking what is already open (called once after activation, not during it). */
  start(): void {
    for (const e of vscode.window.visibleTextEditors) if (isSceneDocument(e.document)) this.schedule(e.document, 5);
    this.updateActive(vscode.window.activeTextEditor);
  }

  get active(): SceneState | undefined {
    return this.activeKey ? this.get(this.activeKey) : undefined;
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
      if (!this.isFreshDoc(e.document)) this.schedule(e.document, 5);
    } else if (e.viewColumn !== undefined) this.setActive(undefined);
  }

  /** True when the document's current version is analysed or being analysed. */
  isFreshDoc(doc: vscode.TextDocument): boolean {
    const s = this.get(doc.uri);
    return !!s && this.isFresh(s, doc.version);
  }

  /**
   * Update `doc`'s analysis `delayMs` after the last call for it (debounced per document). The
   * analysis itself starts a little earlier (by about the time the last one took, logic/schedule.ts
   * `analysisLead`) and its result is held until `delayMs` has passed, so that the Problems panel
   * changes when the debounce ends instead of an analysis later.
   */
  schedule(doc: vscode.TextDocument, delayMs = this.config().debounceMs): void {
    this.stateFor(doc.uri);
    const key = keyOf(doc.uri);
    const lead = analysisLead(delayMs, this.analyzer.lastMsFor(key));
    const notBefore = lead > 0 ? performance.now() + delayMs : undefined;
    this.debouncer.trigger(key, () => void this.analyzeNow(doc, notBefore), delayMs - lead);
  }

  /** Analyse again although the text did not change (a model's keyframe was chosen). */
  reanalyze(doc: vscode.TextDocument): void {
    const s = this.stateFor(doc.uri);
    this.forgetVersion(s);
    this.schedule(doc, 0);
  }

  private onClosed(doc: vscode.TextDocument): void {
    const k = keyOf(doc.uri);
    this.debouncer.cancel(k);
    if (this.pinned.has(k)) return; // an inspector panel still shows it
    this.drop(k);
  }

  protected override drop(k: string): SceneState | undefined {
    this.analyzer.forget(k);
    this.models?.forget(k);
    const s = super.drop(k);
    if (this.activeKey === k) this.setActive(undefined);
    return s;
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

  /**
   * Analyse the document's current text now. With `notBefore` (performance.now() time) the result
   * is stored no earlier than that, and dropped when the document changed meanwhile (the change
   * scheduled its own analysis, and the debounce restarted with it).
   */
  async analyzeNow(doc: vscode.TextDocument, notBefore?: number): Promise<InspectResult | undefined> {
    if (doc.isClosed && !this.pinned.has(keyOf(doc.uri))) return undefined;
    const s = this.stateFor(doc.uri);
    const version = doc.version;
    const text = doc.getText();
    this.beginAnalysis(s, version);
    let result: InspectResult | undefined;
    const models = this.models;
    const load = models && isModelKind(fileKindOfDocument(doc)) ? () => models.load(doc.uri, text) : undefined;
    try {
      result = await this.analyzer.analyze(s.key, version, text, load);
      // Still "being analysed" while held: no one schedules this version again, whenInspected waits.
      const wait = notBefore === undefined ? 0 : notBefore - performance.now();
      if (result && wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      if (notBefore !== undefined && doc.version !== version) result = undefined;
    } catch (e) {
      this.log.error(`analysis of ${s.key} failed: ${errorMessage(e)}`);
    }
    this.endAnalysis(s, version);
    if (!result) return undefined; // superseded (or failed: logged)
    if (!this.isTracked(s)) return undefined; // closed meanwhile
    this.storeResult(s, version, result, text);
    return result;
  }

  /** Resolves with the inspection of the document's current version (analysing it now if needed). */
  whenInspected(doc: vscode.TextDocument): Promise<InspectResult | undefined> {
    const s = this.stateFor(doc.uri);
    if (s.result && s.resultVersion === doc.version) return Promise.resolve(s.result);
    const p = this.waitForVersion(s, doc.version);
    if (!this.isAnalysing(s, doc.version)) {
      this.debouncer.cancel(s.key);
      void this.analyzeNow(doc).then((r) => {
        // Superseded without a newer request in flight (should not happen): do not leave waiters hanging.
        if (!r && !this.isAnalysing(s) && !this.debouncer.isPending(s.key)) this.releaseWaiters(s, s.result);
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

  /** The scene, ready to simulate, once its current text is analysed (undefined when it cannot be simulated). */
  async whenReady(doc: vscode.TextDocument): Promise<ReadyScene | undefined> {
    await this.whenInspected(doc);
    return this.ready(this.stateFor(doc.uri));
  }

  /** True when analysing a step of this scene is slow enough to belong in the worker. */
  isLarge(s: SceneState): boolean {
    // A model's text is XML: the worker (which parses scene text) never analyses its steps.
    return !isModelPath(s.uri.path) && this.analyzer.usesWorkerFor(s.result?.parse.scene);
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
}
