// The commands. Each accepts an optional scene Uri (or URI string) as its first argument
// (CodeLens, tree, tests) and otherwise acts on the active scene editor or inspector. They return
// a small result (useful to tests) and never throw: failures are shown and logged.
import * as vscode from 'vscode';
import { buildPanelModel } from '../panelModel';
import { buildReportHtml, buildReportModel, reportGenerator } from '../report';
import type { PanelModel } from '../protocol';
import type { Config } from './config';
import { exportStepData, formatFromPath, type ExportMeta } from './logic/exportData';
import { validateStepCount, validateStepIndex } from './logic/format';
import { newScene } from './newScene';
import { itemRange, revealInEditor, type PanelManager } from './panel';
import type { Runner } from './runner';
import type { SceneManager, SceneState } from './scenes';
import type { RevealArg } from './tree';
import { errorMessage, fileNameOf, isSceneDocument, isSceneUri, parseUriArg } from './util';

export const COMMANDS = {
  openInspector: 'constraintLens.openInspector',
  step: 'constraintLens.step',
  runSteps: 'constraintLens.runSteps',
  playPause: 'constraintLens.playPause',
  reset: 'constraintLens.reset',
  goToStep: 'constraintLens.goToStep',
  exportStepData: 'constraintLens.exportStepData',
  exportReport: 'constraintLens.exportReport',
  newScene: 'constraintLens.newScene',
  revealItem: 'constraintLens.revealItem',
  showOutput: 'constraintLens.showOutput',
} as const;

interface Deps {
  scenes: SceneManager;
  runner: Runner;
  panels: PanelManager;
  log: vscode.LogOutputChannel;
  config: () => Config;
  extension: vscode.ExtensionContext;
}

const toUri = (arg: unknown): vscode.Uri | undefined => {
  if (arg instanceof vscode.Uri) return arg;
  if (typeof arg === 'string' && arg.length > 0) return parseUriArg(arg);
  if (typeof arg === 'object' && arg !== null) {
    const u = (arg as { uri?: unknown; resourceUri?: unknown }).uri ?? (arg as { resourceUri?: unknown }).resourceUri;
    if (u instanceof vscode.Uri) return u;
    if (typeof u === 'string') return parseUriArg(u);
  }
  return undefined;
};

export class Commands {
  constructor(private readonly d: Deps) {}

  register(): vscode.Disposable[] {
    const reg = (id: string, fn: (...args: unknown[]) => Promise<unknown> | unknown): vscode.Disposable =>
      vscode.commands.registerCommand(id, async (...args: unknown[]) => {
        try {
          return await fn(...args);
        } catch (e) {
          this.d.log.error(`${id} failed: ${errorMessage(e)}`);
          void vscode.window.showErrorMessage(`Constraint Lens: ${e instanceof Error ? e.message : String(e)}`, 'Show Log').then((b) => {
            if (b) this.d.log.show(true);
          });
          return undefined;
        }
      });
    return [
      reg(COMMANDS.openInspector, (a) => this.openInspector(a)),
      reg(COMMANDS.step, (a) => this.step(a)),
      reg(COMMANDS.runSteps, (a, n) => this.runSteps(a, n)),
      reg(COMMANDS.playPause, (a) => this.playPause(a)),
      reg(COMMANDS.reset, (a) => this.reset(a)),
      reg(COMMANDS.goToStep, (a, k) => this.goToStep(a, k)),
      reg(COMMANDS.exportStepData, (a, t, o) => this.exportStepData(a, t, o)),
      reg(COMMANDS.exportReport, (a, t, o) => this.exportReport(a, t, o)),
      reg(COMMANDS.newScene, async () => (await newScene()).document.uri.toString()),
      reg(COMMANDS.revealItem, (a) => this.revealItem(a as RevealArg)),
      reg(COMMANDS.showOutput, () => this.d.log.show()),
    ];
  }

  /** The scene a command acts on: the argument, else the active scene editor, else the active inspector, else the last scene. */
  private async target(arg: unknown): Promise<{ doc: vscode.TextDocument; state: SceneState } | undefined> {
    let uri = toUri(arg);
    if (!uri) {
      const ed = vscode.window.activeTextEditor;
      if (ed && isSceneDocument(ed.document)) uri = ed.document.uri;
      else uri = this.d.panels.activeScene()?.uri ?? this.d.scenes.active?.uri;
    }
    if (!uri) {
      void vscode.window.showInformationMessage('Constraint Lens: open a *.scene.json file first.');
      return undefined;
    }
    if (!isSceneUri(uri)) {
      void vscode.window.showWarningMessage(`Constraint Lens: ${fileNameOf(uri)} is not a *.scene.json file.`);
      return undefined;
    }
    const doc = await vscode.workspace.openTextDocument(uri);
    const state = this.d.scenes.stateFor(doc.uri);
    await this.d.scenes.whenInspected(doc);
    return { doc, state };
  }

  /** The target scene, which must be analysable (for Step, Run, ...). */
  private async simulable(arg: unknown): Promise<SceneState | undefined> {
    const t = await this.target(arg);
    if (!t) return undefined;
    if (!this.d.scenes.simulation(t.state)) {
      void vscode.window.showErrorMessage(`Constraint Lens: ${t.state.fileName} cannot be simulated: fix the errors shown in the Problems view first.`);
      return undefined;
    }
    return t.state;
  }

  async openInspector(arg?: unknown): Promise<string | undefined> {
    const t = await this.target(arg);
    if (!t) return undefined;
    const p = await this.d.panels.open(t.doc.uri);
    return p ? t.state.key : undefined;
  }

  async step(arg?: unknown): Promise<number | undefined> {
    const s = await this.simulable(arg);
    if (!s) return undefined;
    this.d.runner.step(s);
    return s.sim?.currentStep;
  }

  async runSteps(arg?: unknown, count?: unknown): Promise<number | undefined> {
    const s = await this.simulable(arg);
    if (!s) return undefined;
    let n = typeof count === 'number' && Number.isInteger(count) && count > 0 ? count : undefined;
    if (n === undefined) {
      const planned = s.result?.parse.scene?.solver.steps ?? 100;
      const input = await vscode.window.showInputBox({
        title: `Run steps of ${s.fileName}`,
        prompt: `Number of steps to take from step ${s.sim?.currentStep ?? 0} (the scene's solver.steps is ${planned})`,
        value: String(planned),
        validateInput: (v) => validateStepCount(v, this.d.config().maxSteps),
      });
      if (input === undefined) return undefined;
      n = Number(input.trim());
    }
    await this.d.runner.run(s, n);
    return s.sim?.currentStep;
  }

  async playPause(arg?: unknown): Promise<boolean | undefined> {
    const s = await this.simulable(arg);
    if (!s) return undefined;
    return this.d.runner.playPause(s);
  }

  async reset(arg?: unknown): Promise<number | undefined> {
    const t = await this.target(arg);
    if (!t) return undefined;
    this.d.runner.reset(t.state);
    return 0;
  }

  async goToStep(arg?: unknown, step?: unknown): Promise<number | undefined> {
    const s = await this.simulable(arg);
    if (!s) return undefined;
    const current = s.sim?.currentStep ?? 0;
    let k = typeof step === 'number' && Number.isInteger(step) && step >= 0 ? step : undefined;
    if (k === undefined) {
      const input = await vscode.window.showInputBox({
        title: `Go to step of ${s.fileName}`,
        prompt: `Step to show, 0 … ${current} (a later step runs the simulation up to it)`,
        value: String(current),
        validateInput: (v) => validateStepIndex(v, current, this.d.config().maxSteps),
      });
      if (input === undefined) return undefined;
      k = Number(input.trim());
    }
    if (k > current) await this.d.runner.run(s, k - current);
    const reached = Math.min(k, s.sim?.currentStep ?? 0);
    if (!this.d.panels.get(s.uri)) {
      s.shownStep = reached;
      await this.d.panels.open(s.uri, { preserveFocus: true });
    } else this.d.panels.showStep(s, reached);
    return reached;
  }

  /** Make sure there is a history to export (runs the scene's planned steps when there is none). */
  private async ensureHistory(s: SceneState): Promise<boolean> {
    const sim = this.d.scenes.simulation(s);
    if (!sim) return false;
    if (sim.records.length === 0) {
      const n = s.result?.parse.scene?.solver.steps ?? 100;
      void vscode.window.setStatusBarMessage(`Constraint Lens: no steps yet — running the scene's ${n} steps first`, 4000);
      await this.d.runner.run(s, n);
    }
    return sim.records.length > 0;
  }

  /**
   * Where to write: the save dialog (which asks before replacing a file), or `target` given by a
   * caller (tests) — an existing file is then replaced only with `{ overwrite: true }`.
   */
  private async destination(s: SceneState, defaultName: string, filters: Record<string, string[]>, target: unknown, opts: unknown): Promise<vscode.Uri | undefined> {
    const given = toUri(target);
    if (given) {
      const overwrite = typeof opts === 'object' && opts !== null && (opts as { overwrite?: unknown }).overwrite === true;
      if (!overwrite) {
        let exists = false;
        try {
          await vscode.workspace.fs.stat(given);
          exists = true;
        } catch {
          exists = false;
        }
        if (exists) {
          void vscode.window.showErrorMessage(`Constraint Lens: ${fileNameOf(given)} exists; not overwritten.`);
          return undefined;
        }
      }
      return given;
    }
    const base = s.uri.scheme === 'untitled' ? vscode.workspace.workspaceFolders?.[0]?.uri : vscode.Uri.joinPath(s.uri, '..');
    return vscode.window.showSaveDialog({
      title: `Constraint Lens: export ${s.fileName}`,
      defaultUri: base ? vscode.Uri.joinPath(base, defaultName) : undefined,
      filters,
      saveLabel: 'Export',
    });
  }

  async exportStepData(arg?: unknown, target?: unknown, opts?: unknown): Promise<string | undefined> {
    const s = await this.simulable(arg);
    if (!s || !(await this.ensureHistory(s))) return undefined;
    const stem = s.fileName.replace(/\.scene\.json$/i, '');
    const dest = await this.destination(s, `${stem}.steps.csv`, { CSV: ['csv'], JSON: ['json'] }, target, opts);
    if (!dest) return undefined;
    const sim = s.sim!;
    const snap = s.result!.snapshot!;
    const scene = s.result!.parse.scene!;
    const meta: ExportMeta = {
      sceneName: scene.name,
      fileName: s.fileName,
      dt: scene.solver.dt,
      constraints: snap.constraints.map((c) => c.name),
      rowLabels: snap.rows.map((r) => r.label),
      bodies: scene.bodies.map((b) => b.name),
    };
    const text = exportStepData(sim.records, meta, formatFromPath(dest.path));
    await vscode.workspace.fs.writeFile(dest, new TextEncoder().encode(text));
    if (toUri(target) === undefined) void vscode.window.showInformationMessage(`Constraint Lens: exported ${sim.records.length} steps to ${fileNameOf(dest)}.`);
    return dest.toString();
  }

  async exportReport(arg?: unknown, target?: unknown, opts?: unknown): Promise<string | undefined> {
    const s = await this.simulable(arg);
    if (!s || !(await this.ensureHistory(s))) return undefined;
    const stem = s.fileName.replace(/\.scene\.json$/i, '');
    const dest = await this.destination(s, `${stem}.report.html`, { HTML: ['html'] }, target, opts);
    if (!dest) return undefined;
    const ext = this.d.extension.extensionUri;
    let js: string;
    let css: string;
    try {
      const dec = new TextDecoder();
      js = dec.decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(ext, 'dist', 'webview.js')));
      css = dec.decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(ext, 'dist', 'webview.css')));
    } catch (e) {
      this.d.log.error(`report assets missing: ${errorMessage(e)}`);
      void vscode.window.showErrorMessage('Constraint Lens: the inspector assets (dist/webview.js, dist/webview.css) are missing from the extension.');
      return undefined;
    }
    const html = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Constraint Lens: building the report of ${s.fileName}` }, async () => {
      const model = await this.reportModel(s);
      return model ? buildReportHtml(model, { js, css }) : undefined;
    });
    if (!html) {
      void vscode.window.showErrorMessage(`Constraint Lens: ${s.fileName} cannot be analysed; no report written.`);
      return undefined;
    }
    await vscode.workspace.fs.writeFile(dest, new TextEncoder().encode(html));
    if (toUri(target) === undefined) {
      void vscode.window.showInformationMessage(`Constraint Lens: report written to ${fileNameOf(dest)}.`, 'Open').then((b) => {
        if (b) void vscode.env.openExternal(dest);
      });
    }
    return dest.toString();
  }

  private async reportModel(s: SceneState): Promise<PanelModel | undefined> {
    const r = s.result;
    const sim = s.sim;
    if (!r?.snapshot) return undefined;
    const base = buildPanelModel(s.fileName, r, sim, undefined);
    if (!base) return undefined;
    const version = (this.d.extension.extension.packageJSON as { version?: string }).version ?? '';
    const run = sim && { currentStep: sim.currentStep, snapshotAt: (k: number) => this.d.scenes.snapshotAt(s, k) };
    return buildReportModel(base, run, reportGenerator(version, 'VS Code'));
  }

  async revealItem(arg: RevealArg | undefined): Promise<void> {
    if (!arg || typeof arg.uri !== 'string') return;
    const s = this.d.scenes.get(arg.uri);
    if (!s) return;
    const range = itemRange(s, arg.kind, arg.fileIndex);
    if (range) await revealInEditor(s.uri, range, { preserveFocus: true, avoidColumn: this.d.panels.get(s.uri)?.panel.viewColumn });
    this.d.panels.select(s.uri, arg.kind === 'constraint' ? { constraint: arg.name } : { body: arg.name });
  }
}
