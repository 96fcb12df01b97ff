// The extension's one context object: it creates every service and owns every disposable
// (as rust-analyzer's editors/code `Ctx`). `activate` makes one; `deactivate` disposes it.
import * as vscode from 'vscode';
import { Analyzer, InspectWorker } from './analyzer';
import type { ConstraintLensApi } from './api';
import { SceneCodeLensProvider } from './codeLens';
import { Commands } from './commands';
import { readConfig, type Config } from './config';
import { DiagnosticsPublisher, FixProvider } from './diagnostics';
import { PanelManager, VIEW_TYPE } from './panel';
import { Runner } from './runner';
import { SceneManager } from './scenes';
import { SceneStatusBar } from './statusBar';
import { SceneTreeProvider } from './tree';
import { isSceneDocument, keyOf, parseUriArg } from './util';

export const TREE_VIEW_ID = 'constraintLens.sceneTree';
const SCENE_SELECTOR: vscode.DocumentSelector = [{ pattern: '**/*.scene.json' }];

export class Ctx implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
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

  constructor(readonly extension: vscode.ExtensionContext) {
    const cfg = (): Config => this.config;
    this.log = this.own(vscode.window.createOutputChannel('Constraint Lens', { log: true }));
    this.worker = new InspectWorker(vscode.Uri.joinPath(extension.extensionUri, 'dist', 'worker.js').fsPath, this.log);
    this.own({ dispose: () => this.worker.dispose() });
    this.analyzer = this.own(new Analyzer(this.worker, this.log, () => ({ inlineMaxBodies: this.config.inlineMaxBodies, useWorker: this.config.useWorker })));
    this.scenes = this.own(new SceneManager(this.analyzer, this.log, cfg));
    this.runner = this.own(new Runner(this.scenes, this.log, cfg));
    this.own(new DiagnosticsPublisher(this.scenes));
    this.panels = this.own(new PanelManager(this.scenes, this.runner, this.log, extension.extensionUri, extension.workspaceState));
    this.statusBar = this.own(new SceneStatusBar(this.scenes, cfg));
    this.tree = this.own(new SceneTreeProvider(this.scenes, cfg));
    this.tree.view = this.own(vscode.window.createTreeView(TREE_VIEW_ID, { treeDataProvider: this.tree, showCollapseAll: true }));
    this.codeLens = this.own(new SceneCodeLensProvider(this.scenes, cfg));
    this.own(vscode.languages.registerCodeLensProvider(SCENE_SELECTOR, this.codeLens));
    this.own(vscode.languages.registerCodeActionsProvider(SCENE_SELECTOR, new FixProvider(this.scenes), FixProvider.metadata));
    for (const d of new Commands({ scenes: this.scenes, runner: this.runner, panels: this.panels, log: this.log, config: cfg, extension }).register()) this.own(d);

    this.own(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (!e.affectsConfiguration('constraintLens')) return;
        this.config = readConfig();
        this.statusBar.update();
        this.codeLens.refresh();
        this.tree.refresh();
      }),
    );
    // Context keys for `when`/`enablement` clauses.
    const setContext = (): void => {
      const ed = vscode.window.activeTextEditor;
      void vscode.commands.executeCommand('setContext', 'constraintLens.sceneActive', !!ed && isSceneDocument(ed.document));
      const s = this.scenes.active;
      void vscode.commands.executeCommand('setContext', 'constraintLens.playing', !!s && s.run?.kind === 'play');
      void vscode.commands.executeCommand('setContext', 'constraintLens.running', !!s && s.running);
    };
    this.own(vscode.window.onDidChangeActiveTextEditor(setContext));
    this.own(this.scenes.onDidChangeActive(setContext));
    this.own(
      this.scenes.onDidChange((e) => {
        if (e.kind === 'running' && e.state === this.scenes.active) setContext();
      }),
    );
    setContext();
    this.log.info(`Constraint Lens ${(extension.extension.packageJSON as { version?: string }).version ?? ''} activated (${VIEW_TYPE})`);
    // No solver work during activation: start tracking the visible scenes on the next tick.
    setTimeout(() => this.scenes.start(), 0);
  }

  private own<T extends vscode.Disposable>(d: T): T {
    this.disposables.push(d);
    return d;
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
          visible: p.visible,
        };
      },
      currentStep: (uri) => state(uri)?.sim?.currentStep ?? 0,
      records: (uri) => state(uri)?.sim?.records.length ?? 0,
      isRunning: (uri) => state(uri)?.running ?? false,
      whenIdle: (uri) => state(uri)?.whenIdle() ?? Promise.resolve(),
      statusText: () => this.statusBar.text,
    };
  }

  dispose(): void {
    for (const d of this.disposables.reverse()) {
      try {
        d.dispose();
      } catch (e) {
        console.error('Constraint Lens: dispose failed', e);
      }
    }
    this.disposables.length = 0;
  }
}
