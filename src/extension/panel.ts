// The inspector panel host: a scene's panel is revealed if it exists; else Open Inspector shows the
// scene in the panel it opened last (`constraintLens.inspector.reuse`; see PanelManager.open) or
// in a new one, and panels are restored after a reload by a WebviewPanelSerializer. Messages from the webview are validated; the host answers
// `ready` with the PanelModel and `requestSnapshot` with the analysed step, runs the registered
// command of a button (with the panel's scene), and reveals ranges in the editor. Runs and edits
// of the scene are pushed live through a PanelFeed (logic/panelFeed.ts): the history as appended
// columns, the current step's snapshot at most 10 times a second, one message in flight until the
// panel acknowledges it. The panel lists exactly the diagnostics published in the Problems panel
// (`publishedFor`, a `diagnostics` message when a run adds some) and bands κ with the same
// threshold as the status bar and the tree (the `constraintLens.conditionWarning` setting, else
// the scene's).
import * as vscode from 'vscode';
import { isWebviewMessage, type HostMessage, type MujocoSection, type PanelSolver, type PlaySpeed, type WebviewMessage, type WebviewState } from '../protocol';
import type { Range as EngineRange } from '../engine';
import type { PanelProbe } from './api';
import { PanelFeed, type FeedModel } from './logic/panelFeed';
import type { MujocoPanelSession } from './logic/mujocoPanelSession';
import { mujocoCommand } from './panelSolver';
import { panelShownStep } from './logic/shown';
import { inspectorPageHtml } from './panelPage';
import { itemKey, itemRange, postToWebview, revealInEditor, revealedItem, safeJson, webviewOptions } from './panelHelpers';
import { mujocoFeedModel, sceneFeedModel } from './panelFeedModel';

export { itemRange, revealInEditor };
import { ContextKeys, PanelCommandIds, ViewIds } from './commandIds';
import type { Config } from './config';
import { publishedFor, syntaxErrorsFor } from './diagnostics';
import { Disposable, disposeAll, toDisposable } from './dispose';
import type { SceneItem } from './logic/itemAt';
import type { SceneEvent, SceneManager, SceneState } from './scenes';
import { errorMessage, fileNameOf, keyOf, parseUriArg, toVsRange } from './util';

export const VIEW_TYPE = ViewIds.inspector;
const RECENT_KEY = 'constraintLens.recentPanels';

class InspectorPanel extends Disposable implements PanelProbe {
  postedToWebview = 0;
  lastMessageFromWebview: WebviewMessage | undefined;
  postedTypes: string[] = [];
  /** The last selection the host asked the webview to show (tree, editor cursor). */
  lastSelect: { constraint?: string; body?: string } | undefined;
  /** What the inspector last showed as selected, as far as the host knows ('' for nothing). */
  selectedItem = '';
  /** When this panel was made, and the webview's start-up times from its last `ready` (epoch ms). */
  readonly createdAt = Date.now();
  startup: PanelProbe['startup'];
  /** The webview's script said `ready` and has not been unloaded since. */
  private ready = false;
  /** Model, history and snapshots, with backpressure. */
  readonly feed: PanelFeed;
  /** MuJoCo steps this panel's model (the header's switch, panelSolver.ts); undefined: the engine does. */
  mj: MujocoPanelSession | undefined;
  /** The webview panel went on to show another scene: disposing this one leaves it open. */
  private released = false;
  /** Handling the panel's own choice of step (the views' 'shown' event it causes needs no answer). */
  private choosing = false;

  constructor(
    readonly panel: vscode.WebviewPanel,
    readonly state: SceneState,
    private readonly host: PanelManager,
  ) {
    super();
    // Disposed last: the webview panel itself (closing it twice is harmless), unless another scene took it over.
    this._register(toDisposable(() => this.released || panel.dispose()));
    this._register(panel.onDidDispose(() => host.closed(this)));
    this.feed = new PanelFeed(
      (m) => this.postFlow(m),
      {
        model: () => (this.mj ? mujocoFeedModel(this.mj) : this.buildModel()),
        // No simulation (not stepped yet, or the text changed): the panel keeps its run until the next model.
        records: () => (this.mj ? this.mj.records : this.state.sim?.records),
        snapshot: (k) => (this.mj ? this.mj.snapshot(k) : this.host.scenes.snapshotAt(this.state, k)),
      },
      {
        onSnapshotError: (step, e) => {
          this.host.log.error(`snapshot of step ${step} failed: ${errorMessage(e)}`);
          this.post({ type: 'error', message: `Cannot analyse step ${step}: ${e instanceof Error ? e.message : String(e)}` });
        },
      },
    );
    this._register(toDisposable(() => this.feed.dispose()));
    this._register(toDisposable(() => this.mj?.dispose()));
    this._register(host.scenes.pin(state.uri));
    this._register(
      panel.webview.onDidReceiveMessage((m: unknown) => {
        // Before `ready` the page on screen may still be the one of the scene this panel showed before
        if (this.ready || (isWebviewMessage(m) && (m.type === 'ready' || m.type === 'log'))) void this.receive(m);
      }),
    );
    this._register(
      panel.onDidChangeViewState((e) => {
        if (!e.webviewPanel.visible) this.unload(); // retainContextWhenHidden: false → unloaded
        if (e.webviewPanel.active) host.scenes.setActive(state.uri);
        void vscode.commands.executeCommand('setContext', ContextKeys.inspectorActive, e.webviewPanel.active);
      }),
    );
    this.render();
  }

  /** Disposing this panel leaves its webview panel open, to show another scene (PanelManager.switchTo). */
  release(): void {
    this.released = true;
  }

  get visible(): boolean {
    return this.panel.visible;
  }

  render(): void {
    const webview = this.panel.webview;
    const ext = this.host.extensionUri;
    webview.options = webviewOptions(ext);
    this.unload();
    try {
      webview.html = inspectorPageHtml(webview, ext, `Constraint Lens: ${this.state.fileName}`);
    } catch (e) {
      this.host.log.error(`cannot render the inspector: ${errorMessage(e)}`);
      webview.html = `<!DOCTYPE html><html><body><p>Constraint Lens could not render the inspector. See the 'Constraint Lens' output.</p></body></html>`;
    }
  }

  /** The webview is gone until it says `ready` again. */
  private unload(): void {
    this.ready = false;
    this.feed.disconnect();
  }

  private count(msg: HostMessage): void {
    this.postedToWebview++;
    this.postedTypes.push(msg.type);
    if (this.postedTypes.length > 200) this.postedTypes.splice(0, this.postedTypes.length - 200);
  }

  /** Post a small message outside the flow control (running, invalidated, select, error). */
  post(msg: HostMessage): void {
    void this.postFlow(msg);
  }

  /** The feed's post: resolves false when the message was not delivered (the feed then waits for `ready`). */
  private postFlow(msg: HostMessage): Promise<boolean> {
    if (!this.ready) return Promise.resolve(false);
    this.count(msg);
    return postToWebview(this.panel.webview, msg, this.host.log);
  }

  /** The model the feed sends (history streamed after it), or an error when the scene cannot be analysed. */
  private buildModel(): FeedModel | undefined {
    const h = this.host;
    return sceneFeedModel(this.state, { large: (s) => h.scenes.isLarge(s), config: h.config(), mujocoFor: h.mujocoFor, switchable: h.mujocoSession !== undefined, log: h.log });
  }

  /** The model again (a setting changed): the feed sends it, its history streamed after it. */
  sendModel(): void {
    this.feed.modelChanged();
  }

  /** Show a step's analysed system in the panel (Go to Step): the panel moves there. */
  showStep(step: number): void {
    this.feed.request(step, true);
  }

  /** Switch the solver of an imported model; the other one starts from the initial state (or keyframe). */
  async setSolver(solver: PanelSolver): Promise<void> {
    if ((solver === 'mujoco') === (this.mj !== undefined)) return;
    this.mj?.dispose();
    this.mj = undefined;
    if (solver === 'engine') {
      this.host.onSolverEngine?.(this.state);
      this.host.scenes.resetRun(this.state);
      this.feed.modelChanged();
      return;
    }
    if (!this.host.mujocoSession) return;
    this.host.scenes.cancelRun(this.state);
    this.mj = this.host.mujocoSession(this);
    await this.mj.open();
  }

  onSceneEvent(e: SceneEvent): void {
    // MuJoCo runs this panel: the engine's runs are not shown; an edit (or a new keyframe) opens MuJoCo's again
    if (this.mj) {
      if (e.kind === 'inspected') void this.mj.reset();
      else if (e.kind === 'invalidated') this.post({ type: 'invalidated', reason: `${e.state.fileName} changed; re-analysing…` });
      return;
    }
    // A run added diagnostics (or a run event dropped them): they go now, a small message outside
    // the flow ('inspected' and 'reset' send a whole model, its diagnostics included).
    if (e.diagnosticsChanged && e.kind !== 'inspected' && e.kind !== 'reset') {
      const syntaxErrors = syntaxErrorsFor(this.state);
      this.post({ type: 'diagnostics', diagnostics: publishedFor(this.state), ...(syntaxErrors.length ? { syntaxErrors } : {}) });
    }
    switch (e.kind) {
      case 'inspected':
      case 'reset':
        this.feed.modelChanged();
        break;
      case 'invalidated':
        this.post({ type: 'invalidated', reason: `${e.state.fileName} changed; re-analysing…` });
        break;
      case 'shown':
        // The views went back to the run's end from outside the panel (a Step from the CodeLens or
        // the palette): a panel left on an earlier step goes there too, or it would show another step.
        if (!this.choosing && e.state.shownStep === undefined && !e.state.running && e.state.sim) this.feed.request(e.state.sim.currentStep, true);
        break;
      case 'stepped':
        // A run's end: its 'running' message (fired right after) goes first, so the panel's Play
        // button shows the stop before the last records arrive.
        if (e.settled) queueMicrotask(() => this.feed.stepped(true));
        else this.feed.stepped(false);
        break;
      case 'running':
        if (e.state.running) this.feed.runStarted();
        this.post({ type: 'running', running: e.state.running });
        break;
      case 'closed':
        this.post({ type: 'error', message: `${e.state.fileName} was closed.` });
        break;
    }
  }

  select(sel: { constraint?: string; body?: string }): void {
    this.lastSelect = sel;
    this.selectedItem = itemKey(sel.constraint !== undefined ? 'constraint' : 'body', sel.constraint ?? sel.body);
    this.post({ type: 'select', ...sel });
  }

  /**
   * A message from the webview (untrusted: validated first). Resolves when it was handled; for a
   * button, when its command finished (the e2e tests await this through the extension's test API).
   */
  async receive(m: unknown): Promise<void> {
    if (!isWebviewMessage(m)) {
      this.host.log.warn(`ignored an invalid message from the inspector: ${safeJson(m)}`);
      return;
    }
    this.lastMessageFromWebview = m;
    const s = this.state;
    try {
      switch (m.type) {
        case 'ready':
          if (m.startup) this.startup = { ...m.startup, receivedAt: Date.now(), createdAt: this.createdAt };
          this.ready = true;
          this.feed.connect();
          if (s.running) this.post({ type: 'running', running: true });
          // Analyse now if needed: the model goes once the analysis is there ('inspected').
          void this.host.scenes.whenInspectedUri(s.uri);
          break;
        case 'ack':
          this.feed.ack(m.seq, m.ms);
          break;
        case 'requestSnapshot':
        case 'showStep': {
          const step = panelShownStep(m, this.feed.knownEnd);
          this.choosing = true;
          try {
            if (this.mj) this.mj.shown = step;
            else this.host.scenes.showStep(s, step);
          } finally {
            this.choosing = false;
          }
          if (m.type === 'requestSnapshot') this.feed.request(m.step);
          break;
        }
        case 'command': {
          if (this.mj && (await mujocoCommand(this.mj, m.command, m.step))) break;
          // The button runs the registered command, on this panel's scene: the same code path,
          // defaults and prompts as the palette, the editor title bar and the CodeLens.
          const wasRunning = s.running;
          await vscode.commands.executeCommand(PanelCommandIds[m.command], s.uri);
          // Pause lands on the step the panel showed when the user pressed it: on a loaded host the
          // run is up to a second ahead of the panel, and every view then shows the step that was seen.
          if (m.command === 'playPause' && wasRunning && !s.running && m.step !== undefined) this.host.scenes.showStep(s, m.step);
          break;
        }
        case 'playSpeed':
          this.host.onPlaySpeed?.(s, m.speed);
          break;
        case 'solver':
          await this.setSolver(m.solver);
          break;
        case 'reveal': {
          let range: vscode.Range | undefined;
          // A body or a constraint: also selected in the Explorer tree; the cursor landing on it
          // in the editor is the inspector's own selection (not sent back as a select).
          const item = m.range ? undefined : revealedItem(s, m.constraintIndex, m.bodyIndex);
          if (item) {
            this.selectedItem = itemKey(item.kind, item.name);
            this.host.onDidRevealItem?.(s, item);
          }
          if (m.range) range = toVsRange(m.range as EngineRange);
          else if (item) range = itemRange(s, item.kind, item.fileIndex);
          if (range) void revealInEditor(s.uri, range, { avoidColumn: this.panel.viewColumn }).then(undefined, (e: unknown) => this.host.log.error(`reveal failed: ${errorMessage(e)}`));
          break;
        }
        case 'log':
          if (m.level === 'error') this.host.log.error(`[webview] ${m.message}`);
          else this.host.log.info(`[webview] ${m.message}`);
          break;
      }
    } catch (e) {
      this.host.log.error(`handling '${m.type}' failed: ${errorMessage(e)}`);
    }
  }

}

export class PanelManager extends Disposable implements vscode.WebviewPanelSerializer<WebviewState> {
  private readonly panels = new Map<string, InspectorPanel>();
  /** The panel Open Inspector shows the next scene in (the last one it opened); none: a new panel. */
  private reusable: InspectorPanel | undefined;
  /** The MuJoCo section of a model's panel (models.ts); undefined for scene files. */
  mujocoFor: ((s: SceneState) => MujocoSection | undefined) | undefined;
  /** The inspector revealed a body or a constraint (the Explorer tree selects it too). */
  onDidRevealItem: ((s: SceneState, item: SceneItem) => void) | undefined;
  /** The MuJoCo session of a panel switched to MuJoCo (panelSolver.ts); undefined: no switch offered. */
  mujocoSession: ((p: InspectorPanel) => MujocoPanelSession) | undefined;
  /** A panel switched back to the engine, or closed while it ran MuJoCo (MuJoCo's diagnostics leave the Problems panel). */
  onSolverEngine: ((s: SceneState) => void) | undefined;
  /** The inspector chose Play's speed for its scene (the runner applies it). */
  onPlaySpeed: ((s: SceneState, speed: PlaySpeed) => void) | undefined;

  constructor(
    readonly scenes: SceneManager,
    readonly log: vscode.LogOutputChannel,
    readonly extensionUri: vscode.Uri,
    private readonly memento: vscode.Memento,
    readonly config: () => Config,
  ) {
    super();
    // The open panels (each owns its webview panel and subscriptions) go first.
    this._register(toDisposable(() => disposeAll([...this.panels.values()])));
    this._register(scenes.onDidChange((e) => this.panels.get(e.state.key)?.onSceneEvent(e)));
    this._register(vscode.window.registerWebviewPanelSerializer(VIEW_TYPE, this));
  }

  get(uri: vscode.Uri | string): InspectorPanel | undefined {
    return this.panels.get(typeof uri === 'string' ? uri : keyOf(uri));
  }

  /** The scene of the active inspector panel, if one has focus. */
  activeScene(): SceneState | undefined {
    for (const p of this.panels.values()) if (p.panel.active) return p.state;
    return undefined;
  }

  /**
   * Open (or reveal) the inspector of a scene, beside the editor. A scene without a panel is shown
   * in the panel Open Inspector last opened, when the setting allows: VS Code's set-up of a new
   * webview is most of the time to a first paint, and one panel followed from model to model is
   * what Markdown's preview does. `toSide`: a panel of its own, which no later scene takes over.
   */
  async open(uri: vscode.Uri, opts: { preserveFocus?: boolean; toSide?: boolean } = {}): Promise<InspectorPanel | undefined> {
    const existing = this.panels.get(keyOf(uri));
    if (existing) {
      existing.panel.reveal(existing.panel.viewColumn, opts.preserveFocus);
      return existing;
    }
    let doc: vscode.TextDocument;
    try {
      doc = await vscode.workspace.openTextDocument(uri);
    } catch (e) {
      void vscode.window.showErrorMessage(`Constraint Lens: cannot open ${fileNameOf(uri)}: ${e instanceof Error ? e.message : String(e)}`);
      return undefined;
    }
    const again = this.panels.get(keyOf(uri));
    if (again) return again;
    const reuse = !opts.toSide && this.config().inspectorReuse ? this.reusable : undefined;
    let p: InspectorPanel;
    if (reuse) p = this.switchTo(reuse, uri, opts.preserveFocus ?? false);
    else {
      const panel = vscode.window.createWebviewPanel(VIEW_TYPE, this.titleFor(uri), { viewColumn: vscode.ViewColumn.Beside, preserveFocus: opts.preserveFocus ?? false }, webviewOptions(this.extensionUri));
      p = this.attach(panel, uri);
    }
    // a panel to the side is the user's to keep; the others follow Open Inspector
    if (!opts.toSide) this.reusable = p;
    void this.scenes.whenInspected(doc);
    return p;
  }

  /**
   * Show `uri`'s scene in the webview panel of `old`: the old scene's part is disposed as if its
   * panel had closed (its MuJoCo session stops, its views go back to the engine, its engine run
   * goes on), and the page is loaded afresh for the new scene, so nothing of the old one (its
   * history, step, selection) can show under the new title. VS Code keeps the webview's frame.
   */
  private switchTo(old: InspectorPanel, uri: vscode.Uri, preserveFocus: boolean): InspectorPanel {
    const panel = old.panel;
    old.release();
    this.closed(old);
    panel.title = this.titleFor(uri);
    const p = this.attach(panel, uri);
    panel.reveal(panel.viewColumn, preserveFocus);
    return p;
  }

  /** A scene's panel closed, or went on to another scene. */
  closed(p: InspectorPanel): void {
    if (this.panels.get(p.state.key) !== p) return;
    this.panels.delete(p.state.key);
    if (this.reusable === p) this.reusable = undefined;
    const mujoco = p.mj !== undefined;
    // no inspector shows a step of the scene now: its views follow its run (a step chosen in the panel is let go)
    this.scenes.showStep(p.state, undefined);
    p.dispose();
    // a panel that ran MuJoCo: the views go back to the engine's analysis now, not at the next scene event
    if (mujoco) this.onSolverEngine?.(p.state);
    void vscode.commands.executeCommand('setContext', ContextKeys.inspectorActive, false);
  }

  private titleFor(uri: vscode.Uri): string {
    const name = fileNameOf(uri);
    const clash = [...this.panels.values()].some((p) => p.state.fileName === name && p.state.key !== keyOf(uri));
    if (!clash) return `Inspect ${name}`;
    const dir = uri.path.split('/').slice(-2, -1)[0] ?? '';
    return `Inspect ${name} — ${dir}`;
  }

  private attach(panel: vscode.WebviewPanel, uri: vscode.Uri): InspectorPanel {
    const state = this.scenes.stateFor(uri);
    panel.iconPath = {
      light: vscode.Uri.joinPath(this.extensionUri, 'media', 'icons', 'inspector-light.svg'),
      dark: vscode.Uri.joinPath(this.extensionUri, 'media', 'icons', 'inspector-dark.svg'),
    };
    const p = new InspectorPanel(panel, state, this);
    this.panels.set(state.key, p);
    void this.remember(uri, panel.title);
    if (panel.active) this.scenes.setActive(uri);
    return p;
  }

  private async remember(uri: vscode.Uri, title: string): Promise<void> {
    const list = this.memento.get<{ uri: string; title: string }[]>(RECENT_KEY, []).filter((r) => r.uri !== uri.toString());
    list.unshift({ uri: uri.toString(), title });
    await this.memento.update(RECENT_KEY, list.slice(0, 30));
  }

  /** Restore a panel after a reload: the scene comes from the webview state, or from the panel title. */
  async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: WebviewState | undefined): Promise<void> {
    try {
      let uriString = typeof state?.sceneUri === 'string' ? state.sceneUri : undefined;
      if (!uriString) uriString = this.memento.get<{ uri: string; title: string }[]>(RECENT_KEY, []).find((r) => r.title === panel.title && !this.panels.has(r.uri))?.uri;
      if (!uriString) {
        panel.webview.html = `<!DOCTYPE html><html><body><p>This inspector's scene is unknown. Open a *.scene.json file and run “Constraint Lens: Open Inspector”.</p></body></html>`;
        return;
      }
      const uri = parseUriArg(uriString);
      const existing = this.panels.get(keyOf(uri));
      if (existing) {
        panel.dispose();
        return;
      }
      const p = this.attach(panel, uri);
      // the first panel restored is the one Open Inspector goes on with
      this.reusable ??= p;
      const doc = await vscode.workspace.openTextDocument(uri);
      void this.scenes.whenInspected(doc);
    } catch (e) {
      this.log.error(`cannot restore an inspector: ${errorMessage(e)}`);
      panel.webview.html = `<!DOCTYPE html><html><body><p>The scene of this inspector could not be opened.</p></body></html>`;
    }
  }

  /** Ask the inspector of a scene to select a constraint or body. */
  select(uri: vscode.Uri | string, sel: { constraint?: string; body?: string }): void {
    this.get(uri)?.select(sel);
  }

  /** Send every open panel its model again (a setting the model depends on changed). */
  refreshAll(): void {
    for (const p of this.panels.values()) p.sendModel();
  }

  /**
   * The editor's cursor is on `item` (undefined: on no item). The inspector is asked to select it
   * when it differs from what the inspector last showed: not when the cursor only moved inside the
   * item, nor when it landed there because the inspector revealed that item.
   */
  selectFromCursor(uri: vscode.Uri | string, item: SceneItem | undefined): void {
    const p = this.get(uri);
    if (!p) return;
    const key = item ? itemKey(item.kind, item.name) : '';
    if (key === p.selectedItem) return;
    if (!item) p.selectedItem = '';
    else p.select(item.kind === 'constraint' ? { constraint: item.name } : { body: item.name });
  }

  /** Show a step in the scene's inspector (Go to Step). */
  showStep(s: SceneState, step: number): void {
    this.scenes.showStep(s, step);
    this.panels.get(s.key)?.showStep(step);
  }
}
