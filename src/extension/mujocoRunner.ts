// MuJoCo as the solver of an MJCF or URDF model in the editor: `Run with MuJoCo` (and Run N Steps on
// a model when `constraintLens.import.solver` is "mujoco") runs N mj_steps in a worker thread (the
// WebAssembly never runs on the extension host's thread), publishes MuJoCo's diagnostics (CL701 …) in
// the Problems panel on the XML lines, and shows MuJoCo's run in an inspector of its own: the panel
// fed the run's model (MuJoCo's system at the steps embedded: J, M⁻¹, A with row and DOF labels;
// λ and violation per named element, energy and κ over the run), its Run button running MuJoCo again.
import { Worker } from 'node:worker_threads';
import * as vscode from 'vscode';
import type { Diagnostic } from '../engine';
import { isWebviewMessage, type HostMessage, type PanelModel } from '../protocol';
import { renderPanelHtml } from '../panelHtml';
import { toVsDiagnostic } from './diagnostics';
import { CommandIds } from './commandIds';
import { Disposable } from './dispose';
import { toPlainDiagnostic } from './logic/diagnostics';
import { isMujocoWorkerResponse, type MujocoRequestBody, type MujocoWorkerRequest, type MujocoWorkerResponse } from './logic/mujocoWorkerProtocol';
import { makeNonce, toVsRange } from './util';

/** What a run gives its caller (the command's result; the e2e test reads it). */
export interface MujocoRunResult {
  steps: number;
  diagnostics: { code: string; line: number; message: string }[];
  ms: number;
}

export class MujocoRunner extends Disposable implements vscode.Disposable {
  private worker: Worker | undefined;
  private seq = 0;
  private readonly pending = new Map<number, (r: MujocoWorkerResponse) => void>();
  private readonly collection: vscode.DiagnosticCollection;
  private readonly panels = new Map<string, vscode.WebviewPanel>();
  /** The run each open inspector shows. */
  private readonly models = new Map<string, PanelModel>();

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log: vscode.LogOutputChannel,
  ) {
    super();
    this.collection = this._register(vscode.languages.createDiagnosticCollection('constraint-lens-mujoco'));
    // an edit makes the run's diagnostics stale: their lines may have moved
    this._register(vscode.workspace.onDidChangeTextDocument((e) => e.contentChanges.length && this.collection.delete(e.document.uri)));
    this._register(vscode.workspace.onDidCloseTextDocument((d) => this.collection.delete(d.uri)));
    this._register({ dispose: () => this.stop() });
  }

  private stop(): void {
    void this.worker?.terminate();
    this.worker = undefined;
    for (const [id, resolve] of this.pending) resolve({ id, ok: false, error: 'the MuJoCo worker stopped' });
    this.pending.clear();
    for (const p of this.panels.values()) p.dispose();
  }

  /** Ask the worker (started on the first request); answered in order, one request at a time. */
  request(m: MujocoRequestBody): Promise<MujocoWorkerResponse> {
    const worker = this.worker ?? this.start();
    const id = ++this.seq;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      worker.postMessage({ ...m, id } as MujocoWorkerRequest);
    });
  }

  private start(): Worker {
    const w = new Worker(vscode.Uri.joinPath(this.extensionUri, 'dist', 'mujocoWorker.js').fsPath);
    w.on('message', (r: unknown) => {
      if (!isMujocoWorkerResponse(r)) return;
      this.pending.get(r.id)?.(r);
      this.pending.delete(r.id);
    });
    w.on('error', (e) => {
      this.log.error(`MuJoCo worker: ${e.message}`);
      this.worker = undefined;
      for (const [id, resolve] of this.pending) resolve({ id, ok: false, error: e.message });
      this.pending.clear();
    });
    this.worker = w;
    return w;
  }

  /** Run `steps` mj_steps of the document's model; publish the diagnostics; show the run. */
  async run(doc: vscode.TextDocument, steps: number, keyframe: string | undefined): Promise<MujocoRunResult | undefined> {
    const fileName = doc.uri.path.split('/').pop() ?? doc.uri.path;
    const res = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Constraint Lens: ${steps} MuJoCo steps of ${fileName}` }, () =>
      this.request({ kind: 'run', path: doc.uri.fsPath, fileName, text: doc.getText(), steps, ...(keyframe ? { keyframe } : {}) }),
    );
    if (res.ok && res.kind !== 'run') return undefined;
    if (!res.ok) {
      this.log.error(`MuJoCo run of ${fileName} failed: ${res.error}`);
      void vscode.window.showErrorMessage(`Constraint Lens: MuJoCo could not run ${fileName}: ${res.error.split('\n')[0]}`);
      return undefined;
    }
    this.log.info(`MuJoCo ran ${res.steps} steps of ${fileName} in ${res.ms.toFixed(0)} ms (worker)`);
    this.publish(doc.uri, res.diagnostics);
    if (res.model) this.show(doc.uri, res.model);
    return { steps: res.steps, ms: res.ms, diagnostics: res.diagnostics.map((d) => ({ code: d.code, line: d.range.start.line, message: d.message })) };
  }

  /** MuJoCo's diagnostics of a model in the Problems panel (source "Constraint Lens (MuJoCo)"), replacing the last ones. */
  publish(uri: vscode.Uri, ds: readonly Diagnostic[]): void {
    this.collection.set(
      uri,
      ds.map((d) => {
        const v = toVsDiagnostic(toPlainDiagnostic(d), uri);
        v.source = 'Constraint Lens (MuJoCo)';
        return v;
      }),
    );
  }

  /**
   * The run in an inspector beside the editor (one per model, replaced by the next run). The model
   * reaches the panel as a message when it says `ready` (as the engine's inspector gets its own);
   * a step the panel asks for is answered with the nearest embedded snapshot at or before it; its
   * Run button runs MuJoCo again; its diagnostics reveal their XML line.
   */
  private show(uri: vscode.Uri, model: PanelModel): void {
    const key = uri.toString();
    const existing = this.panels.get(key);
    const panel =
      existing ??
      vscode.window.createWebviewPanel('constraintLens.mujocoRun', `MuJoCo: ${model.fileName}`, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, {
        enableScripts: true,
        retainContextWhenHidden: true,
        localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'dist')],
      });
    this.models.set(key, model);
    if (existing) {
      existing.reveal(undefined, true);
      void existing.webview.postMessage({ type: 'model', model } satisfies HostMessage);
      return;
    }
    this.panels.set(key, panel);
    const sub = panel.webview.onDidReceiveMessage((m: unknown) => this.onMessage(uri, panel, m));
    panel.onDidDispose(() => {
      sub.dispose();
      this.panels.delete(key);
      this.models.delete(key);
    });
    const w = panel.webview;
    w.html = renderPanelHtml({
      cspSource: w.cspSource,
      nonce: makeNonce(),
      // dist/panel.js loads dist/panel-deferred.js from next to it (webview/load.ts)
      scriptUri: w.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'dist', 'panel.js')).toString(),
      styleUri: w.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview.css')).toString(),
      title: `${model.sceneName} — MuJoCo run`,
    });
  }

  private onMessage(uri: vscode.Uri, panel: vscode.WebviewPanel, m: unknown): void {
    if (!isWebviewMessage(m)) return;
    const model = this.models.get(uri.toString());
    if (!model) return;
    const post = (x: HostMessage) => void panel.webview.postMessage(x);
    if (m.type === 'ready') post({ type: 'model', model });
    else if (m.type === 'ack' && typeof m.seq === 'number') return;
    else if (m.type === 'requestSnapshot') {
      const snaps = model.snapshots ?? [model.snapshot];
      let best = snaps[0];
      for (const s of snaps) if (s.step <= m.step) best = s;
      if (best) post({ type: 'snapshot', snapshot: best });
    } else if (m.type === 'command' && m.command === 'run') void vscode.commands.executeCommand(CommandIds.runWithMujoco, uri);
    else if (m.type === 'reveal' && m.range) void vscode.window.showTextDocument(uri, { selection: toVsRange(m.range), viewColumn: vscode.ViewColumn.One });
    else if (m.type === 'log') this.log[m.level === 'error' ? 'error' : 'info'](`MuJoCo inspector: ${m.message}`);
  }

  /** Take MuJoCo's diagnostics of a model out of the Problems panel (its inspector went back to the engine). */
  unpublish(uri: vscode.Uri): void {
    this.collection.delete(uri);
  }

  /** The open MuJoCo inspectors (the test API). */
  openPanels(): string[] {
    return [...this.panels.keys()];
  }
}
