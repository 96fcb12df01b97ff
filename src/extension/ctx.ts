// The extension's one context object: it creates every service and owns every disposable
// (as rust-analyzer's editors/code `Ctx`): each is registered here as it is made and disposed in
// the reverse order, once, by `dispose` (the Disposable base). `activate` makes one; `deactivate`
// disposes it.
import * as vscode from 'vscode';
import { Analyzer, InspectWorker } from './analyzer';
import type { ConstraintLensApi } from './api';
import { SceneCodeLensProvider } from './codeLens';
import { ContextKeys, ViewIds } from './commandIds';
import { Commands } from './commands';
import { readConfig, type Config } from './config';
import { CursorSelection } from './cursorSelect';
import { DiagnosticsPublisher, FixProvider } from './diagnostics';
import { Disposable, toDisposable } from './dispose';
import { isModelKind, isModelPath } from './logic/fileKind';
import { ModelService } from './models';
import { MujocoRunner } from './mujocoRunner';
import { mujocoSessionFactory } from './panelSolver';
import { PanelManager, VIEW_TYPE } from './panel';
import { Runner } from './runner';
import { SceneManager } from './scenes';
import { SolverViews } from './solverViews';
import { SceneStatusBar } from './statusBar';
import { TraceEditorProvider } from './traceEditor';
import { SceneTreeProvider } from './tree';
import { fileKindOfDocument, isSceneDocument, keyOf, parseUriArg } from './util';

const TREE_VIEW_ID = ViewIds.sceneTree;
const SCENE_SELECTOR: vscode.DocumentSelector = [{ pattern: '**/*.scene.json' }];
/** Scenes and the documents that may be models (the CodeLens provider checks an .xml's root element itself). */
const LENS_SELECTOR: vscode.DocumentSelector = [...SCENE_SELECTOR, { pattern: '**/*.urdf' }, { pattern: '**/*.xml' }];

export class Ctx extends Disposable implements vscode.Disposable {
  private config: Config = readConfig();
  readonly log: vscode.LogOutputChannel;
  readonly worker: InspectWorker;
  readonly analyzer: Analyzer;
  readonly scenes: SceneManager;
  readonly runner: Runner;
  readonly panels: PanelManager;
  readonly statusBar: SceneStatusBar;
  readonly tree: SceneTreeProvider;
  readonly codeLens: SceneCodeLensProvider;
  readonly models: ModelService;
  readonly traces: TraceEditorProvider;
  readonly mujoco: MujocoRunner;
  /** Which solver's analysis the status bar, CodeLens and tree show (MuJoCo's while a model's panel runs it). */
  readonly views: SolverViews;
  private readonly diagnostics: DiagnosticsPublisher;

  constructor(readonly extension: vscode.ExtensionContext) {
    super();
    const cfg = (): Config => this.config;
    this.log = this._register(vscode.window.createOutputChannel('Constraint Lens', { log: true }));
    this.worker = this._register(new InspectWorker(vscode.Uri.joinPath(extension.extensionUri, 'dist', 'worker.js').fsPath, this.log));
    this.analyzer = this._register(new Analyzer(this.worker, this.log, () => ({ inlineMaxBodies: this.config.inlineMaxBodies, inlineMaxWork: this.config.inlineMaxWork, useWorker: this.config.useWorker })));
    this.models = this._register(new ModelService(this.log, () => this.config.importKeyframe));
    this.mujoco = this._register(new MujocoRunner(extension.extensionUri, this.log));
    this.scenes = this._register(new SceneManager(this.analyzer, this.log, cfg, this.models));
    this.runner = new Runner(this.scenes, this.log, cfg); // owns nothing: the scene manager stops the runs
    const diagnostics = (this.diagnostics = this._register(new DiagnosticsPublisher(this.scenes)));
    this.panels = this._register(new PanelManager(this.scenes, this.log, extension.extensionUri, extension.workspaceState, cfg));
    const views = (this.views = this._register(new SolverViews()));
    views.sessionOf = (s) => this.panels.get(s.key)?.mj;
    this.statusBar = this._register(new SceneStatusBar(this.scenes, cfg, views));
    this.tree = this._register(new SceneTreeProvider(this.scenes, cfg, views));
    this.tree.view = this._register(vscode.window.createTreeView(TREE_VIEW_ID, { treeDataProvider: this.tree, showCollapseAll: true }));
    // One selection: what the inspector reveals is selected in the tree; the editor's cursor selects in the inspector.
    this.panels.onDidRevealItem = (s, item) => this.tree.revealItem(s.key, item.kind, item.fileIndex);
    this.panels.onPlaySpeed = (s, speed) => this.runner.setSpeed(s, speed);
    this.runner.panelLag = (s) => this.panels.get(s.key)?.feed.lagMs;
    this._register(new CursorSelection(this.scenes, this.panels));
    this.codeLens = this._register(new SceneCodeLensProvider(this.scenes, cfg, views));
    this._register(vscode.languages.registerCodeLensProvider(LENS_SELECTOR, this.codeLens));
    // Quick fixes edit JSON: offered on scene files only, never on MJCF or URDF models.
    this._register(vscode.languages.registerCodeActionsProvider(SCENE_SELECTOR, new FixProvider(this.scenes), FixProvider.metadata));
    this.traces = this._register(new TraceEditorProvider(extension.extensionUri, this.log));
    for (const d of new Commands({ scenes: this.scenes, runner: this.runner, panels: this.panels, log: this.log, config: cfg, extension, models: this.models, traces: this.traces, mujoco: this.mujoco }).register()) this._register(d);
    // The inspector's MuJoCo section: in every model sent to a panel, and pushed when it changes.
    this.panels.mujocoFor = (s) => this.models.section(s);
    this._register(this.models.onDidChangeSection((e) => this.panels.get(e.key)?.post({ type: 'mujoco', mujoco: e.section })));
    // The solver switch of a model's panel: MuJoCo's steps in a live session in the MuJoCo worker.
    this.panels.mujocoSession = mujocoSessionFactory({ mujoco: this.mujoco, config: cfg, speed: (s) => this.runner.speedOf(s), log: this.log, changed: (s) => views.changed(s) });
    this.panels.onSolverEngine = (s) => {
      this.mujoco.unpublish(s.uri);
      views.changed(s);
    };
    this._register(
      this.scenes.onDidChange((e) => {
        if (e.kind === 'inspected') this.models.modelChanged(e.state);
      }),
    );

    this._register(
      vscode.workspace.onDidChangeConfiguration((e) => {
        // json.validate.enable decides whether VS Code's JSON service or the extension reports syntax errors.
        const jsonValidation = e.affectsConfiguration('json.validate');
        if (jsonValidation) diagnostics.republishAll();
        if (!e.affectsConfiguration('constraintLens') && !jsonValidation) return;
        const keyframe = this.config.importKeyframe;
        this.config = readConfig();
        if (keyframe !== this.config.importKeyframe) {
          for (const d of vscode.workspace.textDocuments) if (isModelKind(fileKindOfDocument(d))) this.scenes.reanalyze(d);
        }
        this.statusBar.update();
        this.codeLens.refresh();
        this.tree.refresh();
        this.panels.refreshAll();
      }),
    );
    // Context keys for `when`/`enablement` clauses.
    const setContext = (): void => {
      const ed = vscode.window.activeTextEditor;
      void vscode.commands.executeCommand('setContext', ContextKeys.sceneActive, !!ed && isSceneDocument(ed.document));
      // The active scene (its editor's, or the focused inspector's) is an MJCF or URDF model.
      const active = this.scenes.active;
      void vscode.commands.executeCommand('setContext', ContextKeys.modelActive, !!active && isModelPath(active.uri.path));
      const s = this.scenes.active;
      void vscode.commands.executeCommand('setContext', ContextKeys.playing, !!s && s.run?.kind === 'play');
      void vscode.commands.executeCommand('setContext', ContextKeys.running, !!s && s.running);
    };
    this._register(vscode.window.onDidChangeActiveTextEditor(setContext));
    this._register(this.scenes.onDidChangeActive(setContext));
    this._register(
      this.scenes.onDidChange((e) => {
        if (e.kind === 'running' && e.state === this.scenes.active) setContext();
      }),
    );
    setContext();
    this.log.info(`Constraint Lens ${(extension.extension.packageJSON as { version?: string }).version ?? ''} activated (${VIEW_TYPE})`);
    // No solver work during activation: start tracking the visible scenes on the next tick.
    const start = setTimeout(() => this.scenes.start(), 0);
    this._register(toDisposable(() => clearTimeout(start)));
  }

  api(): ConstraintLensApi {
    const state = (uri: string) => this.scenes.get(keyOf(parseUriArg(uri)));
    return {
      inspect: (uri) => state(uri)?.result,
      whenInspected: (uri) => this.scenes.whenInspectedUri(parseUriArg(uri)),
      panelFor: (uri) => {
        const p = this.panels.get(keyOf(parseUriArg(uri)));
        if (!p) return undefined;
        return {
          postedToWebview: p.postedToWebview,
          lastMessageFromWebview: p.lastMessageFromWebview,
          postedTypes: [...p.postedTypes],
          lastSelect: p.lastSelect,
          visible: p.visible,
          ...(p.startup ? { startup: { ...p.startup } } : {}),
          flow: { ...p.feed.stats, waiting: p.feed.waiting },
          solver: p.mj ? { solver: 'mujoco', steps: p.mj.total, running: p.mj.running, stopped: p.mj.stopped } : { solver: 'engine', steps: p.state.sim?.currentStep ?? 0, running: p.state.running, stopped: p.state.sim?.stopped ?? false },
        };
      },
      currentStep: (uri) => state(uri)?.sim?.currentStep ?? 0,
      records: (uri) => state(uri)?.sim?.records.length ?? 0,
      isRunning: (uri) => state(uri)?.running ?? false,
      whenIdle: (uri) => state(uri)?.whenIdle() ?? Promise.resolve(),
      statusText: () => this.statusBar.text,
      treeSelection: () => (this.tree.view?.selection ?? []).map((n) => (n.kind === 'group' ? n.group : `${n.kind}:${n.name}`)),
      receiveFromWebview: async (uri, message) => {
        const p = this.panels.get(keyOf(parseUriArg(uri)));
        if (!p) return false;
        await p.receive(message);
        return true;
      },
      lastPublished: (uri) => {
        const key = keyOf(parseUriArg(uri));
        const p = this.diagnostics.published.get(key);
        return p ? { ...p, analysisMs: this.analyzer.lastMsFor(key) } : undefined;
      },
      traceEditor: (uri) => this.traces.probe(parseUriArg(uri)),
      traceReceiveFromWebview: (uri, message) => this.traces.receive(parseUriArg(uri), message),
      mujocoSection: (uri) => {
        const s = state(uri);
        return s ? this.models.section(s) : undefined;
      },
    };
  }

  override dispose(): void {
    try {
      super.dispose();
    } catch (e) {
      // Deactivation goes on: a part that failed to dispose is reported, not rethrown.
      console.error('Constraint Lens: dispose failed', e);
    }
  }
}
