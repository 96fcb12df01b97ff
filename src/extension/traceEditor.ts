// Trace files of other solvers (.npz, Axion's or FCLib's HDF5; docs/traces.md) open in the inspector
// as a read-only custom editor: the same webview and protocol as a scene's panel, fed from the
// trace's steps (the model carries step 0 and the per-step records; `requestSnapshot` is answered
// with the trace's system at that step). The file is read through the workspace file system (remote
// and virtual workspaces too) and refused above a size bound; a file that cannot be read shows its
// CL801–CL803 diagnostic in the editor. h5wasm is loaded only when an HDF5 trace is opened.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as vscode from 'vscode';
import { analyseTrace, isHdf5, readTrace, type Diagnostic, type Hdf5Open, type TraceAnalysis, type TraceSource } from '../engine';
import { renderPanelHtml } from '../panelHtml';
import { isWebviewMessage, type HostMessage, type PanelModel, type StepRecord, type WebviewMessage } from '../protocol';
import { buildTracePanelModel, traceSnapshotAt } from '../traceModel';
import { ViewIds } from './commandIds';
import { Disposable, toDisposable } from './dispose';
import { PanelFeed } from './logic/panelFeed';
import { errorMessage, fileNameOf, keyOf, makeNonce } from './util';

export const TRACE_VIEW_TYPE = ViewIds.traceInspector;

/** Largest trace file the editor reads (bytes): the extension host holds it and its analysis in memory. */
export const TRACE_EDITOR_MAX_BYTES = 64 * 1024 * 1024;

/** What the e2e tests see of an open trace editor (through the extension's test API). */
export interface TraceEditorProbe {
  /** The trace's format and step count, when it could be read. */
  format?: string;
  steps: number;
  /** The diagnostics shown (reading and analysis), as `CODE: message`. */
  diagnostics: string[];
  /** The panel said `ready` and was sent the model (or the error). */
  fed: boolean;
  /** Types of the messages posted to the webview, oldest first. */
  postedTypes: string[];
  /** The step of the last snapshot posted (`requestSnapshot`'s reply or Go to Step). */
  lastSnapshotStep?: number;
  /** κ(A) and the row labels of step 0 as the model gave them. */
  model?: { cond: number | null; rows: string[]; traceSteps: number };
  lastMessageFromWebview?: WebviewMessage;
}

/** A trace file read and analysed once per open editor. */
class TraceDocument implements vscode.CustomDocument {
  constructor(
    readonly uri: vscode.Uri,
    readonly source: TraceSource | undefined,
    readonly run: TraceAnalysis | undefined,
    readonly diagnostics: Diagnostic[],
    /** Why nothing can be shown, when nothing can. */
    readonly error: string | undefined,
  ) {}
  dispose(): void {}
}

let hdf5: Promise<Hdf5Open | undefined> | undefined;
/**
 * h5wasm's opener, on the first HDF5 trace only: dist/hdf5.js (src/import/hdf5.ts bundled on its own
 * by scripts/build.mjs) sits next to dist/extension.js, so its 4 MB are neither parsed at activation
 * nor part of the extension's bundle. Undefined when it cannot be loaded: the reader then says so.
 */
const openerForHdf5 = (): Promise<Hdf5Open | undefined> =>
  (hdf5 ??= (async () => {
    try {
      type Module = { loadHdf5Open?: () => Promise<Hdf5Open | undefined> };
      const mod = (await import(pathToFileURL(join(__dirname, 'hdf5.js')).href)) as Module & { default?: Module };
      const load = mod.loadHdf5Open ?? mod.default?.loadHdf5Open;
      return load ? await load() : undefined;
    } catch {
      hdf5 = undefined;
      return undefined;
    }
  })());

const describe = (d: Diagnostic): string => `${d.code.split('-')[0]}: ${d.message}`;

/** Reads and analyses a trace file's bytes; never throws (a bad file is its diagnostics). */
export async function openTraceBytes(uri: vscode.Uri, bytes: Uint8Array): Promise<TraceDocument> {
  const name = fileNameOf(uri);
  const openHdf5 = isHdf5(bytes) ? await openerForHdf5() : undefined;
  const read = readTrace(bytes, name, { ...(openHdf5 ? { openHdf5 } : {}) });
  if (!read.source) return new TraceDocument(uri, undefined, undefined, read.diagnostics, `${name} cannot be read: ${read.diagnostics.map(describe).join('; ') || 'not a trace file'}`);
  const run = analyseTrace(read.source);
  const diagnostics = [...read.diagnostics, ...run.diagnostics];
  if (read.source.steps === 0) return new TraceDocument(uri, read.source, run, diagnostics, `${name} has no steps${diagnostics.length ? `: ${diagnostics.map(describe).join('; ')}` : ''}`);
  return new TraceDocument(uri, read.source, run, diagnostics, undefined);
}

/**
 * One trace editor: its webview, fed like a scene's inspector (the same PanelFeed: the model, then
 * the trace's steps as the run's records, one message in flight until the panel acknowledges it,
 * snapshots on request) but from the trace, which never changes under it.
 */
class TraceEditor extends Disposable {
  readonly postedTypes: string[] = [];
  fed = false;
  lastSnapshotStep: number | undefined;
  lastMessageFromWebview: WebviewMessage | undefined;
  private model: PanelModel | undefined;
  private records: StepRecord[] = [];
  private readonly feed: PanelFeed;

  constructor(
    readonly doc: TraceDocument,
    readonly panel: vscode.WebviewPanel,
    private readonly host: TraceEditorProvider,
  ) {
    super();
    const ext = host.extensionUri;
    const webview = panel.webview;
    webview.options = { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(ext, 'dist'), vscode.Uri.joinPath(ext, 'media')] };
    this.feed = new PanelFeed(
      (m) => this.post(m),
      {
        model: () => {
          const model = this.modelOf();
          return { message: model ? { type: 'model', model: { ...model, history: [] } } : { type: 'error', message: this.doc.error ?? 'The trace cannot be shown.' } };
        },
        records: () => (this.modelOf() ? this.records : undefined),
        snapshot: (k) => this.snapshotAt(k),
      },
      { onSnapshotError: (step, e) => this.host.log.error(`trace editor: step ${step} cannot be shown: ${errorMessage(e)}`) },
    );
    this._register(toDisposable(() => this.feed.dispose()));
    this._register(webview.onDidReceiveMessage((m: unknown) => this.receive(m)));
    this._register(
      panel.onDidChangeViewState((e) => {
        if (!e.webviewPanel.visible) this.feed.disconnect(); // the webview is unloaded until it says ready again
        host.setActive(this, e.webviewPanel.active);
      }),
    );
    webview.html = renderPanelHtml({
      cspSource: webview.cspSource,
      nonce: makeNonce(),
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(ext, 'dist', 'panel.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(ext, 'dist', 'webview.css')).toString(),
      title: `Constraint Lens: ${fileNameOf(doc.uri)}`,
    });
  }

  private post(msg: HostMessage): Promise<boolean> {
    this.postedTypes.push(msg.type);
    if (this.postedTypes.length > 200) this.postedTypes.splice(0, this.postedTypes.length - 200);
    if (msg.type === 'snapshot') this.lastSnapshotStep = msg.snapshot.step;
    return Promise.resolve(this.panel.webview.postMessage(msg)).then(
      (ok) => ok,
      (e: unknown) => {
        this.host.log.error(`trace editor: postMessage failed: ${errorMessage(e)}`);
        return false;
      },
    );
  }

  /** The model with its records (built once: a trace never changes under an open editor). */
  modelOf(): PanelModel | undefined {
    const { source, run } = this.doc;
    if (!this.model && source && run && !this.doc.error) {
      const model = buildTracePanelModel(fileNameOf(this.doc.uri), source, run, this.doc.diagnostics);
      model.sceneUri = this.doc.uri.toString();
      this.records = model.history;
      this.model = model;
    }
    return this.model;
  }

  private snapshotAt(k: number) {
    const source = this.doc.source;
    if (!source || this.doc.error) return undefined;
    return traceSnapshotAt(source, Math.max(0, Math.min(source.steps - 1, k)), { diagnostics: this.doc.diagnostics });
  }

  /** Go to Step: the panel moves to the trace's step k (clamped); the step. */
  showStep(k: number): number | undefined {
    const n = this.doc.source?.steps ?? 0;
    if (n === 0 || this.doc.error) return undefined;
    const step = Math.max(0, Math.min(n - 1, Math.round(k)));
    this.feed.request(step, true);
    return step;
  }

  receive(m: unknown): void {
    if (!isWebviewMessage(m)) {
      this.host.log.warn('trace editor: ignored an invalid message from the webview');
      return;
    }
    this.lastMessageFromWebview = m;
    try {
      switch (m.type) {
        case 'ready':
          this.fed = true;
          this.feed.connect();
          break;
        case 'ack':
          this.feed.ack(m.seq, m.ms);
          break;
        case 'requestSnapshot':
          this.feed.request(m.step);
          break;
        case 'log':
          if (m.level === 'error') this.host.log.error(`[trace webview] ${m.message}`);
          break;
        // no simulation runs on a trace, and a binary file has no text to reveal
        case 'command':
        case 'reveal':
          break;
      }
    } catch (e) {
      this.host.log.error(`trace editor: handling '${m.type}' failed: ${errorMessage(e)}`);
    }
  }

  probe(): TraceEditorProbe {
    const model = this.modelOf();
    return {
      ...(this.doc.source ? { format: this.doc.source.format } : {}),
      steps: this.doc.source?.steps ?? 0,
      diagnostics: this.doc.diagnostics.map(describe),
      fed: this.fed,
      postedTypes: [...this.postedTypes],
      ...(this.lastSnapshotStep !== undefined ? { lastSnapshotStep: this.lastSnapshotStep } : {}),
      ...(model ? { model: { cond: model.snapshot.cond.A, rows: model.snapshot.rows.map((r) => r.label), traceSteps: model.trace?.steps.length ?? 0 } } : {}),
      ...(this.lastMessageFromWebview ? { lastMessageFromWebview: this.lastMessageFromWebview } : {}),
    };
  }
}

export class TraceEditorProvider extends Disposable implements vscode.CustomReadonlyEditorProvider<TraceDocument> {
  private readonly editors = new Map<string, TraceEditor>();
  private active: TraceEditor | undefined;

  constructor(
    readonly extensionUri: vscode.Uri,
    readonly log: vscode.LogOutputChannel,
  ) {
    super();
    this._register(vscode.window.registerCustomEditorProvider(TRACE_VIEW_TYPE, this, { supportsMultipleEditorsPerDocument: false }));
  }

  async openCustomDocument(uri: vscode.Uri): Promise<TraceDocument> {
    const name = fileNameOf(uri);
    try {
      const stat = await vscode.workspace.fs.stat(uri);
      if (stat.size > TRACE_EDITOR_MAX_BYTES)
        return new TraceDocument(uri, undefined, undefined, [], `${name} is ${stat.size} bytes, above the ${TRACE_EDITOR_MAX_BYTES} bytes the editor reads; use the CLI: constraint-lens inspect ${name}`);
      return await openTraceBytes(uri, await vscode.workspace.fs.readFile(uri));
    } catch (e) {
      this.log.error(`trace editor: cannot open ${uri.toString()}: ${errorMessage(e)}`);
      return new TraceDocument(uri, undefined, undefined, [], `${name} cannot be read: ${errorMessage(e)}`);
    }
  }

  resolveCustomEditor(document: TraceDocument, panel: vscode.WebviewPanel): void {
    const key = keyOf(document.uri);
    const editor = new TraceEditor(document, panel, this);
    this.editors.get(key)?.dispose();
    this.editors.set(key, editor);
    this.active = editor;
    panel.onDidDispose(() => {
      if (this.editors.get(key) === editor) this.editors.delete(key);
      if (this.active === editor) this.active = undefined;
      editor.dispose();
    });
  }

  setActive(editor: TraceEditor, active: boolean): void {
    if (active) this.active = editor;
    else if (this.active === editor) this.active = undefined;
  }

  /** The trace editor in front, if one is. */
  activeEditor(): TraceEditor | undefined {
    return this.active?.panel.active ? this.active : undefined;
  }

  /** A message as if the editor's webview had posted it (the test API); false when no editor has that file. */
  receive(uri: vscode.Uri, message: unknown): boolean {
    const ed = this.editors.get(keyOf(uri));
    ed?.receive(message);
    return ed !== undefined;
  }

  probe(uri: vscode.Uri): TraceEditorProbe | undefined {
    return this.editors.get(keyOf(uri))?.probe();
  }

  /** Go to Step in the active trace editor: asks for the step when none is given; the step shown, or undefined. */
  async goToStep(step: unknown): Promise<number | undefined> {
    const ed = this.activeEditor();
    const n = ed?.doc.source?.steps ?? 0;
    if (!ed || n === 0) return undefined;
    let k = typeof step === 'number' && Number.isInteger(step) && step >= 0 ? step : undefined;
    if (k === undefined) {
      const input = await vscode.window.showInputBox({
        title: `Go to step of ${fileNameOf(ed.doc.uri)}`,
        prompt: `Step of the trace to show, 0 … ${n - 1}`,
        value: String(ed.lastSnapshotStep ?? 0),
        validateInput: (v) => (/^\s*\d+\s*$/.test(v) && Number(v) < n ? undefined : `a whole number from 0 to ${n - 1}`),
      });
      if (input === undefined) return undefined;
      k = Number(input.trim());
    }
    return ed.showStep(k);
  }

  override dispose(): void {
    for (const e of this.editors.values()) e.dispose();
    this.editors.clear();
    super.dispose();
  }
}
