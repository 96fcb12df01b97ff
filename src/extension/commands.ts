// The commands. Each accepts an optional scene Uri (or URI string) as its first argument (the
// inspector's buttons, the tree, the CodeLens, tests) and otherwise acts on the active scene
// editor or inspector. Their ids come from the one table (commandIds.ts); the context object
// registers them and owns the registrations. A command that simulates receives a `ReadyScene`
// (analysis, scene and simulation all present) through `withReadyScene`. They return a small
// result (useful to tests) and never throw: failures are shown and logged.
import * as vscode from 'vscode';
import { buildPanelModel } from '../panelModel';
import { buildReportHtml, buildReportModel, reportGenerator } from '../report';
import type { PanelModel } from '../protocol';
import { CommandIds, type CommandKey } from './commandIds';
import type { Config } from './config';
import { exportStepData, formatFromPath, type ExportMeta } from './logic/exportData';
import { validateStepCount, validateStepIndex } from './logic/format';
import { exportStem } from './logic/fileKind';
import { mujocoSceneCommand } from './logic/mujocoLens';
import type { MujocoPanelSession } from './logic/mujocoPanelSession';
import { ModelCommands } from './modelCommands';
import type { ModelService } from './models';
import type { MujocoRunner } from './mujocoRunner';
import { isModelPath } from './logic/fileKind';
import { newScene } from './newScene';
import { itemRange, revealInEditor, type PanelManager } from './panel';
import type { Runner } from './runner';
import type { ReadyScene, SceneManager, SceneState } from './scenes';
import type { TraceEditorProvider } from './traceEditor';
import type { RevealArg } from './tree';
import { errorMessage, fileNameOf, isSceneDocument, isSceneUri, parseUriArg } from './util';

interface CommandDeps {
  scenes: SceneManager;
  runner: Runner;
  panels: PanelManager;
  log: vscode.LogOutputChannel;
  config: () => Config;
  extension: vscode.ExtensionContext;
  models: ModelService;
  /** Trace files open in the inspector (Go to Step moves the one in front). */
  traces?: TraceEditorProvider;
  mujoco: MujocoRunner;
}

/** A command handler as VS Code calls it. */
type Cmd = (...args: unknown[]) => unknown;

/** The scene a command acts on, its document open and its current text analysed. */
interface Target {
  doc: vscode.TextDocument;
  state: SceneState;
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

function isRevealArg(a: unknown): a is RevealArg {
  if (typeof a !== 'object' || a === null) return false;
  const r = a as Record<string, unknown>;
  return typeof r.uri === 'string' && (r.kind === 'body' || r.kind === 'constraint') && typeof r.fileIndex === 'number' && typeof r.name === 'string';
}

export class Commands {
  private readonly models: ModelCommands;

  constructor(private readonly d: CommandDeps) {
    this.models = new ModelCommands({ ...d, maxSteps: () => d.config().maxSteps, destination: (s, name, filters, target, opts) => this.destination(s, name, filters, target, opts) });
  }

  /** Every command's handler, by its key in the id table (the type keeps the two complete). */
  handlers(): Record<CommandKey, Cmd> {
    const sceneGoToStep = this.withReadyScene((r, step) => this.goToStep(r, step));
    return {
      // the panel first, then the analysis: the webview loads its script while the host analyses
      openInspector: async (arg?: unknown) => {
        const t = await this.target(arg, false);
        return t ? this.openInspector(t) : undefined;
      },
      openInspectorToSide: async (arg?: unknown) => {
        const t = await this.target(arg, false);
        return t ? this.openInspector(t, { toSide: true }) : undefined;
      },
      // a model whose panel runs MuJoCo: Step, Run and Play/Pause drive that panel's MuJoCo session
      step: this.withSolver(
        (r) => this.step(r),
        (mj) => mujocoSceneCommand(mj, 'step'),
      ),
      // a model with `constraintLens.import.solver` "mujoco": Run N Steps runs MuJoCo's mj_step
      runSteps: (arg?: unknown, ...rest: unknown[]) =>
        this.mujocoSolver(arg)
          ? this.withScene((t, count) => this.models.runWithMujoco(t, count))(arg, ...rest)
          : this.withSolver(
              (r, count) => this.runSteps(r, count),
              (mj, count) => mujocoSceneCommand(mj, 'run', count),
            )(arg, ...rest),
      playPause: this.withSolver(
        (r) => this.d.runner.playPause(r.state),
        (mj) => mujocoSceneCommand(mj, 'playPause'),
      ),
      reset: this.withScene((t) => this.reset(t)),
      goToStep: (...args: unknown[]) => {
        // a trace editor in front takes Go to Step unless the command names another file
        const trace = this.d.traces?.activeEditor();
        if (trace && (args[0] === undefined || String(args[0]) === trace.doc.uri.toString())) return this.d.traces?.goToStep(args[1]);
        return sceneGoToStep(...args);
      },
      exportStepData: this.withReadyScene((r, target, opts) => this.exportStepData(r, target, opts)),
      exportReport: this.withReadyScene((r, target, opts) => this.exportReport(r, target, opts)),
      newScene: async () => (await newScene()).document.uri.toString(),
      showOutput: () => this.d.log.show(),
      revealItem: (a) => this.revealItem(a),
      compareWithMujoco: this.withScene((t) => this.models.compare(t)),
      chooseKeyframe: this.withScene((t, name) => this.models.chooseKeyframe(t, name)),
      exportScene: this.withScene((t, target, opts) => this.models.exportScene(t, target, opts)),
      runWithMujoco: this.withScene((t, count) => this.models.runWithMujoco(t, count)),
    };
  }

  /** Whether Run N Steps of this target goes to MuJoCo: the setting says so and the target (or the active editor) is a model. */
  private mujocoSolver(arg: unknown): boolean {
    if (this.d.config().importSolver !== 'mujoco') return false;
    const uri = toUri(arg) ?? vscode.window.activeTextEditor?.document.uri;
    return uri !== undefined && isModelPath(uri.path);
  }

  /** Register every command of the table (the caller owns the registrations). */
  register(): vscode.Disposable[] {
    const handlers = this.handlers();
    return (Object.keys(CommandIds) as CommandKey[]).map((k) => vscode.commands.registerCommand(CommandIds[k], this.guarded(CommandIds[k], handlers[k])));
  }

  /** Failures are logged and shown (with a way to the log), never thrown at the caller. */
  private guarded(id: string, fn: Cmd): Cmd {
    return async (...args: unknown[]) => {
      try {
        return await fn(...args);
      } catch (e) {
        this.d.log.error(`${id} failed: ${errorMessage(e)}`);
        void vscode.window.showErrorMessage(`Constraint Lens: ${e instanceof Error ? e.message : String(e)}`, 'Show Log').then((b) => {
          if (b) this.d.log.show(true);
        });
        return undefined;
      }
    };
  }

  /** A handler of the target scene (the first argument, else the active scene); undefined when there is none. */
  private withScene<R>(fn: (t: Target, ...rest: unknown[]) => R | Promise<R>): (arg?: unknown, ...rest: unknown[]) => Promise<R | undefined> {
    return async (arg?: unknown, ...rest: unknown[]) => {
      const t = await this.target(arg);
      return t ? fn(t, ...rest) : undefined;
    };
  }

  /** A handler of the target scene that must be simulable: it receives the scene with its simulation. */
  private withReadyScene<R>(fn: (r: ReadyScene, ...rest: unknown[]) => R | Promise<R>): (arg?: unknown, ...rest: unknown[]) => Promise<R | undefined> {
    return this.withScene((t, ...rest) => {
      const r = this.d.scenes.ready(t.state);
      if (!r) {
        void vscode.window.showErrorMessage(`Constraint Lens: ${t.state.fileName} cannot be simulated: fix the errors shown in the Problems view first.`);
        return undefined;
      }
      return fn(r, ...rest);
    });
  }

  /** A handler of the target scene: `mujoco` when its panel runs MuJoCo, else `engine` on the ready scene. */
  private withSolver<R, S>(engine: (r: ReadyScene, ...rest: unknown[]) => R | Promise<R>, mujoco: (mj: MujocoPanelSession, ...rest: unknown[]) => S | Promise<S>): (arg?: unknown, ...rest: unknown[]) => Promise<R | S | undefined> {
    const onEngine = this.withReadyScene(engine);
    return async (arg?: unknown, ...rest: unknown[]) => {
      const t = await this.target(arg);
      if (!t) return undefined;
      const mj = this.d.panels.get(t.state.uri)?.mj;
      return mj ? mujoco(mj, ...rest) : onEngine(t.doc.uri, ...rest);
    };
  }

  /**
   * The scene a command acts on: the argument, else the active scene editor, else the active inspector,
   * else the last scene; analysed unless `analysed` is false.
   */
  private async target(arg: unknown, analysed = true): Promise<Target | undefined> {
    let uri = toUri(arg);
    if (!uri) {
      const ed = vscode.window.activeTextEditor;
      if (ed && isSceneDocument(ed.document)) uri = ed.document.uri;
      else uri = this.d.panels.activeScene()?.uri ?? this.d.scenes.active?.uri;
    }
    if (!uri) {
      void vscode.window.showInformationMessage('Constraint Lens: open a *.scene.json file (or an MJCF or URDF model) first.');
      return undefined;
    }
    const notOurs = () => void vscode.window.showWarningMessage(`Constraint Lens: ${fileNameOf(uri)} is not a *.scene.json file, a URDF file or an MJCF model (.xml with a <mujoco> root element).`);
    if (!isSceneUri(uri)) return notOurs();
    const doc = await vscode.workspace.openTextDocument(uri);
    if (!isSceneDocument(doc)) return notOurs();
    const state = this.d.scenes.stateFor(doc.uri);
    if (analysed) await this.d.scenes.whenInspected(doc);
    return { doc, state };
  }

  private async openInspector(t: Target, opts: { toSide?: boolean } = {}): Promise<string | undefined> {
    const p = await this.d.panels.open(t.doc.uri, opts);
    // resolves as before, with the scene analysed (callers read the analysis next)
    await this.d.scenes.whenInspected(t.doc);
    return p ? t.state.key : undefined;
  }

  private step(r: ReadyScene): number {
    this.d.runner.step(r.state);
    return r.sim.currentStep;
  }

  private async runSteps(r: ReadyScene, count: unknown): Promise<number | undefined> {
    const s = r.state;
    let n = typeof count === 'number' && Number.isInteger(count) && count > 0 ? count : undefined;
    if (n === undefined) {
      const planned = r.scene.solver.steps;
      const input = await vscode.window.showInputBox({
        title: `Run steps of ${s.fileName}`,
        prompt: `Number of steps to take from step ${r.sim.currentStep} (the scene's solver.steps is ${planned})`,
        value: String(planned),
        validateInput: (v) => validateStepCount(v, this.d.config().maxSteps),
      });
      if (input === undefined) return undefined;
      n = Number(input.trim());
    }
    await this.d.runner.run(s, n);
    return s.sim?.currentStep;
  }

  private reset(t: Target): number {
    this.d.runner.reset(t.state);
    return 0;
  }

  private async goToStep(r: ReadyScene, step: unknown): Promise<number | undefined> {
    const s = r.state;
    const current = r.sim.currentStep;
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
      this.d.scenes.showStep(s, reached);
      await this.d.panels.open(s.uri, { preserveFocus: true });
    } else this.d.panels.showStep(s, reached);
    return reached;
  }

  /** Make sure there is a history to export (runs the scene's planned steps when there is none). */
  private async ensureHistory(r: ReadyScene): Promise<boolean> {
    if (r.sim.records.length === 0) {
      const n = r.scene.solver.steps;
      void vscode.window.setStatusBarMessage(`Constraint Lens: no steps yet — running the scene's ${n} steps first`, 4000);
      await this.d.runner.run(r.state, n);
    }
    return r.sim.records.length > 0;
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

  /** The history of the run (the one that ran, with the analysis it belongs to) as CSV or JSON. */
  private async exportStepData(r: ReadyScene, target: unknown, opts: unknown): Promise<string | undefined> {
    const s = r.state;
    if (!(await this.ensureHistory(r))) return undefined;
    const stem = exportStem(s.fileName);
    const dest = await this.destination(s, `${stem}.steps.csv`, { CSV: ['csv'], JSON: ['json'] }, target, opts);
    if (!dest) return undefined;
    const { sim, snapshot: snap, scene } = r;
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

  private async exportReport(r: ReadyScene, target: unknown, opts: unknown): Promise<string | undefined> {
    const s = r.state;
    if (!(await this.ensureHistory(r))) return undefined;
    const stem = exportStem(s.fileName);
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
      const model = await this.reportModel(r);
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

  private async reportModel(ready: ReadyScene): Promise<PanelModel | undefined> {
    const { state: s, result: r, sim } = ready;
    const base = buildPanelModel(s.fileName, r, sim, undefined);
    if (!base) return undefined;
    // A model's comparison with MuJoCo, when one was run, goes into the report as the panel shows it.
    const mujoco = this.d.models.section(s);
    if (mujoco?.status === 'done') base.mujoco = mujoco;
    const version = (this.d.extension.extension.packageJSON as { version?: string }).version ?? '';
    const run = { currentStep: sim.currentStep, snapshotAt: (k: number) => this.d.scenes.snapshotAt(s, k) };
    return buildReportModel(base, run, reportGenerator(version, 'VS Code'));
  }

  private async revealItem(arg: unknown): Promise<void> {
    if (!isRevealArg(arg)) return;
    const s = this.d.scenes.get(arg.uri);
    if (!s) return;
    const range = itemRange(s, arg.kind, arg.fileIndex);
    if (range) await revealInEditor(s.uri, range, { preserveFocus: true, avoidColumn: this.d.panels.get(s.uri)?.panel.viewColumn });
    this.d.panels.select(s.uri, arg.kind === 'constraint' ? { constraint: arg.name } : { body: arg.name });
  }
}
