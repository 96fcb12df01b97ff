// The inspector panel host: one webview panel per scene (revealed if it exists), restored after a
// reload by a WebviewPanelSerializer. Messages from the webview are validated; the host answers
// `ready` with the PanelModel and `requestSnapshot` with the analysed step, runs the registered
// command of a button (with the panel's scene), and reveals ranges in the editor. Runs and edits
// of the scene are pushed live through a PanelFeed (logic/panelFeed.ts): the history as appended
// columns, the current step's snapshot at most 10 times a second, one message in flight until the
// panel acknowledges it. The panel lists exactly the diagnostics published in the Problems panel
// (`publishedFor`, a `diagnostics` message when a run adds some) and bands κ with the same
// threshold as the status bar and the tree (the `constraintLens.conditionWarning` setting, else
// the scene's).
import * as vscode from 'vscode';
import { buildPanelModel } from '../panelModel';
import { isWebviewMessage, type HostMessage, type MujocoSection, type PanelSolver, type PlaySpeed, type WebviewMessage, type WebviewState } from '../protocol';
import type { Range as EngineRange } from '../engine';
import type { PanelProbe } from './api';
import { PanelFeed, type FeedModel } from './logic/panelFeed';
import type { MujocoPanelSession } from './logic/mujocoPanelSession';
import { mujocoCommand } from './panelSolver';
import { inspectorPageHtml } from './panelPage';
import { itemKey, itemRange, mujocoFeedModel, revealInEditor, revealedItem, safeJson, webviewOptions } from './panelHelpers';

export { itemRange, revealInEditor };
import { ContextKeys, PanelCommandIds, ViewIds } from './commandIds';
import type { Config } from './config';
import { publishedFor, syntaxErrorsFor } from './diagnostics';
import { Disposable, disposeAll, toDisposable } from './dispose';
import type { SceneItem } from './logic/itemAt';
import type { SceneEvent, SceneManager, SceneState } from './scenes';
import { sceneConditionWarning } from './statusBar';
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

  constructor(
    readonly panel: vscode.WebviewPanel,
    readonly state: SceneState,
    private readonly host: PanelManager,
  ) {
    super();
    // Disposed last: the webview panel itself (closing it twice is harmless).
    this._register(panel);
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
    this._register(panel.webview.onDidReceiveMessage((m: unknown) => void this.receive(m)));
    this._register(
      panel.onDidChangeViewState((e) => {
        if (!e.webviewPanel.visible) this.unload(); // retainContextWhenHidden: false → unloaded
        if (e.webviewPanel.active) host.scenes.setActive(state.uri);
        void vscode.commands.executeCommand('setContext', ContextKeys.inspectorActive, e.webviewPanel.active);
      }),
    );
    this.render();
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
    if (!this.ready) return;
    this.count(msg);
    this.panel.webview.postMessage(msg).then(
      (ok) => {
        if (!ok) this.host.log.debug(`message '${msg.type}' not delivered (webview hidden)`);
      },
      (e: unknown) => this.host.log.error(`postMessage failed: ${errorMessage(e)}`),
    );
  }

  /** The feed's post: resolves false when the message was not delivered (the feed then waits for `ready`). */
  private postFlow(msg: HostMessage): Promise<boolean> {
    if (!this.ready) return Promise.resolve(false);
    this.count(msg);
    return Promise.resolve(this.panel.webview.postMessage(msg)).then(
      (ok) => {
        if (!ok) this.host.log.debug(`message '${msg.type}' not delivered (webview hidden)`);
        return ok;
      },
      (e: unknown) => {
        this.host.log.error(`postMessage failed: ${errorMessage(e)}`);
        return false;
      },
    );
  }

  /** The model the feed sends (history streamed after it), or an error when the scene cannot be analysed. */
  private buildModel(): FeedModel | undefined {
    const s = this.state;
    const r = s.result;
    if (!r) return undefined; // analysing; 'inspected' will come
    try {
      const sim = s.sim;
      const step = s.shownStep ?? sim?.currentStep ?? 0;
      // Large scenes: the model carries step 0; the shown step's analysis follows from the worker.
      const large = step > 0 && this.host.scenes.isLarge(s);
      const model = buildPanelModel(s.fileName, r, sim, large ? undefined : step, {
        diagnostics: publishedFor(s),
        syntaxErrors: syntaxErrorsFor(s),
        conditionWarning: sceneConditionWarning(s, this.host.config()),
        history: false,
      });
      if (model) {
        model.sceneUri = s.uri.toString();
        const mujoco = this.host.mujocoFor?.(s);
        if (mujoco) {
          model.mujoco = mujoco;
          if (this.host.mujocoSession) model.solver = 'engine';
        }
        return { message: { type: 'model', model }, showStep: large ? step : undefined };
      }
      const first = r.diagnostics.find((d) => d.severity === 'error');
      return { message: { type: 'error', message: first ? `${s.fileName} cannot be analysed: ${first.message} (line ${first.range.start.line + 1})` : `${s.fileName} cannot be analysed.` } };
    } catch (e) {
      this.host.log.error(`building the panel model failed: ${errorMessage(e)}`);
      return { message: { type: 'error', message: `Internal error: ${e instanceof Error ? e.message : String(e)}` } };
    }
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
      case 'stepped':
        // A run's end: its 'running' message (fired right after) goes first, so the panel's Play
        // button shows the stop before the last records arrive.
        if (e.settled) queueMicrotask(() => this.feed.stepped(true));
        else this.feed.stepped(false);
        break;
      case 'running':
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
          this.feed.ack(m.seq);
          break;
        case 'requestSnapshot':
          // under MuJoCo a following panel's request names the end it knew: the views follow the run
          if (this.mj) this.mj.shown = m.follow ? undefined : m.step;
          else this.host.scenes.showStep(s, m.step);
          this.feed.request(m.step);
          break;
        case 'showStep':
          if (this.mj) this.mj.shown = m.step;
          else this.host.scenes.showStep(s, m.step);
          break;
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

  /** Open (or reveal) the inspector of a scene, beside the editor. */
  async open(uri: vscode.Uri, opts: { preserveFocus?: boolean } = {}): Promise<InspectorPanel | undefined> {
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
    const title = this.titleFor(uri);
    const panel = vscode.window.createWebviewPanel(VIEW_TYPE, title, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: opts.preserveFocus ?? false }, webviewOptions(this.extensionUri));
    const p = this.attach(panel, uri);
    void this.scenes.whenInspected(doc);
    return p;
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
    panel.onDidDispose(() => {
      const mujoco = p.mj !== undefined;
      if (this.panels.get(state.key) === p) this.panels.delete(state.key);
      p.dispose();
      // a panel that ran MuJoCo: the views go back to the engine's analysis now, not at the next scene event
      if (mujoco) this.onSolverEngine?.(state);
      void vscode.commands.executeCommand('setContext', ContextKeys.inspectorActive, false);
    });
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
      this.attach(panel, uri);
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
